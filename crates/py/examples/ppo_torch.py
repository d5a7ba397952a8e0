"""PPO with a convolutional masked policy (torch, CPU) on the Gymnasium vector environment, against `greedy`.

    pip install torch                                             # CPU is enough; any recent torch
    python crates/py/examples/ppo_torch.py --minutes 60 --imitate 2000 --imitate-epochs 3 --seed 0 --curve c0.csv
    python crates/py/examples/ppo_torch.py --updates 2 --envs 4 --rollout 4 --eval 2   # a smoke run

The agent plays two-player base games against ``--opponent`` (`greedy` by default), half of its games from seat 0
and half from seat 1, through :class:`carcassonne.vector.CarcassonneVectorEnv` with ``observation="planes"`` and
``dtype="uint8"`` (the board as ``[planes, W, W]`` bytes, the features apart). Every ``--report`` seconds it prints,
and writes to ``--curve`` as CSV, a line of its learning curve: minutes, decisions, games finished, and its win rate
and mean margin against the opponent over the last ``--window-games`` games (its policy sampled, as it trains).
At the end it plays ``--eval`` games against the opponent on other deals with its likeliest action and prints the
win rate with its 95% Wilson interval.

The network:

- a trunk of ``--depth`` 3×3 convolutions of ``--width`` channels over the window (residual after the first), the
  feature vector added to the first layer's output through a linear layer (so every cell knows the tile in hand,
  the scores and the followers left);
- a *spatial head*, a 1×1 convolution to :attr:`VecGame.spatial_shape`'s channels, read where
  :meth:`VecGame.spatial_ids` puts each legal id (every placement and every follower onto a segment, by cell and
  segment class);
- a *global head*, a linear layer from the pooled trunk and the features over every action id, for the ids with
  no place on the map (passing, and any space beyond the window);
- a value head, a small MLP from the same.

Illegal ids never get a logit: the policy is a softmax over each decision's legal ids. The reward at each decision
is the change in the agent's lead over the opponent in points, over ``--points-scale``, and the result (±1, 0 for a
tie) when a game ends, so the return of a whole game is its final margin, scaled, plus its result. PPO's clipped
objective over generalised advantage estimates, ``--epochs`` passes of minibatches of ``--minibatch`` decisions.
With ``--imitate N`` it first lets ``--teacher`` (`greedy`) play N decisions of every game for it and fits the policy
to the teacher's choices and the value to those games' returns (a warm start; ``--minutes`` counts it).

What to expect is in docs/python.md ("A PPO baseline against greedy"), with the learning curves of three seeds.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections import deque
from typing import Deque, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import carcassonne
from carcassonne.vector import CarcassonneVectorEnv

Batch = Dict[str, torch.Tensor]


class Net(nn.Module):
    """The policy (spatial and global heads over one trunk) and the value."""

    def __init__(self, planes: int, features: int, channels: int, actions: int, width: int, depth: int) -> None:
        super().__init__()
        self.embed = nn.Linear(features, width)
        self.stem = nn.Conv2d(planes, width, 3, padding=1)
        self.body = nn.ModuleList(nn.Conv2d(width, width, 3, padding=1) for _ in range(depth - 1))
        # The spatial head is a 1x1 convolution to `channels` maps, evaluated only where legal ids lie.
        self.spatial_w = nn.Parameter(torch.zeros(channels, width))
        self.spatial_b = nn.Parameter(torch.zeros(channels))
        self.globl = nn.Linear(3 * width, actions)
        self.value = nn.Sequential(nn.Linear(3 * width, 64), nn.ReLU(), nn.Linear(64, 1))
        nn.init.zeros_(self.globl.weight)
        nn.init.zeros_(self.globl.bias)

    def forward(
        self, board: torch.Tensor, features: torch.Tensor, ids: torch.Tensor, where: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """Logits of each game's legal ids (``ids``, -1 padded; ``where`` their places on the map) and values."""
        f = F.relu(self.embed(features))
        x = F.relu(self.stem(board) + f[:, :, None, None])
        for conv in self.body:
            x = x + F.relu(conv(x))
        pooled = torch.cat([x.mean((2, 3)), x.amax((2, 3)), f], dim=1)
        cells = x.shape[2] * x.shape[3]
        place = where.clamp(min=0)
        channel, cell = place // cells, place % cells
        at = torch.gather(x.flatten(2), 2, cell[:, None, :].expand(-1, x.shape[1], -1)).transpose(1, 2)
        on_map = (at * self.spatial_w[channel]).sum(2) + self.spatial_b[channel]
        off_map = torch.gather(self.globl(pooled), 1, ids.clamp(min=0))
        logits = torch.where(where >= 0, on_map, off_map).masked_fill(ids < 0, -1e9)
        return logits, self.value(pooled).squeeze(1)


