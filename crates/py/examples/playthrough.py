"""Write OpenSpiel's playthrough of the game (every state of one seeded game, as OpenSpiel checks its own games).

    python crates/py/examples/playthrough.py crates/py/tests/playthroughs/python_carcassonne.txt

`crates/py/tests/test_openspiel.py` replays the checked-in file and compares every line: a change to the action
ids, the observations or the strings shows there, and the file is then written again with this script.
"""

import argparse

from open_spiel.python.algorithms import generate_playthrough

import carcassonne.openspiel  # noqa: F401  (registers the game)

#: The game of the checked-in playthrough: the base game, with a small window so that its tensors stay readable.
GAME = "python_carcassonne(window=4)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    text = generate_playthrough.playthrough(args.game, action_sequence=None, seed=args.seed)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
