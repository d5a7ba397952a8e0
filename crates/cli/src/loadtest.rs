//! `carc loadtest`: many concurrent bot games on one server over loopback, with a few people playing against bots
//! through the HTTP API. Prints actions per second and the latency of a person's action while the bots play, then
//! checks that every game's record replays to the scores the server showed.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use clap::Args;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::input::{count, plural};

/// Options of `carc loadtest`.
#[derive(Debug, Args)]
pub(crate) struct LoadArgs {
    /// Bot games played at once.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The bots of each bot game, one per seat (2 to 6), separated by commas.
    #[arg(long, default_value = "greedy,random")]
    bots: String,
    /// Games in which a person (a client of this command, choosing at random among the legal actions it is sent)
    /// plays seat P1 against a bot: their actions' latency is what is measured.
    #[arg(long, default_value_t = 4)]
    people: usize,
    /// The bot each person plays against.
    #[arg(long, default_value = "greedy")]
    opponent: String,
    /// Tile sets of every game, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "base")]
    sets: Vec<String>,
    /// The server's database: a SQLite file or a PostgreSQL URL (default: a new SQLite file in a temporary
    /// directory, removed afterwards).
    #[arg(long)]
    db: Option<String>,
    /// How many bots may think at once (default: the number of cores).
    #[arg(long)]
    bot_threads: Option<usize>,
    /// Give up (and fail) after this many seconds.
    #[arg(long, default_value_t = 900)]
    timeout: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// A blocking HTTP client that reads every status (errors included) as an answer.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn read(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>, what: &str) -> Result<(u16, Value)> {
    let mut resp = resp.with_context(|| format!("{what}: no answer"))?;
    let status = resp.status().as_u16();
    let v = resp.body_mut().read_json::<Value>().with_context(|| format!("{what}: the answer is not JSON"))?;
    Ok((status, v))
}

