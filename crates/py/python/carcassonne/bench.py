"""Steps per second from Python: one game, and VecGame at n = 1, 64 and 1024, beside native random playouts.

    python -m carcassonne.bench                      # base game, two players
    python -m carcassonne.bench --sets base,am,pd,cc,half --players 3

Every row plays uniformly random legal actions (draws from each game's own stack) and counts player decisions, so
the rates compare like with like. Two native rates: the engine's own random playout (which samples a placement
without listing every one, as ``VecGame.random_actions`` does) and a playout that lists the legal actions at every
decision, as a legality mask needs (the "listing" rows do that from Python).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

import carcassonne


def single_game(setup: dict, seconds: float) -> float:
    rng = random.Random(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = carcassonne.Game(**setup, seed=seed)
        seed += 1
        while not game.is_over():
            if game.is_chance_node:
                game.draw()
            else:
                game.apply(rng.choice(game.legal_action_ids()))
                steps += 1
    return steps / (time.perf_counter() - start)


def vec_game(setup: dict, n: int, seconds: float, threads: int, listing: bool) -> float:
    """VecGame steps per second; with ``listing``, every step first lists every game's legal ids (as a masked policy
    needs) and picks among them in numpy, else ``random_actions`` picks in Rust."""
    vec = carcassonne.VecGame(n, **setup, threads=threads)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if listing:
            ids, offsets = vec.legal_ids_flat()
            counts = np.diff(offsets)
            actions = ids[offsets[:-1] + (rng.random(n) * counts).astype(np.int64)]
        else:
            actions = vec.random_actions(rng)
        vec.step(actions)
        steps += n
    return steps / (time.perf_counter() - start)


def observations(setup: dict, n: int, seconds: float, threads: int, reuse: bool) -> float:
    """Observations per second (one game's board planes and features each), taken in a batch of ``n`` games a few
    steps into their games; with ``reuse``, written into the same arrays every time."""
    vec = carcassonne.VecGame(n, **setup, threads=threads)
    rng = np.random.default_rng(0)
    for _ in range(30):
        vec.step(vec.random_actions(rng))
    (planes, width, _), features = vec.observation_shape
    out = (np.zeros((n, planes, width, width), np.float32), np.zeros((n, features), np.float32)) if reuse else None
    taken = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        vec.observations(out)
        taken += n
    return taken / (time.perf_counter() - start)


def native(setup: dict, seconds: float, enumerate: bool) -> tuple:
    """Native random playouts for about ``seconds``: (actions per second, player decisions per second)."""
    text = carcassonne.setup_json(**setup)
    games, actions, took = carcassonne._core.native_random_playouts(text, 20, 0, enumerate)
    per_game = took / games
    games = max(20, int(seconds / max(per_game, 1e-6)))
    games, actions, took = carcassonne._core.native_random_playouts(text, games, 0, enumerate)
    # Player decisions among them: one game's decisions against all its actions.
    g = carcassonne.Game(**setup, seed=0)
    rng = random.Random(0)
    draws = decisions = 0
    while not g.is_over():
        if g.is_chance_node:
            g.draw()
            draws += 1
        else:
            g.apply(rng.choice(g.legal_action_ids()))
            decisions += 1
    return actions / took, actions / took * decisions / (decisions + draws)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--sets", default="base")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--threads", type=int, default=1, help="VecGame threads")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    setup = {"players": args.players, "sets": args.sets.split(",")}
    rows = []
    _, fast = native(setup, args.seconds, enumerate=False)
    _, listed = native(setup, args.seconds, enumerate=True)
    rows.append(("native random playouts (the engine's own sampling)", fast, None))
    rows.append(("native random playouts, listing the legal actions", listed, None))
    rows.append(("Game from Python, one step at a time", single_game(setup, args.seconds), listed))
    for n in (1, 64, 256, 1024):
        rows.append((f"VecGame n={n}, random_actions", vec_game(setup, n, args.seconds, args.threads, False), fast))
    for n in (64, 1024):
        rows.append((f"VecGame n={n}, listing every legal id", vec_game(setup, n, args.seconds, args.threads, True), listed))
    seen = []
    for n in (64, 1024):
        for reuse in (False, True):
            how = "into the same arrays (out=)" if reuse else "new arrays"
            seen.append((f"VecGame n={n}, observations, {how}", observations(setup, n, args.seconds, args.threads, reuse)))
    if args.json:
        print(json.dumps({name: rate for name, rate, _ in rows} | dict(seen), indent=2))
        return
    print(f"{args.players} players, sets {args.sets}, random legal actions, {args.threads} VecGame thread(s);")
    print("steps are player decisions (draws are taken inside and not counted); each row is compared with the")
    print("native playout that does the same work (sampling a placement, or listing every legal action)")
    for name, rate, like in rows:
        extra = f"   {like / rate:5.2f}x slower than native" if like else ""
        print(f"  {name:<52} {rate:>12,.0f} steps/s{extra}")
    print("observations (board planes and features of one game) per second:")
    for name, rate in seen:
        print(f"  {name:<60} {rate:>12,.0f} /s  ({1e6 / rate:.1f} us each)")


if __name__ == "__main__":
    main()
