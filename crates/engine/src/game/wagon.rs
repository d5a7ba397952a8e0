//! The wagon (SPEC WAGON-01..10): after a phase-3 scoring returns it, its owner may move it to an incomplete,
//! unoccupied road, city, monastery or abbey — within one space of where it stood (`c2`, WAGON-06) or adjacent to
//! the scored feature as a whole (`c1`, WAGON-07). Owners decide one at a time, clockwise from the active player
//! (WAGON-04, AMB-14); each move takes effect before the next owner decides.

use super::{Game, IllegalReason, PendingWagon, PlacedMeeple};
use crate::action::{Action, MeepleKind};
use crate::board::SegmentId;
use crate::catalogue::{RoadEnd, SegmentKind, Shape};
use crate::geom::{Pos, Side, Space};
use crate::rules::WagonMovement;

/// Wagons returned by this turn's scoring, waiting for their owners' moves in decision order (WAGON-04).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct WagonState {
    pub(super) pending: Vec<PendingWagon>,
}

impl Clone for WagonState {
    fn clone(&self) -> WagonState {
        WagonState { pending: self.pending.clone() }
    }

    /// Into the list already held (decision E-19): a search copies games without allocating.
    fn clone_from(&mut self, o: &WagonState) {
        self.pending.clone_from(&o.pending);
    }
}

impl Game {
    /// A wagon went back to the supply after a phase-3 scoring: its owner will decide whether it moves.
    pub(super) fn wagon_returned(&mut self, m: PlacedMeeple, scored: SegmentId) {
        let (t, _) = self.board.segment_tile(m.segment);
        let from = self.board.tile(t).space;
        self.wagon.pending.push(PendingWagon { player: m.player, from, scored });
    }

    /// Clockwise from the active player (WAGON-04).
    pub(super) fn order_wagons(&mut self) {
        let (n, a) = (self.players() as u8, self.active.0);
        self.wagon.pending.sort_by_key(|w| (w.player.0 + n - a) % n);
    }

    /// Whether the wagon may go onto this segment now: a wagon's kind of feature, incomplete, unoccupied (WAGON-05),
    /// not on the dragon's space (DRAGON-05).
    fn wagon_may_enter(&self, seg: SegmentId) -> bool {
        self.wagon_feature_open(seg) && !self.on_dragon(seg)
    }

    /// Whether the feature of `seg` may take the wagon: a wagon's kind of feature, incomplete, unoccupied.
    fn wagon_feature_open(&self, seg: SegmentId) -> bool {
        MeepleKind::Wagon.may_stand_on(self.board.kind(seg))
            && !self.board.is_complete(seg)
            && self.board.meeples_on(seg) == 0
    }

    /// The first pending wagon's destinations.
    pub(super) fn wagon_actions(&self, out: &mut Vec<Action>) {
        self.for_each_wagon_target(|segment| {
            out.push(Action::MoveWagon { segment });
            false
        });
    }

    /// Call `f` with each of the first pending wagon's destinations, in the listing's order, until it returns
    /// `true`; whether it did. Nothing is collected under the C2 rule, so asking allocates nothing there.
    fn for_each_wagon_target(&self, mut f: impl FnMut(SegmentId) -> bool) -> bool {
        let Some(w) = self.wagon.pending.first() else { return false };
        match self.config.rules.wagon_movement {
            WagonMovement::C2 => {
                // WAGON-06: a segment on the wagon's own tile or the 8 around it (whole spaces, AMB-22).
                for dy in [1, 0, -1] {
                    for dx in [-1, 0, 1] {
                        let q = Space::new(w.from.x + dx, w.from.y + dy);
                        for t in self.board.tile_numbers_in(q) {
                            let pt = self.board.tile(t);
                            let n = self.catalogue().def(pt.kind).segments.len();
                            for i in 0..n {
                                let seg = SegmentId(pt.first_segment + i as u16);
                                if self.wagon_may_enter(seg) && f(seg) {
                                    return true;
                                }
                            }
                        }
                    }
                }
                false
            }
            WagonMovement::C1 => {
                // WAGON-07: any segment of a feature adjacent to the scored feature as a whole.
                let mut targets = Vec::new();
                self.c1_adjacent(w.scored, &mut targets);
                for r in targets {
                    if self.wagon_feature_open(r) {
                        // Any tile of the target, except on the dragon's space (DRAGON-05).
                        for s in self.board.members(r).filter(|&s| !self.on_dragon(s)) {
                            if f(s) {
                                return true;
                            }
                        }
                    }
                }
                false
            }
        }
    }