def board_tensor(board: np.ndarray) -> torch.Tensor:
    """uint8 planes as floats (the tile plane counts halves: 2 for a square tile)."""
    return torch.from_numpy(board).float()


class Seats:
    """Two vector environments, the agent in seat 0 of one and seat 1 of the other, stepped as one batch."""

    def __init__(self, envs: int, opponent: str, window: int, seed: int) -> None:
        half = max(1, envs // 2)
        self.envs = [
            CarcassonneVectorEnv(
                half,
                seat=seat,
                opponents=opponent,
                observation="planes",
                dtype="uint8",
                window=window,
                seed=seed + 1_000_003 * seat,
            )
            for seat in (0, 1)
        ]
        self.n = 2 * half
        first = self.envs[0].vec
        (self.planes, self.width, _), self.features = first.observation_shape
        self.channels = first.spatial_shape[0]
        self.actions = first.action_space_size
        self.obs = [e.reset()[0] for e in self.envs]

    def observation(self) -> Tuple[np.ndarray, np.ndarray]:
        return (
            np.concatenate([o["board"] for o in self.obs]),
            np.concatenate([o["features"] for o in self.obs]),
        )

    def legal(self) -> Tuple[np.ndarray, np.ndarray]:
        """Each game's legal ids ([n, longest], -1 padded) and their places on the spatial map."""
        parts = [e.vec.legal_ids()[0] for e in self.envs]
        longest = max(p.shape[1] for p in parts)
        ids = np.concatenate([np.pad(p, ((0, 0), (0, longest - p.shape[1])), constant_values=-1) for p in parts])
        where = np.concatenate(
            [e.vec.spatial_ids(ids[i * len(p) : (i + 1) * len(p)]) for i, (e, p) in enumerate(zip(self.envs, parts))]
        )
        return ids, where

    def leads(self) -> np.ndarray:
        """The agent's lead in points in each game."""
        out = []
        for e in self.envs:
            s = np.asarray(e.vec.scores(), np.int64)
            out.append(s[:, e.seat] - s[:, 1 - e.seat])
        return np.concatenate(out)

    def step(self, actions: np.ndarray) -> Tuple[np.ndarray, np.ndarray, List[Optional[int]]]:
        """Apply one id per game: the lead after it (the final one for a game that ended), whether each game
        ended, its result (the outcome reward) and, for ended games, the final margin."""
        leads, ended, results, margins = [], [], [], []
        for k, e in enumerate(self.envs):
            part = actions[k * e.num_envs : (k + 1) * e.num_envs]
            obs, rewards, term, trunc, info = e.step(part)
            self.obs[k] = obs
            s = np.asarray(e.vec.scores(), np.int64)
            lead = s[:, e.seat] - s[:, 1 - e.seat]
            done = term | trunc
            for i in np.flatnonzero(done):
                final = info["final_info"][i]["scores"]
                lead[i] = final[e.seat] - final[1 - e.seat]
                margins.append(int(lead[i]))
            for i in range(e.num_envs):
                results.append(float(rewards[i]))
            leads.append(lead)
            ended.append(done)
        self.last_margins = margins
        return np.concatenate(leads), np.concatenate(ended), results  # type: ignore[return-value]

    def rewarded_step(
        self, actions: np.ndarray, lead: np.ndarray, scale: float
    ) -> Tuple[np.ndarray, np.ndarray, List[Optional[int]], np.ndarray]:
        """:meth:`step`, with each game's reward (the change of the agent's lead over ``scale``, plus the result)
        and the lead to measure the next reward from (a new game's, where one ended)."""
        after, ended, results = self.step(actions)
        reward = (after - lead) / scale + np.asarray(results)
        return reward, ended, results, np.where(ended, self.leads(), after)


def sample(logits: torch.Tensor, greedy: bool) -> torch.Tensor:
    if greedy:
        return logits.argmax(1)
    return torch.distributions.Categorical(logits=logits).sample()


def collect(
    net: Net, seats: Seats, steps: int, scale: float, finished: Deque[Tuple[float, int]]
) -> Tuple[List[Dict[str, np.ndarray]], np.ndarray]:
    """``steps`` decisions of every game: the rollout (one dict a step) and the value after its last step."""
    rollout: List[Dict[str, np.ndarray]] = []
    lead = seats.leads()
    for _ in range(steps):
        board, features = seats.observation()
        ids, where = seats.legal()
        with torch.no_grad():
            logits, value = net(
                board_tensor(board), torch.from_numpy(features), torch.from_numpy(ids), torch.from_numpy(where)
            )
            choice = sample(logits, greedy=False)
            logp = torch.log_softmax(logits, 1).gather(1, choice[:, None]).squeeze(1)
        c = choice.numpy()
        actions = ids[np.arange(len(c)), c]
        reward, ended, results, lead = seats.rewarded_step(actions, lead, scale)
        for i, r in zip(np.flatnonzero(ended), seats.last_margins):
            finished.append((1.0 if results[i] > 0 else 0.5 if results[i] == 0 else 0.0, r))
        rollout.append(
            dict(
                board=board,
                features=features,
                ids=ids,
                where=where,
                choice=c,
                logp=logp.numpy(),
                value=value.numpy(),
                reward=reward.astype(np.float32),
                done=ended,
            )
        )
    board, features = seats.observation()
    ids, where = seats.legal()
    with torch.no_grad():
        _, last = net(board_tensor(board), torch.from_numpy(features), torch.from_numpy(ids), torch.from_numpy(where))
    return rollout, last.numpy()


def advantages(rollout: Sequence[Dict[str, np.ndarray]], last: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """Generalised advantage estimates, [steps, n]."""
    adv = np.zeros((len(rollout), len(last)), np.float32)
    running = np.zeros(len(last), np.float32)
    following = last
    for t in range(len(rollout) - 1, -1, -1):
        r = rollout[t]
        live = 1.0 - r["done"].astype(np.float32)
        delta = r["reward"] + gamma * following * live - r["value"]
        running = delta + gamma * lam * live * running
        adv[t] = running
        following = r["value"]
    return adv


def flatten(rollout: Sequence[Dict[str, np.ndarray]], adv: np.ndarray) -> Batch:
    """The rollout as one batch of decisions (legal ids padded to the longest list)."""
    longest = max(r["ids"].shape[1] for r in rollout)

    def pad(a: np.ndarray) -> np.ndarray:
        return np.pad(a, ((0, 0), (0, longest - a.shape[1])), constant_values=-1)

    values = np.concatenate([r["value"] for r in rollout])
    a = adv.reshape(-1)
    return {
        "board": torch.from_numpy(np.concatenate([r["board"] for r in rollout])),
        "features": torch.from_numpy(np.concatenate([r["features"] for r in rollout])),
        "ids": torch.from_numpy(np.concatenate([pad(r["ids"]) for r in rollout])),
        "where": torch.from_numpy(np.concatenate([pad(r["where"]) for r in rollout])),
        "choice": torch.from_numpy(np.concatenate([r["choice"] for r in rollout])),
        "logp": torch.from_numpy(np.concatenate([r["logp"] for r in rollout])),
        "adv": torch.from_numpy(a),
        "ret": torch.from_numpy(a + values),
    }


def update(net: Net, opt: torch.optim.Optimizer, batch: Batch, args: argparse.Namespace) -> Dict[str, float]:
    """PPO's clipped objective over ``args.epochs`` shuffled passes of minibatches."""
    n = len(batch["choice"])
    stats: Dict[str, float] = {}
    for _ in range(args.epochs):
        for idx in torch.randperm(n).split(args.minibatch):
            logits, value = net(
                board_tensor(batch["board"][idx].numpy()),
                batch["features"][idx],
                batch["ids"][idx],
                batch["where"][idx],
            )
            logp_all = torch.log_softmax(logits, 1)
            logp = logp_all.gather(1, batch["choice"][idx, None]).squeeze(1)
            adv = batch["adv"][idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            ratio = torch.exp(logp - batch["logp"][idx])
            policy = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv).mean()
            value_loss = F.mse_loss(value, batch["ret"][idx])
            probs = logp_all.exp()
            entropy = -(probs * logp_all.clamp(min=-30)).sum(1).mean()
            loss = policy + args.value * value_loss - args.entropy * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), args.max_grad)
            opt.step()
            stats = {"policy": policy.item(), "value": value_loss.item(), "entropy": entropy.item()}
    return stats


