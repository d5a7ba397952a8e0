"""Shared helpers: the real `carc` binary replays what Python wrote."""

import json
import os
import pathlib
import random
import subprocess

import pytest

import carcassonne

REPO = pathlib.Path(__file__).resolve().parents[3]
EVERY_SET = ["base", "am", "pd", "cc", "half"]


def carc_command():
    """`carc` from CARC_BIN, else the workspace's release build, else `cargo run`."""
    if os.environ.get("CARC_BIN"):
        return [os.environ["CARC_BIN"]]
    built = REPO / "target" / "release" / "carc"
    if built.exists():
        return [str(built)]
    return ["cargo", "run", "--release", "-q", "--manifest-path", str(REPO / "Cargo.toml"), "-p", "carcassonne-cli", "--"]


def carc_scores(record_path):
    """The scores `carc replay --json` gives for a record file."""
    out = subprocess.run(carc_command() + ["replay", "--json", str(record_path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["scores"]


def random_game(players=2, sets=("base",), seed=0, rules=None, steps=None, rng=None):
    """A game played by uniformly random legal ids (draws from its own stack); yields each player position."""
    rng = rng or random.Random(seed)
    game = carcassonne.Game(players=players, sets=sets, rules=rules, seed=seed)
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        if game.is_chance_node:
            game.draw()
            continue
        yield game
        game.apply(rng.choice(game.legal_action_ids()))
        n += 1
    yield game


@pytest.fixture
def tmp_records(tmp_path):
    return tmp_path
