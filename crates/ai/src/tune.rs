//! Tuning by self-play: simultaneous perturbation stochastic approximation (SPSA) over a bot's numeric settings.
//!
//! SPSA estimates the gradient of a noisy objective from two measurements, whatever the number of parameters: at
//! step `k` every parameter is moved by `±c_k` of its own scale at once (the signs drawn at random), the two
//! players so made are measured (games against each other or against the same opponents, on the same deals), and
//! every parameter moves in proportion to the difference of the two results over its own perturbation. The gains
//! follow Spall's schedule: `c_k = c / (k + 1)^γ` and `a_k = a / (A + k + 1)^α`, with `α = 0.602`, `γ = 0.101` and
//! `A` a tenth of the planned steps. This is how fishtest tunes Stockfish's constants.
//!
//! Everything here is arithmetic on plain numbers; playing the games, the log and resuming are the caller's (`carc
//! tune`). Given the same seed, step and results, every function gives the same numbers, so a tuning run that was
//! stopped goes on exactly where it left off.
//!
//! ```
//! use carcassonne_ai::tune::{Param, Spsa};
//! use carcassonne_ai::BotSpec;
//!
//! let base: BotSpec = "greedy".parse().unwrap();
//! let params = vec![Param::of(&base, "city_close", None).unwrap()];
//! let spsa = Spsa::new(params, 100, 0.5);
//! let theta = spsa.start();
//! let delta = spsa.signs(7, 0);
//! let (plus, minus) = spsa.probes(&theta, 0, &delta);
//! assert!(plus[0] > theta[0] || plus[0] < theta[0]);
//! // The player at `plus` won more: the parameter moves towards it.
//! let next = spsa.update(&theta, 0, &delta, 0.7, 0.3);
//! assert_eq!(next[0] > theta[0], plus[0] > theta[0]);
//! ```

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::spec::{BotSpec, INTEGER_KEYS, MAX_SETTING, SpecError};

/// Spall's exponent of the step gain `a_k`.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation `c_k`.
pub const GAMMA: f64 = 0.101;

/// Settings that are a share, 0..=1.
const UNIT_KEYS: [&str; 5] = ["win", "deploy", "informed", "extra_end", "best_opponent"];

/// One parameter being tuned: a numeric setting of the bot's spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The setting's name in a spec (`city_close`, `c`, `prior`).
    pub key: String,
    /// Its value when tuning starts.
    pub start: f64,
    /// Its scale: the first perturbation moves it by this much, and every step is measured in it.
    pub scale: f64,
    /// The least value it may take.
    pub min: f64,
    /// The most.
    pub max: f64,
}

impl Param {
    /// The parameter `key` of `base`, starting at its value there, with the given scale or a tenth of the value
    /// (at least 0.05, and 1 for whole-number settings).
    ///
    /// # Errors
    /// [`SpecError`] if `base` has no numeric setting `key`.
    pub fn of(base: &BotSpec, key: &str, scale: Option<f64>) -> Result<Param, SpecError> {
        let start = base.setting(key).ok_or_else(|| SpecError {
            spec: base.to_string(),
            reason: format!("no numeric setting `{key}` to tune"),
        })?;
        let integer = INTEGER_KEYS.contains(&key);
        let unit = UNIT_KEYS.contains(&key);
        let scale = scale.unwrap_or(if integer { (start * 0.1).max(1.0) } else { (start.abs() * 0.1).max(0.05) });
        let (min, max) = match key {
            _ if unit => (0.0, 1.0),
            "threads" => (1.0, crate::spec::MAX_THREADS as f64),
            "scale" | "widening" => (0.01, MAX_SETTING as f64),
            k if INTEGER_KEYS.contains(&k) => (0.0, 1.0e6),
            _ => (0.0, MAX_SETTING as f64),
        };
        if !(scale.is_finite() && scale > 0.0) {
            return Err(SpecError { spec: base.to_string(), reason: format!("the scale of `{key}` must be above 0") });
        }
        Ok(Param { key: key.to_string(), start, scale, min, max })
    }
}

