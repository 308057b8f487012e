//! Every bound on outside input in one place: how big a record, a deck or
//! a name may be, and how much of a bad input an error message repeats.
//!
//! Each limit is far above what a real game needs, and each is checked where
//! the input enters, with an error that names it, so that no later step
//! (board keys, 16-bit indices, arithmetic on coordinates) can be pushed past
//! what it was built for.

pub use crate::geometry::COORD_LIMIT;

/// The largest record, in bytes, that [`crate::record::Record::parse`]
/// reads (16 MiB). The longest possible game ([`MAX_TILES`] tiles, four
/// actions a turn) writes well under a tenth of it.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// The most tiles a `deck` may list (10,000, about 140 base games). The
/// board indexes pieces and frontier cells with 16 bits: a line of
/// 10,000 tiles stays inside both with room to spare, and inside
/// [`COORD_LIMIT`].
pub const MAX_TILES: usize = 10_000;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// How many characters of a bad input an error message repeats.
pub const ECHO_CHARS: usize = 60;

/// `s` quoted as in Rust's `{:?}`, cut to [`ECHO_CHARS`] characters with
/// its full length said, so an error never repeats a huge input.
pub fn cut(s: &str) -> String {
    let n = s.chars().count();
    if n <= ECHO_CHARS {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(ECHO_CHARS).collect();
    format!("{head:?}… ({n} characters)")
}

/// A message cut to a few hundred characters: for errors of other
/// libraries that quote the input themselves.
pub fn cut_message(s: &str) -> String {
    const MAX: usize = 8 * ECHO_CHARS;
    let n = s.chars().count();
    if n <= MAX {
        return s.to_string();
    }
    let head: String = s.chars().take(MAX).collect();
    format!("{head}… ({} more characters)", n - MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_short_inputs_and_shortens_long_ones() {
        assert_eq!(cut("river9"), "\"river9\"");
        let long = "é".repeat(1_000_000);
        let c = cut(&long);
        assert!(c.len() < 200, "{c}");
        assert!(c.ends_with("(1000000 characters)"), "{c}");
        assert_eq!(cut_message("short"), "short");
        assert!(cut_message(&"x".repeat(10_000)).len() < 600);
    }
}
