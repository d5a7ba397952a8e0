"""Random play through pyspiel, ours against OpenSpiel's chess (C++) and its tic-tac-toe written in Python.

python crates/py/examples/pyspiel_speed.py [--seconds 3]
"""

import argparse
import random
import time

import pyspiel

import carcassonne.openspiel  # noqa: F401  (registers the game)

try:  # OpenSpiel's own example of a game written in Python, for comparison
    import open_spiel.python.games.tic_tac_toe  # noqa: F401

    OTHERS = ["python_tic_tac_toe"]
except ImportError:
    OTHERS = []

GAMES = ["chess", *OTHERS, "python_carcassonne", "python_carcassonne(sets=base+am+pd+cc+half)"]


def decisions_per_second(name: str, seconds: float) -> float:
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                decisions += 1
            state.apply_action(action)
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for name in GAMES:
        print(f"{name}: {decisions_per_second(name, args.seconds):,.0f} decisions/s", flush=True)


if __name__ == "__main__":
    main()
