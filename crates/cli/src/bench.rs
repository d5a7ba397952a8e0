//! `carc bench`: the engine's speed on uniformly random 2-player base games (farmers included), one thread.

use std::hint::black_box;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carcassonne::{Game, Setup};

/// Options of `carc bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// How many games to time.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn bench(a: &BenchArgs) -> Result<String> {
    let mut out = String::new();
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    let config = Setup::new(2).prepare()?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut buf = Vec::with_capacity(256);
    // Warm up.
    for s in 0..200 {
        let mut g = Game::from_config(config.clone(), s);
        g.play_random(&mut rng, &mut buf);
    }
    let start = Instant::now();
    let mut total = 0i64;
    for s in 0..a.games {
        let mut g = Game::from_config(config.clone(), s);
        g.play_random(&mut rng, &mut buf);
        total += g.scores().iter().map(|&x| x as i64).sum::<i64>();
    }
    let secs = start.elapsed().as_secs_f64();
    black_box(total);
    let gps = a.games as f64 / secs;

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
                "games": a.games, "seconds": secs, "games_per_second": gps,
                "mid_game_state_bytes": bytes, "clone_ns": clone_ns,
            }))?
        );
    } else {
        outln!(
            out,
            "random 2-player base games (farmers included), 1 thread: {:.0} games/s ({} games in {:.2} s)",
            gps,
            a.games,
            secs
        );
        outln!(out, "mid-game state (35 tiles placed): {bytes} bytes; clone: {clone_ns:.0} ns");
    }
    Ok(out)
}
