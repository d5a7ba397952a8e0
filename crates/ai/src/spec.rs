//! Bot specs: the text that names a player (`random`, `greedy`, `mcts:iterations=2000`, `hard`), and the levels.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::bot::Bot;
use crate::eval::Weights;
use crate::greedy::GreedyBot;
use crate::mcts::{Budget, MctsBot, MctsConfig, Opponents};
use crate::random::RandomBot;

/// The levels offered to people, each a documented bot and budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A short search (60 iterations with playouts to the end and no priors): beats random play, loses to
    /// `greedy`.
    Easy,
    /// A search of about a tenth of a second a decision (6,000 iterations) on one thread.
    Medium,
    /// The strongest: 80,000 iterations a decision on two threads, cut off at one second.
    Hard,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The search behind the level.
    pub fn config(self) -> MctsConfig {
        let base = MctsConfig::default();
        match self {
            Level::Easy => MctsConfig {
                budget: Budget { iterations: Some(60), time: Some(Duration::from_millis(200)) },
                playout_turns: None,
                prior_weight: 0.0,
                ..base
            },
            Level::Medium => MctsConfig {
                budget: Budget { iterations: Some(6_000), time: Some(Duration::from_millis(500)) },
                // Modelled (one round), its opponents left it 150 iterations at 3+ players: too few (four players
                // against three `greedy`, 200 games: 23.7% against 32.9% with random opponents; docs/ai.md).
                opponents: Opponents::Random,
                ..tuned()
            },
            Level::Hard => MctsConfig {
                budget: Budget { iterations: Some(80_000), time: Some(Duration::from_millis(1_000)) },
                threads: 2,
                ..tuned()
            },
        }
    }

    /// One line for help texts.
    pub fn describe(self) -> String {
        let c = self.config();
        let its = c.budget.iterations.map_or("no".to_string(), |i| i.to_string());
        let time = c.budget.time.map_or("none".to_string(), |t| format!("{} ms", t.as_millis()));
        format!("mcts, {its} iterations a decision (time cap {time}), {} thread(s)", c.threads)
    }
}

/// The search and evaluation settings of `medium` and `hard` (their budgets aside), found by `carc tune` on
/// 2026-12-02 (docs/ai.md, "Tuning the levels"): SPSA from the defaults, first `greedy`'s evaluation against the
/// gauntlet (3,000 steps), then the search by self-play at 1,000 iterations (300 steps), then against `hard@1` at
/// 2,000 (300 steps). At 4,000 iterations a decision each, they won 66.8% of 200 base games against `hard@1`.
fn tuned() -> MctsConfig {
    MctsConfig {
        exploration: 0.2787,
        win_weight: 0.5171,
        playout_deploy: 0.8415,
        margin_scale: 5.2448,
        widening: 2.0913,
        prior_weight: 0.2695,
        playout_turns: Some(3),
        // Not tuned: with three or more players, the others are modelled as the greedy player (`tuned_many`).
        opponents: Opponents::Auto,
        // Not tuned: a search stops once its choice cannot change (the same choice, sooner; docs/ai.md, "Stopping
        // when decided").
        early: true,
        weights: Weights {
            city_close: 20.8804,
            road_close: 21.1484,
            extra_end: 0.5029,
            growth: 0.5847,
            fill: 18.6304,
            follower: 4.6551,
            follower_ramp: 5.5851,
            best_opponent: 0.4849,
            // Not tuned: the fairy war (every module). Uncapped, the fairy's turn point counted every turn left, so
            // whoever moved it last gained tens of points in the estimate; `hard` fought over it turn after turn
            // and lost to the city builder (docs/ai.md, "The fairy war").
            fairy_turns: 2.0,
            // Not tuned: roads and cities no tile still to come can complete count as never completed (issue 36:
            // 60.2% of 400 base games against `hard@2` at equal time a decision, 56.2% of 200 with every module;
            // docs/ai.md, "Dead roads and cities"); a space few of them fit lowers the chance (`scarce`: 60.6% of
            // 400 against `dead` alone; 6 plays level with 3), and a monastery's neighbours are priced the same way
            // (56.6% of 400 on top of both); the three together won 75.6% of 400 against `hard@2`.
            dead: 1.0,
            scarce: 3.0,
            monastery_fits: 1.0,
            ..Weights::default()
        },
        ..MctsConfig::default()
    }
}

/// What the tuned levels play with three or more players, their budgets aside.
///
/// - The follower keeps its untuned value: the two-player tuning's follower at home, worth 4.7 points, keeps the bot
///   too idle when each player has half the turns (23.8% of 100 four-player games against three `greedy`, against
///   36.6% of 400 with the untuned value; docs/ai.md, "More players").
/// - The others are modelled as the greedy player ([`MctsConfig::opponents`]): with three random opponents
///   in the tree and the playouts, the search added little to its evaluation, and more iterations did not help
///   (docs/ai.md, "Modelling the opponents").
/// - A playout is two rounds: the others' replies, the bot's next turn as the greedy player, the others' replies
///   again, then the evaluation. Four players against three `greedy`, 200 games at equal time a decision: 61.8%
///   against 44.2% for one round (docs/ai.md, "Two rounds").
fn tuned_many() -> MctsConfig {
    let mut c = tuned();
    let d = Weights::default();
    c.weights.follower = d.follower;
    c.weights.follower_ramp = d.follower_ramp;
    c.opponents = Opponents::Greedy;
    c.playout_turns = None;
    c.model_rounds = 2;
    c
}

