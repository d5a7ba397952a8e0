//! Integration tests of the players: legality, hidden information, determinism, and a small arena.

mod players;
