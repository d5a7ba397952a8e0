//! The JSON the server itself writes, as typed structs (the engine's part of a view, `game`, is the engine's
//! `report` module's): a seat as everyone may see it, a seat's or a spectator's view of a room, a new game's answer
//! and a line of the lobby. docs/server-api.md documents each field.

use carcassonne::Player;
use serde::Serialize;
use serde_json::Value;

/// A seat as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct SeatView {
    /// `P1`, `P2`, …
    pub seat: String,
    pub name: String,
    /// `person` or `bot`.
    pub kind: &'static str,
    /// The bot's spec, for a bot.
    pub bot: Option<String>,
    /// A person's seat waiting for someone to join.
    pub open: bool,
    pub colour: Option<String>,
}

impl SeatView {
    /// Seat `i` (0-based).
    pub(crate) fn new(i: usize, name: &str, bot: Option<String>, open: bool, colour: Option<&str>) -> SeatView {
        SeatView {
            seat: Player(i as u8).to_string(),
            name: name.to_string(),
            kind: if bot.is_some() { "bot" } else { "person" },
            bot,
            open,
            colour: colour.map(str::to_string),
        }
    }
}

/// A room as one seat (or a spectator) sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct RoomView {
    pub id: String,
    /// The number of actions so far.
    pub version: usize,
    /// `running`, `finished` or `abandoned`.
    pub status: &'static str,
    /// The seat this view is for; `None` for a spectator.
    pub seat: Option<String>,
    pub seats: Vec<SeatView>,
    /// The setup without what is hidden.
    pub setup: Value,
    pub created_at: i64,
    pub awaiting_confirmation: Option<String>,
    pub can_take_back: bool,
    pub can_confirm: bool,
    /// A seat's own setting; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_confirm: Option<bool>,
    /// What each seat would have if the game ended now (while it runs; `None` when it cannot be worked out).
    pub if_ended: Option<crate::standing::IfEnded>,
    /// The engine's view of the table for this seat.
    pub game: Value,
}

/// A seat of a game just created, with its token and invite link for a person's seat.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct CreatedSeat {
    #[serde(flatten)]
    pub seat: SeatView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// The answer to creating a game.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Created {
    pub id: String,
    pub seats: Vec<CreatedSeat>,
    /// What a spectator sees.
    pub view: RoomView,
}

/// A line of the lobby.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct LobbyLine {
    pub id: String,
    pub created_at: i64,
    pub status: String,
    pub open_seats: usize,
    pub seats: Vec<SeatView>,
}
