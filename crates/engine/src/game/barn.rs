//! The barn (SPEC BARN-01..07): placed as the phase-2 action on a corner of the new tile where four field corners
//! meet; it scores the farmers of its field when placed (BARN-04) or joined (BARN-05), closes the field to farmers
//! (BARN-03), and scores for its owner at the end (BARN-07).

use super::{Event, Game, IllegalReason, MAX_PLAYERS, PlacedBarn, Players, ScoreReason, ScoreTime, Scoring};
use crate::action::Action;
use crate::board::{Board, RootSet, SegmentId};
use crate::catalogue::SegmentKind;
use crate::geom::Corner;

/// The barns' part of a game's state (BARN-01..05).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct BarnState {
    /// The barns on the board, in the order they were placed.
    pub(super) placed: Vec<PlacedBarn>,
    /// Barns in each player's supply.
    pub(super) left: [u8; MAX_PLAYERS],
    /// The field root of the barn placed this turn (BARN-04 rather than BARN-05).
    pub(super) this_turn: Option<SegmentId>,
}

impl BarnState {
    /// Back to the start of a game of `players`, each with a barn if the module is on, keeping the memory held.
    pub(super) fn restart(&mut self, players: usize, on: bool) {
        let BarnState { placed, left, this_turn } = self;
        placed.clear();
        *left = [0; MAX_PLAYERS];
        left[..players].fill(on as u8);
        *this_turn = None;
    }
}

impl Clone for BarnState {
    fn clone(&self) -> BarnState {
        BarnState { placed: self.placed.clone(), left: self.left, this_turn: self.this_turn }
    }

    /// Into the memory already held, as [`Game`]'s `clone_from` (every field named).
    fn clone_from(&mut self, o: &BarnState) {
        let BarnState { placed, left, this_turn } = self;
        placed.clone_from(&o.placed);
        *left = o.left;
        *this_turn = o.this_turn;
    }
}

