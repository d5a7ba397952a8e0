//! The defects found by trying the server as an attacker would (issue 21), each with the test that failed before
//! its fix: racing instances on one PostgreSQL database, bot specs that broke the bot threads or did not read back,
//! take-backs under load, failed stores, a Halflings triangle taken back, and a hint whose client went away.

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use carcassonne_server::Server;
use serde_json::{Value, json};

mod common;
use common::*;

/// The actions stored for a game, by number.
async fn stored_numbers(url: &str, id: &str) -> Vec<i64> {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let rows: Vec<(i64,)> =
        sqlx::query_as("SELECT n FROM actions WHERE game_id = $1 ORDER BY n").bind(id).fetch_all(&pool).await.unwrap();
    pool.close().await;
    rows.into_iter().map(|r| r.0).collect()
}

/// Wait until both instances show the same version of a game and return it.
async fn agree(a: &Router, b: &Router, url: &str) -> u64 {
    let t = std::time::Instant::now();
    loop {
        let (_, va) = get(a, url, None).await;
        let (_, vb) = get(b, url, None).await;
        if va["version"] == vb["version"] && va["game"] == vb["game"] {
            return va["version"].as_u64().unwrap();
        }
        assert!(t.elapsed() < Duration::from_secs(10), "the instances never agreed:\n{va}\n{vb}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn racing_a_take_back_and_an_action_on_two_instances_leaves_one_history() {
    let _pg = PG_LOCK.lock().await;
    let Some(db) = postgres().await else { return };
    let a = Server::open(&db.url, 1).await.unwrap().router();
    let b = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&a, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let ana = tokens[0].as_deref();
    let url = format!("/api/games/{id}");
    let mut outcomes = [0usize; 2];
    for round in 0..40 {
        // Ana places her tile through one instance; both see it.
        let v0 = agree(&a, &b, &url).await;
        let (_, v) = get(&a, &url, ana).await;
        let place = v["game"]["legal"][0].as_str().unwrap().to_string();
        let (st, e) = post(&a, &format!("{url}/actions"), ana, json!({ "action": place, "version": v0 })).await;
        assert_eq!(st, StatusCode::OK, "round {round}: {e}");
        let v1 = agree(&a, &b, &url).await;
        assert_eq!(v1, v0 + 1);
        // Then, at the same moment, a take-back to one instance and her next action to the other.
        let (tb, ac) = if round % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let (take_back, act) = (format!("{url}/take-back"), format!("{url}/actions"));
        let (r1, r2) = tokio::join!(
            post(tb, &take_back, ana, json!({ "version": v1 })),
            post(ac, &act, ana, json!({ "action": "pass", "version": v1 })),
        );
        let ok = [r1.0, r2.0].iter().filter(|s| **s == StatusCode::OK).count();
        assert_eq!(ok, 1, "round {round}: exactly one of the two is stored: {r1:?} {r2:?}");
        outcomes[usize::from(r2.0 == StatusCode::OK)] += 1;
        // One history, without a gap, that both instances show.
        let version = agree(&a, &b, &url).await;
        let stored = stored_numbers(&db.url, &id).await;
        assert_eq!(stored, (1..=version as i64).collect::<Vec<_>>(), "round {round}: the log has a gap");
        // Back to the start of Ana's turn.
        let mut version = version;
        while version > v0 {
            let (st, e) = post(&a, &format!("{url}/take-back"), ana, json!({ "version": version })).await;
            assert_eq!(st, StatusCode::OK, "round {round}: {e}");
            version = agree(&a, &b, &url).await;
        }
    }
    eprintln!("take-back first: {}, action first: {}", outcomes[0], outcomes[1]);
    // A third instance, started afresh, replays the game.
    let c = Server::open(&db.url, 1).await.unwrap().router();
    let (st, v) = get(&c, &url, ana).await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn specs_that_would_overflow_a_bot_are_refused_and_the_bots_keep_playing() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "bot": "random" }] })).await;
    let ana = tokens[0].as_deref();
    for spec in ["mcts:time=1e19s", "mcts:time=1e20s", "hard:time=1e19s", "mcts:time=20s,threads=16", "mcts"] {
        let (st, e) = get(&app, &format!("/api/games/{id}/hint?bot={spec}"), ana).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{spec}: {e}");
    }
    // The one bot thread is still there: a game of bots plays to its end.
    let (bots, _) = create(&app, json!({ "seats": [{ "bot": "greedy" }, { "bot": "random" }] })).await;
    finished(&app, &bots, 60).await;
    let (st, e) = get(&app, &format!("/api/games/{id}/hint?bot=greedy"), ana).await;
    assert_eq!(st, StatusCode::OK, "{e}");
}

