//! Actions and their notation.
//!
//! | action | notation | meaning |
//! |---|---|---|
//! | [`Action::Draw`] | `draw base/U` | the chance step: this tile comes off the stack |
//! | [`Action::Place`] | `place base/U 1,0 r90` | put the drawn tile on space (1,0), turned 90° clockwise |
//! | [`Action::Deploy`] | `meeple road@E` | put a meeple on the segment of the tile just placed that touches the east side's centre |
//! | [`Action::Pass`] | `pass` | deploy nothing |
//!
//! Segments are named by their kind and any position they touch in the placed (turned) tile: sides `N E S W` for
//! roads and cities, halves `Nw Ne En Es Se Sw Ws Wn` for fields; `monastery` and `field@inner` for segments that touch
//! no side (docs/record-format.md).

use std::fmt;

use thiserror::Error;

use crate::catalogue::TileKind;
use crate::geom::{Rotation, Space};

/// A seat at the table, 0-based in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Player(pub u8);

impl Player {
    /// The seat index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// The kinds of follower. Only the normal meeple exists in the base game; Abbey & Mayor adds more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum MeepleKind {
    /// A normal meeple (7 per player, SPEC BASE-01).
    #[default]
    Normal,
}

impl MeepleKind {
    /// Every kind.
    pub const ALL: [MeepleKind; 1] = [MeepleKind::Normal];

    /// Notation name.
    pub const fn name(self) -> &'static str {
        match self {
            MeepleKind::Normal => "meeple",
        }
    }

    /// Strength in a feature (SPEC BASE-10; the mayor's depends on pennants, MAYOR-03).
    pub const fn strength(self) -> u32 {
        match self {
            MeepleKind::Normal => 1,
        }
    }
}

/// One decision's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: this tile comes off the stack.
    Draw(TileKind),
    /// Place the drawn tile.
    Place {
        /// The drawn tile.
        tile: TileKind,
        /// Where.
        space: Space,
        /// Turned how far clockwise.
        rotation: Rotation,
    },
    /// Deploy a meeple on a segment (by its number on the tile placed this turn).
    Deploy {
        /// Which kind of follower.
        meeple: MeepleKind,
        /// The segment's index on the placed tile.
        segment: u8,
    },
    /// Deploy nothing.
    Pass,
}

/// Why a text is not an action here.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cannot read action `{text}`: {reason}")]
pub struct ParseActionError {
    /// The text.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}
