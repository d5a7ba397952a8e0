//! A game's chat: short messages between its seats, stored with the game beside (never inside) its action log, so
//! that the record and its replay do not know of them (decision W-13: spectators read it, only seats write in it).

use serde::Serialize;

use crate::text;

/// The longest message, in characters (not bytes) once trimmed.
pub(crate) const MAX_CHARS: usize = 280;

/// The most messages one game keeps; past that its chat is full (a seat's rate limit alone would let a game's chat
/// grow without end).
pub(crate) const MAX_PER_GAME: usize = 1_000;

/// Why a message was refused. Each is a 400.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ChatError {
    /// Nothing but spaces.
    #[error("a chat message cannot be empty")]
    Empty,
    /// Over [`MAX_CHARS`].
    #[error("a chat message has at most {MAX_CHARS} characters, not {0}")]
    TooLong(usize),
    /// A control character (Unicode Cc: a newline, a tab, an escape…), at this character's position (1-based).
    #[error("a chat message cannot hold control characters (line breaks, tabs, escapes…): character {0} is one")]
    Control(usize),
    /// A bidirectional override or isolate, which would reorder what is shown after it (names included).
    #[error("a chat message cannot hold direction-changing characters: character {0} is one")]
    Direction(usize),
    /// A character drawn as nothing (a zero-width space, a filler, a tag…) other than those emoji and scripts need.
    #[error(
        "a chat message cannot hold invisible characters (zero-width spaces, fillers, tags…): character {0} is one"
    )]
    Invisible(usize),
}

/// A message as it is stored: `text` trimmed, then checked.
///
/// # Errors
/// When it is empty, too long, or holds a control, line-breaking, direction-changing or invisible character.
pub(crate) fn check(text: &str) -> Result<&str, ChatError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatError::Empty);
    }
    for (i, c) in text.chars().enumerate() {
        if text::line_breaking(c) {
            return Err(ChatError::Control(i + 1));
        }
        if text::direction_changing(c) {
            return Err(ChatError::Direction(i + 1));
        }
    }
    if let Some(at) = text::invisible_in_chat(text) {
        return Err(ChatError::Invisible(at));
    }
    let n = text.chars().count();
    if n > MAX_CHARS {
        return Err(ChatError::TooLong(n));
    }
    Ok(text)
}

/// One message, as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct ChatLine {
    /// 1-based, in the order the game's messages were stored.
    pub n: i64,
    /// The seat that wrote it: `P1`, `P2`, …
    pub seat: String,
    /// The seat's name when it wrote it.
    pub name: String,
    pub text: String,
    /// The game's version (its number of actions) when it was written: the message comes after those actions.
    pub version: i64,
    /// Unix seconds.
    pub at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_trimmed_and_counted_in_characters() {
        assert_eq!(check("  gg  "), Ok("gg"));
        // 280 two-byte characters are 560 bytes, and fit.
        let long = "ă".repeat(MAX_CHARS);
        assert_eq!(check(&format!(" {long} ")), Ok(long.as_str()));
        assert_eq!(check(&format!("{long}a")), Err(ChatError::TooLong(MAX_CHARS + 1)));
        // Emoji sequences (joined by U+200D) and other scripts are text.
        assert!(check("👩\u{200D}👩\u{200D}👧 bravo, ați închis orașul").is_ok());
    }

    #[test]
    fn empty_control_and_direction_changing_messages_are_refused() {
        for empty in ["", "   ", "\u{3000}"] {
            assert_eq!(check(empty), Err(ChatError::Empty), "{empty:?}");
        }
        for (bad, at) in [("a\nb", 2), ("a\tb", 2), ("\u{1b}[31mred", 1), ("x\u{7f}", 2), ("a\u{85}b", 2)] {
            assert_eq!(check(bad), Err(ChatError::Control(at)), "{bad:?}");
        }
        assert_eq!(check("a\u{202E}b"), Err(ChatError::Direction(2)));
        assert_eq!(check("\u{2067}x"), Err(ChatError::Direction(1)));
        assert_eq!(check("a\u{2028}b"), Err(ChatError::Control(2)));
        assert_eq!(check("a\u{200B}b"), Err(ChatError::Invisible(2)));
    }
}
