//! A game's chat (decision W-13): seats write, everyone reads; messages are checked, rate-limited, stored beside the
//! game's log (and kept across a restart, on a real SQLite file and, with `CARC_TEST_POSTGRES`, on PostgreSQL),
//! pushed to every socket of the game, and never part of its record.

use std::time::Duration;

use axum::http::StatusCode;
use carcassonne_server::{Limits, Server};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::*;

async fn say(app: &axum::Router, id: &str, token: Option<&str>, text: &str) -> (StatusCode, Value) {
    post(app, &format!("/api/games/{id}/chat"), token, json!({ "text": text })).await
}

async fn messages(app: &axum::Router, id: &str) -> Vec<Value> {
    let (st, v) = get(app, &format!("/api/games/{id}/chat"), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["messages"].as_array().unwrap().clone()
}

async fn stored_and_read_back_checks(db: &Db) {
    let server = Server::open(&db.url, 1).await.unwrap();
    let app = server.router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (ana, bo) = (tokens[0].as_deref(), tokens[1].as_deref());
    let url = format!("/api/games/{id}");
    let (_, before) = get(&app, &url, ana).await;
    let (_, record_before) = get(&app, &format!("{url}/record"), None).await;
    let version = before["version"].as_i64().unwrap();

    let (st, v) = say(&app, &id, ana, "  hello, Bo  ").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        v["message"],
        json!({ "n": 1, "seat": "P1", "name": "Ana", "text": "hello, Bo", "version": version, "at": v["message"]["at"] })
    );
    // 280 characters of two bytes each: the limit counts characters.
    let long = "ă".repeat(280);
    let (st, v) = say(&app, &id, bo, &long).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    // Bo's placement comes after the chat so far; a message after it is said at the new version.
    let (_, ana_view) = get(&app, &url, ana).await;
    let place = ana_view["game"]["legal"][0].as_str().unwrap().to_string();
    let (st, _) = post(&app, &format!("{url}/actions"), ana, json!({ "action": place, "version": version })).await;
    assert_eq!(st, StatusCode::OK);
    let (st, v) = say(&app, &id, ana, "👩\u{200D}👩\u{200D}👧 bravo, ați închis orașul").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["message"]["version"], version + 1);

    // Everyone reads it, spectators too; `since` gives the newer ones.
    let all = messages(&app, &id).await;
    let texts: Vec<&str> = all.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["hello, Bo", long.as_str(), "👩\u{200D}👩\u{200D}👧 bravo, ați închis orașul"]);
    assert_eq!(all[1]["name"], "Bo");
    let (_, newer) = get(&app, &format!("{url}/chat?since=2"), None).await;
    assert_eq!(newer["messages"].as_array().unwrap().len(), 1);

    // The chat is not the game: its record and views do not mention it.
    let (_, record) = get(&app, &format!("{url}/record"), None).await;
    assert!(!record.to_string().contains("hello"), "{record}");
    assert_eq!(record["setup"], record_before["setup"]);
    let (_, view) = get(&app, &url, None).await;
    assert!(!view.to_string().contains("hello"), "the view does not carry the chat");

    // The server goes away and comes back: the chat is as it was, and the game replays as before.
    drop(app);
    drop(server);
    let server = Server::open(&db.url, 1).await.unwrap();
    let app = server.router();
    assert_eq!(messages(&app, &id).await, all);
    let (_, view_after) = get(&app, &url, None).await;
    assert_eq!(view_after["game"], view["game"]);
    let (st, v) = say(&app, &id, bo, "still here").await;
    assert_eq!((st, v["message"]["n"].clone()), (StatusCode::CREATED, json!(4)), "{v}");
}

#[tokio::test]
async fn a_message_is_stored_with_the_game_and_read_back_after_a_restart() {
    stored_and_read_back_checks(&sqlite()).await;
    let _pg = PG_LOCK.lock().await;
    if let Some(db) = postgres().await {
        stored_and_read_back_checks(&db).await;
    }
}

