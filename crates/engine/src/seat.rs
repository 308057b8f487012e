//! Seats at the table.

use std::fmt;

/// A seat at the table, 0 for the first player in seat order: who owns a
/// follower, whose turn it is, whose view is asked for. A seat is a type of
/// its own so that it is never confused with the other small numbers of
/// the rules (a piece, a feature, a follower count); a game hands out only
/// its own seats ([`crate::Game::seat`], [`crate::Game::seats`]), and
/// [`Seat::new`] refuses a number no game has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The most seats a game has (the rules allow 2 to 6 players).
    pub const MAX: usize = 6;

    /// The seat with this index, if some game can have it (below
    /// [`Seat::MAX`]); whether a given game has it is [`crate::Game::seat`].
    pub const fn new(index: usize) -> Option<Seat> {
        if index < Seat::MAX {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The seat's index: 0 for the first player.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one at a table of `players`.
    #[inline]
    pub(crate) fn next(self, players: usize) -> Seat {
        let n = players.clamp(1, Seat::MAX);
        Seat(((self.index() + 1) % n) as u8)
    }

    /// The seat `r` places after this one at a table of `players` (the
    /// inverse of [`Seat::after`]): the order in which an observation lists
    /// the seats, its own first.
    #[inline]
    pub fn ahead(self, r: usize, players: usize) -> Seat {
        let n = players.clamp(1, Seat::MAX);
        Seat(((self.index() + r % n) % n) as u8)
    }

    /// How many seats after `viewer` this seat sits at a table of
    /// `players` (0: the viewer's own): observations put the observing
    /// seat's planes first.
    #[inline]
    pub fn after(self, viewer: Seat, players: usize) -> usize {
        let n = players.max(1);
        (self.index() % n + n - viewer.index() % n) % n
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_seats_some_game_has_are_made() {
        assert_eq!(Seat::new(5).map(Seat::index), Some(5));
        assert_eq!(Seat::new(6), None);
        assert_eq!(Seat::new(usize::MAX), None);
    }

    #[test]
    fn the_next_seat_wraps_and_offsets_count_from_the_viewer() {
        let s = |i| Seat::new(i).unwrap();
        assert_eq!(s(2).next(3), s(0));
        assert_eq!(s(0).next(3), s(1));
        assert_eq!(s(0).after(s(1), 3), 2);
        assert_eq!(s(1).after(s(1), 3), 0);
        assert_eq!(s(2).after(s(0), 3), 2);
        assert_eq!(s(1).ahead(2, 3), s(0));
        for r in 0..3 {
            assert_eq!(s(1).ahead(r, 3).after(s(1), 3), r);
        }
    }
}