/// What an iteration that plays the others' replies as the greedy player for two rounds costs, in iterations of
/// random playouts (about 80 in the base game at four players: a round is about 0.18 ms, against 4.5 µs here).
const MODEL_COST: u64 = 80;

/// What a tuned level plays with three or more players: each tuned setting the spec left at its two-player value
/// takes its value for more players ([`tuned_many`]), and a level's own iteration budget is divided by
/// [`MODEL_COST`] when the opponents are modelled, so that a decision takes about as long. Settings a spec changed
/// stay as it says.
/// With `model` false (games with any module on), `auto` keeps the opponents random and the budget whole.
fn for_many(level: Level, c: &MctsConfig, model: bool) -> MctsConfig {
    adjust_many(&tuned(), &tuned_many(), level.config().budget.iterations, MODEL_COST, c, model)
}

/// [`for_many`] for a player whose two-player settings are `t` and whose settings for more players are `many`, with
/// `full` its own iteration budget and `cost` what an iteration with modelled opponents costs (the frozen references
/// keep theirs).
fn adjust_many(
    t: &MctsConfig,
    many: &MctsConfig,
    full: Option<u64>,
    cost: u64,
    c: &MctsConfig,
    model: bool,
) -> MctsConfig {
    let mut m = *c;
    macro_rules! back {
        ($($f:ident).+) => {
            if c.$($f).+ == t.$($f).+ {
                m.$($f).+ = many.$($f).+;
            }
        };
    }
    back!(exploration);
    back!(win_weight);
    back!(playout_deploy);
    back!(margin_scale);
    back!(widening);
    back!(prior_weight);
    if c.opponents == Opponents::Auto {
        if model {
            m.opponents = many.opponents;
            back!(playout_turns);
        } else {
            m.opponents = Opponents::Random;
        }
    }
    if m.opponents.modelled(3) {
        back!(model_rounds);
    }
    back!(weights.city_close);
    back!(weights.road_close);
    back!(weights.extra_end);
    back!(weights.growth);
    back!(weights.fill);
    back!(weights.follower);
    back!(weights.follower_ramp);
    back!(weights.best_opponent);
    back!(weights.pace);
    back!(weights.fairy_turns);
    back!(weights.field_growth);
    back!(weights.learned);
    back!(weights.prior_learned);
    back!(weights.dead);
    back!(weights.scarce);
    back!(weights.monastery_fits);
    back!(weights.halves);
    back!(weights.hand_turns);
    if m.opponents.modelled(3) && c.budget.iterations == full {
        m.budget.iterations = c.budget.iterations.map(|i| (i / cost).max(1));
    }
    m
}

/// A frozen reference: a level as it played at one version of the project, kept so that every change to the bots is
/// measured head to head against it (the way fishtest measures Stockfish's). Its constants are written out here and
/// never change; a change to the search's or the evaluation's code must keep a reference's play as it was, behind a
/// setting whose value for the reference is the old behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reference {
    /// `hard` as it was on 2026-12-02: 80,000 iterations a decision on two threads, cut off at one second.
    Hard1,
    /// `hard` as it was on 2026-12-06, before a learned evaluation (issue 36): the tuned settings at two players,
    /// and with three or more the others modelled as the greedy player for two rounds at 1,000 iterations (random
    /// opponents and the whole budget with any module on). 80,000 iterations a decision on two threads, cut off at
    /// one second.
    Hard2,
}

/// `hard@2` at three or more players without modules (see [`Reference::Hard2`]), frozen.
fn hard2_many() -> MctsConfig {
    let mut c = Reference::Hard2.config();
    c.weights.follower = 2.0;
    c.weights.follower_ramp = 6.0;
    c.opponents = Opponents::Greedy;
    c.playout_turns = None;
    c.model_rounds = 2;
    c
}

/// What an iteration with modelled opponents cost `hard@2`, in iterations of random playouts.
const HARD2_MODEL_COST: u64 = 80;

impl Reference {
    /// Every reference.
    pub const ALL: [Reference; 2] = [Reference::Hard1, Reference::Hard2];

