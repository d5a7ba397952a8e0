//! `carcassonne._core.Bot`: the computer players of `carcassonne-ai`, thinking with the GIL released.

use std::sync::Mutex;

use carcassonne::{Actor, Player};
use carcassonne_ai::{Bot, BotSpec, Thought};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::game::PyGame;

/// A computer player: `random`, `greedy`, `mcts:…`, or a level (`easy`, `medium`, `hard`).
#[pyclass(module = "carcassonne._core", name = "Bot")]
pub(crate) struct PyBot {
    spec: String,
    inner: Mutex<Box<dyn Bot>>,
}

impl std::fmt::Debug for PyBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyBot").field("spec", &self.spec).finish()
    }
}

impl PyBot {
    fn seat(game: &PyGame, player: Option<i64>) -> PyResult<Player> {
        match (player, game.game.decision().actor) {
            (Some(p), _) if p >= 0 && (p as usize) < game.game.players() => Ok(Player(p as u8)),
            (Some(p), _) => Err(PyValueError::new_err(format!("no player {p} in this game"))),
            (None, Actor::Player(p)) => Ok(p),
            (None, Actor::Chance) => Err(PyValueError::new_err("a draw is pending: chance decides, not a bot")),
            (None, Actor::Nobody) => Err(PyValueError::new_err("the game is over")),
        }
    }
}

impl PyBot {
    /// Think for `player` (by default the player to act) with the GIL released.
    fn think(&self, py: Python<'_>, game: &PyGame, player: Option<i64>) -> PyResult<Thought> {
        let me = PyBot::seat(game, player)?;
        let g = &game.game;
        let inner = &self.inner;
        let t = py.detach(|| {
            let mut bot = inner.lock().map_err(|_| "the bot failed earlier".to_string())?;
            bot.think(g, me).map_err(|e| e.to_string())
        });
        t.map_err(PyRuntimeError::new_err)
    }
}

#[pymethods]
impl PyBot {
    /// A player from its spec (`carc arena --bots` reads the same), seeded.
    #[new]
    #[pyo3(signature = (spec = "greedy", seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyBot> {
        let parsed: BotSpec =
            spec.parse().map_err(|e: carcassonne_ai::SpecError| PyValueError::new_err(e.to_string()))?;
        Ok(PyBot { spec: parsed.to_string(), inner: Mutex::new(parsed.build(seed)) })
    }

    /// The spec, in full.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The action this bot plays for `player` (by default the player to act), in record notation.
    #[pyo3(signature = (game, player = None))]
    fn choose(&self, py: Python<'_>, game: &PyGame, player: Option<i64>) -> PyResult<String> {
        let t = self.think(py, game, player)?;
        Ok(game.game.action_text(t.action))
    }

    /// The bot's choice with its view of the candidates, as JSON: `{"action", "iterations", "seconds",
    /// "candidates": [{"action", "visits", "value"}, …]}`.
    #[pyo3(signature = (game, player = None))]
    fn think_json(&self, py: Python<'_>, game: &PyGame, player: Option<i64>) -> PyResult<String> {
        let t = self.think(py, game, player)?;
        let text = |a| game.game.action_text(a);
        let candidates: Vec<serde_json::Value> = t
            .candidates
            .iter()
            .map(|c| serde_json::json!({ "action": text(c.action), "visits": c.visits, "value": c.value }))
            .collect();
        Ok(serde_json::json!({
            "action": text(t.action),
            "iterations": t.iterations,
            "seconds": t.elapsed.as_secs_f64(),
            "candidates": candidates,
        })
        .to_string())
    }

    fn __repr__(&self) -> String {
        format!("<carcassonne.Bot {}>", self.spec)
    }
}
