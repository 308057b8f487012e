//! Time controls: a Fischer clock per seat (a time for the whole game plus
//! an increment each turn) and a turn timer (the longest one turn may take,
//! e.g. days in a correspondence game). Only people's time runs: bots are
//! bounded by the server's per-move limit instead.
//!
//! The clock state is never stored as such: it is rebuilt from when the
//! game started and when each action was committed, so a restart loses
//! nothing. Time the server was down counts as thinking time of the seat
//! that was to act.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The longest any time setting may be: 30 days.
pub const MAX_MS: u64 = 30 * 24 * 3600 * 1000;

/// The shortest time a seat may be given.
pub const MIN_MS: u64 = 50;

/// What happens to a person who runs out of time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnTimeout {
    /// The seat loses: the game ends as if it resigned.
    #[default]
    Lose,
    /// A bot (`greedy`) plays the seat from then on; the token stops
    /// working.
    Bot,
}

/// A game's time control, as given when the game is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Each person's time for the whole game, in milliseconds (none: no
    /// game clock, only the turn timer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<u64>,
    /// Added to a person's time each time their turn ends.
    #[serde(default)]
    pub increment_ms: u64,
    /// The longest one turn may take, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_ms: Option<u64>,
    /// What happens when a person runs out of time.
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// A correspondence game: days per move, one of
    /// [`CORRESPONDENCE_DAYS`]; the server sets `turn_ms` from it when the
    /// game is created ([`ClockSpec::settle_days`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u8>,
}

/// The days per move a correspondence game may have.
pub const CORRESPONDENCE_DAYS: [u8; 4] = [1, 2, 3, 7];

impl ClockSpec {
    /// Checks the numbers: something must run, nothing beyond 30 days.
    pub fn check(&self) -> Result<(), String> {
        if let Some(d) = self.days_per_move {
            if !CORRESPONDENCE_DAYS.contains(&d) {
                return Err(format!("days_per_move is {d}: give 1, 2, 3 or 7"));
            }
            if self.turn_ms.is_some() || self.initial_ms.is_some() {
                return Err(
                    "days_per_move is a time control of its own: give it without initial_ms or turn_ms"
                        .into(),
                );
            }
            return Ok(());
        }
        if self.initial_ms.is_none() && self.turn_ms.is_none() {
            return Err(
                "a clock needs initial_ms (time for the game) or turn_ms (time per turn)".into(),
            );
        }
        for (name, v) in [("initial_ms", self.initial_ms), ("turn_ms", self.turn_ms)] {
            if let Some(v) = v.filter(|v| !(MIN_MS..=MAX_MS).contains(v)) {
                return Err(format!(
                    "{name} is {v}: give {MIN_MS} to {MAX_MS} milliseconds (30 days)"
                ));
            }
        }
        if self.increment_ms > MAX_MS {
            return Err(format!("increment_ms may be at most {MAX_MS} (30 days)"));
        }
        Ok(())
    }

    /// Turns days per move into the turn timer that enforces them, `day`
    /// long each (a day; tests shorten it). The spec is stored with the
    /// timer set, so a restart keeps every deadline.
    pub fn settle_days(&mut self, day: std::time::Duration) {
        if let Some(d) = self.days_per_move {
            let day_ms = u64::try_from(day.as_millis()).unwrap_or(u64::MAX);
            self.turn_ms = Some(day_ms.saturating_mul(u64::from(d)).clamp(MIN_MS, MAX_MS));
        }
    }

    /// Whether this is a correspondence game (days per move).
    pub fn is_correspondence(&self) -> bool {
        self.days_per_move.is_some()
    }
}

/// Every seat's time, as of the last commit.
#[derive(Clone, Debug)]
pub struct ClockState {
    /// The time control.
    pub spec: ClockSpec,
    /// Each seat's time left as of `last_ms` (people only; may go below
    /// zero only on the commit that loses on time).
    remaining: Vec<i64>,
    /// When the last action was committed (or the game started).
    last_ms: i64,
    /// When the current turn began.
    turn_started_ms: i64,
}