def evaluate(net: Net, opponent: str, games: int, window: int, seed: int) -> Tuple[float, float]:
    """Win rate (a tie counts half) and mean margin over ``games`` games, half from each seat, likeliest actions."""
    seats = Seats(min(games, 100), opponent, window, seed)
    done: List[Tuple[float, int]] = []
    while len(done) < games:
        board, features = seats.observation()
        ids, where = seats.legal()
        with torch.no_grad():
            logits, _ = net(
                board_tensor(board), torch.from_numpy(features), torch.from_numpy(ids), torch.from_numpy(where)
            )
        c = sample(logits, greedy=True).numpy()
        _, ended, results = seats.step(ids[np.arange(len(c)), c])
        for i, m in zip(np.flatnonzero(ended), seats.last_margins):
            done.append((1.0 if results[i] > 0 else 0.5 if results[i] == 0 else 0.0, m))
    done = done[:games]
    return sum(w for w, _ in done) / len(done), float(np.mean([m for _, m in done]))


def imitate(net: Net, opt: torch.optim.Optimizer, args: argparse.Namespace) -> None:
    """Warm start: play ``args.imitate`` decisions of every game with ``args.teacher`` choosing for the agent, then
    fit the policy to the teacher's choices (cross-entropy over the legal ids) and the value to the returns those
    games gave (the reward PPO uses, summed to each game's end; decisions of games still unfinished are left out of
    the value's loss) for ``args.imitate_epochs`` passes, printing the share of held-out decisions where the
    likeliest id is the teacher's and the value's error."""
    teacher = carcassonne.Bot(args.teacher)
    seats = Seats(args.envs, args.opponent, args.window, seed=500_000 + 1000 * args.seed)
    steps: List[Dict[str, np.ndarray]] = []
    start = time.monotonic()
    lead = seats.leads()
    for _ in range(args.imitate):
        board, features = seats.observation()
        ids, where = seats.legal()
        choice = np.zeros(len(ids), np.int64)
        for k, e in enumerate(seats.envs):
            for i in range(e.num_envs):
                game = e.vec.game(i)
                chosen = game.action_id(teacher.choose(game))
                choice[k * e.num_envs + i] = int(np.flatnonzero(ids[k * e.num_envs + i] == chosen)[0])
        reward, ended, _, lead = seats.rewarded_step(ids[np.arange(len(ids)), choice], lead, args.points_scale)
        steps.append(
            dict(board=board, features=features, ids=ids, where=where, choice=choice, reward=reward, done=ended)
        )
    # Returns, from the last decision back; a game cut off by the end of the warm start has none (NaN).
    following = np.full(len(lead), np.nan, np.float32)
    for r in reversed(steps):
        following = np.where(r["done"], 0.0, following) + r["reward"]
        r["ret"] = following.astype(np.float32)
    longest = max(r["ids"].shape[1] for r in steps)

    def cat(key: str, pad: bool = False) -> torch.Tensor:
        parts = [r[key] for r in steps]
        if pad:
            parts = [np.pad(a, ((0, 0), (0, longest - a.shape[1])), constant_values=-1) for a in parts]
        return torch.from_numpy(np.concatenate(parts))

    board, features, ids, where, choice, ret = (
        cat("board"),
        cat("features"),
        cat("ids", True),
        cat("where", True),
        cat("choice"),
        cat("ret"),
    )
    known = ~torch.isnan(ret)
    ret = torch.nan_to_num(ret)
    n = len(choice)
    held = torch.arange(n) >= int(0.9 * n)  # the last tenth of the decisions played, held out
    train = torch.where(~held)[0]
    print(f"imitating {args.teacher}: {n} decisions in {time.monotonic() - start:.0f} s", flush=True)

    def value_loss(value: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        k = known[idx].float()
        return ((value - ret[idx]) ** 2 * k).sum() / k.sum().clamp(min=1)

    def held_out() -> Tuple[float, float]:
        with torch.no_grad():
            right, err = 0, 0.0
            for idx in torch.where(held)[0].split(1024):
                logits, value = net(board_tensor(board[idx].numpy()), features[idx], ids[idx], where[idx])
                right += int((logits.argmax(1) == choice[idx]).sum())
                err += float(value_loss(value, idx)) * int(known[idx].sum())
            return right / max(1, int(held.sum())), err / max(1, int((known & held).sum()))

    for epoch in range(args.imitate_epochs):
        for idx in train[torch.randperm(len(train))].split(args.minibatch):
            logits, value = net(board_tensor(board[idx].numpy()), features[idx], ids[idx], where[idx])
            loss = F.cross_entropy(logits, choice[idx]) + args.value * value_loss(value, idx)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), args.max_grad)
            opt.step()
        right, err = held_out()
        print(
            f"  epoch {epoch + 1}: the teacher's choice is the likeliest in {right:.1%} of held-out decisions, "
            f"value loss {err:.4f} ({(time.monotonic() - start) / 60:.1f} minutes)",
            flush=True,
        )


