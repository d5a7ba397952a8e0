"""The Game class: action ids, masks, observations, records, errors."""

import json
import pickle
import random

import numpy as np
import pytest

import carcassonne
from conftest import EVERY_SET, carc_scores, random_game


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET), (6, EVERY_SET)])
def test_ids_name_each_legal_action_once(players, sets):
    seen_blocks = set()
    for seed in range(3):
        for game in random_game(players, sets, seed=seed):
            if game.is_over():
                break
            ids = game.legal_action_ids()
            texts = game.legal_actions()
            assert len(ids) == len(texts) > 0
            assert len(set(ids)) == len(set(texts)), "two legal actions share an id"
            assert all(0 <= i < game.action_space_size for i in ids)
            mask = game.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (game.action_space_size,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(set(ids))
            i = random.Random(len(ids)).randrange(len(ids))
            assert game.action_text(ids[i]) == texts[i]
            assert game.action_id(texts[i]) == ids[i]
            seen_blocks.update(m.block for m in game.legal_moves())
    assert {"pass", "place", "onto"} <= seen_blocks
    if sets == EVERY_SET:
        assert {"triangle", "figure", "dragon", "barn"} <= seen_blocks


def test_the_action_space_is_fixed_for_a_configuration():
    sizes = {carcassonne.Game(players=3, sets=EVERY_SET, seed=s).action_space_size for s in range(5)}
    assert len(sizes) == 1
    blocks = carcassonne.Game(players=3, sets=EVERY_SET).action_blocks()
    assert blocks[0] == ("pass", 0, 1)
    assert sum(size for _, _, size in blocks) == sizes.pop()
    base = carcassonne.Game()
    assert base.action_space_size < carcassonne.Game(sets=EVERY_SET).action_space_size


def test_records_written_from_python_replay_with_carc_to_the_same_scores(tmp_path):
    for seed, (players, sets) in enumerate([(2, ["base"]), (3, EVERY_SET), (4, ["base", "pd", "cc"])]):
        bots = ["greedy", "random", "greedy", "random"][:players]
        game = carcassonne.play(carcassonne.Game(players=players, sets=sets, seed=seed), bots, seed=seed)
        assert game.is_over()
        path = tmp_path / f"game-{seed}.json"
        game.save(path)
        assert carc_scores(path) == game.scores()
        again = carcassonne.Game.from_record(path)
        assert again.scores() == game.scores() and again.is_over()
        assert carcassonne.Game.from_record(game.to_record()).scores() == game.scores()


def test_a_record_from_the_docs_loads_and_plays_on():
    from conftest import REPO

    game = carcassonne.Game.from_record(REPO / "docs" / "examples" / "mid-game.json")
    assert game.scores() == carc_scores(REPO / "docs" / "examples" / "mid-game.json")
    while not game.is_over():
        if game.is_chance_node():
            game.draw()
        else:
            game.apply(game.legal_action_ids()[0])
    assert game.is_over()


def test_observations_hold_only_what_the_player_may_see():
    differed = 0
    rng = random.Random(5)
    for seed in range(3):
        for game in random_game(3, EVERY_SET, seed=seed, rng=rng):
            if game.is_over() or rng.random() > 0.2:
                continue
            me = game.current_player()
            board, features = game.observation(me)
            for k in range(2):
                other = game.resample(me, seed=100 * seed + k)
                b2, f2 = other.observation(me)
                np.testing.assert_array_equal(board, b2)
                np.testing.assert_array_equal(features, f2)
                assert other.legal_actions() == game.legal_actions()
                if any(
                    other.view(q)["players"][q].get("hand") != game.view(q)["players"][q].get("hand")
                    for q in range(3)
                    if q != me
                ):
                    differed += 1
    assert differed > 10, "the resampled games never differed in what was hidden"


def test_observation_shapes_and_names():
    game = carcassonne.Game(players=4, sets=EVERY_SET)
    assert game.decision()["kind"] == "phase1"  # a triangle may be placed instead of drawing
    (planes, w, w2), features = game.observation_shape
    board, vec = game.observation(0)
    assert board.shape == (planes, w, w2) and board.dtype == np.float32
    assert vec.shape == (features,)
    assert len(game.plane_names()) == planes
    assert sum(n for _, n in game.feature_blocks()) == features
    # The start tile is in the middle of the window.
    x0, y0, width = game.window()
    assert board[0, -y0, -x0] == 1.0
    assert game.observation_flat(0).shape == (planes * w * w2 + features,)


def test_chance_nodes():
    game = carcassonne.Game(seed=3)
    assert game.current_player() == carcassonne.CHANCE
    outcomes = game.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    assert game.legal_action_ids() == []
    kind, _ = game.chance_outcome_ids()[0]
    game.apply_chance(kind)
    assert game.current_player() == 0
    with pytest.raises(carcassonne.IllegalActionError):
        game.apply_chance(kind)


def test_errors_are_clear():
    with pytest.raises(ValueError, match="players"):
        carcassonne.Game(players=9)
    with pytest.raises(ValueError):
        carcassonne.Game(sets=["nope"])
    with pytest.raises(ValueError):
        carcassonne.Game(rules={"base.tiny_city_points": "seven"})
    game = carcassonne.Game()
    game.draw()
    with pytest.raises(carcassonne.IllegalActionError):
        game.apply("place base/U 5,5 r0")
    with pytest.raises(carcassonne.IllegalActionError):
        game.apply("fly away")
    with pytest.raises(carcassonne.IllegalActionError):
        game.apply(10**9)
    with pytest.raises(carcassonne.IllegalActionError):
        game.apply(-1)
    with pytest.raises(IndexError):
        game.observation(2)
    with pytest.raises(ValueError):
        carcassonne.Game.from_record({"setup": {"players": 2}, "actions": ["draw base/ZZ"]})
    with pytest.raises(ValueError):
        carcassonne.Bot("nonsense")


@pytest.mark.parametrize("players,sets", [(2, ["base"]), (3, EVERY_SET)])
def test_no_game_outgrows_the_action_space_whatever_the_window(players, sets):
    # The window is the observation's only: with a 4-space window the played area soon lies far beyond it, and
    # every legal action still has its id, each placement on the open space its slot names.
    rng = random.Random(players)
    game = carcassonne.Game(players=players, sets=sets, seed=1, window=4)
    blocks = {name: (first, size) for name, first, size in game.action_blocks()}
    placements = 0
    while not game.is_over():
        if game.is_chance_node():
            game.draw()
            continue
        ids = game.legal_action_ids()
        assert len(ids) == len(game.legal_actions()) and len(set(ids)) == len(ids)
        open_spaces = game.open_spaces()
        assert len(open_spaces) <= blocks["place"][1] // 4
        assert open_spaces == sorted(open_spaces, key=lambda s: (s[1], s[0]))
        for move in game.legal_moves():
            if move.block in ("place", "triangle"):
                x, y = open_spaces[move.fields["space"]]
                assert f" {x},{y} " in move.text + " "
                placements += 1
        game.apply(rng.choice(ids))
    assert placements > 100


def test_clone_and_pickle_are_independent():
    game = carcassonne.Game(seed=2)
    game.draw()
    copy = game.clone()
    copy.apply(copy.legal_action_ids()[0])
    assert game.to_record()["actions"] != copy.to_record()["actions"]
    back = pickle.loads(pickle.dumps(copy))
    assert back.to_record() == copy.to_record()


def test_bots_play_legally_and_repeat_themselves_for_a_seed():
    game = carcassonne.Game(players=3, sets=EVERY_SET, seed=4)
    while game.is_chance_node():
        game.draw()
    for spec in ["random", "greedy", "mcts:iterations=60,threads=1", "easy"]:
        a = carcassonne.Bot(spec, seed=1).choose(game)
        assert a in game.legal_actions()
        assert carcassonne.Bot(spec, seed=1).choose(game) == a
    thought = carcassonne.Bot("mcts:iterations=60,threads=1", seed=1).think(game)
    assert thought["action"] in game.legal_actions()
    assert thought["iterations"] >= 60 and thought["candidates"]
    assert {"action", "visits", "value"} <= set(thought["candidates"][0])


def test_view_and_events_are_json():
    game = carcassonne.Game(sets=["base", "am"], seed=8)
    carcassonne.play(game, ["greedy", "greedy"])
    view = game.view(0)
    assert [p["score"] for p in view["players"]] == game.scores()
    assert "hand" in view["players"][0] and "hand" not in view["players"][1]
    assert isinstance(game.events(), list)
    json.dumps(game.view())
    assert game.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_window_widths_out_of_range_are_refused():
    for w in (3, 201):
        with pytest.raises(ValueError, match="window must be 4 to 200"):
            carcassonne.Game(window=w)
        with pytest.raises(ValueError, match="window must be 4 to 200"):
            carcassonne.VecGame(2, window=w)


def test_describe_id_and_the_drawn_tile_after_its_placement():
    game = carcassonne.Game(seed=4)
    game.draw()
    for i in game.legal_action_ids()[:5]:
        assert game.describe_id(i) == game.action_text(i)
    legal = set(game.legal_action_ids())
    (first, size) = next((f, n) for name, f, n in game.action_blocks() if name == "place")
    other = next(i for i in range(first, first + size) if i not in legal)
    assert game.describe_id(other).startswith("place: space=") and game.describe_id(other).endswith("not legal here")
    kind = game.decision()["tile"]
    blocks = game.feature_blocks()
    at = sum(n for _, n in blocks[: [b for b, _ in blocks].index("drawn_tile")])
    kinds = game.tile_ids()
    _, before = game.observation(0)
    assert before[at + kinds.index(kind)] == 1.0
    game.apply(game.legal_action_ids()[0])  # placed: the meeple decision of the same turn follows
    assert game.decision()["kind"] != "place_tile" and game.current_player() == 0
    _, after = game.observation(0)
    assert after[at + kinds.index(kind)] == 1.0 and after[at : at + len(kinds)].sum() == 1.0


def test_one_config_for_games_batches_and_environments():
    from carcassonne.pettingzoo import SinglePlayerEnv, env

    config = carcassonne.Config(players=3, sets="base,pd", rules={"dragon.move_timing": "after_scoring"}, seed=5)
    assert config == carcassonne.Config(3, ("base", "pd"), (("dragon.move_timing", "after_scoring"),), 5)
    assert hash(config) == hash(config.replace(seed=5)) and config.replace(seed=6).seed == 6
    assert config.rules_dict == {"dragon.move_timing": "after_scoring"}
    game = carcassonne.Game(config=config)
    same = carcassonne.Game(players=3, sets=["base", "pd"], rules={"dragon.move_timing": "after_scoring"}, seed=5)
    assert game.config == config == same.config and game.to_record() == same.to_record()
    assert game.clone().config == config
    assert carcassonne.VecGame(2, config=config).config == config
    assert env(config=config).config.players == 3
    assert SinglePlayerEnv(config=config, opponents="random").config.sets == ("base", "pd")
    with pytest.raises(TypeError, match="not both"):
        carcassonne.Game(players=4, config=config)
    with pytest.raises(TypeError):
        carcassonne.Game(config={"players": 2})
    with pytest.raises(ValueError):
        carcassonne.Config(window=2)


def test_wilson_intervals_are_the_arenas():
    # `carc arena` printed these for 273 wins of 400 and 127 of 400 (docs/ai.md, generation 4), from Rust.
    assert [round(x, 3) for x in carcassonne.wilson(273, 400)] == [0.635, 0.726]
    assert [round(x, 3) for x in carcassonne.wilson(127, 400)] == [0.274, 0.365]
    assert carcassonne.wilson(0, 0) == (0.0, 1.0)
    lo, hi = carcassonne.wilson(0, 10)
    assert lo == 0.0 and 0.0 < hi < 0.35
