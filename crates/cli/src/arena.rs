//! `carc arena`: games between bots, seats rotated, games in parallel, and a report with intervals.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

use carcassonne_ai::BotSpec;
use carcassonne_ai::arena::{GameResult, Summary, play_game, seat_bots, summarise};

use crate::SetupArgs;

/// Options of `carc arena`.
#[derive(Clone, Debug, Args)]
pub(crate) struct ArenaArgs {
    /// The bots, comma-separated: random, greedy, easy, medium, hard, or mcts with settings
    /// (`mcts:iterations=2000,threads=1`; listed below). Seat s of game g gets bot (s + g) mod
    /// the number of bots, so each bot sits in each seat equally often.
    #[arg(long, value_delimiter = ';', default_value = "hard;greedy", value_parser = parse_bots)]
    bots: Vec<Vec<BotSpec>>,
    /// How many games (rounded up to a multiple of the number of bots, so seats stay balanced).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first deal. Each rotation of the seats replays the same deal: games g and g+1 of two bots share
    /// a deal with the seats swapped, which takes the luck of the draw out of the comparison.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    setup: SetupArgs,
    /// Games played at once (default: the cores, divided by the most threads any bot searches with).
    #[arg(long)]
    jobs: Option<usize>,
    /// Save each game's record as DIR/game-N.json (and its tally as DIR/game-N.result.json).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// With --records: count the games already finished in DIR by an arena with the same bots, setup and seed, and
    /// play only the rest. A long arena that was stopped goes on where it left off.
    #[arg(long, requires = "records")]
    resume: bool,
    /// Play this bot against every bot of the gauntlet (citybuilder, farmer, joiner, cautious: heuristic players
    /// written apart from the others' evaluation), `--games` games each, and print one table. With --records, each
    /// opponent's games go to a directory of their own inside DIR.
    #[arg(long, value_name = "BOT", value_parser = parse_one_bot, conflicts_with = "bots")]
    gauntlet: Option<BotSpec>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn parse_one_bot(s: &str) -> Result<BotSpec, String> {
    s.parse::<BotSpec>().map_err(|e| e.to_string())
}

/// The bots and their settings, shown after `carc arena --help` and `carc hint --help`.
pub(crate) const BOTS_HELP: &str = "\
Bots:
  random    uniform over the legal actions
  greedy    its whole turn, valued by the static evaluation
  mcts      information-set Monte-Carlo tree search (docs/ai.md)
  easy      mcts, 60 iterations, playouts to the end, no priors
  medium    mcts with the tuned settings, 6000 iterations, one thread (capped at 0.5 s)
  hard      mcts with the tuned settings, 80000 iterations, two threads (capped at 1 s);
            at 3+ players it models the others as greedy, two rounds a playout, with 1000 iterations
            (with any module on, it keeps random opponents and its whole budget)
  hard@1    the frozen reference: hard before tuning, the same budget
  hard@2    the frozen reference: hard as it was on 2026-12-06 (before a learned evaluation), every player count
  citybuilder, farmer, joiner, cautious
            the gauntlet: heuristic players written apart from the evaluation

Settings of mcts and the levels (NAME:KEY=VALUE,KEY=VALUE):
  iterations    iterations a decision over all threads, or none
  time          time a decision: 500ms, 2s, or none
  threads       threads searching (root parallelisation)
  c             UCB1 exploration constant
  playout       turns of random play before the evaluation cuts a playout off, or end
  deploy        in playouts, the chance of choosing among all phase-2 actions rather than passing
  informed      in playouts, the chance a placement or phase-2 step is the best of four by the evaluation
  win           weight of winning in the reward, 0..1 (the rest is the margin)
  scale         points of margin for a reward of about 0.88
  widening      children a node may open per square root of its visits
  prior         weight of the static evaluation's prior in selection
  prior_visits  visits before a node computes its priors
  opponents     the others in the search: random, greedy (modelled as the greedy player), or auto
                (greedy at 3+ players: what hard plays)
  rounds        with modelled opponents: the bot's own turns a playout reaches before the evaluation
                (1 to 8; hard at 3+ players: 2)
  reuse         keep the tree from a placement for the meeple decision that follows: true or false
  model_fits    with modelled opponents: whether their turns price what fits the spaces: true or false
  early         stop a search once its most visited action can no longer be overtaken: true or false
  carry         with early: iterations a decided search left go to later undecided ones: true or false
greedy and mcts also take the evaluation's constants (greedy:city_close=12): city_close, road_close,
extra_end, growth, fill, follower, followers_full, follower_ramp, triangle, abbey, barn, best_opponent, pace, fairy_turns,
field_growth, learned (0..1: how much of the learned value is in the estimate), prior_learned (0..1: the same for
the search's priors only; unset, as learned), dead (1: a road or city no tile left can complete counts as never
completed), scarce (a space beside an open end that f tiles to come fit multiplies its chance of completion by
1-e^(-f/scarce); 0 is off), monastery_fits (1: a monastery's empty neighbours are priced the same way), halves
(1: the Halflings' triangles count when deciding what fits), hand_turns (each triangle in hand counts as that many
tiles left in the turns left); medium and hard: dead=1, scarce=3, monastery_fits=1.";

pub(crate) fn parse_bots(s: &str) -> Result<Vec<BotSpec>, String> {
    // Settings use commas too (`mcts:iterations=100,c=1`): a new bot starts at a name, not at a setting.
    let mut specs: Vec<String> = Vec::new();
    for part in s.split(',') {
        let name = part.split(':').next().unwrap_or("").trim();
        let is_setting = name.contains('=');
        match specs.last_mut() {
            Some(last) if is_setting && last.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => specs.push(part.to_string()),
        }
    }
    let specs: Vec<BotSpec> =
        specs.iter().map(|x| x.parse::<BotSpec>()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    if specs.is_empty() {
        return Err("name at least one bot".into());
    }
    Ok(specs)
}

pub(crate) fn arena(a: &ArenaArgs) -> Result<String> {
    let Some(bot) = &a.gauntlet else {
        let specs: Vec<BotSpec> = a.bots.iter().flatten().cloned().collect();
        return arena_of(a, &specs, a.records.as_deref());
    };
    // The gauntlet: one arena per opponent, then one table.
    let mut rows = Vec::new();
    for opponent in BotSpec::gauntlet() {
        let dir = a.records.as_ref().map(|d| d.join(opponent.to_string()));
        // One seat for the bot, every other seat the same opponent (the seats rotate from game to game).
        let players = a.setup.setup(a.seed)?.players as usize;
        let mut specs = vec![bot.clone()];
        specs.resize(players.max(2), opponent.clone());
        let text = arena_of(&ArenaArgs { json: true, ..a.clone() }, &specs, dir.as_deref())?;
        let v: serde_json::Value = serde_json::from_str(&text)?;
        rows.push((opponent.to_string(), v));
    }
    if a.json {
        let list: Vec<serde_json::Value> = rows.iter().map(|(o, v)| json!({ "opponent": o, "arena": v })).collect();
        return Ok(serde_json::to_string_pretty(&json!({ "bot": bot.to_string(), "gauntlet": list }))? + "\n");
    }
    let mut out = String::new();
    let first = &rows[0].1;
    outln!(
        out,
        "{bot} against the gauntlet: {} games each, {} players, sets {}",
        first["games"],
        first["players"],
        first["sets"].as_array().map_or(String::new(), |s| s
            .iter()
            .filter_map(|x| x.as_str())
            .collect::<Vec<_>>()
            .join(","))
    );
    outln!(
        out,
        "{:<12}  {:>6}  {:>15}  {:>6}  {:>6}  {:>7}  {:>11}  {:>11}  {:>11}",
        "opponent",
        "win %",
        "95% interval",
        "score",
        "theirs",
        "margin",
        "cities",
        "fields",
        "their cities"
    );
    for (o, v) in &rows {
        let me = &v["bots"][0];
        // The opponent's figures: the mean over its seats' entries (one for each seat but the bot's).
        let them = v["bots"].as_array().map_or(&[][..], |b| &b[1..]);
        let pts = |b: &serde_json::Value, k: &str| {
            b["breakdown"]["points"][k]["during"].as_f64().unwrap_or(0.0)
                + b["breakdown"]["points"][k]["at_end"].as_f64().unwrap_or(0.0)
        };
        let mean = |f: &dyn Fn(&serde_json::Value) -> f64| {
            if them.is_empty() { 0.0 } else { them.iter().map(f).sum::<f64>() / them.len() as f64 }
        };
        let lo = me["win_rate_95"][0].as_f64().unwrap_or(0.0);
        let hi = me["win_rate_95"][1].as_f64().unwrap_or(0.0);
        outln!(
            out,
            "{:<12}  {:>6}  {:>15}  {:>6.1}  {:>6.1}  {:>+7.1}  {:>11.1}  {:>11.1}  {:>11.1}",
            o,
            pct(me["win_rate"].as_f64().unwrap_or(0.0)),
            format!("{}–{}", pct(lo), pct(hi)),
            me["mean_score"].as_f64().unwrap_or(0.0),
            mean(&|b| b["mean_score"].as_f64().unwrap_or(0.0)),
            me["mean_margin"].as_f64().unwrap_or(0.0),
            pts(me, "city"),
            pts(me, "field"),
            mean(&|b| pts(b, "city"))
        );
    }
    outln!(out, "(points a game; cities and fields: scored during the game and at the end together)");
    if let Some(n) = first["players"].as_u64().filter(|&n| n > 2) {
        outln!(
            out,
            "({n} players: one seat {bot}, the others the opponent; fair share {}; their figures are a seat's mean)",
            pct(1.0 / n as f64)
        );
    }
    Ok(out)
}

/// One arena of `specs`, its records (if any) in `records`.
fn arena_of(a: &ArenaArgs, specs: &[BotSpec], records: Option<&std::path::Path>) -> Result<String> {
    let specs: Vec<BotSpec> = specs.to_vec();
    anyhow::ensure!(!specs.is_empty(), "--bots: name at least one bot");
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    let k = specs.len() as u64;
    let games = a.games.div_ceil(k) * k;
    let base = a.setup.setup(a.seed)?;
    let players = base.players as usize;
    let mut done: Vec<Option<GameResult>> = vec![None; games as usize];
    if let Some(dir) = records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let manifest =
            Manifest { bots: specs.iter().map(ToString::to_string).collect(), seed: a.seed, setup: base.clone() };
        let path = dir.join("arena.json");
        if a.resume && path.exists() {
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let old: Manifest = serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
            anyhow::ensure!(
                old == manifest,
                "{} is an arena of other bots, another setup or another seed; resume it with the same options or \
                 choose another directory",
                dir.display()
            );
            for (g, slot) in done.iter_mut().enumerate() {
                let p = dir.join(format!("game-{}.result.json", g + 1));
                if p.exists() {
                    let text = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
                    let saved: SavedResult =
                        serde_json::from_str(&text).with_context(|| format!("reading {}", p.display()))?;
                    let mut r = saved.into_result();
                    // The breakdown is worked out again from the game's record, when it is there.
                    let record = dir.join(format!("game-{}.json", g + 1));
                    if let Ok(text) = std::fs::read_to_string(&record)
                        && let Ok(rec) = carcassonne::Record::from_json(&text)
                    {
                        r.breakdown = carcassonne_ai::breakdown::of_record(&rec).unwrap_or_default();
                    }
                    *slot = Some(r);
                }
            }
        }
        std::fs::write(&path, serde_json::to_string_pretty(&manifest)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let resumed: Vec<GameResult> = done.iter().flatten().cloned().collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most_threads = specs.iter().filter_map(|s| s.mcts().map(|c| c.threads)).max().unwrap_or(1);
    let jobs = a.jobs.unwrap_or((cores / most_threads).max(1)).max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().context("starting the game threads")?;
    let bar = crate::progress::bar(games, "games", a.json);
    bar.set_position(resumed.len() as u64);
    bar.tick();
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // Wins and seats so far, by bot, for the progress bar's message.
    let tally: Mutex<Vec<(f64, u64)>> = Mutex::new(vec![(0.0, 0); specs.len()]);
    for r in &resumed {
        count_wins(&mut tally.lock().expect("not poisoned"), r);
    }
    let start = Instant::now();
    let mut results: Vec<GameResult> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .filter(|&g| done[g as usize].is_none())
            .filter_map(|g| {
                let mut setup = base.clone();
                setup.seed = a.seed.wrapping_add(g / k);
                let (seats, mut bots) = seat_bots(&specs, players, setup.seed, g);
                let out = match play_game(&setup, &mut bots, records.is_some()) {
                    Ok(mut r) => {
                        r.seats = seats;
                        let mut t = tally.lock().expect("not poisoned");
                        count_wins(&mut t, &r);
                        let msg: Vec<String> = t
                            .iter()
                            .zip(&specs)
                            .map(|((w, n), sp)| format!("{sp} {:.0}%", 100.0 * w / (*n).max(1) as f64))
                            .collect();
                        bar.set_message(format!("wins so far: {}", msg.join(", ")));
                        drop(t);
                        if let (Some(dir), Some(rec)) = (records, &r.record) {
                            let path = dir.join(format!("game-{}.json", g + 1));
                            let tally_path = dir.join(format!("game-{}.result.json", g + 1));
                            // The tally is written after the record: a game counts as done only once both are saved.
                            let written = std::fs::write(&path, rec.to_json())
                                .map_err(|e| format!("writing {}: {e}", path.display()))
                                .and_then(|()| {
                                    let text = serde_json::to_string(&SavedResult::of(&r)).expect("plain data");
                                    std::fs::write(&tally_path, text)
                                        .map_err(|e| format!("writing {}: {e}", tally_path.display()))
                                });
                            if let Err(e) = written {
                                errors.lock().expect("not poisoned").push(e);
                            }
                        }
                        r.record = None;
                        Some(r)
                    }
                    Err(e) => {
                        errors.lock().expect("not poisoned").push(format!("game {} (seed {}): {e}", g + 1, setup.seed));
                        None
                    }
                };
                bar.inc(1);
                out
            })
            .collect()
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let resumed_games = resumed.len() as u64;
    results.extend(resumed);
    let summary = summarise(&specs, &results);
    let errors = errors.into_inner().expect("not poisoned");
    let report = Report {
        setup: &base,
        summary: &summary,
        seed: a.seed,
        games,
        jobs,
        secs,
        resumed: resumed_games,
        errors: &errors,
    };
    let text = if a.json { report.json()? } else { report.text() };
    if !errors.is_empty() {
        eprint!("{text}");
        anyhow::bail!("{} of {games} games stopped with an error", errors.len());
    }
    Ok(text)
}

/// Add one game's wins (a shared win as a share) and seats to the running tally by bot.
fn count_wins(tally: &mut [(f64, u64)], r: &GameResult) {
    let best = r.scores.iter().max().copied().unwrap_or(0);
    let winners = r.scores.iter().filter(|&&x| x == best).count() as f64;
    for (s, &b) in r.seats.iter().enumerate() {
        tally[b].1 += 1;
        if r.scores[s] == best {
            tally[b].0 += 1.0 / winners;
        }
    }
}

/// What a records directory holds an arena of: `--resume` goes on only with the same bots, setup and seed.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Manifest {
    bots: Vec<String>,
    seed: u64,
    setup: carcassonne::Setup,
}

/// One finished game's tally, saved beside its record so that a resumed arena counts it without replaying it.
#[derive(Debug, Serialize, Deserialize)]
struct SavedResult {
    seed: u64,
    seats: Vec<usize>,
    scores: Vec<i32>,
    decisions: Vec<u64>,
    forced: Vec<u64>,
    thinking_seconds: Vec<f64>,
    longest_seconds: Vec<f64>,
}

impl SavedResult {
    fn of(r: &GameResult) -> SavedResult {
        let secs = |d: &[Duration]| d.iter().map(Duration::as_secs_f64).collect();
        SavedResult {
            seed: r.seed,
            seats: r.seats.clone(),
            scores: r.scores.clone(),
            decisions: r.decisions.clone(),
            forced: r.forced.clone(),
            thinking_seconds: secs(&r.thinking),
            longest_seconds: secs(&r.longest),
        }
    }

    fn into_result(self) -> GameResult {
        let durations = |v: Vec<f64>| v.into_iter().map(|s| Duration::from_secs_f64(s.max(0.0))).collect();
        GameResult {
            seed: self.seed,
            seats: self.seats,
            scores: self.scores,
            decisions: self.decisions,
            forced: self.forced,
            thinking: durations(self.thinking_seconds),
            longest: durations(self.longest_seconds),
            breakdown: Vec::new(),
            record: None,
        }
    }
}

/// Where each bot's points came from, a game on average: by kind, scored during the game and at the end, and its
/// followers placed by role and left idle.
fn breakdown_text(out: &mut String, s: &carcassonne_ai::arena::Summary, w: usize) {
    use carcassonne_ai::breakdown::{POINT_KINDS, ROLE_KINDS};
    if s.bots.iter().all(|b| b.explained == 0) {
        return;
    }
    outln!(
        out,
        "points a game, during the game + at the end (the rest of the line: followers placed, and idle at the end):"
    );
    let mut head = format!("{:<w$}", "bot");
    for k in POINT_KINDS {
        head.push_str(&format!("  {k:>15}"));
    }
    for k in ROLE_KINDS {
        head.push_str(&format!("  {:>5}", &k[..k.len().min(5)]));
    }
    head.push_str("   idle");
    outln!(out, "{head}");
    for b in &s.bots {
        let d = &b.breakdown;
        let mut line = format!("{:<w$}", b.spec);
        for i in 0..POINT_KINDS.len() {
            line.push_str(&format!("  {:>15}", format!("{:.1} + {:.1}", d.during[i], d.at_end[i])));
        }
        for i in 0..ROLE_KINDS.len() {
            line.push_str(&format!("  {:>5.1}", d.placed[i]));
        }
        line.push_str(&format!("  {:>5.1}", d.idle_at_end));
        outln!(out, "{line}");
    }
}

fn breakdown_json(b: &carcassonne_ai::arena::BotSummary) -> serde_json::Value {
    use carcassonne_ai::breakdown::{POINT_KINDS, ROLE_KINDS};
    let d = &b.breakdown;
    let points: serde_json::Map<String, serde_json::Value> = POINT_KINDS
        .iter()
        .enumerate()
        .map(|(i, k)| (k.to_string(), json!({ "during": d.during[i], "at_end": d.at_end[i] })))
        .collect();
    let placed: serde_json::Map<String, serde_json::Value> =
        ROLE_KINDS.iter().enumerate().map(|(i, k)| (k.to_string(), json!(d.placed[i]))).collect();
    json!({ "seats": b.explained, "points": points, "followers_placed": placed, "idle_at_end": d.idle_at_end })
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+∞".into() } else { "-∞".into() }
    } else if x.abs() < 0.5 {
        "0".into()
    } else {
        format!("{x:+.0}")
    }
}

/// What an arena report is made of.
struct Report<'a> {
    setup: &'a carcassonne::Setup,
    summary: &'a Summary,
    seed: u64,
    /// Games asked for (after rounding).
    games: u64,
    jobs: usize,
    secs: f64,
    /// Games counted from an earlier run (`--resume`).
    resumed: u64,
    errors: &'a [String],
}

impl Report<'_> {
    fn text(&self) -> String {
        let Report { setup, summary: s, games, jobs, secs, resumed, errors, .. } = *self;
        let mut out = String::new();
        use crate::input::count as plural;
        outln!(
            out,
            "{} of {}, sets {}, {} at a time, in {secs:.1} s",
            plural(s.games, "game", "games"),
            plural(setup.players as u64, "player", "players"),
            setup.sets.join(","),
            jobs
        );
        if resumed > 0 {
            outln!(
                out,
                "({} counted from an earlier run, not timed in the line above)",
                plural(resumed, "game", "games")
            );
        }
        if s.games < games {
            outln!(out, "({} of {games} games finished)", s.games);
        }
        let w = s.bots.iter().map(|b| b.spec.len()).max().unwrap_or(3).max(3);
        outln!(
            out,
            "{:<w$}  {:>5}  {:>6}  {:>6}  {:>15}  {:>6}  {:>7}  {:>10}  {:>9}  {:>8}",
            "bot",
            "seats",
            "wins",
            "win %",
            "95% interval",
            "score",
            "margin",
            "decisions/s",
            "mean ms",
            "max ms"
        );
        for b in &s.bots {
            let (lo, hi) = b.win_interval;
            outln!(
                out,
                "{:<w$}  {:>5}  {:>6.1}  {:>6}  {:>15}  {:>6.1}  {:>+7.1}  {:>10.0}  {:>9.1}  {:>8.0}",
                b.spec,
                b.seats,
                b.wins,
                pct(b.win_rate()),
                format!("{}–{}", pct(lo), pct(hi)),
                b.mean_score,
                b.mean_margin,
                b.decisions_per_second(),
                b.mean_decision().as_secs_f64() * 1e3,
                b.longest.as_secs_f64() * 1e3
            );
        }
        for p in &s.pairings {
            let e = p.elo;
            outln!(
                out,
                "{} vs {}: Elo {} (95% interval {} to {}), score {:.3} over {} pairings",
                s.bots[p.a].spec,
                s.bots[p.b].spec,
                elo_text(e.elo),
                elo_text(e.low),
                elo_text(e.high),
                e.score,
                e.n
            );
        }
        outln!(out, "(mean ms: a decision with more than one legal answer; decisions/s: all of the bot's decisions)");
        breakdown_text(&mut out, s, w);
        for e in errors {
            outln!(out, "error: {e}");
        }
        out
    }

