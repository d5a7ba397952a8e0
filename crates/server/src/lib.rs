//! The Carcassonne game server behind `carc serve`: durable games (SQLite by default, or PostgreSQL), seats with
//! secret tokens, bots on a bounded pool of threads, and an HTTP and WebSocket API (docs/server-api.md).
//!
//! The server is authoritative: it holds the game, makes the draws, checks every action with the engine, and sends
//! each seat only what that seat may see, with its legal actions. A client knows no rules.
//!
//! # Example
//! A server on a temporary SQLite file, asked for its health without opening a socket:
//! ```
//! use axum::body::Body;
//! use axum::http::Request;
//! use tower::ServiceExt;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let dir = std::env::temp_dir().join(format!("carc-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let server = carcassonne_server::Server::open(dir.join("games.sqlite").to_str().unwrap(), 1).await.unwrap();
//! let response = server.router().oneshot(Request::get("/health").body(Body::empty()).unwrap()).await.unwrap();
//! assert!(response.status().is_success());
//! # std::fs::remove_dir_all(&dir).ok();
//! # });
//! ```

#![deny(missing_docs)]

mod api;
mod bots;
mod chat;
mod error;
mod guard;
mod limits;
mod listen;
mod room;
mod sockets;
mod standing;
mod store;
mod text;
mod token;
mod views;
mod web;
mod ws;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex, RwLock};

use carcassonne::{Player, Setup};
use carcassonne_ai::{Bot, BotSpec};
use serde_json::Value;
use tokio::sync::{Mutex, broadcast};

use crate::bots::{BotPool, Lane, ThinkError};
use crate::error::ApiError;
pub use crate::limits::{Limits, MAX_HEADER_BYTES, SOCKETS_PER_SEAT, address_key};
pub use crate::listen::{serve, serve_until};
use crate::room::{Change, Room, Saved, Seat};
pub use crate::store::{Store, StoreError};
use crate::store::{StoredGame, StoredSeat};

/// A change pushed to every WebSocket of a game.
#[derive(Clone, Debug)]
pub(crate) struct Update {
    /// `action`, `take_back`, `confirm`, `seats`, `settings`, `sync` or `chat`.
    pub cause: &'static str,
    /// The version after the change.
    pub version: usize,
    /// The actions added.
    pub actions: Vec<String>,
    /// Their events, as everyone may see them.
    pub events: Vec<Value>,
    /// A chat message (cause `chat`): the same for every socket, and no view with it.
    pub chat: Option<chat::ChatLine>,
    /// The message every spectator socket is sent for it, worked out by the first that needs it.
    pub spectators: tokio::sync::OnceCell<axum::extract::ws::Utf8Bytes>,
}

impl Update {
    /// An update of `cause` at `version`, adding `actions` with their `events`.
    pub(crate) fn new(cause: &'static str, version: usize, actions: Vec<String>, events: Vec<Value>) -> Arc<Update> {
        Arc::new(Update { cause, version, actions, events, chat: None, spectators: tokio::sync::OnceCell::new() })
    }

    /// A chat message written at `version`.
    pub(crate) fn chat(version: usize, line: chat::ChatLine) -> Arc<Update> {
        Arc::new(Update {
            cause: "chat",
            version,
            actions: Vec::new(),
            events: Vec::new(),
            chat: Some(line),
            spectators: tokio::sync::OnceCell::new(),
        })
    }
}

/// A seat's bot, shared between the game and the thread thinking for it.
pub(crate) type SharedBot = Arc<StdMutex<Box<dyn Bot>>>;

/// A game in memory: its room behind a lock, its bots and its subscribers.
pub(crate) struct Handle {
    /// The game's id.
    pub id: String,
    pub room: Mutex<Room>,
    pub updates: broadcast::Sender<Arc<Update>>,
    bots: Vec<Option<SharedBot>>,
    thinking: AtomicBool,
    /// A hint is being worked out (one at a time per game, so hints cannot crowd the bots out).
    pub hinting: AtomicBool,
    /// When it was last asked for (Unix seconds).
    touched: std::sync::atomic::AtomicI64,
    /// Spectators' views of past positions (`view?at=N`), by number of actions.
    past: StdMutex<Vec<(usize, axum::body::Bytes)>>,
    /// How many times the log was rewritten since it was loaded.
    rewrites: std::sync::atomic::AtomicU64,
}

/// How many past positions a game keeps the spectator's view of.
const PAST_VIEWS: usize = 16;

