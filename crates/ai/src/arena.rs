//! Games between bots: one game played out (chance from the game's own shuffled stack, every other decision by the
//! seat's bot, each action checked by the engine), seat rotation, and the tally an arena report is made of.

use std::time::{Duration, Instant};

use carcassonne::{Action, Actor, Game, Record, Setup};
use thiserror::Error;

use crate::bot::{Bot, BotError};
use crate::spec::BotSpec;
use crate::stats::{EloEstimate, Z95, elo_estimate, wilson};

/// Why an arena game stopped early.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ArenaError {
    /// The setup is not valid.
    #[error("invalid setup: {0}")]
    Setup(String),
    /// A bot could not choose.
    #[error("{bot} (seat P{seat}) could not choose: {error}")]
    Bot {
        /// The bot's spec.
        bot: String,
        /// The seat, 1-based.
        seat: usize,
        /// Why.
        error: BotError,
    },
    /// A bot chose an action the engine refused.
    #[error("{bot} (seat P{seat}) chose the illegal action `{action}`: {reason}")]
    Illegal {
        /// The bot's spec.
        bot: String,
        /// The seat, 1-based.
        seat: usize,
        /// The action, in notation.
        action: String,
        /// The engine's reason.
        reason: String,
    },
}

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The deal's seed.
    pub seed: u64,
    /// For each seat, the index of its bot in the arena's list.
    pub seats: Vec<usize>,
    /// Final scores by seat.
    pub scores: Vec<i32>,
    /// Decisions each seat took (with more than one legal answer, or any: see `forced`).
    pub decisions: Vec<u64>,
    /// Decisions with a single legal answer, by seat (answered without thinking).
    pub forced: Vec<u64>,
    /// Time each seat spent choosing.
    pub thinking: Vec<Duration>,
    /// The longest single decision, by seat.
    pub longest: Vec<Duration>,
    /// Where each seat's points came from and what it did with its followers (empty when not known: a game
    /// resumed from a tally without its record).
    pub breakdown: Vec<crate::breakdown::SeatBreakdown>,
    /// The game's record, when asked for.
    pub record: Option<Record>,
}

/// Which bot sits in each seat in game `g`: seat `s` gets bot `(s + g) mod bots`, so over any `bots` consecutive
/// games each bot sits in each seat equally often.
pub fn seating(players: usize, bots: usize, g: u64) -> Vec<usize> {
    (0..players).map(|s| ((s as u64 + g) % bots as u64) as usize).collect()
}

/// The bots of game `g` by [`seating`], each seeded from the deal's seed, its seat and the game: the seats' bot
/// indices and the bots built for them.
pub fn seat_bots(specs: &[BotSpec], players: usize, deal: u64, g: u64) -> (Vec<usize>, Vec<Box<dyn Bot>>) {
    let seats = seating(players, specs.len(), g);
    let bots = seats
        .iter()
        .enumerate()
        .map(|(s, &b)| specs[b].build(deal.wrapping_mul(31).wrapping_add(s as u64 * 7 + g)))
        .collect();
    (seats, bots)
}

/// Play one game: `setup` (its seed shuffles the stack) with `bots[i]` in seat `i`.
///
/// # Errors
/// [`ArenaError`] if the setup is invalid, a bot cannot choose, or a bot chooses an illegal action.
pub fn play_game(setup: &Setup, bots: &mut [Box<dyn Bot>], keep_record: bool) -> Result<GameResult, ArenaError> {
    let mut game = Game::new(setup).map_err(|e| ArenaError::Setup(e.to_string()))?;
    let n = game.players();
    if bots.len() != n {
        return Err(ArenaError::Setup(format!("{} bots for {n} seats", bots.len())));
    }
    let mut record = keep_record.then(|| Record::new(setup.clone()));
    let mut r = GameResult {
        seed: setup.seed,
        seats: Vec::new(),
        scores: Vec::new(),
        decisions: vec![0; n],
        forced: vec![0; n],
        thinking: vec![Duration::ZERO; n],
        longest: vec![Duration::ZERO; n],
        breakdown: Vec::new(),
        record: None,
    };
    let mut tally = crate::breakdown::Tally::new(n);
    let mut legal = Vec::new();
    while !game.is_over() {
        let a = match game.decision().actor {
            Actor::Chance => Action::Draw(game.next_draw().expect("a draw step has a tile to draw")),
            Actor::Player(p) => {
                let s = p.index();
                game.legal_actions_into(&mut legal);
                let t = Instant::now();
                let a = bots[s].choose(&game, p).map_err(|error| ArenaError::Bot {
                    bot: bots[s].name(),
                    seat: s + 1,
                    error,
                })?;
                let dt = t.elapsed();
                r.thinking[s] += dt;
                r.longest[s] = r.longest[s].max(dt);
                r.decisions[s] += 1;
                if legal.len() == 1 {
                    r.forced[s] += 1;
                }
                a
            }
            Actor::Nobody => break,
        };
        if let Some(rec) = record.as_mut() {
            rec.push(&game, a);
        }
        let actor = game.decision().actor;
        tally.before(&game, a);
        if let Err(e) = game.apply(a) {
            let (bot, seat) = match actor {
                Actor::Player(p) => (bots[p.index()].name(), p.index() + 1),
                _ => ("chance".to_string(), 0),
            };
            return Err(ArenaError::Illegal { bot, seat, action: game.action_text(a), reason: e.reason.to_string() });
        }
        tally.after(&game);
    }
    tally.finish(&game);
    r.breakdown = tally.seats;
    r.scores = game.scores().to_vec();
    r.record = record;
    Ok(r)
}