    /// Its name, as a bot spec.
    pub const fn name(self) -> &'static str {
        match self {
            Reference::Hard1 => "hard@1",
            Reference::Hard2 => "hard@2",
        }
    }

    /// What it plays with three or more players, with `c` its two-player settings (a spec may have changed some):
    /// `None` when that is `c` itself.
    fn for_many(self, c: &MctsConfig, model: bool) -> Option<MctsConfig> {
        match self {
            Reference::Hard1 => None,
            Reference::Hard2 => {
                let full = Reference::Hard2.config().budget.iterations;
                Some(adjust_many(&Reference::Hard2.config(), &hard2_many(), full, HARD2_MODEL_COST, c, model))
            }
        }
    }

    /// Its settings, frozen.
    pub fn config(self) -> MctsConfig {
        match self {
            Reference::Hard2 => MctsConfig {
                budget: Budget { iterations: Some(80_000), time: Some(Duration::from_millis(1_000)) },
                threads: 2,
                exploration: 0.2787,
                playout_turns: Some(3),
                playout_greedy: 0.0,
                playout_deploy: 0.8415,
                opponents: Opponents::Auto,
                model_rounds: 1,
                win_weight: 0.5171,
                margin_scale: 5.2448,
                widening: 2.0913,
                prior_weight: 0.2695,
                prior_temperature: 4.0,
                prior_visits: 32,
                reuse: true,
                model_fits: true,
                early: true,
                carry: false,
                weights: Weights {
                    city_close: 20.8804,
                    road_close: 21.1484,
                    extra_end: 0.5029,
                    growth: 0.5847,
                    fill: 18.6304,
                    follower: 4.6551,
                    followers_full: 3,
                    follower_ramp: 5.5851,
                    triangle: 2.5,
                    abbey: 3.0,
                    barn: 2.0,
                    best_opponent: 0.4849,
                    pace: 0.0,
                    fairy_turns: 2.0,
                    field_growth: 0.0,
                    learned: 0.0,
                    prior_learned: -1.0,
                    dead: 0.0,
                    scarce: 0.0,
                    monastery_fits: 0.0,
                    halves: 0.0,
                    hand_turns: 0.0,
                },
            },
            Reference::Hard1 => MctsConfig {
                budget: Budget { iterations: Some(80_000), time: Some(Duration::from_millis(1_000)) },
                threads: 2,
                exploration: 0.25,
                playout_turns: Some(4),
                playout_deploy: 1.0,
                opponents: Opponents::Random,
                model_rounds: 1,
                playout_greedy: 0.0,
                win_weight: 0.5,
                margin_scale: 5.0,
                widening: 2.0,
                prior_weight: 0.3,
                prior_temperature: 4.0,
                prior_visits: 32,
                reuse: true,
                model_fits: true,
                early: false,
                carry: false,
                weights: Weights {
                    city_close: 17.0,
                    road_close: 17.0,
                    extra_end: 0.55,
                    growth: 0.6,
                    fill: 16.0,
                    follower: 2.0,
                    followers_full: 3,
                    follower_ramp: 6.0,
                    triangle: 2.5,
                    abbey: 3.0,
                    barn: 2.0,
                    best_opponent: 0.5,
                    pace: 0.0,
                    fairy_turns: 0.0,
                    field_growth: 0.0,
                    learned: 0.0,
                    prior_learned: -1.0,
                    dead: 0.0,
                    scarce: 0.0,
                    monastery_fits: 0.0,
                    halves: 0.0,
                    hand_turns: 0.0,
                },
            },
        }
    }
}

/// Which player, with its settings: what `carc arena --bots`, the server and the bindings read.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniform over the legal actions.
    Random,
    /// One ply over the whole own turn with the static evaluation (its constants may be changed:
    /// `greedy:city_close=12`).
    Greedy(Weights),
    /// A level, possibly with settings changed (`hard:threads=1`).
    Level(Level, MctsConfig),
    /// An MCTS player with explicit settings.
    Mcts(MctsConfig),
    /// A frozen reference (`hard@1`, `hard@2`), possibly with settings changed (`hard@1:threads=1`).
    Reference(Reference, MctsConfig),
    /// A heuristic player of the gauntlet (`citybuilder`, `farmer`, `joiner`, `cautious`), independent of the
    /// evaluation the others share.
    Style(crate::gauntlet::Style),
}

/// Why a spec cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("bot `{spec}`: {reason}")]
pub struct SpecError {
    /// The text.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// The settings an MCTS spec may change, with one line each (for help texts).
pub const MCTS_KEYS: [(&str, &str); 18] = [
    ("iterations", "iterations a decision over all threads (a number, or `none` for a time budget only)"),
    ("time", "time a decision: `500ms`, `2s`, or `none`"),
    ("threads", "threads searching (root parallelisation)"),
    ("c", "UCB1 exploration constant"),
    ("playout", "turns of random play before the evaluation cuts a playout off, or `end`"),
    ("deploy", "in playouts, the chance of choosing among all phase-2 actions rather than passing, 0..1"),
    (
        "informed",
        "in playouts, the chance that a placement or phase-2 step is the best of a few by the evaluation, 0..1",
    ),
    ("win", "weight of winning in the reward, 0..1 (the rest is the margin)"),
    ("scale", "points of margin for a reward of about 0.88"),
    ("widening", "children a node may open per square root of its visits"),
    ("prior", "weight of the static evaluation's prior in selection"),
    ("prior_visits", "visits before a node computes its priors"),
    (
        "opponents",
        "the other players in the search: `random`, `greedy` (modelled as the greedy player), or `auto` (greedy with 3+)",
    ),
    ("rounds", "with modelled opponents: the bot's own turns a playout reaches before the evaluation (1 to 8)"),
    ("reuse", "keep the tree from a placement for the meeple decision that follows: true or false"),
    ("model_fits", "with modelled opponents: whether their turns price what fits the spaces: true or false"),
    ("early", "stop a search once its most visited action can no longer be overtaken: true or false"),
    ("carry", "with early: iterations a decided search left go to later undecided ones: true or false"),
];

impl BotSpec {
    /// Build the player, seeded (the seed drives every random choice it makes).
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy(w) => Box::new(GreedyBot::with_weights(seed, *w)),
            BotSpec::Level(level @ (Level::Medium | Level::Hard), c) => {
                let mut bot = MctsBot::new(*c, seed, self.to_string());
                bot.many = Some(for_many(*level, c, true));
                bot.many_modules = Some(for_many(*level, c, false));
                Box::new(bot)
            }
            BotSpec::Reference(r, c) => {
                let mut bot = MctsBot::new(*c, seed, self.to_string());
                bot.many = r.for_many(c, true);
                bot.many_modules = r.for_many(c, false);
                Box::new(bot)
            }
            BotSpec::Level(_, c) | BotSpec::Mcts(c) => Box::new(MctsBot::new(*c, seed, self.to_string())),
            BotSpec::Style(s) => Box::new(crate::gauntlet::StyleBot::new(*s, seed)),
        }
    }

    /// The gauntlet: one player of each style, for `carc arena --gauntlet`.
    pub fn gauntlet() -> Vec<BotSpec> {
        crate::gauntlet::Style::ALL.iter().map(|s| BotSpec::Style(*s)).collect()
    }

    /// The search settings, for MCTS players.
    pub fn mcts(&self) -> Option<&MctsConfig> {
        match self {
            BotSpec::Level(_, c) | BotSpec::Reference(_, c) | BotSpec::Mcts(c) => Some(c),
            _ => None,
        }
    }

    /// The same player with its search limited to `threads` threads (for running many games side by side).
    pub fn with_threads(&self, threads: usize) -> BotSpec {
        let mut s = self.clone();
        if let BotSpec::Level(_, c) | BotSpec::Reference(_, c) | BotSpec::Mcts(c) = &mut s {
            c.threads = threads.max(1);
        }
        s
    }
}

