//! Statistics for arena reports: the Wilson score interval and Elo differences.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `wins` successes in `n` trials at normal quantile `z` (`Z95` for 95%); `wins` may
/// be fractional (a shared win counts as a share). `(0, 1)` when `n` is 0.
pub fn wilson(wins: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (wins / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that expects a score fraction of `s` (0.5 is 0; 0.75 about +191). Infinite at 0 and 1.
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// An Elo difference with its 95% interval: the mean score of the pairings (1 a win, 0.5 a tie, 0 a loss) turned
/// into Elo, and the Wilson interval of that score turned likewise (ties counted as half a win, which makes the
/// interval slightly wide rather than too narrow; unlike a normal interval it stays finite at one end when every
/// pairing went one way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
    /// The mean score it comes from.
    pub score: f64,
    /// Pairings counted.
    pub n: usize,
}

/// The Elo difference of a player whose pairings scored `scores` (each 1, 0.5 or 0).
pub fn elo_estimate(scores: &[f64]) -> EloEstimate {
    let n = scores.len();
    if n == 0 {
        return EloEstimate { elo: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY, score: 0.5, n };
    }
    let sum = scores.iter().sum::<f64>();
    let (lo, hi) = wilson(sum, n as f64, Z95);
    EloEstimate { elo: elo(sum / n as f64), low: elo(lo), high: elo(hi), score: sum / n as f64, n }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 8 of 10: p = 0.8, z² = 3.8415; centre = (0.8 + 0.19208) / 1.38415 = 0.71675;
        // half = 1.95996 / 1.38415 × √(0.016 + 0.0096039) = 0.22658.
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!(close(lo, 0.49016, 1e-4) && close(hi, 0.94331, 1e-4), "{lo} {hi}");
        // 0 of 20: the low end is 0, the high end z²/(n + z²) = 3.8415 / 23.8415 = 0.16113.
        let (lo, hi) = wilson(0.0, 20.0, Z95);
        assert!(close(lo, 0.0, 1e-9) && close(hi, 0.16113, 1e-4), "{lo} {hi}");
        // 150 of 200 (75%): centre 0.74529, half 0.05963.
        let (lo, hi) = wilson(150.0, 200.0, Z95);
        assert!(close(lo, 0.68566, 1e-4) && close(hi, 0.80492, 1e-4), "{lo} {hi}");
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_matches_hand_computed_values() {
        assert!(close(elo(0.5), 0.0, 1e-12));
        // -400 log10(1/0.75 - 1) = 400 log10 3 = 190.849.
        assert!(close(elo(0.75), 190.849, 1e-3));
        assert!(close(elo(0.25), -190.849, 1e-3));
        // 10 / (1 + 10) = 0.90909 is +400.
        assert!(close(elo(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn elo_interval_from_the_wilson_interval() {
        // 3 wins of 4: Wilson (0.30064, 0.95441) → (-146.66, +528.36).
        let e = elo_estimate(&[1.0, 1.0, 0.0, 1.0]);
        assert!(close(e.elo, 190.849, 1e-3));
        assert!(close(e.low, -146.66, 0.01) && close(e.high, 528.36, 0.01), "{e:?}");
        // Ten ties: Wilson of 5 in 10, (0.23659, 0.76341) → ±203.50.
        let e = elo_estimate(&[0.5; 10]);
        assert!(close(e.elo, 0.0, 1e-9) && close(e.low, -203.50, 0.01) && close(e.high, 203.50, 0.01), "{e:?}");
        // 40 wins of 40: the low end is finite, Wilson 0.91238 → +407.03.
        let e = elo_estimate(&[1.0; 40]);
        assert!(close(e.low, 407.03, 0.01) && e.high == f64::INFINITY, "{e:?}");
    }
}