/// The optimiser: its parameters and its gains.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// What is tuned.
    pub params: Vec<Param>,
    /// Steps planned (sets `A`, a tenth of it).
    pub steps: u64,
    /// The step gain `a`, in scales per unit of result difference at the first step.
    pub rate: f64,
    /// The perturbation `c`, in scales, at the first step.
    pub perturbation: f64,
}

impl Spsa {
    /// An optimiser over `params` for `steps` steps with step gain `rate` (the perturbation starts at one scale).
    pub fn new(params: Vec<Param>, steps: u64, rate: f64) -> Spsa {
        Spsa { params, steps, rate, perturbation: 1.0 }
    }

    /// The values tuning starts from.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    fn big_a(&self) -> f64 {
        self.steps as f64 / 10.0
    }

    /// The perturbation at step `k` (0-based), in scales.
    pub fn c(&self, k: u64) -> f64 {
        self.perturbation / ((k + 1) as f64).powf(GAMMA)
    }

    /// The step gain at step `k`, in scales.
    pub fn a(&self, k: u64) -> f64 {
        self.rate * (self.big_a() + 1.0).powf(ALPHA) / (self.big_a() + k as f64 + 1.0).powf(ALPHA)
    }

    /// The random signs of step `k` of a run with this seed: one `±1` per parameter.
    pub fn signs(&self, seed: u64, k: u64) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.params.iter().map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect()
    }

    fn clamp(&self, theta: &mut [f64]) {
        for (t, p) in theta.iter_mut().zip(&self.params) {
            *t = t.clamp(p.min, p.max);
        }
    }

    /// The two players step `k` measures: `theta` moved by `+c_k` and by `−c_k` of each scale, with the signs
    /// `delta` (each kept within its parameter's range).
    pub fn probes(&self, theta: &[f64], k: u64, delta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let ck = self.c(k);
        let mut plus: Vec<f64> =
            theta.iter().zip(delta).zip(&self.params).map(|((t, d), p)| t + ck * d * p.scale).collect();
        let mut minus: Vec<f64> =
            theta.iter().zip(delta).zip(&self.params).map(|((t, d), p)| t - ck * d * p.scale).collect();
        self.clamp(&mut plus);
        self.clamp(&mut minus);
        (plus, minus)
    }

    /// The values after step `k`, given the results of the `+` and `−` players (higher is better, e.g. their mean
    /// game reward).
    pub fn update(&self, theta: &[f64], k: u64, delta: &[f64], plus: f64, minus: f64) -> Vec<f64> {
        let (ak, ck) = (self.a(k), self.c(k));
        let mut next: Vec<f64> = theta
            .iter()
            .zip(delta)
            .zip(&self.params)
            .map(|((t, d), p)| t + ak * (plus - minus) / (2.0 * ck * d) * p.scale)
            .collect();
        self.clamp(&mut next);
        next
    }

    /// `base` with the parameters set to `theta` (whole-number settings rounded).
    ///
    /// # Errors
    /// [`SpecError`] if a value does not make a valid spec.
    pub fn spec(&self, base: &BotSpec, theta: &[f64]) -> Result<BotSpec, SpecError> {
        let settings: Vec<(&str, f64)> =
            self.params.iter().map(|p| p.key.as_str()).zip(theta.iter().copied()).collect();
        base.with_settings(&settings)
    }
}

