//! The browser table's files (`crates/server/web`), embedded in the binary at build time. `/` and `/play/{id}` serve
//! the page; `/assets/…` its scripts and styles. For work on the table, `CARC_WEB_DIR=crates/server/web carc serve`
//! reads the same files from disk instead, so a page reload shows an edit without a rebuild (only names that are
//! embedded are served, so nothing else on the disk can be reached).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The file `path` of the table, or 404.
fn file(path: &str) -> Response {
    let Some((name, bytes)) = ASSETS.iter().find(|(n, _)| *n == path) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let body: Vec<u8> = match std::env::var_os("CARC_WEB_DIR") {
        Some(dir) => std::fs::read(std::path::Path::new(&dir).join(name)).unwrap_or_else(|_| bytes.to_vec()),
        None => bytes.to_vec(),
    };
    ([(header::CONTENT_TYPE, mime(name)), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// docs/rules.md, for the rules pages.
pub(crate) async fn rules_md() -> Response {
    ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], RULES_MD).into_response()
}

/// The names of the example games (docs/examples).
pub(crate) async fn examples() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({ "examples": EXAMPLES.iter().map(|(n, _)| *n).collect::<Vec<_>>() }))
}

/// `?at=N`: a position in an example game.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct AtQuery {
    #[serde(default)]
    at: Option<usize>,
}

/// An example game replayed to its action `at` (default: the end): the table as a spectator sees it, the tile kinds
/// to draw it with, and its number of actions.
pub(crate) async fn example(
    Path(name): Path<String>,
    axum::extract::Query(q): axum::extract::Query<AtQuery>,
) -> Result<axum::Json<serde_json::Value>, crate::error::ApiError> {
    use crate::error::ApiError;
    let (_, text) =
        EXAMPLES.iter().find(|(n, _)| *n == name).ok_or_else(|| ApiError::NotFound(name.chars().take(40).collect()))?;
    let mut record = carcassonne::Record::from_json(text).map_err(|e| ApiError::Unavailable(e.to_string()))?;
    let total = record.actions.len();
    record.actions.truncate(q.at.unwrap_or(total).min(total));
    let r = record.replay().map_err(|e| ApiError::Unavailable(e.to_string()))?;
    Ok(axum::Json(serde_json::json!({
        "name": name,
        "total": total,
        "at": record.actions.len(),
        "last": record.actions.last(),
        "game": crate::room::game_view(&r.game, None),
        "tiles": carcassonne::report::tiles_json(r.game.catalogue()),
    })))
}

/// The page: `/`, and `/play/{id}` (an invite link).
pub(crate) async fn page() -> Response {
    file("index.html")
}

/// A script, a style or an image of the page.
pub(crate) async fn asset(Path(path): Path<String>) -> Response {
    file(&path)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_is_embedded() {
        let names: Vec<&str> = super::ASSETS.iter().map(|(n, _)| *n).collect();
        assert!(names.contains(&"index.html"), "{names:?}");
        assert!(super::RULES_MD.contains("DRAGON-07"));
        assert!(super::EXAMPLES.iter().any(|(n, _)| *n == "princess-and-dragon"));
        assert_eq!(super::mime("app.js"), "text/javascript; charset=utf-8");
    }
}
