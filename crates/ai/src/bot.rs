//! The one trait every computer player implements, and what a player says about its choice.

use std::time::Duration;

use carcassonne::{Action, Actor, Game, Player};
use thiserror::Error;

/// Why a bot could not choose.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum BotError {
    /// The game is over: there is nothing to decide.
    #[error("the game is over")]
    GameOver,
    /// The pending decision is another seat's, or chance's.
    #[error("the pending decision is not {asked}'s")]
    NotYourDecision {
        /// The seat the bot was asked to play.
        asked: Player,
    },
    /// The engine lists no legal action (never expected; reported rather than panicking).
    #[error("no legal action to choose from")]
    NoLegalAction,
}

/// One action a bot considered, with what its search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The action.
    pub action: Action,
    /// How often the search tried it (for `greedy`, 1; for `random`, 0).
    pub visits: u32,
    /// Its value for the bot: for `mcts` the mean reward in 0..=1, for `greedy` the expected point margin.
    pub value: f32,
}

/// A bot's choice and its account of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The chosen action.
    pub action: Action,
    /// The actions considered, best first (may be a few, or all).
    pub candidates: Vec<Candidate>,
    /// Search iterations run (0 for bots that do not search, or when the choice was forced).
    pub iterations: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Thought {
    /// A choice with nothing to tell.
    pub fn only(action: Action) -> Thought {
        Thought { action, candidates: Vec::new(), iterations: 0, elapsed: Duration::ZERO }
    }
}

/// A computer player. Given the game and the seat it plays, it chooses that seat's action. It must use only what
/// that seat can see: every implementation here looks ahead only on determinizations re-sampled from the seat's own
/// view ([`Game::shuffle_hidden`]).
///
/// A bot keeps its own random generator, so a bot built from a seed makes the same choices for the same positions
/// and budget (with an iteration budget; a time budget depends on the machine).
pub trait Bot: Send {
    /// The bot's spec, as [`crate::BotSpec`] reads it (`greedy`, `mcts:iterations=2000`, `hard`).
    fn name(&self) -> String;

    /// Choose `me`'s action for the pending decision, with the candidates considered.
    ///
    /// # Errors
    /// [`BotError`] when the game is over or the decision is not `me`'s.
    fn think(&mut self, game: &Game, me: Player) -> Result<Thought, BotError>;

    /// Choose `me`'s action for the pending decision.
    ///
    /// # Errors
    /// [`BotError`] when the game is over or the decision is not `me`'s.
    fn choose(&mut self, game: &Game, me: Player) -> Result<Action, BotError> {
        self.think(game, me).map(|t| t.action)
    }
}

/// Check that `me` is to decide, and return the legal actions.
pub(crate) fn my_actions(game: &Game, me: Player) -> Result<Vec<Action>, BotError> {
    match game.decision().actor {
        Actor::Nobody => return Err(BotError::GameOver),
        Actor::Player(p) if p == me => {}
        _ => return Err(BotError::NotYourDecision { asked: me }),
    }
    let legal = game.legal_actions();
    if legal.is_empty() {
        return Err(BotError::NoLegalAction);
    }
    Ok(legal)
}
