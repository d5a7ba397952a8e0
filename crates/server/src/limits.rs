//! What a server open to the public bounds, with the defaults `carc serve` starts with (docs/server-api.md,
//! "Running it in public"). Every input, queue and client is limited: a single visitor cannot stop the bots, fill
//! the database or make the server unusable for everyone else.

use std::net::{IpAddr, Ipv6Addr};
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
    /// Spectators' WebSockets one game may have open. Its seats' sockets are not counted here: each seat always
    /// has room for [`SOCKETS_PER_SEAT`] of its own, so watchers can never keep the players out.
    pub sockets_per_game: usize,
    /// WebSockets one address may have open. A seat's socket past it takes the place of the address's oldest
    /// spectator socket.
    pub sockets_per_address: usize,
    /// How often a WebSocket is pinged.
    pub socket_ping: Duration,
    /// A WebSocket that has sent nothing (not even the answer to a ping) for this long, or that has not taken a
    /// message from the server in this long, is closed.
    pub socket_timeout: Duration,
    /// The per-address limits count an IPv6 address by its first this many bits (64: one network, which is what
    /// one host is usually given). IPv4 addresses, and IPv4 addresses written as IPv6 (`::ffff:a.b.c.d`), count
    /// whole.
    pub ipv6_prefix: u8,
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
            socket_ping: Duration::from_secs(20),
            socket_timeout: Duration::from_secs(60),
            ipv6_prefix: 64,
            max_connections: 1_024,
            connections_per_address: 128,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            trust_proxy: false,
            abandon_after: Some(Duration::from_secs(30 * 24 * 3600)),
        }
    }
}

/// WebSockets each seat of a game may have open (a player's tabs and devices); a seat's socket past that closes the
/// seat's oldest one.
pub const SOCKETS_PER_SEAT: usize = 4;

/// The most bytes a request's line and headers may take together; past that the answer is `431`.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The key the per-address limits count `ip` under: an IPv4 address whole (also when written as IPv6,
/// `::ffff:a.b.c.d`), an IPv6 address by its first `prefix` bits (at most 128).
pub fn address_key(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u32::from(prefix.min(128));
                let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
            }
        },
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
    fn addresses_are_counted_by_host() {
        let key = |a: &str, p| address_key(a.parse().unwrap(), p).to_string();
        assert_eq!(key("192.0.2.7", 64), "192.0.2.7");
        assert_eq!(key("::ffff:192.0.2.7", 64), "192.0.2.7");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 48), "2001:db8:1::");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 128), "2001:db8:1:2:aaaa:bbbb:cccc:dddd");
        assert_eq!(key("2001:db8::1", 0), "::");
        assert_eq!(key("2001:db8::1", 200), "2001:db8::1");
        assert_eq!(key("::1", 64), "::");
    }

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