/// Milliseconds as a signed count; settings are bounded by [`MAX_MS`].
fn signed(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl ClockState {
    /// The clocks of a game of `seats` seats started at `started_ms`.
    pub fn new(spec: ClockSpec, seats: usize, started_ms: i64) -> ClockState {
        let initial = spec.initial_ms.map_or(0, signed);
        ClockState {
            spec,
            remaining: vec![initial; seats],
            last_ms: started_ms,
            turn_started_ms: started_ms,
        }
    }

    /// Charges the time since the last commit to `actor` (a person, or
    /// nobody for a bot) at `at_ms`; when the action ended the turn, adds
    /// the increment and starts the next turn's timer.
    pub fn charge(&mut self, actor: Option<usize>, at_ms: i64, turn_ended: bool) {
        let used = at_ms.saturating_sub(self.last_ms).max(0);
        let increment = signed(self.spec.increment_ms);
        if let Some(r) = actor.and_then(|s| self.remaining.get_mut(s)) {
            *r = r.saturating_sub(used);
            if turn_ended {
                *r = r.saturating_add(increment);
            }
        }
        self.last_ms = at_ms;
        if turn_ended {
            self.turn_started_ms = at_ms;
        }
    }

    /// When `seat`, to act now, runs out of time (Unix milliseconds).
    pub fn deadline(&self, seat: usize) -> Option<i64> {
        let game = self
            .spec
            .initial_ms
            .and_then(|_| self.remaining.get(seat))
            .map(|r| self.last_ms.saturating_add(*r));
        let turn = self
            .spec
            .turn_ms
            .map(|t| self.turn_started_ms.saturating_add(signed(t)));
        match (game, turn) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The clocks for clients: each seat's time left as of `since`, the
    /// seat whose time runs (if any), and that seat's deadline. A client
    /// counts down from these with its own clock.
    pub fn to_json(&self, running: Option<usize>) -> Value {
        json!({
            "spec": self.spec,
            "remaining_ms": self.spec.initial_ms.map(|_| &self.remaining),
            "since": self.last_ms,
            "running": running,
            "turn_started": self.turn_started_ms,
            "deadline": running.and_then(|s| self.deadline(s)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(initial: Option<u64>, inc: u64, turn: Option<u64>) -> ClockSpec {
        ClockSpec {
            initial_ms: initial,
            increment_ms: inc,
            turn_ms: turn,
            on_timeout: OnTimeout::Lose,
            days_per_move: None,
        }
    }

    #[test]
    fn fischer_time_is_charged_and_incremented_per_turn() {
        let mut c = ClockState::new(spec(Some(10_000), 2_000, None), 2, 1_000);
        assert_eq!(c.deadline(0), Some(11_000));
        // Seat 0 places after 3 s and passes after 1 s more: one turn.
        c.charge(Some(0), 4_000, false);
        assert_eq!(c.deadline(0), Some(11_000));
        c.charge(Some(0), 5_000, true);
        // 10 - 4 + 2 = 8 s left; seat 1 now has its 10 s from 5 s on.
        assert_eq!(c.remaining, vec![8_000, 10_000]);
        assert_eq!(c.deadline(1), Some(15_000));
        // A bot's time is not charged.
        c.charge(None, 9_000, true);
        assert_eq!(c.remaining, vec![8_000, 10_000]);
        assert_eq!(c.deadline(0), Some(17_000));
    }

    #[test]
    fn the_turn_timer_bounds_each_turn() {
        let mut c = ClockState::new(spec(Some(60_000), 0, Some(5_000)), 2, 0);
        assert_eq!(c.deadline(0), Some(5_000));
        c.charge(Some(0), 3_000, false);
        assert_eq!(c.deadline(0), Some(5_000), "the turn's timer keeps running");
        c.charge(Some(0), 4_000, true);
        assert_eq!(c.deadline(1), Some(9_000));
        let only_turns = ClockState::new(spec(None, 0, Some(86_400_000)), 2, 0);
        assert_eq!(only_turns.deadline(1), Some(86_400_000));
    }

    #[test]
    fn settings_are_bounded() {
        assert!(spec(None, 0, None).check().is_err());
        assert!(spec(Some(10), 0, None).check().is_err());
        assert!(spec(Some(MAX_MS + 1), 0, None).check().is_err());
        assert!(spec(Some(1000), MAX_MS + 1, None).check().is_err());
        assert!(spec(Some(1000), 0, None).check().is_ok());
        assert!(spec(None, 0, Some(MAX_MS)).check().is_ok());
    }

    #[test]
    fn correspondence_is_days_per_move() {
        let days = |d| ClockSpec {
            days_per_move: Some(d),
            ..spec(None, 0, None)
        };
        for d in CORRESPONDENCE_DAYS {
            assert!(days(d).check().is_ok());
        }
        assert!(days(4).check().is_err());
        assert!(ClockSpec {
            turn_ms: Some(1000),
            ..days(1)
        }
        .check()
        .is_err());
        let mut c = days(7);
        c.settle_days(std::time::Duration::from_secs(86_400));
        assert_eq!(c.turn_ms, Some(7 * 86_400_000));
    }
}
