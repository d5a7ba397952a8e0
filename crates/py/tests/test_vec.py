"""VecGame: batched stepping agrees with single games, masks with ids, rewards with final scores."""

import numpy as np
import pytest

import carcassonne
from conftest import EVERY_SET, carc_scores


def step_checking_rewards(vec, actions, totals) -> int:
    """Step; check that each finished game's rewards (summed in ``totals``) add up to its final scores, none of them
    truncated; return how many finished."""
    rewards, done, truncated, finals = vec.step(actions)
    totals += rewards
    for i in np.flatnonzero(done):
        assert not truncated[i]
        np.testing.assert_array_equal(totals[i], finals[i])
        totals[i] = 0
    return int(done.sum())


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET)])
def test_batched_games_finish_and_rewards_add_up_to_the_final_scores(players, sets):
    n = 8
    vec = carcassonne.VecGame(n, players=players, sets=sets, seed=10)
    rng = np.random.default_rng(0)
    totals = np.zeros((n, players))
    finished = 0
    mask = np.zeros((n, vec.action_space_size), dtype=bool)
    while finished < 2 * n:
        ids, counts = vec.legal_ids()
        vec.legal_mask(out=mask)
        assert (counts > 0).all()
        flat, offsets = vec.legal_ids_flat()
        assert offsets[0] == 0 and offsets[-1] == len(flat)
        for i in range(n):
            assert sorted(np.flatnonzero(mask[i])) == sorted(set(ids[i, : counts[i]].tolist()))
            assert flat[offsets[i] : offsets[i + 1]].tolist() == ids[i, : counts[i]].tolist()
        assert (vec.current_player() >= 0).all()
        finished += step_checking_rewards(vec, vec.random_actions(rng), totals)
    assert vec.episodes() == finished


def test_a_batch_of_one_is_the_same_game_as_a_game():
    vec = carcassonne.VecGame(1, players=2, sets=["base", "am"], seed=42)
    game = carcassonne.Game(players=2, sets=["base", "am"], seed=42)
    rng = np.random.default_rng(3)
    while True:
        while game.is_chance_node():
            game.draw()
        a = vec.random_actions(rng)
        assert sorted(game.legal_action_ids()) == sorted(vec.legal_ids()[0][0, : vec.legal_ids()[1][0]].tolist())
        board, features = game.observation(game.current_player())
        vb, vf = vec.observations()
        np.testing.assert_array_equal(vb[0], board)
        np.testing.assert_array_equal(vf[0], features)
        game.apply(int(a[0]))
        _, done, _, finals = vec.step(a)
        if done[0]:
            assert game.is_over() and finals[0].tolist() == game.scores()
            break
        assert vec.scores()[0].tolist() == game.scores()


def test_threads_give_the_same_games():
    runs = []
    for threads in (1, 2):
        vec = carcassonne.VecGame(16, sets=EVERY_SET, seed=5, threads=threads)
        rng = np.random.default_rng(1)
        for _ in range(300):
            vec.step(vec.random_actions(rng))
        runs.append((vec.scores().copy(), vec.observations()[1].copy(), vec.episodes()))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2]


def test_an_illegal_id_changes_nothing():
    vec = carcassonne.VecGame(4, seed=1)
    before = vec.observations()[1].copy()
    ids, _ = vec.legal_ids()
    actions = ids[:, 0].copy()
    actions[2] = vec.action_space_size + 5
    with pytest.raises(carcassonne.IllegalActionError, match="game 2"):
        vec.step(actions)
    np.testing.assert_array_equal(vec.observations()[1], before)
    with pytest.raises(ValueError):
        vec.step(actions[:3])
    with pytest.raises(TypeError, match="integers"):
        vec.step(actions.astype(np.float64))
    with pytest.raises(ValueError):
        vec.legal_mask(out=np.zeros((4, 3), dtype=bool))
    with pytest.raises(ValueError):
        carcassonne.VecGame(0)


