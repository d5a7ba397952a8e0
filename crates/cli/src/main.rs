//! `carc`: replay and check game records, list legal actions, show the tile catalogue, play random games, and
//! measure the engine's speed.

/// Append a line to an output string.
macro_rules! outln {
    ($out:expr) => {{ $out.push('\n'); }};
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        writeln!($out, $($arg)*).expect("writing to a String cannot fail");
    }};
}

mod arena;
mod attack;
mod bench;
mod datagen;
mod describe;
mod hint;
mod import;
mod input;
mod loadtest;
mod play;
mod progress;
mod serve;
mod tiles;
mod tune;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use carcassonne::{Record, Setup};

/// A Carcassonne rules engine on the command line.
#[derive(Debug, Parser)]
#[command(name = "carc", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay a game record, check every action, and print the resulting state and all scoring events.
    Replay {
        /// The record (JSON, docs/record-format.md); `-` reads standard input.
        file: PathBuf,
        /// Print a machine-readable JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Print the record itself, every action rewritten in canonical notation (single spaces, canonical segment
        /// names): what to store.
        #[arg(long, conflicts_with = "json")]
        canonical: bool,
    },
    /// List the legal actions at the end of a record, in record notation.
    Legal {
        /// The record (JSON); `-` reads standard input.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// What one player may see at the end of a record: the table, their own triangles, the others' counts, and their
    /// legal actions when it is their turn (the stack's order and other hands stay hidden).
    View {
        /// The record (JSON); `-` reads standard input.
        file: PathBuf,
        /// The player: `2` or `P2` (players count from 1, as everywhere).
        #[arg(long, value_parser = parse_player)]
        player: u8,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show the tile catalogue with counts.
    Tiles {
        /// Only this set (base, pd, cc, am, half, or a long name such as abbey-mayor or halflings).
        #[arg(long)]
        set: Option<String>,
        /// Load and check a tile-set file of your own instead (docs/tile-format.md).
        #[arg(long, conflicts_with = "set")]
        file: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play games of uniformly random legal actions and report speed and score statistics.
    Selfplay(play::SelfplayArgs),
    /// Measure the engine: random 2-player games per second (one thread; base, or with --expansions every set too),
    /// state size and clone time.
    Bench(bench::BenchArgs),
    /// List every rule option with its values (the default first); rule ids are explained in docs/rules.md.
    Rules {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play games between bots and write each player's view of their positions, with how the game ended for them,
    /// to a file for training the learned value (docs/datagen-format.md).
    #[command(after_help = arena::BOTS_HELP)]
    Datagen(datagen::DatagenArgs),
    /// Play games between bots and report wins with 95% intervals, scores, margins, Elo differences and speed.
    #[command(after_help = arena::BOTS_HELP)]
    Arena(arena::ArenaArgs),
    /// Tune a bot's numeric settings by self-play (SPSA): both perturbed players play on the same deals, each step
    /// moves every setting towards the better one; the log can be resumed. Prints the tuned spec.
    #[command(after_help = arena::BOTS_HELP)]
    Tune(tune::TuneArgs),
    /// What a bot would play at the end of a record, with its view of the best few actions.
    #[command(after_help = arena::BOTS_HELP)]
    Hint(hint::HintArgs),
    /// Run the game server: games kept in a SQLite file (or PostgreSQL), seats with private tokens, bots, and an HTTP
    /// and WebSocket API (docs/server-api.md).
    Serve(serve::ServeArgs),
    /// Bring a game in from its record onto the server's database, to play it on in the browser: prints an invite
    /// link for every person's seat.
    Import(import::ImportArgs),
    /// Load-test the server over loopback: many bot games at once and a few people playing against bots; prints
    /// actions per second and a person's action latency, and checks that every record replays.
    Loadtest(loadtest::LoadArgs),
    /// Count the paths of legal decisions from the end of a record (chance takes the top of the stack), printing
    /// each depth as it finishes.
    Perft {
        /// The record (JSON); `-` reads standard input.
        file: PathBuf,
        /// Player decisions deep: depths 1 to this are counted (0 counts the position itself).
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Print JSON (once every depth is counted) instead of a line per depth.
        #[arg(long)]
        json: bool,
    },
}

/// Options shared by commands that set up games.
#[derive(Debug, Args, Clone)]
pub(crate) struct SetupArgs {
    /// Number of players (2 to 6).
    #[arg(long, default_value_t = 2, value_parser = parse_players)]
    players: u8,
    /// Tile sets in play, comma-separated (base, am, pd, cc, half). With `am`, the abbey, mayor, wagon and barn
    /// modules are switched on, with `pd` the dragon, fairy, princess and portal, with `cc` the crop circles, with
    /// `half` the Halflings (provisional triangles), unless any --rule modules.… is given: then only the modules
    /// named by rules are on.
    #[arg(long, value_delimiter = ',', default_value = "base")]
    sets: Vec<String>,
    /// A rule option, KEY=VALUE (repeatable), e.g. --rule base.tiny_city_points=two. See `carc rules`.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// Add the tiles of a tile-set file of your own (docs/tile-format.md) as the game's custom tiles, e.g. the exact
    /// Halflings triangles instead of the provisional `half` set: `--sets base --tile-file mine.toml --rule
    /// modules.halflings=true`. Repeatable; records keep the tiles, so they replay anywhere.
    #[arg(long = "tile-file", value_name = "FILE")]
    tile_files: Vec<PathBuf>,
}

impl SetupArgs {
    pub(crate) fn setup(&self, seed: u64) -> Result<Setup> {
        let mut s = Setup::new(self.players);
        s.sets = self.sets.clone();
        s.seed = seed;
        let explicit_modules = self.rules.iter().any(|r| r.trim_start().starts_with("modules."));
        s.switch_on_set_modules(explicit_modules);
        for r in &self.rules {
            let (k, v) = r.split_once('=').with_context(|| format!("--rule `{r}`: write it as KEY=VALUE"))?;
            s.rules.set(k.trim(), v.trim())?;
        }
        for f in &self.tile_files {
            let text = input::read_text(f)?;
            s.custom_tiles.extend(carcassonne::catalogue::tile_entries_from_toml(&text, &f.display().to_string())?);
        }
        s.prepare()?;
        Ok(s)
    }
}

/// A number of players: 2 to 6.
fn parse_players(s: &str) -> Result<u8, String> {
    match s.trim().parse::<u64>() {
        Ok(n @ 2..=6) => Ok(n as u8),
        Ok(n) => Err(format!("{n} players: a game has 2 to 6 players")),
        Err(_) => Err(format!("`{s}` is not a number of players (2 to 6)")),
    }
}

/// A player as users name them: `2` or `P2` (1-based, as in the notation).
fn parse_player(s: &str) -> Result<u8, String> {
    let t = s.trim();
    let digits = t.strip_prefix(['P', 'p']).unwrap_or(t);
    match digits.parse::<u8>() {
        Ok(n @ 1..=6) => Ok(n),
        _ => Err(format!("`{s}` is not a player: write 1 to 6, or P1 to P6")),
    }
}

pub(crate) fn read_record(path: &std::path::Path) -> Result<Record> {
    let text = input::read_text(path)?;
    let name = input::name(path);
    Record::from_json(&text).with_context(|| format!("{name} is not a usable record"))
}

fn run(cli: Cli) -> Result<String> {
    match cli.command {
        Command::Replay { file, canonical: true, .. } => Ok(read_record(&file)?.canonical()?.to_json() + "\n"),
        Command::Replay { file, json, .. } => describe::replay(&file, json),
        Command::Legal { file, json } => describe::legal(&file, json),
        Command::View { file, player, json } => describe::view(&file, player, json),
        Command::Tiles { set, file, json } => tiles::tiles(set.as_deref(), file.as_deref(), json),
        Command::Selfplay(a) => play::selfplay(&a),
        Command::Datagen(a) => datagen::datagen(&a),
        Command::Bench(a) => bench::bench(&a),
        Command::Arena(a) => arena::arena(&a),
        Command::Tune(a) => tune::tune(&a),
        Command::Hint(a) => hint::hint(&a),
        Command::Serve(a) => serve::serve(&a),
        Command::Import(a) => import::import(&a),
        Command::Loadtest(a) => loadtest::loadtest(&a),
        Command::Perft { file, depth, json } => perft(&file, depth, json),
        Command::Rules { json } => rules(json),
    }
}

/// `carc perft`: each depth's count printed as soon as it is known; deeper than the game can last, every count is 0
/// and the rest are not searched.
fn perft(file: &std::path::Path, depth: u32, json: bool) -> Result<String> {
    use std::io::Write as _;
    let r = read_record(file)?.replay()?;
    let mut rows = Vec::new();
    let mut stdout = std::io::stdout();
    let first = if depth == 0 { 0 } else { 1 };
    for d in first..=depth {
        let t = std::time::Instant::now();
        let n = carcassonne::perft::perft(&r.game, d);
        let secs = t.elapsed().as_secs_f64();
        if !json {
            // Written at once, so a long count shows each depth as it finishes.
            match writeln!(stdout, "perft {d} {n}    # {secs:.3} s").and_then(|()| stdout.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(String::new()),
                other => other.context("writing the output")?,
            }
        }
        rows.push(serde_json::json!({ "depth": d, "paths": n, "seconds": secs }));
        if n == 0 && d < depth {
            if !json {
                writeln!(
                    stdout,
                    "# no path is {} long: every deeper count is 0 too",
                    input::count(d, "decision", "decisions")
                )
                .context("writing the output")?;
            }
            break;
        }
    }
    if json {
        let v = serde_json::json!({ "depth": depth, "counts": rows, "game_over": r.game.is_over() });
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    Ok(String::new())
}

/// `carc rules`: every option with its rule id, values (the default first) and meaning.
fn rules(json: bool) -> Result<String> {
    let mut rows: Vec<(String, String, Vec<String>, String)> = carcassonne::rules::options()
        .iter()
        .map(|o| {
            (
                o.key.to_string(),
                o.var.to_string(),
                o.values.iter().map(ToString::to_string).collect(),
                o.doc.to_string(),
            )
        })
        .collect();
    for m in carcassonne::rules::Modules::NAMES {
        rows.push((format!("modules.{m}"), String::new(), vec!["false".into(), "true".into()], "module switch".into()));
    }
    let mut out = String::new();
    if json {
        outln!(out, "{}", serde_json::to_string_pretty(&carcassonne::report::rule_options_json())?);
        return Ok(out);
    }
    let kw = rows.iter().map(|r| r.0.len()).max().unwrap_or(3).max(3);
    let vw = rows.iter().map(|r| r.1.len()).max().unwrap_or(4).max(4);
    let valw = rows.iter().map(|r| r.2.join(" | ").len()).max().unwrap_or(6).max(6);
    outln!(out, "{:<kw$}  {:<vw$}  {:<valw$}  meaning", "key", "rule", "values (default first)");
    for (key, var, values, doc) in &rows {
        outln!(out, "{key:<kw$}  {var:<vw$}  {:<valw$}  {doc}", values.join(" | "));
    }
    outln!(out, "Set one with --rule KEY=VALUE; rule ids (VAR-04, …) are explained in docs/rules.md.");
    Ok(out)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(text) => {
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
                // A closed pipe (`carc replay … | head`) is not an error.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("error: writing the output: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::FAILURE
        }
    }
}
