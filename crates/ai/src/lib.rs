//! Computer players for the `carcassonne` engine, behind one trait, [`Bot`]:
//!
//! | spec | player |
//! |---|---|
//! | `random` | uniform over the legal actions |
//! | `greedy` | one ply over its whole turn, valued by the static evaluation ([`eval`]) |
//! | `mcts` | information-set Monte-Carlo tree search over determinizations ([`mcts`]) |
//! | `easy`, `medium`, `hard` | the levels offered to people ([`Level`]) |
//!
//! A bot is given the game and the seat it plays, and uses only what that seat can see: its look-ahead runs on
//! determinizations re-sampled from the seat's own view ([`carcassonne::Game::shuffle_hidden`]).
//!
//! # Example
//! A greedy player against a short search, to the end of a base game:
//! ```
//! use carcassonne::{Action, Actor, Game, Setup};
//! use carcassonne_ai::{Bot, BotSpec};
//!
//! let mut setup = Setup::new(2);
//! setup.seed = 11;
//! let mut game = Game::new(&setup).unwrap();
//! let specs: [BotSpec; 2] = ["greedy".parse().unwrap(), "mcts:iterations=50".parse().unwrap()];
//! let mut bots: Vec<Box<dyn Bot>> = specs.iter().enumerate().map(|(i, s)| s.build(i as u64)).collect();
//! while !game.is_over() {
//!     let a = match game.decision().actor {
//!         Actor::Chance => Action::Draw(game.next_draw().unwrap()),
//!         Actor::Player(p) => bots[p.index()].choose(&game, p).unwrap(),
//!         Actor::Nobody => break,
//!     };
//!     game.apply(a).unwrap();
//! }
//! println!("final scores {:?}", game.scores());
//! ```
#![deny(missing_docs)]

pub mod arena;
mod bot;
pub mod breakdown;
pub mod eval;
pub mod features;
pub mod gauntlet;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod spec;
pub mod stats;
pub mod tune;
pub mod value;

pub use bot::{Bot, BotError, Candidate, Thought};
pub use greedy::GreedyBot;
pub use mcts::{Budget, MctsBot, MctsConfig, Opponents};
pub use random::RandomBot;
pub use spec::{BotSpec, Level, SpecError};
