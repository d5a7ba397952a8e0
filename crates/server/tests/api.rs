//! The API end to end, in process (the router called without a socket), on a real SQLite file and, when
//! `CARC_TEST_POSTGRES` names a database, on a real PostgreSQL server too (`.ci/run` starts one).

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use carcassonne::Record;
use carcassonne_server::Server;
use http_body_util::BodyExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tower::ServiceExt;

mod common;
use common::*;

/// Play a game of people to its end with random legal actions, confirmations and take-backs, checking every view on
/// the way. Returns the final scores the views show.
async fn play_people(app: &Router, id: &str, tokens: &[Option<String>], seed: u64) -> Vec<i64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let url = format!("/api/games/{id}");
    for step in 0..5000 {
        let (st, spectator) = get(app, &url, None).await;
        assert_eq!(st, StatusCode::OK);
        assert!(spectator["game"]["legal"].as_array().unwrap().is_empty(), "a spectator has no legal actions");
        if spectator["status"] == "finished" {
            return spectator["game"]["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["score"].as_i64().unwrap())
                .collect();
        }
        let mut acted = false;
        for (i, t) in tokens.iter().enumerate() {
            let t = t.as_deref().unwrap();
            let (st, v) = get(app, &url, Some(t)).await;
            assert_eq!(st, StatusCode::OK);
            assert_eq!(v["seat"], format!("P{}", i + 1));
            // Only this seat's triangles are named.
            for (j, p) in v["game"]["players"].as_array().unwrap().iter().enumerate() {
                assert_eq!(p.get("hand").is_some(), i == j, "step {step}: seat {i} sees seat {j}'s hand?");
            }
            // Each feature's holders have a figure on one of its segments.
            for f in v["game"]["features"].as_array().unwrap() {
                let on = |m: &Value| {
                    f["segments"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|s| s["space"] == m["space"] && s["segment"] == m["segment"])
                };
                let present: Vec<&Value> =
                    v["game"]["meeples"].as_array().unwrap().iter().filter(|m| on(m)).map(|m| &m["player"]).collect();
                assert!(!present.is_empty(), "a feature listed without figures: {f}");
                for h in f["holders"].as_array().unwrap() {
                    assert!(present.contains(&h), "holder {h} has no figure in {f}");
                }
            }
            let version = v["version"].as_u64().unwrap();
            if v["can_confirm"] == true {
                // Now and then take back first (and then act again).
                let (path, what) =
                    if rng.random_bool(0.2) { ("take-back", "take back") } else { ("confirm", "confirm") };
                let (st, after) = post(app, &format!("{url}/{path}"), Some(t), json!({ "version": version })).await;
                assert_eq!(st, StatusCode::OK, "{what}: {after}");
                acted = true;
                break;
            }
            let legal = v["game"]["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let a = legal[rng.random_range(0..legal.len())].as_str().unwrap();
            let (st, after) =
                post(app, &format!("{url}/actions"), Some(t), json!({ "action": a, "version": version })).await;
            assert_eq!(st, StatusCode::OK, "`{a}`: {after}");
            assert!(after["version"].as_u64().unwrap() > version);
            acted = true;
            break;
        }
        assert!(acted, "step {step}: nobody could act in a running game: {spectator}");
    }
    panic!("the game did not end");
}

async fn whole_game_checks(db: &Db) {
    let server = Server::open(&db.url, 1).await.unwrap();
    let app = server.router();
    let (id, tokens) = create(
        &app,
        json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }], "sets": ["base", "am", "pd", "cc", "half"] }),
    )
    .await;
    assert!(tokens.iter().all(|t| t.as_ref().is_some_and(|t| t.len() == 64)));
    let scores = play_people(&app, &id, &tokens, 5).await;
    // The finished game's record is complete and replays to the same scores.
    let (st, rec) = get(&app, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(rec["setup"]["seed"].is_u64(), "a finished record names its seed");
    let record: Record = serde_json::from_value(rec).unwrap();
    let replayed = record.replay().unwrap();
    assert!(replayed.game.is_over());
    assert_eq!(replayed.game.scores().iter().map(|s| i64::from(*s)).collect::<Vec<_>>(), scores);
    // Acting after the end.
    let (st, v) = get(&app, &format!("/api/games/{id}"), tokens[0].as_deref()).await;
    let version = v["version"].as_u64().unwrap();
    let (st2, err) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        tokens[0].as_deref(),
        json!({ "action": "pass", "version": version }),
    )
    .await;
    assert_eq!((st, st2), (StatusCode::OK, StatusCode::CONFLICT), "{err}");
}

