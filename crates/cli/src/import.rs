//! `carc import`: bring a game in from its record onto a server's database, to play it on in the browser.

use anyhow::{Context, Result, anyhow};
use clap::Args;

/// Options of `carc import`.
#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The record (JSON, docs/record-format.md); `-` reads standard input. Its setup (seed and stack included) and
    /// actions are kept as they are.
    file: std::path::PathBuf,
    /// The database `carc serve` uses: a SQLite file or a PostgreSQL URL.
    #[arg(long, default_value = "carcassonne.sqlite")]
    db: String,
    /// A bot on a seat, `P2=hard` (repeatable); every other seat is a person's, with an invite link.
    #[arg(long = "bot", value_name = "SEAT=BOT")]
    bots: Vec<String>,
    /// A seat's name, `P1=Ana` (repeatable).
    #[arg(long = "name", value_name = "SEAT=NAME")]
    names: Vec<String>,
}

/// `P2=hard` -> (1, "hard"), checked against the number of players.
fn seat_value(s: &str, players: usize, what: &str) -> Result<(usize, String)> {
    let (seat, value) = s.split_once('=').ok_or_else(|| anyhow!("--{what} `{s}`: write it as P2=VALUE"))?;
    let digits = seat.trim().strip_prefix(['P', 'p']).unwrap_or(seat.trim());
    match digits.parse::<usize>() {
        Ok(n) if (1..=players).contains(&n) => Ok((n - 1, value.trim().to_string())),
        _ => Err(anyhow!("--{what} `{s}`: the game has seats P1 to P{players}")),
    }
}

pub(crate) fn import(args: &ImportArgs) -> Result<String> {
    let record = crate::read_record(&args.file)?;
    let n = record.setup.players as usize;
    let mut bots = vec![None; n];
    for b in &args.bots {
        let (i, v) = seat_value(b, n, "bot")?;
        bots[i] = Some(v);
    }
    let mut names = vec![None; n];
    for s in &args.names {
        let (i, v) = seat_value(s, n, "name")?;
        names[i] = Some(v);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the runtime")?;
    let (id, tokens) = runtime.block_on(async {
        let server = carcassonne_server::Server::open(&args.db, 1)
            .await
            .with_context(|| format!("opening the database `{}`", args.db))?;
        server
            .import(&record, &names, &bots)
            .await
            .map_err(|e| anyhow!("{} cannot be imported: {e}", crate::input::name(&args.file)))
    })?;
    let mut out = String::new();
    outln!(out, "game {id} ({} actions), in {}", record.actions.len(), args.db);
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Some(t) => outln!(out, "P{}: /play/{id}#token={t}", i + 1),
            None => outln!(out, "P{}: {}", i + 1, bots[i].as_deref().unwrap_or("bot")),
        }
    }
    outln!(out, "Start `carc serve --db {}` and open an invite link on its address.", args.db);
    Ok(out)
}