impl Handle {
    /// The kept view of the position after `at` actions, as JSON.
    pub(crate) fn past_view(&self, at: usize) -> Option<axum::body::Bytes> {
        let past = self.past.lock().ok()?;
        past.iter().find(|(n, _)| *n == at).map(|(_, b)| b.clone())
    }

    /// Keep the view of the position after `at` actions, worked out at `generation` (dropped if the log was rewritten
    /// since).
    pub(crate) fn keep_past_view(&self, at: usize, generation: u64, body: axum::body::Bytes) {
        if let Ok(mut past) = self.past.lock()
            && self.generation() == generation
        {
            if past.len() >= PAST_VIEWS {
                past.remove(0);
            }
            past.push((at, body));
        }
    }

    /// How many times the log was rewritten (a take-back, or a reload from the database).
    pub(crate) fn generation(&self) -> u64 {
        self.rewrites.load(Ordering::Acquire)
    }

    /// The log was rewritten: the kept past views may be wrong.
    fn forget_past(&self) {
        self.rewrites.fetch_add(1, Ordering::AcqRel);
        if let Ok(mut past) = self.past.lock() {
            past.clear();
        }
    }

    /// Note that the game was asked for now.
    fn touch(&self) {
        self.touched.store(store::now(), Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle").finish_non_exhaustive()
    }
}

/// A rate limit per key.
pub(crate) type KeyedLimiter<K> = governor::DefaultKeyedRateLimiter<K>;

/// What every request shares.
pub(crate) struct AppState {
    pub store: Store,
    games: RwLock<HashMap<String, Arc<Handle>>>,
    bots: BotPool,
    pub limits: Limits,
    /// Hints per (game, seat).
    pub hint_rate: KeyedLimiter<(String, u8)>,
    /// Chat messages per (game, seat).
    pub chat_rate: KeyedLimiter<(String, u8)>,
    /// Games created and seats taken, per address.
    pub create_rate: KeyedLimiter<std::net::IpAddr>,
    /// The WebSockets open, and who gets in.
    pub sockets: StdMutex<sockets::SocketTable>,
    /// Writes of games of bots only that may wait for the database at once.
    bot_writes: tokio::sync::Semaphore,
    /// Replays of past positions (`view?at=N`) running at once.
    pub replays: tokio::sync::Semaphore,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").field("store", &self.store).field("limits", &self.limits).finish_non_exhaustive()
    }
}

/// A quota of `n` a minute (at least one), spent one at a time.
fn per_minute(n: u32) -> governor::Quota {
    governor::Quota::per_minute(std::num::NonZeroU32::new(n.max(1)).unwrap_or(std::num::NonZeroU32::MIN))
}

/// The server: its database, its games in memory and its bot pool.
#[derive(Clone, Debug)]
pub struct Server {
    state: Arc<AppState>,
}

impl Server {
    /// Open the database (see [`Store::open`]), restore every unfinished game by replaying its log, and start the
    /// bots whose turn it is. `bot_threads` bounds how many bots think at once.
    ///
    /// # Errors
    /// When the database cannot be opened or migrated. A stored game that no longer replays is logged and skipped.
    pub async fn open(db: &str, bot_threads: usize) -> Result<Server, StoreError> {
        Server::open_with(db, Limits { bot_threads, ..Limits::default() }).await
    }

    /// [`Server::open`] with every limit given.
    ///
    /// # Errors
    /// When the database cannot be opened or migrated, or the bots' threads cannot be started.
    pub async fn open_with(db: &str, limits: Limits) -> Result<Server, StoreError> {
        let store = Store::open(db).await?;
        let bots = BotPool::new(limits.bot_threads, limits.hint_queue).map_err(StoreError::Threads)?;
        let state = Arc::new(AppState {
            store,
            games: RwLock::new(HashMap::new()),
            bots,
            hint_rate: governor::RateLimiter::keyed(per_minute(limits.hints_per_minute)),
            chat_rate: governor::RateLimiter::keyed(per_minute(limits.chat_per_minute)),
            create_rate: governor::RateLimiter::keyed(per_minute(limits.creates_per_minute)),
            sockets: StdMutex::new(sockets::SocketTable::default()),
            bot_writes: tokio::sync::Semaphore::new(2),
            replays: tokio::sync::Semaphore::new(1),
            limits,
        });
        // The running games with a bot at the table, so their bots play on; the others load when asked for.
        let ids = state.store.running_with_bots().await?;
        let mut restored = 0;
        for id in &ids {
            match state.load(id).await {
                Ok(Some(h)) => {
                    restored += 1;
                    state.kick(h);
                }
                Ok(None) => {}
                Err(e) => tracing::error!(game = %id, error = %e, "a stored game does not replay; skipped"),
            }
        }
        tokio::spawn(Arc::clone(&state).sweep());
        if let Some(listener) = state.store.listen().await? {
            tokio::spawn(Arc::clone(&state).follow(listener));
        }
        tracing::info!(db = state.store.kind(), restored, bot_threads = state.bots.threads(), "server ready");
        Ok(Server { state })
    }

