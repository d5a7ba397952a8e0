"""The OpenSpiel adapter, checked by OpenSpiel itself."""

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts

import carcassonne
import carcassonne.openspiel  # registers the game
from conftest import REPO

# Every module alone, all of them, and rule options: the configurations whose game strings must read back.
CONFIGS = [
    {},
    {"sets": "base,am"},
    {"sets": "base+pd", "rules": "dragon.move_timing=after_scoring"},
    {"sets": "base,cc"},
    {"sets": "base,half"},
    {"sets": "base,half", "rules": "halflings.setup:draft"},
    {"sets": "base,am", "rules": "wagon.movement=c1; base.tiny_city_points=two"},
    {"players": 3, "sets": "base,am,pd,cc,half"},
]


@pytest.mark.parametrize("params", CONFIGS)
def test_openspiel_random_simulation_checks_pass_with_serialization(params):
    game = pyspiel.load_game("python_carcassonne", params)
    assert game.num_players() == params.get("players", 2)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", CONFIGS)
def test_game_strings_and_pickles_read_back(params):
    game = pyspiel.load_game("python_carcassonne", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.setup == game.setup and again.window == game.window
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game) and copy.setup == game.setup
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(40):
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert state2.inner.to_record() == state.inner.to_record()
    state3 = pickle.loads(pickle.dumps(state))
    assert state3.history() == state.history() and state3.legal_actions() == state.legal_actions()


def test_rules_are_read_in_both_forms():
    colon = pyspiel.load_game("python_carcassonne", {"sets": "base+am", "rules": "wagon.movement:c1"})
    equals = pyspiel.load_game("python_carcassonne", {"sets": "base,am", "rules": "wagon.movement=c1"})
    assert str(colon) == str(equals)
    assert colon.setup["rules"] == {"wagon.movement": "c1"}
    assert "wagon.movement:c1" in str(colon) and "sets=base+am" in str(colon)


def _deal(state, rng):
    while state.is_chance_node() and state.inner is None:
        kinds, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(kinds, p=probs)))
    return state


def test_the_halflings_deal_is_chance_not_the_seed():
    game = pyspiel.load_game("python_carcassonne", {"sets": "base,half"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert all(game.new_initial_state().inner is None for _ in range(2))
    hands = set()
    for i in range(20):
        s = _deal(game.new_initial_state(), np.random.default_rng(i))
        assert [len(h) for h in s.hands] == [3, 3]  # halflings.tiles_per_player's default, round the table
        assert s.inner.view(0)["players"][0]["hand"] == [game._tile_ids[k] for k in s.hands[0]]
        hands.add(tuple(s.hands[0]))
        assert "deal" in s.history_str() or len(s.history()) >= 6
    assert len(hands) > 15  # each episode its own hands: nothing to memorise
    # A dealt triangle is gone from the next node's outcomes.
    s = game.new_initial_state()
    k, p = s.chance_outcomes()[0]
    s.apply_action(k)
    assert dict(s.chance_outcomes()).get(k, 0) < p or k not in dict(s.chance_outcomes())
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, k).startswith("deal half/")


def test_resampling_keeps_what_the_player_sees_and_deals_the_rest_again():
    game = pyspiel.load_game("python_carcassonne", {"sets": "base,half"})
    rng = np.random.default_rng(3)
    state = _deal(game.new_initial_state(), rng)
    triangles = 0
    while triangles < 2:  # into the game, until two triangles are played
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            a = int(rng.choice(state.legal_actions()))
            triangles += state.inner._g.describe_id(a)[0] == "triangle"
            state.apply_action(a)
    player = state.current_player() if state.current_player() >= 0 else 0
    other = 1 - player
    seen = set()
    for i in range(12):
        sampler = pyspiel.UniformProbabilitySampler(i, 0.0, 1.0)
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert len(world.history()) == len(state.history())
        assert len(world.inner.view(other)["players"][other]["hand"]) == len(
            state.inner.view(other)["players"][other]["hand"]
        )
        seen.add(tuple(world.inner.view(other)["players"][other]["hand"]))
    assert seen and all(len(h) > 0 for h in seen)
    assert len(seen) > 1  # the other's hand really is dealt again


def _openspiel_bot_moves(game, bot, wanted, rng, other):
    """Play seat 0 with an OpenSpiel bot for ``wanted`` of its moves (each checked legal), the other seats with
    ``other(state)``, chance from ``rng``; return the bot's moves."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < wanted:
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        elif state.current_player() == 0:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
            moves += 1
        else:
            state.apply_action(other(state))
    return moves


def test_openspiel_ismcts_plays_a_halflings_game():
    game = pyspiel.load_game("python_carcassonne", {"sets": "base,half"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(4))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(4))
    rng = np.random.default_rng(4)
    moves = _openspiel_bot_moves(game, bot, 8, rng, lambda state: int(rng.choice(state.legal_actions())))
    assert moves == 8


def test_states_clone_observe_and_score():
    game = pyspiel.load_game("python_carcassonne", {"sets": "base,half"})
    state = _deal(game.new_initial_state(), np.random.default_rng(0))
    assert not state.is_chance_node()  # with Halflings, a triangle may be placed instead of drawing
    assert 0 in state.legal_actions()  # id 0 is `pass`: draw instead
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state.apply_action(outcomes[0][0])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    obs = np.array(state.observation_tensor(0))
    (planes, w, _), features = carcassonne.Game(sets=["base", "half"]).observation_shape
    assert obs.shape == (planes * w * w + features,)
    info0 = state.information_state_string(0)
    info1 = state.information_state_string(1)
    assert info0 != info1  # each sees only its own triangles
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    r = state.returns()
    assert (sum(r) == pytest.approx(0) and max(r) == pytest.approx(1)) or r == [0.0, 0.0]


def test_openspiel_mcts_plays_legal_moves_against_our_bot():
    game = pyspiel.load_game("python_carcassonne")
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=8,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1),
        random_state=np.random.RandomState(1),
    )
    ours = carcassonne.Bot("greedy", seed=1)
    rng = np.random.default_rng(2)
    moves = _openspiel_bot_moves(game, bot, 6, rng, lambda state: state.inner.action_id(ours.choose(state.inner)))
    assert moves == 6


def test_the_checked_in_playthrough_replays_line_for_line():
    # As OpenSpiel checks its own games: the file was written by crates/py/examples/playthrough.py; replaying its
    # actions must print it again exactly.
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # the replay reads one of the module's flags (at its default)
    path = REPO / "crates" / "py" / "tests" / "playthroughs" / "python_carcassonne.txt"
    expected, actual = generate_playthrough.replay(str(path))
    assert expected == actual, "the playthrough changed: run crates/py/examples/playthrough.py and review the diff"


def test_a_game_without_halflings_is_of_perfect_information():
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    assert pyspiel.load_game("python_carcassonne", {"sets": "base+am+pd+cc"}).get_type().information == perfect
    half = pyspiel.load_game("python_carcassonne", {"sets": "base+half"})
    assert half.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    # The game string still reads back to the same kind of game.
    game = pyspiel.load_game("python_carcassonne", {"sets": "base"})
    assert pyspiel.load_game(str(game)).get_type().information == perfect


def test_undo_action_is_absent_as_the_docs_say():
    state = pyspiel.load_game("python_carcassonne").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = str(state)
    action = state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(pyspiel.SpielError):
        state.undo_action(0, action)
    assert str(state) != before, "nothing was undone"
