"""Carcassonne for Python: the rules engine, its computer players, and tensors for learning.

Play a game between two bots and save its record (``carc replay`` reads it)::

    import carcassonne
    game = carcassonne.Game(players=2, sets=["base", "am"], seed=7)
    carcassonne.play(game, ["greedy", "medium"])
    print(game.scores())
    game.save("game.json")

Modules:

- ``carcassonne.openspiel``: the game registered with ``pyspiel`` (needs ``open_spiel``).
- ``carcassonne.pettingzoo``: an AEC environment and a Gymnasium single-agent wrapper.
- ``carcassonne.ray``: arenas and self-play spread over a Ray cluster.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
import os
import random as _random
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np

from . import _core
from ._core import CHANCE, TERMINAL, IllegalActionError, WindowError

__version__ = _core.__version__
IllegalActionError.__module__ = "carcassonne"
WindowError.__module__ = "carcassonne"

__all__ = [
    "CHANCE",
    "LEVELS",
    "TERMINAL",
    "Action",
    "Bot",
    "Config",
    "Game",
    "IllegalActionError",
    "VecGame",
    "WindowError",
    "outcome",
    "play",
    "rule_options",
    "setup_json",
    "wilson",
]

#: Every tile set: base game, Abbey & Mayor, Princess & Dragon, Crop Circles, Halflings.
ALL_SETS: Tuple[str, ...] = ("base", "am", "pd", "cc", "half")

#: The levels offered to people, weakest first (docs/ai.md).
LEVELS: Tuple[str, ...] = ("easy", "medium", "hard")

#: Board window width used unless another is asked for.
DEFAULT_WINDOW = 32

_PathLike = Union[str, "os.PathLike[str]"]


def _integer(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi``, or a clear error (a float or a string is not silently truncated)."""
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not lo <= n <= hi:
        raise ValueError(f"{name} must be from {lo} to {hi}, not {n}")
    return n


SEED_MAX = 2**64 - 1


def setup_json(
    players: int = 2,
    sets: Sequence[str] = ("base",),
    rules: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    hands: Optional[Sequence[Sequence[str]]] = None,
) -> str:
    """A setup in the record format's JSON (docs/record-format.md).

    Choosing a set switches on its modules (``am``: abbey, mayor, wagon, barn; ``pd``: dragon, fairy, princess,
    portal; ``cc``: crop circles; ``half``: Halflings) unless ``rules`` sets any ``modules.*`` key itself. ``hands``
    gives the Halflings' triangles of each seat (tile ids, e.g. ``[["half/T1"], ["half/T4"]]``) instead of the deal.
    """
    if isinstance(sets, str):
        sets = [s for s in sets.replace("+", ",").split(",") if s]
    setup: Dict[str, Any] = {
        "players": _integer("players", players, 0, 255),
        "sets": list(sets),
        "rules": dict(rules or {}),
        "seed": _integer("seed", seed, 0, SEED_MAX),
    }
    if hands is not None:
        if isinstance(hands, str):
            raise TypeError("hands is one list of tile ids per seat, not a string")
        setup["hands"] = [list(h) for h in hands]
    return json.dumps(setup)


def rule_options() -> List[Dict[str, Any]]:
    """Every rule option with its values, the default first (``carc rules``)."""
    return cast(List[Dict[str, Any]], json.loads(_core.rule_options_json()))


def _sets(sets: Union[str, Sequence[str]]) -> Tuple[str, ...]:
    if isinstance(sets, str):
        sets = sets.replace("+", ",").split(",")
    return tuple(s.strip() for s in sets if s.strip())


