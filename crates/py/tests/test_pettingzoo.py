"""The PettingZoo and Gymnasium adapters, checked by their own test tools."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from carcassonne.pettingzoo import SinglePlayerEnv, env


@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "sets": ["base", "am", "pd", "cc", "half"], "reward": "points"}])
def test_pettingzoo_api_test_passes(kwargs):
    api_test(env(**kwargs), num_cycles=200, verbose_progress=False)


def test_a_whole_aec_episode_with_masked_random_actions():
    e = env(players=2, sets=["base", "am"])
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_gymnasium_env_checker_passes_and_an_episode_ends():
    g = SinglePlayerEnv(players=2, opponents="random")
    check_env(g, skip_render_check=True)
    obs, info = g.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        obs, reward, done, truncated, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert reward in (-1.0, 0.0, 1.0)


def test_a_single_player_episode_with_a_tiny_window_plays_to_its_end():
    # The window only crops the observation: a 6-space window is outgrown at once, and the episode goes on to the end
    # of the game (it used to raise WindowError here).
    g = SinglePlayerEnv(players=2, opponents="random", window=6)
    obs, info = g.reset(seed=2)
    rng = np.random.default_rng(2)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert terminated and not truncated and reward in (-1.0, 0.0, 1.0)
    with pytest.raises(RuntimeError):
        g.step(0)


def test_an_aec_episode_with_a_tiny_window_plays_to_its_end():
    e = env(players=2, window=6)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = None
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            ended = (term, trunc)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ended == (True, False)
