"""The spatial action map: every action on a space of the board has one place on it, no two legal actions share
one, and each lies on the cell of the space it acts on."""

import random

import numpy as np
import pytest

import carcassonne
from conftest import EVERY_SET

SPATIAL = {"place", "triangle", "onto", "fairy_tile"}


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET)])
def test_every_action_on_the_board_has_its_own_place_on_the_map(players, sets):
    rng = random.Random(players)
    game = carcassonne.Game(players=players, sets=sets, seed=players, window=96)  # wide: every space inside
    channels, w, _ = game.spatial_shape
    assert len(game.spatial_channels()) == channels
    blocks = set()
    placed = None
    while not game.is_over():
        if game.is_chance_node():
            game.draw()
            continue
        ids = game.legal_action_ids()
        where = game.spatial_ids(ids)
        moves = game.legal_moves()
        x0, y0, _ = game.window()
        spaces = game.open_spaces()
        for move, at in zip(moves, where):
            assert (at >= 0) == (move.block in SPATIAL), move.text
            assert at < channels * w * w
            blocks.add(move.block)
            cell = at % (w * w)
            if move.block == "place":
                x, y = spaces[move.fields["space"]]
                assert cell == (y - y0) * w + (x - x0) and at // (w * w) == move.fields["rotation"] // 90
            elif move.block == "onto" and len(move.text.split()) == 2:  # `meeple city@N`: a deployment
                # A deployment goes on the tile just placed (the window may have moved since it was).
                assert cell == (placed[1] - y0) * w + (placed[0] - x0), move.text
        spatial = [a for a in where if a >= 0]
        assert len(set(spatial)) == len(spatial), "two legal actions share a place on the map"
        i = rng.randrange(len(ids))
        if moves[i].block in ("place", "triangle"):
            placed = spaces[moves[i].fields["space"]]
        game.apply(ids[i])
    assert {"place", "onto"} <= blocks
    if sets == EVERY_SET:
        assert {"triangle"} <= blocks


def test_a_batch_places_ids_as_its_games_do_and_refuses_bad_shapes():
    vec = carcassonne.VecGame(6, players=2, sets=EVERY_SET, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        vec.step(vec.random_actions(rng))
    ids, counts = vec.legal_ids()
    where = vec.spatial_ids(ids)
    assert where.shape == ids.shape and (where[ids < 0] == -1).all()
    for i in range(len(vec)):
        assert where[i, : counts[i]].tolist() == vec.game(i).spatial_ids(ids[i, : counts[i]].tolist())
    out = np.zeros_like(ids)
    assert vec.spatial_ids(ids, out=out) is out
    assert vec.spatial_shape == vec.game(0).spatial_shape
    with pytest.raises(ValueError, match="rows"):
        vec.spatial_ids(ids[:2])
    assert vec.game(0).spatial_ids([-1, vec.action_space_size + 5]) == [-1, -1]
