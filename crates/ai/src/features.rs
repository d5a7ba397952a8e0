//! What the learned value reads of a position, for each player: a fixed list of numbers ([`NAMES`]) gathered in one
//! pass over the followers on the table, beside the hand-written estimate itself.
//!
//! Every number is something every player can see (the table, the scores, the supplies, how many tiles are left);
//! nothing here looks at the order of the stack or at anyone's triangles, so a model over these features sees what
//! `hard` sees. Each is scaled to be about 0..1 in a base game, so one set of weights serves every player count.
//!
//! [`Evaluator::features`] writes them; `carc datagen` stores them with each position's outcome, and
//! `python/train_value.py` fits [`crate::value`] to them.

use carcassonne::action::MeepleKind;
use carcassonne::board::SegmentId;
use carcassonne::game::MAX_PLAYERS;
use carcassonne::{Game, Player, SegmentKind};

use crate::eval::Evaluator;

/// The features, in order. Changing the list changes [`VERSION`].
pub const NAMES: [&str; COUNT] = [
    "turns_left",
    "to_move",
    "seats_to_turn",
    "players",
    "hand_rest",
    "hand_rest_others",
    "score_lead",
    "road_led",
    "road_tied",
    "road_trailing",
    "road_led_tiles",
    "road_led_ends",
    "road_followers",
    "city_led",
    "city_tied",
    "city_trailing",
    "city_led_tiles",
    "city_led_ends",
    "city_led_pennants",
    "city_led_one_end",
    "city_led_one_end_tiles",
    "city_followers",
    "city_others_led_tiles",
    "monastery_led",
    "monastery_filled",
    "monastery_empty",
    "field_led",
    "field_tied",
    "field_trailing",
    "field_led_complete",
    "field_led_open",
    "field_followers",
    "supply_normal",
    "supply_special",
    "supply_figures",
    "triangles",
];

/// How many features a player has.
pub const COUNT: usize = 36;

/// The feature list's version, stored in data files and in the generated weights so the two cannot be mixed up.
pub const VERSION: u32 = 1;

/// Each player's features (rows past the player count are 0).
pub type Rows = [[f32; COUNT]; MAX_PLAYERS];

/// How a player stands on one feature.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    Led,
    Tied,
    Trailing,
    Absent,
}