    /// Bring a game in from a record (`carc import`): its setup, seed, stack and actions as they are, with a person
    /// on every seat except those given a bot spec in `bots` (seat order). Returns the game's id and each person's
    /// token, in seat order (`None` for bots).
    ///
    /// # Errors
    /// When the record does not replay, a bot spec does not read, or the database fails.
    pub async fn import(
        &self,
        record: &carcassonne::Record,
        names: &[Option<String>],
        bots: &[Option<String>],
    ) -> Result<(String, Vec<Option<String>>), String> {
        let replay = record.replay().map_err(|e| e.to_string())?;
        let n = record.setup.players as usize;
        let mut seats = Vec::new();
        let mut tokens = Vec::new();
        for i in 0..n {
            let bot = match bots.get(i).cloned().flatten() {
                Some(b) => Some(b.parse::<BotSpec>().map_err(|e| format!("P{}: {e}", i + 1))?),
                None => None,
            };
            let token = if bot.is_none() { Some(token::new_token().map_err(|e| e.to_string())?) } else { None };
            let name = match names.get(i).cloned().flatten() {
                Some(n) => n,
                None => numbered(
                    match &bot {
                        Some(b) => format!("{b} bot"),
                        None => format!("Player {}", i + 1),
                    },
                    seats.iter().map(|s: &Seat| s.name.as_str()),
                ),
            };
            seats.push(Seat {
                name,
                bot,
                open: false,
                token_hash: token.as_deref().map(token::hash),
                auto_confirm: false,
                colour: room::COLOURS[i % room::COLOURS.len()],
            });
            tokens.push(token);
        }
        let id = token::new_game_id().map_err(|e| e.to_string())?;
        let created_at =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        let room = Room::import(id.clone(), created_at, record.setup.clone(), seats, &replay.actions)?;
        let stored = stored_of(&room);
        reads_back(&room, &stored).map_err(|e| format!("this game could not be stored: {e}"))?;
        self.state.store.create(&stored).await.map_err(|e| e.to_string())?;
        if let Ok(mut games) = self.state.games.write() {
            games.insert(id.clone(), Arc::new(handle_of(room)));
        }
        Ok((id, tokens))
    }

    /// The HTTP routes (docs/server-api.md).
    pub fn router(&self) -> axum::Router {
        api::router(Arc::clone(&self.state))
    }

    /// What the server does every minute by itself: mark the games nobody has changed for `abandon_after` as
    /// abandoned, and let go of the games in memory nobody needs. Returns how many games were abandoned.
    pub async fn sweep(&self) -> usize {
        self.state.sweep_once().await
    }

    /// The limits it runs within.
    pub fn limits(&self) -> &Limits {
        &self.state.limits
    }

    /// How many games are in memory.
    pub fn games_loaded(&self) -> usize {
        self.state.games.read().map(|g| g.len()).unwrap_or(0)
    }
}

fn random_u64() -> u64 {
    token::random_bytes::<8>().map(u64::from_le_bytes).unwrap_or(0)
}

