"""Carcassonne as an OpenSpiel game: ``import carcassonne.openspiel`` registers ``python_carcassonne`` with ``pyspiel``.

    import pyspiel
    import carcassonne.openspiel
    game = pyspiel.load_game("python_carcassonne", {"players": 2, "sets": "base,am"})

Draws are explicit chance nodes (outcomes: tile kinds, with the probabilities of the tiles left). Player actions are
the package's fixed action ids (docs/python.md). The game is registered as imperfect-information because the
Halflings' triangles in hand are private; without Halflings nothing else is hidden (the stack's order does not exist
for OpenSpiel: every draw is a chance node).

Parameters (all optional): ``players`` (2..6), ``sets`` (comma-separated: ``base,am,pd,cc,half``), ``rules``
(``key=value`` pairs separated by ``;``, see ``carc rules``), ``seed`` (the Halflings deal), ``window`` (board
window width).

Returns are zero-sum: two players get +1 / -1 (0 each for a draw); with more, 1 is shared among the leaders and the
mean is taken off, scaled by n/(n-1).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

import numpy as np
import pyspiel

import carcassonne

SHORT_NAME = "python_carcassonne"

_DEFAULTS: Dict[str, Any] = {"players": 2, "sets": "base", "rules": "", "seed": 0, "window": 32}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Carcassonne (with Abbey & Mayor, Princess & Dragon, Crop Circles, Halflings)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def parse_rules(text: str) -> Dict[str, str]:
    """``"base.tiny_city_points=two; wagon.movement=c1"`` → a dict."""
    rules = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"rule `{part}` is not key=value")
        k, v = part.split("=", 1)
        rules[k.strip()] = v.strip()
    return rules


class CarcassonneGame(pyspiel.Game):
    """The OpenSpiel game; its parameters choose players, sets and rules."""

    def __init__(self, params: Dict[str, Any] = None) -> None:
        p = dict(_DEFAULTS)
        p.update(params or {})
        self.setup = {
            "players": int(p["players"]),
            "sets": [s for s in str(p["sets"]).split(",") if s],
            "rules": parse_rules(str(p["rules"])),
            "seed": int(p["seed"]),
        }
        self.window = int(p["window"])
        self._start = carcassonne.Game(**self.setup, window=self.window)
        players = self.setup["players"]
        tiles = self._start.stack_len + 30
        info = pyspiel.GameInfo(
            num_distinct_actions=self._start.action_space_size,
            max_chance_outcomes=self._start.chance_space_size,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # A turn is at most a few dozen decisions (phase 1, the draw, the placement, phase 2, the princess, six
            # dragon steps, wagons, every player's crop answer): a safe bound.
            max_game_length=tiles * (16 + 2 * players),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> "CarcassonneState":
        """The game before its first draw."""
        return CarcassonneState(self, self._start.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> "CarcassonneObserver":
        """An observer: the package's observation tensor, or with perfect recall the information-state string."""
        return CarcassonneObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class CarcassonneState(pyspiel.State):
    """A position of the OpenSpiel game."""

    def __init__(self, game: CarcassonneGame, inner: carcassonne.Game) -> None:
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        p = self.inner.current_player
        if p == carcassonne.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == carcassonne.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player: int) -> List[int]:
        if player == pyspiel.PlayerId.CHANCE:
            return [k for k, _ in self.inner.chance_outcome_ids()]
        if player != self.inner.current_player:
            return []
        return sorted(self.inner.legal_action_ids())

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if not self.inner.is_chance_node:
            raise ValueError("chance_outcomes called on a non-chance state")
        return self.inner.chance_outcome_ids()

    def _apply_action(self, action: int) -> None:
        if self.inner.is_chance_node:
            self.inner.apply_chance(action)
        else:
            self.inner.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "draw " + self.inner.tile_ids()[action]
        if player == self.inner.current_player:
            try:
                return self.inner.action_text(action)
            except carcassonne.IllegalActionError:
                pass
        block, fields = self.inner._g.describe_id(int(action))
        return f"{block}{dict(fields)}"

    def is_terminal(self) -> bool:
        return self.inner.is_over()

    def returns(self) -> List[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        d = self.inner.decision
        return f"turn {self.inner.turn}, scores {self.inner.scores()}, {d['actor']} to decide {d['kind']}"


class CarcassonneObserver:
    """The PyObserver of the game: the package's observation (planes flattened, then features) for a player; with
    perfect recall, the information-state string (the player's own triangles and every action so far, all public)."""

    def __init__(self, game: CarcassonneGame, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        (planes, w, _), features = game._start.observation_shape
        size = 0 if self.perfect_recall else planes * w * w + features
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        if size:
            self.dict["board"] = self.tensor[: planes * w * w].reshape(planes, w, w)
            self.dict["features"] = self.tensor[planes * w * w :]

    def set_from(self, state: CarcassonneState, player: int) -> None:
        if self.tensor.size:
            board, features = state.inner.observation(player)
            self.dict["board"][...] = board
            self.dict["features"][...] = features

    def string_from(self, state: CarcassonneState, player: int) -> str:
        view = state.inner.view(player)
        if not self.perfect_recall:
            return _compact(view)
        hand = view["players"][player].get("hand", [])
        history = state.inner.to_record()["actions"]
        return f"P{player + 1} hand {hand}\n" + "\n".join(history)


def _compact(view: Dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(_GAME_TYPE, CarcassonneGame)
