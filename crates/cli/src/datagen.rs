//! `carc datagen`: positions from games between bots, each player's view of each with how that player's game
//! ended, for training the learned value (docs/ai.md, "The learned value"; the format is docs/datagen-format.md).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::json;

use carcassonne::game::MAX_PLAYERS;
use carcassonne::{Action, Actor, Game, Setup};
use carcassonne_ai::BotSpec;
use carcassonne_ai::arena::seat_bots;
use carcassonne_ai::eval::Evaluator;
use carcassonne_ai::features::{self, COUNT};

use crate::SetupArgs;

/// The file's first bytes.
pub(crate) const MAGIC: &[u8; 8] = b"CARCDATA";
/// The layout's version (docs/datagen-format.md).
pub(crate) const FORMAT: u32 = 2;
/// The columns after the features, in order.
pub(crate) const OUTCOME: [&str; 11] =
    ["rest", "margin", "win", "root_value", "game", "seat", "score", "position", "candidate", "visits", "value"];

/// Options of `carc datagen`.
#[derive(Debug, Args)]
pub(crate) struct DatagenArgs {
    /// Where to write the positions (docs/datagen-format.md).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The bots, comma-separated, seated in turn as in `carc arena` (seat s of game g gets bot (s + g) mod the
    /// number of bots).
    #[arg(long, default_value = "hard@2:iterations=2000,time=none,threads=1", value_parser = crate::arena::parse_bots)]
    bots: std::vec::Vec<BotSpec>,
    /// Seed of the first deal; game g is dealt with seed + g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The chance that a player's decision is kept as a position (consecutive positions of one game say almost the
    /// same thing).
    #[arg(long, default_value_t = 0.25)]
    sample: f64,
    /// At each kept position a search decided, also write the positions after its most visited actions, this many
    /// (with their visits and values: the search's distribution, for fitting what it compares); 0 for none.
    #[arg(long, default_value_t = 8)]
    candidates: usize,
    #[command(flatten)]
    setup: SetupArgs,
    /// Games played at once (default: the cores, divided by the most threads any bot searches with).
    #[arg(long)]
    jobs: Option<usize>,
}

pub(crate) fn datagen(a: &DatagenArgs) -> Result<String> {
    anyhow::ensure!(a.games > 0, "--games must be at least 1");
    anyhow::ensure!((0.0..=1.0).contains(&a.sample) && a.sample > 0.0, "--sample must be in (0, 1]");
    let base = a.setup.setup(a.seed)?;
    base.prepare()?;
    let players = base.players as usize;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most_threads = a.bots.iter().filter_map(|s| s.mcts().map(|c| c.threads)).max().unwrap_or(1);
    let jobs = a.jobs.unwrap_or((cores / most_threads).max(1)).max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().context("starting the game threads")?;

    let file = std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let mut w = BufWriter::new(file);
    let columns: Vec<&str> = features::NAMES.iter().copied().chain(OUTCOME).collect();
    let header = json!({
        "format": FORMAT,
        "features_version": features::VERSION,
        "columns": columns,
        "players": players,
        "sets": base.sets,
        "rules": base.rules.non_defaults(),
        "bots": a.bots.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "seed": a.seed,
        "games": a.games,
        "sample": a.sample,
        "candidates": a.candidates,
    })
    .to_string();
    w.write_all(MAGIC)?;
    w.write_all(&FORMAT.to_le_bytes())?;
    w.write_all(&(header.len() as u32).to_le_bytes())?;
    w.write_all(header.as_bytes())?;

    let bar = crate::progress::bar(a.games, "games", false);
    let out = Mutex::new((w, 0u64));
    let start = Instant::now();
    let results: Vec<Result<()>> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|g| {
                let mut setup = base.clone();
                setup.seed = a.seed.wrapping_add(g);
                let rows = one_game(&setup, &a.bots, g, a.sample, a.candidates)?;
                let mut o = out.lock().expect("not poisoned");
                for v in &rows {
                    o.0.write_all(&v.to_le_bytes())?;
                }
                o.1 += (rows.len() / (COUNT + OUTCOME.len())) as u64;
                bar.inc(1);
                Ok(())
            })
            .collect()
    });
    bar.finish_and_clear();
    for r in results {
        r?;
    }
    let (mut w, rows) = out.into_inner().expect("not poisoned");
    w.flush().with_context(|| format!("writing {}", a.out.display()))?;
    Ok(format!(
        "{rows} rows ({} features and {} outcome columns each) from {} games of {players} players in {:.1} s: {}\n",
        COUNT,
        OUTCOME.len(),
        a.games,
        start.elapsed().as_secs_f64(),
        a.out.display()
    ))
}