@dataclass(frozen=True)
class Config:
    """A game's configuration, shared by :class:`Game`, :class:`VecGame`, the environments and ``carcassonne.ray``:
    players, tile sets, rule options, seed and the observation window's width.

    ``Config(players=3, sets=("base", "pd"), rules={"dragon.move_timing": "after_scoring"})``; ``sets`` may also be
    ``"base,pd"`` and ``rules`` any mapping (kept as sorted ``(key, value)`` pairs, values as text, so that a
    configuration is hashable and compares equal however it was written). ``config.replace(seed=4)`` is a copy with
    a change. ``Game(config=config)``, ``VecGame(n, config=config)``, ``env(config=config)``, ...
    """

    players: int = 2
    sets: Tuple[str, ...] = ("base",)
    rules: Tuple[Tuple[str, str], ...] = ()
    seed: int = 0
    window: int = DEFAULT_WINDOW

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _integer("players", self.players, 1, 255))
        object.__setattr__(self, "sets", _sets(self.sets))
        rules = self.rules.items() if isinstance(self.rules, Mapping) else (self.rules or ())
        object.__setattr__(self, "rules", tuple(sorted((str(k), str(v)) for k, v in rules)))
        object.__setattr__(self, "seed", _integer("seed", self.seed, 0, SEED_MAX))
        window = _integer("window", self.window, -(2**31), 2**31)
        if not 4 <= window <= 200:
            raise ValueError(f"window must be 4 to 200 spaces wide, not {window}")
        object.__setattr__(self, "window", window)

    @property
    def rules_dict(self) -> Dict[str, str]:
        """The rule options as a dict."""
        return dict(self.rules)

    def setup_json(self) -> str:
        """The setup in the record format's JSON (:func:`setup_json`)."""
        return setup_json(self.players, self.sets, self.rules_dict, self.seed)

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_setup(cls, setup: Mapping[str, Any], window: int = DEFAULT_WINDOW) -> "Config":
        """The configuration of a record's setup (a dict in the record format)."""
        return cls(
            players=setup.get("players", 2),
            sets=tuple(setup.get("sets", ("base",))),
            rules=setup.get("rules", {}),
            seed=setup.get("seed", 0),
            window=window,
        )


def _config_of(config: Optional[Config], players: int, sets: Any, rules: Any, seed: int, window: int) -> Config:
    """``config``, or one made of the separate options; both at once is an error."""
    if config is None:
        return Config(players, _sets(sets), cast(Any, rules or {}), seed, window)
    if not isinstance(config, Config):
        raise TypeError(f"config must be a carcassonne.Config, not {type(config).__name__}")
    if (players, _sets(sets), dict(rules or {}), seed, window) != (2, ("base",), {}, 0, DEFAULT_WINDOW):
        raise TypeError("give either config= or the separate options (players, sets, rules, seed, window), not both")
    return config


@dataclass(frozen=True)
class Action:
    """A legal action: its id in the action space, its record notation, and what the id stands for."""

    #: The id in ``0..game.action_space_size`` (``None`` for a draw, a chance outcome).
    id: Optional[int]
    #: Record notation, e.g. ``place base/U 1,0 r90``.
    text: str
    #: The action space block (``place``, ``onto``, ``figure``, ...; ``draw`` for chance).
    block: str
    #: The numbers the id stands for (window offsets, rotation, follower, tile number, segment, ...).
    fields: Dict[str, int] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The notation's first word (``place``, ``meeple``, ``pass``, ``dragon``, ...)."""
        return self.text.split(" ", 1)[0]

    def __str__(self) -> str:
        return self.text


