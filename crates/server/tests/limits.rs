//! The limits a public server needs (issue 21), over real sockets on loopback: connections capped in all and per
//! address, headers and idle connections on a deadline, an oversized declared body refused at once, creations and
//! sockets rate-limited per address, a game's own tiles bounded, the lobby paged and filtered in SQL, and abandoned
//! games expired.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use carcassonne_server::{Limits, Server};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

mod common;
use common::*;

/// A server on a free loopback port with `limits`; its address.
async fn start(db: &Db, limits: Limits) -> (Server, SocketAddr) {
    let server = Server::open_with(&db.url, limits).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(carcassonne_server::serve_until(listener, server.clone(), std::future::pending()));
    (server, addr)
}

/// A connection to `addr` from the loopback address `from` (127.0.0.x: every one of them is this machine).
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(SocketAddr::from((from, 0))).unwrap();
    s.connect(addr).await.unwrap()
}

/// Send a raw request and read the answer's status line and body (the server closes: `Connection: close`).
async fn raw(stream: &mut TcpStream, request: &str) -> (u16, String) {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut out))
        .await
        .expect("an answer in time")
        .unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text.split("\r\n\r\n").nth(1).unwrap_or("").to_string())
}

fn request(method: &str, path: &str, body: Option<&Value>) -> String {
    match body {
        Some(b) => {
            let b = b.to_string();
            format!(
                "{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n{b}",
                b.len()
            )
        }
        None => format!("{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"),
    }
}

/// Whether the server has closed `stream` (read gives end of file) within `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 64];
    matches!(tokio::time::timeout(within, stream.read(&mut buf)).await, Ok(Ok(0)) | Ok(Err(_)))
}

#[tokio::test]
async fn idle_connections_are_capped_and_closed_and_others_are_still_served() {
    let db = sqlite();
    let limits = Limits {
        max_connections: 40,
        connections_per_address: 10,
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let (_server, addr) = start(&db, limits).await;
    // Thirty connections from one address that send nothing: ten are kept (for a while), the rest closed at once.
    let mut idle = Vec::new();
    for _ in 0..30 {
        idle.push(connect_from([127, 0, 0, 9], addr).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut closed_at_once = 0;
    for s in &mut idle {
        closed_at_once += usize::from(closed_within(s, Duration::from_millis(20)).await);
    }
    assert_eq!(closed_at_once, 20, "the connections past the address's cap are closed at once");
    // Others are served meanwhile.
    let t = Instant::now();
    let (st, body) = raw(&mut connect_from([127, 0, 0, 1], addr).await, &request("GET", "/health", None)).await;
    assert_eq!(st, 200, "{body}");
    assert!(t.elapsed() < Duration::from_secs(1));
    // The kept ones sent no headers: closed after the deadline.
    for s in &mut idle {
        assert!(closed_within(s, Duration::from_secs(5)).await, "an idle connection stayed open");
    }
    // A kept-alive connection that goes quiet after a request is closed after the deadline too.
    let mut s = connect_from([127, 0, 0, 1], addr).await;
    s.write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n").await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = s.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    assert!(closed_within(&mut s, Duration::from_secs(5)).await, "an idle kept-alive connection stayed open");
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_refused_at_once() {
    let db = sqlite();
    let (_server, addr) = start(&db, Limits::default()).await;
    let mut s = connect_from([127, 0, 0, 1], addr).await;
    let t = Instant::now();
    let (st, _) = raw(
        &mut s,
        "POST /api/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: 999999999\r\n\r\n{}",
    )
    .await;
    assert_eq!(st, 413);
    assert!(t.elapsed() < Duration::from_secs(2), "it waited for the body: {:?}", t.elapsed());
}

#[tokio::test]
async fn an_address_may_create_so_many_games_a_minute() {
    let db = sqlite();
    let (_server, addr) = start(&db, Limits { creates_per_minute: 3, ..Limits::default() }).await;
    let body = json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] });
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            raw(&mut connect_from([127, 0, 0, 5], addr).await, &request("POST", "/api/games", Some(&body))).await.0,
        );
    }
    assert_eq!(statuses, [201, 201, 201, 429, 429]);
    // Another address is not held back.
    let (st, _) = raw(&mut connect_from([127, 0, 0, 6], addr).await, &request("POST", "/api/games", Some(&body))).await;
    assert_eq!(st, 201);
}

