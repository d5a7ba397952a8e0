//! The WebSocket of a game: `GET /api/games/{id}/ws`. A seat names itself by offering the subprotocols `carc.v1`
//! and `token.<its token>` (a browser: `new WebSocket(url, ["carc.v1", "token." + token])`), so the token is never
//! part of a URL that proxies and logs keep; without a token the socket is a spectator's. The server sends
//! `{"type": "view", "view": …}` on connecting, then `{"type": "update", "cause", "version", "actions", "events",
//! "view"}` for every change, each view the connection's own (what its seat may see), and `{"type": "chat",
//! "message": …}` for every message written in the game's chat.
//!
//! A spectator's message for a change is worked out once and shared by every spectator socket. Who gets in is
//! [`crate::sockets`]'s to say: spectators are capped per game and per address (`--sockets-per-game`,
//! `--sockets-per-address`), a seat always gets in. Every socket is pinged every `--socket-ping`; one that has sent
//! nothing (no pong either) for `--socket-timeout`, or has not taken the server's message in that long, is closed.

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use carcassonne::Player;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::api::seat_by_token;
use crate::error::ApiError;
use crate::guard::Client;
use crate::listen::ConnectionPlace;
use crate::{AppState, Handle, Update};
use tokio_util::sync::CancellationToken;

/// The subprotocol the server speaks.
pub(crate) const PROTOCOL: &str = "carc.v1";

/// The tokens offered as subprotocols `token.<token>`.
fn offered_tokens(headers: &HeaderMap) -> Vec<&str> {
    headers
        .get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|p| p.trim().strip_prefix("token."))
        .collect()
}

/// A socket's place in the server's table while it lives.
struct Place {
    state: Arc<AppState>,
    id: u64,
    /// Cancelled when the socket must make room for a seat's.
    close: CancellationToken,
    /// Its connection's place in the connection caps, held while the socket is open.
    _connection: Option<ConnectionPlace>,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Ok(mut t) = self.state.sockets.lock() {
            t.release(self.id);
        }
    }
}

pub(crate) async fn upgrade(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    client: Client,
    connection: Option<Extension<ConnectionPlace>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let h = s.handle(&id).await?;
    let seat = match offered_tokens(&headers)[..] {
        [] => None,
        [t] => Some(seat_by_token(&*h.room.lock().await, t)?),
        _ => return Err(ApiError::BadRequest("offer one seat's token, not several".into())),
    };
    let (place, close) = s
        .sockets
        .lock()
        .map_err(|_| ApiError::Internal("the socket table failed".into()))?
        .admit(&s.limits, &h.id, seat, client.0)
        .map_err(|e| ApiError::Busy(e.to_string()))?;
    let place = Place { state: Arc::clone(&s), id: place, close, _connection: connection.map(|c| c.0) };
    Ok(ws.protocols([PROTOCOL]).max_message_size(4 * 1024).on_upgrade(move |socket| session(place, h, seat, socket)))
}

/// What a socket is sent for an update: a spectator's message is built once per update, for every spectator.
async fn message(h: &Handle, u: &Update, seat: Option<Player>) -> Utf8Bytes {
    let build = || async {
        let view = h.room.lock().await.view(seat);
        let msg = json!({
            "type": "update",
            "cause": u.cause,
            "version": u.version,
            "actions": u.actions,
            "events": u.events,
            "view": view,
        });
        Utf8Bytes::from(msg.to_string())
    };
    if let Some(line) = &u.chat {
        // A chat message is the same for every socket, and carries no view.
        let build = || async { Utf8Bytes::from(json!({ "type": "chat", "message": line }).to_string()) };
        return u.spectators.get_or_init(build).await.clone();
    }
    match seat {
        Some(_) => build().await,
        None => u.spectators.get_or_init(build).await.clone(),
    }
}

/// Send `msg`, or give up after `within` (a client that does not read).
async fn send(tx: &mut SplitSink<WebSocket, Message>, msg: Message, within: Duration) -> bool {
    matches!(tokio::time::timeout(within, tx.send(msg)).await, Ok(Ok(())))
}

async fn session(place: Place, h: Arc<Handle>, seat: Option<Player>, socket: WebSocket) {
    let limits = &place.state.limits;
    let (ping_every, timeout) = (limits.socket_ping, limits.socket_timeout);
    let mut updates = h.updates.subscribe();
    let (mut tx, mut rx) = socket.split();
    let hello = json!({ "type": "view", "view": h.room.lock().await.view(seat) });
    if !send(&mut tx, Message::Text(hello.to_string().into()), timeout).await {
        return;
    }
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = place.close.cancelled() => {
                let bye = CloseFrame { code: 4000, reason: "a seat's socket took this one's place".into() };
                let _ = send(&mut tx, Message::Close(Some(bye)), timeout).await;
                return;
            }
            _ = pings.tick() => {
                if heard.elapsed() >= timeout || !send(&mut tx, Message::Ping(Bytes::new()), timeout).await {
                    return;
                }
            }
            msg = rx.next() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                // Pongs and pings (answered by the library) say the client is there; anything else is ignored.
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
            u = updates.recv() => {
                let text = match u {
                    Ok(u) => message(&h, &u, seat).await,
                    // Too slow to keep up: the current view says everything.
                    Err(RecvError::Lagged(_)) => {
                        json!({ "type": "view", "view": h.room.lock().await.view(seat) }).to_string().into()
                    }
                    Err(RecvError::Closed) => return,
                };
                if !send(&mut tx, Message::Text(text), timeout).await {
                    return;
                }
            }
        }
    }
}
