"""The Ray arena on a local Ray instance started by the test."""

import json

import pytest

ray = pytest.importorskip("ray")

import carcassonne.ray as cray
from conftest import carc_scores


@pytest.fixture(scope="module")
def local_ray():
    # A loaded machine can miss Ray's start-up deadline once; a second start is a fresh instance.
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception:  # noqa: BLE001
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_wilson_interval_matches_hand_computed_values():
    lo, hi = cray.wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert cray.wilson(0, 0) == [0.0, 1.0]
    lo, hi = cray.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


def test_arena_over_ray_gathers_records_that_carc_replays(local_ray, tmp_path):
    report = cray.arena(["greedy", "random"], games=4, sets=["base", "am"], seed=7, records=str(tmp_path))
    bots = report["bots"]
    assert bots["greedy"]["seats"] == bots["random"]["seats"] == 4
    assert bots["greedy"]["wins"] + bots["random"]["wins"] == pytest.approx(4)
    for r in report["results"]:
        path = tmp_path / f"game-{r['seed']}.json"
        assert json.loads(path.read_text()) == r["record"]
        assert carc_scores(path) == r["scores"]
    # Seats rotate: each bot sat first twice.
    assert sorted(r["seats"][0] for r in report["results"]) == ["greedy", "greedy", "random", "random"]


def test_selfplay_over_ray(local_ray):
    results = cray.selfplay("random", games=3, players=3, seed=1)
    assert [r["seed"] for r in results] == [1, 2, 3]
    assert all(len(r["scores"]) == 3 for r in results)
