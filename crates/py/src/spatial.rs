//! The spatial action layout (docs/python.md, "Spatial actions"): every action that happens on a space of the board,
//! as a channel of a map over the observation window, so that a convolutional policy head, one output per channel
//! and cell, can produce it. The ids stay what they are; this only says where each one lies on the map.
//!
//! Channels, in order (H: triangles in hand, C: segment classes):
//!
//! | channels | the ids |
//! |---|---|
//! | 4 | `place`: the rotation |
//! | 4·H | `triangle`: hand slot h, right-angle corner |
//! | 3·C | `onto`: the follower (meeple, mayor, wagon) and the class of the segment |
//! | 2 | `fairy_tile`: the square tile or a NE/SE triangle, or a SW/NW triangle |
//!
//! A segment's *class* names it by where it lies in world orientation, whatever the tile: the first of the twelve
//! side positions it touches (`Nw N Ne En … Wn`, the engine's [`Pos`] order); for a segment of a triangle that
//! touches only the long side, the first long-side position, counted apart for the two halves a space can hold (a
//! NE or SE triangle, a SW or NW one); and for a segment that touches no side (a monastery, an inner field), its
//! number among its tile's such segments, again apart for the two halves. A position belongs to one segment of a
//! tile, and the two triangles of one space have their legs on different sides, so no two segments of one space
//! share a class.

use carcassonne::board::Placement;
use carcassonne::geom::{Corner, Pos};
use carcassonne::{Game, MeepleKind};

use crate::space::{ActionSpace, Frontier, Window};

/// Side positions (the first classes).
const SIDE: usize = 12;
/// Long-side positions of a triangle.
const LONG: usize = 3;

/// The layout for one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spatial {
    /// Segments touching no side, at most, on one tile of the configuration (J).
    inner: usize,
    /// Hand slots (H).
    hand: usize,
}

impl Spatial {
    /// The layout of a game's configuration.
    pub(crate) fn of(space: &ActionSpace, game: &Game) -> Spatial {
        let cat = game.catalogue();
        let inner =
            (cat.kinds()).map(|k| cat.def(k).segments.iter().filter(|s| s.positions == 0).count()).max().unwrap_or(0);
        Spatial { inner, hand: space.hand }
    }

    /// Segment classes (C).
    pub(crate) fn classes(self) -> usize {
        SIDE + 2 * LONG + 2 * self.inner
    }

    /// Channels of the map.
    pub(crate) fn channels(self) -> usize {
        4 + 4 * self.hand + MeepleKind::COUNT * self.classes() + 2
    }

    /// The channels' names, in order.
    pub(crate) fn channel_names(self) -> Vec<String> {
        let mut v: Vec<String> = (0..4).map(|r| format!("place_r{}", r * 90)).collect();
        for h in 0..self.hand {
            v.extend(Corner::ALL.iter().map(|c| format!("triangle{h}_{c}")));
        }
        let mut classes: Vec<String> = (0..SIDE).map(|p| Pos(p as u8).name().to_string()).collect();
        for half in ["a", "b"] {
            classes.extend((0..LONG).map(|k| format!("{}{half}", Pos::on_long(k).name())));
        }
        for half in ["a", "b"] {
            classes.extend((0..self.inner).map(|j| format!("inner{j}{half}")));
        }
        for m in MeepleKind::ALL {
            v.extend(classes.iter().map(|c| format!("{}_{c}", m.name())));
        }
        v.extend(["fairy_a".to_string(), "fairy_b".to_string()]);
        v
    }

    /// Where id `id` lies on the map of `game` (its open spaces in `frontier`, its window `window`): `channel · W² +
    /// cell`, or -1 for an id of another block (`pass`, `pick`, `barn`, `figure`, `dragon`, the crop circles), a
    /// space or tile the position does not have, or a space outside the window.
    pub(crate) fn index(self, space: &ActionSpace, game: &Game, frontier: &Frontier, window: Window, id: i64) -> i64 {
        self.locate(space, game, frontier, id)
            .and_then(|(channel, at)| Some((channel * window.area() + window.index(at)?) as i64))
            .unwrap_or(-1)
    }

    /// The channel and the space of an id, if it has them.
    fn locate(
        self,
        space: &ActionSpace,
        game: &Game,
        frontier: &Frontier,
        id: i64,
    ) -> Option<(usize, carcassonne::Space)> {
        let (block, fields) = space.describe(usize::try_from(id).ok()?)?;
        let field = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, v)| *v as usize);
        let tiles = game.board().tiles();
        match block {
            "place" => Some((field("rotation")? / 90, *frontier.spaces().get(field("space")?)?)),
            "triangle" => {
                let channel = 4 + 4 * field("slot")? + field("corner")?;
                Some((channel, *frontier.spaces().get(field("space")?)?))
            }
            "onto" => {
                let tile = tiles.get(field("tile")?)?;
                let class = self.class(game, field("tile")?, field("segment")?)?;
                Some((4 + 4 * self.hand + field("follower")? * self.classes() + class, tile.space))
            }
            "fairy_tile" => {
                let tile = tiles.get(field("tile")?)?;
                Some((4 + 4 * self.hand + MeepleKind::COUNT * self.classes() + half(tile.placement), tile.space))
            }
            _ => None,
        }
    }

    /// The class of segment `local` of board tile `t`, if the tile has it.
    fn class(self, game: &Game, t: usize, local: usize) -> Option<usize> {
        let tile = game.board().tiles().get(t)?;
        let cat = game.catalogue();
        let segments = &cat.def(tile.kind).segments;
        if local >= segments.len() {
            return None;
        }
        let h = half(tile.placement);
        let positions = cat.segment_positions(tile.kind, tile.placement.rotation(), local as u8);
        let sides = positions & ((1 << SIDE) - 1);
        Some(if sides != 0 {
            sides.trailing_zeros() as usize
        } else if positions != 0 {
            SIDE + LONG * h + (positions.trailing_zeros() as usize - SIDE)
        } else {
            let j = segments[..local].iter().filter(|s| s.positions == 0).count();
            SIDE + 2 * LONG + self.inner * h + j
        })
    }
}

/// Which of a space's two halves a tile is: 0 for a square tile or a NE/SE triangle, 1 for a SW/NW triangle (the two
/// triangles of one space are always one of each).
fn half(p: Placement) -> usize {
    match p {
        Placement::Square(_) | Placement::Triangle(Corner::NE | Corner::SE) => 0,
        Placement::Triangle(Corner::SW | Corner::NW) => 1,
    }
}