#[tokio::test]
async fn every_game_accepted_reads_back_after_a_restart() {
    let db = sqlite();
    let server = Server::open(&db.url, 1).await.unwrap();
    let app = server.router();
    let bots = [
        "mcts:time=1e17s,iterations=5",
        "mcts:time=0.0004s,iterations=5",
        "mcts:time=0.0015s,iterations=5",
        "mcts:iterations=5,c=1e-40",
        "mcts:iterations=5,scale=0.001",
        "greedy:city_close=3.4e38",
        "greedy:city_close=0.1",
        "easy:iterations=7",
        "mcts:time=3600s,iterations=5",
    ];
    let names = ["Ana", "Ștefan 🐑", "\"quoted\" & <b>", "نور", "  spaced  ", "x".repeat(40).leak()];
    let mut accepted = Vec::new();
    for (i, bot) in bots.iter().enumerate() {
        let body = json!({
            "seats": [{ "name": names[i % names.len()] }, { "bot": bot }],
            "sets": ["base", "am"],
            "rules": { "wagon.movement": "c1" },
        });
        let (st, v) = post(&app, "/api/games", None, body).await;
        match st {
            StatusCode::CREATED => accepted.push((v["id"].as_str().unwrap().to_string(), get_view(&app, &v).await)),
            StatusCode::BAD_REQUEST => {}
            _ => panic!("{bot}: {st} {v}"),
        }
    }
    assert!(accepted.len() >= 3, "the sound specs are accepted: {}", accepted.len());
    drop(app);
    drop(server);
    let app = Server::open(&db.url, 1).await.unwrap().router();
    for (id, before) in accepted {
        let (st, after) = get(&app, &format!("/api/games/{id}"), None).await;
        assert_eq!(st, StatusCode::OK, "{id}: {after}");
        assert_eq!(after["seats"], before["seats"], "{id}");
        assert_eq!(after["setup"], before["setup"], "{id}");
    }
}

async fn get_view(app: &Router, created: &Value) -> Value {
    get(app, &format!("/api/games/{}", created["id"].as_str().unwrap()), None).await.1
}

/// A person's game: place, then take back, `rounds` times; returns the statuses of the take-backs.
async fn place_and_take_back(app: &Router, id: &str, token: &str, rounds: usize) -> Vec<StatusCode> {
    let url = format!("/api/games/{id}");
    let mut out = Vec::new();
    for _ in 0..rounds {
        let (_, v) = get(app, &url, Some(token)).await;
        let version = v["version"].as_u64().unwrap();
        let place = v["game"]["legal"][0].as_str().unwrap().to_string();
        let (st, e) =
            post(app, &format!("{url}/actions"), Some(token), json!({ "action": place, "version": version })).await;
        assert_eq!(st, StatusCode::OK, "{e}");
        let (st, _) = post(app, &format!("{url}/take-back"), Some(token), json!({ "version": version + 1 })).await;
        out.push(st);
        if st != StatusCode::OK {
            // The room is as the database has it: the placement is still there.
            let (_, v) = get(app, &url, Some(token)).await;
            assert_eq!(v["version"].as_u64(), Some(version + 1), "memory and database came apart");
            let (st, e) = post(app, &format!("{url}/take-back"), Some(token), json!({ "version": version + 1 })).await;
            assert_eq!(st, StatusCode::OK, "{e}");
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_backs_succeed_while_bot_games_are_being_created() {
    let db = sqlite();
    let app = Server::open(&db.url, 2).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Bot games created as fast as the server takes them, and playing (each move a write).
    let creator = {
        let (app, stop) = (app.clone(), stop.clone());
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let body = json!({ "seats": [{ "bot": "random" }, { "bot": "random" }] });
                let (st, v) = post(&app, "/api/games", None, body).await;
                assert_eq!(st, StatusCode::CREATED, "{v}");
                n += 1;
            }
            n
        })
    };
    let statuses = place_and_take_back(&app, &id, tokens[0].as_deref().unwrap(), 150).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let created = creator.await.unwrap();
    let failed = statuses.iter().filter(|s| **s != StatusCode::OK).count();
    eprintln!("{created} bot games created during {} take-backs", statuses.len());
    assert!(created > 10, "the load was light: {created} games");
    assert_eq!(failed, 0, "take-backs refused under load: {statuses:?}");
}

