//! What the server's integration tests share: a database for each test (a fresh SQLite file, or the PostgreSQL
//! server of `CARC_TEST_POSTGRES`), and calls to the router without a socket.
#![allow(dead_code, unreachable_pub)]

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// A database for one test: a fresh SQLite file, or a fresh schema-less PostgreSQL database.
pub struct Db {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

pub fn sqlite() -> Db {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("games.sqlite").to_str().unwrap().to_string();
    Db { url, _dir: Some(dir) }
}

/// The PostgreSQL server of `CARC_TEST_POSTGRES`, emptied; `None` when the variable is not set (unless
/// `CARC_REQUIRE_POSTGRES` is, as in CI: then its absence fails the test).
pub async fn postgres() -> Option<Db> {
    let Ok(url) = std::env::var("CARC_TEST_POSTGRES") else {
        assert!(
            std::env::var("CARC_REQUIRE_POSTGRES").is_err(),
            "CARC_REQUIRE_POSTGRES is set but CARC_TEST_POSTGRES is not"
        );
        eprintln!("CARC_TEST_POSTGRES is not set: the PostgreSQL half of this test is skipped");
        return None;
    };
    let pool = sqlx::PgPool::connect(&url).await.expect("the test PostgreSQL server is reachable");
    for t in ["chat", "actions", "seats", "games", "_sqlx_migrations"] {
        sqlx::query(&format!("DROP TABLE IF EXISTS {t} CASCADE")).execute(&pool).await.unwrap();
    }
    pool.close().await;
    Some(Db { url, _dir: None })
}

/// Tests that touch PostgreSQL share one database: one at a time.
pub static PG_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub async fn call(
    app: &Router,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let resp = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, v)
}

pub async fn get(app: &Router, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(app, Method::GET, uri, token, None).await
}

pub async fn post(app: &Router, uri: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    call(app, Method::POST, uri, token, Some(body)).await
}

/// Create a game; returns its id and each seat's token (`None` for bots and open seats).
pub async fn create(app: &Router, body: Value) -> (String, Vec<Option<String>>) {
    let (st, v) = post(app, "/api/games", None, body).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let tokens = v["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().map(String::from)).collect();
    (id, tokens)
}

/// Wait until a game is finished (bots playing), or fail after `secs`.
pub async fn finished(app: &Router, id: &str, secs: u64) -> Value {
    let t = std::time::Instant::now();
    loop {
        let (_, v) = get(app, &format!("/api/games/{id}"), None).await;
        if v["status"] == "finished" {
            return v;
        }
        assert!(t.elapsed() < Duration::from_secs(secs), "the bots did not finish in {secs} s: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Wait until a game is at version `want` (seen through `app`), or fail after 10 s.
pub async fn wait_for_version(app: &Router, url: &str, token: Option<&str>, want: u64) -> Value {
    let t = std::time::Instant::now();
    loop {
        let (_, v) = get(app, url, token).await;
        if v["version"].as_u64() == Some(want) {
            return v;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "the change never reached this instance: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