    fn json(&self) -> Result<String> {
        let Report { setup, summary: s, seed, games, jobs, secs, resumed, errors } = *self;
        let bots: Vec<serde_json::Value> = s
            .bots
            .iter()
            .map(|b| {
                json!({
                    "bot": b.spec, "seats": b.seats, "wins": b.wins, "win_rate": b.win_rate(),
                    "win_rate_95": [b.win_interval.0, b.win_interval.1], "mean_score": b.mean_score,
                    "mean_margin": b.mean_margin, "decisions": b.decisions, "forced_decisions": b.forced,
                    "thinking_seconds": b.thinking.as_secs_f64(), "decisions_per_second": b.decisions_per_second(),
                    "mean_decision_ms": b.mean_decision().as_secs_f64() * 1e3,
                    "longest_decision_ms": b.longest.as_secs_f64() * 1e3,
                    "breakdown": breakdown_json(b),
                })
            })
            .collect();
        let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
        let pairings: Vec<serde_json::Value> = s
            .pairings
            .iter()
            .map(|p| {
                json!({
                    "bot": s.bots[p.a].spec, "opponent": s.bots[p.b].spec, "elo": finite(p.elo.elo),
                    "elo_95": [finite(p.elo.low), finite(p.elo.high)], "score": p.elo.score, "pairings": p.elo.n,
                })
            })
            .collect();
        let v = json!({
            "games": s.games, "games_asked": games, "players": setup.players, "sets": setup.sets,
            "rules": setup.rules.non_defaults(), "seed": seed, "jobs": jobs, "seconds": secs, "resumed": resumed,
            "bots": bots, "pairings": pairings, "errors": errors,
        });
        let mut out = serde_json::to_string_pretty(&v)?;
        out.push('\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        arena: super::ArenaArgs,
    }

    fn run(args: &str) -> anyhow::Result<serde_json::Value> {
        let cli = Cli::try_parse_from(std::iter::once("arena").chain(args.split_whitespace()))?;
        Ok(serde_json::from_str(&super::arena(&cli.arena)?)?)
    }

    #[test]
    fn a_resumed_arena_counts_what_was_saved_and_plays_the_rest() {
        let dir = std::env::temp_dir().join(format!("carc-arena-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.display();
        let full = run(&format!("--bots greedy,random --games 4 --json --records {d}")).unwrap();
        assert_eq!(full["resumed"], 0);
        // As if the run had stopped before games 2 and 4 were saved.
        for g in [2, 4] {
            std::fs::remove_file(dir.join(format!("game-{g}.result.json"))).unwrap();
        }
        let resumed = run(&format!("--bots greedy,random --games 4 --json --records {d} --resume")).unwrap();
        assert_eq!(resumed["resumed"], 2);
        assert_eq!(resumed["games"], 4);
        for key in ["wins", "mean_score", "mean_margin", "decisions"] {
            for b in 0..2 {
                assert_eq!(resumed["bots"][b][key], full["bots"][b][key], "{key} of bot {b}");
            }
        }
        assert!(dir.join("game-2.result.json").exists(), "the replayed games are saved again");
        let other = run(&format!("--bots greedy,greedy --games 4 --json --records {d} --resume"));
        assert!(other.unwrap_err().to_string().contains("an arena of other bots"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_gauntlet_of_more_players_seats_the_bot_once_a_game() {
        let v = run("--gauntlet random --games 3 --players 3 --json").unwrap();
        let list = v["gauntlet"].as_array().unwrap();
        assert_eq!(list.len(), 4, "one arena per gauntlet bot");
        for row in list {
            let bots = row["arena"]["bots"].as_array().unwrap();
            assert_eq!(bots.len(), 3, "the bot and the opponent in each other seat");
            assert_eq!(bots[0]["bot"], "random");
            assert!(bots[1..].iter().all(|b| b["bot"] == row["opponent"]));
            assert_eq!(bots[0]["seats"], 3, "one seat a game");
        }
    }

    #[test]
    fn the_help_names_every_setting() {
        for (key, _) in carcassonne_ai::spec::MCTS_KEYS {
            assert!(super::BOTS_HELP.contains(&format!("\n  {key} ")), "{key} missing from the help");
        }
        for key in carcassonne_ai::spec::weight_keys() {
            assert!(super::BOTS_HELP.contains(key), "{key} missing from the help");
        }
    }
}
