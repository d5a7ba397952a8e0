//! `carc serve` as a user runs it: the real binary, a real SQLite file, HTTP over loopback. The server is killed
//! with SIGKILL in the middle of several games and started again: every acknowledged action is still there, and the
//! games go on, bots included, to records that `carc replay` replays to the same scores.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;

use common::start;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

fn call(r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut r = r.expect("the server answers");
    let st = r.status().as_u16();
    (st, r.body_mut().read_json().expect("a JSON answer"))
}

fn get(a: &ureq::Agent, url: &str, token: Option<&str>) -> Value {
    let mut req = a.get(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    let (st, v) = call(req.call());
    assert_eq!(st, 200, "GET {url}: {v}");
    v
}

fn post(a: &ureq::Agent, url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = a.post(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    call(req.send_json(&body))
}

fn actions(v: &Value) -> Vec<String> {
    v["actions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect()
}

/// Act `n` times for a person (auto-confirming) as soon as it is their decision; returns the log they were
/// acknowledged with.
fn play(a: &ureq::Agent, base: &str, id: &str, token: &str, n: usize) -> Vec<String> {
    let url = format!("{base}/api/games/{id}");
    for _ in 0..n {
        let t = Instant::now();
        let v = loop {
            let v = get(a, &url, Some(token));
            if !v["game"]["legal"].as_array().unwrap().is_empty() || v["status"] == "finished" {
                break v;
            }
            assert!(t.elapsed() < Duration::from_secs(60), "the bot never answered");
            std::thread::sleep(Duration::from_millis(20));
        };
        if v["status"] == "finished" {
            break;
        }
        let action = v["game"]["legal"].as_array().unwrap().last().unwrap().clone();
        let (st, e) =
            post(a, &format!("{url}/actions"), Some(token), json!({ "action": action, "version": v["version"] }));
        assert_eq!(st, 200, "{e}");
    }
    actions(&get(a, &format!("{url}/record"), None))
}

#[test]
fn a_killed_server_loses_no_acknowledged_action_and_its_games_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let a = agent();
    let server = start(&db);
    let base = server.base.clone();
    // Bot games slow enough to be in the middle when the server dies, and two people against bots.
    let slow = "mcts:iterations=10000,threads=1";
    let mut bot_games = Vec::new();
    for _ in 0..3 {
        let (st, v) =
            post(&a, &format!("{base}/api/games"), None, json!({ "seats": [{ "bot": slow }, { "bot": "greedy" }] }));
        assert_eq!(st, 201, "{v}");
        bot_games.push(v["id"].as_str().unwrap().to_string());
    }
    let mut people = Vec::new();
    for sets in [json!(["base"]), json!(["base", "am", "pd", "cc", "half"])] {
        let body = json!({ "seats": [{ "name": "Ana", "auto_confirm": true }, { "bot": "greedy" }], "sets": sets });
        let (st, v) = post(&a, &format!("{base}/api/games"), None, body);
        assert_eq!(st, 201, "{v}");
        people.push((v["id"].as_str().unwrap().to_string(), v["seats"][0]["token"].as_str().unwrap().to_string()));
    }
    let acknowledged: Vec<Vec<String>> = people.iter().map(|(id, t)| play(&a, &base, id, t, 8)).collect();
    std::thread::sleep(Duration::from_millis(1500));
    let seen: Vec<Vec<String>> =
        bot_games.iter().map(|id| actions(&get(&a, &format!("{base}/api/games/{id}/record"), None))).collect();
    let unfinished =
        bot_games.iter().filter(|id| get(&a, &format!("{base}/api/games/{id}"), None)["status"] == "running").count();
    assert!(unfinished > 0, "every bot game was over before the kill: make them slower");

    // SIGKILL: no chance to flush or say goodbye.
    drop(server);
    let server = start(&db);
    let base = server.base.clone();
    for ((id, token), before) in people.iter().zip(&acknowledged) {
        let now = actions(&get(&a, &format!("{base}/api/games/{id}/record"), None));
        assert!(now.len() >= before.len() && now[..before.len()] == before[..], "game {id} lost acknowledged actions");
        // The person plays on.
        play(&a, &base, id, token, 3);
    }
    for (id, before) in bot_games.iter().zip(&seen) {
        let now = actions(&get(&a, &format!("{base}/api/games/{id}/record"), None));
        assert!(now.len() >= before.len() && now[..before.len()] == before[..], "game {id} lost actions");
    }
    // The bots finish their games; each record replays with `carc replay` to the scores the server shows.
    let t = Instant::now();
    for id in &bot_games {
        let view = loop {
            let v = get(&a, &format!("{base}/api/games/{id}"), None);
            if v["status"] == "finished" {
                break v;
            }
            assert!(t.elapsed() < Duration::from_secs(300), "the bots did not finish after the restart");
            std::thread::sleep(Duration::from_millis(200));
        };
        let record = get(&a, &format!("{base}/api/games/{id}/record"), None);
        let file = dir.path().join(format!("{id}.json"));
        std::fs::write(&file, record.to_string()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_carc")).args(["replay", "--json"]).arg(&file).output().unwrap();
        assert!(out.status.success(), "carc replay: {}", String::from_utf8_lossy(&out.stderr));
        let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
        let shown: Vec<Value> =
            view["game"]["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
        assert_eq!(replayed["scores"], Value::Array(shown), "game {id}");
    }
}