#[tokio::test]
async fn a_game_of_every_module_is_played_through_the_api_and_its_record_replays() {
    whole_game_checks(&sqlite()).await;
    let _pg = PG_LOCK.lock().await;
    if let Some(db) = postgres().await {
        whole_game_checks(&db).await;
    }
}

#[tokio::test]
async fn bad_requests_are_refused_with_the_right_status_and_change_nothing() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{}, {}] })).await;
    let url = format!("/api/games/{id}");
    let (t1, t2) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    let (_, v) = get(&app, &url, Some(t1)).await;
    let version = v["version"].as_u64().unwrap();
    let legal = v["game"]["legal"][0].as_str().unwrap().to_string();
    let cases: Vec<(Option<&str>, Value, StatusCode)> = vec![
        (None, json!({ "action": legal, "version": version }), StatusCode::UNAUTHORIZED),
        (Some("0123"), json!({ "action": legal, "version": version }), StatusCode::UNAUTHORIZED),
        (Some(t2), json!({ "action": legal, "version": version }), StatusCode::FORBIDDEN),
        (Some(t1), json!({ "action": legal, "version": version + 1 }), StatusCode::CONFLICT),
        (Some(t1), json!({ "action": "place base/D 50,50 r0", "version": version }), StatusCode::UNPROCESSABLE_ENTITY),
        (Some(t1), json!({ "action": "jump", "version": version }), StatusCode::BAD_REQUEST),
        (Some(t1), json!({ "action": legal }), StatusCode::BAD_REQUEST),
        (Some(t1), json!({ "action": legal, "version": version, "extra": 1 }), StatusCode::BAD_REQUEST),
        (Some(t1), json!([1, 2, 3]), StatusCode::BAD_REQUEST),
    ];
    for (token, body, want) in cases {
        let (st, err) = post(&app, &format!("{url}/actions"), token, body.clone()).await;
        assert_eq!(st, want, "{body}: {err}");
        assert!(err["error"].is_string(), "an error says why: {err}");
    }
    // Not JSON at all, and a body over the limit.
    let typed = |body: Vec<u8>, kind: Option<&str>| {
        let mut r = Request::post(format!("{url}/actions")).header(header::AUTHORIZATION, format!("Bearer {t1}"));
        if let Some(k) = kind {
            r = r.header(header::CONTENT_TYPE, k);
        }
        r.body(Body::from(body)).unwrap()
    };
    let raw = |body: Vec<u8>| typed(body, Some("application/json"));
    let r = app.clone().oneshot(raw(b"{not json".to_vec())).await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = app.clone().oneshot(raw(vec![b' '; 2 * 1024 * 1024])).await.unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // A body that is not declared JSON is refused before it is read: another site's form or `text/plain` fetch
    // cannot act in a visitor's name.
    let good = json!({ "action": legal, "version": version }).to_string().into_bytes();
    for kind in [None, Some("text/plain"), Some("application/x-www-form-urlencoded"), Some("multipart/form-data")] {
        let r = app.clone().oneshot(typed(good.clone(), kind)).await.unwrap();
        assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{kind:?}");
    }
    let r = app.clone().oneshot(typed(b"{}".to_vec(), Some("Application/JSON; charset=utf-8"))).await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST, "JSON with a charset is read (and this body is wrong)");
    // Unknown games and endpoints.
    assert_eq!(get(&app, "/api/games/0000000000000000", None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/api/games/../../etc/passwd", None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/api/nothing", None).await.0, StatusCode::NOT_FOUND);
    // Bad games.
    for body in [
        json!({ "seats": [{}] }),
        json!({ "seats": [{}, {}, {}, {}, {}, {}, {}] }),
        json!({ "seats": [{ "bot": "grandmaster" }, {}] }),
        json!({ "seats": [{}, {}], "sets": ["base", "nope"] }),
        json!({ "seats": [{}, {}], "rules": { "no.such.rule": "1" } }),
        json!({ "seats": [{ "name": "x".repeat(41) }, {}] }),
        json!({ "seats": [{ "name": "Ana\u{202E}" }, {}] }),
        json!({ "seats": [{ "name": "A\u{200B}na" }, {}] }),
        json!({ "seats": [{ "name": "A\u{7}na" }, {}] }),
        json!({ "seats": [{ "bot": "mcts:time=1e17s,iterations=5" }, {}] }),
        json!({ "seats": [{ "bot": "mcts:time=20s" }, {}] }),
        json!({ "seats": [{ "bot": "hard:threads=16" }, {}] }),
        json!({ "seats": [{}, {}], "seed": 4 }),
    ] {
        let (st, err) = post(&app, "/api/games", None, body.clone()).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{body}: {err}");
    }
    // Nothing changed, and the right action is still accepted.
    let (_, v) = get(&app, &url, Some(t1)).await;
    assert_eq!(v["version"].as_u64().unwrap(), version);
    let (st, _) = post(&app, &format!("{url}/actions"), Some(t1), json!({ "action": legal, "version": version })).await;
    assert_eq!(st, StatusCode::OK);
}

