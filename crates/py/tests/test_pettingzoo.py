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


def test_gymnasium_make_finds_the_single_player_environment():
    import gymnasium

    g = gymnasium.make("carcassonne/SinglePlayer-v0", players=3, opponents="random", render_mode="rgb_array")
    obs, info = g.reset(seed=4)
    assert obs["action_mask"].any()
    image = g.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 2  # a start tile is drawn, not a blank
    check_env(g.unwrapped)


def test_the_board_picture_shows_tiles_and_figures():
    import carcassonne
    from carcassonne.render import EMPTY, FIELD, SEATS, board_image

    game = carcassonne.play(carcassonne.Game(seed=3), ["greedy", "greedy"])
    image = board_image(game, cell=12)
    w = game.window()[2]
    assert image.shape == (w * 12, w * 12, 3)
    colours = {tuple(c) for c in image.reshape(-1, 3)}
    assert EMPTY in colours and FIELD in colours
    assert SEATS[0] in colours or SEATS[1] in colours  # figures left on the board at the end
    # The start tile's space is drawn: not the empty colour at the window cell of (0, 0).
    x0, y0, _ = game.window()
    row, col = w - 1 - (0 - y0), 0 - x0
    cell = image[row * 12 : (row + 1) * 12, col * 12 : (col + 1) * 12]
    assert not (cell == EMPTY).all()
    e = env(render_mode="rgb_array")
    e.reset(seed=1)
    assert e.render().shape[2] == 3
    with pytest.raises(ValueError):
        board_image(game, cell=2)
