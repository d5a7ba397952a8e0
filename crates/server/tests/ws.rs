//! The WebSocket over a real socket: every change is pushed to every seat and spectator with its events, each with
//! its own view; a thousand connections opened and dropped leave the server as it was.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use carcassonne_server::Server;
use futures_util::StreamExt;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

async fn post(app: &axum::Router, uri: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let resp = app.clone().oneshot(req.body(Body::from(body.to_string())).unwrap()).await.unwrap();
    let st = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (st, serde_json::from_slice(&bytes).unwrap())
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
async fn changes_reach_every_socket_and_dropped_sockets_cost_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::open(dir.path().join("g.sqlite").to_str().unwrap(), 1).await.unwrap();
    let app = server.router();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(carcassonne_server::serve(listener, server.clone()));

    let (st, created) = post(&app, "/api/games", None, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    assert_eq!(st, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap().to_string();
    let t1 = created["seats"][0]["token"].as_str().unwrap().to_string();
    let t2 = created["seats"][1]["token"].as_str().unwrap().to_string();
    let ws_url = format!("ws://{addr}/api/games/{id}/ws");

    let (mut spectator, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    let (mut bo, answer) = tokio_tungstenite::connect_async(as_seat(&ws_url, &t2)).await.unwrap();
    assert_eq!(answer.headers()["sec-websocket-protocol"], "carc.v1", "the server names the protocol it speaks");
    let hello = next_json(&mut spectator).await;
    assert_eq!(hello["type"], "view");
    assert_eq!(hello["view"]["seat"], Value::Null);
    let hello = next_json(&mut bo).await;
    assert_eq!(hello["view"]["seat"], "P2");
    let version = hello["view"]["version"].as_u64().unwrap();

    // A wrong token is refused before the upgrade.
    let refused = tokio_tungstenite::connect_async(as_seat(&ws_url, "nope")).await;
    assert!(refused.is_err());
    // A token in the query string is not read (URLs end up in logs): that socket is a spectator's.
    let (mut queried, _) = tokio_tungstenite::connect_async(format!("{ws_url}?token={t2}")).await.unwrap();
    assert_eq!(next_json(&mut queried).await["view"]["seat"], Value::Null);
    drop(queried);

    // Ana places her tile: both sockets hear of it, with the action and the view each may see.
    let legal = hello["view"]["game"]["legal"].clone();
    assert_eq!(legal, json!([]), "not Bo's turn");
    let (_, ana) = axum_get(&app, &format!("/api/games/{id}"), &t1).await;
    let place = ana["game"]["legal"][0].as_str().unwrap().to_string();
    let (st, _) =
        post(&app, &format!("/api/games/{id}/actions"), Some(&t1), json!({ "action": place, "version": version }))
            .await;
    assert_eq!(st, StatusCode::OK);
    for ws in [&mut spectator, &mut bo] {
        let u = next_json(ws).await;
        assert_eq!(u["type"], "update");
        assert_eq!(u["cause"], "action");
        assert_eq!(u["actions"], json!([place]));
        assert_eq!(u["version"].as_u64().unwrap(), version + 1);
    }
    // She takes it back: everyone sees that too.
    let (st, _) = post(&app, &format!("/api/games/{id}/take-back"), Some(&t1), json!({ "version": version + 1 })).await;
    assert_eq!(st, StatusCode::OK);
    for ws in [&mut spectator, &mut bo] {
        let u = next_json(ws).await;
        assert_eq!(u["cause"], "take_back");
        assert_eq!(u["version"].as_u64().unwrap(), version);
    }

    // A thousand connections, opened and dropped (some before reading anything, some after the first message).
    for round in 0..20 {
        let mut open = Vec::new();
        for _ in 0..50 {
            open.push(tokio_tungstenite::connect_async(ws_url.clone()));
        }
        let mut sockets = Vec::new();
        for c in open {
            sockets.push(c.await.expect("the server accepts the connection").0);
        }
        if round % 2 == 0 {
            for s in &mut sockets {
                assert_eq!(next_json(s).await["type"], "view");
            }
        }
        drop(sockets);
    }
    // The server still works: the remaining sockets hear the next action.
    let (st, _) =
        post(&app, &format!("/api/games/{id}/actions"), Some(&t1), json!({ "action": place, "version": version }))
            .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(next_json(&mut bo).await["actions"], json!([place]));
    let (st, health) = axum_get(&app, "/health", "").await;
    assert_eq!(st, StatusCode::OK, "{health}");
}

/// A request for the socket as the seat holding `token`: the token offered as a subprotocol.
fn as_seat(url: &str, token: &str) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert("sec-websocket-protocol", format!("carc.v1, token.{token}").parse().unwrap());
    req
}

async fn axum_get(app: &axum::Router, uri: &str, token: &str) -> (StatusCode, Value) {
    let mut req = Request::get(uri);
    if !token.is_empty() {
        req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let resp = app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let st = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (st, serde_json::from_slice(&bytes).unwrap())
}
