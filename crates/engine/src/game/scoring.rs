//! Base scoring: majorities (BASE-10), values during the game (BASE-11, VAR-01), returning meeples (BASE-12),
//! unoccupied completions (BASE-13) and final scoring (BASE-16).

use super::{Event, Game, MAX_PLAYERS, Players, ScoreReason, ScoreTime, Scoring};
use crate::board::{FeatureInfo, RootSet, SegmentId};
use crate::catalogue::SegmentKind;
use crate::rules::TinyCityPoints;

impl Game {
    /// The players with the highest strength on a feature, which must be at least 1 (BASE-10, MAYOR-04).
    pub(super) fn majority(&self, root: SegmentId) -> Players {
        let mut strength = [0u32; MAX_PLAYERS];
        for m in &self.meeples {
            if self.board.root(m.segment) == root {
                strength[m.player.index()] += self.strength(m, root);
            }
        }
        let best = *strength.iter().max().expect("non-empty");
        if best == 0 {
            return Players(0);
        }
        let tied =
            Players(strength.iter().enumerate().filter(|(_, s)| **s == best).fold(0, |acc, (i, _)| acc | 1 << i));
        self.hill_tiebreak(root, tied)
    }

    pub(super) fn award(&mut self, winners: Players, points: u32) {
        for p in winners.iter() {
            self.scores[p.index()] += points as i32;
        }
    }

    /// Phase 3: score every feature this turn's placement completed (BASE-10..14).
    pub(super) fn score_completed(&mut self) {
        let mut completed = std::mem::take(&mut self.completed);
        // BASE-14: a deterministic order, by the space of the feature's oldest segment, then by segment.
        if completed.len() > 1 {
            let b = &self.board;
            completed.sort_by_key(|&c| {
                let r = b.root(c);
                (b.tile(b.segment_tile(r).0).space, r)
            });
        }
        for &c in &completed {
            let root = self.board.root(c);
            let info = self.board.feature(root);
            let pennants = info.pennants;
            let Some(points) = self.completed_value(root, &info) else { continue };
            let tiles = self.linear_count(info.tiles, info.spaces) as u16;
            if info.meeples == 0 {
                // BASE-13: scores nothing, stays complete.
                continue;
            }
            let winners = self.majority(root);
            self.award(winners, points);
            let bonus = self.fairy_bonus(root, ScoreReason::Completed);
            let returned = self.return_meeples(root);
            self.events.push(Event::Scored(Scoring {
                when: ScoreTime::Turn,
                reason: ScoreReason::Completed,
                feature: info.kind,
                at: root,
                complete: true,
                points,
                winners,
                tiles,
                pennants,
                cities: 0,
                returned,
            }));
            self.pay_fairy(bonus, root);
        }
        self.completed = completed;
    }

    /// Final scoring (BASE-16): incomplete roads, cities and monasteries, then fields, then barns (BARN-07). Meeples
    /// stay where they are; wagons do not move (WAGON-09).
    pub(super) fn final_scoring(&mut self) {
        let mut set = RootSet::default();
        for m in &self.meeples {
            set.insert(self.board.root(m.segment));
        }
        let roots = set.sorted();
        let order = [SegmentKind::Road, SegmentKind::City, SegmentKind::Monastery, SegmentKind::Field];
        for kind in order {
            for &root in roots {
                if self.board.kind(root) != kind {
                    continue;
                }
                let info = self.board.feature(root);
                let count = self.linear_count(info.tiles, info.spaces);
                let Some((points, n_cities)) = self.final_value(root, &info) else { continue };
                let winners = self.majority(root);
                self.award(winners, points);
                self.events.push(Event::Scored(Scoring {
                    when: ScoreTime::Final,
                    reason: ScoreReason::Final,
                    feature: kind,
                    at: root,
                    complete: info.complete,
                    points,
                    winners,
                    tiles: count as u16,
                    pennants: info.pennants,
                    cities: n_cities,
                    returned: 0,
                }));
                let bonus = self.fairy_bonus(root, ScoreReason::Final);
                self.pay_fairy(bonus, root);
            }
        }
        self.final_barns();
    }

    /// What a completed road, city or monastery scores when it is completed (BASE-11, VAR-01, HALF-13, HALF-17);
    /// `None` for a field or a crop area, which are never scored that way.
    fn completed_value(&self, root: SegmentId, info: &FeatureInfo) -> Option<u32> {
        // Tiles, or spaces with triangles (HALF-11, VAR-16).
        let count = self.linear_count(info.tiles, info.spaces);
        let pennants = info.pennants as u32;
        Some(match info.kind {
            SegmentKind::Road => count,
            SegmentKind::City if count == 2 && self.config.rules.tiny_city_points == TinyCityPoints::Two => {
                count + pennants
            }
            SegmentKind::City => 2 * (count + pennants),
            SegmentKind::Monastery => {
                // 9, or with `oct2015` every tile of the block (HALF-13); +3 per vineyard there (HALF-17).
                let space = self.space_of(root);
                self.monastery_count(space) + 3 * self.vineyards_around(space)
            }
            SegmentKind::Field | SegmentKind::Crop => return None,
        })
    }

    /// What a feature scores in the final scoring (BASE-16), with the number of completed cities a field touches
    /// (0 for the others): a field 3 per completed city; `None` for a crop area.
    fn final_value(&self, root: SegmentId, info: &FeatureInfo) -> Option<(u32, u8)> {
        let count = self.linear_count(info.tiles, info.spaces);
        Some(match info.kind {
            SegmentKind::Road => (count, 0),
            SegmentKind::City => (count + info.pennants as u32, 0),
            SegmentKind::Monastery => (self.monastery_count(self.space_of(root)), 0),
            SegmentKind::Field => {
                let cities = self.board.completed_city_count(&self.config.catalogue, root);
                (3 * cities as u32, cities as u8)
            }
            SegmentKind::Crop => return None,
        })
    }

    /// What the feature of segment `s` is worth now, to whoever holds it: a completed road, city or monastery what
    /// its completion scores, anything else what the final scoring would give it if the game ended now (a field 3 a
    /// completed city; no barn's points). `None` for a crop area. A table shows it beside a spot.
    pub fn feature_points(&self, s: SegmentId) -> Option<u32> {
        let root = self.board.root(s);
        let info = self.board.feature(root);
        if info.complete
            && let Some(points) = self.completed_value(root, &info)
        {
            return Some(points);
        }
        self.final_value(root, &info).map(|(points, _)| points)
    }
}
