//! The princess (SPEC PRINCESS-01..05): after placing a princess tile, the active player may (or, under VAR-07
//! `mandatory`, must) send home one knight of the city that contains the princess segment; a removal takes the
//! place of the whole phase 2.

use super::{Game, IllegalReason, ReturnCause};
use crate::action::{Action, MeepleRef};
use crate::board::SegmentId;

impl Game {
    /// The city containing the princess segment of the tile placed this turn (AMB-07), when the module is on.
    fn princess_city(&self) -> Option<SegmentId> {
        if !self.config.rules.modules.princess {
            return None;
        }
        let t = self.placed? as usize;
        let pt = self.board.tile(t);
        let i = self.catalogue().def(pt.kind).segments.iter().position(|s| s.princess)?;
        Some(self.board.root(self.board.segment_of(t, i as u8)))
    }

    /// Whether a princess removal is possible now (PRINCESS-02/04): her city holds at least one knight.
    pub(super) fn princess_has_knights(&self) -> bool {
        self.princess_city().is_some_and(|c| self.board.meeples_on(c) > 0)
    }

    /// Every knight of the princess's city, any player's, any type; identical meeples once.
    pub(super) fn princess_actions(&self, out: &mut Vec<Action>) {
        let Some(city) = self.princess_city() else { return };
        // Written straight into `out`, its own tail sorted and deduplicated: a playout lists these without
        // allocating.
        let start = out.len();
        out.extend(
            self.meeples
                .iter()
                .filter(|m| self.board.root(m.segment) == city)
                .map(|m| Action::RemoveKnight(m.reference())),
        );
        let knight = |a: &Action| match a {
            Action::RemoveKnight(r) => *r,
            _ => unreachable!("only knights were listed"),
        };
        out[start..].sort_unstable_by_key(knight);
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || knight(&out[kept - 1]) != knight(&out[i]) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    pub(super) fn check_princess(&self, r: MeepleRef) -> Result<(), IllegalReason> {
        self.find_meeple(r).ok_or(IllegalReason::NoSuchMeeple)?;
        match self.princess_city() {
            Some(c) if self.board.root(r.segment) == c => Ok(()),
            _ => Err(IllegalReason::NotInPrincessCity),
        }
    }

    /// PRINCESS-02: the knight goes home (the fairy, if attached, stays on its space: FAIRY-07/08).
    pub(super) fn remove_knight(&mut self, r: MeepleRef) {
        let i = self.find_meeple(r).expect("checked: the meeple is on the board");
        self.send_home(i, ReturnCause::Princess);
    }
}
