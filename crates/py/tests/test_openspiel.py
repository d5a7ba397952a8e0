"""The OpenSpiel adapter, checked by OpenSpiel itself."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import carcassonne
import carcassonne.openspiel  # noqa: F401  (registers the game)
from open_spiel.python.algorithms import mcts


@pytest.mark.parametrize(
    "params",
    [{}, {"players": 3, "sets": "base,am,pd,cc,half"}, {"players": 2, "sets": "base,pd", "rules": "dragon.move_timing=after_scoring"}],
)
def test_openspiel_random_simulation_checks_pass(params):
    game = pyspiel.load_game("python_carcassonne", params)
    assert game.num_players() == params.get("players", 2)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_states_clone_observe_and_score():
    game = pyspiel.load_game("python_carcassonne", {"sets": "base,half"})
    state = game.new_initial_state()
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
    assert sum(r) == pytest.approx(0) and max(r) == pytest.approx(1) or r == [0.0, 0.0]


def test_openspiel_mcts_plays_legal_moves_against_our_bot():
    game = pyspiel.load_game("python_carcassonne")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1), random_state=np.random.RandomState(1))
    ours = carcassonne.Bot("greedy", seed=1)
    state = game.new_initial_state()
    moves = 0
    rng = np.random.default_rng(2)
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        elif state.current_player() == 0:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
            moves += 1
        else:
            text = ours.choose(state.inner)
            state.apply_action(state.inner.action_id(text))
    assert moves == 6
