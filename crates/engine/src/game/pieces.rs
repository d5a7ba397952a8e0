//! Figures on the board: meeples, barns, and wagons waiting to move.

use crate::action::{MeepleKind, MeepleRef, Player};
use crate::board::SegmentId;
use crate::geom::{Corner, Space};

/// A barn on the board (SPEC BARN-01..07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedBarn {
    /// Its owner.
    pub player: Player,
    /// The field segment of the tile it was placed on, at its corner.
    pub segment: SegmentId,
    /// The space of that tile.
    pub space: Space,
    /// The corner of that tile it stands on.
    pub corner: Corner,
}

/// A wagon returned by this turn's scoring, waiting for its owner's decision (SPEC WAGON-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PendingWagon {
    pub(crate) player: Player,
    /// The space of the tile it stood on.
    pub(crate) from: Space,
    /// The feature it was scored in (its root).
    pub(crate) scored: SegmentId,
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedMeeple {
    /// Its owner.
    pub player: Player,
    /// Its kind.
    pub kind: MeepleKind,
    /// The segment it stands on.
    pub segment: SegmentId,
    /// Whether the fairy is attached to it (FAIRY-03).
    pub fairy: bool,
}

impl PlacedMeeple {
    /// How a player would point at it.
    pub fn reference(&self) -> MeepleRef {
        MeepleRef { player: self.player, kind: self.kind, segment: self.segment, fairy: self.fairy }
    }
}
