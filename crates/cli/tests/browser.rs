//! The browser table in headless Chromium against the real `carc serve`: the script
//! `crates/server/tests/browser/table.mjs` (playwright-core) plays a whole game against a bot from the new-game form
//! to the final screen, games with every module until each kind of decision has been answered through the table, and
//! two seats in two browser contexts that must never show each other's triangles; any console error fails it.
//! Screenshots are kept in `target/tmp/browser`.
//!
//! It needs Node.js, Chromium (`CHROMIUM`, default `/usr/bin/chromium`) and `npm ci` in
//! `crates/server/tests/browser`. Without them it says so and passes, unless `CARC_REQUIRE_BROWSER` is set (as
//! `.ci/run` does), when their absence fails it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn the_table_plays_whole_games_in_a_real_browser() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/tests/browser");
    let chromium = PathBuf::from(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()));
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let ready = node && chromium.exists() && dir.join("node_modules/playwright-core").exists();
    if !ready {
        let what = format!(
            "node: {node}, {}: {}, playwright-core installed: {}",
            chromium.display(),
            chromium.exists(),
            dir.join("node_modules/playwright-core").exists()
        );
        assert!(
            std::env::var("CARC_REQUIRE_BROWSER").is_err(),
            "CARC_REQUIRE_BROWSER is set but the browser test cannot run ({what})"
        );
        eprintln!("the browser test is skipped ({what}); run `npm ci` in {} to enable it", dir.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite");
    // A game at the princess's decision, brought in with `carc import`.
    let import = Command::new(env!("CARGO_BIN_EXE_carc"))
        .arg("import")
        .arg(dir.join("princess.json"))
        .arg("--db")
        .arg(&db)
        .args(["--bot", "P2=greedy", "--name", "P1=Ana"])
        .output()
        .expect("carc import runs");
    let printed = String::from_utf8_lossy(&import.stdout).into_owned();
    assert!(import.status.success(), "carc import: {}", String::from_utf8_lossy(&import.stderr));
    let invite = printed.lines().find_map(|l| l.strip_prefix("P1: ")).expect("an invite for P1").trim().to_string();
    let server = common::start(&db);
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let out = Command::new("node")
        .arg(dir.join("table.mjs"))
        .arg(&server.base)
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .env("PRINCESS_INVITE", &invite)
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser test failed (screenshots in {}):\n{report}", shots.display());
}
