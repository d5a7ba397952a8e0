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
    let bytes = mid.state_bytes();
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
                "configurations": rows, "mid_game_state_bytes": bytes, "clone_ns": clone_ns,
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
        outln!(out, "mid-game base state (35 tiles placed): {bytes} bytes; clone: {clone_ns:.0} ns");
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
        for threads in [1usize, 2] {
            bar.set_message(format!("{}, {threads} thread(s)", c.name));
            let mut cfg: MctsConfig = Level::Hard.config();
            cfg.threads = threads;
            cfg.budget = carcassonne_ai::Budget { iterations: Some(a.iterations), time: None };
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
        outln!(out, "{}", serde_json::to_string_pretty(&serde_json::json!({ "mcts": v }))?);
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
    }
    Ok(out)
}
