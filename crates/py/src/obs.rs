//! Observation tensors: planes over the board window and a vector of the rest, holding only what one player may see
//! (docs/python.md, "Observations").
//!
//! Seats are counted from the viewer: relative seat 0 is the viewer, 1 the next player in turn order, and so on.

use carcassonne::catalogue::SegmentKind;
use carcassonne::game::MAX_PLAYERS;
use carcassonne::geom::{Pos, Side};
use carcassonne::{Actor, DecisionKind, Game, MeepleKind, Player};

use crate::space::{ActionSpace, Bounds, Window, is_triangle};

/// The first planes, before the per-seat ones.
pub(crate) const PLANE_NAMES: [&str; 19] = [
    "tile",
    "N_field",
    "N_road",
    "N_city",
    "E_field",
    "E_road",
    "E_city",
    "S_field",
    "S_road",
    "S_city",
    "W_field",
    "W_road",
    "W_city",
    "monastery",
    "pennants",
    "crop_circle",
    "placed_this_turn",
    "dragon",
    "fairy",
];

/// Decision kinds, in the order of the features' one-hot block.
pub(crate) const DECISIONS: [&str; 11] = [
    "phase1",
    "draft",
    "draw",
    "place_tile",
    "phase2",
    "princess",
    "move_dragon",
    "move_wagon",
    "crop_choice",
    "crop_answer",
    "game_over",
];

/// Shapes of the two arrays for one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Planes.
    pub(crate) planes: usize,
    /// Window width.
    pub(crate) width: usize,
    /// Length of the feature vector.
    pub(crate) features: usize,
    players: usize,
    kinds: usize,
}

impl Shape {
    /// The shapes for an action space's configuration.
    pub(crate) fn of(space: &ActionSpace) -> Shape {
        let (p, k) = (space.players, space.kinds);
        Shape {
            planes: PLANE_NAMES.len() + 2 * p,
            width: space.width as usize,
            features: DECISIONS.len() + 3 + 7 * p + 4 * k,
            players: p,
            kinds: k,
        }
    }

    /// Floats in the board planes.
    pub(crate) fn board_len(&self) -> usize {
        self.planes * self.width * self.width
    }

    /// Names of the planes.
    pub(crate) fn plane_names(&self) -> Vec<String> {
        let mut v: Vec<String> = PLANE_NAMES.iter().map(|s| s.to_string()).collect();
        v.extend((0..self.players).map(|i| format!("figures_seat+{i}")));
        v.extend((0..self.players).map(|i| format!("barns_seat+{i}")));
        v
    }

    /// Names of the features' blocks, with their lengths.
    pub(crate) fn feature_blocks(&self) -> Vec<(String, usize)> {
        let (p, k) = (self.players, self.kinds);
        [
            ("decision", DECISIONS.len()),
            ("to_act", 1),
            ("dragon_step", 1),
            ("stack", 1),
            ("scores", p),
            ("supply", 3 * p),
            ("barns_left", p),
            ("abbeys_left", p),
            ("hand_sizes", p),
            ("drawn_tile", k),
            ("own_hand", k),
            ("draft_pool", k),
            ("unseen_tiles", k),
        ]
        .into_iter()
        .map(|(n, l)| (n.to_string(), l))
        .collect()
    }
}

/// A board plane's cell: `float32`, or `uint8` (a quarter of the memory to write and copy).
pub(crate) trait Cell: Copy + Send + Sync {
    /// An empty cell.
    const ZERO: Self;
    /// Add `v`; `halves` for the `tile` plane, whose only fractions are halves (a triangle is 0.5 of a space): a
    /// `uint8` cell counts them as whole numbers (2 for a square tile, 1 for a triangle).
    fn add(&mut self, v: f32, halves: bool);
}

impl Cell for f32 {
    const ZERO: f32 = 0.0;
    fn add(&mut self, v: f32, _: bool) {
        *self += v;
    }
}

