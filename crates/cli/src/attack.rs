//! `carc loadtest --attack`: the abuses a public server must stand (docs/server-api.md, "Running it in public"), run
//! in windows against the load test's own server on loopback, each bounded in count and time. Every attacker comes
//! from loopback addresses of its own (127.0.0.2…, all this machine), as a visitor's connections would, while the
//! people of the load test play from 127.0.0.1; an attacker's HTTP requests name one address of their own in
//! `X-Forwarded-For`, as they would arrive through the TLS proxy in front.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// What the attackers counted.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Idle connections opened, and closed by the server at once (past the address's cap).
    pub idle_opened: AtomicU64,
    pub idle_refused: AtomicU64,
    /// Connections sending their headers a byte at a time, closed by the header deadline.
    pub slow_closed: AtomicU64,
    /// A `Content-Length` far over the limit: answered 413, and how long the slowest answer took (ms).
    pub oversized_413: AtomicU64,
    pub oversized_slowest_ms: AtomicU64,
    /// Games created by one address: accepted, refused with 429.
    pub creates_ok: AtomicU64,
    pub creates_429: AtomicU64,
    /// Hints asked: answered, refused with 429, refused with 400 (a spec outside the fixed levels).
    pub hints_ok: AtomicU64,
    pub hints_429: AtomicU64,
    pub hints_400: AtomicU64,
    /// Past views read (the replay of a long game), and requests that failed outright.
    pub past_views: AtomicU64,
    pub failed: AtomicU64,
    /// Spectator sockets opened and never read, and refused (past the address's cap).
    pub sockets_open: AtomicU64,
    pub sockets_refused: AtomicU64,
}

impl Tally {
    pub(crate) fn json(&self) -> Value {
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        json!({
            "idle_connections": { "opened": g(&self.idle_opened), "closed_at_once": g(&self.idle_refused) },
            "slow_headers_closed": g(&self.slow_closed),
            "oversized_bodies": { "refused_413": g(&self.oversized_413), "slowest_ms": g(&self.oversized_slowest_ms) },
            "creations": { "accepted": g(&self.creates_ok), "refused_429": g(&self.creates_429) },
            "hints": { "answered": g(&self.hints_ok), "refused_429": g(&self.hints_429), "refused_400": g(&self.hints_400) },
            "past_views_read": g(&self.past_views),
            "spectator_sockets": { "opened": g(&self.sockets_open), "refused": g(&self.sockets_refused) },
            "failed_requests": g(&self.failed),
        })
    }
}

/// A connection to the server from the loopback address 127.0.0.`host`.
fn connect_from(host: u8, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((Ipv4Addr::new(127, 0, 0, host), 0)).into())?;
    socket.connect_timeout(&server.into(), Duration::from_secs(5))?;
    Ok(socket.into())
}

