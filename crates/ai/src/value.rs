//! The learned value: a small multilayer perceptron that reads a player's [`features`] and
//! estimates the points that player will still score before the end of the game.
//!
//! Its weights are generated Rust (`value_weights.rs`), written by `python/train_value.py` from positions made by
//! `carc datagen` (docs/ai.md, "The learned value"), so inference is plain arithmetic on constant arrays: no file is
//! read, nothing is allocated, and the model is part of the build like the rest of the evaluation.

use crate::features::{self, COUNT};

#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
mod weights {
    include!("value_weights.rs");
}

pub use weights::{GENERATION, HIDDEN};

// The weights must have been fitted to the features as they are now.
const _: () = assert!(weights::FEATURES_VERSION == features::VERSION);

/// The points the player whose features are `x` is expected to score from here to the end of the game.
pub fn rest(x: &[f32; COUNT]) -> f32 {
    let mut h1 = [0f32; HIDDEN];
    for (j, h) in h1.iter_mut().enumerate() {
        let mut s = weights::B1[j];
        for (w, v) in weights::W1[j].iter().zip(x) {
            s += w * v;
        }
        *h = s.max(0.0);
    }
    let mut out = weights::B3;
    for j in 0..HIDDEN {
        let mut s = weights::B2[j];
        for (w, v) in weights::W2[j].iter().zip(&h1) {
            s += w * v;
        }
        out += weights::W3[j] * s.max(0.0);
    }
    if weights::RESIDUAL {
        // A correction to the hand-written estimate, which the features carry in the same unit.
        out += x[HAND_REST];
    }
    out * weights::SCALE
}

/// Where the features hold the hand-written estimate of the points still to come.
const HAND_REST: usize = 4;
const _: () = assert!(matches!(features::NAMES[HAND_REST].as_bytes(), b"hand_rest"));

#[cfg(test)]
mod tests {
    use super::*;

    /// The model answers something finite everywhere in the features' range, and not the same for a player with
    /// nothing on the table and everything to play for as for one at the last turn.
    #[test]
    fn the_model_is_finite_and_reads_its_input() {
        let mut early = [0f32; COUNT];
        early[0] = 1.0;
        early[3] = 0.5;
        early[32] = 1.0;
        let mut late = [0f32; COUNT];
        late[3] = 0.5;
        assert!(rest(&early).is_finite() && rest(&late).is_finite());
        const { assert!(GENERATION >= 1, "the shipped weights are trained") };
        assert!(rest(&early) > rest(&late) + 5.0, "{} vs {}", rest(&early), rest(&late));
    }
}
