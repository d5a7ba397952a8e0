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
    """`carc` from CARC_BIN, else the workspace's release build (made before the tests if missing, see below)."""
    if os.environ.get("CARC_BIN"):
        return [os.environ["CARC_BIN"]]
    return [str(REPO / "target" / "release" / "carc")]


def pytest_sessionstart(session):
    """Some tests replay Python's records with the real `carc`. Without CARC_BIN and without a release build, build
    it here, once, in view (it takes minutes on a small machine), rather than silently inside the first test."""
    if os.environ.get("CARC_BIN") or (REPO / "target" / "release" / "carc").exists():
        return
    command = ["cargo", "build", "--release", "-p", "carcassonne-cli", "--manifest-path", str(REPO / "Cargo.toml")]
    capture = session.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(
            "\ncarcassonne tests: building `carc` for the tests that replay records "
            f"({' '.join(command[:5])}); set CARC_BIN to use another build",
            flush=True,
        )
        subprocess.run(command, check=True)


def carc_scores(record_path):
    """The scores `carc replay --json` gives for a record file."""
    out = subprocess.run(
        [*carc_command(), "replay", "--json", str(record_path)], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)["scores"]


def random_game(players=2, sets=("base",), seed=0, rules=None, steps=None, rng=None):
    """A game played by uniformly random legal ids (draws from its own stack); yields each player position."""
    rng = rng or random.Random(seed)
    game = carcassonne.Game(players=players, sets=sets, rules=rules, seed=seed)
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        if game.is_chance_node():
            game.draw()
            continue
        yield game
        game.apply(rng.choice(game.legal_action_ids()))
        n += 1
    yield game


@pytest.fixture
def tmp_records(tmp_path):
    return tmp_path
