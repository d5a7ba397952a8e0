//! A Carcassonne rules engine: tiles as data, a board that already knows triangles, a feature graph, the turn as a
//! sequence of decisions, scoring, and game records that replay exactly.
//!
//! # Example
//! Play a two-player base game with uniformly random legal actions and read the final scores:
//! ```
//! use carcassonne::{Actor, Game, Setup};
//! use rand::{Rng, SeedableRng};
//!
//! let mut setup = Setup::new(2);
//! setup.seed = 7;
//! let mut game = Game::new(&setup).unwrap();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let mut actions = Vec::new();
//! while !game.is_over() {
//!     game.legal_actions_into(&mut actions);
//!     let a = match game.decision().actor {
//!         // The stack is already shuffled: chance takes its top tile.
//!         Actor::Chance => carcassonne::Action::Draw(game.next_draw().unwrap()),
//!         _ => actions[rng.random_range(0..actions.len())],
//!     };
//!     game.apply(a).unwrap();
//! }
//! assert_eq!(game.scores().len(), 2);
//! assert_eq!(game.stack_len(), 0);
//! ```
//!
//! # Expansions
//! Each expansion mechanism is a module a setup switches on by name (SPEC §V); its tiles come with its set:
//! ```
//! use carcassonne::{Game, Setup};
//! use rand::SeedableRng;
//!
//! let mut setup = Setup::new(3);
//! setup.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
//! for m in carcassonne::rules::Modules::NAMES {
//!     setup.rules.set(&format!("modules.{m}"), "true").unwrap();
//! }
//! setup.rules.set("dragon.move_timing", "after_scoring").unwrap(); // VAR-06
//! let mut game = Game::new(&setup).unwrap();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
//! game.play_random(&mut rng, &mut Vec::new());
//! assert!(game.is_over());
//! ```
#![deny(missing_docs)]

pub mod action;
pub mod board;
pub mod catalogue;
pub mod game;
pub mod geom;
pub mod perft;
pub mod record;
pub mod report;
pub mod rules;
pub mod setup;

pub use action::{Action, MeepleKind, ParseActionError, Player};
pub use board::{Board, FeatureInfo, PlaceError, Placement, SegmentId, SquareEdges};
pub use catalogue::{Catalogue, CatalogueError, SegmentKind, TileDef, TileKind, TileSet};
pub use game::{Actor, Decision, DecisionKind, Event, Game, IllegalAction, IllegalReason, ScoreTime, Scoring};
pub use geom::{Corner, Rotation, Side, Space};
pub use record::{Record, Replay, ReplayError};
pub use rules::Rules;
pub use setup::{GameConfig, Setup, SetupError};