impl Cell for u8 {
    const ZERO: u8 = 0;
    fn add(&mut self, v: f32, halves: bool) {
        let v = if halves { v * 2.0 } else { v };
        // Every value is a whole number, positive (the cast saturates): rounded without a call to `roundf`.
        *self = self.saturating_add((v + 0.5) as u8);
    }
}

/// Write `viewer`'s observation of `game` into `board` (`planes × width × width`, zeroed here) and `features`.
pub(crate) fn observe<T: Cell>(
    game: &Game,
    viewer: Player,
    space: &ActionSpace,
    board: &mut [T],
    features: &mut [f32],
) {
    board.fill(T::ZERO);
    let window = Window::of(game, space.width);
    draw_tiles(game, window, 0, board, |_| {});
    list_pieces(game, viewer, space, window, |i| board[i].add(1.0, false));
    write_features(game, viewer, space, features);
}

/// The window's cells that may hold something in some plane: a rectangle of columns `x0..=x1` and rows `y0..=y1`
/// (empty when `x0 > x1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
}

impl Default for Rect {
    fn default() -> Rect {
        Rect { x0: usize::MAX, x1: 0, y0: usize::MAX, y1: 0 }
    }
}

impl Rect {
    /// Take in a cell (its index in a plane).
    fn add(&mut self, cell: usize, width: usize) {
        let (x, y) = (cell % width, cell / width);
        self.x0 = self.x0.min(x);
        self.x1 = self.x1.max(x);
        self.y0 = self.y0.min(y);
        self.y1 = self.y1.max(y);
    }

    /// Zero these cells in every plane of `board`.
    fn clear<T: Cell>(self, board: &mut [T], width: usize) {
        if self.x0 > self.x1 {
            return;
        }
        for plane in board.chunks_mut(width * width) {
            for y in self.y0..=self.y1 {
                plane[y * width + self.x0..=y * width + self.x1].fill(T::ZERO);
            }
        }
    }
}

/// What [`observe_since`] last wrote into one game's board planes, so that the next call writes only what changed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Drawn {
    /// The game written (a number that changes whenever its slot starts a new game), if any.
    game: Option<u64>,
    /// Its played area, followed tile by tile, and the window centred on it.
    bounds: Bounds,
    window: Option<Window>,
    /// Where the board holds tiles (the pieces' cells are in `pieces`): the board was zero when this was empty.
    written: Rect,
    /// Tiles drawn, in board order: a placed tile never changes, so only later tiles are drawn.
    tiles: usize,
    /// The cells written in the planes that change from one decision to the next (the tile placed this turn, the
    /// dragon, the fairy, figures and barns), cleared before the next call writes them again.
    pieces: Vec<u32>,
}

/// [`observe`] into a board that holds what the last call wrote for `drawn` (game number `serial`), or zeros with a
/// new `drawn`: only the tiles placed since are drawn, and the pieces' cells are cleared and written again.
/// When the board holds another game, or the window has moved to follow the played area, the part of the board that
/// holds anything is cleared and every tile drawn again. The features are written whole.
pub(crate) fn observe_since<T: Cell>(
    game: &Game,
    serial: u64,
    viewer: Player,
    space: &ActionSpace,
    board: &mut [T],
    features: &mut [f32],
    drawn: &mut Drawn,
) {
    let tiles = game.board().tiles().len();
    if drawn.game != Some(serial) || tiles < drawn.tiles {
        drawn.bounds = Bounds::default();
        drawn.window = None;
    }
    drawn.bounds.update(game);
    let window = drawn.bounds.window(space.width);
    let width = window.width as usize;
    // Fewer instructions than writing only the cells whose pieces changed: most do, once a turn, when the figures'
    // planes turn to the next player's view.
    for &i in &drawn.pieces {
        board[i as usize] = T::ZERO;
    }
    if drawn.window != Some(window) {
        drawn.written.clear(board, width);
        drawn.written = Rect::default();
        drawn.tiles = 0;
    }
    drawn.pieces.clear();
    let written = &mut drawn.written;
    draw_tiles(game, window, drawn.tiles, board, |cell| written.add(cell, width));
    let pieces = &mut drawn.pieces;
    list_pieces(game, viewer, space, window, |i| {
        board[i].add(1.0, false);
        pieces.push(i as u32);
    });
    write_features(game, viewer, space, features);
    drawn.game = Some(serial);
    drawn.window = Some(window);
    drawn.tiles = tiles;
}

