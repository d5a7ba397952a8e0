//! Bad input never panics: records cut at a random point and followed by random action text replay to an error or
//! a state, never a crash.

use carcassonne::{Action, Actor, Game, Record, Setup};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const WORDS: &[&str] = &[
    "draw",
    "place",
    "meeple",
    "mayor",
    "wagon",
    "barn",
    "pass",
    "base/U",
    "base/X",
    "am/abbey",
    "am/C++",
    "custom/Q",
    "0,0",
    "1,0",
    "-3,2",
    "0,1",
    "9999,9999",
    "x,y",
    "r0",
    "r90",
    "r45",
    "road@E",
    "city@N",
    "field@Nw",
    "field@L",
    "monastery",
    "field@inner#3",
    "crop",
    "NE",
    "SW",
    "up",
    "dragon",
    "N",
    "fairy",
    "princess",
    "portal",
    "add",
    "remove",
    "pick",
    "P1",
    "P7",
    "+fairy",
    "A",
    "B",
    "knight",
    "half/I4",
    "half/I3",
    "pd/2",
    "1,0/NE",
    "0,-1/SW",
    "2,2/XX",
    "",
];

/// Base, Abbey & Mayor, or every module (P&D, crop circles and Halflings too), by seed.
fn setup(seed: u64) -> Setup {
    let mut s = Setup::new(2 + (seed % 3) as u8);
    s.seed = seed;
    match seed % 3 {
        0 => {}
        1 => {
            s.sets = vec!["base".into(), "am".into()];
            for m in ["abbey", "mayor", "wagon", "barn"] {
                s.rules.set(&format!("modules.{m}"), "true").unwrap();
            }
        }
        _ => {
            s.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
            for m in carcassonne::rules::Modules::NAMES {
                s.rules.set(&format!("modules.{m}"), "true").unwrap();
            }
        }
    }
    s
}

fn record_prefix(seed: u64, len: usize) -> Record {
    let s = setup(seed);
    let mut g = Game::new(&s).unwrap();
    let mut r = Record::new(s);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while r.actions.len() < len && !g.is_over() {
        let legal = g.legal_actions();
        let a = match g.decision().actor {
            Actor::Chance => Action::Draw(g.next_draw().unwrap()),
            _ => legal[rng.random_range(0..legal.len())],
        };
        r.push(&g, a);
        g.apply(a).unwrap();
    }
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn random_action_text_never_panics(seed in 0u64..200, len in 0usize..260,
                                       words in prop::collection::vec(0..WORDS.len(), 0..5)) {
        let mut r = record_prefix(seed, len);
        let text: Vec<&str> = words.iter().map(|&i| WORDS[i]).collect();
        r.actions.push(text.join(" "));
        match r.replay() {
            Ok(replay) => prop_assert!(replay.game.audit().is_ok()),
            Err(e) => prop_assert!(e.to_string().starts_with("action ")),
        }
    }
}

#[test]
fn a_record_with_an_unknown_key_is_refused() {
    let json = r#"{"format": "carcassonne-record/1", "setup": {"players": 2}, "action": ["draw base/U"]}"#;
    assert!(Record::from_json(json).is_err(), "a misspelt `actions` must not pass as an empty game");
}

#[test]
fn forced_hands_respect_the_number_of_copies() {
    let mut s = Setup::new(2);
    s.sets = vec!["base".into(), "half".into()];
    s.rules.set("modules.halflings", "true").unwrap();
    s.hands = Some(vec![vec!["half/I4".into()], vec!["half/I4".into()]]);
    let e = s.prepare().unwrap_err().to_string();
    assert!(e.contains("half/I4"), "{e}");
    s.hands = Some(vec![vec!["half/I4".into()], vec!["half/I5".into()]]);
    assert!(s.prepare().is_ok());
    s.hands = Some(vec![vec!["half/I4".into()]]);
    assert!(s.prepare().is_err(), "one hand per player");
}

#[test]
fn the_tile_limit_counts_abbeys_only_when_the_players_hold_them() {
    // 249 tiles in the stack and the start tile: exactly the limit without abbeys.
    let mut s = Setup::new(2);
    s.draw_order = Some(vec!["base/U".to_string(); Setup::MAX_TILES - 1]);
    Game::new(&s).expect("250 tiles without abbeys");
    s.draw_order.as_mut().unwrap().push("base/U".into());
    let err = Game::new(&s).expect_err("251 tiles").to_string();
    assert_eq!(err, "251 tiles: a game holds at most 250 tiles");
    // With the abbey module each player's abbey counts, and the message says so.
    s.sets = vec!["base".into(), "am".into()];
    s.rules.modules.abbey = true;
    s.draw_order.as_mut().unwrap().truncate(Setup::MAX_TILES - 3);
    Game::new(&s).expect("247 + start + 2 abbeys");
    s.draw_order.as_mut().unwrap().push("base/U".into());
    let err = Game::new(&s).expect_err("251 tiles").to_string();
    assert_eq!(err, "251 tiles (with the 2 abbeys the players hold): a game holds at most 250 tiles");
}

#[test]
fn odd_spacing_replays_and_is_stored_canonically() {
    let json = "\u{feff}{\"setup\": {\"players\": 2, \"draw_order\": [\"base/U\"]},
        \"actions\": [\"draw  base/U\", \"place\\tbase/U 1,0\\u00a0r180\", \"  meeple   road@E \"]}";
    let record = Record::from_json(json).expect("a byte-order mark and odd spacing are readable");
    let replay = record.replay().unwrap();
    // A straight road's road is named by its first side clockwise from north; r180 shows the same picture as r0
    // and is kept as written.
    assert_eq!(replay.actions, ["draw base/U", "place base/U 1,0 r180", "meeple road@E"]);
    let canonical = record.canonical().unwrap();
    assert_eq!(canonical.actions, replay.actions);
    assert_eq!(canonical.replay().unwrap().game.scores(), replay.game.scores());
}