async fn bots_and_restore_checks(db: &Db) {
    let server = Server::open(&db.url, 2).await.unwrap();
    let app = server.router();
    // Bots only: the game plays itself out.
    let (bots, _) = create(
        &app,
        json!({ "seats": [{ "bot": "greedy" }, { "bot": "random" }, { "bot": "easy" }], "sets": ["base", "pd"] }),
    )
    .await;
    // A person against a bot: the bot answers each of the person's turns.
    let (mixed, tokens) =
        create(&app, json!({ "seats": [{ "name": "Ana", "auto_confirm": true }, { "bot": "greedy" }] })).await;
    let t = tokens[0].as_deref().unwrap();
    let url = format!("/api/games/{mixed}");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..6 {
        // Wait for the person's decision.
        let v = loop {
            let (_, v) = get(&app, &url, Some(t)).await;
            if !v["game"]["legal"].as_array().unwrap().is_empty() {
                break v;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let legal = v["game"]["legal"].as_array().unwrap();
        let a = legal[rng.random_range(0..legal.len())].as_str().unwrap();
        let (st, e) =
            post(&app, &format!("{url}/actions"), Some(t), json!({ "action": a, "version": v["version"] })).await;
        assert_eq!(st, StatusCode::OK, "{e}");
    }
    let v = finished(&app, &bots, 120).await;
    let (_, rec) = get(&app, &format!("/api/games/{bots}/record"), None).await;
    let replayed = serde_json::from_value::<Record>(rec).unwrap().replay().unwrap();
    let shown: Vec<i64> =
        v["game"]["players"].as_array().unwrap().iter().map(|p| p["score"].as_i64().unwrap()).collect();
    assert_eq!(replayed.game.scores().iter().map(|s| i64::from(*s)).collect::<Vec<_>>(), shown);
    // The server goes away and comes back: the person's game is as it was.
    let before = get(&app, &url, Some(t)).await.1;
    drop(app);
    drop(server);
    let server = Server::open(&db.url, 2).await.unwrap();
    let app = server.router();
    let after = get(&app, &url, Some(t)).await.1;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["game"], before["game"]);
    let (_, lobby) = get(&app, "/api/games?status=finished", None).await;
    assert!(lobby["games"].as_array().unwrap().iter().any(|g| g["id"] == bots.as_str()), "{lobby}");
}

#[tokio::test]
async fn bots_play_their_seats_and_games_survive_a_restart() {
    bots_and_restore_checks(&sqlite()).await;
    let _pg = PG_LOCK.lock().await;
    if let Some(db) = postgres().await {
        bots_and_restore_checks(&db).await;
    }
}

#[tokio::test]
async fn an_open_seat_is_listed_and_taken_once() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "open": true }] })).await;
    assert!(tokens[1].is_none(), "an open seat has no token yet");
    let (_, lobby) = get(&app, "/api/games?status=open", None).await;
    let listed = lobby["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).unwrap().clone();
    assert_eq!(listed["open_seats"], 1);
    let (st, joined) = post(&app, &format!("/api/games/{id}/join"), None, json!({ "seat": "P2", "name": "Bo" })).await;
    assert_eq!(st, StatusCode::OK, "{joined}");
    let token = joined["token"].as_str().unwrap();
    let (st, _) = post(&app, &format!("/api/games/{id}/join"), None, json!({ "seat": "P2" })).await;
    assert_eq!(st, StatusCode::CONFLICT, "a seat is taken once");
    let (_, v) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
    assert_eq!(v["seat"], "P2");
    assert_eq!(v["seats"][1]["name"], "Bo");
    let (_, lobby) = get(&app, "/api/games?status=open", None).await;
    assert!(!lobby["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));
}

/// Poll `url` on `app` until its version is `want` (another instance's change arriving), or fail after 10 s.
#[tokio::test]
async fn two_instances_on_one_postgresql_database_follow_each_other() {
    let _pg = PG_LOCK.lock().await;
    let Some(db) = postgres().await else { return };
    let a = Server::open(&db.url, 1).await.unwrap();
    let b = Server::open(&db.url, 1).await.unwrap();
    let (ra, rb) = (a.router(), b.router());
    let (id, tokens) = create(&ra, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (ana, bo) = (tokens[0].as_deref(), tokens[1].as_deref());
    let url = format!("/api/games/{id}");
    // Instance B knows the game, from the database.
    let (st, v) = get(&rb, &url, ana).await;
    assert_eq!(st, StatusCode::OK);
    let v0 = v["version"].as_u64().unwrap();
    let place = v["game"]["legal"][0].as_str().unwrap().to_string();
    // Ana places her tile through A; B hears of it and takes her next action and her confirmation.
    let (st, _) = post(&ra, &format!("{url}/actions"), ana, json!({ "action": place, "version": v0 })).await;
    assert_eq!(st, StatusCode::OK);
    wait_for_version(&rb, &url, ana, v0 + 1).await;
    let (st, e) = post(&rb, &format!("{url}/actions"), ana, json!({ "action": "pass", "version": v0 + 1 })).await;
    assert_eq!(st, StatusCode::OK, "{e}");
    let (st, e) = post(&rb, &format!("{url}/confirm"), ana, json!({ "version": v0 + 2 })).await;
    assert_eq!(st, StatusCode::OK, "{e}");
    // The draw B made reaches A: Bo decides there.
    let v = wait_for_version(&ra, &url, bo, v0 + 3).await;
    let bo_place = v["game"]["legal"][0].as_str().unwrap().to_string();
    // Bo sends the same action to both instances at the same version: exactly one is accepted.
    let body = json!({ "action": bo_place, "version": v0 + 3 });
    let actions = format!("{url}/actions");
    let (sa, sb) = tokio::join!(post(&ra, &actions, bo, body.clone()), post(&rb, &actions, bo, body.clone()));
    let mut statuses = [sa.0, sb.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{sa:?} {sb:?}");
    // And both end up with the one log the database holds.
    let va = wait_for_version(&ra, &url, None, v0 + 4).await;
    let vb = wait_for_version(&rb, &url, None, v0 + 4).await;
    assert_eq!(va["game"], vb["game"]);
}

#[tokio::test]
async fn colours_rules_hints_and_past_positions() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    // Colours: the ones asked for, then the first free ones; a colour is one seat's.
    let (id, tokens) = create(&app, json!({ "seats": [{ "colour": "green" }, {}, { "bot": "random" }] })).await;
    let (_, v) = get(&app, &format!("/api/games/{id}"), None).await;
    let colours: Vec<&str> = v["seats"].as_array().unwrap().iter().map(|s| s["colour"].as_str().unwrap()).collect();
    assert_eq!(colours, ["green", "red", "blue"]);
    // Seats left unnamed get distinct names: a second bot of one spec is numbered.
    let (twins, _) =
        create(&app, json!({ "seats": [{ "bot": "greedy" }, { "bot": "greedy" }, { "bot": "greedy" }] })).await;
    let (_, v) = get(&app, &format!("/api/games/{twins}"), None).await;
    let names: Vec<&str> = v["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["greedy bot", "greedy bot 2", "greedy bot 3"]);
    for bad in [
        json!({ "seats": [{ "colour": "green" }, { "colour": "green" }] }),
        json!({ "seats": [{ "colour": "pink" }, {}] }),
    ] {
        assert_eq!(post(&app, "/api/games", None, bad).await.0, StatusCode::BAD_REQUEST);
    }
    // The rule options, with their defaults and explanations.
    let (st, rules) = get(&app, "/api/rules", None).await;
    assert_eq!(st, StatusCode::OK);
    let scoring = rules["options"].as_array().unwrap().iter().find(|o| o["key"] == "halflings.scoring").unwrap();
    assert_eq!(scoring["rule"], "VAR-16");
    assert_eq!(scoring["default"], scoring["values"][0]);
    // A hint is for the seat to decide, and names one of its legal actions.
    let (t1, t2) = (tokens[0].as_deref(), tokens[1].as_deref());
    let (_, mine) = get(&app, &format!("/api/games/{id}"), t1).await;
    let (st, hint) = get(&app, &format!("/api/games/{id}/hint?bot=greedy"), t1).await;
    assert_eq!(st, StatusCode::OK, "{hint}");
    assert!(mine["game"]["legal"].as_array().unwrap().contains(&hint["action"]), "{hint}");
    // A placement's hint says the rest of the turn too: what the bot would do with a figure next.
    assert_eq!(hint["fields"]["type"], "place", "{hint}");
    assert_eq!(hint["next"]["decision"], "phase2", "{hint}");
    assert!(["deploy", "pass"].contains(&hint["next"]["fields"]["type"].as_str().unwrap()), "{hint}");
    // The log names what each seat did, on the board as it was: the placement, by P1, with its parts; chance's
    // draws are not there.
    let (st, _) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        t1,
        json!({ "action": hint["action"], "version": mine["version"] }),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let (_, log) = get(&app, &format!("/api/games/{id}/events"), None).await;
    let played: Vec<&Value> = log["events"].as_array().unwrap().iter().filter(|e| e["type"] == "played").collect();
    assert_eq!(played.len(), 1, "{log}");
    assert_eq!(played[0]["by"], "P1");
    assert_eq!(played[0]["move"], hint["fields"]);
    assert_eq!(get(&app, &format!("/api/games/{id}/hint"), t2).await.0, StatusCode::FORBIDDEN);
    assert_eq!(get(&app, &format!("/api/games/{id}/hint"), None).await.0, StatusCode::UNAUTHORIZED);
    // Past positions, for the replay viewer: the table after 0 and after 1 action.
    let (st, start) = get(&app, &format!("/api/games/{id}/view?at=0"), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(start["version"], 0);
    assert_eq!(start["game"]["board"].as_array().unwrap().len(), 1, "the start tile only");
    let (_, one) = get(&app, &format!("/api/games/{id}/view?at=1"), None).await;
    assert_eq!(one["version"], 1);
    assert_eq!(get(&app, &format!("/api/games/{id}/view?at=999"), None).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_table_is_served_from_the_binary() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    for path in ["/", "/new", "/play/0123456789abcdef", "/replay/0123456789abcdef", "/rules"] {
        let resp = app.clone().oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert!(resp.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{path}");
        let body = resp.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains("/assets/app.js"), "{path}");
    }
    let resp = app.clone().oneshot(Request::get("/assets/app.js").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/javascript"));
    let resp = app.clone().oneshot(Request::get("/assets/../Cargo.toml").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}
