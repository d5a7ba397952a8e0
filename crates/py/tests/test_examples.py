"""The scripts in crates/py/examples run, on a tiny budget, and print what their docs say."""

import re
import subprocess
import sys

import pytest

from conftest import REPO

EXAMPLES = REPO / "crates" / "py" / "examples"


def run(script, *args, timeout=600):
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_the_masked_a2c_example_trains_and_reports_its_win_rates():
    text = run("masked_a2c.py", "--updates", "3", "--eval", "2", "--games", "8", "--steps", "8")
    for when in ("before training", "after training"):
        for opponent in ("random", "greedy"):
            assert re.search(rf"{when}: against {opponent}, won [0-9.]+ of 2 \(", text), text
    assert re.search(r"\d+ games: against random won", text), text


def test_the_outgrow_example_counts_truncations():
    text = run("outgrow.py", "--players", "2", "--games", "2")
    assert re.search(r"2 players, greedy in every seat, every module: 0 of 2 games truncated", text), text


def test_the_pyspiel_speed_example_prints_every_game():
    pytest.importorskip("pyspiel")
    text = run("pyspiel_speed.py", "--seconds", "0.2")
    assert text.count("decisions/s") == 3, text


def test_the_playthrough_example_writes_what_the_checked_in_file_holds(tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "playthrough.txt"
    run("playthrough.py", str(out))
    assert out.read_text() == (REPO / "crates" / "py" / "tests" / "playthroughs" / "python_carcassonne.txt").read_text()
