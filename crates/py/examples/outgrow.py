"""Does bot play ever leave a legal action without an id? Greedy in every seat, every module, many games.

    python crates/py/examples/outgrow.py --players 2 --games 1000

Prints, per player count, how many games reached a decision whose legal actions had no ids (a truncation), and the
most open spaces seen against the slots the action space has for them.
"""

import argparse
import time

import carcassonne

EVERY_SET = ["base", "am", "pd", "cc", "half"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--bot", default="greedy")
    args = parser.parse_args()
    for players in args.players:
        start = time.perf_counter()
        truncated = most_open = 0
        slots = 0
        for g in range(args.games):
            game = carcassonne.Game(players=players, sets=EVERY_SET, seed=args.seed + g)
            slots = dict((name, size) for name, _, size in game.action_blocks())["place"] // 4
            bots = [carcassonne.Bot(args.bot, seed=args.seed + g + p) for p in range(players)]
            while not game.is_over():
                p = game.current_player()
                if p == carcassonne.CHANCE:
                    game.draw()
                    continue
                try:
                    game.legal_action_ids()
                except carcassonne.WindowError:
                    truncated += 1
                    break
                most_open = max(most_open, len(game.open_spaces()))
                game.apply(bots[p].choose(game, p))
        print(
            f"{players} players, {args.bot} in every seat, every module: {truncated} of {args.games} games truncated; "
            f"most open spaces {most_open} of {slots} slots ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
