//! `carcassonne._core.Spsa`: the tuner of `carc tune` (`carcassonne_ai::tune`), for spreading its games over Ray
//! (`carcassonne.ray.tune`). It only does the arithmetic; the caller plays the games.

use carcassonne_ai::BotSpec;
use carcassonne_ai::tune::{Param, Spsa};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// SPSA over a bot's numeric settings: `Spsa("greedy", [("city_close", None), ("fill", 2.0)], steps=300)` (each
/// setting with its scale, or `None` for a tenth of its value).
#[pyclass(module = "carcassonne._core", name = "Spsa")]
#[derive(Debug)]
pub(crate) struct PySpsa {
    base: BotSpec,
    spsa: Spsa,
}

fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pymethods]
impl PySpsa {
    /// The tuner of `bot`'s settings `params` (pairs of a name and a scale or `None`), planned for `steps` steps.
    #[new]
    #[pyo3(signature = (bot, params, steps = 200, rate = 0.5))]
    fn new(bot: &str, params: Vec<(String, Option<f64>)>, steps: u64, rate: f64) -> PyResult<PySpsa> {
        let base: BotSpec = bot.parse().map_err(bad)?;
        if params.is_empty() {
            return Err(bad("name at least one setting to tune"));
        }
        if steps == 0 || !(rate.is_finite() && rate > 0.0) {
            return Err(bad("steps must be at least 1 and rate above 0"));
        }
        let params = params.iter().map(|(k, s)| Param::of(&base, k, *s)).collect::<Result<Vec<_>, _>>().map_err(bad)?;
        Ok(PySpsa { spsa: Spsa::new(params, steps, rate), base })
    }

    /// The settings' names, in order.
    #[getter]
    fn keys(&self) -> Vec<String> {
        self.spsa.params.iter().map(|p| p.key.clone()).collect()
    }

    /// Their scales.
    #[getter]
    fn scales(&self) -> Vec<f64> {
        self.spsa.params.iter().map(|p| p.scale).collect()
    }

    /// The values tuning starts from.
    #[getter]
    fn start(&self) -> Vec<f64> {
        self.spsa.start()
    }

    /// The two values step `k` measures (`theta` moved by ± the step's perturbation, signs from `seed` and `k`).
    fn probes(&self, theta: Vec<f64>, k: u64, seed: u64) -> PyResult<(Vec<f64>, Vec<f64>)> {
        self.check(&theta)?;
        Ok(self.spsa.probes(&theta, k, &self.spsa.signs(seed, k)))
    }

    /// The values after step `k`, from the mean results of the + and − players.
    fn update(&self, theta: Vec<f64>, k: u64, seed: u64, plus: f64, minus: f64) -> PyResult<Vec<f64>> {
        self.check(&theta)?;
        Ok(self.spsa.update(&theta, k, &self.spsa.signs(seed, k), plus, minus))
    }

    /// The bot's spec with the settings at `theta`.
    fn spec(&self, theta: Vec<f64>) -> PyResult<String> {
        self.check(&theta)?;
        Ok(self.spsa.spec(&self.base, &theta).map_err(bad)?.to_string())
    }

    /// A seat's result in a game, 0..1, as `carc tune` counts it: half for winning, half for the squashed margin.
    #[staticmethod]
    fn reward(scores: Vec<i32>, seat: usize) -> PyResult<f64> {
        if seat >= scores.len() || scores.len() < 2 {
            return Err(bad("the scores of two or more seats, and one of the seats"));
        }
        Ok(carcassonne_ai::tune::reward(&scores, seat))
    }

    fn __repr__(&self) -> String {
        format!("Spsa({:?}, {:?})", self.base.to_string(), self.keys())
    }
}

impl PySpsa {
    fn check(&self, theta: &[f64]) -> PyResult<()> {
        if theta.len() == self.spsa.params.len() && theta.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(bad(format!("theta must be {} finite numbers", self.spsa.params.len())))
        }
    }
}