impl Evaluator {
    /// Each player's features at `game` (see [`NAMES`]). Also returns the hand-written estimate it includes, computed
    /// with this evaluator's constants (`carc datagen` uses `hard`'s, so a model is trained on what `hard` computes).
    pub fn features(&mut self, game: &Game, out: &mut Rows) -> crate::eval::Points {
        let hand = self.hand_points(game);
        let n = game.players();
        *out = [[0.0; COUNT]; MAX_PLAYERS];
        let board = game.board();
        let stack = game.stack_len() as f32;
        let scores = game.scores();
        let actor = match game.decision().actor {
            carcassonne::Actor::Player(p) => p.index(),
            _ => game.active_player().index(),
        };
        for p in 0..n {
            let others = (0..n).filter(|&q| q != p);
            let best_other = others.clone().map(|q| scores[q]).max().unwrap_or(0);
            let rest_others = others.map(|q| hand[q] - scores[q] as f32).sum::<f32>() / (n - 1).max(1) as f32;
            let f = &mut out[p];
            f[0] = stack / n as f32 / 36.0;
            f[1] = (p == actor) as u8 as f32;
            f[2] = ((p + n - actor) % n) as f32 / n as f32;
            f[3] = n as f32 / 4.0;
            f[4] = (hand[p] - scores[p] as f32) / 30.0;
            f[5] = rest_others / 30.0;
            f[6] = (scores[p] - best_other) as f32 / 50.0;
            let pl = Player(p as u8);
            f[32] = game.supply_of(pl, MeepleKind::Normal) as f32 / 7.0;
            f[33] = (game.supply_of(pl, MeepleKind::Mayor) + game.supply_of(pl, MeepleKind::Wagon)) as f32;
            f[34] = (game.abbeys_left(pl) + game.barns_left(pl)) as f32;
            f[35] = game.hand(pl).len() as f32 / 3.0;
        }
        for hi in 0..self.held_len() {
            let (root, strength, followers) = self.held_at(hi);
            let best = *strength.iter().max().expect("players");
            let leaders = strength.iter().filter(|&&s| s == best).count();
            let kind = board.kind(root);
            let (complete, open) = if kind == SegmentKind::Field { self.border_cities(game, root) } else { (0, 0) };
            for p in 0..n {
                let standing = match (strength[p], followers[p]) {
                    (s, _) if s > 0 && s == best && leaders == 1 => Standing::Led,
                    (s, _) if s > 0 && s == best => Standing::Tied,
                    (_, k) if k > 0 => Standing::Trailing,
                    _ => Standing::Absent,
                };
                let f = &mut out[p];
                let mine = followers[p] as f32;
                let led = matches!(standing, Standing::Led | Standing::Tied);
                let count = |f: &mut [f32; COUNT], at: usize| match standing {
                    Standing::Led => f[at] += 1.0 / 4.0,
                    Standing::Tied => f[at + 1] += 1.0 / 4.0,
                    Standing::Trailing => f[at + 2] += 1.0 / 4.0,
                    Standing::Absent => {}
                };
                match kind {
                    SegmentKind::Road => {
                        count(f, 7);
                        if led {
                            f[10] += board.tile_count(root) as f32 / 10.0;
                            f[11] += board.open_ends(root) as f32 / 4.0;
                        }
                        f[12] += mine / 4.0;
                    }
                    SegmentKind::City => {
                        count(f, 13);
                        let tiles = board.tile_count(root) as f32 / 10.0;
                        let ends = board.open_ends(root);
                        if led {
                            f[16] += tiles;
                            f[17] += ends as f32 / 4.0;
                            f[18] += board.pennants_of(root) as f32 / 4.0;
                            if ends == 1 {
                                f[19] += 1.0 / 4.0;
                                f[20] += tiles;
                            }
                        } else if standing == Standing::Absent && best > 0 {
                            f[22] += tiles;
                        }
                        f[21] += mine / 4.0;
                    }
                    SegmentKind::Monastery => {
                        if led {
                            let (t, _) = board.segment_tile(root);
                            let filled = 1 + board.filled_neighbours(board.tile(t).space);
                            f[23] += 1.0 / 2.0;
                            f[24] += filled as f32 / 9.0;
                            f[25] += 9u32.saturating_sub(filled) as f32 / 9.0;
                        }
                    }
                    SegmentKind::Field => {
                        count(f, 26);
                        if led {
                            f[29] += complete as f32 / 5.0;
                            f[30] += open as f32 / 5.0;
                        }
                        f[31] += mine / 4.0;
                    }
                    SegmentKind::Crop => {}
                }
            }
        }
        hand
    }

    /// The cities a field borders: how many are complete and how many open.
    fn border_cities(&mut self, game: &Game, field: SegmentId) -> (u32, u32) {
        self.collect_border_cities(game, field);
        let board = game.board();
        let complete = self.cities_found().iter().filter(|&&c| board.is_complete(c)).count() as u32;
        (complete, self.cities_found().len() as u32 - complete)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;
    use rand::SeedableRng;

    #[test]
    fn the_names_match_the_count() {
        assert_eq!(NAMES.len(), COUNT);
        let mut names = NAMES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), COUNT, "names are unique");
    }

    /// Over random games, every feature stays finite and within a few units, seats past the player count stay 0,
    /// and the counts agree with the followers on the table.
    #[test]
    fn features_are_bounded_and_count_the_followers() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        let mut e = Evaluator::default();
        let mut rows = [[0.0; COUNT]; MAX_PLAYERS];
        for seed in 0..12 {
            let mut s = Setup::new(2 + (seed % 3) as u8);
            s.seed = seed;
            let mut g = Game::new(&s).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                g.apply_unchecked(a);
                e.features(&g, &mut rows);
                let n = g.players();
                for (p, row) in rows.iter().enumerate() {
                    for (i, &v) in row.iter().enumerate() {
                        assert!(v.is_finite() && v.abs() < 20.0, "{} = {v}", NAMES[i]);
                        if p >= n {
                            assert_eq!(v, 0.0);
                        }
                    }
                    if p < n {
                        let on: usize = g
                            .meeples()
                            .iter()
                            .filter(|m| m.player.index() == p && m.kind == MeepleKind::Normal)
                            .count();
                        let counted = 4.0 * (row[12] + row[21] + row[31]);
                        let monks = g
                            .meeples()
                            .iter()
                            .filter(|m| m.player.index() == p && g.board().kind(m.segment) == SegmentKind::Monastery)
                            .count();
                        assert_eq!(counted.round() as usize + monks, on);
                        assert_eq!((row[32] * 7.0).round() as usize, 7 - on);
                    }
                }
                assert_eq!(rows[g.active_player().index()][2], 0.0);
            }
        }
    }
}
