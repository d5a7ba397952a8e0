//! The gauntlet: four heuristic players, each a style a person plays, written apart from the search's evaluation
//! (`eval.rs`) so that they do not share its blind spots. `carc arena --gauntlet BOT` plays BOT against each.
//!
//! Each looks through its own turn the way classic Carcassonne programs do: every legal action, followed by the best
//! continuation of the same turn one decision at a time, ranked by the points it has now plus what its features on
//! the table should bring (a feature's size and the chance of completing it with the open ends it has), and a value
//! for the followers it keeps at home. The styles differ in what they value and what they refuse:
//!
//! - `citybuilder` never plays a farmer, values cities and roads by the chance to complete them, and completes what
//!   it starts;
//! - `farmer` claims the big fields early (a field is worth its bordering cities, unfinished ones at half);
//! - `joiner` plays against the leader: it counts a point taken from the best opponent as one of its own and is
//!   glad to share or steal features;
//! - `cautious` keeps followers home (each in the supply is worth much), deploys only where completion is likely or
//!   on monasteries, and never farms.
//!
//! They see only what their seat sees: each decision is taken on a determinization of the seat's own view.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use carcassonne::action::MeepleKind;
use carcassonne::board::SegmentId;
use carcassonne::game::MAX_PLAYERS;
use carcassonne::{Action, Actor, Game, Player, SegmentKind};

use crate::bot::{Bot, BotError, Candidate, Thought, my_actions};

/// A style of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Never farms; completes cities and roads.
    CityBuilder,
    /// Claims the big fields early.
    Farmer,
    /// Enters the opponents' features to share or steal them; plays against the leader.
    Joiner,
    /// Keeps followers home, plays for monasteries and sure completions.
    Cautious,
}

impl Style {
    /// Every style, in the gauntlet's order.
    pub const ALL: [Style; 4] = [Style::CityBuilder, Style::Farmer, Style::Joiner, Style::Cautious];

    /// Its name, as a bot spec.
    pub const fn name(self) -> &'static str {
        match self {
            Style::CityBuilder => "citybuilder",
            Style::Farmer => "farmer",
            Style::Joiner => "joiner",
            Style::Cautious => "cautious",
        }
    }

    /// One line for help texts.
    pub const fn describe(self) -> &'static str {
        match self {
            Style::CityBuilder => "never farms; values cities and roads by the chance to complete them",
            Style::Farmer => "claims the big fields early",
            Style::Joiner => "joins the opponents' features to share or steal them; plays against the leader",
            Style::Cautious => "keeps followers home; monasteries and sure completions only; never farms",
        }
    }

    fn knobs(self) -> Knobs {
        let base = Knobs {
            farms: true,
            field: 1.0,
            optimism: 1.0,
            home: 1.5,
            monastery: 0.0,
            against_leader: 0.5,
            shared: 0.0,
            min_chance: 0.0,
        };
        match self {
            Style::CityBuilder => Knobs { farms: false, optimism: 1.4, home: 1.2, ..base },
            Style::Farmer => Knobs { field: 1.4, home: 1.0, ..base },
            Style::Joiner => Knobs { against_leader: 1.0, shared: 2.0, optimism: 0.9, ..base },
            Style::Cautious => {
                Knobs { farms: false, home: 4.0, monastery: 2.0, min_chance: 0.45, optimism: 1.0, ..base }
            }
        }
    }
}

/// What a style weighs.
#[derive(Clone, Copy, Debug)]
struct Knobs {
    /// Whether it ever puts a follower on a field.
    farms: bool,
    /// A field's worth, as a share of its bordering cities' 3 points each.
    field: f32,
    /// How likely it thinks an open feature is completed (a factor on the chance).
    optimism: f32,
    /// A follower in the supply, in points (while many tiles are left).
    home: f32,
    /// Extra points for holding a monastery.
    monastery: f32,
    /// How much the best opponent (rather than the mean of the others) counts against it, 0..=1.
    against_leader: f32,
    /// Points for each feature it shares the lead of with an opponent.
    shared: f32,
    /// A follower goes only where the chance of completing is at least this (monasteries and fields aside).
    min_chance: f32,
}

/// A heuristic player of one style.
#[derive(Clone, Debug)]
pub struct StyleBot {
    style: Style,
    knobs: Knobs,
    rng: ChaCha8Rng,
    legal: Vec<Action>,
}

impl StyleBot {
    /// A player of `style`, seeded (the seed breaks ties and drives the determinizations).
    pub fn new(style: Style, seed: u64) -> StyleBot {
        StyleBot { style, knobs: style.knobs(), rng: ChaCha8Rng::seed_from_u64(seed), legal: Vec::new() }
    }

    /// Whether the style refuses `a` outright (a farmer for a style that never farms).
    fn refuses(&self, game: &Game, a: Action) -> bool {
        !self.knobs.farms && crate::breakdown::deployed_kind(game, a) == Some(SegmentKind::Field)
    }

