"""A masked policy trained end to end with advantage actor-critic (A2C), in numpy, on VecGame against a built-in bot.

    python crates/py/examples/masked_a2c.py --minutes 10           # train against `random`, then report
    python crates/py/examples/masked_a2c.py --updates 3 --eval 4   # a smoke run (the tests run this)

The agent plays seat 0 of 2-player base games; the opponent (``--opponent``, `random` by default) plays inside
VecGame's step. Before and after training it plays ``--eval`` games against `random` and against `greedy`, sampling
its policy (``--eval-mode likeliest``: its most likely action), and prints its win rates with their 95% Wilson
intervals; during training it prints a line of its learning curve (games, win rate against the training opponent in
the last games) every ``--report`` seconds.

The network, written out in numpy so that it needs nothing else:

- a *spatial head* for the tile placements: each open-space slot's space is read from the observation planes (the
  space and its four neighbours, through ``VecGame.open_cells()``), a hidden layer of ``--hidden`` ReLUs, and four
  logits, one per rotation: the ``place`` ids ``4·k + rotation`` (docs/python.md, "Action ids");
- a *follower head* for the `onto` ids (a follower onto segment s of board tile t): one logit per follower kind and
  segment, a linear layer from the feature vector (which holds the tile just placed), shared by every tile t;
- a *global head* for every other id (passing, the barn, ...): a linear layer from the feature vector;
- a value head: a linear layer from the feature vector.

Illegal ids are masked before the softmax (``VecGame.legal_mask``). The loss is A2C's: the policy gradient weighted
by the advantage of n-step returns (bootstrapped from the value; normalised over the batch), the value's squared
error, and an entropy bonus;
Adam updates every ``--steps`` decisions of the ``--games`` games. The reward at each decision is the change in the
agent's lead (its points gained minus the opponent's, over 50), and ±1 at the end of the game for the result.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Dict, List, Optional, Tuple

import numpy as np

import carcassonne

Params = Dict[str, np.ndarray]


class Agent:
    """The policy and value network, with Adam."""

    def __init__(self, vec: carcassonne.VecGame, hidden: int, rng: np.random.Generator) -> None:
        (planes, self.width, _), features = vec.observation_shape
        blocks = {name: (first, size) for name, first, size in vec.action_blocks()}
        self.place0, place = blocks["place"]
        self.slots = place // 4
        self.onto0, onto = blocks["onto"]
        self.tiles = onto // (3 * 16)
        self.actions = vec.action_space_size
        cell_in = 5 * planes  # the space and its four neighbours
        self.p: Params = {
            "w1": rng.normal(0, 1 / math.sqrt(cell_in), (cell_in, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.1 / math.sqrt(hidden), (hidden, 4)),
            "b2": np.zeros(4),
            "wo": np.zeros((features, 3 * 16)),
            "bo": np.zeros(3 * 16),
            "wg": np.zeros((features, self.actions)),
            "bg": np.zeros(self.actions),
            "wv": np.zeros(features),
            "bv": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def cells(self, board: np.ndarray, open_cells: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Each open slot's input (its space and its neighbours' planes, zero outside the window), ``[n, k, 5P]``,
        for the first ``k`` slots (as many as the most open spaces any game has), and which of them are real."""
        n, planes, w, _ = board.shape
        # Up to the last slot with a space in the window in any game (-1: no space, or one outside the window; the
        # placements there keep the global head's logits).
        seen = np.where(open_cells >= 0, np.arange(open_cells.shape[1]), -1).max(axis=1)
        k = max(1, int(seen.max()) + 1)
        idx = open_cells[:, :k]
        real = idx >= 0
        padded = np.zeros((n, planes, w + 2, w + 2), np.float32)
        padded[:, :, 1:-1, 1:-1] = board
        row = np.where(real, idx // w, 0) + 1
        col = np.where(real, idx % w, 0) + 1
        games = np.arange(n)[:, None]
        parts = [padded[games, :, row + dr, col + dc] for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))]
        x = np.concatenate(parts, axis=2) * real[:, :, None]
        return x, real

    def forward(
        self, board: np.ndarray, features: np.ndarray, open_cells: np.ndarray, mask: np.ndarray
    ) -> Tuple[np.ndarray, np.ndarray, Dict[str, np.ndarray]]:
        """Action probabilities ``[n, actions]`` (zero where illegal), values ``[n]`` and what backward needs."""
        p = self.p
        x, _ = self.cells(board, open_cells)
        pre = x @ p["w1"] + p["b1"]
        h = np.maximum(pre, 0)
        slot_logits = h @ p["w2"] + p["b2"]  # [n, k, 4]
        logits = features @ p["wg"] + p["bg"]
        k = x.shape[1]
        logits[:, self.place0 : self.place0 + 4 * k] = slot_logits.reshape(len(x), 4 * k)
        onto = (features @ p["wo"] + p["bo"]).reshape(len(x), 3, 1, 16)
        span = slice(self.onto0, self.onto0 + 3 * self.tiles * 16)
        logits[:, span] = np.broadcast_to(onto, (len(x), 3, self.tiles, 16)).reshape(len(x), -1)
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        probs = e / e.sum(axis=1, keepdims=True)
        values = features @ p["wv"] + p["bv"][0]
        return probs, values, {"x": x, "pre": pre, "h": h, "features": features, "k": np.array(k)}

    def backward(self, cache: Dict[str, np.ndarray], dlogits: np.ndarray, dvalues: np.ndarray) -> Params:
        """Gradients of the loss, given its gradient with respect to the logits and the values."""
        k = int(cache["k"])
        n = len(dlogits)
        dslot = dlogits[:, self.place0 : self.place0 + 4 * k].reshape(n, k, 4)
        span = slice(self.onto0, self.onto0 + 3 * self.tiles * 16)
        donto = dlogits[:, span].reshape(n, 3, self.tiles, 16).sum(axis=2).reshape(n, 3 * 16)
        dglobal = dlogits.copy()
        dglobal[:, self.place0 : self.place0 + 4 * k] = 0  # those logits came from the spatial head
        dglobal[:, span] = 0  # and those from the follower head
        h, x = cache["h"], cache["x"]
        dh = dslot @ self.p["w2"].T
        dpre = dh * (cache["pre"] > 0)
        f = cache["features"]
        return {
            "w2": np.einsum("nkh,nkr->hr", h, dslot),
            "b2": dslot.sum(axis=(0, 1)),
            "w1": np.einsum("nki,nkh->ih", x, dpre),
            "b1": dpre.sum(axis=(0, 1)),
            "wo": f.T @ donto,
            "bo": donto.sum(axis=0),
            "wg": f.T @ dglobal,
            "bg": dglobal.sum(axis=0),
            "wv": f.T @ dvalues,
            "bv": np.array([dvalues.sum()]),
        }

    def adam(self, grads: Params, lr: float, clip: float = 5.0) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, clip / (norm + 1e-8))
        self.t += 1
        for name, g in grads.items():
            g = g * scale
            self.m[name] = 0.9 * self.m[name] + 0.1 * g
            self.v[name] = 0.999 * self.v[name] + 0.001 * g * g
            mh = self.m[name] / (1 - 0.9**self.t)
            vh = self.v[name] / (1 - 0.999**self.t)
            self.p[name] -= lr * mh / (np.sqrt(vh) + 1e-8)


