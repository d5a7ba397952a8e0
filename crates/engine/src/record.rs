//! Game records: the setup plus every action in notation, as JSON (docs/record-format.md). Draws are actions too, so
//! a record replays to the same state on any machine whatever the shuffle.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Action;
use crate::game::{Event, Game};
use crate::setup::{Setup, SetupError};

/// The record format's name and version.
pub const RECORD_FORMAT: &str = "carcassonne-record/1";

/// A game record. Unknown keys are errors, so a misspelt `actions` cannot pass as an empty game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    #[serde(default = "format_name")]
    pub format: String,
    /// How the game was set up.
    pub setup: Setup,
    /// Every action, in order, in notation.
    #[serde(default)]
    pub actions: Vec<String>,
}

fn format_name() -> String {
    RECORD_FORMAT.to_string()
}

/// Why a record does not replay.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// Not JSON, or not a record.
    #[error("not a valid record: {0}")]
    Json(String),
    /// A format this version does not read.
    #[error("unknown record format `{0}` (this version reads `{RECORD_FORMAT}`)")]
    Format(String),
    /// The setup is invalid.
    #[error("invalid setup: {0}")]
    Setup(SetupError),
    /// An action could not be read or was illegal.
    #[error("action {number} `{text}`: {reason}")]
    Action {
        /// 1-based action number.
        number: usize,
        /// The action's text.
        text: String,
        /// Why.
        reason: String,
    },
}

impl From<SetupError> for ReplayError {
    fn from(e: SetupError) -> Self {
        ReplayError::Setup(e)
    }
}

/// A replayed game with everything that happened.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last action.
    pub game: Game,
    /// Every event, with the 1-based number of the action that caused it (0 for the setup).
    pub events: Vec<(usize, Event)>,
    /// Every action in canonical notation, as [`Game::action_text`] writes it (single spaces, each segment by its
    /// canonical name): what to store, whatever spacing or other names of a segment the record was written with.
    pub actions: Vec<String>,
}

impl Record {
    /// A record of a game that has not started yet.
    pub fn new(setup: Setup) -> Record {
        Record { format: format_name(), setup, actions: vec![] }
    }

    /// Parse a record from JSON.
    ///
    /// # Errors
    /// A [`ReplayError`] for bad JSON or an unknown format.
    pub fn from_json(text: &str) -> Result<Record, ReplayError> {
        // Some editors start a UTF-8 file with a byte-order mark; it is not part of the JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let r: Record = serde_json::from_str(text).map_err(|e| ReplayError::Json(e.to_string()))?;
        if r.format != RECORD_FORMAT {
            return Err(ReplayError::Format(r.format));
        }
        Ok(r)
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// Append an action (written in notation against the game *before* it is applied).
    pub fn push(&mut self, game: &Game, a: Action) {
        self.actions.push(game.action_text(a));
    }

    /// Replay the record.
    ///
    /// # Errors
    /// A [`ReplayError`] naming the first action that fails and why.
    pub fn replay(&self) -> Result<Replay, ReplayError> {
        let mut game = Game::new(&self.setup)?;
        let mut events: Vec<(usize, Event)> = game.last_events().iter().map(|e| (0, *e)).collect();
        let mut actions = Vec::with_capacity(self.actions.len());
        for (i, text) in self.actions.iter().enumerate() {
            let fail = |reason: String| ReplayError::Action { number: i + 1, text: text.clone(), reason };
            let a = game.parse_action(text).map_err(|e| fail(e.reason))?;
            actions.push(game.action_text(a));
            game.apply(a).map_err(|e| fail(e.reason.to_string()))?;
            events.extend(game.last_events().iter().map(|e| (i + 1, *e)));
        }
        Ok(Replay { game, events, actions })
    }

    /// The same game with the whole board turned by `r` about the start space: the start tile turned by `r` more
    /// ([`Setup::start_rotation`]) and every action turned with it ([`Game::rotate_action`]), in canonical notation.
    /// Seeds, draws and hands are the same, so the turned game deals and scores exactly as this one.
    ///
    /// # Errors
    /// A [`ReplayError`] if the record does not replay.
    pub fn rotated(&self, r: crate::geom::Rotation) -> Result<Record, ReplayError> {
        let mut setup = self.setup.clone();
        setup.start_rotation = setup.start_rotation.then(r);
        let mut game = Game::new(&self.setup)?;
        let mut turned = Game::new(&setup)?;
        let mut out = Record::new(setup);
        for (i, text) in self.actions.iter().enumerate() {
            let fail = |reason: String| ReplayError::Action { number: i + 1, text: text.clone(), reason };
            let a = game.parse_action(text).map_err(|e| fail(e.reason))?;
            let t = game.rotate_action(a, r);
            game.apply(a).map_err(|e| fail(e.reason.to_string()))?;
            out.push(&turned, t);
            turned.apply(t).map_err(|e| fail(format!("turned by {r}, `{}`: {}", turned.action_text(t), e.reason)))?;
        }
        Ok(out)
    }

    /// The same record with every action rewritten in canonical notation ([`Replay::actions`]).
    ///
    /// # Errors
    /// A [`ReplayError`] if the record does not replay.
    pub fn canonical(&self) -> Result<Record, ReplayError> {
        let actions = self.replay()?.actions;
        Ok(Record { actions, ..self.clone() })
    }
}
