//! `carc selfplay`: uniformly random legal games.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use carcassonne::{Game, Record};

use crate::SetupArgs;

/// Options of `carc selfplay`.
#[derive(Debug, Args)]
pub(crate) struct SelfplayArgs {
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the first game; game i uses seed + i for its stack and its players' choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    setup: SetupArgs,
    /// Save each game's record as DIR/game-SEED.json.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn selfplay(a: &SelfplayArgs) -> Result<String> {
    let mut out = String::new();
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    let setup = a.setup.setup(a.seed)?;
    let config = setup.prepare()?;
    if let Some(dir) = &a.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let n = setup.players as usize;
    let bar = crate::progress::bar(a.games, "games", a.json);
    let mut sum = vec![0i64; n];
    let mut wins = vec![0f64; n];
    let (mut min, mut max) = (i32::MAX, i32::MIN);
    let mut discarded = 0u64;
    let mut decisions = 0u64;
    let mut buf = Vec::new();
    let start = Instant::now();
    let mut game = Game::from_config(config.clone(), a.seed);
    for i in 0..a.games {
        let seed = a.seed.wrapping_add(i);
        game.restart(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_CA2C);
        let mut record = a.records.as_ref().map(|_| {
            let mut s = setup.clone();
            s.seed = seed;
            Record::new(s)
        });
        while let Some(act) = game.random_action(&mut rng, &mut buf) {
            if let Some(r) = record.as_mut() {
                r.push(&game, act);
            }
            game.apply_unchecked(act);
            decisions += 1;
        }
        let scores = game.scores();
        let best = *scores.iter().max().expect("players");
        let winners = scores.iter().filter(|s| **s == best).count() as f64;
        for p in 0..n {
            sum[p] += scores[p] as i64;
            if scores[p] == best {
                wins[p] += 1.0 / winners;
            }
            min = min.min(scores[p]);
            max = max.max(scores[p]);
        }
        discarded += game.discarded() as u64;
        if let (Some(r), Some(dir)) = (record, &a.records) {
            let path = dir.join(format!("game-{seed}.json"));
            std::fs::write(&path, r.to_json()).with_context(|| format!("writing {}", path.display()))?;
        }
        if i % 64 == 0 {
            bar.set_position(i);
        }
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let g = a.games as f64;
    let mean: Vec<f64> = sum.iter().map(|s| *s as f64 / g).collect();
    if a.json {
        let value = json!({
            "games": a.games,
            "players": n,
            "sets": setup.sets,
            "seconds": secs,
            "games_per_second": g / secs,
            "decisions_per_game": decisions as f64 / g,
            "mean_score": mean,
            "win_share": wins.iter().map(|w| w / g).collect::<Vec<_>>(),
            "min_score": min,
            "max_score": max,
            "discarded_per_game": discarded as f64 / g,
        });
        outln!(out, "{}", serde_json::to_string_pretty(&value)?);
    } else {
        outln!(
            out,
            "{} ({}, sets {}) in {:.2} s: {:.0} games/s, {:.1} decisions per game",
            crate::input::count(a.games, "game", "games"),
            crate::input::count(n as u64, "player", "players"),
            setup.sets.join(","),
            secs,
            g / secs,
            decisions as f64 / g
        );
        for p in 0..n {
            outln!(out, "  P{}: mean score {:.2}, win share {:.3}", p + 1, mean[p], wins[p] / g);
        }
        outln!(out, "  scores from {min} to {max}; {:.3} tiles discarded per game", discarded as f64 / g);
        if setup.rules.modules.halflings
            && setup.sets.iter().any(|x| carcassonne::catalogue::canonical_set_id(x) == Some("half"))
        {
            outln!(out, "  note: the `half` triangles are provisional layouts (`carc tiles --set half`)");
        }
    }
    Ok(out)
}
