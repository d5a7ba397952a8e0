//! `carc bench`: the engine's speed on uniformly random 2-player games, one thread: the base game (farmers
//! included), and with `--expansions` also base + Princess & Dragon, base + Crop Circles, base + Halflings and
//! everything, timed in interleaved rounds of the same run so the figures can be compared.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use carcassonne::{Game, GameConfig, Setup};

/// Options of `carc bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// How many games to time per configuration, in all.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Split the games into this many timed rounds and report the best and the median round (shared machines are
    /// noisy: the best round is the machine's own speed, the median what a busy machine gives).
    #[arg(long, default_value_t = 5)]
    rounds: u64,
    /// Also time base + Princess & Dragon, base + Crop Circles, base + Halflings and every module together,
    /// interleaved with the base game round by round.
    #[arg(long)]
    expansions: bool,
    /// Measure the search instead: MCTS iterations per second (the `hard` level's settings) on one thread and on
    /// two, for the base game and for every module together, over positions from the opening to the end game.
    #[arg(long)]
    ai: bool,
    /// With --ai: iterations per position searched.
    #[arg(long, default_value_t = 20_000)]
    iterations: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Compare with another `carc` binary (an older build): run its `carc bench --json` and this binary's, with the
    /// same options, in turn (other, this, other, this, …) for --rounds rounds, and print each figure for both, the
    /// best and the median round, and their ratio.
    #[arg(long, value_name = "OTHER_CARC")]
    compare: Option<std::path::PathBuf>,
}

/// One timed configuration.
struct Config {
    name: &'static str,
    config: Arc<GameConfig>,
    rates: Vec<f64>,
    seconds: f64,
    decisions: u64,
}

fn setup(sets: &[&str], modules: &[&str]) -> Result<Arc<GameConfig>> {
    let mut s = Setup::new(2);
    s.sets = sets.iter().map(|x| x.to_string()).collect();
    for m in modules {
        s.rules.set(&format!("modules.{m}"), "true")?;
    }
    Ok(s.prepare()?)
}

fn configs(expansions: bool) -> Result<Vec<Config>> {
    let pd = ["dragon", "fairy", "princess", "portal"];
    let all = ["abbey", "mayor", "wagon", "barn", "dragon", "fairy", "princess", "portal", "crop_circles", "halflings"];
    let mut list = vec![("base", setup(&["base"], &[])?)];
    if expansions {
        list.push(("base + princess & dragon", setup(&["base", "pd"], &pd)?));
        list.push(("base + crop circles", setup(&["base", "cc"], &["crop_circles"])?));
        list.push(("base + halflings", setup(&["base", "half"], &["halflings"])?));
        list.push(("everything", setup(&["base", "am", "pd", "cc", "half"], &all)?));
    }
    Ok(list
        .into_iter()
        .map(|(name, config)| Config { name, config, rates: Vec::new(), seconds: 0.0, decisions: 0 })
        .collect())
}

