//! A game turned about the start space (`Setup::start_rotation`, `Action::rotate`) is the same game: at every decision
//! the turned game's legal actions are exactly this game's, turned; the same events happen and the scores stay equal;
//! and `Record::rotated` writes the turned game's record, which four quarter turns bring back to the original.

use std::collections::HashSet;

use carcassonne::geom::Rotation;
use carcassonne::{Action, Game, Record, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every module, with the fairy onto tiles (VAR-08) on odd seeds so that `fairy x,y` is played too.
fn everything(players: u8, seed: u64) -> Setup {
    let mut s = Setup::new(players);
    s.seed = seed;
    s.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
    for m in carcassonne::rules::Modules::NAMES {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    if seed % 2 == 1 {
        s.rules.set("fairy.placement", "on_tile").unwrap();
    }
    s
}

/// Plays a random game and its turned twin in step, checking them against each other; returns the game's record.
fn play_twins(setup: &Setup, r: Rotation, seed: u64) -> Record {
    let mut turned_setup = setup.clone();
    turned_setup.start_rotation = r;
    let mut game = Game::new(setup).unwrap();
    let mut turned = Game::new(&turned_setup).unwrap();
    let mut record = Record::new(setup.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut step = 0;
    while !game.is_over() {
        step += 1;
        let legal: HashSet<Action> = game.legal_actions().into_iter().map(|a| game.rotate_action(a, r)).collect();
        let turned_legal: HashSet<Action> = turned.legal_actions().into_iter().collect();
        assert_eq!(legal, turned_legal, "seed {seed}, step {step}, turned {r}: legal actions differ");
        let a = game.random_action(&mut rng, &mut buf).expect("the game is not over");
        record.push(&game, a);
        let t = game.rotate_action(a, r);
        let text = game.action_text(a);
        game.apply(a).unwrap();
        turned.apply(t).unwrap();
        assert_eq!(
            game.last_events().len(),
            turned.last_events().len(),
            "seed {seed}, step {step}: events {:?} {:?} after {text}",
            game.last_events(),
            turned.last_events()
        );
        assert_eq!(game.scores(), turned.scores(), "seed {seed}, step {step}: scores");
        let mut here: Vec<_> = (game.meeples().iter())
            .map(|m| {
                let (t, l) = game.board().segment_tile(m.segment);
                (m.player, m.kind, t, game.rotate_segment(t, l, r))
            })
            .collect();
        let mut there: Vec<_> = (turned.meeples().iter())
            .map(|m| {
                let (t, l) = turned.board().segment_tile(m.segment);
                (m.player, m.kind, t, l)
            })
            .collect();
        for (t, (p, q)) in game.board().tiles().iter().zip(turned.board().tiles()).enumerate() {
            assert_eq!((p.kind, p.space.rotate(r)), (q.kind, q.space), "seed {seed}, step {step}: tile {t}");
        }
        here.sort();
        there.sort();
        assert_eq!(here, there, "seed {seed}, step {step}: figures after {text}");
    }
    assert!(turned.is_over());
    record
}

#[test]
fn a_turned_game_is_the_same_game() {
    for seed in 0..8u64 {
        let r = Rotation::from_index(1 + seed as usize % 3);
        play_twins(&everything(2 + (seed % 3) as u8, seed), r, seed);
        let mut base = Setup::new(2);
        base.seed = seed;
        play_twins(&base, r, 100 + seed);
    }
}

#[test]
fn four_quarter_turns_bring_a_record_back() {
    let record = play_twins(&everything(3, 5), Rotation::R90, 5);
    let mut turned = record.clone();
    for _ in 0..4 {
        turned = turned.rotated(Rotation::R90).unwrap();
    }
    assert_eq!(turned.setup, record.setup);
    assert_eq!(turned.actions, record.canonical().unwrap().actions);
    let json = record.rotated(Rotation::R270).unwrap().to_json();
    assert!(json.contains("\"start_rotation\": 270"), "{json}");
    let back = Record::from_json(&json).unwrap().replay().unwrap();
    assert_eq!(back.game.scores(), record.replay().unwrap().game.scores());
}
