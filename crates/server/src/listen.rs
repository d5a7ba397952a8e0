//! Serving the routes over TCP with every connection bounded: at most so many connections in all and per address
//! (past that a new one is closed at once, so idle connections cannot use up the file descriptors that `/health` and
//! the players need; a connection upgraded to a WebSocket keeps its place until the socket closes), a deadline for a
//! request's headers that is also how long a kept-alive connection may sit idle, at most [`MAX_HEADER_BYTES`] of
//! headers (`431` past that), and a graceful stop on Ctrl-C or SIGTERM.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{Limits, MAX_HEADER_BYTES, Server};

/// Connections open, per address.
type Counts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A connection counted against its address's cap while it lives.
struct AddressSlot {
    counts: Counts,
    ip: IpAddr,
}

impl AddressSlot {
    fn take(counts: &Counts, ip: IpAddr, cap: usize) -> Option<AddressSlot> {
        let mut c = counts.lock().ok()?;
        let n = c.entry(ip).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(AddressSlot { counts: Arc::clone(counts), ip })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut c) = self.counts.lock()
            && let Some(n) = c.get_mut(&self.ip)
        {
            *n -= 1;
            if *n == 0 {
                c.remove(&self.ip);
            }
        }
    }
}

/// A connection's places in the caps (in all, and its address's), held while it is open and, once it is upgraded to
/// a WebSocket, while the socket is: every request carries it, and the socket's task keeps a clone.
#[derive(Clone)]
pub(crate) struct ConnectionPlace(#[allow(dead_code)] Arc<(OwnedSemaphorePermit, AddressSlot)>);

impl std::fmt::Debug for ConnectionPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionPlace").finish_non_exhaustive()
    }
}

/// Serve `server` on `listener` until Ctrl-C (or SIGTERM), within the server's [`Limits`]: connections in all and
/// per address, and the header (and idle) deadline. On stopping, new connections are refused and the open ones get
/// up to ten seconds to finish their requests.
///
/// # Errors
/// Never today: a failed `accept` (out of file descriptors, say) is logged and retried.
pub async fn serve(listener: TcpListener, server: Server) -> std::io::Result<()> {
    serve_until(listener, server, shutdown()).await
}

/// [`serve`] until `stop` completes.
///
/// # Errors
/// As [`serve`].
pub async fn serve_until(
    listener: TcpListener,
    server: Server,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let limits: Limits = server.limits().clone();
    let app = server.router();
    // Told to every connection when the server stops; each one's task ends when it has finished.
    let (stopping, _) = tokio::sync::watch::channel(false);
    let tasks = tokio_util::task::TaskTracker::new();
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let counts: Counts = Arc::default();
    let mut refused: u64 = 0;
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            refused += 1;
            if refused.is_power_of_two() {
                tracing::warn!(refused, max = limits.max_connections, "too many connections: refusing new ones");
            }
            continue;
        };
        let key = crate::address_key(peer.ip(), limits.ipv6_prefix);
        let Some(slot) = AddressSlot::take(&counts, key, limits.connections_per_address) else {
            refused += 1;
            if refused.is_power_of_two() {
                tracing::warn!(refused, address = %peer.ip(), "too many connections from one address");
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let place = ConnectionPlace(Arc::new((permit, slot)));
        let held = place.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            req.extensions_mut().insert(held.clone());
            tower::Service::call(&mut app.clone(), req.map(axum::body::Body::new))
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .max_buf_size(MAX_HEADER_BYTES)
            .keep_alive(true)
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = stopping.subscribe();
        tasks.spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    // Finish the request under way, then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(place);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    tasks.close();
    tokio::select! {
        () = tasks.wait() => {}
        () = tokio::time::sleep(Duration::from_secs(10)) => tracing::warn!("some connections did not finish in time"),
    }
    Ok(())
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutting down");
}
