//! `carc serve`: the game server (crates/server), with logs on standard error.

use std::net::SocketAddr;

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
    /// How many bots may think at once (default: the number of cores).
    #[arg(long)]
    bot_threads: Option<usize>,
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
    let threads = args.bot_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let server = carcassonne_server::Server::open(&args.db, threads)
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