#[tokio::test]
async fn a_change_the_database_refuses_leaves_the_game_as_it_was() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let ana = tokens[0].as_deref();
    let url = format!("/api/games/{id}");
    let (_, v) = get(&app, &url, ana).await;
    let version = v["version"].as_u64().unwrap();
    let place = v["game"]["legal"][0].as_str().unwrap().to_string();
    let (st, _) = post(&app, &format!("{url}/actions"), ana, json!({ "action": place, "version": version })).await;
    assert_eq!(st, StatusCode::OK);
    let (_, before) = get(&app, &url, ana).await;
    // The database refuses every change to the log from now on (a trigger, in the real file).
    let side = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.url)).await.unwrap();
    for t in ["DELETE", "INSERT"] {
        sqlx::query(&format!(
            "CREATE TRIGGER refuse_{t} BEFORE {t} ON actions BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        ))
        .execute(&side)
        .await
        .unwrap();
    }
    let (st, e) = post(&app, &format!("{url}/take-back"), ana, json!({ "version": version + 1 })).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{e}");
    let message = e["error"].as_str().unwrap();
    assert!(!message.contains("refused by the test") && !message.contains("database:"), "internals leak: {message}");
    let (_, after) = get(&app, &url, ana).await;
    assert_eq!(after, before, "a failed take-back changed the game");
    let (st, _) = post(&app, &format!("{url}/actions"), ana, json!({ "action": "pass", "version": version + 1 })).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(get(&app, &url, ana).await.1, before, "a failed action changed the game");
    // The database takes changes again: the game goes on from where it was.
    for t in ["DELETE", "INSERT"] {
        sqlx::query(&format!("DROP TRIGGER refuse_{t}")).execute(&side).await.unwrap();
    }
    let (st, e) = post(&app, &format!("{url}/actions"), ana, json!({ "action": "pass", "version": version + 1 })).await;
    assert_eq!(st, StatusCode::OK, "{e}");
    let (st, e) = post(&app, &format!("{url}/take-back"), ana, json!({ "version": version + 2 })).await;
    assert_eq!(st, StatusCode::OK, "{e}");
}

/// A triangle in record notation: `place half/… x,y CORNER`.
fn is_triangle(action: &str) -> bool {
    action.starts_with("place ") && ["NE", "NW", "SE", "SW"].iter().any(|c| action.ends_with(c))
}

#[tokio::test]
async fn a_triangle_played_from_the_hand_cannot_be_taken_back() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) =
        create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }], "sets": ["base", "half"] })).await;
    let url = format!("/api/games/{id}");
    // Play on (every seat confirming its turns) until a seat may place a triangle from its hand.
    for step in 0..400 {
        for t in tokens.iter().flatten() {
            let (_, v) = get(&app, &url, Some(t)).await;
            let legal: Vec<&str> = v["game"]["legal"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
            if v["can_confirm"] == true {
                let (st, e) = post(&app, &format!("{url}/confirm"), Some(t), json!({ "version": v["version"] })).await;
                assert_eq!(st, StatusCode::OK, "{e}");
                continue;
            }
            if legal.is_empty() {
                continue;
            }
            let version = v["version"].as_u64().unwrap();
            if let Some(tri) = legal.iter().find(|a| is_triangle(a)) {
                let (st, e) =
                    post(&app, &format!("{url}/actions"), Some(t), json!({ "action": tri, "version": version })).await;
                assert_eq!(st, StatusCode::OK, "{e}");
                let (_, v) = get(&app, &url, Some(t)).await;
                assert_eq!(v["can_take_back"], false, "{tri}: the view offers a take-back");
                let (st, e) = post(&app, &format!("{url}/take-back"), Some(t), json!({ "version": version + 1 })).await;
                assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{tri} was taken back: {e}");
                assert_eq!(get(&app, &url, Some(t)).await.1["version"].as_u64(), Some(version + 1));
                return;
            }
            let a = legal[step % legal.len()];
            let (st, e) =
                post(&app, &format!("{url}/actions"), Some(t), json!({ "action": a, "version": version })).await;
            assert_eq!(st, StatusCode::OK, "{a}: {e}");
        }
    }
    panic!("no seat ever could place a triangle");
}

#[tokio::test]
async fn a_hint_whose_client_went_away_does_not_switch_hints_off() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "bot": "random" }] })).await;
    let ana = tokens[0].as_deref();
    let url = format!("/api/games/{id}/hint");
    // The client gives up on a long hint long before it is ready.
    let gave_up = tokio::time::timeout(Duration::from_millis(50), get(&app, &format!("{url}?bot=hard"), ana)).await;
    assert!(gave_up.is_err(), "the hard hint came back within 50 ms");
    let (st, e) = get(&app, &format!("{url}?bot=greedy"), ana).await;
    assert_eq!(st, StatusCode::OK, "{e}");
}

// Issue 37: what a hostile visitor tried next.

