//! Heap allocations of the search, counted by a counting allocator (this test binary's own global allocator).

use carcassonne::{Action, Actor, Game, Setup};
use carcassonne_ai::{Bot, BotSpec};

/// A mid-game position of `setup`: `turns` decisions of greedy play.
fn position(setup: &Setup, decisions: usize) -> Game {
    let mut g = Game::new(setup).unwrap();
    let mut bot = "greedy".parse::<BotSpec>().unwrap().build(1);
    let mut n = 0;
    while !g.is_over() && (n < decisions || !matches!(g.decision().actor, Actor::Player(_))) {
        let a = match g.decision().actor {
            Actor::Chance => Action::Draw(g.next_draw().unwrap()),
            Actor::Player(p) => {
                n += 1;
                bot.choose(&g, p).unwrap()
            }
            Actor::Nobody => break,
        };
        g.apply(a).unwrap();
    }
    g
}

/// Heap allocations while `bot` thinks about `game`.
fn allocations(bot: &mut dyn Bot, game: &Game) -> u64 {
    let Actor::Player(me) = game.decision().actor else { panic!("a player's decision") };
    allocation_counter::measure(|| {
        bot.think(game, me).unwrap();
    })
    .count_total
}

#[test]
fn the_search_allocates_nothing_per_iteration_once_warm() {
    // A decision allocates a little whatever its budget (the legal list, the root's priors, the answer); the
    // iterations themselves nothing, once the tree's pools have grown: a warm bot searching 2,000 and 8,000
    // iterations of the same position allocates the same. Base game and every module, early, middle and late.
    // Every module once allocated in its scorings and listings (barn fields, wagons, the princess, the final
    // scoring's lists: 54,425 allocations for 8,000 iterations late in the game); a few dozen are allowed for the
    // tree's pools growing with four times the iterations there.
    let mut every = Setup::new(3);
    every.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
    every.switch_on_set_modules(false);
    for (name, setup) in [("base", Setup::new(2)), ("every module", every)] {
        for d in [6, 40, 90] {
            let g = position(&setup, d);
            let spec: BotSpec = "mcts:iterations=2000,reuse=false".parse().unwrap();
            let mut short = spec.build(7);
            let mut long = spec.with_settings(&[("iterations", 8000.0)]).unwrap().build(7);
            for bot in [&mut short, &mut long] {
                // Warm: the pools grow to hold a search of this size (twice, for headroom).
                for _ in 0..2 {
                    allocations(bot.as_mut(), &g);
                }
            }
            let a = allocations(short.as_mut(), &g);
            let b = allocations(long.as_mut(), &g);
            println!("{name}, {d} decisions in: {a} allocations for 2,000 iterations, {b} for 8,000");
            let slack = if name == "base" { 6 } else { 48 };
            assert!(b <= a + slack, "{name}, {d} decisions in: {a} allocations for 2,000 iterations, {b} for 8,000");
        }
    }
}