class Game:
    """One game of Carcassonne.

    ``Game(players=2, sets=["base", "am"], rules={"base.tiny_city_points": "two"}, seed=7)`` (or
    ``Game(config=Config(...))``) starts a game; the seed shuffles the stack (and deals the Halflings' triangles,
    unless ``hands`` gives each seat's). Draws are chance nodes: :meth:`draw` takes the seed's next tile,
    :meth:`apply_chance` a given tile kind (as OpenSpiel does). ``window`` is the width of the observation's board
    window (docs/python.md); the action ids do not depend on it.
    """

    __slots__ = ("_config", "_g")

    def __init__(
        self,
        players: int = 2,
        sets: Sequence[str] = ("base",),
        rules: Optional[Mapping[str, Any]] = None,
        seed: int = 0,
        window: int = DEFAULT_WINDOW,
        *,
        config: Optional[Config] = None,
        hands: Optional[Sequence[Sequence[str]]] = None,
        _native: Optional[_core.Game] = None,
    ) -> None:
        self._config: Optional[Config] = None
        if _native is not None:
            self._g = _native
        else:
            c = _config_of(config, players, sets, rules, seed, window)
            self._g = _core.Game(setup_json(c.players, c.sets, c.rules_dict, c.seed, hands), c.window)
            self._config = c

    @property
    def config(self) -> Config:
        """The game's configuration (players, sets, rules, seed, window)."""
        if self._config is None:
            setup = json.loads(self._g.record_json())["setup"]
            self._config = Config.from_setup(setup, self._g.window()[2])
        return self._config

    # ----- records -----

    @classmethod
    def from_record(cls, record: Union[Mapping[str, Any], str, _PathLike], window: int = DEFAULT_WINDOW) -> "Game":
        """The game a record leads to (a dict, JSON text, or a path to a ``.json`` file), every action checked."""
        if isinstance(record, Mapping):
            text = json.dumps(record)
        elif isinstance(record, str) and record.lstrip().startswith("{"):
            text = record
        else:
            with open(record, encoding="utf-8") as f:
                text = f.read()
        return cls(_native=_core.Game.from_record(text, window))

    def to_record(self) -> Dict[str, Any]:
        """The record so far (setup and every action, draws included), as a dict."""
        return cast(Dict[str, Any], json.loads(self._g.record_json()))

    def save(self, path: _PathLike) -> None:
        """Write the record to a file; ``carc replay`` reads it."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._g.record_json())
            f.write("\n")

    # ----- the position -----

    @property
    def players(self) -> int:
        """Number of players."""
        return self._g.players

    def current_player(self) -> int:
        """The player to act (0-based), :data:`CHANCE` (-1) at a draw, :data:`TERMINAL` (-4) once over."""
        return self._g.current_player()

    def is_chance_node(self) -> bool:
        """Whether a draw is pending."""
        return self._g.current_player() == CHANCE

    def decision(self) -> Dict[str, Any]:
        """The pending decision: ``actor``, ``kind`` (``place_tile``, ``phase2``, ...), the drawn ``tile``, ..."""
        return cast(Dict[str, Any], json.loads(self._g.decision_json()))

    def turn(self) -> int:
        """Turn number."""
        return self._g.turn

    def stack_len(self) -> int:
        """Tiles left in the stack."""
        return self._g.stack_len()

    def is_over(self) -> bool:
        """Whether the game is over."""
        return self._g.is_over()

    def scores(self) -> List[int]:
        """Points, in seat order."""
        return self._g.scores()

    def returns(self) -> List[float]:
        """The result for each player once over: 1 shared among the leaders, minus the mean, scaled so that two
        players get +1 / -1 (0 each for a draw). The sum is 0. All zeros while the game runs."""
        if not self.is_over():
            return [0.0] * self.players
        return outcome(self.scores())

    # ----- actions -----

    def legal_actions(self) -> List[str]:
        """The legal actions in record notation (at a chance node: the draws)."""
        return self._g.legal_actions()

    def legal_action_ids(self) -> List[int]:
        """The legal actions' ids, in the order of :meth:`legal_actions` (empty at a chance node)."""
        return self._g.legal_action_ids()

    def legal_moves(self) -> List[Action]:
        """The legal actions as :class:`Action` objects (id, notation, block, fields)."""
        texts = self._g.legal_actions()
        if self.is_chance_node():
            return [Action(None, t, "draw", {}) for t in texts]
        out = []
        for i, t in zip(self._g.legal_action_ids(), texts):
            block, fields = self._g.describe_id(i)
            out.append(Action(i, t, block, dict(fields)))
        return out

    def legal_mask(self) -> np.ndarray:
        """Boolean mask over the action space: ``True`` at every legal id."""
        return self._g.legal_mask()

    def apply(self, action: Union[str, int, Action]) -> None:
        """Apply an action given in notation, by id, or as an :class:`Action`."""
        if isinstance(action, Action):
            if action.id is None:
                self._g.apply(action.text)
            else:
                self._g.apply_id(action.id)
        elif isinstance(action, (int, np.integer)):
            self._g.apply_id(int(action))
        elif isinstance(action, str):
            self._g.apply(action)
        else:
            raise TypeError(f"an action is notation (str), an id (int) or an Action, not {type(action).__name__}")

    def action_id(self, action: str) -> int:
        """The id of a legal action given in notation."""
        return self._g.action_id(action)

    def action_text(self, action_id: int) -> str:
        """The notation of the legal action with this id."""
        return self._g.action_text(int(action_id))

    @property
    def action_space_size(self) -> int:
        """Number of action ids (fixed for a configuration and window)."""
        return self._g.action_space_size()

    def action_blocks(self) -> List[Tuple[str, int, int]]:
        """The action space's blocks: ``(name, first id, size)``."""
        return self._g.action_blocks()

    def describe_id(self, action_id: int) -> str:
        """What an id means here: the notation of a legal id (``place base/U 0,2 r90``); for any other id, its
        block and numbers, with the open space's coordinates for a placement (``place: space=3 (0,2), rotation=90;
        not legal here``)."""
        action_id = _integer("action_id", action_id, 0, self.action_space_size - 1)
        try:
            return self._g.action_text(action_id)
        except (IllegalActionError, WindowError):
            pass
        block, fields = self._g.describe_id(action_id)
        parts = []
        spaces = self._g.open_spaces()
        for name, value in fields:
            text = f"{name}={value}"
            if name == "space" and value < len(spaces):
                text += " ({},{})".format(*spaces[value])
            parts.append(text)
        return f"{block}: {', '.join(parts)}; not legal here" if parts else f"{block}; not legal here"

    def open_spaces(self) -> List[Tuple[int, int]]:
        """The open spaces by slot, ``(x, y)`` each: the ``space`` number of the ``place`` and ``triangle`` ids.

        Every space that is not full and holds a tile or lies beside one, sorted by ``y`` then ``x`` (row-major from
        the south-west). Slots past the list's end are unused at this decision."""
        return self._g.open_spaces()

    # ----- chance -----

    def chance_outcomes(self) -> List[Tuple[str, float]]:
        """At a draw: each tile kind left, with its probability."""
        return [(tile, p) for _, tile, p in self._g.chance_outcomes()]

    def chance_outcome_ids(self) -> List[Tuple[int, float]]:
        """At a draw: each tile kind's number (``0..chance_space_size``) with its probability."""
        return [(k, p) for k, _, p in self._g.chance_outcomes()]

    @property
    def chance_space_size(self) -> int:
        """Number of tile kinds (chance outcomes are numbered by kind)."""
        return self._g.chance_space_size()

    def draw(self) -> None:
        """Take the next tile of the game's own shuffled stack (what the seed deals)."""
        self._g.draw()

    def apply_chance(self, kind: int) -> None:
        """Draw a tile of this kind number (a chance outcome)."""
        self._g.apply_chance(int(kind))

    # ----- what a player sees -----

    def view(self, player: Optional[int] = None) -> Dict[str, Any]:
        """What ``player`` may see (``None``: a spectator): the board, figures, scores, own triangles, ..."""
        return cast(Dict[str, Any], json.loads(self._g.view_json(player)))

    def events(self) -> List[Dict[str, Any]]:
        """What the last action caused: scorings, figures returned, the dragon's meals, ..."""
        return cast(List[Dict[str, Any]], json.loads(self._g.events_json()))

    def observation(self, player: int) -> Tuple[np.ndarray, np.ndarray]:
        """``player``'s observation: board planes ``float32[planes, window, window]`` and a feature vector.

        Holds only what that player may see; :meth:`plane_names` and :meth:`feature_blocks` name the parts.
        """
        return self._g.observation(player)

    def observation_flat(self, player: int) -> np.ndarray:
        """The observation as one float32 vector: the planes, flattened, then the features."""
        board, features = self._g.observation(player)
        return np.concatenate([board.ravel(), features])

    @property
    def observation_shape(self) -> Tuple[Tuple[int, int, int], int]:
        """``((planes, window, window), features)``."""
        return self._g.observation_shape()

    def plane_names(self) -> List[str]:
        """Names of the board planes, in order."""
        return self._g.plane_names()

    @property
    def spatial_shape(self) -> Tuple[int, int, int]:
        """``(channels, window, window)``: the spatial action map of :meth:`spatial_ids`."""
        return self._g.spatial_shape()

    def spatial_channels(self) -> List[str]:
        """Names of the spatial action map's channels, in order (docs/python.md, "Spatial actions")."""
        return self._g.spatial_channels()

    def spatial_ids(self, ids: Iterable[int]) -> List[int]:
        """Where each id lies on the spatial action map ``[channels, W, W]`` over the observation window, as
        ``channel * W * W + row * W + column``; -1 for an id with no place on the board (``pass``, ``barn``,
        ``figure``, ``dragon``, ...), padding, or a space outside the window."""
        return self._g.spatial_ids([int(i) for i in ids])

    def feature_blocks(self) -> List[Tuple[str, int]]:
        """Names and lengths of the feature vector's blocks, in order."""
        return self._g.feature_blocks()

    def window(self) -> Tuple[int, int, int]:
        """``(x0, y0, width)``: the board window's south-west space and width, centred on the tiles played."""
        return self._g.window()

    def tile_ids(self) -> List[str]:
        """Tile ids by kind number (``base/U``, ...)."""
        return self._g.tile_ids()

    def deal_pool(self) -> Optional[Tuple[int, List[int]]]:
        """The Halflings' random deal, if this game has one: ``(triangles per player, the kind number of every
        triangle copy)``; ``None`` without Halflings, with the draft, or with ``hands`` given."""
        return self._g.deal_pool()

    def resample(self, player: int, seed: int) -> "Game":
        """A copy in which all that ``player`` cannot see is dealt again (the stack's order, others' triangles)."""
        return Game(_native=self._g.resample(player, _integer("seed", seed, 0, SEED_MAX)))

    # ----- symmetry -----

    def rotated(self, quarter_turns: int) -> "Game":
        """The same game with the whole board turned ``quarter_turns`` times clockwise about the start space.

        Its start tile is turned (``start_rotation`` in the setup) and every action of the record with it, so it
        draws the same tiles and scores the same points; its legal ids are this position's, turned
        (:meth:`rotate_ids`). An exact twin, for augmenting training data by the board's four rotations
        (docs/python.md, "Symmetry"). Reflections are not offered: tiles turn but never mirror (BASE-03)."""
        return Game(_native=self._g.rotated(int(quarter_turns)))

    def rotate_ids(self, ids: Iterable[int], quarter_turns: int) -> List[int]:
        """These legal ids of this position, as ids of the position turned ``quarter_turns`` times (:meth:`rotated`).

        -1 stays -1 (padding); an id that is not legal here raises ``IllegalActionError``."""
        return self._g.rotate_ids([int(i) for i in ids], int(quarter_turns))

    # ----- copies -----

    def clone(self) -> "Game":
        """An independent copy."""
        copy = Game(_native=self._g.clone())
        copy._config = self._config
        return copy

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.clone()

    def __getstate__(self) -> Dict[str, Any]:
        return {"record": self._g.record_json(), "window": self.window()[2]}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self._g = _core.Game.from_record(state["record"], state["window"])
        self._config = None

    def __repr__(self) -> str:
        return repr(self._g)

    def random_action(self, rng: Optional[_random.Random] = None) -> str:
        """A uniformly random legal action, in notation (at a chance node, a draw weighted by the tiles left)."""
        r: Any = rng or _random
        if self.is_chance_node():
            outcomes = self._g.chance_outcomes()
            kinds = [tile for _, tile, _ in outcomes]
            return "draw " + str(r.choices(kinds, weights=[p for _, _, p in outcomes])[0])
        return str(r.choice(self._g.legal_actions()))


