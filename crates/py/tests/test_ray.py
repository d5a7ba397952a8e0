"""The Ray arena on a local Ray instance started by the test."""

import json

import pytest

ray = pytest.importorskip("ray")

import carcassonne
import carcassonne.ray as cray
from conftest import carc_scores


@pytest.fixture(scope="module")
def local_ray():
    # A loaded machine can miss Ray's start-up deadline once; a second start is a fresh instance.
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception:
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_the_summary_is_carc_arenas_arithmetic():
    results = [{"seats": ["a", "b"][:: 1 - 2 * (g % 2)], "scores": [10, 5] if g < 8 else [5, 10]} for g in range(10)]
    for r in results:
        r["seats"] = [s.replace("a", "greedy").replace("b", "random") for s in r["seats"]]
    bots = cray.summarise(results)
    # Each game's first seat scored more in 8 of 10, so each bot won the 4 or 5 games it sat first in, and so on.
    assert bots["greedy"]["seats"] == bots["random"]["seats"] == 10
    assert bots["greedy"]["wins"] + bots["random"]["wins"] == pytest.approx(10)
    lo, hi = bots["greedy"]["win_rate_95"]
    n, w = 10, bots["greedy"]["wins"]
    assert lo < w / n < hi and 0 <= lo and hi <= 1
    # Greedy sits first in the even games and wins 0, 2, 4, 6 and 9: 5 of 10, whose Wilson interval, worked by
    # hand, is 0.2366 to 0.7634.
    assert w == 5
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert bots["greedy"]["elo"]["random"]["elo"] == pytest.approx(-bots["random"]["elo"]["greedy"]["elo"])
    with pytest.raises(ValueError):
        carcassonne._core.summarise_json(["greedy"], [([1], [3])])


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


def test_spsa_moves_towards_the_better_probe():
    s = carcassonne._core.Spsa("greedy", [("city_close", None), ("fill", 2.0)], 100, 0.5)
    assert s.keys == ["city_close", "fill"] and s.scales[1] == 2.0 and s.start == [17.0, 16.0]
    plus, minus = s.probes(s.start, 0, 3)
    up = s.update(s.start, 0, 3, 0.9, 0.1)
    for i in range(2):
        assert (up[i] > s.start[i]) == (plus[i] > s.start[i])
        assert plus[i] + minus[i] == pytest.approx(2 * s.start[i])
    assert s.spec([12.0, 16.0]) == "greedy:city_close=12"
    assert carcassonne._core.Spsa.reward([30, 10], 0) > 0.9
    with pytest.raises(ValueError, match="no numeric setting"):
        carcassonne._core.Spsa("greedy", [("c", None)])
    with pytest.raises(ValueError, match="finite"):
        s.spec([1.0])


def test_tune_over_ray_resumes_where_it_stopped(local_ray, tmp_path):
    opts = dict(params={"city_close": None, "fill": 2.0}, steps=3, against=["random"], pairs=1, seed=5)
    whole = cray.tune("greedy", log=str(tmp_path / "whole.jsonl"), **opts)
    assert whole["steps"] == 3 and whole["tuned"].startswith("greedy:")
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(x)["games"] == 4 for x in lines[1:])
    # Stopped after one step, in the middle of writing the second.
    (tmp_path / "part.jsonl").write_text("\n".join(lines[:2]) + '\n{"step": 1, "oppo')
    part = cray.tune("greedy", log=str(tmp_path / "part.jsonl"), **opts)
    assert part == whole
    assert (tmp_path / "part.jsonl").read_text() == (tmp_path / "whole.jsonl").read_text()
