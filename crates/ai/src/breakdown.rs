//! Where a seat's points came from, and what it did with its followers: the arena's explanation of a result.
//!
//! Points are counted from the game's own scoring events as they happen, by the kind of feature (city, road,
//! monastery, field, barn, and the fairy's points), each split into points scored during the game (a completed
//! feature, a barn's field) and at the final scoring. Followers are counted as they are placed (by the kind of
//! feature they went to) and as they stand idle in the supply at the end. Every point a seat has comes from one of
//! these events, so the parts add up to the final score (a test checks it with every module).

use carcassonne::game::{Event, ScoreReason, ScoreTime};
use carcassonne::{Action, Game, SegmentKind};

/// The kinds points are counted by, in report order.
pub const POINT_KINDS: [&str; 6] = ["city", "road", "monastery", "field", "barn", "fairy"];
/// The kinds of feature followers are counted by, in report order.
pub const ROLE_KINDS: [&str; 4] = ["city", "road", "monastery", "field"];

/// One seat's account of a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatBreakdown {
    /// Points scored during the game, by [`POINT_KINDS`].
    pub during: [f64; 6],
    /// Points scored at the final scoring, by [`POINT_KINDS`].
    pub at_end: [f64; 6],
    /// Followers placed (meeples, mayors, wagons; through the portal and crop circles too), by [`ROLE_KINDS`].
    pub placed: [f64; 4],
    /// Normal meeples in the supply when the game ended.
    pub idle_at_end: f64,
}

impl SeatBreakdown {
    /// Every point counted.
    pub fn total(&self) -> f64 {
        self.during.iter().chain(&self.at_end).sum()
    }

    /// Add `other` to this one (for means over games).
    pub fn add(&mut self, other: &SeatBreakdown) {
        for i in 0..6 {
            self.during[i] += other.during[i];
            self.at_end[i] += other.at_end[i];
        }
        for i in 0..4 {
            self.placed[i] += other.placed[i];
        }
        self.idle_at_end += other.idle_at_end;
    }

    /// This one divided by `n` (a mean over `n` games).
    pub fn scaled(&self, n: f64) -> SeatBreakdown {
        let mut s = self.clone();
        if n > 0.0 {
            s.during.iter_mut().chain(s.at_end.iter_mut()).chain(s.placed.iter_mut()).for_each(|x| *x /= n);
            s.idle_at_end /= n;
        }
        s
    }
}

/// The kind of feature `a` puts a follower on, if it does (a deployment on the tile just placed, through the
/// portal, or by a crop circle).
pub fn deployed_kind(game: &Game, a: Action) -> Option<SegmentKind> {
    match a {
        Action::Deploy { segment, .. } => game.placed_tile().map(|t| {
            let pt = game.board().tile(t);
            game.catalogue().def(pt.kind).segments[segment as usize].kind
        }),
        Action::Portal { segment, .. } | Action::CropAdd { segment, .. } => Some(game.board().kind(segment)),
        _ => None,
    }
}

fn role(kind: SegmentKind) -> Option<usize> {
    match kind {
        SegmentKind::City => Some(0),
        SegmentKind::Road => Some(1),
        SegmentKind::Monastery => Some(2),
        SegmentKind::Field => Some(3),
        SegmentKind::Crop => None,
    }
}

/// Counts a game as it is played: call [`Tally::before`] with each action before it is applied and
/// [`Tally::after`] after, then [`Tally::finish`] at the end.
#[derive(Clone, Debug)]
pub struct Tally {
    /// By seat.
    pub seats: Vec<SeatBreakdown>,
}

impl Tally {
    /// For a game of `players`.
    pub fn new(players: usize) -> Tally {
        Tally { seats: vec![SeatBreakdown::default(); players] }
    }

    /// `a` is about to be taken in `game`: count the follower it places, if any.
    pub fn before(&mut self, game: &Game, a: Action) {
        let carcassonne::Actor::Player(p) = game.decision().actor else { return };
        if let Some(i) = deployed_kind(game, a).and_then(role) {
            self.seats[p.index()].placed[i] += 1.0;
        }
    }

    /// Count the points of the events the last action made.
    pub fn after(&mut self, game: &Game) {
        for e in game.last_events() {
            match e {
                Event::Scored(s) => {
                    let kind = match (s.reason, s.feature) {
                        (ScoreReason::BarnPlaced | ScoreReason::BarnConnected | ScoreReason::Barns, _) => 4,
                        (_, SegmentKind::City) => 0,
                        (_, SegmentKind::Road) => 1,
                        (_, SegmentKind::Monastery) => 2,
                        (_, SegmentKind::Field) => 3,
                        (_, SegmentKind::Crop) => continue,
                    };
                    for w in s.winners.iter() {
                        let seat = &mut self.seats[w.index()];
                        match s.when {
                            ScoreTime::Turn => seat.during[kind] += f64::from(s.points),
                            ScoreTime::Final => seat.at_end[kind] += f64::from(s.points),
                        }
                    }
                }
                Event::FairyPoints { player, points, .. } => {
                    let seat = &mut self.seats[player.index()];
                    if game.is_over() {
                        seat.at_end[5] += f64::from(*points);
                    } else {
                        seat.during[5] += f64::from(*points);
                    }
                }
                _ => {}
            }
        }
    }

    /// The game is over: count the idle followers.
    pub fn finish(&mut self, game: &Game) {
        for (p, seat) in self.seats.iter_mut().enumerate() {
            seat.idle_at_end =
                f64::from(game.supply_of(carcassonne::Player(p as u8), carcassonne::action::MeepleKind::Normal));
        }
    }
}

/// The account of a recorded game, replayed.
///
/// # Errors
/// When the record does not replay.
pub fn of_record(record: &carcassonne::Record) -> Result<Vec<SeatBreakdown>, String> {
    let mut game = Game::new(&record.setup).map_err(|e| e.to_string())?;
    let mut tally = Tally::new(game.players());
    for (i, text) in record.actions.iter().enumerate() {
        let a = game.parse_action(text).map_err(|e| format!("action {}: {}", i + 1, e.reason))?;
        tally.before(&game, a);
        game.apply(a).map_err(|e| format!("action {}: {e}", i + 1))?;
        tally.after(&game);
    }
    tally.finish(&game);
    Ok(tally.seats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;
    use rand::SeedableRng;

    #[test]
    fn the_parts_add_up_to_the_final_scores_with_every_module() {
        let mut kinds_seen = [false; 6];
        for seed in 0..30u64 {
            let mut s = Setup::new(2 + (seed % 4) as u8);
            s.seed = seed;
            s.sets = ["base", "am", "pd", "cc", "half"].iter().map(|x| x.to_string()).collect();
            s.switch_on_set_modules(false);
            let mut g = Game::new(&s).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut tally = Tally::new(g.players());
            let mut legal = Vec::new();
            while !g.is_over() {
                g.legal_actions_into(&mut legal);
                let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                tally.before(&g, a);
                g.apply(a).unwrap();
                tally.after(&g);
            }
            tally.finish(&g);
            for (p, seat) in tally.seats.iter().enumerate() {
                assert_eq!(seat.total(), f64::from(g.scores()[p]), "seed {seed}, P{}: {seat:?}", p + 1);
                for (k, seen) in kinds_seen.iter_mut().enumerate() {
                    *seen |= seat.during[k] + seat.at_end[k] > 0.0;
                }
            }
        }
        assert_eq!(kinds_seen, [true; 6], "every kind of points came up");
    }
}
