"""Arenas and self-play spread over a Ray cluster (``pip install ray``).

    import carcassonne.ray as cray
    report = cray.arena(["hard", "greedy"], games=100, sets=["base", "am"])     # ray.init() if not yet started
    print(report["bots"])

Each game is one Ray task (``num_cpus`` each, 1 by default); seats rotate so that each bot sits in each seat
equally often, as in ``carc arena``. The report gives, per bot, games, wins (a shared first place counts as a
fraction), a 95% Wilson interval on the win rate, the mean score, the mean margin over the best other player and
the Elo difference against each other bot, all by ``carc arena``'s own arithmetic;
``records`` (a folder) keeps every game's record, which ``carc replay`` reads. ``tune`` is ``carc tune`` (SPSA over
a bot's settings) with each step's games spread over the cluster.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import ray

import carcassonne


def _play(setup: Dict[str, Any], specs: List[str], seed: int) -> Dict[str, Any]:
    game = carcassonne.Game(**setup, seed=seed)
    bots = [carcassonne.Bot(s, seed * 16 + i) for i, s in enumerate(specs)]
    decisions = 0
    start = time.perf_counter()
    while not game.is_over():
        p = game.current_player()
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
    config: Optional[carcassonne.Config] = None,
) -> List[Dict[str, Any]]:
    """Play ``games`` games on the cluster, game ``g`` with seed ``seed + g`` and the seats ``seats_of(g)``; the
    configuration is ``config``, or ``players``, ``sets``, ``rules`` and ``seed``. Returns each game's result (seats,
    scores, record, decisions, seconds), in game order."""
    _ensure_ray(address)
    c = carcassonne._config_of(config, players, sets, rules, seed, carcassonne.DEFAULT_WINDOW)
    setup = {"players": c.players, "sets": list(c.sets), "rules": c.rules_dict}
    seed = c.seed
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
    config: Optional[carcassonne.Config] = None,
) -> Dict[str, Any]:
    """Bots (specs, as ``carc arena --bots``) against each other over ``games`` games on the cluster; seat ``s`` of
    game ``g`` is played by ``bots[(s + g) % len(bots)]``. The configuration is ``config`` or the separate options.
    Returns ``{"games", "bots": {spec: {...}}, "results"}``."""
    c = carcassonne._config_of(config, players, sets, rules, seed, carcassonne.DEFAULT_WINDOW)
    if not bots:
        raise ValueError("name at least one bot")
    for b in bots:
        carcassonne.Bot(b)  # a bad spec fails here, before any task starts
    specs = list(bots)

    def seats_of(g: int) -> List[str]:
        return [specs[(s + g) % len(specs)] for s in range(c.players)]

    results = run_games(
        seats_of, games, num_cpus=num_cpus, address=address, records=records, progress=progress, config=c
    )
    return {"games": games, "bots": summarise(results), "results": results}


def summarise(results: Sequence[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Per bot: seats played, wins (shared first places as fractions), the win rate and its 95% Wilson interval,
    mean score, mean margin over the best other seat, and ``elo`` against each other bot (its difference with a 95%
    interval). The arithmetic is ``carc arena``'s own (``carcassonne._core.summarise_json``)."""
    specs: List[str] = []
    games = []
    for r in results:
        for spec in r["seats"]:
            if spec not in specs:
                specs.append(spec)
        games.append(([specs.index(spec) for spec in r["seats"]], [int(x) for x in r["scores"]]))
    if not games:
        return {}
    tally = json.loads(carcassonne._core.summarise_json(specs, games))
    out: Dict[str, Dict[str, Any]] = {}
    for b in tally["bots"]:
        row = {k: b[k] for k in ("seats", "wins", "win_rate", "win_rate_95", "mean_score", "mean_margin")}
        row["elo"] = {}
        out[b["spec"]] = row

    def neg(x: Optional[float]) -> Optional[float]:
        return None if x is None else -x

    # (An Elo difference without bound, every pairing won or every one lost, is None.)
    for p in tally["pairings"]:
        lo, hi = p["elo_95"]
        out[p["a"]]["elo"][p["b"]] = {"elo": p["elo"], "elo_95": [lo, hi], "pairs": p["n"]}
        out[p["b"]]["elo"][p["a"]] = {"elo": neg(p["elo"]), "elo_95": [neg(hi), neg(lo)], "pairs": p["n"]}
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
    config: Optional[carcassonne.Config] = None,
) -> List[Dict[str, Any]]:
    """``games`` games of one bot against itself on the cluster (for training data): each result has the record.
    The configuration is ``config`` or the separate options."""
    carcassonne.Bot(bot)
    c = carcassonne._config_of(config, players, sets, rules, seed, carcassonne.DEFAULT_WINDOW)
    return run_games(lambda g: [bot] * c.players, games, num_cpus=num_cpus, address=address, records=records, config=c)


