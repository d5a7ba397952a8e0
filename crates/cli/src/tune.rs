//! `carc tune`: SPSA over a bot's numeric settings by self-play (or against other bots), with a log that can be
//! resumed.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

use carcassonne::Setup;
use carcassonne_ai::arena::{play_game, seating};
use carcassonne_ai::tune::{Param, Spsa, reward};
use carcassonne_ai::{Bot, BotSpec};

use crate::SetupArgs;
use crate::arena::{parse_bots, parse_one_bot};

/// Options of `carc tune`.
#[derive(Clone, Debug, Args)]
pub(crate) struct TuneArgs {
    /// The bot to tune, as a spec: its settings are where tuning starts (`hard:iterations=2000,threads=1`).
    #[arg(long, value_parser = parse_one_bot)]
    bot: BotSpec,
    /// The settings to tune, comma-separated, each KEY or KEY=SCALE (the first perturbation; by default a tenth of
    /// the value): `city_close,extra_end=0.05,c`.
    #[arg(long, value_delimiter = ',', required = true)]
    params: Vec<String>,
    /// Who the two perturbed players are measured against: `self` (the + player plays the − player), or bots
    /// separated by `;` or `,` (`gauntlet` names the four gauntlet bots), taken in turn, one a step; then both
    /// players meet that opponent on the same deals.
    #[arg(long, default_value = "self")]
    against: String,
    /// SPSA steps.
    #[arg(long, default_value_t = 200)]
    steps: u64,
    /// Deals a step, each played with the seats swapped (by default the games played at once, or one).
    #[arg(long)]
    pairs: Option<u64>,
    /// SPSA's step gain `a`: how many scales the first step moves a parameter for a result difference of 1.
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// Seed of the deals and of the perturbations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    setup: SetupArgs,
    /// Games played at once (default: the cores, divided by the most threads any bot searches with).
    #[arg(long)]
    jobs: Option<usize>,
    /// Append every step to FILE (JSON lines: a header, then one line a step).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// With --log: go on from the last step in FILE (a run with the same options), or start it if it is empty.
    #[arg(long, requires = "log")]
    resume: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// The log's first line: what the run is. A resumed run must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    carc_tune: u32,
    bot: String,
    params: Vec<ParamLine>,
    against: Vec<String>,
    steps: u64,
    pairs: u64,
    rate: f64,
    seed: u64,
    setup: Setup,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ParamLine {
    key: String,
    start: f64,
    scale: f64,
}

/// A game's final scores, and for each seat the side it played (`Some(true)` the + player, `None` an opponent).
type Outcome = (Vec<i32>, Vec<Option<bool>>);

/// One step of the log.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StepLine {
    step: u64,
    opponent: String,
    theta: Vec<f64>,
    plus: Vec<f64>,
    minus: Vec<f64>,
    games: u64,
    y_plus: f64,
    y_minus: f64,
    next: Vec<f64>,
    secs: f64,
}

fn parse_param(s: &str) -> Result<(String, Option<f64>)> {
    match s.split_once('=') {
        None => Ok((s.trim().to_string(), None)),
        Some((k, v)) => {
            let x: f64 = v.trim().parse().with_context(|| format!("--params `{s}`: the scale must be a number"))?;
            anyhow::ensure!(x.is_finite() && x > 0.0, "--params `{s}`: the scale must be above 0");
            Ok((k.trim().to_string(), Some(x)))
        }
    }
}

/// The opponents, or `None` for self-play.
fn opponents(text: &str) -> Result<Option<Vec<BotSpec>>> {
    if text.trim() == "self" {
        return Ok(None);
    }
    let mut out = Vec::new();
    for part in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        if part == "gauntlet" {
            out.extend(BotSpec::gauntlet());
        } else {
            out.extend(parse_bots(part).map_err(|e| anyhow::anyhow!("--against: {e}"))?);
        }
    }
    anyhow::ensure!(!out.is_empty(), "--against: name `self`, `gauntlet` or at least one bot");
    Ok(Some(out))
}