/// Add the board's tiles from the `from`-th on (in the order they were placed) to the planes that never change
/// once a tile is down: `tile`, the sides' terrain, `monastery`, `pennants` and `crop_circle`; `wrote` is told each
/// tile's cell.
fn draw_tiles<T: Cell>(game: &Game, window: Window, from: usize, board: &mut [T], mut wrote: impl FnMut(usize)) {
    let area = window.area();
    let mut put = |plane: usize, s: carcassonne::Space, v: f32| {
        if let Some(i) = window.index(s) {
            board[plane * area + i].add(v, plane == 0);
        }
    };
    let cat = game.catalogue();
    for tile in game.board().tiles().iter().skip(from) {
        match window.index(tile.space) {
            Some(cell) => wrote(cell),
            None => continue,
        }
        let def = cat.def(tile.kind);
        let r = tile.placement.rotation();
        put(0, tile.space, if is_triangle(game, tile.kind) { 0.5 } else { 1.0 });
        for (seg, s) in def.segments.iter().enumerate() {
            let positions = cat.segment_positions(tile.kind, r, seg as u8);
            for side in Side::ALL {
                if positions & Pos::on_side(side, 1).bit() != 0 {
                    let terrain = match s.kind {
                        SegmentKind::Field => Some(0),
                        SegmentKind::Road => Some(1),
                        SegmentKind::City => Some(2),
                        _ => None,
                    };
                    if let Some(k) = terrain {
                        put(1 + side.index() * 3 + k, tile.space, 1.0);
                    }
                }
            }
            match s.kind {
                SegmentKind::Monastery => put(13, tile.space, 1.0),
                SegmentKind::Crop => put(15, tile.space, 1.0),
                _ => {}
            }
            if s.pennants > 0 {
                put(14, tile.space, s.pennants as f32);
            }
        }
    }
}

/// The cells of the planes that change from one decision to the next, one for each piece, in a fixed order (a cell
/// twice for two pieces), as indices in the board: the tile placed this turn, the dragon, the fairy, and each seat's
/// figures and barns (seats counted from `viewer`).
fn list_pieces(game: &Game, viewer: Player, space: &ActionSpace, window: Window, mut cell: impl FnMut(usize)) {
    let area = window.area();
    let players = space.players;
    let mut seat_plane = [0; MAX_PLAYERS];
    for (p, plane) in seat_plane.iter_mut().enumerate().take(players) {
        *plane = (p + players - viewer.index()) % players;
    }
    let rel = |p: Player| seat_plane[p.index()];
    let mut put = |plane: usize, s: carcassonne::Space| {
        if let Some(i) = window.index(s) {
            cell(plane * area + i);
        }
    };
    let b = game.board();
    if let Some(t) = game.placed_tile() {
        put(16, b.tile(t).space);
    }
    if let Some(d) = game.dragon() {
        put(17, d);
    }
    if let Some(f) = game.fairy() {
        put(18, f);
    }
    for m in game.meeples() {
        let (t, _) = b.segment_tile(m.segment);
        put(PLANE_NAMES.len() + rel(m.player), b.tile(t).space);
    }
    for barn in game.barns() {
        put(PLANE_NAMES.len() + players + rel(barn.player), barn.space);
    }
}