def tune(
    bot: str,
    params: Mapping[str, Optional[float]],
    steps: int = 200,
    against: Sequence[str] = ("self",),
    pairs: int = 4,
    rate: float = 0.5,
    players: int = 2,
    sets: Sequence[str] = ("base",),
    rules: Optional[Mapping[str, Any]] = None,
    seed: int = 1,
    num_cpus: float = 1,
    address: Optional[str] = None,
    log: Optional[str] = None,
    progress: Optional[Callable[[int, int, List[float]], None]] = None,
    config: Optional[carcassonne.Config] = None,
) -> Dict[str, Any]:
    """``carc tune`` with its games spread over the cluster: SPSA over ``bot``'s numeric settings ``params`` (name
    to scale, or ``None`` for a tenth of the value). At each step the ``+`` and ``−`` players meet on ``pairs`` deals
    with the seats swapped, against each other (``against=("self",)``) or each against the same opponent (the bots
    named, one a step in turn; ``"gauntlet"`` names the four gauntlet bots). A step's games run at once, one task
    each. With ``log`` (a file), every step is a JSON line and a run that was stopped goes on from its last step.
    Returns ``{"tuned": spec, "keys", "start", "last", "mean", "steps"}``, ``mean`` over the last quarter of the
    steps (the values of ``tuned``)."""
    if steps < 1 or pairs < 1:
        raise ValueError("steps and pairs must be at least 1")
    # The tuner's own `seed` chooses the deals and the perturbations; a config gives players, sets and rules.
    c = carcassonne._config_of(config, players, sets, rules, 0, carcassonne.DEFAULT_WINDOW)
    spsa = carcassonne._core.Spsa(bot, list(params.items()), steps, rate)
    opponents: List[str] = []
    for a in [against] if isinstance(against, str) else against:
        opponents.extend(["citybuilder", "farmer", "joiner", "cautious"] if a == "gauntlet" else [a])
    for o in opponents:
        if o != "self":
            carcassonne.Bot(o)
    if not opponents:
        raise ValueError("name `self` or at least one opponent")
    header: Dict[str, Any] = {
        "carc_tune_ray": 1,
        "bot": bot,
        "params": [[k, s] for k, s in zip(spsa.keys, spsa.scales)],
        "against": opponents,
        "steps": steps,
        "pairs": pairs,
        "rate": rate,
        "seed": seed,
        "setup": {"players": c.players, "sets": list(c.sets), "rules": c.rules_dict},
    }
    history: List[Dict[str, Any]] = []
    if log and os.path.exists(log) and os.path.getsize(log) > 0:
        with open(log, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if json.loads(lines[0]) != header:
            raise ValueError(f"{log} is a tuning run with other options")
        for line in lines[1:]:
            try:
                history.append(json.loads(line))
            except json.JSONDecodeError:
                break  # a line cut short by a stop: that step is played again
        with open(log, "w", encoding="utf-8") as f:
            f.write("\n".join([json.dumps(header)] + [json.dumps(h) for h in history]) + "\n")
    elif log:
        with open(log, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
    _ensure_ray(address)
    task = ray.remote(num_cpus=num_cpus)(_play)
    setup = header["setup"]
    theta = history[-1]["next"] if history else spsa.start
    for k in range(len(history), steps):
        plus, minus = spsa.probes(theta, k, seed)
        sp, sm = spsa.spec(plus), spsa.spec(minus)
        opponent = opponents[k % len(opponents)]
        games = []  # (specs by seat, side by seat: "+", "-" or None, deal seed)
        for j in range(pairs):
            deal = (seed * 1_000_003 + k * pairs + j) % 2**63
            sides: List[List[Tuple[str, Optional[str]]]]
            if opponent == "self":
                sides = [[(sp, "+"), (sm, "-")]]
            else:
                sides = [[(sp, "+"), (opponent, None)], [(sm, "-"), (opponent, None)]]
            for pair in sides:
                for rot in range(2):
                    seats = [pair[(s + rot) % 2] for s in range(c.players)]
                    games.append(([x[0] for x in seats], [x[1] for x in seats], deal))
        refs = [task.remote(setup, specs, deal) for specs, _, deal in games]
        total = {"+": [0.0, 0], "-": [0.0, 0]}
        for (_, sides_of, _), r in zip(games, ray.get(refs)):
            for seat, side in enumerate(sides_of):
                if side:
                    total[side][0] += carcassonne._core.Spsa.reward(r["scores"], seat)
                    total[side][1] += 1
        y_plus = total["+"][0] / max(1, total["+"][1])
        y_minus = total["-"][0] / max(1, total["-"][1])
        nxt = spsa.update(theta, k, seed, y_plus, y_minus)
        step = {
            "step": k,
            "opponent": opponent,
            "theta": theta,
            "plus": plus,
            "minus": minus,
            "games": len(games),
            "y_plus": y_plus,
            "y_minus": y_minus,
            "next": nxt,
        }
        history.append(step)
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps(step) + "\n")
        theta = nxt
        if progress:
            progress(k + 1, steps, theta)
    tail = history[len(history) - (len(history) + 3) // 4 :]
    mean = [sum(h["next"][i] for h in tail) / len(tail) for i in range(len(spsa.keys))]
    return {
        "tuned": spsa.spec(mean),
        "keys": spsa.keys,
        "start": spsa.start,
        "last": theta,
        "mean": mean,
        "steps": len(history),
    }
