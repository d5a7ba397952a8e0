//! `carc bench`: the engine's speed on uniformly random 2-player base games (farmers included), one thread.

use std::hint::black_box;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use carcassonne::{Game, Setup};

/// Options of `carc bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// How many games to time, in all.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Split the games into this many timed rounds and report the best and the median round (shared machines are
    /// noisy: the best round is the machine's own speed, the median what a busy machine gives).
    #[arg(long, default_value_t = 5)]
    rounds: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn bench(a: &BenchArgs) -> Result<String> {
    let mut out = String::new();
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    let config = Setup::new(2).prepare()?;
    // The players' choices need speed, not a portable stream: the fast small generator.
    let mut rng = SmallRng::seed_from_u64(1);
    let mut buf = Vec::with_capacity(256);
    // Warm up.
    for s in 0..200 {
        let mut g = Game::from_config(config.clone(), s);
        g.play_random(&mut rng, &mut buf);
    }
    anyhow::ensure!(a.rounds > 0 && a.rounds <= a.games, "--rounds must be between 1 and --games");
    let per_round = a.games / a.rounds;
    let mut total = 0i64;
    let mut g = Game::from_config(config.clone(), 0);
    let mut rates = Vec::new();
    let mut secs = 0.0;
    let mut seed = 0;
    for _ in 0..a.rounds {
        let start = Instant::now();
        for _ in 0..per_round {
            g.restart(seed);
            seed += 1;
            g.play_random(&mut rng, &mut buf);
            total += g.scores().iter().map(|&x| x as i64).sum::<i64>();
        }
        let t = start.elapsed().as_secs_f64();
        secs += t;
        rates.push(per_round as f64 / t);
    }
    black_box(total);
    rates.sort_by(f64::total_cmp);
    let best = rates[rates.len() - 1];
    let median = rates[rates.len() / 2];

    // A mid-game state: 35 tiles placed.
    let mut mid = Game::from_config(config.clone(), 12345);
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
    if a.json {
        outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "games": per_round * a.rounds, "rounds": a.rounds, "seconds": secs,
                "games_per_second_best_round": best, "games_per_second_median_round": median,
                "mid_game_state_bytes": bytes, "clone_ns": clone_ns,
            }))?
        );
    } else {
        outln!(
            out,
            "random 2-player base games (farmers included), 1 thread: {best:.0} games/s in the best of {} rounds, \
             {median:.0} in the median round ({} games in {secs:.2} s)",
            a.rounds,
            per_round * a.rounds
        );
        outln!(out, "mid-game state (35 tiles placed): {bytes} bytes; clone: {clone_ns:.0} ns");
    }
    Ok(out)
}
