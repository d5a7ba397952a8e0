//! Things that must change nothing: the sheep on a Halflings triangle (HALF-19) and the `oct2015` scoring variant
//! outside scoring (AMB-28). Each test plays the same seeded random games under two setups that differ only in that
//! thing, choosing the same action by index at every step, and compares what the two games offer and do.

use carcassonne::catalogue::tile_entries_from_toml;
use carcassonne::{Action, Actor, Game, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const HALF: &str = include_str!("../tiles/half.toml");

/// The Halflings triangles as a player's own tile file, with every module on and all 24 triangles dealt, the symbol
/// triangles included (VAR-17, VAR-20).
fn halflings_setup(tiles: &str, seed: u64) -> Setup {
    let mut s = Setup::new(3);
    s.sets = ["base", "am", "pd", "cc"].iter().map(|x| x.to_string()).collect();
    for m in ["abbey", "mayor", "wagon", "barn", "dragon", "fairy", "princess", "portal", "crop_circles", "halflings"] {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    s.rules.set("halflings.include_symbol_tiles", "true").unwrap();
    s.rules.set("halflings.tiles_per_player", "8").unwrap();
    s.custom_tiles = tile_entries_from_toml(tiles, "half.toml").unwrap();
    s.seed = seed;
    s.prepare().unwrap();
    s
}

/// One step of both games: the legal actions offered (in notation) must be the same; the same one is applied.
/// Returns false when the games are over.
fn step(a: &mut Game, b: &mut Game, rng: &mut ChaCha8Rng) -> bool {
    assert_eq!(a.is_over(), b.is_over());
    if a.is_over() {
        return false;
    }
    let la: Vec<String> = a.legal_actions().into_iter().map(|x| a.action_text(x)).collect();
    let lb: Vec<String> = b.legal_actions().into_iter().map(|x| b.action_text(x)).collect();
    assert_eq!(la, lb, "the two games offer different actions");
    let (xa, xb) = match a.decision().actor {
        Actor::Chance => (Action::Draw(a.next_draw().unwrap()), Action::Draw(b.next_draw().unwrap())),
        _ => {
            let i = rng.random_range(0..la.len());
            (a.legal_actions()[i], b.legal_actions()[i])
        }
    };
    assert_eq!(a.action_text(xa), b.action_text(xb));
    a.apply(xa).unwrap();
    b.apply(xb).unwrap();
    true
}

#[test]
fn the_sheep_triangle_is_an_ordinary_triangle() {
    // HALF-19: without Hills & Sheep the sheep are decoration. The same games with the sheep painted out: the same
    // actions offered, the same events, the same scores.
    let plain = HALF.replace("symbols = [\"sheep\"]\n", "");
    assert_ne!(plain, HALF, "the sheep triangle is in the set file");
    let mut sheep_placed = 0;
    for seed in 0..6 {
        let mut a = Game::new(&halflings_setup(HALF, seed)).unwrap();
        let mut b = Game::new(&halflings_setup(&plain, seed)).unwrap();
        let sheep = a.catalogue().by_id("custom/II7").expect("II7 is the sheep triangle");
        assert!(a.catalogue().def(sheep).has_symbol(carcassonne::catalogue::Symbol::Sheep));
        assert!(!b.catalogue().def(sheep).has_symbol(carcassonne::catalogue::Symbol::Sheep));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while step(&mut a, &mut b, &mut rng) {
            assert_eq!(a.last_events(), b.last_events(), "seed {seed}");
            assert_eq!(a.scores(), b.scores(), "seed {seed}");
        }
        sheep_placed += a.board().tiles().iter().filter(|t| t.kind == sheep).count();
    }
    assert!(sheep_placed > 0, "no game placed the sheep triangle: the test compared nothing");
}

#[test]
fn oct2015_changes_only_the_scoring() {
    // AMB-28: `halflings.scoring=oct2015` against the default `jan2021`: dragon movement, ranges and every other
    // decision stay the same, so the same games offer the same actions at every step; only points may differ.
    let mut differed = 0;
    for seed in 0..6 {
        let jan = halflings_setup(HALF, seed);
        let mut oct = jan.clone();
        oct.rules.set("halflings.scoring", "oct2015").unwrap();
        let mut a = Game::new(&jan).unwrap();
        let mut b = Game::new(&oct).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while step(&mut a, &mut b, &mut rng) {}
        differed += (a.scores() != b.scores()) as usize;
    }
    assert!(differed > 0, "the variant changed no score in any game: is it applied?");
}