def observe(vec: carcassonne.VecGame, buffers: Dict[str, np.ndarray]) -> None:
    vec.observations(out=(buffers["board"], buffers["features"]))
    vec.legal_mask(out=buffers["mask"])
    vec.open_cells(out=buffers["cells"])


def buffers_for(vec: carcassonne.VecGame, agent: Agent) -> Dict[str, np.ndarray]:
    (planes, w, _), nf = vec.observation_shape
    n = len(vec)
    return {
        "board": np.zeros((n, planes, w, w), np.float32),
        "features": np.zeros((n, nf), np.float32),
        "mask": np.zeros((n, vec.action_space_size), bool),
        "cells": np.zeros((n, agent.slots), np.int64),
    }


def choose(probs: np.ndarray, rng: Optional[np.random.Generator]) -> np.ndarray:
    """Sample from each row, or with ``rng=None`` take its most likely action."""
    if rng is None:
        return probs.argmax(axis=1)
    u = rng.random((len(probs), 1))
    picked = np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), probs.shape[1] - 1)
    # A rounding error at the top of the cumulative sum can land past the last legal id: take the likeliest then.
    stray = probs[np.arange(len(probs)), picked] == 0
    picked[stray] = probs[stray].argmax(axis=1)
    return picked


def evaluate(agent: Agent, opponent: str, games: int, seed: int, sample: bool) -> Tuple[float, int]:
    """Wins (a draw counts half) in ``games`` games against ``opponent``: the agent samples its policy (with a
    generator of its own seeded by ``seed``), or with ``sample=False`` takes its most likely action."""
    rng = np.random.default_rng(seed) if sample else None
    vec = carcassonne.VecGame(min(games, 32), players=2, seed=seed, window=agent.width, bots={1: opponent})
    buf = buffers_for(vec, agent)
    wins, played = 0.0, 0
    # Each game slot counts its share of the games only, so that short games do not outnumber long ones.
    quota = [games // len(vec) + (1 if i < games % len(vec) else 0) for i in range(len(vec))]
    done_in = [0] * len(vec)
    while played < games:
        observe(vec, buf)
        probs, _, _ = agent.forward(buf["board"], buf["features"], buf["cells"], buf["mask"])
        _, terminated, truncated, finals = vec.step(choose(probs, rng))
        for i in np.flatnonzero(terminated | truncated):
            if done_in[i] < quota[i]:
                done_in[i] += 1
                played += 1
                a, b = finals[i]
                wins += 1.0 if a > b else 0.5 if a == b else 0.0
    return wins, played


def train(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    vec = carcassonne.VecGame(args.games, players=2, seed=args.seed, window=args.window, bots={1: args.opponent})
    agent = Agent(vec, args.hidden, rng)

    def report_eval(when: str) -> None:
        for opp in ("random", "greedy"):
            w, n = evaluate(agent, opp, args.eval, seed=10_000 + args.seed, sample=args.eval_mode == "sample")
            lo, hi = carcassonne.wilson(w, n)
            print(f"{when}: against {opp}, won {w:g} of {n} ({w / n:.0%}, 95% {lo:.0%} to {hi:.0%})", flush=True)

    report_eval("before training")
    buf = buffers_for(vec, agent)
    start = time.perf_counter()
    last_report = start
    finished: List[float] = []
    updates = 0
    while True:
        elapsed = time.perf_counter() - start
        if (args.updates and updates >= args.updates) or (not args.updates and elapsed > 60 * args.minutes):
            break
        caches, dlog_inputs, rewards, dones, values = [], [], [], [], []
        for _ in range(args.steps):
            observe(vec, buf)
            probs, value, cache = agent.forward(buf["board"], buf["features"], buf["cells"], buf["mask"])
            actions = choose(probs, rng)
            r, terminated, truncated, finals = vec.step(actions)
            ended = terminated | truncated
            reward = (r[:, 0] - r[:, 1]) / 50.0
            for i in np.flatnonzero(ended):
                a, b = finals[i]
                result = 1.0 if a > b else 0.0 if a < b else 0.5
                reward[i] += 2 * result - 1
                finished.append(result)
            caches.append(cache)
            dlog_inputs.append((probs, actions))
            rewards.append(reward)
            dones.append(ended)
            values.append(value)
        observe(vec, buf)
        _, bootstrap, _ = agent.forward(buf["board"], buf["features"], buf["cells"], buf["mask"])
        ret = bootstrap
        returns: List[np.ndarray] = [bootstrap] * args.steps
        for t in reversed(range(args.steps)):
            ret = rewards[t] + args.gamma * ret * (~dones[t])
            returns[t] = ret
        advantages = np.array([returns[t] - values[t] for t in range(args.steps)])
        # Normalised over the batch, as A2C and PPO implementations do: the step's size no longer depends on the
        # scale of the returns, which keeps the policy from lurching.
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        grads: Optional[Params] = None
        total = args.steps * len(vec)
        for t in reversed(range(args.steps)):
            ret, adv = returns[t], advantages[t]
            probs, actions = dlog_inputs[t]
            onehot = np.zeros_like(probs)
            onehot[np.arange(len(actions)), actions] = 1
            logp = np.log(np.where(probs > 0, probs, 1.0))
            entropy = -(probs * logp).sum(axis=1, keepdims=True)
            # d/dlogits of -adv·log p(a) - β·H, per game, averaged over the batch.
            dlogits = (adv[:, None] * (probs - onehot) + args.entropy * probs * (logp + entropy)) / total
            dvalues = args.value * (values[t] - ret) / total
            g = agent.backward(caches[t], dlogits, dvalues)
            grads = g if grads is None else {k: grads[k] + g[k] for k in g}
        assert grads is not None
        agent.adam(grads, args.lr)
        updates += 1
        now = time.perf_counter()
        if now - last_report >= args.report or (args.updates and updates == args.updates):
            recent = finished[-200:]
            rate = f"{np.mean(recent):.0%} of the last {len(recent)}" if recent else "no game finished yet"
            print(f"{now - start:6.0f} s, {len(finished)} games: against {args.opponent} won {rate}", flush=True)
            last_report = now
    report_eval("after training")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time (unless --updates is given)")
    parser.add_argument("--updates", type=int, default=0, help="stop after this many updates instead")
    parser.add_argument("--games", type=int, default=32, help="games stepped together")
    parser.add_argument("--steps", type=int, default=16, help="decisions of each game per update")
    parser.add_argument("--opponent", default="random", help="the bot trained against (a spec)")
    parser.add_argument("--eval", type=int, default=100, help="games against random and greedy, before and after")
    parser.add_argument("--window", type=int, default=16, help="observation window")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument(
        "--eval-mode", choices=["sample", "likeliest"], default="sample", help="how it plays to be measured"
    )
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.02)
    parser.add_argument("--value", type=float, default=0.5)
    parser.add_argument("--report", type=float, default=30.0, help="seconds between lines of the learning curve")
    parser.add_argument("--seed", type=int, default=0)
    train(parser.parse_args())


if __name__ == "__main__":
    main()
