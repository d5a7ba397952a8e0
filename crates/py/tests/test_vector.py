"""The Gymnasium vector environment over VecGame (issue 38), and VecGame across processes (pickling)."""

import pickle

import gymnasium
import numpy as np
import pytest

import carcassonne
import carcassonne.pettingzoo  # registers carcassonne/SinglePlayer-v0
from carcassonne.vector import CarcassonneVectorEnv


def masked_sample(obs, rng):
    """One legal id per game, drawn from the mask as a masked policy would (and crashing on an all-zero mask, as
    ``np.random.choice`` on no choices does)."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])


def test_make_vec_steps_the_games_in_rust_and_never_shows_an_all_zero_mask():
    envs = gymnasium.make_vec("carcassonne/SinglePlayer-v0", num_envs=4, opponents="random")
    assert isinstance(envs.unwrapped, CarcassonneVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=3)
    assert obs in envs.observation_space
    rng = np.random.default_rng(0)
    ended = 0
    outcomes = []
    while ended < 6:
        obs, rewards, terminated, truncated, info = envs.step(masked_sample(obs, rng))
        assert obs in envs.observation_space
        assert (obs["action_mask"].sum(axis=1) > 0).all(), "an all-zero mask"
        done = terminated | truncated
        if done.any():
            assert (info["_final_obs"] == done).all()
            for i in np.flatnonzero(done):
                assert info["final_obs"][i] in envs.single_observation_space
                scores = info["final_info"][i]["scores"]
                if terminated[i]:
                    assert rewards[i] == carcassonne.outcome(scores)[0]
                    outcomes.append(rewards[i])
        assert (rewards[~done] == 0).all(), "outcome rewards come only at the end"
        ended += int(done.sum())
    assert outcomes, "no game was over by the rules"
    envs.close()


def test_gymnasiums_own_sync_vectorisation_shows_the_all_zero_mask_the_rust_one_avoids():
    # Why the vector entry point exists: Gymnasium's default next-step autoreset hands back the ended game's last
    # observation, whose mask is all zero.
    envs = gymnasium.make_vec(
        "carcassonne/SinglePlayer-v0", num_envs=2, vectorization_mode="sync", opponents="random", players=2
    )
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    zero = False
    for _ in range(400):
        sums = obs["action_mask"].sum(axis=1)
        if (sums == 0).any():
            zero = True
            break
        obs, *_ = envs.step(masked_sample(obs, rng))
    assert zero


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_board_planes_as_channels_first_boxes(dtype):
    env = CarcassonneVectorEnv(3, observation="planes", dtype=dtype, opponents="greedy", seed=5)
    obs, _ = env.reset()
    (planes, w, _), features = env.vec.observation_shape
    assert obs["board"].shape == (3, planes, w, w) and obs["board"].dtype == np.dtype(dtype)
    assert obs["features"].shape == (3, features)
    assert obs in env.observation_space
    flat = CarcassonneVectorEnv(3, opponents="greedy", seed=5)
    fobs, _ = flat.reset()
    board = fobs["observation"][:, : planes * w * w].reshape(3, planes, w, w)
    if dtype == "uint8":
        # The tile plane counts halves; every other plane is the same number.
        np.testing.assert_array_equal(obs["board"][:, 0], board[:, 0] * 2)
        np.testing.assert_array_equal(obs["board"][:, 1:], board[:, 1:])
    else:
        np.testing.assert_array_equal(obs["board"], board)
    rng = np.random.default_rng(2)
    for _ in range(30):
        obs, *_ = env.step(masked_sample(obs, rng))
        assert obs in env.observation_space


def test_bad_options_are_refused():
    for kwargs in [
        {"observation": "pixels"},
        {"dtype": "uint8"},
        {"dtype": "int64", "observation": "planes"},
        {"reward": "fun"},
        {"illegal": "lose"},
        {"seat": 2},
        {"opponents": ["greedy", "random"]},
    ]:
        with pytest.raises(ValueError):
            CarcassonneVectorEnv(2, **kwargs)


def test_an_illegal_id_raises_and_applies_nothing():
    env = CarcassonneVectorEnv(2, opponents="random", seed=9)
    obs, _ = env.reset()
    before = env.vec.game(0).to_record()
    with pytest.raises(carcassonne.IllegalActionError):
        env.step(np.array([env.single_action_space.n - 1, masked_sample(obs, np.random.default_rng(0))[1]]))
    assert env.vec.game(0).to_record() == before


def play(vec, steps, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        rewards, terminated, truncated, finals = vec.step(vec.random_actions(rng))
        out.append((rewards.copy(), terminated.copy(), finals.copy()))
    return out


@pytest.mark.parametrize("sets", [["base"], ["base", "am", "pd", "cc", "half"]])
def test_a_vecgame_pickles_and_goes_on_exactly_where_it_stood(sets):
    vec = carcassonne.VecGame(6, players=3, sets=sets, seed=4)
    play(vec, 150, 0)
    copy = pickle.loads(pickle.dumps(vec))
    assert len(copy) == len(vec) and copy.episodes() == vec.episodes() and copy.config == vec.config
    for i in range(len(vec)):
        assert copy.game(i).to_record() == vec.game(i).to_record()
    np.testing.assert_array_equal(copy.legal_mask(), vec.legal_mask())
    a, b = vec.observations(), copy.observations()
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    # The same actions from here on give the same games, rewards and restarts (from the same next seeds).
    for x, y in zip(play(vec, 200, 1), play(copy, 200, 1)):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(vec.scores(), copy.scores())
    # Its own generator comes along too.
    np.testing.assert_array_equal(vec.random_actions(), copy.random_actions())


def test_a_vecgame_with_bots_pickles_and_keeps_playing():
    vec = carcassonne.VecGame(3, players=2, seed=2, bots={1: "greedy"})
    play(vec, 40, 0)
    copy = pickle.loads(pickle.dumps(vec))
    assert copy.bots == vec.bots
    for i in range(3):
        assert copy.game(i).to_record() == vec.game(i).to_record()
    play(copy, 100, 3)
    env = CarcassonneVectorEnv(2, opponents="random")
    env.reset(seed=1)
    again = pickle.loads(pickle.dumps(env))
    np.testing.assert_array_equal(again._observe()["action_mask"], env._observe()["action_mask"])


def test_the_environments_say_how_fast_to_render():
    assert carcassonne.pettingzoo.SinglePlayerEnv.metadata["render_fps"] > 0
    assert carcassonne.pettingzoo.CarcassonneEnv.metadata["render_fps"] > 0


@pytest.mark.parametrize("sets", [["base"], ["base", "am", "pd", "cc", "half"]])
def test_uint8_planes_are_the_float_planes_with_the_tile_plane_in_halves(sets):
    vec = carcassonne.VecGame(8, players=3, sets=sets, seed=6)
    play(vec, 120, 0)
    board, features = vec.observations()
    small, same = vec.observations(dtype=np.uint8)
    assert small.dtype == np.uint8 and small.shape == board.shape
    np.testing.assert_array_equal(same, features)
    np.testing.assert_array_equal(small[:, 0], np.rint(board[:, 0] * 2))
    np.testing.assert_array_equal(small[:, 1:], board[:, 1:])
    assert (board[:, 1:] == np.rint(board[:, 1:])).all(), "every other plane holds whole numbers"
    # Into arrays of one's own, and seen from a seat.
    out = (np.zeros_like(small), np.zeros_like(features))
    vec.observations(out=out, seat=1, dtype=np.uint8)
    np.testing.assert_array_equal(out[0][:, 1:], vec.observations(seat=1)[0][:, 1:])
    with pytest.raises(ValueError):
        vec.observations(dtype=np.int16)


def test_the_second_seat_never_sees_an_all_zero_mask_after_reset():
    # Seat 1 against a bot that moves first: reset() without a seed once listed the new games against the old boards.
    envs = CarcassonneVectorEnv(16, seat=1, opponents="greedy", observation="planes", dtype="uint8", seed=7)
    for _ in range(3):
        obs, _ = envs.reset()
        assert (obs["action_mask"].sum(axis=1) > 0).all(), "an all-zero mask"
        for i in range(envs.num_envs):
            assert set(np.flatnonzero(obs["action_mask"][i])) == set(envs.vec.game(i).legal_action_ids())


def test_without_copying_the_observations_are_the_kept_arrays_and_the_same_as_copies():
    common = dict(num_envs=5, opponents="random", observation="planes", dtype="uint8", seed=7)
    copied, kept = CarcassonneVectorEnv(**common), CarcassonneVectorEnv(**common, copy=False)
    a, _ = copied.reset()
    b, _ = kept.reset()
    rng = np.random.default_rng(5)
    boards = []
    for _ in range(150):
        for key in ("board", "features", "action_mask"):
            np.testing.assert_array_equal(a[key], b[key])
        assert a["board"].flags.writeable and not b["board"].flags.writeable
        boards.append(b["board"])
        actions = masked_sample(a, rng)
        a, *_ = copied.step(actions)
        b, *_ = kept.step(actions)
    assert all(board is boards[0] for board in boards)