def outcome(scores: Sequence[int]) -> List[float]:
    """Zero-sum results from final scores: 1 shared among the leaders, minus the mean, times n/(n-1)."""
    n = len(scores)
    best = max(scores)
    leaders = sum(1 for s in scores if s == best)
    share = [1.0 / leaders if s == best else 0.0 for s in scores]
    return [(w - 1.0 / n) * n / (n - 1) for w in share]


def wilson(wins: float, games: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson interval of a win rate (95% with the default ``z``), as ``carc arena`` reports it; a shared first
    place counts as a fraction of a win. ``(0, 1)`` for no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    d = 1 + z * z / games
    c = (p + z * z / (2 * games)) / d
    h = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return (max(0.0, c - h), min(1.0, c + h))


class Bot:
    """A computer player: ``random``, ``greedy``, ``mcts:iterations=2000,threads=1``, or a level (``easy``,
    ``medium``, ``hard``), as ``carc arena --bots`` reads them (docs/ai.md). It sees only what its seat may see.

    The bot thinks in Rust with the GIL released, so Python threads run meanwhile.
    """

    __slots__ = ("_b",)

    def __init__(self, spec: str = "greedy", seed: int = 0) -> None:
        self._b = _core.Bot(spec, _integer("seed", seed, 0, SEED_MAX))

    @property
    def spec(self) -> str:
        """The spec in full."""
        return self._b.spec

    def choose(self, game: Game, player: Optional[int] = None) -> str:
        """The action for ``player`` (by default the player to act), in notation."""
        return self._b.choose(game._g, player)

    def think(self, game: Game, player: Optional[int] = None) -> Dict[str, Any]:
        """The choice with the bot's view of the best candidates (visits, value), iterations and seconds."""
        return cast(Dict[str, Any], json.loads(self._b.think_json(game._g, player)))

    def __repr__(self) -> str:
        return repr(self._b)


def play(game: Game, bots: Sequence[Union[Bot, str]], seed: int = 0) -> Game:
    """Play ``game`` to the end with one bot per seat (specs or :class:`Bot` objects); draws come from the game's
    own stack. Returns the game."""
    seats = [b if isinstance(b, Bot) else Bot(b, seed + i) for i, b in enumerate(bots)]
    if len(seats) != game.players:
        raise ValueError(f"{len(seats)} bots for {game.players} players")
    while not game.is_over():
        p = game.current_player()
        if p == CHANCE:
            game.draw()
        else:
            game.apply(seats[p].choose(game, p))
    return game


SeatBots = Union[Mapping[int, str], Sequence[Optional[str]], None]


def _seat_bots(bots: SeatBots, players: int) -> Optional[List[Optional[str]]]:
    """``bots`` as one entry per seat."""
    if bots is None:
        return None
    if isinstance(bots, Mapping):
        seats: List[Optional[str]] = [None] * players
        for seat, spec in bots.items():
            seat = _integer("a bot's seat", seat, 0, players - 1)
            seats[seat] = spec
        return seats
    if isinstance(bots, str):
        raise TypeError('bots is a seat-to-spec mapping or one entry per seat, not a string: {1: "greedy"}')
    return list(bots)


class VecGame:
    """``n`` games of one configuration stepped together in Rust with the GIL released.

    Every game waits for a seat that Python plays (draws are taken from each game's own stack inside, and so are the
    decisions of the built-in players given by ``bots``); a finished game starts again from the next seed.
    ``threads > 1`` spreads the games over that many threads.

    ``bots`` seats built-in players: ``{1: "greedy"}`` (seat to spec) or one entry per seat with ``None`` for
    Python's seats (``[None, "greedy", "random"]``). Each game has its own bots, seeded from ``seed``, each
    searching on one thread; bots that stop on the clock (the levels, ``time=``) do not repeat exactly.
    """

    __slots__ = ("_rng", "_threads", "_v", "config")

    def __init__(
        self,
        n: int,
        players: int = 2,
        sets: Sequence[str] = ("base",),
        rules: Optional[Mapping[str, Any]] = None,
        seed: int = 0,
        window: int = DEFAULT_WINDOW,
        threads: int = 1,
        bots: SeatBots = None,
        *,
        config: Optional[Config] = None,
    ) -> None:
        n = _integer("n", n, 1, 1 << 24)
        threads = _integer("threads", threads, 1, 1024)
        c = _config_of(config, players, sets, rules, seed, window)
        #: The configuration of every game (game ``i`` starts from seed ``config.seed + i``).
        self.config = c
        self._v = _core.VecGame(n, c.setup_json(), c.window, c.seed, threads, _seat_bots(bots, c.players))
        self._rng = np.random.default_rng(c.seed)
        self._threads = threads

    def __getstate__(self) -> Dict[str, Any]:
        """What a pickle keeps: the configuration, the threads and bots, and every game as it stands (its seed and
        actions), so that a VecGame crosses to another process (``AsyncVectorEnv``, Ray actors, ``multiprocessing``)."""
        return {
            "n": len(self),
            "config": self.config,
            "threads": self._threads,
            "bots": self.bots,
            "games": self._v.state(),
            "rng": self._rng.bit_generator.state,
        }

    def __setstate__(self, state: Dict[str, Any]) -> None:
        """Every game as it stood, replayed from its actions; each seat's built-in player starts again from its seed
        (so a bot's next choice may differ from the original's, as it may for bots on the clock)."""
        c: Config = state["config"]
        self.config = c
        self._threads = state["threads"]
        self._v = _core.VecGame(state["n"], c.setup_json(), c.window, c.seed, self._threads, state["bots"])
        self._v.set_state(state["games"])
        self._rng = np.random.default_rng(c.seed)
        self._rng.bit_generator.state = state["rng"]

    def __repr__(self) -> str:
        seated = ", ".join(f"seat {p}: {b}" for p, b in enumerate(self.bots) if b is not None)
        bots = f" ({seated})" if seated else ""
        return f"<carcassonne.VecGame of {len(self)} games, {self.players} players{bots}, {self.episodes()} finished>"

    @property
    def bots(self) -> List[Optional[str]]:
        """Each seat's built-in player, in full (``None`` for the seats Python plays)."""
        return self._v.bots

    def __len__(self) -> int:
        return len(self._v)

    @property
    def players(self) -> int:
        """Number of players."""
        return self._v.players

    def episodes(self) -> int:
        """Games finished so far."""
        return self._v.episodes

    @property
    def action_space_size(self) -> int:
        """Number of action ids."""
        return self._v.action_space_size()

    @property
    def observation_shape(self) -> Tuple[Tuple[int, int, int], int]:
        """``((planes, window, window), features)``."""
        return self._v.observation_shape()

    def reset(self) -> None:
        """Start every game again from new seeds."""
        self._v.reset()

    def action_blocks(self) -> List[Tuple[str, int, int]]:
        """The action space's blocks: ``(name, first id, size)`` (as :meth:`Game.action_blocks`)."""
        return self._v.action_blocks()

    def describe_id(self, action_id: int) -> Tuple[str, Dict[str, int]]:
        """An id's block and the numbers it stands for, without a position; ``game(i).describe_id(id)`` says what
        it means in game ``i``."""
        block, fields = self._v.describe_id(_integer("action_id", action_id, 0, self.action_space_size - 1))
        return block, dict(fields)

    def plane_names(self) -> List[str]:
        """Names of the observation's board planes, in order."""
        return self._v.plane_names()

    def feature_blocks(self) -> List[Tuple[str, int]]:
        """Names and lengths of the observation's feature blocks, in order."""
        return self._v.feature_blocks()

    def windows(self) -> np.ndarray:
        """``int32[n, 3]``: each game's observation window, ``x0, y0, width``."""
        return self._v.windows()

    def open_cells(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """``int64[n, S]``: for each game, the observation-window cell (``row * width + column``) of each open-space
        slot's space, -1 for an unused slot or a space outside the window; written into ``out`` when given. A
        spatial policy gathers its per-cell outputs through it into the ``place`` ids (``4·k + rotation``)."""
        return self._v.open_cells(out)

    @property
    def spatial_shape(self) -> Tuple[int, int, int]:
        """``(channels, window, window)``: the spatial action map of :meth:`spatial_ids`."""
        return self._v.spatial_shape()

    def spatial_channels(self) -> List[str]:
        """Names of the spatial action map's channels, in order (docs/python.md, "Spatial actions")."""
        return self._v.spatial_channels()

    def spatial_ids(self, ids: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
        """``int64[n, m]``: where each of ``ids`` (``int64[n, m]``, row i for game i, -1 padding, as
        :meth:`legal_ids` gives) lies on the spatial action map ``[channels, W, W]``, as
        ``channel * W * W + row * W + column``; -1 for an id with no place on the board, padding, or a space outside
        the window. A convolutional policy head gathers its flattened output through it; the other ids (``pass``,
        ``barn``, ``figure``, ``dragon``, ...) need a head of their own."""
        return self._v.spatial_ids(np.ascontiguousarray(ids, dtype=np.int64), out)

    def game(self, i: int) -> Game:
        """Game ``i`` as it stands, as a :class:`Game` of its own (a copy: stepping one does not move the other),
        with its whole record (``game(i).to_record()``, ``game(i).save(path)``): the seed it started from and every
        action since, the draws and the built-in players' moves included."""
        return Game(_native=self._v.game(operator.index(i)))

    def current_player(self) -> np.ndarray:
        """``int64[n]``: the player to act in each game."""
        return self._v.current_player()

    def scores(self) -> np.ndarray:
        """``int32[n, players]``."""
        return self._v.scores()

    def legal_ids(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(int64[n, longest], int64[n])``: each game's legal ids padded with -1, and their counts."""
        return self._v.legal_ids()

    def legal_ids_flat(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(int64[total], int64[n + 1])``: every game's legal ids one after the other, and where each game's start
        (game ``i``: ``ids[offsets[i]:offsets[i + 1]]``)."""
        return self._v.legal_ids_flat()

    def legal_mask(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """``bool[n, action_space_size]``, written into ``out`` when given."""
        return self._v.legal_mask(out)

    def observations(
        self, out: Optional[Tuple[np.ndarray, np.ndarray]] = None, seat: Optional[int] = None, dtype: Any = np.float32
    ) -> Tuple[np.ndarray, np.ndarray]:
        """Each game's observation for its player to act, or with ``seat`` for that seat in every game (what it may
        see, seats counted from it): ``float32[n, planes, w, w]`` and ``float32[n, features]``, written into ``out``
        when given (a pair of arrays of those shapes, reused so that nothing is allocated).

        ``dtype=np.uint8`` writes the board planes as ``uint8`` (a quarter of the memory; the ``tile`` plane then
        counts halves, 2 for a square tile and 1 for a triangle, and every other plane holds the same counts); the
        features stay ``float32``."""
        kind = np.dtype(dtype)
        if kind == np.float32:
            return self._v.observations(out, seat)
        if kind == np.uint8:
            return self._v.observations_u8(out, seat)
        raise ValueError(f"observations are float32 or uint8, not {kind}")

    def live_observations(self, seat: Optional[int] = None, dtype: Any = np.uint8) -> Tuple[np.ndarray, np.ndarray]:
        """:meth:`observations` in two arrays this VecGame keeps and brings up to date in place: the same arrays
        every call, and only what changed since the last call is written (the tiles placed since, the pieces, the
        features), so a call costs a fraction of writing every plane afresh. A game's planes are drawn whole again only
        when it is a new game or its window moved to follow the played area.

        The arrays are read-only (they hold what the next call builds on): copy them to keep an observation past the
        next call. ``dtype`` is ``np.uint8`` (the default) or ``np.float32``; changing it starts new arrays."""
        kind = np.dtype(dtype)
        if kind not in (np.uint8, np.float32):
            raise ValueError(f"observations are float32 or uint8, not {kind}")
        return self._v.live_observations(kind == np.uint8, seat)

    def step(
        self, actions: np.ndarray, autoreset: bool = True
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one legal id per game: ``(rewards float32[n, players], terminated bool[n], truncated bool[n],
        final_scores int32[n, players])``.

        Rewards are the points each player gained. A game ends either *terminated* (over by the rules) or
        *truncated* (its played area outgrew the window, so its next actions have no ids), never both, as in
        Gymnasium: ``terminated | truncated`` is every game that ended. An ended game's final scores (the points
        so far, for a truncated one) are reported and it starts again from the next seed, or with
        ``autoreset=False`` stays as it ended (to be observed) until :meth:`restart_ended`. Nothing is applied if
        any id is illegal."""
        actions = np.asarray(actions)
        if not np.issubdtype(actions.dtype, np.integer):
            raise TypeError(f"action ids must be integers, not {actions.dtype}")
        if actions.shape != (len(self),):
            raise ValueError(f"step takes one id per game, shape ({len(self)},), not {actions.shape}")
        return self._v.step(np.ascontiguousarray(actions, dtype=np.int64), bool(autoreset))

    def ended(self) -> np.ndarray:
        """``bool[n]``: the games a ``step(autoreset=False)`` ended, waiting for :meth:`restart_ended`."""
        return self._v.ended()

    def restart_ended(self) -> None:
        """Start the ended games again, each from the next seed."""
        self._v.restart_ended()

    def random_actions(self, rng: Union[np.random.Generator, int, None] = None) -> np.ndarray:
        """``int64[n]``: one uniformly random legal id per game, chosen in Rust from a seed that ``rng`` draws (the
        same generator state on the same games gives the same ids; an int is that seed itself; without ``rng``, a
        generator seeded with the VecGame's seed). Placements are sampled without listing every legal one, as the
        engine's own random playout does, so random play costs no more than it must."""
        if rng is None:
            rng = self._rng
        if isinstance(rng, np.random.Generator):
            seed = int(rng.bit_generator.random_raw())
        else:
            seed = _integer("rng", rng, 0, SEED_MAX)
        return self._v.random_actions(seed)