impl Game {
    /// The field segment at corner `c` of tile `t` if a barn may stand there (BARN-02, VAR-05; with triangles
    /// HALF-15, VAR-21, AMB-16): the four spaces at the point are filled, every tile reaching the point shows field
    /// there, and no space leaves the point uncovered unless `halflings.barn_gaps=allowed`.
    fn barn_spot(&self, t: usize, c: Corner) -> Result<SegmentId, &'static str> {
        let cat = &self.config.catalogue;
        let s = self.board.tile(t).space;
        // Cheap tests first: the new tile's own corner, then whether the other three spaces are filled.
        self.board.field_corner(cat, t, c).ok_or("every tile corner there must be field")?;
        let point = Board::corner_point(s, c);
        if point[1..].iter().any(|&(q, _)| !self.board.is_filled(q)) {
            return Err("four tiles must meet there");
        }
        let gaps_allowed = self.config.rules.halflings_barn_gaps == crate::rules::HalflingsBarnGaps::Allowed;
        for (q, cq) in point {
            let mut tiles = 0;
            let mut lone_triangle = None;
            for tq in self.board.tile_numbers_in(q) {
                tiles += 1;
                if let crate::board::Placement::Triangle(r) = self.board.tile(tq).placement {
                    lone_triangle = Some(r);
                }
                if self.board.covers_corner(tq, cq) {
                    self.board.field_corner(cat, tq, cq).ok_or("every tile corner there must be field")?;
                }
            }
            if tiles == 0 {
                return Err("four tiles must meet there");
            }
            // A lone triangle leaves an empty half, which touches every corner of the space but the triangle's right
            // angle: the point is then not fully covered (HALF-15, "as if four square tiles").
            let gap = tiles == 1 && lone_triangle.is_some_and(|r| r != cq);
            if gap && !gaps_allowed {
                return Err("a triangular gap touches that point (halflings.barn_gaps=forbidden)");
            }
        }
        let seg = self.board.field_corner(cat, t, c).ok_or("every tile corner there must be field")?;
        if !self.config.rules.barn_allow_second_barn && self.board.barns_on(seg) > 0 {
            return Err("that field already has a barn");
        }
        Ok(seg)
    }

    /// Phase 2: the barn at each corner of the placed tile where it may stand.
    pub(super) fn barn_actions(&self, out: &mut Vec<Action>) {
        if !self.config.rules.modules.barn || self.barn.left[self.active.index()] == 0 {
            return;
        }
        let Some(t) = self.placed else { return };
        for corner in Corner::ALL {
            if self.barn_spot(t as usize, corner).is_ok() {
                out.push(Action::PlaceBarn { corner });
            }
        }
    }

    pub(super) fn check_barn(&self, c: Corner) -> Result<(), IllegalReason> {
        if !self.config.rules.modules.barn {
            return Err(IllegalReason::ModuleOff("barn"));
        }
        if self.barn.left[self.active.index()] == 0 {
            return Err(IllegalReason::EmptySupply("barn"));
        }
        let t = self.placed.expect("phase 2 follows a placement") as usize;
        self.barn_spot(t, c).map(|_| ()).map_err(IllegalReason::BarnCorner)
    }

    pub(super) fn place_barn(&mut self, corner: Corner) {
        let t = self.placed.expect("phase 2 follows a placement") as usize;
        let segment = self.barn_spot(t, corner).expect("checked");
        let player = self.active;
        self.barn.left[player.index()] -= 1;
        self.board.add_barn(segment);
        self.barn.placed.push(PlacedBarn { player, segment, space: self.board.tile(t).space, corner });
        self.barn.this_turn = Some(self.board.root(segment));
    }

    /// Phase 3: fields of this turn's tile that now hold both a barn and farmers are scored and the farmers return:
    /// 3 per completed city if the barn came this turn (BARN-04), else 1 (BARN-05).
    pub(super) fn score_barn_fields(&mut self) {
        if self.barn.placed.is_empty() {
            return;
        }
        let Some(t) = self.placed else { return };
        let pt = *self.board.tile(t as usize);
        let n = self.catalogue().def(pt.kind).segments.len();
        // The tile's fields, each once, in order (a set held inline: this runs at every scoring of a game with barns,
        // a search's playouts included).
        let mut fields = RootSet::default();
        for i in 0..n {
            let r = self.board.root(SegmentId(pt.first_segment + i as u16));
            if self.board.kind(r) == SegmentKind::Field {
                fields.insert(r);
            }
        }
        for &r in fields.sorted() {
            if self.board.barns_on(r) == 0 || self.board.meeples_on(r) == 0 {
                continue;
            }
            let fresh = self.barn.this_turn.is_some_and(|b| self.board.root(b) == r);
            let (per, reason) = if fresh { (3, ScoreReason::BarnPlaced) } else { (1, ScoreReason::BarnConnected) };
            let cities = self.board.completed_city_count(&self.config.catalogue, r);
            let points = per * cities as u32;
            let winners = self.majority(r);
            self.award(winners, points);
            let bonus = self.fairy_bonus(r, reason);
            let returned = self.return_meeples(r);
            self.push_field_scoring(ScoreTime::Turn, reason, r, points, winners, cities, returned);
            self.pay_fairy(bonus, r);
        }
    }

    /// Final scoring of barns (BARN-07): in each field with barns, the players with the most barns score 4 per
    /// completed city.
    pub(super) fn final_barns(&mut self) {
        let mut set = RootSet::default();
        for b in &self.barn.placed {
            set.insert(self.board.root(b.segment));
        }
        for &r in set.sorted() {
            let mut count = [0u32; MAX_PLAYERS];
            for b in &self.barn.placed {
                if self.board.root(b.segment) == r {
                    count[b.player.index()] += 1;
                }
            }
            let best = *count.iter().max().expect("players");
            let winners =
                Players(count.iter().enumerate().filter(|(_, c)| **c == best).fold(0, |acc, (i, _)| acc | 1 << i));
            let cities = self.board.completed_city_count(&self.config.catalogue, r);
            let points = 4 * cities as u32;
            self.award(winners, points);
            self.push_field_scoring(ScoreTime::Final, ScoreReason::Barns, r, points, winners, cities, 0);
        }
    }

    /// Record a barn-related field scoring.
    #[allow(clippy::too_many_arguments)]
    fn push_field_scoring(
        &mut self,
        when: ScoreTime,
        reason: ScoreReason,
        at: SegmentId,
        points: u32,
        winners: Players,
        cities: usize,
        returned: u8,
    ) {
        self.events.push(Event::Scored(Scoring {
            when,
            reason,
            feature: SegmentKind::Field,
            at,
            complete: false,
            points,
            winners,
            tiles: 0,
            pennants: 0,
            cities: cities as u8,
            returned,
        }));
    }
}