def test_observation_batches_have_the_documented_shape():
    vec = carcassonne.VecGame(3, players=4, sets=EVERY_SET)
    (planes, w, _), features = vec.observation_shape
    board, vecf = vec.observations()
    assert board.shape == (3, planes, w, w) and board.dtype == np.float32
    assert vecf.shape == (3, features)
    rng = np.random.default_rng(2)
    for _ in range(40):
        vec.step(vec.random_actions(rng))
    out = (np.full(board.shape, 7.0, np.float32), np.full(vecf.shape, 7.0, np.float32))
    fresh = vec.observations()
    again = vec.observations(out=out)
    assert again[0] is out[0] and again[1] is out[1]
    np.testing.assert_array_equal(out[0], fresh[0])
    np.testing.assert_array_equal(out[1], fresh[1])
    with pytest.raises(ValueError, match="shape"):
        vec.observations(out=(out[0][:2], out[1]))
    assert vec.legal_mask().shape == (3, vec.action_space_size)


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET)])
def test_random_actions_are_legal_ids(players, sets):
    # random_actions samples placements without listing them; every id it gives must be among the listed ones.
    vec = carcassonne.VecGame(8, players=players, sets=sets, seed=3)
    rng = np.random.default_rng(4)
    for _ in range(400):
        actions = vec.random_actions(rng)
        ids, counts = vec.legal_ids()
        for i in range(len(vec)):
            assert actions[i] in ids[i, : counts[i]], f"game {i}: {actions[i]} is not among its legal ids"
        vec.step(actions)
    assert vec.episodes() > 0