/// The longest time a decision a spec may ask for.
pub const MAX_TIME: Duration = Duration::from_secs(3600);
/// The most iterations a decision a spec may ask for.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// The most threads a spec may search with.
pub const MAX_THREADS: usize = 64;
/// The largest value a spec's real-valued settings and evaluation constants may take.
pub const MAX_SETTING: f32 = 1.0e6;

/// A time budget in whole milliseconds (`500ms`, `2s`, `0.25s`), from 1 ms to [`MAX_TIME`]; written back in
/// milliseconds, so that it reads back the same.
fn parse_duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    let ms = if let Some(ms) = v.strip_suffix("ms") {
        ms.trim().parse::<u64>().ok()?
    } else {
        let s = v.strip_suffix('s')?.trim().parse::<f64>().ok()?;
        if !s.is_finite() || !(0.0..=MAX_TIME.as_secs_f64()).contains(&s) {
            return None;
        }
        (s * 1000.0).round() as u64
    };
    (1..=MAX_TIME.as_millis() as u64).contains(&ms).then(|| Duration::from_millis(ms))
}

/// The evaluation's constants by name, as specs change them.
fn weights_by_name(w: &mut Weights) -> [(&'static str, &mut f32); 21] {
    [
        ("city_close", &mut w.city_close),
        ("road_close", &mut w.road_close),
        ("extra_end", &mut w.extra_end),
        ("growth", &mut w.growth),
        ("fill", &mut w.fill),
        ("follower", &mut w.follower),
        ("follower_ramp", &mut w.follower_ramp),
        ("triangle", &mut w.triangle),
        ("abbey", &mut w.abbey),
        ("barn", &mut w.barn),
        ("best_opponent", &mut w.best_opponent),
        ("pace", &mut w.pace),
        ("fairy_turns", &mut w.fairy_turns),
        ("field_growth", &mut w.field_growth),
        ("learned", &mut w.learned),
        ("prior_learned", &mut w.prior_learned),
        ("dead", &mut w.dead),
        ("scarce", &mut w.scarce),
        ("monastery_fits", &mut w.monastery_fits),
        ("halves", &mut w.halves),
        ("hand_turns", &mut w.hand_turns),
    ]
}

/// The names of the evaluation's constants (`followers_full` too).
pub fn weight_keys() -> Vec<&'static str> {
    let mut w = Weights::default();
    let mut v: Vec<&str> = weights_by_name(&mut w).into_iter().map(|(k, _)| k).collect();
    v.push("followers_full");
    v
}

/// Set an evaluation constant; `None` if `key` is not one.
fn set_weight(w: &mut Weights, key: &str, v: &str) -> Option<Result<(), String>> {
    if key == "followers_full" {
        return Some(v.parse().map(|x| w.followers_full = x).map_err(|_| format!("`{key}` wants a whole number")));
    }
    let (_, slot) = weights_by_name(w).into_iter().find(|(k, _)| *k == key)?;
    if key == "learned" || key == "prior_learned" {
        return Some(match v.parse::<f32>() {
            Ok(x) if (0.0..=1.0).contains(&x) => {
                *slot = x;
                Ok(())
            }
            _ => Err(format!("`{key}` wants a number from 0 to 1, not `{v}`")),
        });
    }
    Some(match v.parse::<f32>() {
        Ok(x) if (0.0..=MAX_SETTING).contains(&x) => {
            *slot = x;
            Ok(())
        }
        _ => Err(format!("`{key}` wants a number from 0 to {MAX_SETTING}, not `{v}`")),
    })
}

/// The evaluation constants that differ from `base`'s, as `key=value` settings.
fn weight_settings(w: &Weights, base: &Weights) -> Vec<String> {
    let mut w = *w;
    let mut base = *base;
    let mut out: Vec<String> = weights_by_name(&mut w)
        .into_iter()
        .zip(weights_by_name(&mut base))
        .filter(|((_, a), (_, b))| **a != **b)
        .map(|((k, a), _)| format!("{k}={a}"))
        .collect();
    if w.followers_full != base.followers_full {
        out.push(format!("followers_full={}", w.followers_full));
    }
    out
}

