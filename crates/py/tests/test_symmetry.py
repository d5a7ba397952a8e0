"""The board's rotations: a turned game is an exact twin, its ids are the position's ids turned, and the planes
turned in numpy are the twin's planes."""

import random

import numpy as np
import pytest

import carcassonne
from carcassonne.symmetry import rotate_board, rotate_cells, side_permutation
from conftest import EVERY_SET, random_game


def world(game, board):
    """The planes as a dict from world space (x, y) to the column of plane values there."""
    x0, y0, w = game.window()
    return {(x0 + c, y0 + r): board[:, r, c] for r in range(w) for c in range(w)}


def turn(space, k):
    x, y = space
    for _ in range(k % 4):
        x, y = y, -x
    return x, y


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET), (4, EVERY_SET)])
def test_a_turned_action_on_the_turned_position_is_the_turned_result(players, sets):
    rng = random.Random(players)
    checked = 0
    for n, game in enumerate(random_game(players, sets, seed=players)):
        if game.is_over() or n % 9:
            continue
        k = 1 + n % 3
        twin = game.rotated(k)
        ids = game.legal_action_ids()
        turned = game.rotate_ids(ids, k)
        assert sorted(turned) == sorted(twin.legal_action_ids()), f"step {n}: the twin's legal ids"
        assert len(set(turned)) == len(turned)
        for i in rng.sample(range(len(ids)), min(3, len(ids))):
            after, twin_after = game.clone(), twin.clone()
            after.apply(ids[i])
            twin_after.apply(turned[i])
            expected = after.rotated(k)
            for p in range(players):
                b1, f1 = twin_after.observation(p)
                b2, f2 = expected.observation(p)
                assert np.array_equal(b1, b2) and np.array_equal(f1, f2), f"step {n}, {ids[i]}"
            assert twin_after.scores() == after.scores()
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("sets", [["base"], EVERY_SET])
def test_planes_turned_in_numpy_are_the_twins_planes(sets):
    for n, game in enumerate(random_game(2, sets, seed=5)):
        if n % 17 or game.is_over():
            continue
        names = game.plane_names()
        board, _ = game.observation(0)
        for k in range(4):
            twin = game.rotated(k)
            mine = world(twin, twin.observation(0)[0])
            x0, y0, w = game.window()
            # rotate_board's grid puts the original window's cell (row, col) where the turned space falls.
            turned = rotate_board(board, k, names)
            corners = [turn((x0 + dx, y0 + dy), k) for dx in (0, w - 1) for dy in (0, w - 1)]
            tx0, ty0 = min(c[0] for c in corners), min(c[1] for c in corners)
            theirs = {(tx0 + c, ty0 + r): turned[:, r, c] for r in range(w) for c in range(w)}
            common = mine.keys() & theirs.keys()
            assert len(common) >= (w - 2) ** 2  # the windows differ by up to two rows and two columns
            for space in common:
                assert np.array_equal(mine[space], theirs[space]), f"step {n}, turn {k}, space {space}"


def test_cells_move_with_the_planes_and_four_turns_are_none():
    vec = carcassonne.VecGame(4, players=2, sets=["base"], seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        vec.step(vec.random_actions(rng))
    (planes, w, _), _ = vec.observation_shape
    board, _ = vec.observations()
    names = vec.plane_names()
    cells = vec.open_cells()
    for k in range(4):
        turned = rotate_board(board, k, names)
        moved = rotate_cells(cells, k, w)
        assert ((moved == -1) == (cells == -1)).all()
        # The tile plane's value at a cell moves with it.
        for g in range(len(vec)):
            for c, m in zip(cells[g], moved[g]):
                if c >= 0:
                    assert board[g, 0].ravel()[c] == turned[g, 0].ravel()[m]
    assert np.array_equal(rotate_board(rotate_board(board, 3, names), 1, names), board)
    assert list(side_permutation(names, 1)[:4]) == [0] + [names.index(f"W_{t}") for t in ("field", "road", "city")]
    with pytest.raises(ValueError, match="plane names"):
        rotate_board(board, 1, names[:-1])


def test_a_game_turned_four_times_is_itself_and_bad_ids_are_refused():
    game = next(g for n, g in enumerate(random_game(2, ["base"], seed=2)) if n == 30)
    assert game.rotated(4).to_record()["actions"] == game.rotated(0).to_record()["actions"]
    assert game.rotated(-1).to_record()["setup"]["start_rotation"] == 270
    ids = game.legal_action_ids()
    assert game.rotate_ids([ids[0], -1], 2)[1] == -1
    illegal = next(i for i in range(game.action_space_size) if i not in set(ids))
    with pytest.raises(carcassonne.IllegalActionError):
        game.rotate_ids([illegal], 1)
