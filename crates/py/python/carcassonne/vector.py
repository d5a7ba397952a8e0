"""Carcassonne as a Gymnasium vector environment, stepped in Rust (:class:`carcassonne.VecGame`).

:class:`CarcassonneVectorEnv` is ``num_envs`` games of one seat (the agent) against built-in bots, what
``gymnasium.make_vec("carcassonne/SinglePlayer-v0", num_envs=64)`` returns once ``carcassonne.pettingzoo`` is
imported. It follows Gymnasium's *same-step* autoreset (``metadata["autoreset_mode"]``): a game that ends in a step
starts again in that same step, so the observation returned is always the new game's first decision, with its mask,
and never an all-zero mask; the ended game's last observation and information are in ``info["final_obs"]`` and
``info["final_info"]`` (where ``info["_final_obs"]`` is true).

Observations are dicts: ``observation="flat"`` (the default, as :class:`carcassonne.pettingzoo.SinglePlayerEnv`)
gives ``{"observation": float32[planes·w·w + features], "action_mask": int8[actions]}``; ``observation="planes"``
gives ``{"board": [planes, w, w], "features": float32[features], "action_mask": int8[actions]}``, the board as
``float32`` or, with ``dtype="uint8"``, as ``uint8`` (a quarter of the bytes; the ``tile`` plane then counts halves:
2 for a square tile, 1 for a triangle, every other plane is the same number).

The planes are kept up to date in Rust from step to step (:meth:`carcassonne.VecGame.live_observations`: only what
changed is written) and copied into each observation returned; ``copy=False`` (as Gymnasium's ``SyncVectorEnv``
has it) returns the kept arrays themselves with ``observation="planes"``, read-only and changed by the next step.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import carcassonne

# The largest value any observation entry takes (counts of tiles, scores in hundreds, pennants).
_HIGH = 1.0e4


class CarcassonneVectorEnv(VectorEnv):
    """``num_envs`` games of seat ``seat`` against ``opponents`` (one spec for every other seat, or one per seat),
    as a Gymnasium vector environment (see the module's documentation).

    ``reward="outcome"`` (the default) rewards the zero-sum result when a game is over by the rules (0 for one cut
    short by the window), ``"points"`` the agent's points as they are scored. ``threads`` spreads the games over
    that many threads. ``copy=False`` returns the planes and features without copying them (see the module's
    documentation). Actions are the package's action ids, one per game; an illegal id raises
    :class:`carcassonne.IllegalActionError` and nothing is applied (sample with the mask).
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        players: int = 2,
        sets: Sequence[str] = ("base",),
        rules: Optional[Mapping[str, Any]] = None,
        seat: int = 0,
        opponents: Any = "greedy",
        window: int = carcassonne.DEFAULT_WINDOW,
        reward: str = "outcome",
        observation: str = "flat",
        dtype: str = "float32",
        threads: int = 1,
        seed: int = 0,
        illegal: str = "raise",
        render_mode: Optional[str] = None,
        *,
        copy: bool = True,
        config: Optional[carcassonne.Config] = None,
    ) -> None:
        if observation not in ("flat", "planes"):
            raise ValueError("observation must be 'flat' or 'planes'")
        if dtype not in ("float32", "uint8"):
            raise ValueError("dtype must be 'float32' or 'uint8'")
        if dtype == "uint8" and observation == "flat":
            raise ValueError("dtype='uint8' needs observation='planes' (the features are fractions)")
        if reward not in ("outcome", "points"):
            raise ValueError("reward must be 'outcome' or 'points'")
        if illegal != "raise":
            raise ValueError("a vector environment raises on an illegal id (illegal='raise'): sample with the mask")
        if render_mode is not None:
            raise ValueError("the vector environment does not render: render one game with VecGame.game(i)")
        self.config = carcassonne._config_of(config, players, sets, rules, seed, window)
        players = self.config.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        specs: List[str] = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(specs)} given")
        others = iter(specs)
        self._bots: List[Optional[str]] = [None if p == seat else next(others) for p in range(players)]
        self.num_envs = int(num_envs)
        self.seat = seat
        self.reward_mode = reward
        self.layout = observation
        self.dtype = np.dtype(dtype)
        self.copy = bool(copy)
        self._threads = threads
        self.render_mode = None
        self._vec = self._make(self.config)
        (planes, w, _), features = self._vec.observation_shape
        self._size = self._vec.action_space_size
        mask = spaces.Box(0, 1, (self._size,), np.int8)
        single: spaces.Dict
        if observation == "flat":
            single = spaces.Dict(
                {"observation": spaces.Box(0.0, _HIGH, (planes * w * w + features,), np.float32), "action_mask": mask}
            )
        else:
            high = 255 if dtype == "uint8" else _HIGH
            single = spaces.Dict(
                {
                    "board": spaces.Box(0, high, (planes, w, w), self.dtype),
                    "features": spaces.Box(0.0, _HIGH, (features,), np.float32),
                    "action_mask": mask,
                }
            )
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(self._size)
        self.observation_space = batch_space(single, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask = np.zeros((self.num_envs, self._size), np.bool_)

    def _make(self, config: carcassonne.Config) -> carcassonne.VecGame:
        return carcassonne.VecGame(self.num_envs, threads=self._threads, bots=self._bots, config=config)

    @property
    def vec(self) -> carcassonne.VecGame:
        """The games themselves (``vec.game(i)`` for game ``i``'s record)."""
        return self._vec

    def _one(
        self, board: np.ndarray, features: np.ndarray, mask: np.ndarray, copy: bool = True
    ) -> Dict[str, np.ndarray]:
        """An observation of one or many games, as the observation space has it (the planes and features not copied
        when ``copy`` is false)."""
        m = mask.astype(np.int8)
        if self.layout == "flat":
            flat = np.concatenate([board.reshape(*board.shape[:-3], -1), features], axis=-1)
            return {"observation": flat, "action_mask": m}
        if self.dtype == np.uint8 and board.dtype != np.uint8:
            # One game's float planes (a game's last position): as the native uint8 writer has them.
            b = board.copy()
            b[..., 0, :, :] *= 2.0
            return {"board": np.rint(b).astype(np.uint8), "features": features.copy(), "action_mask": m}
        if not copy:
            return {"board": board, "features": features, "action_mask": m}
        return {"board": board.copy(), "features": features.copy(), "action_mask": m}

    def _observe(self) -> Dict[str, np.ndarray]:
        board, features = self._vec.live_observations(dtype=self.dtype)
        self._vec.legal_mask(out=self._mask)
        return self._one(board, features, self._mask, self.copy)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Start every game again: from seeds ``seed``, ``seed + 1``, … when given, else from the next seeds."""
        if seed is not None:
            self.config = self.config.replace(seed=int(seed))
            self._vec = self._make(self.config)
        else:
            self._vec.reset()
        return self._observe(), {"scores": self._vec.scores()}

    def step(self, actions: Any) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One id per game; Gymnasium's ``(observations, rewards, terminations, truncations, infos)``."""
        actions = np.asarray(actions)
        points, terminated, truncated, finals = self._vec.step(actions, autoreset=False)
        ended = terminated | truncated
        infos: Dict[str, Any] = {}
        if self.reward_mode == "points":
            rewards = points[:, self.seat].astype(np.float64)
        else:
            rewards = np.zeros(self.num_envs, np.float64)
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                game = self._vec.game(int(i))
                board, features = game.observation(self.seat)
                final_obs[i] = self._one(board, features, np.zeros(self._size, np.bool_))
                scores = [int(s) for s in finals[i]]
                final_info[i] = {"scores": scores}
                if truncated[i]:
                    final_info[i]["truncated_by"] = "window"
                elif self.reward_mode == "outcome":
                    rewards[i] = carcassonne.outcome(scores)[self.seat]
            infos.update(final_obs=final_obs, _final_obs=ended, final_info=final_info, _final_info=ended)
            self._vec.restart_ended()
        return self._observe(), rewards, terminated, truncated, infos

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to let go of: the games live in this process."""

    def __getstate__(self) -> Dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)


def make(num_envs: int = 8, **kwargs: Any) -> CarcassonneVectorEnv:
    """The vector environment (the keyword arguments of :class:`CarcassonneVectorEnv`)."""
    return CarcassonneVectorEnv(num_envs, **kwargs)
