"""Arenas and self-play spread over a Ray cluster (``pip install ray``).

    import carcassonne.ray as cray
    report = cray.arena(["hard", "greedy"], games=100, sets=["base", "am"])     # ray.init() if not yet started
    print(report["bots"])

Each game is one Ray task (``num_cpus`` each, 1 by default); seats rotate so that each bot sits in each seat
equally often, as in ``carc arena``. The report gives, per bot, games, wins (a shared first place counts as a
fraction), a 95% Wilson interval on the win rate, the mean score and the mean margin over the best other player;
``records`` (a folder) keeps every game's record, which ``carc replay`` reads.
"""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

import ray

import carcassonne


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> List[float]:
    """The Wilson score interval of a proportion (``wins`` of ``n``), 95% by default."""
    if n == 0:
        return [0.0, 1.0]
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _play(setup: Dict[str, Any], specs: List[str], seed: int) -> Dict[str, Any]:
    game = carcassonne.Game(**setup, seed=seed)
    bots = [carcassonne.Bot(s, seed * 16 + i) for i, s in enumerate(specs)]
    decisions = 0
    start = time.perf_counter()
    while not game.is_over():
        p = game.current_player
        if p == carcassonne.CHANCE:
            game.draw()
        else:
            game.apply(bots[p].choose(game, p))
            decisions += 1
    return {
        "seed": seed,
        "seats": specs,
        "scores": game.scores(),
        "record": game.to_record(),
        "decisions": decisions,
        "seconds": time.perf_counter() - start,
    }


def _ensure_ray(address: Optional[str]) -> None:
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)


def run_games(
    seats_of: Callable[[int], List[str]],
    games: int,
    players: int = 2,
    sets: Sequence[str] = ("base",),
    rules: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    num_cpus: float = 1,
    address: Optional[str] = None,
    records: Optional[str] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> List[Dict[str, Any]]:
    """Play ``games`` games on the cluster, game ``g`` with seed ``seed + g`` and the seats ``seats_of(g)``.
    Returns each game's result (seats, scores, record, decisions, seconds), in game order."""
    _ensure_ray(address)
    setup = {"players": players, "sets": list(sets), "rules": dict(rules or {})}
    task = ray.remote(num_cpus=num_cpus)(_play)
    pending = {task.remote(setup, seats_of(g), seed + g): g for g in range(games)}
    results: Dict[int, Dict[str, Any]] = {}
    if records:
        os.makedirs(records, exist_ok=True)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            g = pending.pop(ref)
            r = ray.get(ref)
            results[g] = r
            if records:
                with open(os.path.join(records, f"game-{r['seed']}.json"), "w", encoding="utf-8") as f:
                    json.dump(r["record"], f, indent=2)
                    f.write("\n")
            if progress:
                progress(len(results), games)
    return [results[g] for g in range(games)]


def arena(
    bots: Sequence[str],
    games: int,
    players: int = 2,
    sets: Sequence[str] = ("base",),
    rules: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    num_cpus: float = 1,
    address: Optional[str] = None,
    records: Optional[str] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Any]:
    """Bots (specs, as ``carc arena --bots``) against each other over ``games`` games on the cluster; seat ``s`` of
    game ``g`` is played by ``bots[(s + g) % len(bots)]``. Returns ``{"games", "bots": {spec: {...}}, "results"}``."""
    if not bots:
        raise ValueError("name at least one bot")
    for b in bots:
        carcassonne.Bot(b)  # a bad spec fails here, before any task starts
    specs = list(bots)

    def seats_of(g: int) -> List[str]:
        return [specs[(s + g) % len(specs)] for s in range(players)]

    results = run_games(seats_of, games, players, sets, rules, seed, num_cpus, address, records, progress)
    return {"games": games, "bots": summarise(results), "results": results}


def summarise(results: Sequence[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Per bot: seats played, wins (shared first places as fractions), the win rate's Wilson interval, mean score,
    mean margin over the best other seat."""
    acc: Dict[str, Dict[str, float]] = {}
    for r in results:
        scores = r["scores"]
        best = max(scores)
        leaders = sum(1 for s in scores if s == best)
        for seat, spec in enumerate(r["seats"]):
            a = acc.setdefault(spec, {"seats": 0, "wins": 0.0, "score": 0.0, "margin": 0.0})
            a["seats"] += 1
            a["wins"] += (1.0 / leaders) if scores[seat] == best else 0.0
            a["score"] += scores[seat]
            others = [s for i, s in enumerate(scores) if i != seat]
            a["margin"] += scores[seat] - max(others)
    out = {}
    for spec, a in acc.items():
        n = int(a["seats"])
        out[spec] = {
            "seats": n,
            "wins": a["wins"],
            "win_rate": a["wins"] / n,
            "win_rate_95": wilson(a["wins"], n),
            "mean_score": a["score"] / n,
            "mean_margin": a["margin"] / n,
        }
    return out


def selfplay(
    bot: str,
    games: int,
    players: int = 2,
    sets: Sequence[str] = ("base",),
    rules: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    num_cpus: float = 1,
    address: Optional[str] = None,
    records: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """``games`` games of one bot against itself on the cluster (for training data): each result has the record."""
    carcassonne.Bot(bot)
    return run_games(lambda g: [bot] * players, games, players, sets, rules, seed, num_cpus, address, records)
