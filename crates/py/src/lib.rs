//! The native part of the `carcassonne` Python package (crates/py/python/carcassonne): the engine's games, the
//! fixed-size action space and observation tensors, batched stepping and the bots. The Python modules on top give
//! it its friendly shape; docs/python.md is the guide.

mod bot;
mod game;
mod obs;
mod space;
mod spatial;
mod tune;
mod vecgame;

use std::time::Instant;

use carcassonne::{Action, Actor, Game};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};

create_exception!(_core, IllegalActionError, PyValueError, "An action that is not legal here, or cannot be read.");
create_exception!(
    _core,
    WindowError,
    PyValueError,
    "A legal action has no id: a number beyond the action space's bounds (which are chosen so that no game reaches \
     them; the name is from when a board could outgrow the window)."
);

/// Two numpy arrays returned together.
pub(crate) type Pair<'py, A, B> = PyResult<(Bound<'py, A>, Bound<'py, B>)>;

/// Native random playouts of a setup, for comparison with stepping from Python: `(games, actions, seconds)` for
/// `games` games of uniformly random legal actions (draws from each game's own stack), on one thread. The engine's
/// own random playout samples a placement without listing them all; with `enumerate`, every decision lists its
/// legal actions first (as a legality mask needs) and picks one of them.
#[pyfunction]
#[pyo3(signature = (setup_json, games = 100, seed = 0, enumerate = false))]
fn native_random_playouts(
    py: Python<'_>,
    setup_json: &str,
    games: u32,
    seed: u64,
    enumerate: bool,
) -> PyResult<(u32, u64, f64)> {
    let setup = game::setup_from_json(setup_json)?;
    let config = setup.prepare().map_err(|e| PyValueError::new_err(format!("invalid setup: {e}")))?;
    Ok(py.detach(|| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut buf = Vec::new();
        let mut actions = 0u64;
        let start = Instant::now();
        for i in 0..games {
            let mut g = Game::from_config(std::sync::Arc::clone(&config), seed.wrapping_add(u64::from(i)));
            while !g.is_over() {
                let a = match g.decision().actor {
                    Actor::Chance => g.next_draw().map(Action::Draw),
                    _ if enumerate => {
                        g.legal_actions_into(&mut buf);
                        (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
                    }
                    _ => g.random_action(&mut rng, &mut buf),
                };
                let Some(a) = a else { break };
                g.apply_unchecked(a);
                actions += 1;
            }
        }
        (games, actions, start.elapsed().as_secs_f64())
    }))
}

/// The arena's tally (`carc arena`'s own arithmetic) of finished games, for `carcassonne.ray`: `specs` names the
/// bots, each game is `(seats, scores)` with `seats` the index in `specs` of each seat's bot. Returns JSON: per bot
/// its seats, wins (a shared first place as a share), win rate and its 95% Wilson interval, mean score and mean
/// margin; per pair of bots the Elo difference with its interval.
#[pyfunction]
fn summarise_json(specs: Vec<String>, games: Vec<(Vec<usize>, Vec<i32>)>) -> PyResult<String> {
    use carcassonne_ai::arena::{GameResult, summarise};
    let parsed: Vec<carcassonne_ai::BotSpec> = specs
        .iter()
        .map(|s| s.parse().map_err(|e| PyValueError::new_err(format!("bot `{s}`: {e}"))))
        .collect::<PyResult<_>>()?;
    let mut results = Vec::with_capacity(games.len());
    for (i, (seats, scores)) in games.into_iter().enumerate() {
        if seats.len() != scores.len() || seats.is_empty() || seats.iter().any(|&b| b >= specs.len()) {
            return Err(PyValueError::new_err(format!("game {i}: one bot index below {} per score", specs.len())));
        }
        let n = seats.len();
        results.push(GameResult {
            seed: i as u64,
            seats,
            scores,
            decisions: vec![0; n],
            forced: vec![0; n],
            thinking: vec![std::time::Duration::ZERO; n],
            longest: vec![std::time::Duration::ZERO; n],
            breakdown: vec![],
            record: None,
        });
    }
    let summary = summarise(&parsed, &results);
    let bots: Vec<serde_json::Value> = (summary.bots.iter())
        .map(|b| {
            serde_json::json!({
                "spec": b.spec,
                "seats": b.seats,
                "wins": b.wins,
                "win_rate": b.win_rate(),
                "win_rate_95": [b.win_interval.0, b.win_interval.1],
                "mean_score": b.mean_score,
                "mean_margin": b.mean_margin,
            })
        })
        .collect();
    let pairings: Vec<serde_json::Value> = (summary.pairings.iter())
        .map(|p| {
            serde_json::json!({
                "a": specs[p.a], "b": specs[p.b], "elo": p.elo.elo, "elo_95": [p.elo.low, p.elo.high], "n": p.elo.n,
            })
        })
        .collect();
    Ok(serde_json::json!({ "games": summary.games, "bots": bots, "pairings": pairings }).to_string())
}

/// Every rule option with its values, the default first, as JSON (what `carc rules --json` prints).
#[pyfunction]
fn rule_options_json() -> String {
    carcassonne::report::rule_options_json().to_string()
}

/// The native module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<vecgame::VecGame>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<tune::PySpsa>()?;
    m.add_function(wrap_pyfunction!(native_random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(rule_options_json, m)?)?;
    m.add_function(wrap_pyfunction!(summarise_json, m)?)?;
    m.add("IllegalActionError", m.py().get_type::<IllegalActionError>())?;
    m.add("WindowError", m.py().get_type::<WindowError>())?;
    m.add("CHANCE", game::CHANCE)?;
    m.add("TERMINAL", game::TERMINAL)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
