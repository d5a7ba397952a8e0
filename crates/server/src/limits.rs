//! What a server open to the public bounds, with the defaults `carc serve` starts with (docs/server-api.md,
//! "Running it in public"). Every input, queue and client is limited: a single visitor cannot stop the bots, fill
//! the database or make the server unusable for everyone else.

use std::time::Duration;

use carcassonne_ai::{BotSpec, Level};

/// The limits, each an option of `carc serve`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Workers thinking for the seats' bots. With two or more, one of them serves only games where a person sits.
    pub bot_threads: usize,
    /// Hints waiting for the hints' worker; past that a hint is refused at once (429).
    pub hint_queue: usize,
    /// Hints a seat may ask for in a minute.
    pub hints_per_minute: u32,
    /// Chat messages a seat may write in a minute.
    pub chat_per_minute: u32,
    /// Games one address may create in a minute (and take open seats: joins count too).
    pub creates_per_minute: u32,
    /// The longest a seat's bot may think a decision (its spec's `time`).
    pub max_bot_time: Duration,
    /// The most iterations a seat's bot may run a decision.
    pub max_bot_iterations: u64,
    /// The most threads a seat's bot may search with.
    pub max_bot_threads: usize,
    /// The most tile kinds a game's own tiles (`custom_tiles`, `tile_file`) may add.
    pub max_custom_kinds: usize,
    /// The most tiles (copies of every kind added) a game's own tiles may add.
    pub max_custom_tiles: u32,
    /// WebSockets one game may have open (its seats' and its spectators').
    pub sockets_per_game: usize,
    /// WebSockets one address may have open.
    pub sockets_per_address: usize,
    /// Connections open at once, in all; past that a new connection is closed at once.
    pub max_connections: usize,
    /// Connections one address may have open at once.
    pub connections_per_address: usize,
    /// How long a client has to send a request's headers, which is also how long a kept-alive connection may wait
    /// idle for its next request.
    pub header_timeout: Duration,
    /// How long a request may take, its body included (408 past that).
    pub request_timeout: Duration,
    /// Take the client's address from the last `X-Forwarded-For` entry (only behind a proxy that sets it).
    pub trust_proxy: bool,
    /// A running game nobody has changed for this long is abandoned: it is finished as it stands (`None`: never).
    pub abandon_after: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            bot_threads: 2,
            hint_queue: 4,
            hints_per_minute: 6,
            chat_per_minute: 12,
            creates_per_minute: 10,
            max_bot_time: Duration::from_secs(2),
            max_bot_iterations: 200_000,
            max_bot_threads: 2,
            max_custom_kinds: 64,
            max_custom_tiles: 200,
            sockets_per_game: 1_000,
            sockets_per_address: 64,
            max_connections: 1_024,
            connections_per_address: 128,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            trust_proxy: false,
            abandon_after: Some(Duration::from_secs(30 * 24 * 3600)),
        }
    }
}

/// The longest a custom tile's id may be.
pub(crate) const MAX_TILE_ID: usize = 32;

/// The bots a person may ask for a hint: the fixed specs, without settings.
pub(crate) fn hint_spec(text: &str) -> Result<BotSpec, String> {
    let spec: BotSpec = text.parse().map_err(|e: carcassonne_ai::SpecError| e.to_string())?;
    let fixed = match &spec {
        BotSpec::Random => text.trim() == "random",
        BotSpec::Greedy(_) => text.trim() == "greedy",
        BotSpec::Level(l, c) => *c == l.config(),
        BotSpec::Mcts(_) | BotSpec::Style(_) | BotSpec::Reference(..) => false,
    };
    if !fixed {
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        return Err(format!("a hint comes from greedy or a level ({}), without settings", levels.join(", ")));
    }
    Ok(spec)
}

impl Limits {
    /// A seat's bot must think within these bounds: the levels always do (hard thinks at most a second on two
    /// threads); an `mcts` spec must give a time within `max_bot_time`, or iterations within `max_bot_iterations`,
    /// and no more threads than `max_bot_threads`.
    pub(crate) fn check_seat_bot(&self, spec: &BotSpec) -> Result<(), String> {
        let Some(c) = spec.mcts() else { return Ok(()) };
        let fixed = match spec {
            BotSpec::Level(l, c) => *c == l.config(),
            BotSpec::Reference(r, c) => *c == r.config(),
            _ => false,
        };
        if fixed {
            return Ok(());
        }
        if c.threads > self.max_bot_threads {
            return Err(format!("a seat's bot searches on at most {} threads", self.max_bot_threads));
        }
        let time_ok = c.budget.time.is_some_and(|t| t <= self.max_bot_time);
        let iterations_ok = c.budget.iterations.is_some_and(|n| n <= self.max_bot_iterations);
        if c.budget.time.is_some_and(|t| t > self.max_bot_time) || !(time_ok || iterations_ok) {
            return Err(format!(
                "a seat's bot thinks at most {} ms a decision, or {} iterations",
                self.max_bot_time.as_millis(),
                self.max_bot_iterations
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_come_from_fixed_specs_only() {
        for ok in ["greedy", "easy", "medium", "hard", "random"] {
            assert!(hint_spec(ok).is_ok(), "{ok}");
        }
        for bad in ["mcts:time=1e19s", "mcts", "hard:threads=16", "medium:time=20s", "greedy:city_close=3", "x"] {
            assert!(hint_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seat_bots_stay_within_their_budget() {
        let l = Limits::default();
        for ok in ["hard", "medium", "greedy", "random", "mcts:time=500ms", "mcts:iterations=1000", "hard:threads=1"] {
            assert!(l.check_seat_bot(&ok.parse().unwrap()).is_ok(), "{ok}");
        }
        for bad in ["mcts:time=20s", "mcts:iterations=none,time=3s", "mcts:threads=16", "mcts:iterations=100000000"] {
            assert!(l.check_seat_bot(&bad.parse().unwrap()).is_err(), "{bad}");
        }
    }
}