/// A seat's result in one game, 0..=1: half for winning (a share of a tie) and half for its margin over the best
/// other score, squashed by `tanh(margin / 20)`. The margin half gives the tuner more to go on than wins alone.
pub fn reward(scores: &[i32], seat: usize) -> f64 {
    let mine = scores[seat];
    let best_other = scores.iter().enumerate().filter(|(s, _)| *s != seat).map(|(_, &x)| x).max().unwrap_or(mine);
    let best = mine.max(best_other);
    let winners = scores.iter().filter(|&&x| x == best).count() as f64;
    let win = if mine == best { 1.0 / winners } else { 0.0 };
    0.5 * win + 0.5 * (0.5 + 0.5 * ((mine - best_other) as f64 / 20.0).tanh())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spsa(keys: &[&str]) -> (BotSpec, Spsa) {
        let base: BotSpec = "mcts:iterations=100".parse().unwrap();
        let params = keys.iter().map(|k| Param::of(&base, k, None).unwrap()).collect();
        (base, Spsa::new(params, 100, 0.5))
    }

    #[test]
    fn gains_shrink_with_the_steps() {
        let (_, s) = spsa(&["c"]);
        assert!((s.c(0) - 1.0).abs() < 1e-12);
        assert!((s.a(0) - 0.5).abs() < 1e-12);
        assert!(s.c(99) < s.c(10) && s.c(10) < s.c(0));
        assert!(s.a(99) < s.a(10) && s.a(10) < s.a(0));
    }

    #[test]
    fn probes_are_symmetric_and_the_update_follows_the_better_one() {
        let (_, s) = spsa(&["c", "prior", "city_close"]);
        let theta = s.start();
        for k in 0..20 {
            let delta = s.signs(3, k);
            assert_eq!(delta, s.signs(3, k), "signs depend only on the seed and the step");
            let (plus, minus) = s.probes(&theta, k, &delta);
            for i in 0..theta.len() {
                assert!(((plus[i] - theta[i]) + (minus[i] - theta[i])).abs() < 1e-9);
                assert!((plus[i] - theta[i]).abs() > 0.0);
            }
            let up = s.update(&theta, k, &delta, 0.8, 0.2);
            let down = s.update(&theta, k, &delta, 0.2, 0.8);
            let same = s.update(&theta, k, &delta, 0.5, 0.5);
            for i in 0..theta.len() {
                assert_eq!(up[i] > theta[i], plus[i] > theta[i], "moves towards the winner");
                assert_eq!(down[i] > theta[i], minus[i] > theta[i], "and away from the loser");
                assert_eq!(same[i], theta[i], "an even result moves nothing");
            }
        }
    }

    #[test]
    fn values_stay_in_range_and_make_valid_specs() {
        let (base, s) = spsa(&["win", "prior_visits", "widening"]);
        let mut theta = s.start();
        for k in 0..200 {
            let delta = s.signs(9, k);
            let (plus, minus) = s.probes(&theta, k, &delta);
            for t in [&plus, &minus] {
                s.spec(&base, t).unwrap();
            }
            theta = s.update(&theta, k, &delta, if k % 3 == 0 { 1.0 } else { 0.0 }, 0.0);
            assert!((0.0..=1.0).contains(&theta[0]));
            assert!(theta[2] >= 0.01);
            s.spec(&base, &theta).unwrap();
        }
    }

    #[test]
    fn it_climbs_a_noisy_hill() {
        // Two parameters, a result that peaks at (prior 1.2, c 0.6) and comes with noise: SPSA should get close.
        let (base, _) = spsa(&[]);
        let params = ["prior", "c"].iter().map(|k| Param::of(&base, k, Some(0.2)).unwrap()).collect();
        let s = Spsa::new(params, 2000, 0.4);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let f = |t: &[f64]| -((t[0] - 1.2).powi(2) + (t[1] - 0.6).powi(2));
        let mut theta = s.start();
        let before = f(&theta);
        for k in 0..s.steps {
            let delta = s.signs(1, k);
            let (plus, minus) = s.probes(&theta, k, &delta);
            let mut noise = || rng.random_range(-0.02..0.02);
            let (yp, ym) = (f(&plus) + noise(), f(&minus) + noise());
            theta = s.update(&theta, k, &delta, yp, ym);
        }
        assert!(f(&theta) > before * 0.1, "from {before} to {} at {theta:?}", f(&theta));
    }

    #[test]
    fn rewards_blend_winning_and_the_margin() {
        assert!((reward(&[10, 10], 0) - 0.5).abs() < 1e-12);
        assert!(reward(&[30, 10], 0) > 0.9);
        assert!(reward(&[10, 30], 0) < 0.1);
        assert!((reward(&[30, 10], 0) + reward(&[30, 10], 1) - 1.0).abs() < 1e-12);
        assert!(reward(&[11, 10, 2], 0) > 0.5 && reward(&[11, 10, 2], 0) < 0.8);
        assert!(Param::of(&BotSpec::Random, "c", None).is_err());
    }
}