/// A kept position: each player's features and score there, the acting seat and its root value, and the positions
/// after the search's most visited actions (each player's features and score, with the action's visits and value).
struct Kept {
    features: features::Rows,
    scores: [i32; MAX_PLAYERS],
    actor: usize,
    root: f32,
    candidates: Vec<(features::Rows, [i32; MAX_PLAYERS], u32, f32)>,
}

/// The scores of a game, in a fixed-size array.
fn scores_of(game: &Game) -> [i32; MAX_PLAYERS] {
    let mut scores = [0; MAX_PLAYERS];
    scores[..game.players()].copy_from_slice(game.scores());
    scores
}

/// One game's rows, in order: for each kept position, each player's features and how it ended for them, then the
/// rows of its candidates.
fn one_game(setup: &Setup, specs: &[BotSpec], g: u64, sample: f64, candidates: usize) -> Result<Vec<f32>> {
    let players = setup.players as usize;
    let (_, mut bots) = seat_bots(specs, players, setup.seed, g);
    let mut game = Game::new(setup)?;
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ 0xDA7A_6E11);
    // The features include the hand-written estimate: computed with `hard`'s constants, as the search computes it.
    let mut eval = Evaluator::new(carcassonne_ai::Level::Hard.config().weights);
    let mut feats = [[0f32; COUNT]; MAX_PLAYERS];
    let mut kept: Vec<Kept> = Vec::new();
    while !game.is_over() {
        let a = match game.decision().actor {
            Actor::Chance => Action::Draw(game.next_draw().context("a draw step has a tile to draw")?),
            Actor::Player(p) => {
                let keep = rng.random_bool(sample);
                if keep {
                    eval.features(&game, &mut feats);
                }
                let t = bots[p.index()]
                    .think(&game, p)
                    .map_err(|e| anyhow::anyhow!("{} in seat {}: {e}", bots[p.index()].name(), p.index() + 1))?;
                if keep {
                    let root = t.candidates.iter().find(|c| c.action == t.action).map_or(f32::NAN, |c| c.value);
                    let mut k = Kept {
                        features: feats,
                        scores: scores_of(&game),
                        actor: p.index(),
                        root,
                        candidates: Vec::new(),
                    };
                    // Only a search's account says how it compared its actions (and one with a single action none).
                    if t.iterations > 0 && t.candidates.len() > 1 {
                        for c in t.candidates.iter().take(candidates) {
                            let mut after = game.clone();
                            after
                                .apply(c.action)
                                .map_err(|e| anyhow::anyhow!("a candidate is illegal: {}", e.reason))?;
                            let mut f = [[0f32; COUNT]; MAX_PLAYERS];
                            eval.features(&after, &mut f);
                            k.candidates.push((f, scores_of(&after), c.visits, c.value));
                        }
                    }
                    kept.push(k);
                }
                t.action
            }
            Actor::Nobody => break,
        };
        game.apply(a).map_err(|e| anyhow::anyhow!("illegal action {}: {}", game.action_text(a), e.reason))?;
    }
    let last = game.scores();
    let best = *last.iter().max().context("players")?;
    let winners = last.iter().filter(|&&s| s == best).count() as f32;
    let mut rows = Vec::with_capacity(kept.len() * players * (COUNT + OUTCOME.len()));
    for (i, k) in kept.iter().enumerate() {
        for p in 0..players {
            let best_other = (0..players).filter(|&q| q != p).map(|q| last[q]).max().unwrap_or(0);
            rows.extend_from_slice(&k.features[p]);
            rows.push((last[p] - k.scores[p]) as f32);
            rows.push((last[p] - best_other) as f32);
            rows.push(if last[p] == best { 1.0 / winners } else { 0.0 });
            rows.push(if p == k.actor { k.root } else { f32::NAN });
            rows.extend_from_slice(&[g as f32, p as f32, k.scores[p] as f32, i as f32, -1.0, f32::NAN, f32::NAN]);
        }
        for (j, (f, scores, visits, value)) in k.candidates.iter().enumerate() {
            for p in 0..players {
                rows.extend_from_slice(&f[p]);
                rows.extend_from_slice(&[f32::NAN, f32::NAN, f32::NAN, f32::NAN]);
                rows.extend_from_slice(&[g as f32, p as f32, scores[p] as f32, i as f32, j as f32]);
                rows.extend_from_slice(&[*visits as f32, if p == k.actor { *value } else { f32::NAN }]);
            }
        }
    }
    Ok(rows)
}