    /// The chance a road or city with `open` ends is completed with `turns` own turns left.
    fn chance(&self, open: u16, turns: f32) -> f32 {
        if open == 0 {
            return 1.0;
        }
        let one = (turns / (turns + 6.0)) * self.knobs.optimism;
        (one / (1.0 + 0.8 * (open as f32 - 1.0))).clamp(0.0, 1.0)
    }

    /// What each player has and should get, by this style's reckoning.
    fn points(&self, game: &Game) -> [f32; MAX_PLAYERS] {
        let n = game.players();
        let k = self.knobs;
        let board = game.board();
        let mut pts = [0f32; MAX_PLAYERS];
        for (p, s) in game.scores().iter().enumerate() {
            pts[p] = *s as f32;
        }
        if game.is_over() {
            return pts;
        }
        let turns = game.stack_len() as f32 / n as f32;
        // Followers by feature: the feature's root, each player's strength and followers there.
        let mut held: Vec<(SegmentId, [u16; MAX_PLAYERS], [u8; MAX_PLAYERS])> = Vec::new();
        for m in game.meeples() {
            let root = board.root(m.segment);
            let i = held.iter().position(|h| h.0 == root).unwrap_or_else(|| {
                held.push((root, [0; MAX_PLAYERS], [0; MAX_PLAYERS]));
                held.len() - 1
            });
            held[i].1[m.player.index()] += if m.kind == MeepleKind::Mayor { board.pennants_of(root) as u16 } else { 1 };
            held[i].2[m.player.index()] += 1;
        }
        for (root, strength, followers) in &held {
            let (worth, chance) = match board.kind(*root) {
                SegmentKind::Road => {
                    let tiles = board.tile_count(*root);
                    let c = self.chance(board.open_ends(*root), turns);
                    (tiles as f32 + c * board.open_ends(*root) as f32 * 0.5, c)
                }
                SegmentKind::City => {
                    let tiles = board.tile_count(*root);
                    let size = tiles as f32 + board.pennants_of(*root) as f32;
                    let c = self.chance(board.open_ends(*root), turns);
                    (size * (1.0 + c), c)
                }
                SegmentKind::Monastery => {
                    let (t, _) = board.segment_tile(*root);
                    let filled = 1.0 + board.filled_neighbours(board.tile(t).space) as f32;
                    let fill = (turns / (turns + 4.0)).min(1.0);
                    (filled + (9.0 - filled) * fill + k.monastery, fill.powf(9.0 - filled))
                }
                SegmentKind::Field => (3.0 * k.field * self.bordering_cities(game, *root), 0.0),
                SegmentKind::Crop => (0.0, 0.0),
            };
            let best = *strength.iter().max().unwrap_or(&0);
            let leaders = strength.iter().take(n).filter(|&&s| s == best && best > 0).count();
            for p in 0..n {
                if best > 0 && strength[p] == best {
                    pts[p] += worth;
                    if leaders > 1 {
                        pts[p] += k.shared;
                    }
                }
                // A follower on a feature that is not completed does not come home.
                pts[p] += followers[p] as f32 * chance * k.home * (turns / (turns + 3.0));
            }
        }
        for (p, v) in pts.iter_mut().enumerate().take(n) {
            let home = game.supply_of(Player(p as u8), MeepleKind::Normal).min(5) as f32;
            *v += home * k.home * (turns / (turns + 3.0));
        }
        pts
    }

    /// The cities a field borders: completed ones count 1, unfinished ones ½.
    fn bordering_cities(&self, game: &Game, field: SegmentId) -> f32 {
        let board = game.board();
        let mut seen: Vec<SegmentId> = Vec::new();
        for m in board.members(field) {
            let (t, local) = board.segment_tile(m);
            let pt = board.tile(t);
            for &c in &game.catalogue().def(pt.kind).segments[local as usize].cities {
                let r = board.root(SegmentId(pt.first_segment + c as u16));
                if !seen.contains(&r) {
                    seen.push(r);
                }
            }
        }
        seen.iter().map(|&c| if board.is_complete(c) { 1.0 } else { 0.5 }).sum()
    }

    /// `me`'s standing: its points against the others'.
    fn value(&self, game: &Game, me: Player) -> f32 {
        let pts = self.points(game);
        let n = game.players();
        let others: Vec<f32> = (0..n).filter(|&p| p != me.index()).map(|p| pts[p]).collect();
        let best = others.iter().copied().fold(f32::MIN, f32::max);
        let mean = others.iter().sum::<f32>() / others.len().max(1) as f32;
        let a = self.knobs.against_leader;
        pts[me.index()] - (a * best + (1.0 - a) * mean)
    }