fn get(agent: &ureq::Agent, url: &str, token: Option<&str>) -> Result<Value> {
    let mut req = agent.get(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    let (status, v) = read(req.call(), url)?;
    ensure!(status == 200, "GET {url}: {status} {v}");
    Ok(v)
}

fn post(agent: &ureq::Agent, url: &str, token: Option<&str>, body: &Value) -> Result<(u16, Value)> {
    let mut req = agent.post(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    read(req.send_json(body), url)
}

fn scores(view: &Value) -> Vec<i64> {
    view["game"]["players"]
        .as_array()
        .map_or_else(Vec::new, |ps| ps.iter().filter_map(|p| p["score"].as_i64()).collect())
}

/// One person's game, played to its end: each action's round trip is timed.
fn play_person(
    base: &str,
    id: &str,
    token: &str,
    seed: u64,
    deadline: Instant,
    latencies: &Mutex<Vec<f64>>,
) -> Result<()> {
    let agent = agent();
    let url = format!("{base}/api/games/{id}");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    loop {
        ensure!(Instant::now() < deadline, "a person's game did not finish in time");
        let v = get(&agent, &url, Some(token))?;
        if v["status"] == "finished" {
            return Ok(());
        }
        let legal = v["game"]["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            // The bot is thinking.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        let a = legal[rng.random_range(0..legal.len())].clone();
        let t = Instant::now();
        let (status, answer) =
            post(&agent, &format!("{url}/actions"), Some(token), &json!({ "action": a, "version": v["version"] }))?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        ensure!(status == 200, "the person's action {a} was refused: {status} {answer}");
        latencies.lock().map_err(|_| anyhow::anyhow!("a person's thread failed"))?.push(ms);
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub(crate) fn loadtest(args: &LoadArgs) -> Result<String> {
    let bots: Vec<String> = args.bots.split(',').map(|b| b.trim().to_string()).collect();
    ensure!((2..=6).contains(&bots.len()), "--bots names {}: a game has 2 to 6 players", bots.len());
    ensure!(args.games + args.people <= 10_000, "at most 10,000 games at once");
    for b in bots.iter().chain([&args.opponent]) {
        b.parse::<carcassonne_ai::BotSpec>().with_context(|| format!("bot `{b}`"))?;
    }
    let dir = tempfile::tempdir().context("creating a temporary directory")?;
    let db = match &args.db {
        Some(db) => db.clone(),
        None => dir.path().join("loadtest.sqlite").to_string_lossy().into_owned(),
    };
    let threads = args.bot_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    let (listener, server) = runtime.block_on(async {
        let server = carcassonne_server::Server::open(&db, threads).await.with_context(|| format!("opening `{db}`"))?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.context("listening on loopback")?;
        anyhow::Ok((listener, server))
    })?;
    let addr = listener.local_addr().context("reading the address")?;
    let store_kind = if db.starts_with("postgres") { "PostgreSQL" } else { "SQLite" };
    let serving = runtime.spawn(carcassonne_server::serve(listener, server));
    let base = format!("http://{addr}");
    let agent = agent();
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    let start = Instant::now();

    // The games: bots only, and a person against a bot.
    let mut bot_games = Vec::new();
    for _ in 0..args.games {
        let seats: Vec<Value> = bots.iter().map(|b| json!({ "bot": b })).collect();
        let (status, v) =
            post(&agent, &format!("{base}/api/games"), None, &json!({ "seats": seats, "sets": args.sets }))?;
        ensure!(status == 201, "creating a game: {status} {v}");
        bot_games.push(v["id"].as_str().unwrap_or_default().to_string());
    }
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let mut people = Vec::new();
    let mut person_games = Vec::new();
    for i in 0..args.people {
        let body = json!({
            "seats": [{ "name": format!("person {}", i + 1), "auto_confirm": true }, { "bot": args.opponent }],
            "sets": args.sets,
        });
        let (status, v) = post(&agent, &format!("{base}/api/games"), None, &body)?;
        ensure!(status == 201, "creating a game: {status} {v}");
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let token = v["seats"][0]["token"].as_str().unwrap_or_default().to_string();
        person_games.push(id.clone());
        let (base, lat) = (base.clone(), Arc::clone(&latencies));
        people.push(std::thread::spawn(move || play_person(&base, &id, &token, i as u64, deadline, &lat)));
    }

    // Wait for every game to finish.
    let ours: std::collections::HashSet<String> = bot_games.iter().chain(&person_games).cloned().collect();
    let total = (args.games + args.people) as u64;
    let bar = crate::progress::bar(total, "games", args.json || !std::io::stderr().is_terminal());
    loop {
        let lobby = get(&agent, &format!("{base}/api/games?status=finished&limit=10000"), None)?;
        let done = lobby["games"]
            .as_array()
            .map_or(0, |gs| gs.iter().filter(|g| ours.contains(g["id"].as_str().unwrap_or_default())).count())
            as u64;
        bar.set_position(done);
        if done >= total {
            break;
        }
        if Instant::now() >= deadline {
            bar.abandon();
            bail!("{done} of {total} games finished in {} s (--timeout)", args.timeout);
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    for p in people {
        p.join().map_err(|_| anyhow::anyhow!("a person's thread panicked"))??;
    }

    // Every record replays to the scores the server showed.
    let mut actions = 0usize;
    for id in bot_games.iter().chain(&person_games) {
        let view = get(&agent, &format!("{base}/api/games/{id}"), None)?;
        let record = get(&agent, &format!("{base}/api/games/{id}/record"), None)?;
        let record: carcassonne::Record =
            serde_json::from_value(record).with_context(|| format!("game {id}'s record"))?;
        actions += record.actions.len();
        let replayed = record.replay().with_context(|| format!("game {id}'s record does not replay"))?;
        let replayed: Vec<i64> = replayed.game.scores().iter().map(|s| i64::from(*s)).collect();
        ensure!(
            replayed == scores(&view),
            "game {id}: the record replays to {replayed:?}, the server showed {:?}",
            scores(&view)
        );
    }
    serving.abort();

    let mut lat = latencies.lock().map_err(|_| anyhow::anyhow!("a person's thread failed"))?.clone();
    lat.sort_by(f64::total_cmp);
    let (p50, p99) = (percentile(&lat, 0.5), percentile(&lat, 0.99));
    let rate = actions as f64 / elapsed;
    if args.json {
        let v = json!({
            "bot_games": args.games, "person_games": args.people, "bots": bots, "opponent": args.opponent,
            "sets": args.sets, "db": store_kind, "bot_threads": threads, "seconds": elapsed, "actions": actions,
            "actions_per_second": rate, "person_actions": lat.len(), "person_p50_ms": p50, "person_p99_ms": p99,
            "replayed": total,
        });
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    let mut out = String::new();
    outln!(
        out,
        "{} at once on one server over loopback ({store_kind}, {}): {} of {}, {} of a person against {}",
        plural(total, "game"),
        count(threads as u64, "bot thread", "bot threads"),
        count(args.games as u64, "bot game", "bot games"),
        bots.join(" v "),
        plural(args.people as u64, "game"),
        args.opponent
    );
    outln!(
        out,
        "all finished in {elapsed:.1} s: {} actions, {} actions/s",
        crate::progress::thousands(actions as u64),
        crate::progress::thousands(rate.round() as u64)
    );
    outln!(out, "a person's action, request to answer: p50 {p50:.1} ms, p99 {p99:.1} ms over {} actions", lat.len());
    outln!(out, "every record replays to the scores the server showed ({})", plural(total, "game"));
    Ok(out)
}
