//! Perft: counting the paths of legal decisions through a game, the standard check of a move generator.
//!
//! Chance steps are not branched: they take the top of the stack (a forced draw order makes the count a fixed
//! number). Each player decision (placing a tile, phase 2) is one ply.

use crate::action::Action;
use crate::game::{Actor, Game};

/// Count the action sequences of exactly `depth` player decisions from `game`.
///
/// As in chess, `perft(game, 0)` is 1 and a path that ends the game before `depth` decisions counts 0: on a finished
/// game every depth from 1 counts 0, as there is no legal action. The recursion never goes deeper than the game
/// can last, whatever `depth` is asked for.
pub fn perft(game: &Game, depth: u32) -> u64 {
    let mut g = game.clone();
    resolve_chance(&mut g);
    if depth == 0 {
        return 1;
    }
    if g.is_over() {
        return 0;
    }
    let actions = g.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .into_iter()
        .map(|a| {
            let mut next = g.clone();
            next.apply_unchecked(a);
            perft(&next, depth - 1)
        })
        .sum()
}

/// Apply chance steps (the top of the stack) until a player must decide or the game ends.
pub fn resolve_chance(g: &mut Game) {
    while g.decision().actor == Actor::Chance {
        let k = g.next_draw().expect("a draw step always has a tile in the stack");
        g.apply_unchecked(Action::Draw(k));
    }
}
