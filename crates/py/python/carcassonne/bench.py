"""Steps per second from Python: one game, and VecGame at several batch sizes, beside native random playouts.

    python -m carcassonne.bench                      # base game, two players
    python -m carcassonne.bench --sets base,am,pd,cc,half --players 3

Every row plays uniformly random legal actions (draws from each game's own stack) and counts player decisions, so
the rates compare like with like. Two native rates: the engine's own random playout (which samples a placement
without listing every one, as ``VecGame.random_actions`` does) and a playout that lists the legal actions at every
decision, as a legality mask needs (the "listing" rows do that from Python).

Shared machines drift: each row is measured in rounds, alternating with the native playout it is compared with, and
the factor printed is the median of the rounds' own factors, so a slow spell slows both sides of a round.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import carcassonne


def timed(work: Callable[[], int], seconds: float) -> float:
    """Run ``work`` (which returns the decisions it took) for about ``seconds``: decisions per second."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        took = time.perf_counter() - start
        if took >= seconds:
            return done / took


def single_game(setup: Dict[str, Any]) -> Callable[[], int]:
    """One whole game stepped from Python, one call per action."""
    rng = random.Random(0)
    seeds = iter(range(1 << 62))

    def work() -> int:
        game = carcassonne.Game(**setup, seed=next(seeds))
        steps = 0
        while not game.is_over():
            if game.is_chance_node():
                game.draw()
            else:
                game.apply(rng.choice(game.legal_action_ids()))
                steps += 1
        return steps

    return work


def vec_game(
    setup: Dict[str, Any], n: int, threads: int, listing: bool, observe: Optional[str] = None
) -> Callable[[], int]:
    """One batch step; with ``listing``, every game's legal ids are listed first (as a masked policy needs) and one
    is picked in numpy, else ``random_actions`` picks in Rust. ``observe`` then takes every game's observation:
    ``"whole"`` writes all its uint8 planes into the same arrays (``out=``), ``"live"`` brings
    ``live_observations`` up to date."""
    vec = carcassonne.VecGame(n, **setup, threads=threads)
    rng = np.random.default_rng(0)
    (planes, width, _), features = vec.observation_shape
    out = (np.zeros((n, planes, width, width), np.uint8), np.zeros((n, features), np.float32))

    def work() -> int:
        if listing:
            ids, offsets = vec.legal_ids_flat()
            actions = ids[offsets[:-1] + (rng.random(n) * np.diff(offsets)).astype(np.int64)]
        else:
            actions = vec.random_actions(rng)
        vec.step(actions)
        if observe == "whole":
            vec.observations(out, dtype=np.uint8)
        elif observe == "live":
            vec.live_observations()
        return n

    return work


def native(setup: Dict[str, Any], enumerate: bool, seconds: float, share: float) -> Callable[[], int]:
    """Native random playouts in Rust, on one thread, enough games a call (a tenth of ``seconds``) that preparing the
    setup for each call costs next to nothing; ``share`` is the player decisions' share of the actions (native
    playouts count the draws too)."""
    text = carcassonne.setup_json(**setup)
    games, _, took = carcassonne._core.native_random_playouts(text, 20, 0, enumerate)
    per_call = max(20, round(seconds / 10 / max(took / games, 1e-7)))
    seeds = iter(range(0, 1 << 62, per_call))

    def work() -> int:
        _, actions, _ = carcassonne._core.native_random_playouts(text, per_call, next(seeds), enumerate)
        return round(actions * share)

    return work