    /// Whether the first pending wagon has at least one destination.
    pub(super) fn first_wagon_can_move(&self) -> bool {
        self.for_each_wagon_target(|_| true)
    }

    pub(super) fn check_wagon(&self, segment: SegmentId) -> Result<(), IllegalReason> {
        if (segment.0 as usize) >= self.board.segment_count() {
            return Err(IllegalReason::WagonTarget);
        }
        if self.for_each_wagon_target(|s| s == segment) { Ok(()) } else { Err(IllegalReason::WagonTarget) }
    }

    /// The roots of the features adjacent to `scored` under the C1 rule (WAGON-07, AMB-12): a road end touching the
    /// other feature (a gate, a monastery), a monastery inside a city, roads ending at the same junction, an abbey
    /// bordering the feature. Never through a field. Sorted, each once, `scored` itself excluded.
    fn c1_adjacent(&self, scored: SegmentId, out: &mut Vec<SegmentId>) {
        let cat = self.catalogue();
        let mut add = |s: SegmentId| out.push(self.board.root(s));
        for m in self.board.members(scored) {
            let (t, local) = self.board.segment_tile(m);
            let pt = *self.board.tile(t);
            let def = cat.def(pt.kind);
            let seg = &def.segments[local as usize];
            let on_tile = |i: usize| self.board.segment_of(t, i as u8);
            let is_junction = |e: Option<RoadEnd>| matches!(e, Some(RoadEnd::Junction | RoadEnd::Village));
            for (i, other) in def.segments.iter().enumerate() {
                if i == local as usize {
                    continue;
                }
                let adjacent = match (seg.kind, other.kind) {
                    // A road end at a city gate or a monastery, seen from either side.
                    (SegmentKind::Road, SegmentKind::City) => seg.end == Some(RoadEnd::CityGate(i as u8)),
                    (SegmentKind::City, SegmentKind::Road) => other.end == Some(RoadEnd::CityGate(local)),
                    (SegmentKind::Road, SegmentKind::Monastery) => seg.end == Some(RoadEnd::Monastery),
                    (SegmentKind::Monastery, SegmentKind::Road) => other.end == Some(RoadEnd::Monastery),
                    // Roads meeting at the junction where this road ends.
                    (SegmentKind::Road, SegmentKind::Road) => is_junction(seg.end) && is_junction(other.end),
                    // A monastery inside a city.
                    (SegmentKind::Monastery, SegmentKind::City) => seg.inside == Some(i as u8),
                    (SegmentKind::City, SegmentKind::Monastery) => other.inside == Some(local),
                    _ => false,
                };
                if adjacent {
                    add(on_tile(i));
                }
            }
            // An abbey borders the feature edge to edge, in either direction.
            let o = cat.oriented(pt.kind, pt.placement.rotation());
            for side in Side::ALL {
                // The tile presenting an edge across this side: a square, an abbey, or a triangle's leg (HALF-15).
                let Some(n) = self.board.tile_facing(pt.space, side) else { continue };
                let nt = *self.board.tile(n);
                let ndef = cat.def(nt.kind);
                let no = cat.oriented(nt.kind, nt.placement.rotation());
                let theirs = no.pos_segment[Pos::on_side(side.opposite(), 1).0 as usize];
                if def.shape == Shape::Abbey {
                    if theirs != crate::catalogue::NO_SEGMENT
                        && matches!(ndef.segments[theirs as usize].kind, SegmentKind::Road | SegmentKind::City)
                    {
                        add(self.board.segment_of(n, theirs));
                    }
                } else if ndef.shape == Shape::Abbey && o.pos_segment[Pos::on_side(side, 1).0 as usize] == local {
                    add(self.board.segment_of(n, 0));
                }
            }
        }
        let me = self.board.root(scored);
        out.retain(|&r| r != me);
        out.sort_unstable();
        out.dedup();
    }
}