/// One request on a fresh connection from 127.0.0.`host`: its status (0 if there was no answer).
fn request(host: u8, server: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> u16 {
    let Ok(mut s) = connect_from(host, server) else { return 0 };
    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: carc\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(text.as_bytes()).is_err() {
        return 0;
    }
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// Whether the server closed `s` within `wait` (a read gives end of file or fails other than by timing out).
fn closed(s: &mut TcpStream, wait: Duration) -> bool {
    let _ = s.set_read_timeout(Some(wait));
    let mut b = [0u8; 16];
    match s.read(&mut b) {
        Ok(n) => n == 0,
        Err(e) => !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
    }
}

/// The attackers: they abuse the server while `active` says a window is open, until `stop`.
pub(crate) struct Attack {
    pub server: SocketAddr,
    /// A game of the attacker's own (a person against a bot) and its seat's token, for hints.
    pub own_game: String,
    pub own_token: String,
    /// A long game to replay past views of, and its number of actions.
    pub long_game: String,
    pub long_actions: usize,
    /// A person's game, for spectator sockets.
    pub watched_game: String,
    pub active: Arc<AtomicBool>,
    pub stop: Arc<AtomicBool>,
    pub tally: Arc<Tally>,
}

impl Attack {
    fn wait_for_window(&self) -> bool {
        while !self.active.load(Ordering::Relaxed) {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        !self.stop.load(Ordering::Relaxed)
    }

    /// Start every attacker on its own thread.
    pub(crate) fn start(self) -> Vec<std::thread::JoinHandle<()>> {
        let me = Arc::new(self);
        let jobs: Vec<fn(&Attack)> = vec![
            Attack::idle_flood,
            Attack::slow_headers,
            Attack::oversized,
            Attack::creations,
            Attack::hints,
            Attack::past_views,
            Attack::past_views,
            Attack::spectators,
        ];
        jobs.into_iter()
            .map(|job| {
                let me = Arc::clone(&me);
                std::thread::spawn(move || job(&me))
            })
            .collect()
    }

    /// 1,100 connections that send nothing, from one address, held open while the window lasts.
    fn idle_flood(&self) {
        while self.wait_for_window() {
            let mut held = Vec::new();
            for _ in 0..1_100 {
                if let Ok(s) = connect_from(2, self.server) {
                    held.push(s);
                    self.tally.idle_opened.fetch_add(1, Ordering::Relaxed);
                }
            }
            for s in &mut held {
                if closed(s, Duration::from_millis(2)) {
                    self.tally.idle_refused.fetch_add(1, Ordering::Relaxed);
                }
            }
            while self.active.load(Ordering::Relaxed) && !self.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Twenty connections sending a request's headers a byte every half second.
    fn slow_headers(&self) {
        while self.wait_for_window() {
            let mut conns: Vec<TcpStream> = (0..20).filter_map(|_| connect_from(3, self.server).ok()).collect();
            let header = b"GET /health HTTP/1.1\r\nHost: carc\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
            let t = Instant::now();
            let mut i = 0;
            while !conns.is_empty() && t.elapsed() < Duration::from_secs(30) && !self.stop.load(Ordering::Relaxed) {
                let byte = [header[i % header.len()]];
                conns.retain_mut(|c| {
                    let gone = c.write_all(&byte).is_err() || closed(c, Duration::from_millis(1));
                    if gone {
                        self.tally.slow_closed.fetch_add(1, Ordering::Relaxed);
                    }
                    !gone
                });
                i += 1;
                std::thread::sleep(Duration::from_millis(500));
            }
        }
    }

    /// A body declared 999,999,999 bytes long, of which two are sent.
    fn oversized(&self) {
        while self.wait_for_window() {
            let Ok(mut s) = connect_from(4, self.server) else { continue };
            let t = Instant::now();
            let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
            let _ = s.write_all(
                b"POST /api/games HTTP/1.1\r\nHost: carc\r\nContent-Type: application/json\r\n\
                  Content-Length: 999999999\r\n\r\n{}",
            );
            let mut answer = [0u8; 64];
            let n = s.read(&mut answer).unwrap_or(0);
            if String::from_utf8_lossy(&answer[..n]).contains(" 413 ") {
                self.tally.oversized_413.fetch_add(1, Ordering::Relaxed);
            }
            self.tally.oversized_slowest_ms.fetch_max(t.elapsed().as_millis() as u64, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Games created as fast as one address can.
    fn creations(&self) {
        let body = json!({ "seats": [{ "name": "spam" }, { "name": "spam" }] }).to_string();
        let headers = "Content-Type: application/json\r\nX-Forwarded-For: 203.0.113.66\r\n";
        while self.wait_for_window() {
            match request(5, self.server, "POST", "/api/games", headers, &body) {
                201 => self.tally.creates_ok.fetch_add(1, Ordering::Relaxed),
                429 => self.tally.creates_429.fetch_add(1, Ordering::Relaxed),
                _ => self.tally.failed.fetch_add(1, Ordering::Relaxed),
            };
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Hints of the strongest level and of specs meant to overflow a bot, asked over and over.
    fn hints(&self) {
        let auth = format!("Authorization: Bearer {}\r\n", self.own_token);
        let specs = ["hard", "mcts:time=1e19s", "mcts:time=20s,threads=16", "hard"];
        let mut i = 0;
        while self.wait_for_window() {
            let path = format!("/api/games/{}/hint?bot={}", self.own_game, specs[i % specs.len()]);
            match request(7, self.server, "GET", &path, &auth, "") {
                200 => self.tally.hints_ok.fetch_add(1, Ordering::Relaxed),
                429 => self.tally.hints_429.fetch_add(1, Ordering::Relaxed),
                400 => self.tally.hints_400.fetch_add(1, Ordering::Relaxed),
                403 => 0, // not this seat's decision at that moment
                _ => self.tally.failed.fetch_add(1, Ordering::Relaxed),
            };
            i += 1;
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The last positions of a long game, replayed again and again.
    fn past_views(&self) {
        while self.wait_for_window() {
            let path = format!("/api/games/{}/view?at={}", self.long_game, self.long_actions);
            match request(8, self.server, "GET", &path, "", "") {
                200 => self.tally.past_views.fetch_add(1, Ordering::Relaxed),
                _ => self.tally.failed.fetch_add(1, Ordering::Relaxed),
            };
        }
    }

    /// Spectator sockets on a person's game that never read what they are sent, a hundred from one address.
    fn spectators(&self) {
        while self.wait_for_window() {
            let mut held = Vec::new();
            for i in 0..100u32 {
                let Ok(mut s) = connect_from(9, self.server) else { continue };
                let key = format!("dGhlIHNhbXBsZSBub25jZQ{:02}==", i % 100);
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let hello = format!(
                    "GET /api/games/{}/ws HTTP/1.1\r\nHost: carc\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                     Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Protocol: carc.v1\r\n\r\n",
                    self.watched_game
                );
                let _ = s.write_all(hello.as_bytes());
                let mut answer = [0u8; 12];
                let n = s.read(&mut answer).unwrap_or(0);
                if String::from_utf8_lossy(&answer[..n]).contains("101") {
                    self.tally.sockets_open.fetch_add(1, Ordering::Relaxed);
                    held.push(s);
                } else {
                    self.tally.sockets_refused.fetch_add(1, Ordering::Relaxed);
                }
            }
            while self.active.load(Ordering::Relaxed) && !self.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// The resident memory of this process (the server runs in it), in MB, where the system tells it.
pub(crate) fn rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 =
        status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb / 1024.0)
}