def decision_share(setup: Dict[str, Any]) -> float:
    """Player decisions among all actions (draws included) of a few random games."""
    draws = decisions = 0
    for seed in range(5):
        game = carcassonne.Game(**setup, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            if game.is_chance_node():
                game.draw()
                draws += 1
            else:
                game.apply(rng.choice(game.legal_action_ids()))
                decisions += 1
    return decisions / (decisions + draws)


def paired(
    work: Callable[[], int], like: Callable[[], int], seconds: float, rounds: int
) -> Tuple[float, float, List[float]]:
    """Alternate ``work`` and the native ``like`` for ``rounds`` rounds: (median rate, median native rate, each
    round's factor native / work)."""
    work()  # warm up both sides first
    like()
    rates, natives, factors = [], [], []
    for _ in range(rounds):
        r = timed(work, seconds)
        n = timed(like, seconds)
        rates.append(r)
        natives.append(n)
        factors.append(n / r)
    return statistics.median(rates), statistics.median(natives), factors


def observations(
    setup: Dict[str, Any], n: int, seconds: float, threads: int, reuse: bool, dtype: Any = np.float32
) -> float:
    """Observations per second (one game's board planes and features each), taken in a batch of ``n`` games a few
    steps into their games; with ``reuse``, written into the same arrays every time; the planes as ``dtype``."""
    vec = carcassonne.VecGame(n, **setup, threads=threads)
    rng = np.random.default_rng(0)
    for _ in range(30):
        vec.step(vec.random_actions(rng))
    (planes, width, _), features = vec.observation_shape
    out = (np.zeros((n, planes, width, width), dtype), np.zeros((n, features), np.float32)) if reuse else None

    def work() -> int:
        vec.observations(out, dtype=dtype)
        return n

    return timed(work, seconds)


def observing(setup: Dict[str, Any], n: int, threads: int, seconds: float, rounds: int) -> Dict[str, Dict[str, float]]:
    """What an observation after every step costs a game, in microseconds: batches of ``n`` random games stepped
    alone, then with every uint8 plane written after each step, then with the live observations brought up to date
    (a game's planes change little from one step to the next). The three alternate for ``rounds`` rounds; medians.
    A game's observation cost is the difference from the step alone."""
    ways = {how: vec_game(setup, n, threads, False, how) for how in ("step", "whole", "live")}
    times: Dict[str, List[float]] = {how: [] for how in ways}
    for work in ways.values():
        work()
    for _ in range(rounds):
        for how, work in ways.items():
            times[how].append(1e6 / timed(work, seconds))
    step = statistics.median(times["step"])
    return {
        how: {"with_step_us": statistics.median(t), "observation_us": statistics.median(t) - step}
        for how, t in times.items()
    }


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--sets", default="base")
    ap.add_argument("--seconds", type=float, default=0.5, help="time per measurement (default 0.5)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per row, each against its native playout (default 5)")
    ap.add_argument("--threads", type=int, default=1, help="VecGame threads")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--sizes",
        default="1,64,256,1024",
        help="batch sizes of the VecGame rows, comma-separated (default 1,64,256,1024; for the batch-size curve of "
        "docs/python.md: 16,64,128,256,512,1024,2048,4096)",
    )
    args = ap.parse_args(argv)
    try:
        sizes = [int(v) for v in args.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes must be whole numbers separated by commas, not {args.sizes!r}")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes must be at least 1 each")
    if args.seconds <= 0 or args.rounds < 1:
        ap.error("--seconds must be positive and --rounds at least 1")
    setup = {"players": args.players, "sets": args.sets.split(",")}
    share = decision_share(setup)
    fast = native(setup, False, args.seconds, share)
    listed = native(setup, True, args.seconds, share)
    rows: List[Tuple[str, float, float, List[float]]] = []

    def row(name: str, work: Callable[[], int], like: Callable[[], int]) -> None:
        rate, base, factors = paired(work, like, args.seconds, args.rounds)
        rows.append((name, rate, base, factors))
        if not args.json:
            lo, mid, hi = min(factors), statistics.median(factors), max(factors)
            print(f"  {name:<40} {rate:>11,.0f} steps/s   native {base:>11,.0f}   {mid:5.2f}x ({lo:.2f}-{hi:.2f})")

    if not args.json:
        print(f"{args.players} players, sets {args.sets}, random legal actions, {args.threads} VecGame thread(s).")
        print("Steps are player decisions (draws are taken inside and not counted). Each row alternates with the")
        print(f"native playout doing the same work, {args.rounds} rounds of {args.seconds} s; the factor is how much")
        print("slower than native: the median of the rounds' own factors (their range in brackets).")
        print("compared with native random playouts (the engine's own sampling of a placement):")
    for n in sizes:
        row(f"VecGame n={n}, random_actions", vec_game(setup, n, args.threads, False), fast)
    if not args.json:
        print("compared with native random playouts that list every legal action at every decision:")
    row("Game from Python, one step at a time", single_game(setup), listed)
    for n in [n for n in sizes if n > 1]:
        row(f"VecGame n={n}, listing every legal id", vec_game(setup, n, args.threads, True), listed)
    against: Dict[str, float] = {}
    for spec in ("random", "greedy"):
        bots = {args.players - 1: spec}
        vec = carcassonne.VecGame(64, **setup, threads=args.threads, bots=bots)

        def step(vec: carcassonne.VecGame = vec) -> int:
            vec.step(vec.random_actions())
            return len(vec)

        against[f"VecGame n=64, the last seat {spec}"] = timed(step, args.seconds)
    seen: Dict[str, float] = {}
    for n in (64, 1024):
        for reuse in (False, True):
            how = "into the same arrays (out=)" if reuse else "new arrays"
            seen[f"VecGame n={n}, observations, {how}"] = observations(setup, n, args.seconds, args.threads, reuse)
        seen[f"VecGame n={n}, observations, uint8 planes, out="] = observations(
            setup, n, args.seconds, args.threads, True, np.uint8
        )
        # What the observations are measured against: one step of the same batch.
        seen[f"VecGame n={n}, steps (random ids), for comparison"] = timed(
            vec_game(setup, n, args.threads, False), args.seconds
        )
    after_step = {
        f"n={n}": observing(setup, n, args.threads, args.seconds, args.rounds) for n in sorted({64, max(sizes)})
    }
    if args.json:
        figures = {
            name: {"steps_per_s": rate, "native_per_s": base, "factors": factors} for name, rate, base, factors in rows
        }
        print(
            json.dumps(
                {
                    "steps": figures,
                    "against_bots_per_s": against,
                    "observations_per_s": seen,
                    "observation_after_each_step": after_step,
                },
                indent=2,
            )
        )
        return
    print("steps of the other seats (random legal actions) against a built-in bot playing inside the step:")
    for name, rate in against.items():
        print(f"  {name:<40} {rate:>11,.0f} steps/s")
    print("observations (board planes and features of one game) per second:")
    for name, rate in seen.items():
        print(f"  {name:<60} {rate:>10,.0f} /s  ({1e6 / rate:.1f} us each)")
    print("an observation after every step (uint8 planes), microseconds a game, beside the step itself:")
    for batch, ways in after_step.items():
        alone = ways["step"]["with_step_us"]
        whole, live = ways["whole"]["observation_us"], ways["live"]["observation_us"]
        print(f"  VecGame {batch}: step {alone:.2f}   all planes written {whole:+.2f}   live_observations {live:+.2f}")


if __name__ == "__main__":
    main()
