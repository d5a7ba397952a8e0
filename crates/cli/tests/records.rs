//! A seed gives the same game as before, and a record replays to the same scores and events (issue 23, "Not to
//! lose"): seeded `carc selfplay` games are played again and compared byte for byte with the records kept in
//! `tests/fixtures/seeded`, and every kept record and every record of docs/examples is replayed and its whole
//! outcome (scores, every event, the figures, the supplies) compared with the one kept beside it.
//!
//! The kept files are what the engine played when they were written (`fixtures/seeded/regenerate.sh`); the build
//! issue 23 was filed on (545a52f) plays and replays every one of them exactly so, file for file and event for
//! event. A change of the engine that is meant to change games regenerates them and says so.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The seeded runs kept: name, players, sets, first seed, games (as in `regenerate.sh`).
const RUNS: &[(&str, u32, &str, u64, u64)] = &[
    ("base", 2, "base", 11, 3),
    ("four", 4, "base", 40, 1),
    ("am", 2, "base,am", 50, 1),
    ("pd", 2, "base,pd", 60, 1),
    ("cc", 2, "base,cc", 70, 1),
    ("half", 2, "base,half", 80, 1),
    ("every", 2, "base,am,pd,cc,half", 90, 2),
    ("every3", 3, "base,am,pd,cc,half", 95, 1),
    ("every4", 4, "base,am,pd,cc,half", 99, 1),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seeded")
}

fn carc(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_carc")).args(args).output().expect("carc runs");
    assert!(out.status.success(), "carc {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn seeded_selfplay_plays_the_games_it_played_before() {
    let mut compared = 0;
    for &(name, players, sets, seed, games) in RUNS {
        let dir = tempfile::tempdir().unwrap();
        let (p, s, g) = (players.to_string(), seed.to_string(), games.to_string());
        let records = dir.path().to_str().unwrap();
        carc(&["selfplay", "--players", &p, "--sets", sets, "--seed", &s, "--games", &g, "--records", records]);
        for i in 0..games {
            let file = format!("game-{}.json", seed + i);
            let now = read(&dir.path().join(&file));
            let kept = read(&fixtures().join(format!("{name}-{file}")));
            assert!(now == kept, "{name}: {file} is not the game kept in tests/fixtures/seeded");
            compared += 1;
        }
    }
    assert_eq!(compared, RUNS.iter().map(|r| r.4).sum::<u64>());
}

/// Replays `record` and compares the outcome with the one kept in `kept`, as JSON values (layout aside), naming the
/// first event that differs.
fn replays_as_kept(record: &Path, kept: &Path) {
    let now: serde_json::Value =
        serde_json::from_slice(&carc(&["replay", "--json", record.to_str().unwrap()])).expect("replay JSON");
    let kept: serde_json::Value = serde_json::from_slice(&read(kept)).expect("kept JSON");
    let (a, b) = (now["events"].as_array().unwrap(), kept["events"].as_array().unwrap());
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        panic!("{}: event {i} is {} but was {}", record.display(), a[i], b[i]);
    }
    assert_eq!(a.len(), b.len(), "{}: number of events", record.display());
    assert_eq!(now["scores"], kept["scores"], "{}: scores", record.display());
    assert_eq!(now, kept, "{}: the replayed state", record.display());
}

#[test]
fn kept_records_replay_to_the_same_scores_and_events() {
    let mut n = 0;
    for &(name, _, _, seed, games) in RUNS {
        for i in 0..games {
            let stem = format!("{name}-game-{}", seed + i);
            replays_as_kept(&fixtures().join(format!("{stem}.json")), &fixtures().join(format!("{stem}.replay")));
            n += 1;
        }
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 7, "docs/examples holds its records");
    for record in names {
        let stem = record.file_stem().unwrap().to_str().unwrap().to_owned();
        let kept = fixtures().join(format!("example-{stem}.replay"));
        assert!(kept.exists(), "docs/examples/{stem}.json has no kept outcome: run fixtures/seeded/regenerate.sh");
        replays_as_kept(&record, &kept);
        n += 1;
    }
    assert!(n >= 19);
}

