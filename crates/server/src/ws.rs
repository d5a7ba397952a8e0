//! The WebSocket of a game: `GET /api/games/{id}/ws`. A seat names itself by offering the subprotocols `carc.v1`
//! and `token.<its token>` (a browser: `new WebSocket(url, ["carc.v1", "token." + token])`), so the token is never
//! part of a URL that proxies and logs keep; without a token the socket is a spectator's. The server sends
//! `{"type": "view", "view": …}` on connecting, then `{"type": "update", "cause", "version", "actions", "events",
//! "view"}` for every change, each view the connection's own (what its seat may see), and `{"type": "chat",
//! "message": …}` for every message written in the game's chat.
//!
//! A spectator's message for a change is worked out once and shared by every spectator socket. Sockets are capped
//! per game and per address (`--sockets-per-game`, `--sockets-per-address`).

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use carcassonne::Player;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::api::seat_by_token;
use crate::error::ApiError;
use crate::guard::Client;
use crate::{AppState, Handle, Update};

/// The subprotocol the server speaks.
pub(crate) const PROTOCOL: &str = "carc.v1";

/// The token offered as a subprotocol `token.<token>`, if any.
fn offered_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix("token.").map(str::to_string))
}

/// A socket counted against its game's and its address's caps while it lives.
struct Slot {
    state: Arc<AppState>,
    handle: Arc<Handle>,
    addr: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.handle.sockets.fetch_sub(1, Ordering::AcqRel);
        if let Some(ip) = self.addr
            && let Ok(mut by) = self.state.sockets_by_address.lock()
            && let Some(n) = by.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                by.remove(&ip);
            }
        }
    }
}

/// Take a place for a socket of game `h` from `addr`, or say which cap is reached (429).
fn take_slot(s: &Arc<AppState>, h: &Arc<Handle>, addr: Option<IpAddr>) -> Result<Slot, ApiError> {
    if h.sockets.fetch_add(1, Ordering::AcqRel) >= s.limits.sockets_per_game {
        h.sockets.fetch_sub(1, Ordering::AcqRel);
        return Err(ApiError::Busy(format!(
            "this game has {} sockets open: watch it later",
            s.limits.sockets_per_game
        )));
    }
    let mut slot = Slot { state: Arc::clone(s), handle: Arc::clone(h), addr: None };
    if let Some(ip) = addr {
        let mut by = s.sockets_by_address.lock().map_err(|_| ApiError::Internal("the socket table failed".into()))?;
        let n = by.entry(ip).or_insert(0);
        if *n >= s.limits.sockets_per_address {
            return Err(ApiError::Busy(format!("an address may keep {} sockets open", s.limits.sockets_per_address)));
        }
        *n += 1;
        slot.addr = Some(ip);
    }
    Ok(slot)
}

pub(crate) async fn upgrade(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    client: Client,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let h = s.handle(&id).await?;
    let seat = match offered_token(&headers) {
        Some(t) => Some(seat_by_token(&*h.room.lock().await, &t)?),
        None => None,
    };
    let slot = take_slot(&s, &h, client.0)?;
    Ok(ws.protocols([PROTOCOL]).max_message_size(4 * 1024).on_upgrade(move |socket| session(slot, seat, socket)))
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

async fn session(slot: Slot, seat: Option<Player>, socket: WebSocket) {
    let h = Arc::clone(&slot.handle);
    let mut updates = h.updates.subscribe();
    let (mut tx, mut rx) = socket.split();
    let hello = json!({ "type": "view", "view": h.room.lock().await.view(seat) });
    if tx.send(Message::Text(hello.to_string().into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            msg = rx.next() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                // Pings are answered by the library; anything else the client sends is ignored.
                Some(Ok(_)) => {}
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
                if tx.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
        }
    }
}