/// Write `viewer`'s feature vector (docs/python.md, "Observations").
fn write_features(game: &Game, viewer: Player, space: &ActionSpace, features: &mut [f32]) {
    let shape = Shape::of(space);
    features.fill(0.0);
    let players = shape.players;
    // The vector.
    let d = game.decision();
    let mut at = 0;
    let mut block = |len: usize| {
        let start = at;
        at += len;
        start
    };
    let kind = match d.kind {
        DecisionKind::Phase1 => 0,
        DecisionKind::Draft => 1,
        DecisionKind::Draw => 2,
        DecisionKind::PlaceTile { .. } => 3,
        DecisionKind::Phase2 => 4,
        DecisionKind::Princess => 5,
        DecisionKind::MoveDragon { .. } => 6,
        DecisionKind::MoveWagon => 7,
        DecisionKind::CropChoice => 8,
        DecisionKind::CropAnswer { .. } => 9,
        DecisionKind::GameOver => 10,
    };
    let o = block(DECISIONS.len());
    features[o + kind] = 1.0;
    let o = block(1);
    features[o] = f32::from(d.actor == Actor::Player(viewer));
    let o = block(1);
    if let DecisionKind::MoveDragon { step } = d.kind {
        features[o] = f32::from(step) / 6.0;
    }
    let o = block(1);
    features[o] = game.stack_len() as f32 / space.tiles as f32;
    let mut seats = [Player(0); MAX_PLAYERS];
    for (i, p) in seats.iter_mut().enumerate() {
        *p = Player(((viewer.index() + i) % players) as u8);
    }
    let seats = &seats[..players];
    let o = block(players);
    for (i, p) in seats.iter().enumerate() {
        features[o + i] = game.scores()[p.index()] as f32 / 100.0;
    }
    let o = block(3 * players);
    for (i, p) in seats.iter().enumerate() {
        for k in MeepleKind::ALL {
            features[o + i * 3 + k.index()] = f32::from(game.supply_of(*p, k)) / 7.0;
        }
    }
    let o = block(players);
    for (i, p) in seats.iter().enumerate() {
        features[o + i] = f32::from(game.barns_left(*p));
    }
    let o = block(players);
    for (i, p) in seats.iter().enumerate() {
        features[o + i] = f32::from(game.abbeys_left(*p));
    }
    let o = block(players);
    for (i, p) in seats.iter().enumerate() {
        features[o + i] = game.hand(*p).len() as f32;
    }
    let o = block(shape.kinds);
    // The tile to place, and once it is placed the same tile for the rest of the turn's decisions.
    if let DecisionKind::PlaceTile { tile } = d.kind {
        features[o + tile.0 as usize] = 1.0;
    } else if let Some(t) = game.placed_tile() {
        features[o + game.board().tile(t).kind.0 as usize] = 1.0;
    }
    let o = block(shape.kinds);
    for k in game.hand(viewer) {
        features[o + k.0 as usize] += 1.0;
    }
    let o = block(shape.kinds);
    for k in game.draft_pool() {
        features[o + k.0 as usize] += 1.0;
    }
    // Tiles nobody has seen (the stack and the tiles under hills) and those set aside for the dragon: counts by
    // kind are public, the order is not.
    let o = block(shape.kinds);
    // Counted without allocating for any catalogue of the sets there are (96 kinds with every module).
    let (mut small, mut large) = ([0u32; 128], Vec::new());
    let counts: &mut [u32] = match small.get_mut(..shape.kinds) {
        Some(counts) => counts,
        None => {
            large.resize(shape.kinds, 0);
            &mut large
        }
    };
    game.count_stack(counts);
    for (f, n) in features[o..o + shape.kinds].iter_mut().zip(counts.iter()) {
        *f += *n as f32;
    }
    for k in game.out_of_play().iter().chain(game.set_aside()) {
        if !is_triangle(game, *k) {
            features[o + k.0 as usize] += 1.0;
        }
    }
    debug_assert_eq!(at, shape.features);
}
