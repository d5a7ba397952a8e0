//! Time every decision of a few games between bots and print the slowest, with the decision's kind (a tool for
//! finding where a bot spends its time).
//!
//! Run with `cargo run --release -p carcassonne-ai --example slowest -- [BOT] [GAMES] [PLAYERS]` (all modules).

use std::time::Instant;

use carcassonne::{Action, Actor, Game, Setup};
use carcassonne_ai::BotSpec;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec: BotSpec = args.next().unwrap_or_else(|| "greedy".into()).parse().expect("a bot spec");
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut worst: Vec<(f64, String)> = Vec::new();
    for seed in 0..games {
        let mut s = Setup::new(players);
        s.seed = seed;
        s.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
        for m in carcassonne::rules::Modules::NAMES {
            s.rules.set(&format!("modules.{m}"), "true").unwrap();
        }
        let mut game = Game::new(&s).unwrap();
        let mut bots: Vec<_> = (0..players as u64).map(|i| spec.build(i)).collect();
        while !game.is_over() {
            let a = match game.decision().actor {
                Actor::Chance => Action::Draw(game.next_draw().unwrap()),
                Actor::Player(p) => {
                    let t = Instant::now();
                    let a = bots[p.index()].choose(&game, p).unwrap();
                    let dt = t.elapsed().as_secs_f64() * 1e3;
                    worst.push((
                        dt,
                        format!(
                            "seed {seed} turn {} {:?}: {} legal, chose {}",
                            game.turn(),
                            game.decision().kind,
                            game.legal_actions().len(),
                            game.action_text(a)
                        ),
                    ));
                    a
                }
                Actor::Nobody => break,
            };
            game.apply(a).unwrap();
        }
    }
    let n = worst.len();
    let total: f64 = worst.iter().map(|w| w.0).sum();
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("{n} decisions, mean {:.2} ms", total / n as f64);
    for (ms, what) in worst.iter().take(15) {
        println!("{ms:9.1} ms  {what}");
    }
}
