//! `carc loadtest`: many concurrent bot games on one server over loopback, with a few people playing against bots
//! through the HTTP API. Prints actions per second, the latency of a person's action and of the bot's reply while
//! the bots play, then checks that every game's record replays to the scores the server showed. With `--attack`,
//! visitors abuse the server in windows meanwhile (crate::attack) and the person's latency is printed with and
//! without them.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Meanwhile, abuse the server as an attacker would, in windows of 4 s every 8 s: 1,100 idle connections,
    /// headers sent a byte at a time, a body declared a gigabyte long, games created and hints asked as fast as one
    /// address can (the hints with specs meant to overflow a bot), past views of a long game replayed by two
    /// readers, and a hundred spectator sockets that never read. Prints what was refused, a person's action
    /// latency with and without the abuse, and the memory before and after.
    #[arg(long)]
    attack: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Where the load test's legitimate visitors seem to come from, one address each, as a proxy in front would say.
fn visitor(i: usize) -> String {
    format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255)
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
    post_from(agent, url, token, body, None)
}

/// [`post`] from a visitor's address (`X-Forwarded-For`).
fn post_from(
    agent: &ureq::Agent,
    url: &str,
    token: Option<&str>,
    body: &Value,
    from: Option<&str>,
) -> Result<(u16, Value)> {
    let mut req = agent.post(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    if let Some(ip) = from {
        req = req.header("X-Forwarded-For", ip);
    }
    read(req.send_json(body), url)
}

fn scores(view: &Value) -> Vec<i64> {
    view["game"]["players"]
        .as_array()
        .map_or_else(Vec::new, |ps| ps.iter().filter_map(|p| p["score"].as_i64()).collect())
}

/// What a person's game measured: each action's round trip (with whether an attack window was open when it was
/// sent), and each bot reply (from the action's answer to the next decision of the person's being shown).
#[derive(Debug, Default)]
struct Timings {
    actions: Vec<(f64, bool)>,
    replies: Vec<f64>,
}

/// One person's game, played to its end.
fn play_person(
    base: &str,
    id: &str,
    token: &str,
    seed: u64,
    deadline: Instant,
    attacking: &AtomicBool,
    timings: &Mutex<Timings>,
) -> Result<()> {
    let agent = agent();
    let url = format!("{base}/api/games/{id}");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut waiting_since: Option<Instant> = None;
    loop {
        ensure!(Instant::now() < deadline, "a person's game did not finish in time");
        let v = get(&agent, &url, Some(token))?;
        if v["status"] == "finished" {
            return Ok(());
        }
        let legal = v["game"]["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            // The bot is thinking.
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let mut t = timings.lock().map_err(|_| anyhow::anyhow!("a person's thread failed"))?;
        if let Some(since) = waiting_since.take() {
            t.replies.push(since.elapsed().as_secs_f64() * 1000.0);
        }
        drop(t);
        let a = legal[rng.random_range(0..legal.len())].clone();
        let under_attack = attacking.load(Ordering::Relaxed);
        let sent = Instant::now();
        let (status, answer) =
            post(&agent, &format!("{url}/actions"), Some(token), &json!({ "action": a, "version": v["version"] }))?;
        let ms = sent.elapsed().as_secs_f64() * 1000.0;
        ensure!(status == 200, "the person's action {a} was refused: {status} {answer}");
        if answer["game"]["legal"].as_array().is_some_and(Vec::is_empty) && answer["status"] == "running" {
            waiting_since = Some(Instant::now());
        }
        timings.lock().map_err(|_| anyhow::anyhow!("a person's thread failed"))?.actions.push((ms, under_attack));
    }
}

/// p50 and p99 of some figures, in order.
fn spread(mut v: Vec<f64>) -> (f64, f64, usize) {
    v.sort_by(f64::total_cmp);
    (percentile(&v, 0.5), percentile(&v, 0.99), v.len())
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
    // The server's default limits, behind a proxy that names each visitor's address (the load test's own visitors
    // each have one of their own).
    let limits = carcassonne_server::Limits { bot_threads: threads, trust_proxy: true, ..Default::default() };
    let (listener, server) = runtime.block_on(async {
        let server =
            carcassonne_server::Server::open_with(&db, limits).await.with_context(|| format!("opening `{db}`"))?;
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

    let rss_before = crate::attack::rss_mb();

    // The games: bots only, and a person against a bot.
    let mut bot_games = Vec::new();
    for i in 0..args.games {
        let seats: Vec<Value> = bots.iter().map(|b| json!({ "bot": b })).collect();
        let body = json!({ "seats": seats, "sets": args.sets });
        let (status, v) = post_from(&agent, &format!("{base}/api/games"), None, &body, Some(&visitor(i)))?;
        ensure!(status == 201, "creating a game: {status} {v}");
        bot_games.push(v["id"].as_str().unwrap_or_default().to_string());
    }
    let timings = Arc::new(Mutex::new(Timings::default()));
    let attacking = Arc::new(AtomicBool::new(args.attack));
    let bots_done = Arc::new(AtomicBool::new(false));
    let mut people = Vec::new();
    for i in 0..args.people {
        let (base, t, a, done) = (base.clone(), Arc::clone(&timings), Arc::clone(&attacking), Arc::clone(&bots_done));
        let (opponent, sets, first) = (args.opponent.clone(), args.sets.clone(), args.games + i * 10_000);
        // A person plays one game; under attack, game after game until the bot games are over, so that their
        // actions fall both inside and outside the attack's windows.
        let again = args.attack;
        people.push(std::thread::spawn(move || -> Result<Vec<String>> {
            let client = self::agent();
            let mut games = Vec::new();
            loop {
                let body = json!({
                    "seats": [{ "name": format!("person {}", i + 1), "auto_confirm": true }, { "bot": opponent }],
                    "sets": sets,
                });
                let from = visitor(first + games.len());
                let (status, v) = post_from(&client, &format!("{base}/api/games"), None, &body, Some(&from))?;
                ensure!(status == 201, "creating a game: {status} {v}");
                let id = v["id"].as_str().unwrap_or_default().to_string();
                let token = v["seats"][0]["token"].as_str().unwrap_or_default().to_string();
                play_person(&base, &id, &token, (i + 10 * games.len()) as u64, deadline, &a, &t)?;
                games.push(id);
                if !again || done.load(Ordering::Relaxed) {
                    return Ok(games);
                }
            }
        }));
    }
    // The person's game the attackers watch: one of their own, against the person's opponent.
    let mut person_games: Vec<String> = Vec::new();

    // The attackers, in windows: 4 s on, 4 s off, until the games are over.
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(crate::attack::Tally::default());
    let mut attackers = Vec::new();
    if args.attack {
        let body = json!({ "seats": [{ "name": "attacker" }, { "bot": "random" }] });
        let (status, own) = post_from(&agent, &format!("{base}/api/games"), None, &body, Some("203.0.113.7"))?;
        ensure!(status == 201, "creating the attacker's game: {status} {own}");
        let own_game = own["id"].as_str().unwrap_or_default().to_string();
        let long_game = bot_games.first().cloned().unwrap_or_else(|| own_game.clone());
        let attack = crate::attack::Attack {
            server: addr,
            own_game: own_game.clone(),
            own_token: own["seats"][0]["token"].as_str().unwrap_or_default().to_string(),
            long_actions: get(&agent, &format!("{base}/api/games/{long_game}"), None)?["version"].as_u64().unwrap_or(0)
                as usize,
            long_game,
            watched_game: own_game,
            active: Arc::clone(&attacking),
            stop: Arc::clone(&stop),
            tally: Arc::clone(&tally),
        };
        attackers = attack.start();
        let (a, st) = (Arc::clone(&attacking), Arc::clone(&stop));
        attackers.push(std::thread::spawn(move || {
            while !st.load(Ordering::Relaxed) {
                for _ in 0..40 {
                    if st.load(Ordering::Relaxed) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                a.fetch_xor(true, Ordering::Relaxed);
            }
            a.store(false, Ordering::Relaxed);
        }));
    }

    // Wait for the bot games to finish, then for the people.
    let ours: std::collections::HashSet<String> = bot_games.iter().cloned().collect();
    let total = args.games as u64;
    let bar = crate::progress::bar(total, "games", args.json || !std::io::stderr().is_terminal());
    loop {
        let mut done = 0u64;
        for page in 0.. {
            let url = format!("{base}/api/games?status=finished&limit=1000&offset={}", page * 1000);
            let lobby = get(&agent, &url, None)?;
            let games = lobby["games"].as_array().cloned().unwrap_or_default();
            done += games.iter().filter(|g| ours.contains(g["id"].as_str().unwrap_or_default())).count() as u64;
            if games.len() < 1000 {
                break;
            }
        }
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
    bots_done.store(true, Ordering::Relaxed);
    for p in people {
        person_games.extend(p.join().map_err(|_| anyhow::anyhow!("a person's thread panicked"))??);
    }
    let total = (bot_games.len() + person_games.len()) as u64;
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        a.join().map_err(|_| anyhow::anyhow!("an attacker's thread panicked"))?;
    }
    let rss_after = crate::attack::rss_mb();

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

    let t = timings.lock().map_err(|_| anyhow::anyhow!("a person's thread failed"))?;
    let (p50, p99, n) = spread(t.actions.iter().map(|a| a.0).collect());
    let (quiet50, quiet99, quiet_n) = spread(t.actions.iter().filter(|a| !a.1).map(|a| a.0).collect());
    let (hit50, hit99, hit_n) = spread(t.actions.iter().filter(|a| a.1).map(|a| a.0).collect());
    let (reply50, reply99, reply_n) = spread(t.replies.clone());
    let rate = actions as f64 / elapsed;
    let mb = |m: Option<f64>| m.map_or("?".to_string(), |m| format!("{m:.0} MB"));
    if args.json {
        let mut v = json!({
            "bot_games": args.games, "person_games": args.people, "bots": bots, "opponent": args.opponent,
            "sets": args.sets, "db": store_kind, "bot_threads": threads, "seconds": elapsed, "actions": actions,
            "actions_per_second": rate, "person_actions": n, "person_p50_ms": p50, "person_p99_ms": p99,
            "bot_replies": reply_n, "bot_reply_p50_ms": reply50, "bot_reply_p99_ms": reply99,
            "replayed": total, "rss_mb_before": rss_before, "rss_mb_after": rss_after,
        });
        if args.attack {
            v["attack"] = json!({
                "refused": tally.json(),
                "quiet": { "actions": quiet_n, "p50_ms": quiet50, "p99_ms": quiet99 },
                "under_attack": { "actions": hit_n, "p50_ms": hit50, "p99_ms": hit99 },
                "p99_ratio": hit99 / quiet99,
            });
        }
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    let mut out = String::new();
    outln!(
        out,
        "{} on one server over loopback ({store_kind}, {}): {} of {} at once, {} of a person against {}",
        plural(total, "game"),
        count(threads as u64, "bot thread", "bot threads"),
        count(args.games as u64, "bot game", "bot games"),
        bots.join(" v "),
        plural(person_games.len() as u64, "game"),
        args.opponent
    );
    outln!(
        out,
        "all finished in {elapsed:.1} s: {} actions, {} actions/s",
        crate::progress::thousands(actions as u64),
        crate::progress::thousands(rate.round() as u64)
    );
    outln!(out, "a person's action, request to answer: p50 {p50:.1} ms, p99 {p99:.1} ms over {n} actions");
    outln!(
        out,
        "the bot's reply to a person (action answered to the person's next decision shown): p50 {reply50:.1} ms, \
         p99 {reply99:.1} ms over {reply_n} replies"
    );
    if args.attack {
        let r = tally.json();
        outln!(out, "under attack (4 s windows, every 8 s):");
        outln!(
            out,
            "  idle connections: {} opened, {} closed at once; slow headers: {} closed by the deadline",
            r["idle_connections"]["opened"],
            r["idle_connections"]["closed_at_once"],
            r["slow_headers_closed"]
        );
        outln!(
            out,
            "  a body declared 1 GB: {} refused with 413 (slowest answer {} ms)",
            r["oversized_bodies"]["refused_413"],
            r["oversized_bodies"]["slowest_ms"]
        );
        outln!(
            out,
            "  creations from one address: {} accepted, {} refused (429); hints: {} answered, {} refused (429), \
             {} refused (400, not a fixed level)",
            r["creations"]["accepted"],
            r["creations"]["refused_429"],
            r["hints"]["answered"],
            r["hints"]["refused_429"],
            r["hints"]["refused_400"]
        );
        outln!(
            out,
            "  past views replayed: {}; spectator sockets that never read: {} open, {} refused; failed requests: {}",
            r["past_views_read"],
            r["spectator_sockets"]["opened"],
            r["spectator_sockets"]["refused"],
            r["failed_requests"]
        );
        outln!(
            out,
            "a person's action: quiet p50 {quiet50:.1} ms, p99 {quiet99:.1} ms ({quiet_n}); under attack p50 \
             {hit50:.1} ms, p99 {hit99:.1} ms ({hit_n}): p99 {:.2}x",
            hit99 / quiet99
        );
    }
    outln!(out, "memory (the whole process, server included): {} before, {} after", mb(rss_before), mb(rss_after));
    outln!(out, "every record replays to the scores the server showed ({})", plural(total, "game"));
    Ok(out)
}