/// Read a log: its header, its steps in order, and the length of the part that holds them (a last line cut short
/// by a stop is left out, to be cut off and played again).
fn read_log(path: &Path) -> Result<(Option<Header>, Vec<StepLine>, u64)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((None, Vec::new(), 0)),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let mut header = None;
    let mut steps = Vec::new();
    let mut good = 0u64;
    let mut at = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        at += l.len();
        let complete = l.ends_with('\n');
        let body = l.trim();
        if body.is_empty() {
            good = at as u64;
            continue;
        }
        if i == 0 || header.is_none() {
            let h: Header = match serde_json::from_str(body) {
                Ok(h) => h,
                Err(_) if !complete => break,
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("{}: the first line is not a `carc tune` header", path.display()));
                }
            };
            header = Some(h);
        } else {
            match serde_json::from_str::<StepLine>(body) {
                Ok(s) if complete => {
                    anyhow::ensure!(
                        s.step == steps.len() as u64,
                        "{}: step {} is out of order",
                        path.display(),
                        s.step
                    );
                    steps.push(s);
                }
                Ok(_) => break,
                Err(_) if !complete => break,
                Err(e) => return Err(e).with_context(|| format!("{}: line {} is not a step", path.display(), i + 1)),
            }
        }
        good = at as u64;
    }
    Ok((header, steps, good))
}

pub(crate) fn tune(a: &TuneArgs) -> Result<String> {
    anyhow::ensure!(a.steps > 0, "--steps must be at least 1");
    anyhow::ensure!(a.rate.is_finite() && a.rate > 0.0, "--rate must be above 0");
    let setup = a.setup.setup(a.seed)?;
    carcassonne::Game::new(&setup).context("the setup")?;
    let mut params = Vec::new();
    for p in &a.params {
        let (key, scale) = parse_param(p)?;
        anyhow::ensure!(!params.iter().any(|x: &Param| x.key == key), "--params: `{key}` is named twice");
        params.push(Param::of(&a.bot, &key, scale)?);
    }
    let against = opponents(&a.against)?;
    let spsa = Spsa::new(params, a.steps, a.rate);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most_threads = std::iter::once(&a.bot)
        .chain(against.iter().flatten())
        .filter_map(|s| s.mcts().map(|c| c.threads))
        .max()
        .unwrap_or(1);
    let jobs = a.jobs.unwrap_or((cores / most_threads).max(1)).max(1);
    let pairs = a.pairs.unwrap_or(jobs.div_ceil(2) as u64).max(1);
    anyhow::ensure!(pairs <= 10_000, "--pairs is at most 10000");
    let header = Header {
        carc_tune: 1,
        bot: a.bot.to_string(),
        params: spsa.params.iter().map(|p| ParamLine { key: p.key.clone(), start: p.start, scale: p.scale }).collect(),
        against: against.as_ref().map_or(vec!["self".into()], |v| v.iter().map(ToString::to_string).collect()),
        steps: a.steps,
        pairs,
        rate: a.rate,
        seed: a.seed,
        setup: setup.clone(),
    };
    // Where to start: a new run, or the log's last step.
    let mut history: Vec<StepLine> = Vec::new();
    if let Some(path) = &a.log {
        let (old, steps, good) = read_log(path)?;
        match old {
            Some(old) if a.resume => {
                anyhow::ensure!(
                    old == header,
                    "{} is a tuning run with other options; resume it with the same ones or choose another file",
                    path.display()
                );
                history = steps;
                // A line cut short by a stop goes; its step is played again.
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("opening {}", path.display()))?;
                f.set_len(good).with_context(|| format!("writing {}", path.display()))?;
            }
            Some(_) => {
                anyhow::bail!("{} already holds a tuning run: add --resume, or choose another file", path.display())
            }
            None => {
                let mut f = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
                writeln!(f, "{}", serde_json::to_string(&header)?)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
        }
    }
    let mut theta = history.last().map_or_else(|| spsa.start(), |s| s.next.clone());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().context("starting the game threads")?;
    let bar = crate::progress::bar(a.steps, "steps", a.json);
    bar.set_position(history.len() as u64);
    let mut log = match &a.log {
        Some(p) => {
            Some(std::fs::OpenOptions::new().append(true).open(p).with_context(|| format!("opening {}", p.display()))?)
        }
        None => None,
    };
    for k in history.len() as u64..a.steps {
        let t = Instant::now();
        let delta = spsa.signs(a.seed, k);
        let (plus, minus) = spsa.probes(&theta, k, &delta);
        let sp = spsa.spec(&a.bot, &plus)?;
        let sm = spsa.spec(&a.bot, &minus)?;
        let opponent = against.as_ref().map(|v| v[(k % v.len() as u64) as usize].clone());
        // The games of the step: (bots in seat order by side, the side of each bot, deal seed).
        let mut games: Vec<(Vec<BotSpec>, Vec<Option<bool>>, u64)> = Vec::new();
        for j in 0..pairs {
            let seed = a.seed.wrapping_mul(1_000_003).wrapping_add(k * pairs + j);
            for r in 0..2u64 {
                let sides: Vec<(BotSpec, Option<bool>)> = match &opponent {
                    None => vec![(sp.clone(), Some(true)), (sm.clone(), Some(false))],
                    Some(o) => vec![(if r == 0 { sp.clone() } else { sm.clone() }, Some(r == 0)), (o.clone(), None)],
                };
                // Against an opponent, the probe takes each seat in turn and the opponent every other one (at two
                // players, the seats swapped).
                let n = setup.players as usize;
                let rotations: Vec<u64> = if opponent.is_none() { vec![r] } else { (0..n as u64).collect() };
                for rot in rotations {
                    let seats: Vec<usize> = if opponent.is_none() {
                        seating(n, 2, rot)
                    } else {
                        (0..n).map(|s| usize::from(s as u64 != rot)).collect()
                    };
                    games.push((
                        seats.iter().map(|&b| sides[b].0.clone()).collect(),
                        seats.iter().map(|&b| sides[b].1).collect(),
                        seed,
                    ));
                }
            }
        }
        let results: Vec<Result<Outcome>> = pool.install(|| {
            games
                .par_iter()
                .enumerate()
                .map(|(g, (specs, sides, seed))| {
                    let mut s = setup.clone();
                    s.seed = *seed;
                    let mut bots: Vec<Box<dyn Bot>> = specs
                        .iter()
                        .enumerate()
                        .map(|(i, b)| b.build(seed.wrapping_mul(31).wrapping_add(i as u64 * 7 + g as u64)))
                        .collect();
                    let r = play_game(&s, &mut bots, false)
                        .with_context(|| format!("step {} game {} (seed {seed})", k + 1, g + 1))?;
                    Ok((r.scores, sides.clone()))
                })
                .collect()
        });
        let (mut yp, mut np, mut ym, mut nm) = (0.0, 0u32, 0.0, 0u32);
        for r in results {
            let (scores, sides) = r?;
            for (seat, side) in sides.iter().enumerate() {
                match side {
                    Some(true) => {
                        yp += reward(&scores, seat);
                        np += 1;
                    }
                    Some(false) => {
                        ym += reward(&scores, seat);
                        nm += 1;
                    }
                    None => {}
                }
            }
        }
        let (yp, ym) = (yp / f64::from(np.max(1)), ym / f64::from(nm.max(1)));
        let next = spsa.update(&theta, k, &delta, yp, ym);
        let line = StepLine {
            step: k,
            opponent: opponent.as_ref().map_or("self".into(), ToString::to_string),
            theta: theta.clone(),
            plus,
            minus,
            games: games.len() as u64,
            y_plus: yp,
            y_minus: ym,
            next: next.clone(),
            secs: t.elapsed().as_secs_f64(),
        };
        if let (Some(f), Some(p)) = (log.as_mut(), &a.log) {
            writeln!(f, "{}", serde_json::to_string(&line)?).with_context(|| format!("writing {}", p.display()))?;
        }
        history.push(line);
        theta = next;
        bar.inc(1);
        bar.set_message(values(&spsa, &theta));
    }
    bar.finish_and_clear();
    report(a, &spsa, &history, a.json)
}