pub(crate) fn bench(a: &BenchArgs) -> Result<String> {
    if let Some(other) = &a.compare {
        return compare(a, other);
    }
    if a.ai {
        return bench_ai(a);
    }
    let mut out = String::new();
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    anyhow::ensure!(a.rounds > 0 && a.rounds <= a.games, "--rounds must be between 1 and --games");
    let mut configs = configs(a.expansions)?;
    // The players' choices need speed, not a portable stream: the fast small generator.
    let mut rng = SmallRng::seed_from_u64(1);
    let mut buf = Vec::with_capacity(256);
    // Warm up.
    for c in &configs {
        for s in 0..200 {
            let mut g = Game::from_config(c.config.clone(), s);
            g.play_random(&mut rng, &mut buf);
        }
    }
    let per_round = a.games / a.rounds;
    let mut total = 0i64;
    let bar = crate::progress::bar(a.rounds, "rounds", a.json);
    for round in 0..a.rounds {
        bar.set_message(format!("round {} of {}", round + 1, a.rounds));
        for c in &mut configs {
            let mut g = Game::from_config(c.config.clone(), 0);
            let first = c.rates.len() as u64 * per_round;
            let start = Instant::now();
            for seed in first..first + per_round {
                g.restart(seed);
                while let Some(act) = g.random_action(&mut rng, &mut buf) {
                    g.apply_unchecked(act);
                    c.decisions += 1;
                }
                total += g.scores().iter().map(|&x| x as i64).sum::<i64>();
            }
            let t = start.elapsed().as_secs_f64();
            c.seconds += t;
            c.rates.push(per_round as f64 / t);
        }
        bar.inc(1);
        bar.println(format!(
            "round {}: {}",
            round + 1,
            configs
                .iter()
                .map(|c| format!("{} {:.0} games/s", c.name, c.rates[round as usize]))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    bar.finish_and_clear();
    black_box(total);

    // A mid-game state of the base game: 35 tiles placed.
    let mut mid = Game::from_config(configs[0].config.clone(), 12345);
    // Its own generator, so the state measured is the same whichever configurations were timed.
    let mut rng = SmallRng::seed_from_u64(7);
    while mid.board().tiles().len() < 36 {
        let act = mid.random_action(&mut rng, &mut buf).expect("the game is not over");
        mid.apply_unchecked(act);
    }
    let clones = 20_000u32;
    let t = Instant::now();
    for _ in 0..clones {
        black_box(black_box(&mid).clone());
    }
    let clone_ns = t.elapsed().as_nanos() as f64 / clones as f64;
    let (bytes, in_use) = (mid.state_bytes(), mid.state_bytes_in_use());
    let games = per_round * a.rounds;
    let figures = |c: &Config| {
        let mut r = c.rates.clone();
        r.sort_by(f64::total_cmp);
        (r[r.len() - 1], r[r.len() / 2], c.decisions as f64 / games as f64)
    };
    if a.json {
        let rows: Vec<serde_json::Value> = configs
            .iter()
            .map(|c| {
                let (best, median, decisions) = figures(c);
                serde_json::json!({
                    "configuration": c.name, "games": games, "rounds": a.rounds, "seconds": c.seconds,
                    "games_per_second_best_round": best, "games_per_second_median_round": median,
                    "decisions_per_game": decisions,
                })
            })
            .collect();
        outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "configurations": rows, "mid_game_state_bytes": bytes,
                "mid_game_state_bytes_in_use": in_use, "clone_ns": clone_ns,
            }))?
        );
    } else {
        outln!(out, "random 2-player games, 1 thread, {games} games per configuration in {} rounds:", a.rounds);
        for c in &configs {
            let (best, median, decisions) = figures(c);
            outln!(
                out,
                "  {:<26} {best:>8.0} games/s best round, {median:>8.0} median ({decisions:.0} decisions/game, {:.2} s)",
                c.name,
                c.seconds
            );
        }
        outln!(
            out,
            "mid-game base state (35 tiles placed): {bytes} bytes held, {in_use} in use; clone: {clone_ns:.0} ns"
        );
    }
    Ok(out)
}

/// `carc bench --ai`: MCTS iterations per second.
fn bench_ai(a: &BenchArgs) -> Result<String> {
    use carcassonne::{Action, Actor};
    use carcassonne_ai::{Bot, Level, MctsBot, MctsConfig};

    anyhow::ensure!(a.iterations > 0, "--iterations must be at least 1");
    let configs = configs(true)?;
    let chosen = [&configs[0], &configs[configs.len() - 1]];
    // Positions 10%, 30%, 50%, 70% and 90% of the way through a random game, from three deals.
    let mut rows = Vec::new();
    let mut evals = Vec::new();
    let bar = crate::progress::bar((chosen.len() * 2 * 15) as u64, "searches", a.json);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut buf = Vec::new();
    for c in chosen {
        let mut positions = Vec::new();
        for deal in 0..3u64 {
            let mut g = Game::from_config(c.config.clone(), 100 + deal);
            let mut length = 0u64;
            let mut probe = g.clone();
            while let Some(act) = probe.random_action(&mut rng, &mut buf) {
                probe.apply_unchecked(act);
                length += 1;
            }
            let mut done = 0u64;
            for tenth in [1u64, 3, 5, 7, 9] {
                while done < length * tenth / 10 {
                    match g.random_action(&mut rng, &mut buf) {
                        Some(act) => g.apply_unchecked(act),
                        None => break,
                    }
                    done += 1;
                }
                // The next decision a player takes with more than one answer.
                let mut p = g.clone();
                loop {
                    match p.decision().actor {
                        Actor::Chance => p.apply_unchecked(Action::Draw(p.next_draw().expect("a tile"))),
                        Actor::Player(_) if p.legal_actions().len() > 1 => break,
                        Actor::Player(_) => {
                            let act = p.random_action(&mut rng, &mut buf).expect("an action");
                            p.apply_unchecked(act);
                        }
                        Actor::Nobody => break,
                    }
                }
                if let Actor::Player(me) = p.decision().actor {
                    positions.push((p, me));
                }
            }
        }
        evals.push((c.name, eval_rate(&positions, 0.0), eval_rate(&positions, 1.0)));
        for threads in [1usize, 2] {
            bar.set_message(format!("{}, {threads} thread(s)", c.name));
            let mut cfg: MctsConfig = Level::Hard.config();
            cfg.threads = threads;
            cfg.budget = carcassonne_ai::Budget { iterations: Some(a.iterations), time: None };
            // Every search runs its whole budget: this measures the speed of an iteration, not how often a search
            // can stop early (`early` saves iterations, not time per iteration).
            cfg.early = false;
            cfg.carry = false;
            let mut iterations = 0u64;
            let mut secs = 0.0;
            for (i, (p, me)) in positions.iter().enumerate() {
                let mut bot = MctsBot::new(cfg, i as u64, "bench");
                let t = bot.think(p, *me)?;
                iterations += t.iterations;
                secs += t.elapsed.as_secs_f64();
                bar.inc(1);
            }
            rows.push((c.name, threads, positions.len(), iterations, secs));
        }
    }
    bar.finish_and_clear();
    let mut out = String::new();
    if a.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(name, threads, positions, its, secs)| {
                serde_json::json!({
                    "configuration": name, "threads": threads, "positions": positions, "iterations": its,
                    "seconds": secs, "iterations_per_second": *its as f64 / secs,
                })
            })
            .collect();
        let e: Vec<serde_json::Value> = evals
            .iter()
            .map(|(name, hand, learned)| {
                serde_json::json!({ "configuration": name, "hand_per_second": hand, "learned_per_second": learned })
            })
            .collect();
        outln!(out, "{}", serde_json::to_string_pretty(&serde_json::json!({ "mcts": v, "evaluation": e }))?);
    } else {
        outln!(out, "MCTS (the hard level's search), {} iterations per position, 2 players:", a.iterations);
        for (name, threads, positions, its, secs) in &rows {
            outln!(
                out,
                "  {name:<12} {threads} thread{}: {:>9.0} iterations/s ({positions} positions, {secs:.2} s)",
                if *threads == 1 { " " } else { "s" },
                *its as f64 / secs
            );
        }
        outln!(out, "The static evaluation (every player's points at a position), one thread:");
        for (name, hand, learned) in &evals {
            outln!(
                out,
                "  {name:<12} hand-written {hand:>9.0} positions/s, learned (generation {}) {learned:>9.0} positions/s",
                carcassonne_ai::value::GENERATION
            );
        }
    }
    Ok(out)
}

