"""Carcassonne for PettingZoo and Gymnasium.

- :class:`CarcassonneEnv` (``carcassonne.pettingzoo.env(...)``): an AEC environment. Agents are ``player_0`` ...;
  each observation is ``{"observation": float32[...], "action_mask": int8[action_space_size]}``; actions are the
  package's action ids. Draws happen inside (from the game's own stack, seeded by ``reset(seed=...)``), so the
  agent to act is always a player. Several decisions in a row can belong to one agent (the placement, then the
  meeple).
- :class:`SinglePlayerEnv`: a Gymnasium environment in which one seat is the agent and the others are built-in bots.

Rewards: by default (``reward="outcome"``) only at the end, the zero-sum result (+1 / -1 for two players, see
:func:`carcassonne.outcome`); with ``reward="points"``, each player's points as they are scored.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import carcassonne
from carcassonne.render import board_image

# The largest value any observation entry takes (counts of tiles, scores in hundreds, pennants).
_HIGH = 1.0e4


def _obs_space(shape: Tuple[Tuple[int, int, int], int], size: int) -> spaces.Dict:
    (planes, w, _), features = shape
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, _HIGH, (planes * w * w + features,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }
    )


def _running(game: Optional[carcassonne.Game]) -> carcassonne.Game:
    if game is None:
        raise RuntimeError("call reset() first")
    return game


class CarcassonneEnv(AECEnv):
    """The AEC environment (see the module's documentation)."""

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 2,
        "name": "carcassonne_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        sets: Sequence[str] = ("base",),
        rules: Optional[Mapping[str, Any]] = None,
        window: int = carcassonne.DEFAULT_WINDOW,
        reward: str = "outcome",
        render_mode: Optional[str] = None,
        *,
        config: Optional[carcassonne.Config] = None,
    ) -> None:
        super().__init__()
        if reward not in ("outcome", "points"):
            raise ValueError("reward must be 'outcome' or 'points'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        #: The games' configuration; ``reset(seed=…)`` replaces its seed.
        self.config = carcassonne._config_of(config, players, sets, rules, 0, window)
        players = self.config.players
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        probe = carcassonne.Game(config=self.config)
        self._size = probe.action_space_size
        self._shape = probe.observation_shape
        self._observation_spaces = {a: _obs_space(self._shape, self._size) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self._size) for a in self.possible_agents}
        self.game: Optional[carcassonne.Game] = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def _settle(self) -> None:
        while _running(self.game).is_chance_node():
            _running(self.game).draw()

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is None:
            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)
            seed = entropy % (2**63)
        self.game = carcassonne.Game(config=self.config.replace(seed=seed))
        self._settle()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[_running(self.game).current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        i = self.agent_name_mapping[agent]
        mask = np.zeros(self._size, np.int8)
        if _running(self.game).current_player() == i:
            try:
                mask[_running(self.game).legal_action_ids()] = 1
            except carcassonne.WindowError:
                pass
        return {"observation": _running(self.game).observation_flat(i).astype(np.float32), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = _running(self.game).scores()
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        _running(self.game).apply(int(action))
        self._settle()
        self._clear_rewards()
        if self.reward_mode == "points":
            for a, s, b in zip(self.possible_agents, _running(self.game).scores(), before):
                self.rewards[a] = float(s - b)
        over = _running(self.game).is_over()
        truncated = False
        if not over:
            try:
                _running(self.game).legal_action_ids()
            except carcassonne.WindowError:
                truncated = True
        if over:
            if self.reward_mode == "outcome":
                for a, r in zip(self.possible_agents, _running(self.game).returns()):
                    self.rewards[a] = float(r)
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"scores": _running(self.game).scores()}
        elif truncated:
            for a in self.agents:
                self.truncations[a] = True
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        if not (over or truncated):
            self.agent_selection = self.possible_agents[_running(self.game).current_player()]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """``ansi``: the game as text; ``human``: printed; ``rgb_array``: a picture of the board
        (:func:`carcassonne.render.board_image`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return board_image(_running(self.game))
        text = repr(_running(self.game))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> CarcassonneEnv:
    """The AEC environment (``render_mode``, ``players``, ``sets``, ``rules``, ``window``, ``reward``)."""
    return CarcassonneEnv(**kwargs)


class SinglePlayerEnv(gymnasium.Env):
    """One seat against built-in bots, as a Gymnasium environment.

    Observations as in :class:`CarcassonneEnv`; the action is an id (``action_mask`` says which are legal). An
    illegal id ends the episode with reward -1 and ``info["illegal_action"] = True`` (``illegal="lose"``, the
    default, as Gymnasium's checks step with unmasked samples), or raises :class:`carcassonne.IllegalActionError`
    (``illegal="raise"``). The other seats are played by ``opponents`` (one spec for all, or one per seat). The
    episode ends when the game does; the reward is the outcome (or points).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        players: int = 2,
        sets: Sequence[str] = ("base",),
        rules: Optional[Mapping[str, Any]] = None,
        seat: int = 0,
        opponents: Any = "greedy",
        window: int = carcassonne.DEFAULT_WINDOW,
        reward: str = "outcome",
        illegal: str = "lose",
        render_mode: Optional[str] = None,
        *,
        config: Optional[carcassonne.Config] = None,
    ) -> None:
        super().__init__()
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.illegal = illegal
        #: The games' configuration; each ``reset`` draws its seed.
        self.config = carcassonne._config_of(config, players, sets, rules, 0, window)
        players = self.config.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        if reward not in ("outcome", "points"):
            raise ValueError("reward must be 'outcome' or 'points'")
        self.seat = seat
        specs: List[str] = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(specs)} given")
        self._specs = specs
        self.reward_mode = reward
        self.render_mode = render_mode
        probe = carcassonne.Game(config=self.config)
        self._size = probe.action_space_size
        self.observation_space = _obs_space(probe.observation_shape, self._size)
        self.action_space = spaces.Discrete(self._size)
        self.game: Optional[carcassonne.Game] = None
        self._bots: Dict[int, carcassonne.Bot] = {}
        self._ended = True

    def _legal(self) -> Optional[List[int]]:
        """The agent's legal ids, or ``None`` once the played area has outgrown the window (the episode is then
        truncated, as in :class:`CarcassonneEnv`)."""
        try:
            return _running(self.game).legal_action_ids()
        except carcassonne.WindowError:
            return None

    def _obs(self) -> Dict[str, np.ndarray]:
        mask = np.zeros(self._size, np.int8)
        if _running(self.game).current_player() == self.seat:
            mask[self._legal() or []] = 1
        return {"observation": _running(self.game).observation_flat(self.seat).astype(np.float32), "action_mask": mask}

    def _advance(self) -> None:
        """Draws and the bots' decisions, up to the agent's next decision or the end."""
        while not _running(self.game).is_over():
            p = _running(self.game).current_player()
            if p == carcassonne.CHANCE:
                _running(self.game).draw()
            elif p == self.seat:
                return
            else:
                _running(self.game).apply(self._bots[p].choose(_running(self.game), p))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.game = carcassonne.Game(config=self.config.replace(seed=game_seed))
        others = [p for p in range(_running(self.game).players) if p != self.seat]
        self._bots = {p: carcassonne.Bot(s, game_seed + p) for p, s in zip(others, self._specs)}
        self._advance()
        self._ended = _running(self.game).is_over()
        return self._obs(), {"scores": _running(self.game).scores()}

    def step(self, action: int) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Apply the agent's id; then the draws and the bots, up to its next decision. Returns Gymnasium's
        ``(observation, reward, terminated, truncated, info)``: ``terminated`` when the game is over by the rules,
        ``truncated`` (never both) when its played area has outgrown the window, so that the agent's next actions
        have no ids (``info["truncated_by"] == "window"``; with ``reward="outcome"`` the reward is then 0)."""
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        before = _running(self.game).scores()
        legal = self._legal()
        if self.illegal == "lose" and (legal is None or int(action) not in legal):
            lost: Dict[str, Any] = {"scores": _running(self.game).scores(), "illegal_action": True}
            self._ended = True
            return self._obs(), -1.0, True, False, lost
        _running(self.game).apply(int(action))
        self._advance()
        over = _running(self.game).is_over()
        truncated = not over and self._legal() is None
        if self.reward_mode == "points":
            reward = float(_running(self.game).scores()[self.seat] - before[self.seat])
        else:
            reward = float(_running(self.game).returns()[self.seat]) if over else 0.0
        self._ended = over or truncated
        info: Dict[str, Any] = {"scores": _running(self.game).scores()}
        if truncated:
            info["truncated_by"] = "window"
        return self._obs(), reward, over, truncated, info

    def render(self) -> Any:
        """``ansi`` (and without a render mode): the game as text; ``rgb_array``: a picture of the board from the
        agent's seat (:func:`carcassonne.render.board_image`)."""
        if self.render_mode == "rgb_array":
            return board_image(_running(self.game), self.seat)
        return repr(_running(self.game))


#: Gymnasium's id of :class:`SinglePlayerEnv`: ``gymnasium.make("carcassonne/SinglePlayer-v0", players=3)`` once
#: this module is imported (or ``gymnasium.make("carcassonne.pettingzoo:carcassonne/SinglePlayer-v0")``, which
#: imports it).
SINGLE_PLAYER_ID = "carcassonne/SinglePlayer-v0"

if SINGLE_PLAYER_ID not in gymnasium.registry:
    gymnasium.register(
        id=SINGLE_PLAYER_ID,
        entry_point="carcassonne.pettingzoo:SinglePlayerEnv",
        # `gymnasium.make_vec(SINGLE_PLAYER_ID, num_envs=n)`: the games stepped together in Rust, with same-step
        # autoreset (so no all-zero mask after a game ends); `vectorization_mode="sync"` for Gymnasium's own.
        vector_entry_point="carcassonne.vector:CarcassonneVectorEnv",
        disable_env_checker=False,
    )