#[tokio::test]
async fn sockets_are_capped_per_address() {
    let db = sqlite();
    let (server, addr) = start(&db, Limits { sockets_per_address: 3, ..Limits::default() }).await;
    let (id, _) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(tokio_tungstenite::connect_async(&url).await.expect("within the cap").0);
    }
    assert!(tokio_tungstenite::connect_async(&url).await.is_err(), "a fourth socket from one address");
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(tokio_tungstenite::connect_async(&url).await.is_ok(), "a place freed is taken again");
}

#[tokio::test]
async fn a_games_own_tiles_are_bounded() {
    let db = sqlite();
    let app = Server::open_with(&db.url, Limits { max_custom_kinds: 4, max_custom_tiles: 10, ..Limits::default() })
        .await
        .unwrap()
        .router();
    let tile = |id: String, count: u32| json!({ "id": id, "count": count, "segments": ["city N", "field E S W"] });
    let seats = json!([{ "name": "Ana" }, { "name": "Bo" }]);
    for (tiles, why) in [
        ((0..5).map(|i| tile(format!("t{i}"), 1)).collect::<Vec<_>>(), "kinds"),
        (vec![tile("big".into(), 11)], "copies"),
        (vec![tile("x".repeat(33), 1)], "a long id"),
    ] {
        let (st, e) = post(&app, "/api/games", None, json!({ "seats": seats, "custom_tiles": tiles })).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{why}: {e}");
    }
}

