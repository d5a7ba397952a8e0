"""A picture of the board as an RGB array, for notebooks and ``render_mode="rgb_array"``.

    import carcassonne
    from carcassonne.render import board_image
    game = carcassonne.play(carcassonne.Game(seed=3), ["greedy", "greedy"])
    image = board_image(game)          # uint8[height, width, 3]

It is drawn from the observation's planes (docs/python.md, "Observations"), so it shows what they hold, over the
observation window: each side's terrain (field, road, city), monasteries, pennants, crop circles, the dragon, the
fairy, the tile placed this turn, and each seat's figures as a dot in the seat's colour. It is a diagram, not the
table's drawing (the browser table draws the tiles themselves).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

import carcassonne

#: Colours (RGB).
EMPTY = (38, 44, 52)
FIELD = (122, 170, 84)
CITY = (196, 150, 92)
ROAD = (238, 232, 214)
MONASTERY = (178, 58, 48)
PENNANT = (52, 96, 196)
CROP = (236, 208, 80)
DRAGON = (220, 30, 30)
FAIRY = (236, 120, 220)
PLACED = (255, 236, 64)
#: Seats' colours, in seat order.
SEATS = ((32, 96, 220), (220, 40, 40), (40, 170, 60), (250, 200, 20), (30, 30, 30), (150, 80, 200))

_Masks = Dict[str, np.ndarray]


def _masks(cell: int) -> _Masks:
    """Boolean masks of one cell: its four quarters by the diagonals, the roads' strokes, the centre, the border."""
    yy, xx = np.mgrid[0:cell, 0:cell] + 0.5
    c = cell / 2
    dx, dy = xx - c, yy - c  # image rows grow southwards
    width = max(1.0, cell / 8)
    return {
        "N": (dy < 0) & (np.abs(dx) <= -dy),
        "S": (dy > 0) & (np.abs(dx) <= dy),
        "E": (dx > 0) & (np.abs(dy) <= dx),
        "W": (dx < 0) & (np.abs(dy) <= -dx),
        "road_N": (np.abs(dx) <= width) & (dy <= 0),
        "road_S": (np.abs(dx) <= width) & (dy >= 0),
        "road_E": (np.abs(dy) <= width) & (dx >= 0),
        "road_W": (np.abs(dy) <= width) & (dx <= 0),
        "centre": (np.abs(dx) <= cell / 6) & (np.abs(dy) <= cell / 6),
        "dot": dx**2 + dy**2 <= (cell / 8) ** 2,
        "border": (xx < 1) | (yy < 1) | (xx > cell - 1) | (yy > cell - 1),
    }


def board_image(game: "carcassonne.Game", player: Optional[int] = None, cell: int = 12) -> np.ndarray:
    """The board over the observation window as ``uint8[width * cell, width * cell, 3]``, north up.

    ``player`` chooses whose observation is drawn (figures are coloured by absolute seat whoever it is); by default
    the player to act, or seat 0. ``cell`` is the size of a space in pixels (at least 6)."""
    if cell < 6:
        raise ValueError(f"cell must be at least 6 pixels, not {cell}")
    seats = game.players
    if player is None:
        player = game.current_player()
        player = player if 0 <= player < seats else 0
    board, _ = game.observation(player)
    names = game.plane_names()
    plane = {n: board[i] for i, n in enumerate(names)}
    w = board.shape[1]
    m = _masks(cell)
    image = np.empty((w * cell, w * cell, 3), np.uint8)
    image[...] = EMPTY

    def paint(row: int, col: int, mask: np.ndarray, colour: Tuple[int, int, int]) -> None:
        view = image[row * cell : (row + 1) * cell, col * cell : (col + 1) * cell]
        view[mask] = colour

    for y, x in zip(*np.nonzero(plane["tile"])):
        row = w - 1 - int(y)  # plane row y - y0 grows northwards; the image's rows grow southwards
        col = int(x)
        paint(row, col, np.ones((cell, cell), bool), FIELD)
        for side in "NESW":
            if plane[f"{side}_city"][y, x]:
                paint(row, col, m[side], CITY)
        for side in "NESW":
            if plane[f"{side}_road"][y, x]:
                paint(row, col, m[f"road_{side}"], ROAD)
        if plane["monastery"][y, x]:
            paint(row, col, m["centre"], MONASTERY)
        if plane["pennants"][y, x]:
            paint(row, col, m["dot"], PENNANT)
        if plane["crop_circle"][y, x]:
            paint(row, col, m["centre"] & ~m["dot"], CROP)
        if plane["placed_this_turn"][y, x]:
            paint(row, col, m["border"], PLACED)
        if plane["dragon"][y, x]:
            paint(row, col, m["centre"], DRAGON)
        if plane["fairy"][y, x]:
            paint(row, col, m["dot"], FAIRY)
        # Figures: one dot per seat with figures here, along the south edge, in the seat's colour.
        for rel in range(seats):
            if plane[f"figures_seat+{rel}"][y, x] or plane[f"barns_seat+{rel}"][y, x]:
                seat = (player + rel) % seats
                r = max(2, cell // 6)
                cy = (row + 1) * cell - r - 1
                cx = col * cell + r + 1 + seat * (2 * r + 1) % max(1, cell - 2 * r)
                image[cy - r // 2 : cy + r // 2 + 1, cx - r // 2 : cx + r // 2 + 1] = SEATS[seat % len(SEATS)]
    return image
