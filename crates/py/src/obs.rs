//! Observation tensors: planes over the board window and a vector of the rest, holding only what one player may see
//! (docs/python.md, "Observations").
//!
//! Seats are counted from the viewer: relative seat 0 is the viewer, 1 the next player in turn order, and so on.

use carcassonne::catalogue::SegmentKind;
use carcassonne::geom::{Pos, Side};
use carcassonne::{Actor, DecisionKind, Game, MeepleKind, Player};

use crate::space::{ActionSpace, Window, is_triangle};

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
        *self = self.saturating_add(v.round().clamp(0.0, 255.0) as u8);
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
    let shape = Shape::of(space);
    board.fill(T::ZERO);
    features.fill(0.0);
    let window = Window::of(game, space.width);
    let area = window.area();
    let players = shape.players;
    let rel = |p: Player| (p.index() + players - viewer.index()) % players;
    let mut put = |plane: usize, s: carcassonne::Space, v: f32| {
        if let Some(i) = window.index(s) {
            board[plane * area + i].add(v, plane == 0);
        }
    };
    let cat = game.catalogue();
    let b = game.board();
    for (t, tile) in b.tiles().iter().enumerate() {
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
        if game.placed_tile() == Some(t) {
            put(16, tile.space, 1.0);
        }
    }
    if let Some(d) = game.dragon() {
        put(17, d, 1.0);
    }
    if let Some(f) = game.fairy() {
        put(18, f, 1.0);
    }
    for m in game.meeples() {
        let (t, _) = b.segment_tile(m.segment);
        put(PLANE_NAMES.len() + rel(m.player), b.tile(t).space, 1.0);
    }
    for barn in game.barns() {
        put(PLANE_NAMES.len() + players + rel(barn.player), barn.space, 1.0);
    }

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
    let seats: Vec<Player> = (0..players).map(|i| Player(((viewer.index() + i) % players) as u8)).collect();
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
    for (k, n) in game.chance_outcomes() {
        features[o + k.0 as usize] += n as f32;
    }
    for k in game.out_of_play().iter().chain(game.set_aside()) {
        if !is_triangle(game, *k) {
            features[o + k.0 as usize] += 1.0;
        }
    }
    debug_assert_eq!(at, shape.features);
}