fn set_key(c: &mut MctsConfig, key: &str, v: &str) -> Result<(), String> {
    fn num<T: FromStr>(key: &str, v: &str) -> Result<T, String> {
        v.parse().map_err(|_| format!("`{key}` wants a number, not `{v}`"))
    }
    fn unit(key: &str, v: &str) -> Result<f32, String> {
        let x: f32 = num(key, v)?;
        if (0.0..=1.0).contains(&x) { Ok(x) } else { Err(format!("`{key}` must be between 0 and 1")) }
    }
    fn positive(key: &str, v: &str) -> Result<f32, String> {
        let x: f32 = num(key, v)?;
        if (0.0..=MAX_SETTING).contains(&x) { Ok(x) } else { Err(format!("`{key}` must be from 0 to {MAX_SETTING}")) }
    }
    fn boolean(key: &str, v: &str) -> Result<bool, String> {
        match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("`{key}` is true or false, not `{v}`")),
        }
    }
    fn at_most<T: FromStr + PartialOrd + fmt::Display>(key: &str, v: &str, max: T) -> Result<T, String> {
        let x: T = num(key, v)?;
        if x <= max { Ok(x) } else { Err(format!("`{key}` is at most {max}")) }
    }
    match key {
        "iterations" => {
            c.budget.iterations = if v == "none" {
                None
            } else {
                let n: u64 = at_most(key, v, MAX_ITERATIONS)?;
                if n == 0 {
                    return Err("`iterations` must be at least 1".into());
                }
                Some(n)
            }
        }
        "time" => {
            c.budget.time = if v == "none" {
                None
            } else {
                Some(parse_duration(v).ok_or_else(|| {
                    format!("`time` wants `500ms` or `2s` (1 ms to {} s), not `{v}`", MAX_TIME.as_secs())
                })?)
            }
        }
        "threads" => {
            let t: usize = num(key, v)?;
            if !(1..=MAX_THREADS).contains(&t) {
                return Err(format!("`threads` must be between 1 and {MAX_THREADS}"));
            }
            c.threads = t;
        }
        "c" => c.exploration = positive(key, v)?,
        "playout" => c.playout_turns = if v == "end" { None } else { Some(at_most(key, v, 10_000)?) },
        "win" => c.win_weight = unit(key, v)?,
        "deploy" => c.playout_deploy = unit(key, v)?,
        "informed" => c.playout_greedy = unit(key, v)?,
        "scale" => c.margin_scale = positive(key, v)?.max(0.01),
        "widening" => c.widening = positive(key, v)?.max(0.01),
        "prior" => c.prior_weight = positive(key, v)?,
        "prior_visits" => c.prior_visits = at_most(key, v, 1_000_000)?,
        "reuse" => c.reuse = boolean(key, v)?,
        "model_fits" => c.model_fits = boolean(key, v)?,
        "opponents" => {
            c.opponents = Opponents::ALL
                .into_iter()
                .find(|o| o.name() == v)
                .ok_or_else(|| format!("`opponents` is `random`, `greedy` or `auto`, not `{v}`"))?
        }
        "rounds" => {
            let r: u32 = at_most(key, v, 8)?;
            if r == 0 {
                return Err("`rounds` must be at least 1".into());
            }
            c.model_rounds = r;
        }
        "early" => c.early = boolean(key, v)?,
        "carry" => c.carry = boolean(key, v)?,
        _ => {
            let keys: Vec<&str> = MCTS_KEYS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown setting `{key}` (settings: {}; and the evaluation's: {})",
                keys.join(", "),
                weight_keys().join(", ")
            ));
        }
    }
    Ok(())
}

/// The settings that take whole numbers (a tuner's real value is rounded).
pub const INTEGER_KEYS: [&str; 5] = ["threads", "playout", "prior_visits", "rounds", "followers_full"];

/// The current value of an MCTS setting that is a number (`iterations`, `time` and `reuse` are not read here).
fn get_key(c: &MctsConfig, key: &str) -> Option<f64> {
    Some(match key {
        "threads" => c.threads as f64,
        "c" => c.exploration as f64,
        "playout" => c.playout_turns? as f64,
        "win" => c.win_weight as f64,
        "deploy" => c.playout_deploy as f64,
        "informed" => c.playout_greedy as f64,
        "scale" => c.margin_scale as f64,
        "widening" => c.widening as f64,
        "prior" => c.prior_weight as f64,
        "prior_visits" => c.prior_visits as f64,
        "rounds" => c.model_rounds as f64,
        _ => return None,
    })
}

/// The current value of an evaluation constant.
fn get_weight(w: &Weights, key: &str) -> Option<f64> {
    if key == "followers_full" {
        return Some(w.followers_full as f64);
    }
    let mut w = *w;
    weights_by_name(&mut w).into_iter().find(|(k, _)| *k == key).map(|(_, v)| *v as f64)
}

impl BotSpec {
    /// The value of a numeric setting of this player (`c`, `prior`, `city_close`, …), as it plays now; `None` if it
    /// has no such setting (or the setting is not a number, like `time` or `reuse`).
    pub fn setting(&self, key: &str) -> Option<f64> {
        match self {
            BotSpec::Greedy(w) => get_weight(w, key),
            BotSpec::Level(_, c) | BotSpec::Reference(_, c) | BotSpec::Mcts(c) => {
                get_weight(&c.weights, key).or_else(|| get_key(c, key))
            }
            BotSpec::Random | BotSpec::Style(_) => None,
        }
    }

