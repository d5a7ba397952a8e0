"""The board's four rotations, for augmenting observations (docs/python.md, "Symmetry").

A Carcassonne board has no preferred direction: the same game turned a quarter turn is the same game
(:meth:`carcassonne.Game.rotated` builds that twin exactly, and :meth:`carcassonne.Game.rotate_ids` turns a
position's ids into the twin's). Turning every stored observation through the twin costs a replay of its game;
:func:`rotate_board` turns the board planes themselves, in numpy, for a batch at a time. Reflections are not offered:
tiles turn but never mirror (SPEC BASE-03), and the mirror image of most tiles is not in any set.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["rotate_board", "rotate_cells", "side_permutation"]

_SIDES = "NESW"


def side_permutation(plane_names: Sequence[str], quarter_turns: int) -> np.ndarray:
    """For each plane of the turned board, the plane of the original it comes from.

    The planes named ``N_…``, ``E_…``, ``S_…``, ``W_…`` follow their side round (what lay on the north side lies on
    the east after a quarter turn clockwise); every other plane stays where it is."""
    k = int(quarter_turns) % 4
    names = list(plane_names)
    index = {n: i for i, n in enumerate(names)}
    source = np.arange(len(names))
    for i, name in enumerate(names):
        side, sep, rest = name.partition("_")
        if sep and len(side) == 1 and side in _SIDES:
            before = _SIDES[(_SIDES.index(side) - k) % 4] + "_" + rest
            source[i] = index[before]
    return source


def rotate_board(board: np.ndarray, quarter_turns: int, plane_names: Sequence[str]) -> np.ndarray:
    """Board planes (``[..., planes, W, W]``, row ``y - y0``, column ``x - x0``) turned ``quarter_turns`` times
    clockwise, the side planes following their sides.

    What lay at ``(x, y)`` lies at ``(y, -x)`` after a quarter turn, as in the twin from :meth:`Game.rotated`. The
    twin's own observation window is centred on its own tiles, so its planes are these shifted by up to two rows
    (one of the window's edges is cut differently); a convolutional network does not mind the shift."""
    k = int(quarter_turns) % 4
    planes = np.asarray(board)
    if planes.ndim < 3 or planes.shape[-1] != planes.shape[-2]:
        raise ValueError(f"board planes must be [..., planes, W, W], not {planes.shape}")
    if planes.shape[-3] != len(plane_names):
        raise ValueError(f"{planes.shape[-3]} planes but {len(plane_names)} plane names")
    # Rows grow north and columns east, so a clockwise turn of the board is a counter-clockwise turn of the array
    # as numpy draws it (row 0 at the top): np.rot90's positive direction in the (row, column) plane.
    turned = np.rot90(planes, k, axes=(-2, -1))
    return np.ascontiguousarray(turned[..., side_permutation(plane_names, k), :, :])


def rotate_cells(cells: np.ndarray, quarter_turns: int, width: int) -> np.ndarray:
    """Window cells (``row * width + column``, -1 for none, as :meth:`VecGame.open_cells` gives) moved as
    :func:`rotate_board` moves the planes."""
    k = int(quarter_turns) % 4
    c = np.asarray(cells, dtype=np.int64)
    row, col = np.divmod(c, width)
    for _ in range(k):
        row, col = width - 1 - col, row
    return np.where(c < 0, -1, row * width + col)