#[tokio::test]
async fn r37_names_and_chat_refuse_line_breaking_and_invisible_characters() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    for name in ["a\u{2028}b", "a\u{2029}b", "a\u{034F}b", "ab\u{E0041}\u{E007F}", "\u{3164}", "a\u{115F}", "\u{FFA0}x"]
    {
        let (st, e) = post(&app, "/api/games", None, json!({ "seats": [{ "name": name }, { "name": "Bo" }] })).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{name:?}: {e}");
    }
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let url = format!("/api/games/{id}/chat");
    for text in ["a\u{2028}b", "a\u{200B}b", "a\u{2060}b", "\u{FEFF}hi", "a\u{034F}b", "\u{3164}", "x\u{E0020}"] {
        let (st, e) = post(&app, &url, tokens[0].as_deref(), json!({ "text": text })).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{text:?}: {e}");
    }
    // Emoji keep their joiners and presentation selectors, and scripts their joiners.
    for text in ["👩\u{200D}👩\u{200D}👧", "❤\u{FE0F}", "می\u{200C}خواهم"] {
        let (st, e) = post(&app, &url, tokens[0].as_deref(), json!({ "text": text })).await;
        assert_eq!(st, StatusCode::CREATED, "{text:?}: {e}");
    }
}

#[tokio::test]
async fn r37_a_refused_bot_spec_is_not_echoed_whole() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let spec = format!("\u{202E}{}", "x".repeat(20_000));
    let (st, e) = post(&app, "/api/games", None, json!({ "seats": [{ "bot": spec }, { "name": "Bo" }] })).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let message = e["error"].as_str().unwrap();
    assert!(message.len() < 1_000, "{} bytes of error", message.len());
    assert!(!message.contains('\u{202E}'), "a direction override reflected: {message:?}");
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (st, e) = get(&app, &format!("/api/games/{id}/hint?bot={}", "y".repeat(5_000)), tokens[0].as_deref()).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().len() < 1_000, "{e}");
}

#[tokio::test]
async fn r37_chat_keeps_a_game_from_being_abandoned() {
    let db = sqlite();
    let server = Server::open_with(
        &db.url,
        carcassonne_server::Limits { abandon_after: Some(Duration::from_secs(3600)), ..Default::default() },
    )
    .await
    .unwrap();
    let app = server.router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let side = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.url)).await.unwrap();
    sqlx::query("UPDATE games SET updated_at = updated_at - 7200 WHERE id = $1")
        .bind(&id)
        .execute(&side)
        .await
        .unwrap();
    // The players are talking it over.
    let (st, _) =
        post(&app, &format!("/api/games/{id}/chat"), tokens[1].as_deref(), json!({ "text": "your move" })).await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(server.sweep().await, 0);
    assert_eq!(get(&app, &format!("/api/games/{id}"), None).await.1["status"], "running");
}

#[tokio::test]
async fn r37_another_seat_taking_back_is_forbidden() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (ana, bo) = (tokens[0].as_deref(), tokens[1].as_deref());
    let url = format!("/api/games/{id}");
    let (_, v) = get(&app, &url, ana).await;
    let mut version = v["version"].as_u64().unwrap();
    // Ana places her tile, then her follower (or none): her turn waits for her to confirm it.
    for _ in 0..2 {
        let (_, v) = get(&app, &url, ana).await;
        let Some(a) = v["game"]["legal"][0].as_str() else { break };
        let (st, e) = post(&app, &format!("{url}/actions"), ana, json!({ "action": a, "version": version })).await;
        assert_eq!(st, StatusCode::OK, "{e}");
        version += 1;
        let (st, e) = post(&app, &format!("{url}/take-back"), bo, json!({ "version": version })).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "Bo taking back Ana's action: {e}");
    }
    // Once she has confirmed it and Bo's tile is drawn, her turn is past the draw: Bo may still not take it back
    // (it is not his), and for Ana there is nothing left to take back.
    let (st, e) = post(&app, &format!("{url}/confirm"), ana, json!({ "version": version })).await;
    assert_eq!(st, StatusCode::OK, "{e}");
    let version = e["version"].as_u64().unwrap();
    let (st, e) = post(&app, &format!("{url}/take-back"), bo, json!({ "version": version })).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "Bo taking back Ana's confirmed turn: {e}");
    let (st, e) = post(&app, &format!("{url}/take-back"), ana, json!({ "version": version })).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "Ana past the draw: {e}");
}

#[tokio::test]
async fn r37_a_socket_offering_two_tokens_is_refused() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let db = sqlite();
    let server = Server::open(&db.url, 1).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(carcassonne_server::serve_until(listener, server.clone(), std::future::pending()));
    let (id, tokens) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (t1, t2) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    let url = format!("ws://{addr}/api/games/{id}/ws");
    for protocols in [format!("carc.v1, token.{t1}, token.{t2}"), format!("carc.v1, token.{t1}, token.nope")] {
        let mut req = url.as_str().into_client_request().unwrap();
        req.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
        assert!(tokio_tungstenite::connect_async(req).await.is_err(), "{protocols}");
    }
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("sec-websocket-protocol", format!("carc.v1, token.{t1}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
}
