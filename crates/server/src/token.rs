//! Seat tokens: 256 random bits from the operating system, shown once to the seat's holder and stored only as their
//! SHA-256 hash, compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Random bytes from the operating system.
///
/// # Errors
/// When the operating system gives no randomness (the server cannot run safely without it).
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)?;
    Ok(buf)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A new secret token: 32 random bytes as 64 hex digits.
pub(crate) fn new_token() -> Result<String, getrandom::Error> {
    Ok(hex(&random_bytes::<32>()?))
}

/// A new game id: 8 random bytes as 16 hex digits.
pub(crate) fn new_game_id() -> Result<String, getrandom::Error> {
    Ok(hex(&random_bytes::<8>()?))
}

/// What is stored of a token: its SHA-256, in hex.
pub(crate) fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` hashes to `stored`, compared in constant time.
pub(crate) fn matches(token: &str, stored: &str) -> bool {
    let h = hash(token);
    h.len() == stored.len() && bool::from(h.as_bytes().ct_eq(stored.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_verified_by_their_hash() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        let stored = hash(&a);
        assert_ne!(stored, a, "the token itself is not stored");
        assert!(matches(&a, &stored));
        assert!(!matches(&b, &stored));
        assert!(!matches("", &stored));
        assert!(!matches(&a, ""));
    }
}
