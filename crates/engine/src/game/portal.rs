//! The magic portal (SPEC PORTAL-01..06): after placing a portal tile, the phase-2 meeple may go onto any earlier
//! tile instead, into an unoccupied, incomplete feature that is not on the dragon's space.

use super::{Game, IllegalReason};
use crate::action::{Action, MeepleKind};
use crate::board::SegmentId;
use crate::catalogue::{SegmentKind, Symbol};

impl Game {
    /// Whether the tile placed this turn is a portal tile (with the module on); returns its first segment, so the
    /// portal's targets are the segments before it.
    fn portal_reach(&self) -> Option<u16> {
        if !self.config.rules.modules.portal {
            return None;
        }
        let pt = self.board.tile(self.placed? as usize);
        self.catalogue().def(pt.kind).has_symbol(Symbol::Portal).then_some(pt.first_segment)
    }

    /// Why no meeple may go through the portal onto `seg`, if none may (PORTAL-02, -04, -05, -06, DRAGON-05).
    fn portal_block(&self, seg: SegmentId) -> Option<&'static str> {
        let kind = self.board.kind(seg);
        let (meeples, barns) = self.board.occupancy(seg);
        if kind == SegmentKind::Crop {
            Some("a crop circle is never occupied")
        } else if meeples != 0 || barns != 0 {
            Some("that feature is occupied")
        } else if self.board.is_complete(seg) {
            Some("that feature is complete")
        } else if self.on_dragon(seg) {
            Some("the dragon stands on that space")
        } else {
            None
        }
    }

    /// Every segment of an earlier tile the portal reaches, with every follower that may stand there (PORTAL-03).
    /// One pass over the board's segments, one walk to a root each: linear in what is on the board.
    pub(super) fn portal_actions(&self, out: &mut Vec<Action>) {
        let Some(reach) = self.portal_reach() else { return };
        let supply = self.supply[self.active.index()];
        let kinds: Vec<MeepleKind> = MeepleKind::ALL.into_iter().filter(|m| supply[m.index()] > 0).collect();
        if kinds.is_empty() {
            return;
        }
        // The segments on the dragon's space, as a range of ids per tile there.
        let mut dragon_ranges = [(0u16, 0u16); 2];
        if let Some(d) = self.dragon {
            for (slot, t) in dragon_ranges.iter_mut().zip(self.board.tile_numbers_in(d)) {
                let pt = self.board.tile(t);
                *slot = (pt.first_segment, pt.first_segment + self.catalogue().def(pt.kind).segments.len() as u16);
            }
        }
        for s in 0..reach {
            if dragon_ranges.iter().any(|&(a, b)| (a..b).contains(&s)) {
                continue;
            }
            let seg = SegmentId(s);
            let kind = self.board.kind(seg);
            if kind == SegmentKind::Crop || !self.board.is_free_and_open(seg) {
                continue;
            }
            for &m in &kinds {
                if m.may_stand_on(kind) {
                    out.push(Action::Portal { meeple: m, segment: seg });
                }
            }
        }
    }

    pub(super) fn check_portal(&self, meeple: MeepleKind, seg: SegmentId) -> Result<(), IllegalReason> {
        let reach = self.portal_reach().ok_or(IllegalReason::PortalTarget("this turn's tile has no portal"))?;
        if seg.0 >= reach {
            return Err(IllegalReason::PortalTarget("only earlier tiles are reached through the portal"));
        }
        if let Some(why) = self.portal_block(seg) {
            return Err(IllegalReason::PortalTarget(why));
        }
        let kind = self.board.kind(seg);
        if !meeple.may_stand_on(kind) {
            return Err(IllegalReason::NotAllowedOn(meeple.name(), kind.name()));
        }
        if self.supply[self.active.index()][meeple.index()] == 0 {
            return Err(IllegalReason::EmptySupply(meeple.name()));
        }
        Ok(())
    }
}