#[tokio::test]
async fn the_lobby_filters_and_pages_in_the_database() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    let (open_game, _) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "open": true }] })).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for _ in 0..210 {
        create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    }
    // 210 newer games do not hide the open seat.
    let (st, v) = get(&app, "/api/games?status=open", None).await;
    assert_eq!(st, StatusCode::OK);
    let ids: Vec<&str> = v["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [open_game.as_str()]);
    // Pages: every game once, newest first.
    let mut seen = Vec::new();
    for page in 0..3 {
        let (_, v) = get(&app, &format!("/api/games?limit=100&offset={}", page * 100), None).await;
        for g in v["games"].as_array().unwrap() {
            assert_eq!(g["seats"].as_array().unwrap().len(), 2);
            seen.push(g["id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(seen.len(), 211);
    assert_eq!(seen.last().map(String::as_str), Some(open_game.as_str()), "the oldest comes last");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 211, "no game on two pages");
    assert_eq!(get(&app, "/api/games?offset=-1", None).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_game_nobody_plays_is_abandoned_and_refuses_actions() {
    let db = sqlite();
    let server =
        Server::open_with(&db.url, Limits { abandon_after: Some(Duration::from_secs(3600)), ..Limits::default() })
            .await
            .unwrap();
    let app = server.router();
    let (old, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let (fresh, _) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    // The first game last changed two hours ago.
    let side = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.url)).await.unwrap();
    sqlx::query("UPDATE games SET updated_at = updated_at - 7200 WHERE id = $1")
        .bind(&old)
        .execute(&side)
        .await
        .unwrap();
    assert_eq!(server.sweep().await, 1);
    let (_, v) = get(&app, &format!("/api/games/{old}"), tokens[0].as_deref()).await;
    assert_eq!(v["status"], "abandoned");
    let (st, _) = post(
        &app,
        &format!("/api/games/{old}/actions"),
        tokens[0].as_deref(),
        json!({ "action": "pass", "version": v["version"] }),
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
    assert_eq!(get(&app, &format!("/api/games/{fresh}"), None).await.1["status"], "running");
    // After a restart too.
    let app = Server::open(&db.url, 1).await.unwrap().router();
    assert_eq!(get(&app, &format!("/api/games/{old}"), None).await.1["status"], "abandoned");
    let (_, lobby) = get(&app, "/api/games?status=abandoned", None).await;
    assert_eq!(lobby["games"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_past_view_kept_for_readers_follows_a_take_back() {
    let db = sqlite();
    let app = Server::open(&db.url, 1).await.unwrap().router();
    // The deal is random: some first tiles fit in one place only (a whole city fits only against the start's
    // city), so deal until the first tile may go in two places.
    let (url, tokens, v, first, other) = loop {
        let (id, tokens) = create(&app, json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
        let url = format!("/api/games/{id}");
        let (_, v) = get(&app, &url, tokens[0].as_deref()).await;
        let legal: Vec<String> =
            v["game"]["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().into()).collect();
        let place = |a: &String| a.split(' ').nth(2).map(str::to_owned);
        if let Some(other) = legal.iter().find(|a| place(a) != place(&legal[0])) {
            break (url, tokens, v, legal[0].clone(), other.clone());
        }
    };
    let ana = tokens[0].as_deref();
    let version = v["version"].as_u64().unwrap();
    post(&app, &format!("{url}/actions"), ana, json!({ "action": first, "version": version })).await;
    let at = format!("{url}/view?at={}", version + 1);
    let (_, seen) = get(&app, &at, None).await;
    assert_eq!(get(&app, &at, None).await.1, seen, "the kept view is the same");
    // Ana takes it back and places elsewhere: the position after that many actions is another one now.
    post(&app, &format!("{url}/take-back"), ana, json!({ "version": version + 1 })).await;
    let (st, _) = post(&app, &format!("{url}/actions"), ana, json!({ "action": other, "version": version })).await;
    assert_eq!(st, StatusCode::OK);
    let (_, now) = get(&app, &at, None).await;
    assert_ne!(now["game"]["board"], seen["game"]["board"], "a view kept from before the take-back was served");
    assert_eq!(now["game"]["board"], get(&app, &url, None).await.1["game"]["board"]);
}

// Issue 37: no visitor can keep a game's own players off it.

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A WebSocket to game `id` from the loopback address `from`, as the seat holding `token` (a spectator's without).
async fn socket_from(from: [u8; 4], addr: SocketAddr, id: &str, token: Option<&str>) -> Result<Ws, String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    if let Some(t) = token {
        req.headers_mut().insert("sec-websocket-protocol", format!("carc.v1, token.{t}").parse().unwrap());
    }
    let stream = connect_from(from, addr).await;
    tokio_tungstenite::client_async(req, stream).await.map(|(ws, _)| ws).map_err(|e| e.to_string())
}

/// The next text message of `ws` as JSON, skipping pings; `None` if it was closed.
async fn next_text(ws: &mut Ws, within: Duration) -> Option<Value> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        match tokio::time::timeout(within, ws.next()).await.expect("a message in time") {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(other)) => panic!("unexpected message {other:?}"),
        }
    }
}

#[tokio::test]
async fn r37_a_seat_is_admitted_however_many_spectators_hold_the_game() {
    let db = sqlite();
    let (server, addr) = start(&db, Limits { sockets_per_game: 20, ..Limits::default() }).await;
    let (id, tokens) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    // Twenty spectators from twenty addresses that never read fill the game's sockets.
    let mut watching = Vec::new();
    for i in 0..20 {
        watching.push(socket_from([127, 0, 1, i], addr, &id, None).await.expect("a spectator within the cap"));
    }
    assert!(socket_from([127, 0, 1, 99], addr, &id, None).await.is_err(), "a 21st spectator");
    // Both seats still get in, and hear their view.
    for (i, t) in tokens.iter().enumerate() {
        let mut ws = socket_from([127, 0, 0, 2], addr, &id, t.as_deref()).await.expect("a seat is always admitted");
        let hello = next_text(&mut ws, Duration::from_secs(5)).await.unwrap();
        assert_eq!(hello["view"]["seat"], format!("P{}", i + 1));
    }
}

#[tokio::test]
async fn r37_a_seat_takes_the_place_of_its_addresss_oldest_spectator() {
    let db = sqlite();
    let (server, addr) = start(&db, Limits { sockets_per_address: 3, ..Limits::default() }).await;
    let (id, tokens) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let mut watching = Vec::new();
    for _ in 0..3 {
        let mut ws = socket_from([127, 0, 0, 3], addr, &id, None).await.unwrap();
        next_text(&mut ws, Duration::from_secs(5)).await.unwrap();
        watching.push(ws);
    }
    assert!(socket_from([127, 0, 0, 3], addr, &id, None).await.is_err(), "a fourth spectator from the address");
    let mut ana = socket_from([127, 0, 0, 3], addr, &id, tokens[0].as_deref()).await.expect("the seat gets in");
    assert_eq!(next_text(&mut ana, Duration::from_secs(5)).await.unwrap()["view"]["seat"], "P1");
    assert!(next_text(&mut watching[0], Duration::from_secs(5)).await.is_none(), "the oldest spectator is closed");
    // The others stay.
    let mut b = watching.pop().unwrap();
    assert!(tokio::time::timeout(Duration::from_millis(300), next_text(&mut b, Duration::from_secs(1))).await.is_err());
}

#[tokio::test]
async fn r37_sockets_that_do_not_answer_pings_are_closed() {
    let db = sqlite();
    let limits = Limits {
        sockets_per_game: 2,
        socket_ping: Duration::from_millis(200),
        socket_timeout: Duration::from_millis(800),
        ..Limits::default()
    };
    let (server, addr) = start(&db, limits).await;
    let (id, _) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    // One socket that answers (its reader runs), one that never reads.
    let mut alive = socket_from([127, 0, 0, 4], addr, &id, None).await.unwrap();
    let reader = tokio::spawn(async move {
        let mut texts = 0;
        while next_text(&mut alive, Duration::from_secs(10)).await.is_some() {
            texts += 1;
        }
        texts
    });
    let _silent = socket_from([127, 0, 0, 4], addr, &id, None).await.unwrap();
    assert!(socket_from([127, 0, 0, 5], addr, &id, None).await.is_err(), "the game is full");
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert!(socket_from([127, 0, 0, 5], addr, &id, None).await.is_ok(), "the silent socket's place was freed");
    assert!(!reader.is_finished(), "a socket that answers pings is kept");
}

#[tokio::test]
async fn r37_upgraded_sockets_count_towards_the_connection_cap() {
    let db = sqlite();
    let (server, addr) = start(&db, Limits { max_connections: 5, ..Limits::default() }).await;
    let (id, _) = create(&server.router(), json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] })).await;
    let mut open = Vec::new();
    for i in 0..5 {
        open.push(socket_from([127, 0, 2, i], addr, &id, None).await.expect("within the cap"));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut s = connect_from([127, 0, 0, 1], addr).await;
    assert!(closed_within(&mut s, Duration::from_millis(500)).await, "a sixth connection is closed at once");
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (st, _) = raw(&mut connect_from([127, 0, 0, 1], addr).await, &request("GET", "/health", None)).await;
    assert_eq!(st, 200, "a place freed is taken again");
}

#[tokio::test]
async fn r37_request_headers_past_the_bound_are_refused_with_431() {
    let db = sqlite();
    let (_server, addr) = start(&db, Limits::default()).await;
    let header =
        |n: usize| format!("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Pad: {}\r\n\r\n", "a".repeat(n));
    let (st, _) = raw(&mut connect_from([127, 0, 0, 1], addr).await, &header(4 * 1024)).await;
    assert_eq!(st, 200, "a few KiB of headers are fine");
    let (st, _) = raw(&mut connect_from([127, 0, 0, 1], addr).await, &header(100 * 1024)).await;
    assert_eq!(st, 431);
}

/// Create a game as the client at `ip` (behind a proxy that names it in `X-Forwarded-For`); the status.
async fn create_as(app: &axum::Router, ip: &str) -> StatusCode {
    use axum::body::Body;
    use tower::ServiceExt;
    let body = json!({ "seats": [{ "name": "Ana" }, { "name": "Bo" }] }).to_string();
    let req = axum::http::Request::post("/api/games")
        .header("content-type", "application/json")
        .header("x-forwarded-for", ip)
        .body(Body::from(body))
        .unwrap();
    app.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test]
async fn r37_ipv6_addresses_are_counted_by_their_network() {
    let db = sqlite();
    let server = Server::open_with(&db.url, Limits { creates_per_minute: 10, trust_proxy: true, ..Limits::default() })
        .await
        .unwrap();
    let app = server.router();
    let mut created = 0;
    for i in 0..25 {
        created += usize::from(create_as(&app, &format!("2001:db8:1:2::{i:x}")).await == StatusCode::CREATED);
    }
    assert_eq!(created, 10, "25 addresses of one /64 share its limit");
    assert_eq!(create_as(&app, "2001:db8:1:3::1").await, StatusCode::CREATED, "another /64 is not held back");
    // An IPv4 address written as IPv6 is that IPv4 address.
    for _ in 0..10 {
        assert_eq!(create_as(&app, "192.0.2.7").await, StatusCode::CREATED);
    }
    assert_eq!(create_as(&app, "::ffff:192.0.2.7").await, StatusCode::TOO_MANY_REQUESTS);
    // The prefix is the operator's to choose.
    let db = sqlite();
    let server = Server::open_with(
        &db.url,
        Limits { creates_per_minute: 1, trust_proxy: true, ipv6_prefix: 128, ..Limits::default() },
    )
    .await
    .unwrap();
    let app = server.router();
    assert_eq!(create_as(&app, "2001:db8::1").await, StatusCode::CREATED);
    assert_eq!(create_as(&app, "2001:db8::2").await, StatusCode::CREATED);
}