def report_eval(net: Net, args: argparse.Namespace, when: str) -> None:
    """Play ``args.eval`` games against the opponent on deals no training saw; print the win rate and its interval."""
    rate, margin = evaluate(net, args.opponent, args.eval, args.window, seed=10_000_000 + 1000 * args.seed)
    lo, hi = carcassonne.wilson(rate * args.eval, args.eval)
    print(
        f"{when}: against {args.opponent}, likeliest action, {args.eval} new deals: {rate:.3f} "
        f"(95% {lo:.3f}-{hi:.3f}), mean margin {margin:+.1f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="minutes, warm start included (or --updates)")
    parser.add_argument("--updates", type=int, default=0, help="stop after this many updates instead")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together (half from each seat)")
    parser.add_argument("--rollout", type=int, default=32, help="decisions of each game per update")
    parser.add_argument("--opponent", default="greedy", help="the bot trained and evaluated against (a spec)")
    parser.add_argument("--eval", type=int, default=200, help="games against the opponent at the end")
    parser.add_argument("--window", type=int, default=24, help="observation window (spaces across)")
    parser.add_argument("--width", type=int, default=32, help="channels of the trunk")
    parser.add_argument("--depth", type=int, default=3, help="convolutions of the trunk")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value", type=float, default=0.5)
    parser.add_argument("--points-scale", type=float, default=50.0, help="points worth a reward of 1")
    parser.add_argument("--max-grad", type=float, default=1.0, help="the gradient's norm is clipped to this")
    parser.add_argument("--window-games", type=int, default=200, help="games in each learning-curve point")
    parser.add_argument("--report", type=float, default=60.0, help="seconds between lines of the learning curve")
    parser.add_argument("--curve", default="", help="also write the learning curve to this CSV file")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument(
        "--imitate", type=int, default=0, help="warm start: decisions of every game played by --teacher"
    )
    parser.add_argument("--imitate-epochs", type=int, default=3, help="passes over the teacher's decisions")
    parser.add_argument("--teacher", default="greedy", help="the bot imitated in the warm start (a spec)")
    parser.add_argument("--eval-after-imitation", action="store_true", help="evaluate before PPO too")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    seats = Seats(args.envs, args.opponent, args.window, seed=1000 * args.seed)
    net = Net(seats.planes, seats.features, seats.channels, seats.actions, args.width, args.depth)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    start = time.monotonic()  # --minutes counts the warm start too
    if args.imitate:
        imitate(net, opt, args)
        if args.eval_after_imitation and args.eval:
            report_eval(net, args, "after imitation")
    finished: Deque[Tuple[float, int]] = deque(maxlen=args.window_games)
    games = decisions = updates = 0
    rows: List[List[float]] = []
    last_report = time.monotonic()
    print(
        f"PPO against {args.opponent}: {seats.n} games, window {seats.width}, "
        f"{sum(p.numel() for p in net.parameters())} parameters"
    )
    print(" minutes  decisions    games  win rate  margin   entropy  value loss")

    def report() -> None:
        wins = sum(w for w, _ in finished)
        rate = wins / len(finished) if finished else float("nan")
        margin = float(np.mean([m for _, m in finished])) if finished else float("nan")
        minutes = (time.monotonic() - start) / 60
        rows.append([round(minutes, 2), decisions, games, round(rate, 4), round(margin, 2)])
        print(
            f"{minutes:8.1f} {decisions:10d} {games:8d} {rate:9.3f} {margin:7.1f} "
            f"{stats.get('entropy', 0):9.3f} {stats.get('value', 0):11.4f}",
            flush=True,
        )

    stats: Dict[str, float] = {}
    while True:
        if args.updates and updates >= args.updates:
            break
        if not args.updates and time.monotonic() - start > 60 * args.minutes:
            break
        count_before = games
        rollout, last = collect(net, seats, args.rollout, args.points_scale, finished)
        games = count_before + sum(int(r["done"].sum()) for r in rollout)
        decisions += args.rollout * seats.n
        batch = flatten(rollout, advantages(rollout, last, args.gamma, args.lam))
        stats = update(net, opt, batch, args)
        updates += 1
        if time.monotonic() - last_report > args.report:
            last_report = time.monotonic()
            report()
    report()
    if args.curve:
        with open(args.curve, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["minutes", "decisions", "games", "win_rate", "margin"])
            w.writerows(rows)
    if args.eval:
        report_eval(net, args, "at the end")


if __name__ == "__main__":
    main()
