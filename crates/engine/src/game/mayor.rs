//! The mayor (SPEC MAYOR-01..05): a follower that stands only in cities (see [`crate::MeepleKind::may_stand_on`])
//! and whose strength is the number of pennants in its whole city when it is scored, 0 included.

use super::{Game, PlacedMeeple};
use crate::action::MeepleKind;
use crate::board::SegmentId;

impl Game {
    /// A follower's strength in the feature `root` (BASE-10; WAGON-03: a wagon counts 1; MAYOR-03).
    pub(super) fn strength(&self, m: &PlacedMeeple, root: SegmentId) -> u32 {
        match m.kind {
            MeepleKind::Normal | MeepleKind::Wagon => 1,
            MeepleKind::Mayor => self.board.pennants_of(root) as u32,
        }
    }
}