/// A `carc datagen` file as its header and rows (docs/datagen-format.md): the magic, the format, a JSON header whose
/// columns match the rows, whole rows.
fn datagen_rows(args: &[&str]) -> (serde_json::Value, Vec<String>, Vec<Vec<f32>>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.carcdata");
    let mut all = vec!["datagen", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    carc(&all);
    let raw = read(&out);
    assert_eq!(&raw[..8], b"CARCDATA");
    assert_eq!(u32::from_le_bytes(raw[8..12].try_into().unwrap()), 2);
    let len = u32::from_le_bytes(raw[12..16].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&raw[16..16 + len]).unwrap();
    let columns: Vec<String> =
        header["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().into()).collect();
    let body = &raw[16 + len..];
    assert_eq!(body.len() % (4 * columns.len()), 0, "whole rows");
    let values: Vec<f32> = body.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    let rows = values.chunks(columns.len()).map(<[f32]>::to_vec).collect();
    (header, columns, rows)
}

/// `carc datagen`'s rows have outcomes that agree with each other: `rest` is never negative, each kept position's wins
/// sum to one, and a seat's margin is the same at every position of its game. Bots without a search give no
/// candidate rows.
#[test]
fn datagen_writes_whole_rows_with_consistent_outcomes() {
    let (header, columns, rows) = datagen_rows(&["--games", "3", "--bots", "greedy,random", "--sample", "0.5"]);
    assert!(rows.len() > 20, "{} rows from 3 games", rows.len());
    let col = |name: &str| columns.iter().position(|c| c == name).unwrap();
    assert!(rows.iter().all(|r| r[col("candidate")] == -1.0), "no search, no candidates");
    let mut margins = std::collections::HashMap::new();
    for pair in rows.chunks(2) {
        assert!(pair.iter().all(|r| r[col("rest")] >= 0.0));
        assert_eq!(pair[0][col("win")] + pair[1][col("win")], 1.0);
        assert_eq!(pair[0][col("game")], pair[1][col("game")]);
        for r in pair {
            let key = (r[col("game")] as u32, r[col("seat")] as u32);
            let m = *margins.entry(key).or_insert(r[col("margin")]);
            assert_eq!(m, r[col("margin")], "one margin per seat and game");
        }
    }
    assert_eq!(header["games"], 3);
}

/// A search's positions are followed by its most visited actions' positions: at most `--candidates` of them, most
/// visited first, each a row per player with the search's visits and (for the acting seat) its value in 0..=1, and
/// no outcome (that position was not necessarily played).
#[test]
fn datagen_writes_the_searchs_candidates_after_each_position() {
    let (header, columns, rows) =
        datagen_rows(&["--games", "2", "--bots", "mcts:iterations=60,greedy", "--sample", "0.3", "--candidates", "3"]);
    assert_eq!(header["candidates"], 3);
    let col = |name: &str| columns.iter().position(|c| c == name).unwrap();
    let (mut groups, mut last_visits) = (0, f32::INFINITY);
    let mut current: Option<(f32, f32)> = None; // (game, position) of the rows being read
    for pair in rows.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(
            (a[col("game")], a[col("position")], a[col("candidate")]),
            (b[col("game")], b[col("position")], b[col("candidate")])
        );
        let k = a[col("candidate")];
        if k < 0.0 {
            current = Some((a[col("game")], a[col("position")]));
            last_visits = f32::INFINITY;
            continue;
        }
        assert_eq!(current, Some((a[col("game")], a[col("position")])), "candidates follow their position");
        assert!(k < 3.0);
        assert!(a[col("rest")].is_nan() && a[col("margin")].is_nan() && a[col("win")].is_nan());
        let visits = a[col("visits")];
        assert_eq!(visits, b[col("visits")]);
        assert!(visits <= last_visits && visits <= 60.0, "most visited first");
        last_visits = visits;
        let values: Vec<f32> = pair.iter().map(|r| r[col("value")]).filter(|v| !v.is_nan()).collect();
        assert_eq!(values.len(), 1, "the acting seat's value only");
        assert!((0.0..=1.0).contains(&values[0]));
        if k == 0.0 {
            groups += 1;
        }
    }
    assert!(groups > 5, "{groups} positions with candidates from two games");
}