#[tokio::test]
async fn bad_messages_are_refused_with_400_and_nothing_is_stored() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let ana = tokens[0].as_deref();
    let chat = format!("/api/games/{id}/chat");
    let cases = [
        ("empty", json!({ "text": "" }), "bad_chat_message"),
        ("spaces", json!({ "text": "  \u{3000} " }), "bad_chat_message"),
        ("281 characters", json!({ "text": "ă".repeat(281) }), "bad_chat_message"),
        ("a line break", json!({ "text": "one\ntwo" }), "bad_chat_message"),
        ("a carriage return", json!({ "text": "one\rtwo" }), "bad_chat_message"),
        ("a tab", json!({ "text": "one\ttwo" }), "bad_chat_message"),
        ("an escape", json!({ "text": "\u{1b}[2Jgone" }), "bad_chat_message"),
        ("a NUL", json!({ "text": "a\u{0}b" }), "bad_chat_message"),
        ("a C1 control", json!({ "text": "a\u{9b}b" }), "bad_chat_message"),
        ("a right-to-left override", json!({ "text": "a\u{202E}b" }), "bad_chat_message"),
        ("no text", json!({}), "bad_request"),
        ("a number", json!({ "text": 5 }), "bad_request"),
        ("an extra field", json!({ "text": "hi", "name": "Zed" }), "bad_request"),
    ];
    for (what, body, code) in cases {
        let (st, err) = post(&app, &chat, ana, body).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{what}: {err}");
        assert_eq!(err["code"], code, "{what}: {err}");
        assert!(err["error"].as_str().is_some_and(|e| e.contains("chat") || code == "bad_request"), "{what}: {err}");
    }
    let (_, err) = post(&app, &chat, ana, json!({ "text": "one\ntwo" })).await;
    assert!(err["error"].as_str().unwrap().contains("control characters"), "{err}");
    let (_, err) = post(&app, &chat, ana, json!({ "text": "x".repeat(300) })).await;
    assert!(err["error"].as_str().unwrap().contains("at most 280 characters, not 300"), "{err}");
    assert!(messages(&app, &id).await.is_empty(), "nothing refused was stored");
    // A line break at the end is only trimmed away.
    assert_eq!(say(&app, &id, ana, "gg\n").await.0, StatusCode::CREATED);
    assert_eq!(messages(&app, &id).await[0]["text"], "gg");
}