def chi2_bound(df: int, z: float = 4.75) -> float:
    """The chi-square statistic exceeded with probability about 1e-6 (Wilson-Hilferty)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * a**0.5) ** 3


def test_sampled_placements_are_uniform():
    # Sample first (a placement is then drawn without listing), list afterwards, and compare.
    vec = carcassonne.VecGame(1, players=2, sets=["base"], seed=21)
    _, first, size = next(b for b in carcassonne.Game(players=2, sets=["base"]).action_blocks() if b[0] == "place")
    rng = np.random.default_rng(5)
    tested = 0
    for _ in range(300):
        draws = 3000
        seen = np.array([vec.random_actions(rng)[0] for _ in range(draws)])
        ids, counts = vec.legal_ids()
        legal = ids[0, : counts[0]].tolist()
        if all(first <= i < first + size for i in legal) and 8 <= len(legal) <= 40:
            assert set(seen.tolist()) == set(legal)
            observed = np.array([(seen == i).sum() for i in legal])
            expected = draws / len(legal)
            assert ((observed - expected) ** 2 / expected).sum() < chi2_bound(len(legal) - 1)
            tested += 1
            if tested == 3:
                return
        vec.step(vec.random_actions(rng))
    pytest.fail("fewer than three placements with 8 to 40 legal ids")


def test_a_tiny_window_only_crops_the_observation_no_game_is_truncated():
    # A 6-space window holds a played area at most 4 spaces across; the games play on to their end all the same.
    vec = carcassonne.VecGame(4, players=2, sets=["base"], seed=2, window=6)
    rng = np.random.default_rng(6)
    totals = np.zeros((4, 2))
    ended = 0
    while ended < 6:
        rewards, terminated, truncated, finals = vec.step(vec.random_actions(rng))
        totals += rewards
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            np.testing.assert_array_equal(totals[i], finals[i])
            totals[i] = 0
            ended += 1
    assert vec.episodes() == ended


def test_random_actions_without_a_generator_repeat_from_the_seed():
    a, b = (carcassonne.VecGame(6, sets=EVERY_SET, seed=9) for _ in range(2))
    for _ in range(50):
        x, y = a.random_actions(), b.random_actions()
        np.testing.assert_array_equal(x, y)
        a.step(x)
        b.step(y)
    np.testing.assert_array_equal(a.scores(), b.scores())


@pytest.mark.parametrize(
    "make,error,message",
    [
        (lambda: carcassonne.VecGame(2, seed=-1), ValueError, "seed must be from 0"),
        (lambda: carcassonne.Game(seed=2**64), ValueError, "seed must be from 0"),
        (lambda: carcassonne.Game(seed=1.5), TypeError, "seed must be an integer"),
        (lambda: carcassonne.VecGame(2, players=2.5), TypeError, "players must be an integer"),
        (lambda: carcassonne.VecGame(2, threads=0), ValueError, "threads must be from 1"),
        (lambda: carcassonne.Bot("greedy", seed=-2), ValueError, "seed must be from 0"),
        (lambda: carcassonne.Game().apply(2.5), TypeError, "an action is notation"),
        (lambda: carcassonne.VecGame(2).step(np.zeros((1, 2), np.int64)), ValueError, r"shape \(2,\)"),
        (lambda: carcassonne.VecGame(2).random_actions(-1), ValueError, "rng must be from 0"),
        (lambda: carcassonne.VecGame(2, bots={0: "greedy", 1: "random"}), ValueError, "leave at least one seat"),
        (lambda: carcassonne.VecGame(2, bots={2: "greedy"}), ValueError, "seat must be from 0 to 1"),
        (lambda: carcassonne.VecGame(2, bots=[None]), ValueError, "one entry per seat"),
        (lambda: carcassonne.VecGame(2, bots={1: "nope"}), ValueError, "unknown bot"),
        (lambda: carcassonne.VecGame(2, bots="greedy"), TypeError, "mapping"),
    ],
)
def test_bad_arguments_are_refused_clearly(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_random_actions_take_an_int_seed():
    vec = carcassonne.VecGame(4, seed=3)
    np.testing.assert_array_equal(vec.random_actions(11), vec.random_actions(11))
    assert "4 games" in repr(vec)


@pytest.mark.parametrize(
    "players,sets,bots",
    [(2, ["base"], {0: "greedy"}), (3, EVERY_SET, {1: "greedy", 2: "random"}), (3, EVERY_SET, [None, "random", None])],
)
def test_bots_play_their_seats_inside(players, sets, bots):
    # Python only ever sees its own seats; the bots' points (a bot at seat 0 moves before Python's first decision)
    # are in the rewards, which add up to every seat's final score.
    n = 4
    vec = carcassonne.VecGame(n, players=players, sets=sets, seed=7, bots=bots)
    bot_seats = [p for p, b in enumerate(vec.bots) if b is not None]
    rng = np.random.default_rng(1)
    totals = np.zeros((n, players))
    finished = 0
    while finished < n:
        assert not np.isin(vec.current_player(), bot_seats).any()
        finished += step_checking_rewards(vec, vec.random_actions(rng), totals)


def test_games_with_bots_repeat_with_threads():
    runs = []
    for threads in (1, 2):
        vec = carcassonne.VecGame(6, sets=EVERY_SET, seed=3, threads=threads, bots={1: "greedy"})
        for _ in range(200):
            vec.step(vec.random_actions(5))
        runs.append((vec.scores().copy(), vec.episodes()))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1]


def test_random_actions_do_not_depend_on_what_was_listed():
    listed, unlisted = (carcassonne.VecGame(8, sets=["base", "am"], seed=4) for _ in range(2))
    for k in range(300):
        listed.legal_mask()
        x, y = listed.random_actions(k), unlisted.random_actions(k)
        np.testing.assert_array_equal(x, y)
        listed.step(x)
        unlisted.step(y)


def test_introspection_and_one_game_out_of_a_batch(tmp_path):
    vec = carcassonne.VecGame(3, players=3, sets=EVERY_SET, seed=21, bots={2: "greedy"})
    rng = np.random.default_rng(21)
    for _ in range(120):
        vec.step(vec.random_actions(rng))
    single = carcassonne.Game(players=3, sets=EVERY_SET)
    assert vec.action_blocks() == single.action_blocks()
    assert vec.plane_names() == single.plane_names() and vec.feature_blocks() == single.feature_blocks()
    first, _ = next((f, n) for name, f, n in vec.action_blocks() if name == "place")
    assert vec.describe_id(first + 5) == ("place", {"space": 1, "rotation": 90})
    boards, features = vec.observations()
    seat1 = vec.observations(seat=1)
    windows = vec.windows()
    for i in range(len(vec)):
        game = vec.game(i)  # a copy with its whole record
        assert game.scores() == vec.scores()[i].tolist()
        assert game.current_player() == vec.current_player()[i]
        assert sorted(game.legal_action_ids()) == sorted(vec.legal_ids()[0][i, : vec.legal_ids()[1][i]].tolist())
        b, f = game.observation(game.current_player())
        np.testing.assert_array_equal(boards[i], b)
        np.testing.assert_array_equal(features[i], f)
        b1, f1 = game.observation(1)
        np.testing.assert_array_equal(seat1[0][i], b1)
        np.testing.assert_array_equal(seat1[1][i], f1)
        assert tuple(windows[i]) == game.window()
        path = tmp_path / f"game{i}.json"
        game.save(path)
        assert carc_scores(path) == game.scores()  # the record holds the draws and the bot's moves
    with pytest.raises(IndexError):
        vec.game(3)
    with pytest.raises(IndexError):
        vec.observations(seat=3)


def test_open_cells_place_each_open_space_in_the_window():
    vec = carcassonne.VecGame(3, seed=8, window=12)
    rng = np.random.default_rng(8)
    for _ in range(60):
        vec.step(vec.random_actions(rng))
    cells = vec.open_cells()
    slots = next(n for name, _, n in vec.action_blocks() if name == "place") // 4
    assert cells.shape == (3, slots) and cells.dtype == np.int64
    again = np.zeros_like(cells)
    assert vec.open_cells(out=again) is again
    np.testing.assert_array_equal(again, cells)
    windows = vec.windows()
    for i in range(3):
        game = vec.game(i)
        x0, y0, w = windows[i]
        spaces = game.open_spaces()
        for k, (x, y) in enumerate(spaces):
            inside = 0 <= x - x0 < w and 0 <= y - y0 < w
            assert cells[i, k] == ((y - y0) * w + (x - x0) if inside else -1)
        assert (cells[i, len(spaces) :] == -1).all()


@pytest.mark.parametrize("when", ["at the start", "mid-game"])
def test_reset_lists_each_new_game_from_scratch(when):
    # A defect found by training from seat 1: reset() kept the old game's open spaces when the new game had as many
    # tiles as the old one (a bot moves first in both), so the new game's placements were listed against the old
    # board (often none at all: an all-zero mask).
    vec = carcassonne.VecGame(16, bots=["greedy", None], seed=0)
    rng = np.random.default_rng(1)
    vec.legal_mask()
    if when == "mid-game":
        for _ in range(6):
            vec.step(vec.random_actions(rng))
    vec.reset()
    ids, counts = vec.legal_ids()
    for i in range(len(vec)):
        expected = sorted(vec.game(i).legal_action_ids())
        assert counts[i] > 0
        assert sorted(ids[i, : counts[i]].tolist()) == expected


@pytest.mark.parametrize(
    "players,sets,bots,seat,dtype,window",
    [
        (2, ["base"], None, None, np.uint8, 16),
        (2, ["base"], ["greedy", None], 1, np.float32, 16),
        (3, EVERY_SET, None, None, np.uint8, 16),
        (4, EVERY_SET, None, 2, np.uint8, 16),
        # Narrower than the played area soon: moving the window then brings tiles back into it.
        (2, ["base"], None, None, np.uint8, 5),
    ],
)
def test_live_observations_are_the_full_ones_at_every_step(players, sets, bots, seat, dtype, window):
    # Games end and start again inside the batch (autoreset), the window moves as the played area grows (and, when
    # it is narrower than that area, tiles outside it come into it), seats turn, followers come and go: after
    # every step the planes written incrementally are those written afresh. Two resets one after the other give new
    # games with as many tiles as the old ones (two, when a bot moves first).
    vec = carcassonne.VecGame(6, players=players, sets=sets, bots=bots, seed=3, window=window)
    rng = np.random.default_rng(4)
    ended = 0
    for step in range(700):
        if step in (350, 351):
            vec.reset()
        board, features = vec.live_observations(seat=seat, dtype=dtype)
        full_board, full_features = vec.observations(seat=seat, dtype=dtype)
        np.testing.assert_array_equal(board, full_board, err_msg=f"step {step}")
        np.testing.assert_array_equal(features, full_features, err_msg=f"step {step}")
        ended += int(vec.step(vec.random_actions(rng))[1].sum())
    assert ended > 0


def test_live_observations_are_one_pair_of_read_only_arrays():
    vec = carcassonne.VecGame(3)
    board, features = vec.live_observations()
    assert board.dtype == np.uint8 and features.dtype == np.float32
    with pytest.raises(ValueError, match="read-only"):
        board[0, 0, 0, 0] = 9
    with pytest.raises(ValueError, match="read-only"):
        features[0, 0] = 9.0
    kept = board.copy()
    vec.step(vec.random_actions(0))
    again = vec.live_observations()
    assert again[0] is board and again[1] is features
    assert not np.array_equal(board, kept)  # brought up to date in place
    floats = vec.live_observations(dtype=np.float32)[0]
    assert floats.dtype == np.float32 and floats is not board
    with pytest.raises(ValueError, match="float32 or uint8"):
        vec.live_observations(dtype=np.int16)
    with pytest.raises(IndexError, match="no seat 2"):
        vec.live_observations(seat=2)
