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


def test_the_ppo_example_trains_and_reports_against_greedy(tmp_path):
    # torch is not among the test extras (PyPI's Linux wheel is the CUDA build, gigabytes): where it is installed,
    # this runs the example on a tiny budget; docs/python.md has its full runs.
    pytest.importorskip("torch")
    curve = tmp_path / "curve.csv"
    text = run(
        "ppo_torch.py",
        *("--updates", "2", "--envs", "4", "--rollout", "4", "--eval", "2", "--curve", str(curve)),
        *("--imitate", "40", "--imitate-epochs", "1", "--eval-after-imitation"),
    )
    assert re.search(r"imitating greedy: 160 decisions", text), text
    assert re.search(r"epoch 1: the teacher's choice is the likeliest in [0-9.]+% of held-out decisions, value", text)
    for when in ("after imitation", "at the end"):
        assert re.search(rf"{when}: against greedy, likeliest action, 2 new deals: [0-9.]+ \(95% ", text), text
    lines = curve.read_text().splitlines()
    assert lines[0] == "minutes,decisions,games,win_rate,margin" and len(lines) >= 2, lines


def test_the_outgrow_example_counts_truncations():
    text = run("outgrow.py", "--players", "2", "--games", "2")
    assert re.search(r"2 players, greedy in every seat, every module: 0 of 2 games truncated", text), text


def test_the_pyspiel_speed_example_prints_every_game():
    pytest.importorskip("pyspiel")
    text = run("pyspiel_speed.py", "--seconds", "0.2")
    assert text.count("decisions/s") >= 3 and "python_carcassonne:" in text, text


def test_the_playthrough_example_writes_what_the_checked_in_file_holds(tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "playthrough.txt"
    run("playthrough.py", str(out))
    assert out.read_text() == (REPO / "crates" / "py" / "tests" / "playthroughs" / "python_carcassonne.txt").read_text()


def test_the_a2c_example_s_gradients_match_finite_differences():
    import numpy as np

    sys.path.insert(0, str(EXAMPLES))
    try:
        import masked_a2c as m
    finally:
        sys.path.pop(0)
    import carcassonne

    rng = np.random.default_rng(0)
    vec = carcassonne.VecGame(4, seed=3, window=8, bots={1: "random"})
    for _ in range(7):  # into the game: placements and meeples to decide
        vec.step(vec.random_actions(rng))
    agent = m.Agent(vec, 6, rng)
    for k in agent.p:
        agent.p[k] = agent.p[k] + rng.normal(0, 0.05, agent.p[k].shape)
    buf = m.buffers_for(vec, agent)
    m.observe(vec, buf)
    probs, values, cache = agent.forward(buf["board"], buf["features"], buf["cells"], buf["mask"])
    acts = m.choose(probs, rng)
    adv, ret = rng.normal(size=4), rng.normal(size=4)

    def loss():
        p, v, _ = agent.forward(buf["board"], buf["features"], buf["cells"], buf["mask"])
        return -(adv * np.log(p[np.arange(4), acts])).sum() + 0.5 * ((v - ret) ** 2).sum()

    onehot = np.zeros_like(probs)
    onehot[np.arange(4), acts] = 1
    grads = agent.backward(cache, adv[:, None] * (probs - onehot), values - ret)
    for name in ["w1", "b1", "w2", "b2", "wo", "bo", "wv", "bv"]:
        p = agent.p[name]
        for _ in range(5):
            i = tuple(int(rng.integers(0, s)) for s in p.shape)
            old = p[i]
            p[i] = old + 1e-5
            up = loss()
            p[i] = old - 1e-5
            down = loss()
            p[i] = old
            assert grads[name][i] == pytest.approx((up - down) / 2e-5, rel=1e-4, abs=1e-7), name
    # The global head, at the ids of the legal actions (elsewhere its gradient is zero: they are masked).
    legal = np.flatnonzero(buf["mask"][0])
    for j in legal[:3]:
        i = (int(rng.integers(0, agent.p["wg"].shape[0])), int(j))
        old = agent.p["wg"][i]
        agent.p["wg"][i] = old + 1e-5
        up = loss()
        agent.p["wg"][i] = old - 1e-5
        down = loss()
        agent.p["wg"][i] = old
        assert grads["wg"][i] == pytest.approx((up - down) / 2e-5, rel=1e-4, abs=1e-7)
