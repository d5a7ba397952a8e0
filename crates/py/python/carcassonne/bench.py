"""Steps per second from Python: one game, and VecGame at n = 1, 64 and 1024, beside native random playouts.

    python -m carcassonne.bench                      # base game, two players
    python -m carcassonne.bench --sets base,am,pd,cc,half --players 3

Every row plays uniformly random legal actions (draws from each game's own stack), so the rates compare like with
like. "per action" is the rate of player decisions; the native row counts draws as well, as the engine does, and is
also given per player decision.
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


def vec_game(setup: dict, n: int, seconds: float, threads: int) -> float:
    vec = carcassonne.VecGame(n, **setup, threads=threads)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        vec.step(vec.random_actions(rng))
        steps += n
    return steps / (time.perf_counter() - start)


def native(setup: dict, seconds: float) -> tuple:
    text = carcassonne.setup_json(**setup)
    games, actions, took = carcassonne._core.native_random_playouts(text, 20, 0)
    per_game = took / games
    games = max(20, int(seconds / max(per_game, 1e-6)))
    games, actions, took = carcassonne._core.native_random_playouts(text, games, 0)
    # Player decisions among them: count one game's decisions against all its actions.
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
    nat_all, nat_dec = native(setup, args.seconds)
    rows.append(("native random playouts (Rust, every action)", nat_all))
    rows.append(("native random playouts (Rust, per player decision)", nat_dec))
    rows.append(("Game from Python, one step at a time", single_game(setup, args.seconds)))
    for n in (1, 64, 1024):
        rows.append((f"VecGame n={n}", vec_game(setup, n, args.seconds, args.threads)))
    if args.json:
        print(json.dumps({name: rate for name, rate in rows}, indent=2))
        return
    print(f"{args.players} players, sets {args.sets}, random legal actions, {args.threads} VecGame thread(s)")
    for name, rate in rows:
        ratio = nat_dec / rate if "VecGame" in name or "Python" in name else None
        extra = f"   {ratio:5.2f}x slower than native" if ratio else ""
        print(f"  {name:<52} {rate:>12,.0f} steps/s{extra}")


if __name__ == "__main__":
    main()
