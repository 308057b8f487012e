//! Seat tokens: 128 random bits shown once to the creator, stored only as
//! a SHA-256 hash, compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The SHA-256 hash of a token, as stored.
pub type TokenHash = [u8; 32];

/// `N` random bytes from the operating system as lowercase hex.
pub fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    fill_random(&mut bytes);
    hex(&bytes)
}

/// Fills `buf` from the operating system's generator. Without one the
/// server cannot hand out unguessable tokens at all, so it stops.
pub fn fill_random(buf: &mut [u8]) {
    if let Err(e) = getrandom::fill(buf) {
        panic!("the operating system's random generator failed: {e}");
    }
}

/// A random `u64` (seeds).
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    fill_random(&mut b);
    u64::from_le_bytes(b)
}

/// A new seat token: 128 random bits as 32 hex digits, and its hash.
pub fn new_token() -> (String, TokenHash) {
    let token = random_hex::<16>();
    let hash = hash_token(&token);
    (token, hash)
}

/// The token of a seat that follows another (a rematch's seat for the
/// person who held `previous`), and its hash: derived from the previous
/// token's hash and `context` (the new game's id), so that every instance
/// holding the previous game can tell its own connections their new
/// token without it travelling between instances. The previous hash is
/// as secret as a token (it never leaves the server), so the result is as
/// unguessable as [`new_token`]'s.
pub fn following_token(previous: &TokenHash, context: &str) -> (String, TokenHash) {
    let mut h = Sha256::new();
    h.update(b"bastide following seat token\0");
    h.update(previous);
    h.update(context.as_bytes());
    let digest: [u8; 32] = h.finalize().into();
    // 128 bits, as a new token has.
    let token = hex(&digest[..16]);
    let hash = hash_token(&token);
    (token, hash)
}

/// Hashes a token as presented by a client.
pub fn hash_token(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// Finds the seat whose hash matches `token`. Every seat is compared, in
/// constant time, whatever matches, so timing says nothing about the
/// tokens held.
pub fn find_seat<'a>(
    token: &str,
    hashes: impl Iterator<Item = Option<&'a TokenHash>>,
) -> Option<usize> {
    let presented = hash_token(token);
    let mut found = None;
    for (seat, hash) in hashes.enumerate() {
        if let Some(h) = hash {
            if bool::from(h.ct_eq(&presented)) && found.is_none() {
                found = Some(seat);
            }
        }
    }
    found
}

/// Lower-case hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// About how many bits of chance a secret written by a person holds: its
/// length times the bits of the smallest alphabet its characters fit in
/// (hex digits 4, digits 3.3, letters and digits up to 6, anything else
/// 6.5), and none for one that repeats a handful of characters
/// (`aaaaaaaaaaaaaaaa` is 16 characters and no secret at all).
pub fn strength_bits(secret: &str) -> u32 {
    let chars: Vec<char> = secret.chars().collect();
    let mut distinct = chars.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 8 {
        return 0;
    }
    let hex = chars.iter().all(char::is_ascii_hexdigit)
        && !(chars.iter().any(char::is_ascii_lowercase)
            && chars.iter().any(char::is_ascii_uppercase));
    let alphabet: u32 = if hex {
        16
    } else {
        [
            (chars.iter().any(char::is_ascii_digit), 10),
            (chars.iter().any(char::is_ascii_lowercase), 26),
            (chars.iter().any(char::is_ascii_uppercase), 26),
            (chars.iter().any(|c| !c.is_ascii_alphanumeric()), 32),
        ]
        .iter()
        .filter(|(present, _)| *present)
        .map(|(_, n)| n)
        .sum()
    };
    let bits = chars.len() as f64 * f64::from(alphabet.max(2)).log2();
    // Far below u32::MAX for any secret a file holds.
    bits.min(f64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_found_by_hash_only() {
        let (a, ha) = new_token();
        let (b, hb) = new_token();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        let seats = [None, Some(ha), Some(hb)];
        assert_eq!(find_seat(&a, seats.iter().map(Option::as_ref)), Some(1));
        assert_eq!(find_seat(&b, seats.iter().map(Option::as_ref)), Some(2));
        assert_eq!(find_seat("forged", seats.iter().map(Option::as_ref)), None);
        assert_eq!(find_seat("", seats.iter().map(Option::as_ref)), None);
    }

    #[test]
    fn weak_secrets_are_told_from_strong_ones() {
        assert_eq!(strength_bits("aaaaaaaaaaaaaaaa"), 0);
        assert!(strength_bits("0123456789abcdef") < 128);
        assert!(strength_bits(&random_hex::<16>()) >= 128);
        assert!(strength_bits("Xk3_9vQ-2mZp7Rt!aB4c") >= 128);
        assert!(strength_bits("correcthorsebattery") < 128);
    }
}
