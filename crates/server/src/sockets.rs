//! Who holds the server's WebSockets, and who gets in: the admission rules that keep watchers from locking a game's
//! players out (issue 37).
//!
//! - A spectator's socket counts against its game's `sockets_per_game` and its address's `sockets_per_address`;
//!   past either, `429`.
//! - A seat's socket never counts against its game's cap: each seat has room for [`SOCKETS_PER_SEAT`] of its own,
//!   and a seat's socket past that closes the seat's oldest one (a player's new tab replaces a forgotten one).
//! - A seat's socket past its address's cap takes the place of that address's oldest spectator socket; only an
//!   address whose sockets are all seats' is refused (it is then holding its own seats).
//!
//! The table is plain data behind a lock: no I/O, so the rules are tested here without a socket. A socket that is
//! pushed out is told through its [`CancellationToken`] and closes itself.

use std::collections::BTreeMap;
use std::net::IpAddr;

use carcassonne::Player;
use tokio_util::sync::CancellationToken;

use crate::limits::{Limits, SOCKETS_PER_SEAT};

/// One open socket.
#[derive(Debug)]
struct Entry {
    game: String,
    seat: Option<Player>,
    addr: Option<IpAddr>,
    /// Cancelled when the socket must close to make room.
    close: CancellationToken,
}

/// Why a socket was not admitted (each a `429`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    /// The game has this many spectators' sockets open.
    #[error("this game has {0} spectators' sockets open: watch it later")]
    GameFull(usize),
    /// The address has this many sockets open.
    #[error("an address may keep {0} sockets open")]
    AddressFull(usize),
}

/// The open sockets, oldest first (ids only grow).
#[derive(Debug, Default)]
pub(crate) struct SocketTable {
    next: u64,
    open: BTreeMap<u64, Entry>,
}

impl SocketTable {
    /// Admit a socket of `game` from `addr`, as `seat` (a spectator's without): its id and the token that says when
    /// it must close. Sockets pushed out to make room are cancelled and forgotten at once.
    ///
    /// # Errors
    /// When a cap is reached and nobody may be pushed out.
    pub(crate) fn admit(
        &mut self,
        limits: &Limits,
        game: &str,
        seat: Option<Player>,
        addr: Option<IpAddr>,
    ) -> Result<(u64, CancellationToken), Refusal> {
        match seat {
            None => {
                let watching = self.open.values().filter(|e| e.game == game && e.seat.is_none()).count();
                if watching >= limits.sockets_per_game {
                    return Err(Refusal::GameFull(limits.sockets_per_game));
                }
                if addr.is_some() && self.from(addr) >= limits.sockets_per_address {
                    return Err(Refusal::AddressFull(limits.sockets_per_address));
                }
            }
            Some(p) => {
                let own: Vec<u64> =
                    self.open.iter().filter(|(_, e)| e.game == game && e.seat == Some(p)).map(|(id, _)| *id).collect();
                if own.len() >= SOCKETS_PER_SEAT {
                    self.push_out(own[0]);
                }
                if addr.is_some() && self.from(addr) >= limits.sockets_per_address {
                    let oldest_spectator =
                        self.open.iter().find(|(_, e)| e.addr == addr && e.seat.is_none()).map(|(id, _)| *id);
                    match oldest_spectator {
                        Some(id) => self.push_out(id),
                        None => return Err(Refusal::AddressFull(limits.sockets_per_address)),
                    }
                }
            }
        }
        let id = self.next;
        self.next += 1;
        let close = CancellationToken::new();
        self.open.insert(id, Entry { game: game.to_string(), seat, addr, close: close.clone() });
        Ok((id, close))
    }

    /// Forget socket `id` (it closed); nothing if it was pushed out already.
    pub(crate) fn release(&mut self, id: u64) {
        self.open.remove(&id);
    }

    /// How many sockets are open.
    pub(crate) fn len(&self) -> usize {
        self.open.len()
    }

    fn from(&self, addr: Option<IpAddr>) -> usize {
        self.open.values().filter(|e| e.addr == addr).count()
    }

    fn push_out(&mut self, id: u64) {
        if let Some(e) = self.open.remove(&id) {
            e.close.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_game: usize, per_address: usize) -> Limits {
        Limits { sockets_per_game: per_game, sockets_per_address: per_address, ..Limits::default() }
    }

    fn ip(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([192, 0, 2, last]))
    }

    #[test]
    fn spectators_are_capped_per_game_and_per_address_but_seats_are_not_held_back_by_them() {
        let l = limits(3, 10);
        let mut t = SocketTable::default();
        for i in 0..3 {
            t.admit(&l, "g", None, ip(i)).unwrap();
        }
        assert_eq!(t.admit(&l, "g", None, ip(9)).map(|_| ()), Err(Refusal::GameFull(3)));
        assert!(t.admit(&l, "other", None, ip(9)).is_ok(), "another game has its own cap");
        for p in 0..6 {
            assert!(t.admit(&l, "g", Some(Player(p)), ip(9)).is_ok(), "seat {p}");
        }
    }

    #[test]
    fn a_seat_past_its_addresss_cap_pushes_out_the_oldest_spectator_of_that_address() {
        let l = limits(100, 3);
        let mut t = SocketTable::default();
        let (_, first) = t.admit(&l, "g", None, ip(1)).unwrap();
        let (_, seat) = t.admit(&l, "h", Some(Player(0)), ip(1)).unwrap();
        let (_, third) = t.admit(&l, "g", None, ip(1)).unwrap();
        assert_eq!(t.admit(&l, "g", None, ip(1)).map(|_| ()), Err(Refusal::AddressFull(3)));
        t.admit(&l, "g", Some(Player(1)), ip(1)).unwrap();
        assert!(first.is_cancelled() && !seat.is_cancelled() && !third.is_cancelled());
        assert_eq!(t.len(), 3);
        t.admit(&l, "g", Some(Player(0)), ip(1)).unwrap();
        assert!(third.is_cancelled());
        // Only seats left from that address: a fourth seat's socket is refused.
        assert_eq!(t.admit(&l, "k", Some(Player(0)), ip(1)).map(|_| ()), Err(Refusal::AddressFull(3)));
        assert!(!seat.is_cancelled());
    }

    #[test]
    fn a_seats_own_sockets_replace_each_other_oldest_first() {
        let l = limits(100, 100);
        let mut t = SocketTable::default();
        let tokens: Vec<_> = (0..SOCKETS_PER_SEAT).map(|_| t.admit(&l, "g", Some(Player(2)), ip(1)).unwrap()).collect();
        let (_, newest) = t.admit(&l, "g", Some(Player(2)), ip(4)).unwrap();
        assert!(tokens[0].1.is_cancelled());
        assert!(tokens[1..].iter().all(|(_, c)| !c.is_cancelled()) && !newest.is_cancelled());
        assert_eq!(t.len(), SOCKETS_PER_SEAT);
        // Releasing a socket pushed out already changes nothing.
        t.release(tokens[0].0);
        assert_eq!(t.len(), SOCKETS_PER_SEAT);
        t.release(tokens[1].0);
        assert_eq!(t.len(), SOCKETS_PER_SEAT - 1);
    }

    #[test]
    fn sockets_without_a_known_address_count_only_against_their_game() {
        let l = limits(2, 1);
        let mut t = SocketTable::default();
        t.admit(&l, "g", None, None).unwrap();
        t.admit(&l, "g", None, None).unwrap();
        assert_eq!(t.admit(&l, "g", None, None).map(|_| ()), Err(Refusal::GameFull(2)));
    }
}