/// What an arena report says about one bot.
#[derive(Clone, Debug)]
pub struct BotSummary {
    /// Its spec.
    pub spec: String,
    /// Seats it played (games × seats it held in them).
    pub seats: u64,
    /// Wins, a shared win counted as a share.
    pub wins: f64,
    /// The 95% Wilson interval of its win rate.
    pub win_interval: (f64, f64),
    /// Its mean score.
    pub mean_score: f64,
    /// Its mean margin: its score minus the best other score at the table.
    pub mean_margin: f64,
    /// Decisions it took, and of those with a single answer.
    pub decisions: u64,
    /// Decisions with a single legal answer.
    pub forced: u64,
    /// Time it spent choosing.
    pub thinking: Duration,
    /// Its longest decision.
    pub longest: Duration,
    /// Where its points came from and what it did with its followers, on average over `explained` seats.
    pub breakdown: crate::breakdown::SeatBreakdown,
    /// Seats whose breakdown is known.
    pub explained: u64,
}

impl BotSummary {
    /// Its win rate.
    pub fn win_rate(&self) -> f64 {
        if self.seats == 0 { 0.0 } else { self.wins / self.seats as f64 }
    }

    /// Decisions per second of thinking.
    pub fn decisions_per_second(&self) -> f64 {
        let s = self.thinking.as_secs_f64();
        if s > 0.0 { self.decisions as f64 / s } else { f64::INFINITY }
    }

    /// Mean time a decision with more than one legal answer took.
    pub fn mean_decision(&self) -> Duration {
        let d = self.decisions.saturating_sub(self.forced);
        if d == 0 { Duration::ZERO } else { self.thinking / d as u32 }
    }
}

/// A head-to-head comparison of two bots over the games where both sat at the table: every pair of their seats in a
/// game scores 1 to the higher score, ½ each on equal scores.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The first bot's index.
    pub a: usize,
    /// The second bot's index.
    pub b: usize,
    /// The first bot's Elo difference over the second, with its interval.
    pub elo: EloEstimate,
}

/// The tally of an arena.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Per bot, in the order given.
    pub bots: Vec<BotSummary>,
    /// Every pair of bots, first listed first.
    pub pairings: Vec<Pairing>,
}

/// Tally finished games between `specs`.
pub fn summarise(specs: &[BotSpec], results: &[GameResult]) -> Summary {
    let mut bots: Vec<BotSummary> = specs
        .iter()
        .map(|s| BotSummary {
            spec: s.to_string(),
            seats: 0,
            wins: 0.0,
            win_interval: (0.0, 1.0),
            mean_score: 0.0,
            mean_margin: 0.0,
            decisions: 0,
            forced: 0,
            thinking: Duration::ZERO,
            longest: Duration::ZERO,
            breakdown: Default::default(),
            explained: 0,
        })
        .collect();
    let k = specs.len();
    let mut pair_scores: Vec<Vec<f64>> = vec![Vec::new(); k * k];
    for r in results {
        let best = *r.scores.iter().max().expect("players");
        let winners = r.scores.iter().filter(|&&s| s == best).count() as f64;
        for (s, &b) in r.seats.iter().enumerate() {
            let bs = &mut bots[b];
            bs.seats += 1;
            if r.scores[s] == best {
                bs.wins += 1.0 / winners;
            }
            let other = r.scores.iter().enumerate().filter(|&(q, _)| q != s).map(|(_, &x)| x).max().unwrap_or(0);
            bs.mean_score += r.scores[s] as f64;
            bs.mean_margin += (r.scores[s] - other) as f64;
            bs.decisions += r.decisions[s];
            bs.forced += r.forced[s];
            bs.thinking += r.thinking[s];
            bs.longest = bs.longest.max(r.longest[s]);
            if let Some(b) = r.breakdown.get(s) {
                bs.breakdown.add(b);
                bs.explained += 1;
            }
        }
        for s in 0..r.seats.len() {
            for t in 0..r.seats.len() {
                let (a, b) = (r.seats[s], r.seats[t]);
                if a < b {
                    let x = match r.scores[s].cmp(&r.scores[t]) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    pair_scores[a * k + b].push(x);
                }
            }
        }
    }
    for b in &mut bots {
        if b.seats > 0 {
            b.mean_score /= b.seats as f64;
            b.mean_margin /= b.seats as f64;
            b.win_interval = wilson(b.wins, b.seats as f64, Z95);
        }
        b.breakdown = b.breakdown.scaled(b.explained as f64);
    }
    let mut pairings = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            pairings.push(Pairing { a, b, elo: elo_estimate(&pair_scores[a * k + b]) });
        }
    }
    Summary { games: results.len() as u64, bots, pairings }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_evenly() {
        let mut count = [[0; 3]; 4];
        for g in 0..6 {
            for (s, b) in seating(4, 3, g).into_iter().enumerate() {
                count[s][b] += 1;
            }
        }
        assert!(count.iter().all(|row| row == &[2, 2, 2]), "{count:?}");
        assert_eq!(seating(2, 2, 0), vec![0, 1]);
        assert_eq!(seating(2, 2, 1), vec![1, 0]);
    }
}