/// Positions a second the evaluation values, with `learned` of the learned value blended in: every position in
/// turn, for at least 0.3 s.
fn eval_rate(positions: &[(Game, carcassonne::Player)], learned: f32) -> f64 {
    let mut e = carcassonne_ai::eval::Evaluator::new(carcassonne_ai::eval::Weights {
        learned,
        ..carcassonne_ai::Level::Hard.config().weights
    });
    let start = std::time::Instant::now();
    let mut done = 0u64;
    let mut sink = 0f32;
    while start.elapsed().as_secs_f64() < 0.3 || done == 0 {
        for (p, _) in positions {
            sink += e.points(p)[0];
            done += 1;
        }
    }
    std::hint::black_box(sink);
    done as f64 / start.elapsed().as_secs_f64()
}

/// One figure of a comparison: its name, whether more is better, and its value in each round for each binary.
struct Figure {
    name: String,
    higher_is_better: bool,
    values: [Vec<f64>; 2],
}

/// The figures of one `carc bench --json` (or `--ai --json`) output, in its order.
fn figures_of(v: &serde_json::Value) -> Result<Vec<(String, bool, f64)>> {
    let num = |x: &serde_json::Value, key: &str| {
        x[key].as_f64().ok_or_else(|| anyhow::anyhow!("no number `{key}` in the bench output"))
    };
    let mut out = Vec::new();
    if let Some(rows) = v["mcts"].as_array() {
        for r in rows {
            let threads = num(r, "threads")?;
            let name = r["configuration"].as_str().unwrap_or("?");
            let s = if threads == 1.0 { "" } else { "s" };
            out.push((format!("{name}, {threads} thread{s}: iterations/s"), true, num(r, "iterations_per_second")?));
        }
    } else if let Some(rows) = v["configurations"].as_array() {
        for r in rows {
            let name = r["configuration"].as_str().unwrap_or("?");
            out.push((format!("{name}: games/s"), true, num(r, "games_per_second_best_round")?));
        }
        out.push(("mid-game base state: bytes".into(), false, num(v, "mid_game_state_bytes")?));
        // Older builds print only what is held.
        if let Ok(n) = num(v, "mid_game_state_bytes_in_use") {
            out.push(("mid-game base state: bytes in use".into(), false, n));
        }
        out.push(("mid-game base state: clone ns".into(), false, num(v, "clone_ns")?));
    } else {
        anyhow::bail!("the bench output has neither `configurations` nor `mcts`");
    }
    Ok(out)
}

