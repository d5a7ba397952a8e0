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
    if fmt != 1:
        sys.exit(f"{path}: format {fmt}, this script reads format 1")
    header = json.loads(raw[16 : 16 + hlen])
    cols = len(header["columns"])
    data = np.frombuffer(raw[16 + hlen :], dtype="<f4")
    if data.size % cols:
        sys.exit(f"{path}: {data.size} values is not a whole number of {cols}-column rows (cut short?)")
    return header, data.reshape(-1, cols)


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
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}

    def forward(p, xb):
        z1 = xb @ p["w1"].T + p["b1"]
        a1 = np.maximum(z1, 0)
        z2 = a1 @ p["w2"].T + p["b2"]
        a2 = np.maximum(z2, 0)
        return z1, a1, z2, a2, a2 @ p["w3"] + p["b3"]

    def rmse(p, xs, ys):
        return float(np.sqrt(np.mean((forward(p, xs)[4] - ys) ** 2)) * SCALE)

    def relative_rmse(p, xs, ys):
        e = (forward(p, xs)[4] - ys).reshape(-1, players)
        return float(np.sqrt(np.mean((e - e.mean(1, keepdims=True)) ** 2)) * SCALE)

    def score(p):
        return (1 - a.relative) * rmse(p, xv, yv) + a.relative * relative_rmse(p, xv, yv)

    he = (-yv if a.residual else xv[:, hand] - yv).reshape(-1, players)
    hand_rel = float(np.sqrt(np.mean((he - he.mean(1, keepdims=True)) ** 2)) * SCALE)
    print(f"hand-written estimate, held out: relative RMSE {hand_rel:.2f} points")

    step = 0
    best = (float("inf"), None)
    for epoch in range(a.epochs):
        order = rng.permutation(len(xt) // players)
        for i in range(0, len(order), a.batch // players):
            pos = order[i : i + a.batch // players]
            idx = (pos[:, None] * players + np.arange(players)).ravel()
            xb, yb = xt[idx], yt[idx]
            z1, a1, z2, a2, out = forward(params, xb)
            g = (1 - a.relative) * 2 * (out - yb) / len(idx)
            if a.relative > 0:
                e = (out - yb).reshape(-1, players)
                e = e - e.mean(1, keepdims=True)
                gr = 2 * e / len(idx)
                g = g + a.relative * (gr - gr.mean(1, keepdims=True)).ravel()
            grads = {"w3": a2.T @ g, "b3": g.sum()}
            d2 = np.outer(g, params["w3"]) * (z2 > 0)
            grads["w2"] = d2.T @ a1
            grads["b2"] = d2.sum(0)
            d1 = (d2 @ params["w2"]) * (z1 > 0)
            grads["w1"] = d1.T @ xb
            grads["b1"] = d1.sum(0)
            step += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9**step)
                vh = v2[k] / (1 - 0.999**step)
                params[k] = (params[k] - a.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        r = score(params)
        if r < best[0]:
            best = (r, {k: v.copy() for k, v in params.items()})
        print(
            f"epoch {epoch + 1:3d}: held out RMSE {rmse(params, xv, yv):.2f}, "
            f"relative {relative_rmse(params, xv, yv):.2f} points",
            flush=True,
        )
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
