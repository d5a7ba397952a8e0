"""The type stubs of the native module agree with it (mypy's stubtest), and the package exports what it documents."""

import subprocess
import sys

import pytest

import carcassonne


def test_the_native_module_matches_its_stubs():
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "carcassonne._core"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_everything_exported_exists_and_outcome_is_among_it():
    assert "outcome" in carcassonne.__all__
    for name in carcassonne.__all__:
        assert hasattr(carcassonne, name), name
    assert carcassonne.outcome([10, 4]) == [1.0, -1.0]
    assert carcassonne.outcome([7, 7]) == [0.0, 0.0]