/// `carc bench --compare OTHER_CARC`: both binaries on the same workloads, interleaved round by round.
fn compare(a: &BenchArgs, other: &std::path::Path) -> Result<String> {
    use anyhow::Context;
    anyhow::ensure!(a.rounds > 0, "--rounds must be at least 1");
    let me = std::env::current_exe().context("finding this binary")?;
    let mut args = vec!["bench".to_string(), "--json".into()];
    let workload = if a.ai {
        anyhow::ensure!(a.iterations > 0, "--iterations must be at least 1");
        args.extend(["--ai".into(), "--iterations".into(), a.iterations.to_string()]);
        format!("`carc bench --ai --iterations {}`", a.iterations)
    } else {
        anyhow::ensure!(a.games >= a.rounds, "--games must be at least --rounds");
        let per_round = a.games / a.rounds;
        args.extend(["--games".into(), per_round.to_string(), "--rounds".into(), "1".into()]);
        if a.expansions {
            args.push("--expansions".into());
        }
        format!("`carc bench{} --games {per_round} --rounds 1`", if a.expansions { " --expansions" } else { "" })
    };
    let bins = [other.to_path_buf(), me];
    let mut figures: Vec<Figure> = Vec::new();
    let bar = crate::progress::bar(a.rounds * 2, "runs", a.json);
    for round in 0..a.rounds {
        for (i, bin) in bins.iter().enumerate() {
            bar.set_message(format!("round {} of {}, {}", round + 1, a.rounds, if i == 0 { "A" } else { "B" }));
            let run = std::process::Command::new(bin)
                .args(&args)
                .output()
                .with_context(|| format!("running {}", bin.display()))?;
            anyhow::ensure!(
                run.status.success(),
                "{} {} failed ({}): {}",
                bin.display(),
                args.join(" "),
                run.status,
                String::from_utf8_lossy(&run.stderr).trim()
            );
            let v: serde_json::Value = serde_json::from_slice(&run.stdout)
                .with_context(|| format!("reading the JSON of {} {}", bin.display(), args.join(" ")))?;
            for (name, higher_is_better, value) in figures_of(&v)? {
                let at = match figures.iter().position(|f| f.name == name) {
                    Some(at) => at,
                    None => {
                        figures.push(Figure { name, higher_is_better, values: [Vec::new(), Vec::new()] });
                        figures.len() - 1
                    }
                };
                figures[at].values[i].push(value);
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    // Best and median round of one binary's values (best is the highest, or the lowest for sizes and times).
    let summary = |f: &Figure, i: usize| -> Option<(f64, f64)> {
        let mut r = f.values[i].clone();
        if r.is_empty() {
            return None;
        }
        r.sort_by(f64::total_cmp);
        let best = if f.higher_is_better { r[r.len() - 1] } else { r[0] };
        Some((best, (r[(r.len() - 1) / 2] + r[r.len() / 2]) / 2.0))
    };
    let mut out = String::new();
    if a.json {
        let rows: Vec<serde_json::Value> = figures
            .iter()
            .map(|f| {
                let (ab, am) = summary(f, 0).unwrap_or((f64::NAN, f64::NAN));
                let (bb, bm) = summary(f, 1).unwrap_or((f64::NAN, f64::NAN));
                serde_json::json!({
                    "figure": f.name, "higher_is_better": f.higher_is_better,
                    "a_rounds": f.values[0], "b_rounds": f.values[1],
                    "a_best": ab, "b_best": bb, "ratio_best": bb / ab,
                    "a_median": am, "b_median": bm, "ratio_median": bm / am,
                })
            })
            .collect();
        outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "a": bins[0].display().to_string(), "b": bins[1].display().to_string(), "rounds": a.rounds,
                "workload": workload, "figures": rows,
            }))?
        );
        return Ok(out);
    }
    outln!(out, "A = {}", bins[0].display());
    outln!(out, "B = {} (this binary)", bins[1].display());
    outln!(out, "{} rounds of {workload}, run A then B in each round:", a.rounds);
    let w = figures.iter().map(|f| f.name.len()).max().unwrap_or(6).max(6);
    outln!(
        out,
        "  {:<w$}  {:>12} {:>12} {:>6}  {:>12} {:>12} {:>6}",
        "figure",
        "A best",
        "B best",
        "B/A",
        "A median",
        "B median",
        "B/A"
    );
    for f in &figures {
        let (Some((ab, am)), Some((bb, bm))) = (summary(f, 0), summary(f, 1)) else {
            outln!(out, "  {:<w$}  (only one binary reports it)", f.name);
            continue;
        };
        outln!(out, "  {:<w$}  {ab:>12.0} {bb:>12.0} {:>6.3}  {am:>12.0} {bm:>12.0} {:>6.3}", f.name, bb / ab, bm / am);
    }
    outln!(
        out,
        "B/A above 1 means B is faster for games/s and iterations/s; below 1, B is smaller or faster for bytes and ns."
    );
    Ok(out)
}
