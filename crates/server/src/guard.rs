//! What every request passes through before a route sees it: who the client is (for the per-address limits), that a
//! body is JSON, and the headers that keep other sites from using the page.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;

/// The client's address as the per-address limits count it ([`crate::address_key`]: an IPv6 address by its network):
/// the connection's peer, or with `--trust-proxy` the last address a proxy in front added to `X-Forwarded-For`.
/// `None` when neither is known (a router called in process).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Client(pub Option<IpAddr>);

impl FromRequestParts<Arc<AppState>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, s: &Arc<AppState>) -> Result<Client, Self::Rejection> {
        if s.limits.trust_proxy
            && let Some(ip) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back()
        {
            return Ok(Client(Some(crate::address_key(ip, s.limits.ipv6_prefix))));
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        Ok(Client(peer.map(|ip| crate::address_key(ip, s.limits.ipv6_prefix))))
    }
}

/// Spend one of the address's creations for this minute, or 429.
pub(crate) fn spend_creation(s: &AppState, client: Client) -> Result<(), ApiError> {
    let Some(ip) = client.0 else { return Ok(()) };
    s.create_rate.check_key(&ip).map_err(|_| {
        ApiError::Busy(format!(
            "an address may create {} games (or take seats) a minute: try again in a moment",
            s.limits.creates_per_minute
        ))
    })
}

/// A body sent to the API must be `application/json`: browsers send other types (`text/plain`, forms) from any
/// site without asking, so accepting them would let another site create games or take seats in a visitor's name.
pub(crate) async fn json_bodies(req: Request, next: Next) -> Response {
    if req.method() == Method::POST && req.uri().path().starts_with("/api/") {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return ApiError::UnsupportedType.into_response();
        }
    }
    next.run(req).await
}

/// The page may run only its own scripts, be framed by nobody, and have its types taken as sent.
pub(crate) async fn security_headers(req: Request, next: Next) -> Response {
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
             connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    resp
}
