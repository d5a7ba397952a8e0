//! Durable games: SQLite (a file, the default) or PostgreSQL, with migrations. A game is its setup, its seats and its
//! action log; every change is one transaction, committed before the server acknowledges or broadcasts it.
//!
//! Every change to a game's log (append, take-back, confirmation) locks the game's row first and checks, inside the
//! same transaction, that the log still has the length the change was made at; otherwise it is refused as
//! [`StoreError::Conflict`]. Changes to one game are therefore serialised in the database, whatever the number of
//! server instances sharing it (PostgreSQL), and no sequence of them can leave a gap or two histories. The log's
//! primary key (game, n) is a second guard.
//!
//! A game's chat is kept beside its log, in a table of its own: adding a message locks the game's row too (so two
//! instances number a game's messages without gaps) but checks nothing of the log and changes nothing of it.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Postgres, Row, Sqlite, Transaction};

use crate::chat::ChatLine;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database said no.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Another writer changed the game's log first.
    #[error("another action was stored first")]
    Conflict,
    /// The bots' threads could not be started.
    #[error("starting the bots' threads: {0}")]
    Threads(std::io::Error),
    /// The game is not in the database (any more).
    #[error("the game is not in the database")]
    Missing,
}

/// A seat as stored.
#[derive(Clone, Debug)]
pub(crate) struct StoredSeat {
    pub name: String,
    pub bot: Option<String>,
    pub open: bool,
    pub token_hash: Option<String>,
    pub auto_confirm: bool,
    pub colour: Option<String>,
}

/// A game as stored.
#[derive(Clone, Debug)]
pub(crate) struct StoredGame {
    pub id: String,
    pub created_at: i64,
    pub status: String,
    pub setup: String,
    pub confirmed: i64,
    pub seats: Vec<StoredSeat>,
    pub actions: Vec<String>,
}

/// One line of the lobby.
#[derive(Clone, Debug)]
pub(crate) struct LobbyGame {
    pub id: String,
    pub created_at: i64,
    pub status: String,
    pub seats: Vec<StoredSeat>,
}

/// The database, and this server instance's name in the change notifications it sends.
#[derive(Clone, Debug)]
pub struct Store {
    db: Db,
    instance: String,
    /// SQLite has one writer at a time: this server's writes queue here, in order, rather than in SQLite's busy
    /// handler (which sleeps and retries, up to 100 ms at a time, under load).
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
}

#[derive(Clone, Debug)]
enum Db {
    /// A SQLite file.
    Sqlite(SqlitePool),
    /// A PostgreSQL server.
    Postgres(PgPool),
}

/// The PostgreSQL channel on which every instance announces the games it changed (`instance:game`).
pub(crate) const CHANNEL: &str = "carc_games";

/// Run the same code on either kind of write transaction. `$lock` is bound to the statement that locks a game's row
/// for the rest of the transaction (`$1`: the game's id): `FOR UPDATE` on PostgreSQL; on SQLite the transaction
/// already holds the database's write lock from its first statement (`BEGIN IMMEDIATE`, waiting for it up to the busy
/// timeout), so the statement only reads the row.
macro_rules! with_tx {
    ($store:expr, |$tx:ident, $lock:ident| $body:expr) => {
        match &$store.db {
            Db::Sqlite(pool) => {
                let _writer = $store.writer.lock().await;
                let mut $tx: Transaction<'_, Sqlite> = pool.begin_with("BEGIN IMMEDIATE").await?;
                let $lock = "SELECT 1 FROM games WHERE id = $1";
                let r = $body;
                $tx.commit().await?;
                r
            }
            Db::Postgres(pool) => {
                let mut $tx: Transaction<'_, Postgres> = pool.begin().await?;
                let $lock = "SELECT 1 FROM games WHERE id = $1 FOR UPDATE";
                let r = $body;
                $tx.commit().await?;
                r
            }
        }
    };
}

/// Inside a write transaction: lock game `$id`'s row and check that its log holds `$expected` actions, or return
/// [`StoreError::Conflict`] (another writer changed it first) or [`StoreError::Missing`].
macro_rules! lock_log {
    ($tx:ident, $lock:ident, $id:expr, $expected:expr) => {{
        if sqlx::query($lock).bind($id).fetch_optional(&mut *$tx).await?.is_none() {
            return Err(StoreError::Missing);
        }
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM actions WHERE game_id = $1")
            .bind($id)
            .fetch_one(&mut *$tx)
            .await?
            .try_get(0)?;
        if n != $expected as i64 {
            return Err(StoreError::Conflict);
        }
    }};
}

