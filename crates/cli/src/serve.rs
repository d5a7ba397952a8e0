//! `carc serve`: the game server (crates/server), with logs on standard error.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

/// Options of `carc serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on (`0.0.0.0:8080` to let other machines in; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file (created if missing), or a PostgreSQL URL (`postgres://user@host/db`).
    #[arg(long, default_value = "carcassonne.sqlite")]
    db: String,
    /// How many bots may think at once (default: the number of cores). With two or more, one of them thinks only
    /// for games where a person sits.
    #[arg(long)]
    bot_threads: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The limits a public server needs (docs/server-api.md, "Running it in public").
#[derive(Debug, Args)]
#[command(next_help_heading = "Limits")]
pub(crate) struct LimitArgs {
    /// Connections open at once, in all (a new one past that is closed at once).
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    /// Connections one address may have open at once.
    #[arg(long, default_value_t = 128)]
    connections_per_address: usize,
    /// How long a client has to send a request's headers; also how long a kept-alive connection may sit idle.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    header_timeout: Duration,
    /// How long a request may take, its body included (408 past that).
    #[arg(long, default_value = "30s", value_parser = humantime::parse_duration)]
    request_timeout: Duration,
    /// Games one address may create (or seats it may take) in a minute.
    #[arg(long, default_value_t = 10)]
    creates_per_minute: u32,
    /// Hints a seat may ask for in a minute.
    #[arg(long, default_value_t = 6)]
    hints_per_minute: u32,
    /// Chat messages a seat may write in a minute.
    #[arg(long, default_value_t = 12)]
    chat_per_minute: u32,
    /// Hints waiting for the hints' worker (one more is refused with 429).
    #[arg(long, default_value_t = 4)]
    hint_queue: usize,
    /// The longest a seat's bot may think a decision (an `mcts` spec's `time`; the levels always fit).
    #[arg(long, default_value = "2s", value_parser = humantime::parse_duration)]
    max_bot_time: Duration,
    /// The most iterations a seat's bot may run a decision.
    #[arg(long, default_value_t = 200_000)]
    max_bot_iterations: u64,
    /// The most threads a seat's bot may search with.
    #[arg(long, default_value_t = 2)]
    max_bot_threads: usize,
    /// Tile kinds of its own a game may bring (`custom_tiles`, `tile_file`).
    #[arg(long, default_value_t = 64)]
    max_custom_kinds: usize,
    /// Tiles of its own (all copies) a game may bring.
    #[arg(long, default_value_t = 200)]
    max_custom_tiles: u32,
    /// Spectators' WebSockets one game may have open (its seats always get in: each has room for 4 of its own).
    #[arg(long, default_value_t = 1000)]
    sockets_per_game: usize,
    /// WebSockets one address may have open (a seat's socket past it closes the address's oldest spectator socket).
    #[arg(long, default_value_t = 64)]
    sockets_per_address: usize,
    /// How often a WebSocket is pinged.
    #[arg(long, default_value = "20s", value_parser = humantime::parse_duration)]
    socket_ping: Duration,
    /// A WebSocket that sends nothing (no answer to a ping either), or takes no message, for this long is closed.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    socket_timeout: Duration,
    /// The per-address limits count an IPv6 address by its first this many bits (64: its network).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u8).range(1..=128))]
    ipv6_prefix: u8,
    /// A running game nobody has changed for this long is abandoned: finished as it stands and out of memory
    /// (`never` to keep every game running).
    #[arg(long, default_value = "30days", value_parser = parse_expiry)]
    abandon_after: Expiry,
    /// Behind a proxy that sets `X-Forwarded-For` (a TLS terminator): take a client's address from its last entry.
    #[arg(long)]
    trust_proxy: bool,
}

/// `never`, or a duration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expiry(Option<Duration>);

fn parse_expiry(s: &str) -> Result<Expiry, String> {
    if s.trim() == "never" {
        return Ok(Expiry(None));
    }
    humantime::parse_duration(s).map(|d| Expiry(Some(d))).map_err(|e| format!("{e} (or write `never`)"))
}

impl LimitArgs {
    fn limits(&self, bot_threads: usize) -> carcassonne_server::Limits {
        carcassonne_server::Limits {
            bot_threads,
            hint_queue: self.hint_queue,
            hints_per_minute: self.hints_per_minute,
            chat_per_minute: self.chat_per_minute,
            creates_per_minute: self.creates_per_minute,
            max_bot_time: self.max_bot_time,
            max_bot_iterations: self.max_bot_iterations,
            max_bot_threads: self.max_bot_threads,
            max_custom_kinds: self.max_custom_kinds,
            max_custom_tiles: self.max_custom_tiles,
            sockets_per_game: self.sockets_per_game,
            sockets_per_address: self.sockets_per_address,
            socket_ping: self.socket_ping,
            socket_timeout: self.socket_timeout,
            ipv6_prefix: self.ipv6_prefix,
            max_connections: self.max_connections,
            connections_per_address: self.connections_per_address,
            header_timeout: self.header_timeout,
            request_timeout: self.request_timeout,
            trust_proxy: self.trust_proxy,
            abandon_after: self.abandon_after.0,
        }
    }
}

pub(crate) fn serve(args: &ServeArgs) -> Result<String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    anyhow::ensure!(
        args.limits.socket_timeout > args.limits.socket_ping,
        "--socket-timeout ({}) must be longer than --socket-ping ({}): a socket answers a ping only after it is sent",
        humantime::format_duration(args.limits.socket_timeout),
        humantime::format_duration(args.limits.socket_ping)
    );
    let threads = args.bot_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let server = carcassonne_server::Server::open_with(&args.db, args.limits.limits(threads))
            .await
            .with_context(|| format!("opening the database `{}`", args.db))?;
        let listener =
            tokio::net::TcpListener::bind(args.addr).await.with_context(|| format!("listening on {}", args.addr))?;
        let addr = listener.local_addr().context("reading the address")?;
        println!("Carcassonne server on http://{addr}/  (games in {}; Ctrl-C stops it)", args.db);
        carcassonne_server::serve(listener, server).await.context("serving")
    })?;
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    #[test]
    fn the_options_defaults_are_the_servers() {
        let cli = Cli::try_parse_from(["carc"]).unwrap();
        let d = carcassonne_server::Limits::default();
        assert_eq!(cli.serve.limits.limits(d.bot_threads), d);
    }
}
