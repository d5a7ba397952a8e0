//! Which characters people's text may hold: names (seats', tiles') and chat messages are shown to everyone, so none
//! may break a line, reorder what is drawn around it, or be drawn as nothing (two names that look the same but are
//! not, a message that hides a second one). The classes here are Unicode's: controls (`Cc`), the line and paragraph
//! separators, the bidirectional formatting characters, and the default-ignorable code points.

/// A control character (`Cc`) or a line or paragraph separator: each breaks or garbles a line.
pub(crate) fn line_breaking(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The bidirectional embeddings, overrides and isolates, which reorder what is shown after them.
pub(crate) fn direction_changing(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Unicode's `Default_Ignorable_Code_Point`: drawn as nothing (zero-width spaces and joiners, the soft hyphen, the
/// Hangul fillers, the combining grapheme joiner, variation selectors, tags, the byte-order mark…).
pub(crate) fn default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Whether a name may hold `c`: nothing line-breaking, direction-changing or invisible (decision E-11).
pub(crate) fn name_char(c: char) -> bool {
    !line_breaking(c) && !default_ignorable(c)
}

/// The position (1-based) of the first invisible character of a chat message, if any. A message keeps what emoji
/// and scripts need: the zero-width joiner and non-joiner, variation selectors, and the tags of a subdivision flag
/// (U+1F3F4 followed by tags up to U+E007F); every other default-ignorable character is refused (decision E-11).
pub(crate) fn invisible_in_chat(text: &str) -> Option<usize> {
    let mut in_flag = false;
    for (i, c) in text.chars().enumerate() {
        let tag = matches!(c, '\u{E0020}'..='\u{E007F}');
        let kept = matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
            || (tag && in_flag);
        if default_ignorable(c) && !kept && !direction_changing(c) {
            return Some(i + 1);
        }
        in_flag = c == '\u{1F3F4}' || (in_flag && tag && c != '\u{E007F}');
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_refuse_what_breaks_hides_or_reorders() {
        for bad in ['\n', '\u{85}', '\u{2028}', '\u{2029}', '\u{034F}', '\u{3164}', '\u{FFA0}', '\u{E0041}', '\u{200D}']
        {
            assert!(!name_char(bad), "{bad:?}");
        }
        assert!(!name_char('\u{202E}') && !name_char('\u{2067}') && !name_char('\u{FEFF}'));
        for ok in "Ștefan 🐑 نور 李 \"q\" <b>".chars() {
            assert!(name_char(ok), "{ok:?}");
        }
    }

    #[test]
    fn chat_keeps_what_emoji_and_scripts_need() {
        for ok in [
            "👩\u{200D}👩\u{200D}👧",
            "❤\u{FE0F}",
            "می\u{200C}خواهم",
            "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
        ] {
            assert_eq!(invisible_in_chat(ok), None, "{ok:?}");
        }
        for (bad, at) in [
            ("a\u{200B}b", 2),
            ("\u{FEFF}hi", 1),
            ("x\u{E0020}", 2),
            ("🏴\u{E0067}\u{E007F}\u{E0067}", 4),
            ("\u{3164}", 1),
        ] {
            assert_eq!(invisible_in_chat(bad), Some(at), "{bad:?}");
        }
    }
}