/// Run the same query on either pool.
macro_rules! on_pool {
    ($store:expr, |$pool:ident| $body:expr) => {
        match &$store.db {
            Db::Sqlite($pool) => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

/// A game's seats, in order.
const SEATS: &str =
    "SELECT name, bot, open, token_hash, auto_confirm, colour FROM seats WHERE game_id = $1 ORDER BY seat";

fn seat_of_row<R: Row>(r: &R) -> Result<StoredSeat, sqlx::Error>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> usize: sqlx::ColumnIndex<R>,
    String: for<'a> sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    Option<String>: for<'a> sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    i64: for<'a> sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(StoredSeat {
        name: r.try_get(0)?,
        bot: r.try_get(1)?,
        open: r.try_get::<i64, _>(2)? != 0,
        token_hash: r.try_get(3)?,
        auto_confirm: r.try_get::<i64, _>(4)? != 0,
        colour: r.try_get(5)?,
    })
}

/// Now, in Unix seconds.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn conflict_or(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict,
        _ => StoreError::Db(e),
    }
}

impl Store {
    /// Open (creating if needed) and migrate: `postgres://…` or `postgresql://…` for PostgreSQL, anything else is a
    /// SQLite file path (or a `sqlite:` URL).
    ///
    /// # Errors
    /// When the database cannot be opened or migrated.
    pub async fn open(db: &str) -> Result<Store, StoreError> {
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            let pool =
                PgPoolOptions::new().max_connections(16).acquire_timeout(Duration::from_secs(10)).connect(db).await?;
            sqlx::migrate!("./migrations/postgres").run(&pool).await?;
            return Ok(Store::new(Db::Postgres(pool)));
        }
        let opts = if db.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(db)?
        } else {
            SqliteConnectOptions::new().filename(db)
        }
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // Every commit reaches the disk before it is acknowledged.
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(Duration::from_secs(10))
        .foreign_keys(true);
        let pool = SqlitePoolOptions::new().max_connections(4).connect_with(opts).await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(Store::new(Db::Sqlite(pool)))
    }

    fn new(db: Db) -> Store {
        let instance = crate::token::random_bytes::<6>()
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
            .unwrap_or_else(|_| format!("pid{}", std::process::id()));
        Store { db, instance, writer: std::sync::Arc::default() }
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        match self.db {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// This instance's name in notifications.
    pub(crate) fn instance(&self) -> &str {
        &self.instance
    }

    /// Tell the other instances sharing a PostgreSQL database that game `id` changed (nothing to do with SQLite,
    /// which one server owns). Best effort: an instance that misses it catches up at its next conflicting write.
    pub(crate) async fn notify(&self, id: &str) {
        if let Db::Postgres(pool) = &self.db {
            let payload = format!("{}:{id}", self.instance);
            if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(&payload).execute(pool).await {
                tracing::warn!(game = %id, error = %e, "could not notify the other instances");
            }
        }
    }

    /// With PostgreSQL, a listener for the other instances' changes.
    pub(crate) async fn listen(&self) -> Result<Option<PgListener>, StoreError> {
        let Db::Postgres(pool) = &self.db else { return Ok(None) };
        let mut l = PgListener::connect_with(pool).await?;
        l.listen(CHANNEL).await?;
        Ok(Some(l))
    }

    /// Store a new game with its seats and its first actions (the server's opening draws).
    pub(crate) async fn create(&self, g: &StoredGame) -> Result<(), StoreError> {
        with_tx!(self, |tx, _lock| {
            sqlx::query(
                "INSERT INTO games (id, created_at, setup, status, confirmed, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $2)",
            )
            .bind(&g.id)
            .bind(g.created_at)
            .bind(&g.setup)
            .bind(&g.status)
            .bind(g.confirmed)
            .execute(&mut *tx)
            .await?;
            for (i, s) in g.seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO seats (game_id, seat, name, bot, open, token_hash, auto_confirm, colour) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&g.id)
                .bind(i as i64)
                .bind(&s.name)
                .bind(&s.bot)
                .bind(i64::from(s.open))
                .bind(&s.token_hash)
                .bind(i64::from(s.auto_confirm))
                .bind(&s.colour)
                .execute(&mut *tx)
                .await?;
            }
            for (i, a) in g.actions.iter().enumerate() {
                sqlx::query("INSERT INTO actions (game_id, n, action) VALUES ($1, $2, $3)")
                    .bind(&g.id)
                    .bind(i as i64 + 1)
                    .bind(a)
                    .execute(&mut *tx)
                    .await?;
            }
        });
        Ok(())
    }

    /// Add actions `from + 1 ..` to a game's log, with its status and confirmation version, in one transaction.
    /// [`StoreError::Conflict`] when another writer stored one of those actions first.
    pub(crate) async fn append(
        &self,
        id: &str,
        from: usize,
        actions: &[String],
        status: &str,
        confirmed: usize,
    ) -> Result<(), StoreError> {
        with_tx!(self, |tx, lock| {
            lock_log!(tx, lock, id, from);
            for (i, a) in actions.iter().enumerate() {
                sqlx::query("INSERT INTO actions (game_id, n, action) VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind((from + i + 1) as i64)
                    .bind(a)
                    .execute(&mut *tx)
                    .await
                    .map_err(conflict_or)?;
            }
            sqlx::query("UPDATE games SET status = $1, confirmed = $2, updated_at = $3 WHERE id = $4")
                .bind(status)
                .bind(confirmed as i64)
                .bind(now())
                .bind(id)
                .execute(&mut *tx)
                .await?;
        });
        Ok(())
    }

    /// Take back: keep the first `keep` actions of a game's log. [`StoreError::Conflict`] if the log no longer has
    /// `expected` actions (another writer changed it).
    pub(crate) async fn truncate(&self, id: &str, keep: usize, expected: usize) -> Result<(), StoreError> {
        with_tx!(self, |tx, lock| {
            lock_log!(tx, lock, id, expected);
            sqlx::query("DELETE FROM actions WHERE game_id = $1 AND n > $2")
                .bind(id)
                .bind(keep as i64)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE games SET updated_at = $1 WHERE id = $2")
                .bind(now())
                .bind(id)
                .execute(&mut *tx)
                .await?;
        });
        Ok(())
    }

    /// Store a game's confirmation version, made when its log had `version` actions ([`StoreError::Conflict`] if
    /// it no longer has).
    pub(crate) async fn set_confirmed(&self, id: &str, version: usize, confirmed: usize) -> Result<(), StoreError> {
        with_tx!(self, |tx, lock| {
            lock_log!(tx, lock, id, version);
            sqlx::query("UPDATE games SET confirmed = $1, updated_at = $2 WHERE id = $3")
                .bind(confirmed as i64)
                .bind(now())
                .bind(id)
                .execute(&mut *tx)
                .await?;
        });
        Ok(())
    }

    /// Store a seat's auto-confirm setting.
    pub(crate) async fn set_auto_confirm(&self, id: &str, seat: usize, on: bool) -> Result<(), StoreError> {
        on_pool!(self, |pool| {
            sqlx::query("UPDATE seats SET auto_confirm = $1 WHERE game_id = $2 AND seat = $3")
                .bind(i64::from(on))
                .bind(id)
                .bind(seat as i64)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Give an open seat to the person joining: false if it was no longer open.
    pub(crate) async fn claim(&self, id: &str, seat: usize, name: &str, token_hash: &str) -> Result<bool, StoreError> {
        let n = on_pool!(self, |pool| {
            sqlx::query(
                "UPDATE seats SET open = 0, name = $1, token_hash = $2 WHERE game_id = $3 AND seat = $4 AND open = 1",
            )
            .bind(name)
            .bind(token_hash)
            .bind(id)
            .bind(seat as i64)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(n == 1)
    }

    /// Add a message to game `id`'s chat, written now by `seat` (0-based) as `name` when the game had `version`
    /// actions: the message as stored, or `None` when the chat already holds `cap` messages (nothing is stored).
    pub(crate) async fn add_chat(
        &self,
        id: &str,
        seat: usize,
        name: &str,
        text: &str,
        version: usize,
        cap: usize,
    ) -> Result<Option<ChatLine>, StoreError> {
        let at = now();
        Ok(with_tx!(self, |tx, lock| {
            if sqlx::query(lock).bind(id).fetch_optional(&mut *tx).await?.is_none() {
                return Err(StoreError::Missing);
            }
            let last: i64 = sqlx::query("SELECT COALESCE(MAX(n), 0) FROM chat WHERE game_id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?
                .try_get(0)?;
            if last >= cap as i64 {
                None
            } else {
                sqlx::query(
                    "INSERT INTO chat (game_id, n, seat, name, text, version, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(id)
                .bind(last + 1)
                .bind(seat as i64)
                .bind(name)
                .bind(text)
                .bind(version as i64)
                .bind(at)
                .execute(&mut *tx)
                .await
                .map_err(conflict_or)?;
                // Players talking are still at the table: the game is not abandoned.
                sqlx::query("UPDATE games SET updated_at = $1 WHERE id = $2")
                    .bind(at)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                Some(ChatLine {
                    n: last + 1,
                    seat: carcassonne::Player(seat as u8).to_string(),
                    name: name.to_string(),
                    text: text.to_string(),
                    version: version as i64,
                    at,
                })
            }
        }))
    }

    /// Game `id`'s chat messages after the first `since`, in order.
    pub(crate) async fn chat(&self, id: &str, since: i64) -> Result<Vec<ChatLine>, StoreError> {
        Ok(on_pool!(self, |pool| {
            sqlx::query("SELECT n, seat, name, text, version, at FROM chat WHERE game_id = $1 AND n > $2 ORDER BY n")
                .bind(id)
                .bind(since)
                .fetch_all(pool)
                .await?
                .iter()
                .map(|r| -> Result<ChatLine, sqlx::Error> {
                    let seat: i64 = r.try_get(1)?;
                    Ok(ChatLine {
                        n: r.try_get(0)?,
                        seat: carcassonne::Player(seat.clamp(0, 255) as u8).to_string(),
                        name: r.try_get(2)?,
                        text: r.try_get(3)?,
                        version: r.try_get(4)?,
                        at: r.try_get(5)?,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        }))
    }

    /// One game, or `None`. Read in one transaction, so its row, its seats and its log are of one moment.
    pub(crate) async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        macro_rules! read {
            ($tx:ident) => {{
                let row = sqlx::query("SELECT id, created_at, setup, confirmed, status FROM games WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut *$tx)
                    .await?;
                let Some(r) = row else { return Ok(None) };
                let (id, created_at, setup, confirmed, status): (String, i64, String, i64, String) =
                    (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?);
                let seats = sqlx::query(SEATS).bind(&id).fetch_all(&mut *$tx).await?;
                let seats = seats.iter().map(seat_of_row).collect::<Result<Vec<_>, _>>()?;
                let actions = sqlx::query("SELECT action FROM actions WHERE game_id = $1 ORDER BY n")
                    .bind(&id)
                    .fetch_all(&mut *$tx)
                    .await?
                    .iter()
                    .map(|r| r.try_get::<String, _>(0))
                    .collect::<Result<Vec<_>, _>>()?;
                $tx.commit().await?;
                Ok(Some(StoredGame { id, created_at, status, setup, confirmed, seats, actions }))
            }};
        }
        match &self.db {
            Db::Sqlite(pool) => {
                // A deferred transaction reads one snapshot of the database (WAL).
                let mut tx = pool.begin().await?;
                read!(tx)
            }
            Db::Postgres(pool) => {
                let mut tx = pool.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY").await?;
                read!(tx)
            }
        }
    }

    /// The ids of the running games that have a bot at the table, oldest first: the ones to restore at a start
    /// (a game of people only is loaded when someone asks for it).
    pub(crate) async fn running_with_bots(&self) -> Result<Vec<String>, StoreError> {
        Ok(on_pool!(self, |pool| {
            sqlx::query(
                "SELECT id FROM games g WHERE status = 'running' \
                 AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.bot IS NOT NULL) ORDER BY created_at",
            )
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<Vec<_>, _>>()?
        }))
    }

    /// Mark as abandoned every running game that has not changed since `before` (Unix seconds); their ids.
    pub(crate) async fn abandon(&self, before: i64) -> Result<Vec<String>, StoreError> {
        Ok(on_pool!(self, |pool| {
            sqlx::query(
                "UPDATE games SET status = 'abandoned' WHERE status = 'running' AND updated_at < $1 RETURNING id",
            )
            .bind(before)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<Vec<_>, _>>()?
        }))
    }

    /// A page of the lobby, newest first: at most `limit` games after skipping `offset`, only those with `status`
    /// (`open`: running with an open seat), each with its seats. One query.
    pub(crate) async fn lobby(
        &self,
        status: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<LobbyGame>, StoreError> {
        let (status, open) = match status {
            Some("open") => ("running", 1i64),
            Some(s) => (s, 0),
            None => ("", 0),
        };
        let rows = on_pool!(self, |pool| {
            sqlx::query(
                "SELECT g.id, g.created_at, g.status, s.name, s.bot, s.open, s.token_hash, s.auto_confirm, s.colour \
                 FROM (SELECT id, created_at, status FROM games g \
                       WHERE ($1 = '' OR status = $1) \
                       AND ($2 = 0 OR EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id AND o.open = 1)) \
                       ORDER BY created_at DESC, id LIMIT $3 OFFSET $4) g \
                 JOIN seats s ON s.game_id = g.id ORDER BY g.created_at DESC, g.id, s.seat",
            )
            .bind(status)
            .bind(open)
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| -> Result<(String, i64, String, StoredSeat), sqlx::Error> {
                let seat = StoredSeat {
                    name: r.try_get(3)?,
                    bot: r.try_get(4)?,
                    open: r.try_get::<i64, _>(5)? != 0,
                    token_hash: r.try_get(6)?,
                    auto_confirm: r.try_get::<i64, _>(7)? != 0,
                    colour: r.try_get(8)?,
                };
                Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, seat))
            })
            .collect::<Result<Vec<_>, _>>()?
        });
        let mut out: Vec<LobbyGame> = Vec::new();
        for (id, created_at, status, seat) in rows {
            match out.last_mut() {
                Some(g) if g.id == id => g.seats.push(seat),
                _ => out.push(LobbyGame { id, created_at, status, seats: vec![seat] }),
            }
        }
        Ok(out)
    }
}