#[tokio::test]
async fn spectators_read_the_chat_but_only_seats_write_in_it() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (id, tokens) =
        create(&app, json!({ "seats": [{ "name": "Ana" }, { "open": true }, { "bot": "random" }] })).await;
    assert_eq!(say(&app, &id, tokens[0].as_deref(), "hi").await.0, StatusCode::CREATED);
    let (st, err) = say(&app, &id, None, "I am watching").await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "{err}");
    assert!(err["error"].as_str().unwrap().contains("spectators read it"), "{err}");
    assert_eq!(say(&app, &id, Some("0123"), "I am Ana").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(say(&app, "0000000000000000", tokens[0].as_deref(), "hi").await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/api/games/0000000000000000/chat", None).await.0, StatusCode::NOT_FOUND);
    let all = messages(&app, &id).await;
    assert_eq!(all.len(), 1);
    assert_eq!((&all[0]["seat"], &all[0]["name"]), (&json!("P1"), &json!("Ana")));
    // Who takes the open seat speaks under the name they took it with.
    let (_, joined) = post(&app, &format!("/api/games/{id}/join"), None, json!({ "seat": "P2", "name": "Cleo" })).await;
    let (st, v) = say(&app, &id, joined["token"].as_str(), "hello").await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!((&v["message"]["seat"], &v["message"]["name"]), (&json!("P2"), &json!("Cleo")));
}

#[tokio::test]
async fn a_seat_may_write_so_many_messages_a_minute_and_a_game_so_many_in_all() {
    let db = sqlite();
    let app = Server::open_with(&db.url, Limits { chat_per_minute: 3, ..Limits::default() }).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (ana, bo) = (tokens[0].as_deref(), tokens[1].as_deref());
    for i in 0..3 {
        assert_eq!(say(&app, &id, ana, &format!("message {i}")).await.0, StatusCode::CREATED, "message {i}");
    }
    let (st, err) = say(&app, &id, ana, "one too many").await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{err}");
    assert!(err["error"].as_str().unwrap().contains("3 chat messages a minute"), "{err}");
    // The limit is the seat's: Bo still speaks, and a refused message is not stored.
    assert_eq!(say(&app, &id, bo, "my turn to talk").await.0, StatusCode::CREATED);
    assert_eq!(messages(&app, &id).await.len(), 4);
    // A message refused for what it holds does not spend the seat's quota.
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let ana = tokens[0].as_deref();
    for _ in 0..5 {
        assert_eq!(say(&app, &id, ana, "").await.0, StatusCode::BAD_REQUEST);
    }
    assert_eq!(say(&app, &id, ana, "now").await.0, StatusCode::CREATED);

    // A game keeps at most a thousand messages.
    let app =
        Server::open_with(&db.url, Limits { chat_per_minute: 5_000, ..Limits::default() }).await.unwrap().router();
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    for i in 0..1_000 {
        let (st, v) = say(&app, &id, tokens[i % 2].as_deref(), "a").await;
        assert_eq!(st, StatusCode::CREATED, "message {i}: {v}");
    }
    let (st, err) = say(&app, &id, tokens[0].as_deref(), "and one more").await;
    assert_eq!(st, StatusCode::CONFLICT, "{err}");
    assert!(err["error"].as_str().unwrap().contains("chat is full"), "{err}");
    assert_eq!(messages(&app, &id).await.len(), 1_000);
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message in time");
        match msg.expect("the socket is open").expect("a message") {
            Message::Text(t) => return serde_json::from_str(&t).unwrap(),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("unexpected message {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_message_reaches_every_socket_of_the_game_without_a_view() {
    let db = sqlite();
    let server = Server::open(&db.url, 1).await.unwrap();
    let app = server.router();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(carcassonne_server::serve(listener, server.clone()));
    let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let ws_url = format!("ws://{addr}/api/games/{id}/ws");
    let mut bo_req = {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        ws_url.as_str().into_client_request().unwrap()
    };
    let protocols = format!("carc.v1, token.{}", tokens[1].as_deref().unwrap());
    bo_req.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
    let (mut spectator, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    let (mut bo, _) = tokio_tungstenite::connect_async(bo_req).await.unwrap();
    assert_eq!(next_json(&mut spectator).await["type"], "view");
    assert_eq!(next_json(&mut bo).await["type"], "view");
    let (st, said) = say(&app, &id, tokens[0].as_deref(), "good luck").await;
    assert_eq!(st, StatusCode::CREATED);
    for ws in [&mut spectator, &mut bo] {
        let msg = next_json(ws).await;
        assert_eq!(msg, json!({ "type": "chat", "message": said["message"] }), "no view, nothing hidden, with it");
    }
}

#[tokio::test]
async fn two_instances_on_one_postgresql_database_number_one_chat_and_tell_each_other() {
    let _pg = PG_LOCK.lock().await;
    let Some(db) = postgres().await else { return };
    let a = Server::open(&db.url, 1).await.unwrap();
    let b = Server::open(&db.url, 1).await.unwrap();
    let (ra, rb) = (a.router(), b.router());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(carcassonne_server::serve(listener, b.clone()));
    let (id, tokens) = create(&ra, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (ana, bo) = (tokens[0].as_deref(), tokens[1].as_deref());
    // A spectator watches on B; Ana writes on A: B's socket hears that the game changed elsewhere.
    let (mut spectator, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    assert_eq!(next_json(&mut spectator).await["type"], "view");
    assert_eq!(say(&ra, &id, ana, "from A").await.0, StatusCode::CREATED);
    assert_eq!(next_json(&mut spectator).await["cause"], "sync");
    assert_eq!(messages(&rb, &id).await[0]["text"], "from A");
    // Both instances at once: the messages are numbered without a gap or a repeat.
    let (x, y) = tokio::join!(say(&ra, &id, ana, "one"), say(&rb, &id, bo, "two"));
    assert_eq!((x.0, y.0), (StatusCode::CREATED, StatusCode::CREATED), "{x:?} {y:?}");
    let ns: Vec<i64> = messages(&ra, &id).await.iter().map(|m| m["n"].as_i64().unwrap()).collect();
    assert_eq!(ns, [1, 2, 3]);
}
