//! Every bound on outside input in one place: how big a record, a deck or
//! a name may be, and how much of a bad input an error message repeats.
//!
//! Each limit is far above what a real game needs, and each is checked where
//! the input enters, with an error that names it, so that no later step
//! (board keys, 16-bit indices, arithmetic on coordinates) can be pushed past
//! what it was built for.

/// The largest coordinate, east, west, north or south, that a cell may have.
///
/// No game reaches it ([`crate::config::MAX_TILES`] tiles in a line from the
/// start reach 10,000), and the board's cell keys and the Plague's compact
/// 16-bit cells need room to spare. Every coordinate that comes from outside
/// (records, the command line) is checked against it before it becomes a
/// [`crate::Pos`], so arithmetic on neighbouring cells can never overflow.
pub const COORD_LIMIT: i32 = 16_000;

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

/// The most actions a record may hold: 100,000, ten for each of
/// [`MAX_TILES`] turns (a turn takes at most five).
pub const MAX_ACTIONS: usize = 100_000;

/// Reads a JSON list of at most `MAX` items, failing at item `MAX + 1`
/// before it is built, so a long list costs no more memory than the limit.
pub(crate) fn bounded_vec<'de, D, T, const MAX: usize>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    struct Bounded<T, const MAX: usize>(std::marker::PhantomData<T>);
    impl<'de, T: serde::Deserialize<'de>, const MAX: usize> serde::de::Visitor<'de>
        for Bounded<T, MAX>
    {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "a list of at most {MAX} items")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX).min(4096));
            while let Some(item) = seq.next_element()? {
                if out.len() == MAX {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX} items; at most {MAX} are allowed"
                    )));
                }
                out.push(item);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded::<T, MAX>(std::marker::PhantomData))
}

/// [`bounded_vec`] for an optional list.
pub(crate) fn bounded_opt_vec<'de, D, T, const MAX: usize>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    bounded_vec::<D, T, MAX>(d).map(Some)
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
