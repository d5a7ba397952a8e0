//! The API's errors: each a status code and a JSON body `{"error": message, "code": name}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::chat::ChatError;
use crate::room::ActError;
use crate::store::StoreError;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    /// 400: the request could not be read.
    #[error("{0}")]
    BadRequest(String),
    /// 400: a chat message that may not be stored as it is.
    #[error("{0}")]
    Chat(#[from] ChatError),
    /// 401: a token was needed, or the one given is not a seat's.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// 403: not this seat's decision.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such game.
    #[error("no game `{0}`")]
    NotFound(String),
    /// 409: the game changed since the version the action was chosen at, or the game is over.
    #[error("{message}")]
    Conflict {
        /// What happened.
        message: String,
        /// The game's version now.
        version: usize,
    },
    /// 422: the engine refused the action.
    #[error("{0}")]
    Illegal(String),
    /// 500: the database failed; nothing was changed. The client is told only that (the log has the cause).
    #[error("the server could not store the change: {0}")]
    Store(#[from] StoreError),
    /// 500: something else failed inside the server. The message is for the client; the log has the cause.
    #[error("{0}")]
    Internal(String),
    /// 415: a body that is not `application/json`.
    #[error("send the body as `Content-Type: application/json`")]
    UnsupportedType,
    /// 429: the same work is already under way for this game (a hint), or a limit was reached.
    #[error("{0}")]
    Busy(String),
    /// 503: the server cannot work (no randomness from the operating system).
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    fn status(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Chat(_) => (StatusCode::BAD_REQUEST, "bad_chat_message"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "not_your_decision"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict { .. } => (StatusCode::CONFLICT, "conflict"),
            ApiError::Illegal(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal"),
            ApiError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "store"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::UnsupportedType => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
            ApiError::Busy(_) => (StatusCode::TOO_MANY_REQUESTS, "busy"),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    /// A refusal of the room, at `version`.
    pub(crate) fn from_act(e: ActError, version: usize) -> ApiError {
        match e {
            ActError::GameOver => ApiError::Conflict { message: e.to_string(), version },
            ActError::NotYours(_) | ActError::Unconfirmed => ApiError::Forbidden(e.to_string()),
            ActError::Malformed(m) => ApiError::BadRequest(m),
            ActError::Illegal(m) | ActError::Nothing(m) => ApiError::Illegal(m),
        }
    }
}

/// The most characters of an error message sent back.
const MAX_MESSAGE: usize = 400;

/// An error message as a client is sent it: what it quotes of the request (a bot spec, a name, a JSON body) may not
/// reorder, hide or break what is shown around it, so such characters are written as escapes (`\u{202e}`), and it is
/// cut at [`MAX_MESSAGE`] characters, so a 20 KB spec is not sent back whole.
pub(crate) fn shown(message: &str) -> String {
    let mut out = String::new();
    for (n, c) in message.chars().enumerate() {
        if n == MAX_MESSAGE {
            out.push('…');
            break;
        }
        if crate::text::name_char(c) {
            out.push(c);
        } else {
            out.extend(c.escape_unicode());
        }
    }
    out
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        // What went wrong inside stays in the log: the client learns only that nothing was changed.
        let message = match &self {
            ApiError::Store(_) => "the server could not store the change; nothing was changed".to_string(),
            other => shown(&other.to_string()),
        };
        let mut body = json!({ "error": message, "code": code });
        if let ApiError::Conflict { version, .. } = &self {
            body["version"] = json!(version);
        }
        (status, axum::Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_escaped_and_cut() {
        assert_eq!(shown("bot `a\u{202E}b`"), "bot `a\\u{202e}b`");
        assert_eq!(shown("line\nbreak"), "line\\u{a}break");
        let long = shown(&"x".repeat(20_000));
        assert_eq!(long.chars().count(), MAX_MESSAGE + 1);
        assert!(long.ends_with('…'));
        assert_eq!(shown("Ștefan 🐑"), "Ștefan 🐑");
    }
}
