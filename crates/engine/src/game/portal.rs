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

    /// Why no meeple may go through the portal onto `seg`, if none may (PORTAL-02, -04, -05, -06, DRAGON-05). The
    /// listing and the check both ask this, so they cannot disagree.
    fn portal_block(&self, seg: SegmentId) -> Option<&'static str> {
        if self.board.kind(seg) == SegmentKind::Crop {
            return Some("a crop circle is never occupied");
        }
        if !self.board.is_free_and_open(seg) {
            return Some(if self.board.is_complete(seg) {
                "that feature is complete"
            } else {
                "that feature is occupied"
            });
        }
        self.on_dragon(seg).then_some("the dragon stands on that space")
    }

    /// Every segment of an earlier tile the portal reaches, with every follower that may stand there (PORTAL-03).
    /// One pass over the board's segments, one walk to a root each: linear in what is on the board.
    pub(super) fn portal_actions(&self, out: &mut Vec<Action>) {
        let Some(reach) = self.portal_reach() else { return };
        let supply = self.supply[self.active.index()];
        let kinds = || MeepleKind::ALL.into_iter().filter(|m| supply[m.index()] > 0);
        if kinds().next().is_none() {
            return;
        }
        for s in 0..reach {
            let seg = SegmentId(s);
            if self.portal_block(seg).is_some() {
                continue;
            }
            let kind = self.board.kind(seg);
            for m in kinds() {
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
