//! `Game::fast_random_action` draws from the same distribution as `Game::random_action` (uniform over the legal
//! actions) without listing them all: every draw is legal, and over many draws at one position every legal action
//! comes up about equally often (a chi-square test, seeded, so it gives the same verdict every run).

use std::collections::HashMap;

use carcassonne::{Action, Actor, DecisionKind, Game, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every module, two to four players.
fn everything(players: u8, seed: u64) -> Setup {
    let mut s = Setup::new(players);
    s.seed = seed;
    s.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
    for m in carcassonne::rules::Modules::NAMES {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    s
}

/// Chi-square of `counts` against a uniform spread over `n` outcomes (outcomes never drawn count too).
fn chi_square(counts: &HashMap<Action, u32>, n: usize, draws: u32) -> f64 {
    let expected = draws as f64 / n as f64;
    let seen: f64 = counts.values().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
    seen + (n - counts.len()) as f64 * expected
}

#[test]
fn fast_random_actions_are_legal_and_uniform_in_the_halflings_phase_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut buf = Vec::new();
    let mut positions = 0;
    let mut worst: f64 = 0.0;
    for seed in 0..12u64 {
        let mut g = Game::new(&everything(2 + (seed % 3) as u8, seed)).unwrap();
        let mut step = 0;
        while !g.is_over() {
            step += 1;
            let phase1 = g.decision().kind == DecisionKind::Phase1 && g.decision().actor != Actor::Nobody;
            if phase1 && step % 5 == 0 {
                let legal = g.legal_actions();
                let n = legal.len();
                let draws = (n as u32 * 100).max(1000);
                let mut counts: HashMap<Action, u32> = HashMap::new();
                for _ in 0..draws {
                    let a = g.fast_random_action(&mut rng, &mut buf).expect("a phase-1 decision has actions");
                    assert!(legal.contains(&a), "seed {seed}: {a:?} is not legal");
                    *counts.entry(a).or_default() += 1;
                }
                if n > 1 {
                    // Degrees of freedom n - 1: the statistic's mean is n - 1 and its spread sqrt(2 (n - 1)).
                    let z = (chi_square(&counts, n, draws) - (n - 1) as f64) / (2.0 * (n - 1) as f64).sqrt();
                    worst = worst.max(z);
                    assert!(z < 5.0, "seed {seed}: {n} actions, chi-square {z:.1} deviations from uniform");
                }
                positions += 1;
            }
            let a = g.fast_random_action(&mut rng, &mut buf).expect("the game is not over");
            assert!(g.is_legal(a), "seed {seed}: {a:?}");
            g.apply_unchecked(a);
        }
    }
    assert!(positions >= 30, "only {positions} phase-1 positions were checked");
    eprintln!("{positions} positions, worst deviation {worst:.2}");
}

#[test]
fn a_sampler_that_skips_an_action_fails_the_uniformity_check() {
    // The check above can fail: with its 100 draws an action, dropping one of 20 equally likely outcomes is far
    // outside its bound.
    let mut counts = HashMap::new();
    for i in 0..19u8 {
        counts.insert(Action::Deploy { meeple: carcassonne::MeepleKind::Normal, segment: i }, 105);
    }
    let z = (chi_square(&counts, 20, 2000) - 19.0) / (2.0f64 * 19.0).sqrt();
    assert!(z > 5.0, "{z}");
}
