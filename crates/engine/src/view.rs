//! What a view is made of, below the rules that write one: who looks
//! ([`Viewer`]) and what they see of a secret hand ([`Seen`]), and the map
//! an expansion writes its part of a state into ([`ExpansionsJson`]). The
//! expansions' view hooks write into these, and `state.rs` and `openspiel`
//! on top read them, so the rules never import a view.

use serde::Serialize;

use crate::seat::Seat;

/// The expansions' parts of a state or an observation, by key in the
/// notation, in the order the expansions wrote them.
pub type ExpansionsJson = serde_json::Map<String, serde_json::Value>;

/// Writes `value` under `key` (an expansion's part of a view).
pub(crate) fn put(out: &mut ExpansionsJson, key: &str, value: impl Serialize) {
    // Our own plain data always serialises; `Null` only marks the
    // impossible case instead of panicking.
    out.insert(
        key.to_owned(),
        serde_json::to_value(value).unwrap_or_default(),
    );
}

/// Who looks at a game. The one statement of what each may see of the
/// players' secrets: a seat sees its own hand and the others' sizes, a
/// spectator only sizes, the referee every hand; nobody sees the pile's
/// order. The JSON views, the [`crate::openspiel::Observation`] (its
/// expansions' part is the same JSON), the observation tensor and the server's audiences all ask it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Someone watching who plays no seat.
    Spectator,
    /// Sees every hand (a finished game's replay, the full state); not a
    /// view to give a player or spectator of a running game.
    Referee,
}

impl Viewer {
    /// Whether this viewer may see the secret hand of `seat`.
    pub fn sees_hand_of(self, seat: Seat) -> bool {
        match self {
            Viewer::Seat(s) => s == seat,
            Viewer::Spectator => false,
            Viewer::Referee => true,
        }
    }

    /// `seat`'s secret `items` as this viewer sees them: listed, or only
    /// counted (the items are not even produced then).
    pub fn see<T>(self, seat: Seat, items: impl ExactSizeIterator<Item = T>) -> Seen<T> {
        if self.sees_hand_of(seat) {
            Seen::Shown(items.collect())
        } else {
            Seen::Hidden {
                hidden: items.len(),
            }
        }
    }

    /// The viewer's seat, if a player.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator | Viewer::Referee => None,
        }
    }
}

/// One seat's secret items as a [`Viewer`] sees them: in JSON, the list
/// itself or `{"hidden": n}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Seen<T> {
    /// The items, for a viewer who may see them.
    Shown(Vec<T>),
    /// Only how many there are.
    Hidden {
        /// The number of items.
        hidden: usize,
    },
}
