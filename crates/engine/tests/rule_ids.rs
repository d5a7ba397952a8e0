//! Every rule id cited anywhere in the repository (code, tests, scenarios, tile sets, docs) is defined in
//! `docs/rules.md`, so a user who meets `BASE-17` in a message can look it up.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The families of rule ids, as `docs/rules.md` names them.
const FAMILIES: &[&str] = &[
    "TURN", "BASE", "ABBEY", "MAYOR", "WAGON", "BARN", "DRAGON", "FAIRY", "PRINCESS", "PORTAL", "CROP", "HALF", "END",
    "VAR", "AMB",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Ids in `text`: `BASE-17`, and each id of a range written `BASE-04..06` or `DRAGON-07/08`; `EX-…` ids whole.
fn cited(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !starts_word || !b[i].is_ascii_uppercase() {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_uppercase() {
            j += 1;
        }
        let family = &text[i..j];
        if j < b.len() && b[j] == b'-' && family == "EX" {
            let mut k = j + 1;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'-') {
                k += 1;
            }
            let id = text[i..k].trim_end_matches('-');
            if id.len() > 3 {
                out.push(id.to_string());
            }
            i = k;
            continue;
        }
        if j < b.len() && b[j] == b'-' && FAMILIES.contains(&family) {
            let digits = |from: usize| {
                let mut k = from;
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                k
            };
            let k = digits(j + 1);
            if k > j + 1 && (k == b.len() || !b[k].is_ascii_alphanumeric()) {
                let first: u32 = text[j + 1..k].parse().expect("digits");
                let width = k - j - 1;
                out.push(text[i..k].to_string());
                // A range `..06` or a list `/08` after the id.
                let sep = if text[k..].starts_with("..") {
                    2
                } else if text[k..].starts_with('/') {
                    1
                } else {
                    0
                };
                let m = digits(k + sep);
                if sep > 0 && m > k + sep && (m == b.len() || !b[m].is_ascii_alphanumeric()) {
                    let last: u32 = text[k + sep..m].parse().expect("digits");
                    let ids: Vec<u32> = if sep == 2 { (first + 1..=last).collect() } else { vec![last] };
                    out.extend(ids.into_iter().map(|n| format!("{family}-{n:0width$}")));
                }
            }
            i = k;
            continue;
        }
        i = j;
    }
    out
}

/// Ids `docs/rules.md` defines: a bold `**ID` opening a rule or an example, or a table row `| ID |`.
fn defined(rules: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in rules.lines() {
        let t = line.trim_start();
        let opening = t.trim_start_matches("- ").trim_start_matches("**").trim_start_matches("| ");
        if (t.starts_with("- **") || t.starts_with("**") || t.starts_with("| "))
            && let Some(first) = cited(opening).into_iter().next()
            && opening.starts_with(&first)
        {
            out.insert(first);
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                files(&p, out);
            }
        } else if ["rs", "json", "toml", "md", "py", "js", "html", "txt"]
            .iter()
            .any(|x| name.ends_with(&format!(".{x}")))
        {
            out.push(p);
        }
    }
}

#[test]
fn every_cited_rule_id_is_in_docs_rules_md() {
    let root = repo();
    let rules = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md exists");
    let known = defined(&rules);
    assert!(known.len() > 150, "docs/rules.md defines only {} ids: is the parser reading it?", known.len());
    for id in ["BASE-01", "VAR-04", "AMB-28", "EX-BASE-1", "HALF-20", "TURN-08"] {
        assert!(known.contains(id), "{id} is not read as defined");
    }
    let mut paths = Vec::new();
    for dir in ["crates", "docs", ".ci"] {
        files(&root.join(dir), &mut paths);
    }
    paths.push(root.join("README.md"));
    let mut missing = Vec::new();
    let mut seen = 0;
    for p in &paths {
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        for id in cited(&text) {
            seen += 1;
            if !known.contains(&id) {
                missing.push(format!("{} cites {id}", p.strip_prefix(&root).unwrap_or(p).display()));
            }
        }
    }
    assert!(seen > 500, "only {seen} citations found: is the scan reading the repository?");
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "ids cited but not in docs/rules.md:\n{}", missing.join("\n"));
}

#[test]
fn citations_are_read_with_their_ranges() {
    assert_eq!(cited("see BASE-04..06 and DRAGON-07/08."), ["BASE-04", "BASE-05", "BASE-06", "DRAGON-07", "DRAGON-08"]);
    assert_eq!(cited("EX-HALF-3, (VAR-12)"), ["EX-HALF-3", "VAR-12"]);
    assert_eq!(cited("NOTBASE-01 base-01 BASE-1x D-27 BASE-"), Vec::<String>::new());
}
