"""Fit the learned value (crates/ai/src/value.rs) to positions written by `carc datagen`.

    python crates/ai/train/train_value.py DATA.carcdata [MORE.carcdata ...] --generation 1 --seed 1 \
        --out crates/ai/src/value_weights.rs

Only numpy is needed. The model is a multilayer perceptron (features -> HIDDEN -> HIDDEN -> 1, ReLU) that predicts
the points a player still scores before the end (`rest`), trained by Adam on the mean squared error; a tenth of the
games (by game number) are held out, and the script prints the held-out error beside the hand-written estimate's
(the `hand_rest` feature), so a generation shows whether it predicts better than what it replaces.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from pathlib import Path

import numpy as np

MAGIC = b"CARCDATA"
SCALE = 30.0  # points per unit of output (hand_rest is stored as points / 30 too)


def read(path: Path) -> tuple[dict, np.ndarray]:
    raw = path.read_bytes()
    if raw[:8] != MAGIC:
        sys.exit(f"{path}: not a carc datagen file")
    fmt, hlen = struct.unpack_from("<II", raw, 8)
    if fmt not in (1, 2):
        sys.exit(f"{path}: format {fmt}, this script reads formats 1 and 2")
    header = json.loads(raw[16 : 16 + hlen])
    cols = len(header["columns"])
    data = np.frombuffer(raw[16 + hlen :], dtype="<f4")
    if data.size % cols:
        sys.exit(f"{path}: {data.size} values is not a whole number of {cols}-column rows (cut short?)")
    return header, data.reshape(-1, cols)


class Groups:
    """A search's candidates at each kept position (format 2): features ``x [G, K, P, nf]``, scores ``[G, K, P]``,
    the acting seat ``[G]``, the visit distribution ``[G, K]`` (0 where a position had fewer than K candidates)."""

    def __init__(self, d: np.ndarray, names: list, players: int, sharpen: float = 1.0) -> None:
        col = {n: i for i, n in enumerate(names)}
        nf = col["rest"]
        c = d[d[:, col["candidate"]] >= 0]
        # Rows come a player at a time, seats in order: one block of `players` rows per candidate.
        c = c.reshape(-1, players, c.shape[1])
        keys = c[:, 0, col["game"]] * 1e4 + c[:, 0, col["position"]]
        uniq, group = np.unique(keys, return_inverse=True)
        k = c[:, 0, col["candidate"]].astype(int)
        self.size = len(uniq)
        width = k.max() + 1 if len(k) else 1
        self.x = np.zeros((self.size, width, players, nf), np.float32)
        self.scores = np.zeros((self.size, width, players), np.float32)
        self.visits = np.zeros((self.size, width), np.float32)
        self.x[group, k] = c[:, :, :nf]
        self.scores[group, k] = c[:, :, col["score"]]
        self.visits[group, k] = c[:, 0, col["visits"]]
        values = c[:, :, col["value"]]
        self.actor = np.zeros(self.size, int)
        self.actor[group] = np.argmax(~np.isnan(values), axis=1)
        self.game = np.zeros(self.size)
        self.game[group] = c[:, 0, col["game"]]
        total = self.visits.sum(1, keepdims=True)
        keep = total[:, 0] > 0
        top = np.maximum(self.visits.max(1, keepdims=True), 1)
        powered = (self.visits / top) ** sharpen
        self.pi = np.where(total > 0, powered / np.maximum(powered.sum(1, keepdims=True), 1e-12), 0)
        self.valid = self.visits > 0
        for name in ("x", "scores", "visits", "actor", "game", "pi", "valid"):
            setattr(self, name, getattr(self, name)[keep])
        self.size = int(keep.sum())

    def take(self, idx: np.ndarray) -> "Groups":
        out = object.__new__(Groups)
        for name in ("x", "scores", "visits", "actor", "game", "pi", "valid"):
            setattr(out, name, getattr(self, name)[idx])
        out.size = len(idx)
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True, help="the Rust weights file to write")
    ap.add_argument("--generation", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument(
        "--relative",
        type=float,
        default=0.0,
        help="weight of the error on each player's rest relative to the mean of the position's players (what the "
        "search's margins see); the absolute error keeps weight 1 - this",
    )
    ap.add_argument(
        "--residual",
        action="store_true",
        help="learn only a correction to the hand-written estimate (the model's output is added to hand_rest)",
    )
    ap.add_argument(
        "--listwise",
        type=float,
        default=0.0,
        help="weight of fitting the search's visit distribution over its candidates (format 2 files): the "
        "cross-entropy between the visits and a softmax of each candidate's predicted margin over --temperature",
    )
    ap.add_argument(
        "--sharpen",
        type=float,
        default=1.0,
        help="fit the visits raised to this power (normalised): above 1 leans the target toward the most visited",
    )
    ap.add_argument(
        "--temperature", type=float, default=5.0, help="points of margin per unit of the softmax, to start with (learned)"
    )
    a = ap.parse_args()

    headers, parts = zip(*(read(p) for p in a.data))
    names = headers[0]["columns"]
    version = headers[0]["features_version"]
    for h in headers:
        if h["columns"] != names or h["features_version"] != version:
            sys.exit("the files hold different columns: regenerate them with one carc")
    nf = names.index("rest")
    players = headers[0]["players"]
    if any(h["players"] != players for h in headers):
        sys.exit("the files hold different player counts")
    # Game numbers restart in each file: offset them so held-out games stay whole games.
    blocks = []
    offset = 0.0
    for d in parts:
        d = d.copy()
        d[:, names.index("game")] += offset
        offset = d[:, names.index("game")].max() + 1
        blocks.append(d)
    d = np.concatenate(blocks)
    groups = None
    if "candidate" in names:
        groups = Groups(d, names, players, a.sharpen)
        d = d[d[:, names.index("candidate")] < 0]
    if a.listwise > 0 and (groups is None or groups.size == 0):
        sys.exit("--listwise needs candidate rows (carc datagen format 2 with a search among the bots)")
    x = d[:, :nf].astype(np.float32)
    y = (d[:, nf] / SCALE).astype(np.float32)
    game = d[:, names.index("game")]
    rng = np.random.default_rng(a.seed)
    games = np.unique(game)
    held = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    val = np.array([g in held for g in game])
    xt, yt, xv, yv = x[~val], y[~val], x[val], y[val]
    hand = names.index("hand_rest")
    hand_rmse = float(np.sqrt(np.mean((xv[:, hand] - yv) ** 2)) * SCALE)
    print(f"{len(x)} rows from {len(games)} games; {len(xv)} held out ({len(held)} games)")
    print(f"hand-written estimate, held out: RMSE {hand_rmse:.2f} points")
    if groups is not None and groups.size:
        gval = np.array([g in held for g in groups.game])
        gt, gv = groups.take(np.flatnonzero(~gval)), groups.take(np.flatnonzero(gval))
        print(f"{groups.size} positions with the search's candidates ({gv.size} held out)")

    if a.residual:
        yt = yt - xt[:, hand]
        yv = yv - xv[:, hand]
    h = a.hidden
    params = {
        "w1": rng.normal(0, np.sqrt(2 / nf), (h, nf)).astype(np.float32),
        "b1": np.zeros(h, np.float32),
        "w2": rng.normal(0, np.sqrt(2 / h), (h, h)).astype(np.float32),
        "b2": np.zeros(h, np.float32),
        "w3": rng.normal(0, np.sqrt(1 / h), h).astype(np.float32),
        "b3": np.zeros((), np.float32),
    }
    if a.listwise > 0 and a.residual:
        params["w3"][:] = 0  # start exactly at the hand-written estimate, whose ranking the fit should improve on
    # The softmax's temperature is learned beside the model (starting at --temperature), so that the model is not
    # pushed to scale every margin to match the visits' spread instead of ranking the candidates.
    log_t = np.float32(np.log(a.temperature))
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    mt = vt = 0.0

    def forward(p, xb):
        z1 = xb @ p["w1"].T + p["b1"]
        a1 = np.maximum(z1, 0)
        z2 = a1 @ p["w2"].T + p["b2"]
        a2 = np.maximum(z2, 0)
        return z1, a1, z2, a2, a2 @ p["w3"] + p["b3"]

    def backward(p, xb, cache, g):
        """The parameters' gradients for output gradients ``g`` (one a row)."""
        z1, a1, z2, a2, _ = cache
        grads = {"w3": a2.T @ g, "b3": g.sum()}
        d2 = np.outer(g, p["w3"]) * (z2 > 0)
        grads["w2"] = d2.T @ a1
        grads["b2"] = d2.sum(0)
        d1 = (d2 @ p["w2"]) * (z1 > 0)
        grads["w1"] = d1.T @ xb
        grads["b1"] = d1.sum(0)
        return grads

    step = 0

    def adam(grads, weight=1.0):
        nonlocal step
        step += 1
        for k in params:
            gk = weight * grads[k]
            m[k] = 0.9 * m[k] + 0.1 * gk
            v2[k] = 0.999 * v2[k] + 0.001 * gk**2
            mh = m[k] / (1 - 0.9**step)
            vh = v2[k] / (1 - 0.999**step)
            params[k] = (params[k] - a.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)

    def rmse(p, xs, ys):
        return float(np.sqrt(np.mean((forward(p, xs)[4] - ys) ** 2)) * SCALE)

    def relative_rmse(p, xs, ys):
        e = (forward(p, xs)[4] - ys).reshape(-1, players)
        return float(np.sqrt(np.mean((e - e.mean(1, keepdims=True)) ** 2)) * SCALE)

    def listwise(p, gs, zero=False):
        """Cross-entropy of the visits against the softmax of predicted margins, top-1 agreement, the output
        gradient of the mean cross-entropy (one a row of ``gs.x`` flattened) and the forward cache."""
        flat = gs.x.reshape(-1, nf)
        cache = forward(p, flat)
        out = np.zeros(len(flat), np.float32) if zero else cache[4]
        rest = (out + (flat[:, hand] if a.residual else 0)).reshape(gs.scores.shape) * SCALE
        points = gs.scores + rest
        n = np.arange(gs.size)
        mine = points[n, :, gs.actor]
        others = points.copy()
        others[n, :, gs.actor] = -np.inf
        best = others.argmax(2)
        margin = mine - np.take_along_axis(points, best[:, :, None], 2)[:, :, 0]
        t = float(np.exp(log_t))
        z = np.where(gs.valid, margin / t, -np.inf)
        z = z - z.max(1, keepdims=True)
        q = np.exp(z)
        q /= q.sum(1, keepdims=True)
        ce = float(-(gs.pi * np.log(np.maximum(q, 1e-12))).sum(1).mean())
        # The most visited candidate is first: ties with it share the credit (an estimate that cannot tell two
        # candidates apart must not be counted right by their order).
        shown = np.where(gs.valid, margin, -np.inf)
        at_max = shown >= shown.max(1, keepdims=True) - 1e-4
        top = float(np.mean(at_max[:, 0] / at_max.sum(1)))
        dz = (q - gs.pi) / gs.size
        dlog_t = float(-(np.where(gs.valid, dz * margin / t, 0)).sum())
        dm = dz / t * SCALE
        g = np.zeros(points.shape, np.float32)
        g[n, :, gs.actor] += dm
        kk = np.arange(points.shape[1])
        g[n[:, None], kk[None, :], best] -= dm
        return ce, top, g.ravel(), cache, flat, dlog_t

    def score(p):
        r = (1 - a.relative) * rmse(p, xv, yv) + a.relative * relative_rmse(p, xv, yv)
        if a.listwise > 0:
            return (1 - a.listwise) * r / SCALE + a.listwise * listwise(p, gv)[0]
        return r

    he = (-yv if a.residual else xv[:, hand] - yv).reshape(-1, players)
    hand_rel = float(np.sqrt(np.mean((he - he.mean(1, keepdims=True)) ** 2)) * SCALE)
    print(f"hand-written estimate, held out: relative RMSE {hand_rel:.2f} points")
    if a.listwise > 0:
        ce0, top0, *_ = listwise(params, gv, zero=True)
        print(
            f"hand-written estimate on the search's candidates, held out: cross-entropy {ce0:.4f}, "
            f"picks the search's most visited {top0:.1%}"
        )

    best = (float("inf"), None)
    for epoch in range(a.epochs):
        if a.listwise < 1:
            order = rng.permutation(len(xt) // players)
            for i in range(0, len(order), a.batch // players):
                pos = order[i : i + a.batch // players]
                idx = (pos[:, None] * players + np.arange(players)).ravel()
                xb, yb = xt[idx], yt[idx]
                cache = forward(params, xb)
                out = cache[4]
                g = (1 - a.relative) * 2 * (out - yb) / len(idx)
                if a.relative > 0:
                    e = (out - yb).reshape(-1, players)
                    e = e - e.mean(1, keepdims=True)
                    gr = 2 * e / len(idx)
                    g = g + a.relative * (gr - gr.mean(1, keepdims=True)).ravel()
                adam(backward(params, xb, cache, g), 1 - a.listwise)
        if a.listwise > 0:
            order = rng.permutation(gt.size)
            per = max(1, a.batch // (players * gt.x.shape[1]))
            for i in range(0, len(order), per):
                gb = gt.take(order[i : i + per])
                _, _, g, cache, flat, dlog_t = listwise(params, gb)
                adam(backward(params, flat, cache, g), a.listwise)
                mt = 0.9 * mt + 0.1 * dlog_t
                vt = 0.999 * vt + 0.001 * dlog_t**2
                log_t = np.float32(log_t - a.lr * (mt / (1 - 0.9**step)) / (np.sqrt(vt / (1 - 0.999**step)) + 1e-8))
        r = score(params)
        if r < best[0]:
            best = (r, {k: v.copy() for k, v in params.items()})
        line = (
            f"epoch {epoch + 1:3d}: held out RMSE {rmse(params, xv, yv):.2f}, "
            f"relative {relative_rmse(params, xv, yv):.2f} points"
        )
        if a.listwise > 0:
            ce, top, *_ = listwise(params, gv)
            line += f"; candidates: cross-entropy {ce:.4f}, picks the most visited {top:.1%}, T {np.exp(log_t):.2f}"
        print(line, flush=True)
    _, p = best
    r = rmse(p, xv, yv)
    print(
        f"kept the best held-out epoch: RMSE {r:.2f} points, relative {relative_rmse(p, xv, yv):.2f} "
        f"(hand-written {hand_rmse:.2f} and {hand_rel:.2f})"
    )
    write(a.out, p, a.generation, version, nf, h, r, hand_rmse, [str(x) for x in a.data], a.seed, a.residual)


def arr(v) -> str:
    return "[" + ", ".join(f"{float(x):.7e}" for x in np.ravel(v)) + "]"


def write(out: Path, p, generation, version, nf, h, r, hand_rmse, files, seed, residual) -> None:
    rows1 = ",\n    ".join(arr(row) for row in p["w1"])
    rows2 = ",\n    ".join(arr(row) for row in p["w2"])
    text = f"""// Generated by crates/ai/train/train_value.py (generation {generation}, seed {seed}) from {", ".join(files)}.
// Held-out RMSE {r:.2f} points a player (the hand-written estimate: {hand_rmse:.2f}). Do not edit: retrain.
/// The training generation these weights come from (0: none).
pub const GENERATION: u32 = {generation};
/// The feature list version the weights were fitted to.
pub(super) const FEATURES_VERSION: u32 = {version};
/// Units in each hidden layer.
pub const HIDDEN: usize = {h};
/// Points per unit of output.
pub(super) const SCALE: f32 = {SCALE};
/// Whether the output is a correction added to the hand-written estimate's rest (the `hand_rest` feature).
pub(super) const RESIDUAL: bool = {"true" if residual else "false"};
pub(super) const W1: [[f32; {nf}]; HIDDEN] = [
    {rows1},
];
pub(super) const B1: [f32; HIDDEN] = {arr(p["b1"])};
pub(super) const W2: [[f32; HIDDEN]; HIDDEN] = [
    {rows2},
];
pub(super) const B2: [f32; HIDDEN] = {arr(p["b2"])};
pub(super) const W3: [f32; HIDDEN] = {arr(p["w3"])};
pub(super) const B3: f32 = {float(p["b3"]):.7e};
"""
    out.write_text(text)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