    /// The same player with settings changed, checked as a spec text would be (`("city_close", 12.0)`).
    ///
    /// # Errors
    /// [`SpecError`] for a setting the player does not take or a value out of its range.
    pub fn with_settings(&self, settings: &[(&str, f64)]) -> Result<BotSpec, SpecError> {
        let mut text = self.to_string();
        for (i, (k, v)) in settings.iter().enumerate() {
            text.push(if i == 0 && !text.contains(':') { ':' } else { ',' });
            if INTEGER_KEYS.contains(k) {
                text.push_str(&format!("{k}={}", v.round().max(0.0) as u64));
            } else {
                text.push_str(&format!("{k}={v}"));
            }
        }
        text.parse()
    }
}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<BotSpec, SpecError> {
        let fail = |reason: String| SpecError { spec: text.to_string(), reason };
        let (name, settings) = match text.trim().split_once(':') {
            Some((n, s)) => (n.trim(), Some(s)),
            None => (text.trim(), None),
        };
        let mut spec = match name.to_ascii_lowercase().as_str() {
            "random" => BotSpec::Random,
            "greedy" => BotSpec::Greedy(Weights::default()),
            other if Reference::ALL.iter().any(|r| r.name() == other) => {
                let r = Reference::ALL.into_iter().find(|r| r.name() == other).expect("found");
                BotSpec::Reference(r, r.config())
            }
            other if crate::gauntlet::Style::ALL.iter().any(|s| s.name() == other) => {
                let style = crate::gauntlet::Style::ALL.into_iter().find(|s| s.name() == other).expect("found");
                BotSpec::Style(style)
            }
            "mcts" => BotSpec::Mcts(MctsConfig::default()),
            other => match Level::ALL.iter().find(|l| l.name() == other) {
                Some(&l) => BotSpec::Level(l, l.config()),
                None => {
                    return Err(fail(format!(
                        "unknown bot `{name}` (bots: random, greedy, mcts, the levels easy, medium, hard, the \
                         frozen references hard@1 and hard@2, and the gauntlet citybuilder, farmer, joiner, cautious)"
                    )));
                }
            },
        };
        if let Some(settings) = settings {
            for kv in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (k, v) = kv.split_once('=').ok_or_else(|| fail(format!("write `{kv}` as KEY=VALUE")))?;
                let (k, v) = (k.trim(), v.trim());
                match &mut spec {
                    BotSpec::Random | BotSpec::Style(_) => return Err(fail(format!("`{name}` has no settings"))),
                    BotSpec::Greedy(w) => match set_weight(w, k, v) {
                        Some(r) => r.map_err(fail)?,
                        None => {
                            return Err(fail(format!(
                                "unknown setting `{k}` (greedy takes the evaluation's: {})",
                                weight_keys().join(", ")
                            )));
                        }
                    },
                    BotSpec::Level(_, c) | BotSpec::Reference(_, c) | BotSpec::Mcts(c) => {
                        match set_weight(&mut c.weights, k, v) {
                            Some(r) => r.map_err(fail)?,
                            None => set_key(c, k, v).map_err(fail)?,
                        }
                    }
                }
            }
            if let Some(c) = spec.mcts()
                && c.budget.iterations.is_none()
                && c.budget.time.is_none()
            {
                return Err(fail("give an iteration budget, a time budget, or both".into()));
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for BotSpec {
    /// The shortest spec that reads back as this player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, c, base) = match self {
            BotSpec::Random => return f.write_str("random"),
            BotSpec::Style(s) => return f.write_str(s.name()),
            BotSpec::Greedy(w) => {
                let parts = weight_settings(w, &Weights::default());
                return if parts.is_empty() { f.write_str("greedy") } else { write!(f, "greedy:{}", parts.join(",")) };
            }
            BotSpec::Level(l, c) => (l.name(), c, l.config()),
            BotSpec::Reference(r, c) => (r.name(), c, r.config()),
            BotSpec::Mcts(c) => ("mcts", c, MctsConfig::default()),
        };
        let mut parts: Vec<String> = Vec::new();
        if c.budget.iterations != base.budget.iterations {
            parts.push(format!("iterations={}", c.budget.iterations.map_or("none".into(), |i| i.to_string())));
        }
        if c.budget.time != base.budget.time {
            parts.push(format!("time={}", c.budget.time.map_or("none".into(), |t| format!("{}ms", t.as_millis()))));
        }
        if c.threads != base.threads {
            parts.push(format!("threads={}", c.threads));
        }
        let floats = [
            ("c", c.exploration, base.exploration),
            ("win", c.win_weight, base.win_weight),
            ("deploy", c.playout_deploy, base.playout_deploy),
            ("informed", c.playout_greedy, base.playout_greedy),
            ("scale", c.margin_scale, base.margin_scale),
            ("widening", c.widening, base.widening),
            ("prior", c.prior_weight, base.prior_weight),
        ];
        for (k, v, b) in floats {
            if v != b {
                parts.push(format!("{k}={v}"));
            }
        }
        if c.playout_turns != base.playout_turns {
            parts.push(format!("playout={}", c.playout_turns.map_or("end".into(), |t| t.to_string())));
        }
        if c.prior_visits != base.prior_visits {
            parts.push(format!("prior_visits={}", c.prior_visits));
        }
        if c.opponents != base.opponents {
            parts.push(format!("opponents={}", c.opponents.name()));
        }
        if c.model_rounds != base.model_rounds {
            parts.push(format!("rounds={}", c.model_rounds));
        }
        if c.reuse != base.reuse {
            parts.push(format!("reuse={}", c.reuse));
        }
        if c.model_fits != base.model_fits {
            parts.push(format!("model_fits={}", c.model_fits));
        }
        if c.early != base.early {
            parts.push(format!("early={}", c.early));
        }
        if c.carry != base.carry {
            parts.push(format!("carry={}", c.carry));
        }
        parts.extend(weight_settings(&c.weights, &base.weights));
        if parts.is_empty() { f.write_str(name) } else { write!(f, "{name}:{}", parts.join(",")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back() {
        for text in [
            "random",
            "greedy",
            "mcts",
            "hard",
            "easy",
            "medium",
            "mcts:iterations=2000",
            "hard:threads=1",
            "mcts:iterations=none,time=250ms,c=1.2,playout=end",
            "citybuilder",
            "hard@1",
            "hard@1:threads=1",
            "hard:opponents=greedy,rounds=2",
            "farmer",
            "joiner",
            "cautious",
        ] {
            let s: BotSpec = text.parse().unwrap();
            assert_eq!(s.to_string(), text, "{text}");
            assert_eq!(s.to_string().parse::<BotSpec>().unwrap(), s);
        }
    }

    #[test]
    fn bad_specs_say_why() {
        let cases = [
            ("wizard", "unknown bot `wizard`"),
            ("mcts:iterations=0", "at least 1"),
            ("mcts:speed=3", "unknown setting `speed`"),
            ("greedy:iterations=3", "unknown setting `iterations`"),
            ("random:c=3", "no settings"),
            ("mcts:iterations=none,time=none", "budget"),
            ("mcts:win=2", "between 0 and 1"),
            ("mcts:iterations", "KEY=VALUE"),
            ("mcts:time=soon", "`500ms` or `2s`"),
            ("mcts:time=1e19s", "1 ms to 3600 s"),
            ("mcts:time=1e20s", "1 ms to 3600 s"),
            ("mcts:time=1e17s,iterations=5", "1 ms to 3600 s"),
            ("mcts:time=0ms", "1 ms to 3600 s"),
            ("mcts:time=NaNs", "1 ms to 3600 s"),
            ("mcts:threads=1000", "between 1 and 64"),
            ("mcts:iterations=99999999999", "at most"),
            ("mcts:c=1e30", "from 0 to"),
            ("greedy:city_close=inf", "from 0 to"),
            ("mcts:prior_visits=4294967295", "at most"),
            ("mcts:rounds=0", "at least 1"),
            ("mcts:rounds=9", "at most 8"),
        ];
        for (text, why) in cases {
            let e = text.parse::<BotSpec>().unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn every_spec_that_reads_writes_back_as_itself() {
        // Settings with values at and past their bounds: whatever reads must be written as a text that reads back
        // as the same player (the server stores a seat's bot as that text).
        let values = [
            "0", "1", "0.5", "1e-3", "1e-40", "3", "1e6", "1e7", "1e19", "-1", "inf", "NaN", "none", "end", "true",
            "0.0004s", "0.0005s", "1.5s", "2s", "1e17s", "3600s", "3601s", "999ms", "1ms", "0ms", "250ms",
        ];
        let keys: Vec<&str> = MCTS_KEYS.iter().map(|(k, _)| *k).chain(weight_keys()).collect();
        let mut read = 0;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..20_000 {
            let name = ["mcts", "hard", "medium", "easy", "greedy"][next(5)];
            let settings: Vec<String> = (0..1 + next(3))
                .map(|_| format!("{}={}", keys[next(keys.len())], values[next(values.len())]))
                .collect();
            let text = format!("{name}:{}", settings.join(","));
            let Ok(spec) = text.parse::<BotSpec>() else { continue };
            read += 1;
            let written = spec.to_string();
            let back = written.parse::<BotSpec>().unwrap_or_else(|e| panic!("`{text}` is written `{written}`: {e}"));
            assert_eq!(back, spec, "`{text}` is written `{written}`");
            if let Some(c) = spec.mcts() {
                assert!(c.budget.time.is_none_or(|t| t <= MAX_TIME && t >= Duration::from_millis(1)), "{text}");
            }
        }
        assert!(read > 1000, "only {read} specs read: the test tried little");
    }

    #[test]
    fn settings_are_read_and_changed_by_name() {
        let hard: BotSpec = "hard:threads=1".parse().unwrap();
        assert_eq!(hard.setting("city_close"), Some(f64::from(20.8804f32)));
        assert_eq!(hard.setting("prior_visits"), Some(32.0));
        assert_eq!(hard.setting("threads"), Some(1.0));
        assert_eq!(hard.setting("time"), None);
        let tuned = hard.with_settings(&[("city_close", 12.5), ("prior_visits", 20.4)]).unwrap();
        assert_eq!(tuned.to_string(), "hard:threads=1,prior_visits=20,city_close=12.5");
        assert_eq!(tuned.setting("city_close"), Some(12.5));
        let greedy: BotSpec = "greedy".parse().unwrap();
        assert_eq!(greedy.with_settings(&[("fill", 10.0)]).unwrap().to_string(), "greedy:fill=10");
        assert!(greedy.with_settings(&[("c", 1.0)]).is_err());
        assert!(hard.with_settings(&[("win", 2.0)]).is_err());
        assert_eq!(BotSpec::Random.setting("c"), None);
    }

    #[test]
    fn tuned_levels_play_their_settings_for_more_players() {
        let hard = Level::Hard.config();
        let many = for_many(Level::Hard, &hard, true);
        let budget = Budget { iterations: Some(80_000 / MODEL_COST), time: hard.budget.time };
        assert_eq!(many, MctsConfig { budget, threads: hard.threads, ..tuned_many() });
        assert_ne!(many.weights.follower, hard.weights.follower, "the follower's value is what differs");
        assert_eq!((hard.opponents, many.opponents), (Opponents::Auto, Opponents::Greedy));
        // A setting the spec changed stays, the budget too.
        let mut c = hard;
        c.exploration = 0.9;
        c.weights.follower = 1.0;
        c.budget.iterations = Some(5_000);
        let many = for_many(Level::Hard, &c, true);
        assert_eq!((many.exploration, many.weights.follower), (0.9, 1.0));
        assert_eq!(many.weights.fill, tuned_many().weights.fill);
        assert_eq!(many.budget.iterations, Some(5_000));
        // Random opponents asked for: the level's whole budget.
        c = hard;
        c.opponents = Opponents::Random;
        let many = for_many(Level::Hard, &c, true);
        assert_eq!((many.opponents, many.playout_turns), (Opponents::Random, Some(3)));
        assert_eq!(many.budget.iterations, Some(80_000));
        // `medium` keeps random opponents, and so its whole budget.
        let medium = for_many(Level::Medium, &Level::Medium.config(), true);
        assert_eq!((medium.opponents, medium.budget.iterations), (Opponents::Random, Some(6_000)));
        // With any module on, `hard` keeps random opponents and its whole budget; asked for, the model stays.
        let plain = for_many(Level::Hard, &hard, false);
        assert_eq!(
            plain,
            MctsConfig { opponents: Opponents::Random, playout_turns: Some(3), model_rounds: 1, ..many_budget(&hard) }
        );
        c = hard;
        c.opponents = Opponents::Greedy;
        let asked = for_many(Level::Hard, &c, false);
        assert_eq!((asked.opponents, asked.budget.iterations), (Opponents::Greedy, Some(80_000 / MODEL_COST)));
        // Modelled, a playout is two rounds unless the spec says otherwise.
        assert_eq!((many_budget(&hard).model_rounds, asked.model_rounds), (2, 2));
        c.model_rounds = 3;
        assert_eq!(for_many(Level::Hard, &c, true).model_rounds, 3);
    }

    /// `tuned_many` with `c`'s budget and threads.
    fn many_budget(c: &MctsConfig) -> MctsConfig {
        MctsConfig { budget: c.budget, threads: c.threads, ..tuned_many() }
    }

    #[test]
    fn hard_at_2_is_hard_as_it_was_frozen_at_every_player_count() {
        // Frozen on 2026-12-06 from `hard` as it then was. `hard` has moved on by three settings since (dead roads and
        // cities, scarce spaces, monasteries' spaces; issue 36); everything else is as frozen, at every player count.
        let hard = Level::Hard.config();
        let frozen = Reference::Hard2.config();
        assert_ne!(frozen, hard);
        let as_frozen = |c: MctsConfig| MctsConfig {
            weights: Weights { dead: 0.0, scarce: 0.0, monastery_fits: 0.0, ..c.weights },
            ..c
        };
        assert_eq!(frozen, as_frozen(hard));
        for model in [true, false] {
            let now = for_many(Level::Hard, &hard, model);
            assert_ne!(Reference::Hard2.for_many(&frozen, model), Some(now));
            assert_eq!(Reference::Hard2.for_many(&frozen, model), Some(as_frozen(now)));
        }
        // A setting the spec changes stays changed at every player count, as for the levels.
        let mut c = frozen;
        c.exploration = 0.9;
        c.budget.iterations = Some(5_000);
        let many = Reference::Hard2.for_many(&c, true).unwrap();
        assert_eq!((many.exploration, many.budget.iterations, many.opponents), (0.9, Some(5_000), Opponents::Greedy));
        assert_eq!(Reference::Hard1.for_many(&Reference::Hard1.config(), true), None);
        assert_eq!("hard@2".parse::<BotSpec>().unwrap().to_string(), "hard@2");
        assert_eq!("hard@2:threads=1".parse::<BotSpec>().unwrap().mcts().unwrap().threads, 1);
    }

    #[test]
    fn the_frozen_reference_keeps_the_old_settings_and_hards_budget() {
        // hard@1 is hard as it was before tuning: the untuned defaults, with hard's budget, so that the two meet at
        // the same time a decision.
        let old = Reference::Hard1.config();
        let hard = Level::Hard.config();
        assert_eq!(old, MctsConfig { budget: hard.budget, threads: hard.threads, ..MctsConfig::default() });
        assert_ne!(old, hard, "hard has moved on");
        assert_eq!("hard@1".parse::<BotSpec>().unwrap().to_string(), "hard@1");
        // A level's spec with its tuned values spelt out reads back as the level itself.
        let medium: BotSpec = "medium".parse().unwrap();
        assert_eq!(medium.with_settings(&[("follower", 4.6551), ("c", 0.2787)]).unwrap(), medium);
    }
}
