//! Reading the files `carc` is given: `-` is standard input, and a leading UTF-8 byte-order mark is dropped (editors on
//! Windows write one), so neither JSON nor TOML trips over it.

use std::path::Path;

use anyhow::{Context, Result};

/// How messages name an input: `standard input` for `-`, else the path.
pub(crate) fn name(path: &Path) -> String {
    if path.as_os_str() == "-" { "standard input".to_string() } else { path.display().to_string() }
}

/// The text of a file, or of standard input for `-`, without a byte-order mark.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
    };
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// `1 tile`, `2 tiles`: a count and its noun, `many` being the plural.
pub(crate) fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// A count of a regular noun: `1 city`, `2 cities`, `3 tiles`.
pub(crate) fn plural(n: impl Into<u64>, noun: &str) -> String {
    let many = match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{stem}ies"),
        _ => format!("{noun}s"),
    };
    count(n, noun, &many)
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(super::count(1u32, "tile", "tiles"), "1 tile");
        assert_eq!(super::count(0u32, "tile", "tiles"), "0 tiles");
        assert_eq!(super::count(3u32, "monastery tile", "monastery tiles"), "3 monastery tiles");
        assert_eq!(super::plural(2u32, "city"), "2 cities");
        assert_eq!(super::plural(2u32, "monastery"), "2 monasteries");
        assert_eq!(super::plural(2u32, "highway"), "2 highways");
        assert_eq!(super::plural(1u32, "copy"), "1 copy");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let path = std::env::temp_dir().join(format!("carc-bom-{}.json", std::process::id()));
        std::fs::write(&path, "\u{feff}{\"a\": 1}").unwrap();
        assert_eq!(super::read_text(&path).unwrap(), "{\"a\": 1}");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(super::name(std::path::Path::new("-")), "standard input");
    }
}