    /// Whether a follower may go onto the feature of `a` (the cautious style wants a likely completion).
    fn allowed(&self, before: &Game, after: &Game, a: Action) -> bool {
        if self.refuses(before, a) {
            return false;
        }
        if self.knobs.min_chance <= 0.0 {
            return true;
        }
        let Some(SegmentKind::Road | SegmentKind::City) = crate::breakdown::deployed_kind(before, a) else {
            return true;
        };
        let segment = match a {
            Action::Deploy { segment, .. } => match before.placed_tile() {
                Some(t) => SegmentId(before.board().tile(t).first_segment + segment as u16),
                None => return true,
            },
            Action::Portal { segment, .. } | Action::CropAdd { segment, .. } => segment,
            _ => return true,
        };
        let turns = after.stack_len() as f32 / after.players() as f32;
        self.chance(after.board().open_ends(after.board().root(segment)), turns) >= self.knobs.min_chance
    }

    /// The value of `game` for `me` after the best continuation of `me`'s turn, one decision at a time.
    fn rest_of_turn(&mut self, game: &mut Game, me: Player, depth: u32) -> f32 {
        if depth == 0 || game.decision().actor != Actor::Player(me) || game.is_over() {
            return self.value(game, me);
        }
        let mut legal = std::mem::take(&mut self.legal);
        game.legal_actions_into(&mut legal);
        let mut pick: Option<(f32, Action)> = None;
        for &a in &legal {
            let mut next = game.clone();
            next.apply_unchecked(a);
            if !self.allowed(game, &next, a) {
                continue;
            }
            let v = self.value(&next, me);
            if pick.is_none_or(|(b, _)| v > b) {
                pick = Some((v, a));
            }
        }
        let pick =
            pick.map(|p| p.1).or_else(|| legal.iter().copied().find(|&a| a == Action::Pass)).or(legal.first().copied());
        self.legal = legal;
        match pick {
            Some(a) => {
                game.apply_unchecked(a);
                self.rest_of_turn(game, me, depth - 1)
            }
            None => self.value(game, me),
        }
    }
}

impl Bot for StyleBot {
    fn name(&self) -> String {
        self.style.name().to_string()
    }

    fn think(&mut self, game: &Game, me: Player) -> Result<Thought, BotError> {
        let start = std::time::Instant::now();
        let legal = my_actions(game, me)?;
        if legal.len() == 1 {
            return Ok(Thought::only(legal[0]));
        }
        let mut det = game.clone();
        det.shuffle_hidden(me, &mut self.rng);
        let mut scored: Vec<(f32, Action)> = Vec::with_capacity(legal.len());
        for &a in &legal {
            let mut next = det.clone();
            next.apply_unchecked(a);
            if !self.allowed(&det, &next, a) {
                continue;
            }
            let v = self.rest_of_turn(&mut next, me, 6);
            scored.push((v, a));
        }
        if scored.is_empty() {
            // Every action was one the style refuses: take a pass if there is one, else any.
            let a = legal.iter().copied().find(|&a| a == Action::Pass).unwrap_or(legal[0]);
            return Ok(Thought::only(a));
        }
        let best = scored.iter().map(|s| s.0).fold(f32::MIN, f32::max);
        let ties: Vec<Action> = scored.iter().filter(|s| s.0 >= best - 1e-4).map(|s| s.1).collect();
        let action = *ties.choose(&mut self.rng).unwrap_or(&scored[0].1);
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let candidates = scored.iter().take(8).map(|&(value, action)| Candidate { action, visits: 1, value }).collect();
        Ok(Thought { action, candidates, iterations: 0, elapsed: start.elapsed() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;

    #[test]
    fn every_style_plays_only_legal_actions_with_every_module_at_two_to_six_players() {
        for (i, style) in Style::ALL.iter().enumerate() {
            for players in 2..=6u8 {
                let mut s = Setup::new(players);
                s.seed = 100 + i as u64 * 10 + players as u64;
                s.sets = ["base", "am", "pd", "cc", "half"].iter().map(|x| x.to_string()).collect();
                s.switch_on_set_modules(false);
                let mut bots: Vec<Box<dyn Bot>> = (0..players)
                    .map(|p| Box::new(StyleBot::new(Style::ALL[(i + p as usize) % 4], p as u64)) as Box<dyn Bot>)
                    .collect();
                let r = crate::arena::play_game(&s, &mut bots, false).unwrap_or_else(|e| panic!("{style:?}: {e}"));
                assert_eq!(r.scores.len(), players as usize);
            }
        }
    }

    #[test]
    fn the_styles_that_never_farm_never_do() {
        for style in [Style::CityBuilder, Style::Cautious] {
            let mut s = Setup::new(2);
            s.seed = 7;
            let mut bots: Vec<Box<dyn Bot>> =
                vec![Box::new(StyleBot::new(style, 1)), Box::new(StyleBot::new(Style::Farmer, 2))];
            let r = crate::arena::play_game(&s, &mut bots, false).unwrap();
            assert_eq!(r.breakdown[0].placed[3], 0.0, "{style:?} placed a farmer");
            assert!(r.breakdown[1].placed[3] > 0.0, "the farmer never farmed");
        }
    }
}