impl AppState {
    /// A game by id: in memory, or loaded from the database. `Ok(None)` if there is none.
    async fn load(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Handle>>, ApiError> {
        if let Some(h) = self.games.read().ok().and_then(|g| g.get(id).cloned()) {
            h.touch();
            return Ok(Some(h));
        }
        let Some(stored) = self.store.load(id).await? else { return Ok(None) };
        let room = room_of(stored).map_err(|e| {
            tracing::error!(game = %id, error = %e, "a stored game does not replay");
            ApiError::Unavailable(format!("game {id} cannot be played: it does not replay"))
        })?;
        let h = Arc::new(handle_of(room));
        let h = {
            let mut games =
                self.games.write().map_err(|_| ApiError::Unavailable("the game table is poisoned".into()))?;
            Arc::clone(games.entry(id.to_string()).or_insert(h))
        };
        // Its bots may be due to move (the server stopped while one was thinking).
        self.kick(Arc::clone(&h));
        Ok(Some(h))
    }

    /// A game by id, or 404.
    pub(crate) async fn handle(self: &Arc<Self>, id: &str) -> Result<Arc<Handle>, ApiError> {
        if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ApiError::NotFound(id.chars().take(40).collect()));
        }
        self.load(id).await?.ok_or_else(|| ApiError::NotFound(id.to_string()))
    }

    /// Store a new game and keep it in memory.
    pub(crate) async fn create(self: &Arc<Self>, setup: Setup, seats: Vec<Seat>) -> Result<Arc<Handle>, ApiError> {
        let id = token::new_game_id().map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?;
        let created_at =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        let room = Room::new(id.clone(), created_at, setup, seats).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let stored = stored_of(&room);
        reads_back(&room, &stored).map_err(|e| ApiError::BadRequest(format!("this game could not be stored: {e}")))?;
        self.store.create(&stored).await?;
        let h = Arc::new(handle_of(room));
        if let Ok(mut games) = self.games.write() {
            games.insert(id.clone(), Arc::clone(&h));
        }
        tracing::info!(game = %id, "game created");
        self.kick(Arc::clone(&h));
        Ok(h)
    }

    /// Store what `change` did to `room`, then tell the subscribers and the bots. If storing fails, the room is put
    /// back as it was (`saved`) and nothing is told.
    pub(crate) async fn commit(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        room: &mut Room,
        saved: Saved,
        change: Change,
        cause: &'static str,
    ) -> Result<(), ApiError> {
        self.store_change(h, room, saved, change, cause).await?;
        self.kick(Arc::clone(h));
        Ok(())
    }

    /// [`AppState::commit`] without waking the bots.
    async fn store_change(
        &self,
        h: &Arc<Handle>,
        room: &mut Room,
        saved: Saved,
        change: Change,
        cause: &'static str,
    ) -> Result<(), ApiError> {
        let stored = if change.took_back {
            self.store.truncate(&room.id, room.version(), change.from).await
        } else if change.added.is_empty() {
            self.store.set_confirmed(&room.id, room.version(), room.confirmed()).await
        } else {
            self.store.append(&room.id, change.from, &change.added, room.status(), room.confirmed()).await
        };
        if let Err(e) = stored {
            room.undo(saved);
            if let StoreError::Conflict = e {
                // Another server instance changed the game: take the database's log as the truth.
                if let Ok(Some(g)) = self.store.load(&room.id).await
                    && let Ok(fresh) = room_of(g)
                {
                    *room = fresh;
                    h.forget_past();
                }
                return Err(ApiError::Conflict {
                    message: "another action was stored first; fetch the game again".into(),
                    version: room.version(),
                });
            }
            return Err(ApiError::Store(e));
        }
        if change.took_back {
            h.forget_past();
        }
        self.store.notify(&room.id).await;
        let events = if change.took_back { Vec::new() } else { room.events_since(change.from) };
        let _ = h.updates.send(Update::new(cause, room.version(), change.added, events));
        if room.status() == "finished" && cause == "action" {
            tracing::info!(game = %room.id, scores = ?room.game().scores(), "game over");
        }
        Ok(())
    }

    /// Every minute: mark the games nobody has changed for `--abandon-after` as abandoned, and forget the games
    /// nobody is watching that are finished, abandoned, or untouched for ten minutes while no bot is due to move
    /// (they are loaded again from the database when asked for). Memory holds the games in play.
    async fn sweep(self: Arc<Self>) {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            self.sweep_once().await;
        }
    }

    /// One round of [`AppState::sweep`].
    async fn sweep_once(&self) -> usize {
        {
            self.hint_rate.retain_recent();
            self.chat_rate.retain_recent();
            self.create_rate.retain_recent();
            let abandoned = match self.limits.abandon_after {
                Some(after) => match self.store.abandon(store::now() - after.as_secs() as i64).await {
                    Ok(ids) => ids,
                    Err(e) => {
                        tracing::warn!(error = %e, "could not look for abandoned games");
                        Vec::new()
                    }
                },
                None => Vec::new(),
            };
            if !abandoned.is_empty() {
                tracing::info!(games = abandoned.len(), "games abandoned");
            }
            let now = store::now();
            let Ok(mut games) = self.games.write() else { return abandoned.len() };
            for id in &abandoned {
                if let Some(h) = games.get(id)
                    && let Ok(mut room) = h.room.try_lock()
                {
                    room.abandoned = true;
                }
            }
            games.retain(|_, h| {
                let idle = now - h.touched.load(Ordering::Relaxed) > 600;
                h.updates.receiver_count() > 0
                    || h.thinking.load(Ordering::Acquire)
                    || h.room.try_lock().map_or(true, |r| {
                        r.status() == "running"
                            && !(idle && r.to_decide().is_none_or(|p| r.seats[p.index()].bot.is_none()))
                    })
            });
            abandoned.len()
        }
    }

    /// Follow the other instances' changes (PostgreSQL): reload each game they changed that is in memory here, tell
    /// its subscribers (`sync`) and wake its bots.
    async fn follow(self: Arc<Self>, mut listener: sqlx::postgres::PgListener) {
        loop {
            let n = match listener.recv().await {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!(error = %e, "lost the change notifications; reconnecting");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            let Some((instance, id)) = n.payload().split_once(':') else { continue };
            if instance == self.store.instance() {
                continue;
            }
            let Some(h) = self.games.read().ok().and_then(|g| g.get(id).cloned()) else { continue };
            // The game is read under its lock: a log read before this instance's own latest change must never be
            // put over it.
            let mut room = h.room.lock().await;
            let fresh = match self.store.load(id).await {
                Ok(Some(g)) => room_of(g),
                Ok(None) => continue,
                Err(e) => Err(e.to_string()),
            };
            match fresh {
                Ok(fresh) => {
                    *room = fresh;
                    h.forget_past();
                    let _ = h.updates.send(Update::new("sync", room.version(), Vec::new(), Vec::new()));
                    drop(room);
                    self.kick(h);
                }
                Err(e) => tracing::error!(game = %id, error = %e, "a game changed elsewhere does not replay"),
            }
        }
    }

    /// Let the bots play while it is a bot's decision (one thinker per game at a time).
    pub(crate) fn kick(self: &Arc<Self>, h: Arc<Handle>) {
        if h.bots.iter().all(Option::is_none) {
            return;
        }
        let state = Arc::clone(self);
        tokio::spawn(async move { state.drive_bots(h).await });
    }

    async fn drive_bots(self: Arc<Self>, h: Arc<Handle>) {
        loop {
            let (game, seat, version, bot, spec, lane) = {
                let room = h.room.lock().await;
                let Some(p) = room.to_decide() else { return };
                let Some(bot) = h.bots[p.index()].clone() else { return };
                let Some(spec) = room.seats[p.index()].bot.clone() else { return };
                let lane = if room.seats.iter().any(|s| s.bot.is_none()) { Lane::People } else { Lane::Bots };
                (room.game().clone(), p, room.version(), bot, spec, lane)
            };
            if h.thinking.swap(true, Ordering::AcqRel) {
                return;
            }
            let rebuild = move || spec.build(random_u64());
            let choice = self.bots.think(lane, bot, rebuild, game.clone(), seat).await;
            h.thinking.store(false, Ordering::Release);
            let action = match choice {
                Ok(a) => a,
                Err(ThinkError::Panicked(why)) => {
                    // A defect in the bot: this one decision is made by `greedy` instead, so the game goes on.
                    tracing::error!(game = %h.id, %seat, error = %why, "a bot failed; greedy decides for it this once");
                    match carcassonne_ai::GreedyBot::new(random_u64()).choose(&game, seat) {
                        Ok(a) => a,
                        Err(e) => {
                            tracing::error!(game = %h.id, error = %e, "no bot could choose");
                            return;
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(game = %h.id, error = %e, "a bot could not choose");
                    return;
                }
            };
            // A game of bots only waits here for its turn to write, so that the writes of the games where a person
            // sits never queue behind a hundred of them.
            let _turn = match lane {
                Lane::Bots => Some(self.bot_writes.acquire().await),
                Lane::People => None,
            };
            let mut room = h.room.lock().await;
            if room.version() != version {
                continue;
            }
            let text = room.game().action_text(action);
            let saved = room.save();
            match room.act(seat, &text) {
                Ok(change) => {
                    if let Err(e) = self.store_change(&h, &mut room, saved, change, "action").await {
                        tracing::error!(game = %room.id, error = %e, "a bot's action was not stored");
                        return;
                    }
                }
                Err(e) => {
                    tracing::error!(game = %room.id, action = %text, error = %e, "a bot chose a refused action");
                    return;
                }
            }
        }
    }

    /// How many games are in memory.
    pub(crate) fn loaded(&self) -> usize {
        self.games.read().map(|g| g.len()).unwrap_or(0)
    }

    /// Change a seat's auto-confirm setting.
    pub(crate) async fn set_auto_confirm(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        room: &mut Room,
        seat: Player,
        on: bool,
    ) -> Result<(), ApiError> {
        let was = room.seats[seat.index()].auto_confirm;
        self.store.set_auto_confirm(&room.id, seat.index(), on).await?;
        let saved = room.save();
        let change = room.set_auto_confirm(seat, on);
        let r = self.commit(h, room, saved, change, "settings").await;
        if r.is_err() && was != on {
            // The room is back as it was: so is the stored setting, if the database lets us.
            let _ = self.store.set_auto_confirm(&room.id, seat.index(), was).await;
        }
        r
    }
}

fn handle_of(room: Room) -> Handle {
    let bots =
        room.seats.iter().map(|s| s.bot.as_ref().map(|b| Arc::new(StdMutex::new(b.build(random_u64()))))).collect();
    let (updates, _) = broadcast::channel(64);
    Handle {
        id: room.id.clone(),
        room: Mutex::new(room),
        updates,
        bots,
        thinking: AtomicBool::new(false),
        hinting: AtomicBool::new(false),
        touched: std::sync::atomic::AtomicI64::new(store::now()),
        past: StdMutex::new(Vec::new()),
        rewrites: std::sync::atomic::AtomicU64::new(0),
    }
}

fn stored_of(room: &Room) -> StoredGame {
    StoredGame {
        id: room.id.clone(),
        created_at: room.created_at,
        status: room.status().to_string(),
        setup: serde_json::to_string(&room.setup).unwrap_or_default(),
        confirmed: room.confirmed() as i64,
        seats: room
            .seats
            .iter()
            .map(|s| StoredSeat {
                name: s.name.clone(),
                bot: s.bot.as_ref().map(|b| b.to_string()),
                open: s.open,
                token_hash: s.token_hash.clone(),
                auto_confirm: s.auto_confirm,
                colour: Some(s.colour.to_string()),
            })
            .collect(),
        actions: room.actions().map(String::from).collect(),
    }
}

/// Whether `stored` reads back as `room`: its setup, its seats and its log (a game is refused at creation rather
/// than lost at the next start).
fn reads_back(room: &Room, stored: &StoredGame) -> Result<(), String> {
    let back = room_of(stored.clone())?;
    let same_seats = back.seats.len() == room.seats.len()
        && back.seats.iter().zip(&room.seats).all(|(a, b)| {
            a.name == b.name
                && a.bot == b.bot
                && a.open == b.open
                && a.colour == b.colour
                && a.auto_confirm == b.auto_confirm
        });
    if back.setup != room.setup {
        return Err("its setup does not read back".into());
    }
    if !same_seats {
        return Err("its seats do not read back".into());
    }
    if back.version() != room.version() || back.view(None) != room.view(None) {
        return Err("its log does not replay".into());
    }
    Ok(())
}

fn room_of(g: StoredGame) -> Result<Room, String> {
    let setup: Setup = serde_json::from_str(&g.setup).map_err(|e| format!("setup: {e}"))?;
    let seats = g
        .seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let bot = match s.bot {
                Some(b) => Some(b.parse::<BotSpec>().map_err(|e| format!("bot `{b}`: {e}"))?),
                None => None,
            };
            let colour = s.colour.as_deref().and_then(room::colour).unwrap_or(room::COLOURS[i % room::COLOURS.len()]);
            Ok(Seat { name: s.name, bot, open: s.open, token_hash: s.token_hash, auto_confirm: s.auto_confirm, colour })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut room = Room::restore(g.id, g.created_at, setup, seats, &g.actions, g.confirmed.max(0) as usize)?;
    room.abandoned = g.status == "abandoned";
    Ok(room)
}

/// A default seat name made distinct from the names before it: "greedy bot", then "greedy bot 2", "greedy bot 3"
/// (decision W-1: the server's own defaults, for clients that send no name).
pub(crate) fn numbered<'a>(name: String, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    if !taken.clone().any(|t| t == name) {
        return name;
    }
    (2..).map(|k| format!("{name} {k}")).find(|n| !taken.clone().any(|t| t == n)).expect("a free number")
}
