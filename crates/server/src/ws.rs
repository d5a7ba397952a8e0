//! The WebSocket of a game: `GET /api/games/{id}/ws?token=…` for a seat, without a token for a spectator. The server
//! sends `{"type": "view", "view": …}` on connecting, then `{"type": "update", "cause", "version", "actions",
//! "events", "view"}` for every change, each view the connection's own (what its seat may see).

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use carcassonne::Player;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::api::seat_by_token;
use crate::error::ApiError;
use crate::{AppState, Handle};

#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
}

pub(crate) async fn upgrade(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let h = s.handle(&id).await?;
    let seat = match &q.token {
        Some(t) => Some(seat_by_token(&*h.room.lock().await, t)?),
        None => None,
    };
    Ok(ws.max_message_size(64 * 1024).on_upgrade(move |socket| session(h, seat, socket)))
}

async fn session(h: Arc<Handle>, seat: Option<Player>, socket: WebSocket) {
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
                let msg = match u {
                    Ok(u) => json!({
                        "type": "update",
                        "cause": u.cause,
                        "version": u.version,
                        "actions": u.actions,
                        "events": u.events,
                        "view": h.room.lock().await.view(seat),
                    }),
                    // Too slow to keep up: the current view says everything.
                    Err(RecvError::Lagged(_)) => json!({ "type": "view", "view": h.room.lock().await.view(seat) }),
                    Err(RecvError::Closed) => return,
                };
                if tx.send(Message::Text(msg.to_string().into())).await.is_err() {
                    return;
                }
            }
        }
    }
}