/// `key=value` for every parameter.
fn values(spsa: &Spsa, theta: &[f64]) -> String {
    spsa.params.iter().zip(theta).map(|(p, t)| format!("{}={}", p.key, short(*t))).collect::<Vec<_>>().join(" ")
}

/// A value with four significant digits, as a spec would read it.
fn short(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" { "0".into() } else { s.to_string() }
}

/// The result: each parameter's start, last and averaged value, and the averaged values as a spec.
fn report(a: &TuneArgs, spsa: &Spsa, history: &[StepLine], json: bool) -> Result<String> {
    let n = spsa.params.len();
    let last = history.last().map_or_else(|| spsa.start(), |s| s.next.clone());
    // The mean of the values over the last quarter of the steps: less noisy than the last step's.
    let tail = &history[history.len() - history.len().div_ceil(4)..];
    let mean: Vec<f64> =
        (0..n).map(|i| tail.iter().map(|s| s.next[i]).sum::<f64>() / tail.len().max(1) as f64).collect();
    let rounded: Vec<f64> = mean.iter().map(|x| short(*x).parse().unwrap_or(*x)).collect();
    let tuned = spsa.spec(&a.bot, &rounded)?;
    let games: u64 = history.iter().map(|s| s.games).sum();
    let secs: f64 = history.iter().map(|s| s.secs).sum();
    let recent = &history[history.len().saturating_sub(20)..];
    let gap = recent.iter().map(|s| (s.y_plus - s.y_minus).abs()).sum::<f64>() / recent.len().max(1) as f64;
    let check = format!("carc arena --bots '{tuned};{}' --games 400", a.bot);
    if json {
        let params: Vec<serde_json::Value> = spsa
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| json!({ "key": p.key, "start": p.start, "scale": p.scale, "last": last[i], "tuned": rounded[i] }))
            .collect();
        return Ok(serde_json::to_string_pretty(&json!({
            "bot": a.bot.to_string(),
            "tuned": tuned.to_string(),
            "steps": history.len(),
            "games": games,
            "seconds": secs,
            "params": params,
            "check": check,
        }))? + "\n");
    }
    let mut out = String::new();
    outln!(out, "tuned {} over {} steps ({games} games, {:.1} s of play)", a.bot, history.len(), secs);
    outln!(out, "{:<16}  {:>10}  {:>10}  {:>10}  {:>9}", "setting", "start", "last", "tuned", "moved");
    for (i, p) in spsa.params.iter().enumerate() {
        outln!(
            out,
            "{:<16}  {:>10}  {:>10}  {:>10}  {:>+8.2}×",
            p.key,
            short(p.start),
            short(last[i]),
            short(rounded[i]),
            (rounded[i] - p.start) / p.scale
        );
    }
    outln!(out, "(tuned: the mean over the last quarter of the steps; moved: in scales, the first perturbation)");
    outln!(out, "mean |result + − result −| over the last {} steps: {gap:.3}", recent.len());
    outln!(out, "tuned spec: {tuned}");
    outln!(out, "check it head to head: {check}");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &str) -> Result<String> {
        use clap::Parser;
        let cli = crate::Cli::try_parse_from(format!("carc tune {args}").split_whitespace())?;
        match cli.command {
            crate::Command::Tune(a) => tune(&a),
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_stopped_run_resumes_to_the_same_values() {
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.jsonl");
        let part = dir.path().join("part.jsonl");
        let opts = "--bot greedy --params city_close,fill=2 --against random --pairs 1 --jobs 1 --json";
        let full = run(&format!("{opts} --steps 4 --log {}", whole.display())).unwrap();
        // The same run stopped after two steps (its log cut to them), then resumed.
        let text = std::fs::read_to_string(&whole).unwrap();
        let kept: Vec<&str> = text.lines().take(3).collect();
        std::fs::write(&part, kept.join("\n") + "\n{\"step\": 2, \"opp").unwrap();
        let resumed = run(&format!("{opts} --steps 4 --log {} --resume", part.display())).unwrap();
        let without_time = |t: &str| {
            let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        };
        assert_eq!(without_time(&full), without_time(&resumed));
        let a = std::fs::read_to_string(&whole).unwrap();
        let b = std::fs::read_to_string(&part).unwrap();
        assert_eq!(a.lines().count(), 5, "a header and four steps");
        let next = |t: &str| -> Vec<serde_json::Value> {
            t.lines()
                .skip(1)
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                .map(|v| v["next"].clone())
                .collect()
        };
        assert_eq!(next(&a), next(&b));
        let v = without_time(&full);
        assert_eq!(v["games"], 4 * 4, "each step: both players, a deal, the seats swapped");
    }

    #[test]
    fn against_an_opponent_at_three_players_each_probe_takes_every_seat_once() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("t.jsonl");
        let opts = "--bot greedy --params fill --against random --players 3 --pairs 1 --jobs 1 --json";
        let v: serde_json::Value =
            serde_json::from_str(&run(&format!("{opts} --steps 2 --log {}", log.display())).unwrap()).unwrap();
        assert_eq!(v["games"], 2 * 2 * 3, "each step: both probes, a deal, each seat once");
    }

    #[test]
    fn bad_options_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("t.jsonl");
        for (args, why) in [
            ("--bot greedy --params c", "no numeric setting `c`"),
            ("--bot random --params c", "no numeric setting"),
            ("--bot greedy --params fill,fill", "named twice"),
            ("--bot greedy --params fill=0", "above 0"),
            ("--bot greedy --params fill --against wizard", "unknown bot"),
            ("--bot greedy --params fill --steps 0", "at least 1"),
        ] {
            let e = run(args).unwrap_err();
            assert!(format!("{e:#}").contains(why), "{args}: {e:#}");
        }
        run(&format!("--bot greedy --params fill --against random --steps 1 --pairs 1 --log {}", log.display()))
            .unwrap();
        let e =
            run(&format!("--bot greedy --params fill --against random --steps 1 --log {}", log.display())).unwrap_err();
        assert!(e.to_string().contains("--resume"), "{e}");
        let e =
            run(&format!("--bot greedy --params road_close --steps 1 --log {} --resume", log.display())).unwrap_err();
        assert!(e.to_string().contains("other options"), "{e}");
    }
}
