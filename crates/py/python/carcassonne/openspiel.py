"""Carcassonne as an OpenSpiel game: ``import carcassonne.openspiel`` registers ``python_carcassonne`` with ``pyspiel``.

    import pyspiel
    import carcassonne.openspiel
    game = pyspiel.load_game("python_carcassonne", {"players": 2, "sets": "base+am"})
    same = pyspiel.load_game(str(game))  # the game string reads back

Chance is explicit: each draw is a chance node (outcomes: tile kinds, with the probabilities of the tiles left), and so
is each triangle of the Halflings' random deal (HALF-03), dealt one at a time round the table before the first turn
(outcomes: triangle kinds, by the copies left). Player actions are the package's fixed action ids (docs/python.md).
The game is registered as imperfect-information because the triangles in hand are private; a game without Halflings
hides nothing (every draw is a chance node) and its ``get_type()`` says ``PERFECT_INFORMATION``.
``resample_from_infostate`` deals the triangles a player has not seen again (OpenSpiel's ISMCTS uses it).

Parameters (all optional), in a form that survives OpenSpiel's game strings:

- ``players``: 2..6;
- ``sets``: tile sets joined by ``+`` (``base+am+pd+cc+half``; commas are accepted too when given in a dict);
- ``rules``: rule options as ``key:value`` pairs joined by ``;`` (``wagon.movement:c1;base.tiny_city_points:two``;
  ``key=value`` is accepted too when given in a dict), see ``carc rules``;
- ``seed``: the inner game's own generator. Every draw and the deal are chance nodes, so it changes nothing a player
  sees; it is kept so that a game string names one exact engine configuration;
- ``window``: the board window's width (docs/python.md).

Returns are zero-sum: two players get +1 / -1 (0 each for a draw); with more, 1 is shared among the leaders and the
mean is taken off, scaled by n/(n-1).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel

import carcassonne

SHORT_NAME = "python_carcassonne"

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

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


def _game_type(information: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name=_GAME_TYPE.long_name,
        dynamics=_GAME_TYPE.dynamics,
        chance_mode=_GAME_TYPE.chance_mode,
        information=information,
        utility=_GAME_TYPE.utility,
        reward_model=_GAME_TYPE.reward_model,
        max_num_players=_GAME_TYPE.max_num_players,
        min_num_players=_GAME_TYPE.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


#: The type of a game without Halflings: every draw is an explicit chance node and nothing else is hidden, so the
#: game is of perfect information (as backgammon is in OpenSpiel).
_OPEN_GAME_TYPE = _game_type(pyspiel.GameType.Information.PERFECT_INFORMATION)


def parse_rules(text: str) -> Dict[str, str]:
    """``"wagon.movement:c1;base.tiny_city_points:two"`` (or with ``=`` for ``:``) → a dict."""
    rules = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        sep = min((i for i in (part.find(":"), part.find("=")) if i >= 0), default=-1)
        if sep < 0:
            raise ValueError(f"rule `{part}` is not key:value")
        rules[part[:sep].strip()] = part[sep + 1 :].strip()
    return rules


def rules_param(rules: Dict[str, str]) -> str:
    """The ``rules`` parameter for a dict of rule options: ``key:value`` pairs, sorted, joined by ``;``."""
    return ";".join(f"{k}:{v}" for k, v in sorted(rules.items()))


def sets_param(sets: Sequence[str]) -> str:
    """The ``sets`` parameter for a list of tile sets: joined by ``+``."""
    return "+".join(sets)


class CarcassonneGame(pyspiel.Game):
    """The OpenSpiel game; its parameters choose players, sets and rules."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        p = dict(_DEFAULTS)
        p.update(params or {})
        self.setup: Dict[str, Any] = {
            "players": int(p["players"]),
            "sets": [s for s in str(p["sets"]).replace("+", ",").split(",") if s],
            "rules": parse_rules(str(p["rules"])),
            "seed": int(p["seed"]),
        }
        # Written back in the canonical form, which is what the game string shows and reads back.
        p["sets"] = sets_param(self.setup["sets"])
        p["rules"] = rules_param(self.setup["rules"])
        self.window = int(p["window"])
        self._start = carcassonne.Game(**self.setup, window=self.window)
        #: The random deal, if any: triangles per player and the copies dealt from (kind numbers).
        self.deal: Optional[Tuple[int, List[int]]] = self._start.deal_pool()
        self._tile_ids = self._start.tile_ids()
        self._kinds = {t: k for k, t in enumerate(self._tile_ids)}
        players = self.setup["players"]
        tiles = self._start.stack_len() + 30
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
            # (The deal's chance nodes are counted in `tiles`: the triangles are among them.)
        )
        # Registered as imperfect information (the triangles in hand are private); a game without them says it is
        # of perfect information, so that algorithms for those (MCTS on the state itself) may take it.
        hidden = "half" in self.setup["sets"]
        super().__init__(_GAME_TYPE if hidden else _OPEN_GAME_TYPE, info, p)

    @property
    def config(self) -> carcassonne.Config:
        """The configuration the parameters name (players, sets, rules, seed, window)."""
        return self._start.config

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        # pyspiel's own pickling of a game rebuilds only its C++ part; rebuilding it from the game string runs this
        # class's constructor too.
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> "CarcassonneState":
        """The game before its first draw (and, with the Halflings' random deal, before the deal)."""
        if self.deal is None:
            return CarcassonneState(self, self._start.clone())
        return CarcassonneState(self, None, [[] for _ in range(self.setup["players"])])

    def _dealt(self, hands: List[List[int]]) -> carcassonne.Game:
        """The game once every triangle of the deal is in hand."""
        ids = [[self._tile_ids[k] for k in h] for h in hands]
        return carcassonne.Game(**self.setup, window=self.window, hands=ids)

    def _deals(self) -> int:
        """How many triangles the deal hands out."""
        assert self.deal is not None
        per, pool = self.deal
        return min(per * self.setup["players"], len(pool))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "CarcassonneObserver":
        """An observer: the package's observation tensor, or with perfect recall the information-state string."""
        return CarcassonneObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class CarcassonneState(pyspiel.State):
    """A position of the OpenSpiel game: the inner :class:`carcassonne.Game`, or while the triangles are being dealt,
    the hands so far."""

    def __init__(
        self, game: CarcassonneGame, inner: Optional[carcassonne.Game], hands: Optional[List[List[int]]] = None
    ) -> None:
        super().__init__(game)
        self._game = game
        #: The game itself (``None`` during the deal).
        self.inner = inner
        #: The triangles dealt to each seat so far, in the order dealt (kind numbers); empty without a deal.
        self.hands: List[List[int]] = hands or [[] for _ in range(game.setup["players"])]
        # The player to act in OpenSpiel's numbering, kept after each action: OpenSpiel asks for it several times a
        # step, and this is the hot path of every algorithm that steps the game.
        self._player = self._to_act()

    def _to_act(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.inner._g.current_player()
        if p == carcassonne.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == carcassonne.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(p)

    def _dealing(self) -> bool:
        return self.inner is None

    def _deal_left(self) -> "Counter[int]":
        assert self._game.deal is not None
        left = Counter(self._game.deal[1])
        left.subtract(k for h in self.hands for k in h)
        return +left

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> List[int]:
        if player != self._player or (self.inner is None and player != _CHANCE):
            return []
        if player == _CHANCE:
            return [k for k, _ in self.chance_outcomes()]
        assert self.inner is not None
        ids: List[int] = self.inner._g.legal_action_ids()
        ids.sort()
        return ids

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self.inner is None:
            left = self._deal_left()
            total = sum(left.values())
            return [(k, n / total) for k, n in sorted(left.items())]
        if self._player != _CHANCE:
            raise ValueError("chance_outcomes called on a non-chance state")
        return [(k, p) for k, _, p in self.inner._g.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            dealt = sum(len(h) for h in self.hands)
            if self._deal_left()[action] <= 0:
                raise ValueError(f"triangle kind {action} is not left to deal")
            self.hands[dealt % len(self.hands)].append(int(action))
            if dealt + 1 == self._game._deals():
                self.inner = self._game._dealt(self.hands)
        elif self._player == _CHANCE:
            self.inner._g.apply_chance(action)
        else:
            self.inner._g.apply_id(action)
        self._player = self._to_act()

    def _action_to_string(self, player: int, action: int) -> str:
        if self.inner is None:
            seat = sum(len(h) for h in self.hands) % len(self.hands)
            return f"deal {self._game._tile_ids[action]} to P{seat + 1}"
        if player == pyspiel.PlayerId.CHANCE:
            return "draw " + self._game._tile_ids[action]
        if player == self._player:
            try:
                return self.inner.action_text(action)
            except carcassonne.IllegalActionError:
                pass
        block, fields = self.inner._g.describe_id(int(action))
        return f"{block}{dict(fields)}"

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> List[float]:
        if self.inner is None:
            return [0.0] * len(self.hands)
        return self.inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "CarcassonneState":
        """A state that ``player_id`` cannot tell from this one, drawn at random: the other seats' triangles in hand
        are dealt again from every triangle that player has not seen (HALF-03). The history is rebuilt to match: the
        deal as it would have gone, then the same actions. Without a random deal nothing is hidden and this is a
        copy."""
        if self._game.deal is None or self.inner is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        kinds = self._game._kinds
        held = [
            Counter(kinds[t] for t in self.inner.view(p)["players"][p].get("hand", [])) for p in range(len(self.hands))
        ]
        unseen = Counter(self._game.deal[1])
        unseen.subtract(self.hands[player_id])
        played: List["Counter[int]"] = []
        for p, dealt in enumerate(self.hands):
            gone = Counter(dealt)
            gone.subtract(held[p])
            played.append(+gone)
            if p != player_id:
                unseen.subtract(gone)
        pool = sorted((+unseen).elements())
        rng.shuffle(pool)
        hands = []
        for p, dealt in enumerate(self.hands):
            if p == player_id:
                hands.append(list(dealt))
                continue
            fresh = [pool.pop() for _ in range(sum(held[p].values()))]
            hands.append(sorted(played[p].elements()) + fresh)
        state = self._game.new_initial_state()
        for i in range(self._game._deals()):
            n = len(hands)
            state.apply_action(hands[i % n][i // n])
        for text in self.inner.to_record()["actions"]:
            if text.startswith("draw "):
                state.apply_action(kinds[text[5:]])
            else:
                assert state.inner is not None
                state.apply_action(state.inner.action_id(text))
        return state

    def __str__(self) -> str:
        if self.inner is None:
            dealt = sum(len(h) for h in self.hands)
            return f"dealing the triangles: {dealt} of {self._game._deals()} dealt"
        d = self.inner.decision()
        return f"turn {self.inner.turn()}, scores {self.inner.scores()}, {d['actor']} to decide {d['kind']}"


class CarcassonneObserver:
    """The PyObserver of the game: the package's observation (planes flattened, then features) for a player; with
    perfect recall, the information-state string (the player's own triangles and every action so far, all public)."""

    def __init__(self, game: CarcassonneGame, iig_obs_type: Any, params: Any) -> None:
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
        if self.tensor.size and state.inner is None:
            self.tensor[...] = 0  # nothing is on the board yet
        elif self.tensor.size and state.inner is not None:
            board, features = state.inner.observation(player)
            self.dict["board"][...] = board
            self.dict["features"][...] = features

    def string_from(self, state: CarcassonneState, player: int) -> str:
        if state.inner is None:
            hand = [state._game._tile_ids[k] for k in state.hands[player]]
            return f"P{player + 1} dealt {hand}"
        view = state.inner.view(player)
        if not self.perfect_recall:
            return _compact(view)
        hand = view["players"][player].get("hand", [])
        history = state.inner.to_record()["actions"]
        return f"P{player + 1} hand {hand}\n" + "\n".join(history)


def _compact(view: Dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class CarcassonneBot(pyspiel.Bot):
    """One of the package's bots as an OpenSpiel bot (for ``evaluate_bots``, OpenSpiel's arenas, ...):
    ``CarcassonneBot("hard", seed=1)``. It sees only what its seat may see (the other hands stay hidden)."""

    def __init__(self, spec: str = "greedy", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self._bot = carcassonne.Bot(spec, seed)

    def step(self, state: CarcassonneState) -> int:
        """The bot's action id for the player to act."""
        if state.inner is None:
            raise ValueError("the triangles are still being dealt: a chance node")
        return state.inner.action_id(self._bot.choose(state.inner))

    def restart_at(self, state: CarcassonneState) -> None:
        """Nothing to forget: the bot looks at the state itself at each step."""

    def inform_action(self, state: CarcassonneState, player_id: int, action: int) -> None:
        """Nothing to follow: the bot looks at the state itself at each step."""


pyspiel.register_game(_GAME_TYPE, CarcassonneGame)
