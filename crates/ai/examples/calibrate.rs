//! Calibrate the static evaluation's completion chances from games between bots: for every road and city with a
//! follower on it at the start of a turn, whether it was complete at the end of the game, by open ends and own
//! turns left; for every monastery, how many of its empty neighbours were filled.
//!
//! Run with `cargo run --release -p carcassonne-ai --example calibrate -- [GAMES] [BOT] [PLAYERS] [SETS]` (default
//! 400 games of `greedy` against itself, 2 players, base game; SETS as `carc arena --sets`, for example
//! `base,am,pd,cc,half`, with each set's modules switched on).

use std::collections::BTreeMap;

use carcassonne::board::SegmentId;
use carcassonne::{Action, Actor, Game, SegmentKind, Setup};
use carcassonne_ai::{Bot, BotSpec};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let spec: BotSpec = args.next().unwrap_or_else(|| "greedy".into()).parse().expect("a bot spec");
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let sets: Vec<String> =
        args.next().map_or_else(|| vec!["base".into()], |s| s.split(',').map(String::from).collect());
    // (kind, open ends, own turns left) → (features, completed).
    let mut closes: BTreeMap<(&str, u16, u32), (u64, u64)> = BTreeMap::new();
    // Own turns left → (empty neighbours, filled by the end).
    let mut fills: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for seed in 0..games {
        let mut setup = Setup::new(players);
        setup.seed = seed;
        setup.sets = sets.clone();
        setup.switch_on_set_modules(false);
        let mut game = Game::new(&setup).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = (0..players as u64).map(|i| spec.build(seed * 7 + i)).collect();
        let mut watched: Vec<(&str, u16, u32, SegmentId)> = Vec::new();
        let mut monasteries: Vec<(u32, carcassonne::Space, u32)> = Vec::new();
        let mut last_turn = 0;
        while !game.is_over() {
            if game.turn() != last_turn {
                last_turn = game.turn();
                let turns = (game.stack_len() as u32).div_ceil(players as u32);
                let b = game.board();
                for m in game.meeples() {
                    let kind = match b.kind(m.segment) {
                        SegmentKind::Road => "road",
                        SegmentKind::City => "city",
                        SegmentKind::Monastery => {
                            let sp = b.tile(b.segment_tile(m.segment).0).space;
                            monasteries.push((turns, sp, 8 - b.filled_neighbours(sp)));
                            continue;
                        }
                        _ => continue,
                    };
                    watched.push((kind, b.open_ends(m.segment).min(6), turns, m.segment));
                }
            }
            let a = match game.decision().actor {
                Actor::Chance => Action::Draw(game.next_draw().unwrap()),
                Actor::Player(p) => bots[p.index()].choose(&game, p).unwrap(),
                Actor::Nobody => break,
            };
            game.apply(a).unwrap();
        }
        let b = game.board();
        for (kind, open, turns, seg) in watched {
            let e = closes.entry((kind, open, turns)).or_default();
            e.0 += 1;
            e.1 += b.is_complete(seg) as u64;
        }
        for (turns, sp, empty) in monasteries {
            let e = fills.entry(turns).or_default();
            e.0 += empty as u64;
            e.1 += (empty - (8 - b.filled_neighbours(sp))) as u64;
        }
    }
    println!("completion of roads and cities with a follower, by open ends (rows) and own turns left (columns):");
    for kind in ["road", "city"] {
        println!("{kind}");
        for open in 1..=6u16 {
            let mut line = format!("  open {open}:");
            for t in [1u32, 2, 3, 4, 6, 8, 12, 16, 24, 36] {
                let (n, k) = closes.get(&(kind, open, t)).copied().unwrap_or((0, 0));
                if n >= 20 {
                    line.push_str(&format!(" t{t}={:.2}", k as f64 / n as f64));
                }
            }
            println!("{line}");
        }
    }
    println!("monastery neighbours filled by the end, by own turns left:");
    let mut line = String::new();
    for (t, (n, k)) in &fills {
        if *n >= 40 {
            line.push_str(&format!(" t{t}={:.2}", *k as f64 / *n as f64));
        }
    }
    println!("{line}");
}
