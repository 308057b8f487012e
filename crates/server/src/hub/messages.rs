//! What each audience of a game is told: each change is written once
//! per audience (a seat, or the spectators), so that no connection is
//! ever handed another seat's text.

use bastide_engine::record::ActionJson;
use bastide_engine::{Game, Viewer};
use serde_json::{json, Value};

use crate::protocol::{Audience, Gone, AUDIENCES};

/// One change of a game, written once per audience so that no connection
/// is ever handed another seat's text.
#[derive(Debug)]
pub struct Update {
    /// The game's version after the change.
    pub version: u32,
    /// By audience index; `None` where nobody of that audience was
    /// connected when the update was made.
    texts: [Option<String>; AUDIENCES],
    /// The connections are closed after this update, with this reason
    /// (the game is gone: nothing more will come).
    closes: Option<&'static str>,
}

impl Update {
    /// Writes the message for each audience that `wanted` names.
    pub(super) fn build(
        version: u32,
        seats: usize,
        wanted: impl Fn(Audience) -> bool,
        text: impl Fn(Audience) -> String,
    ) -> Update {
        let mut texts: [Option<String>; AUDIENCES] = Default::default();
        for a in (0..seats.min(AUDIENCES - 1))
            .map(Audience::Seat)
            .chain([Audience::Spectator])
        {
            if wanted(a) {
                texts[a.index()] = Some(text(a));
            }
        }
        Update {
            version,
            texts,
            closes: None,
        }
    }

    /// The `gone` message for every audience, after which each
    /// connection is closed.
    pub(super) fn gone(version: u32, seats: usize, gone: Gone, sentence: &str) -> Update {
        let text = json!({"gone": {"reason": gone.as_str(), "message": sentence}}).to_string();
        Update {
            closes: Some(gone.as_str()),
            ..Update::build(version, seats, |_| true, |_| text.clone())
        }
    }

    /// Whether the connections close after this update, and the close
    /// frame's reason.
    pub fn closes(&self) -> Option<&'static str> {
        self.closes
    }

    /// The message for one audience (`None`: nobody of it was connected
    /// when the update was made, so it is nobody's).
    pub fn text_for(&self, audience: Audience) -> Option<&str> {
        self.texts[audience.index()].as_deref()
    }
}

/// What one audience sees of `game`, and the legal actions when it is
/// that seat's turn in a running game.
pub(super) fn audience_payload(
    game: &Game,
    audience: Audience,
    playing: bool,
) -> (Value, Option<Value>) {
    match audience {
        Audience::Seat(s) => {
            // A seat the game lacks sees what a spectator sees.
            let view = game
                .seat(s)
                .map_or_else(|| public_view(game), |seat| game.view_json(seat));
            (view, legal_for(game, audience, playing))
        }
        Audience::Spectator => (public_view(game), None),
    }
}

/// The legal actions of a seat when it is that seat's turn in a running
/// game (`playing`); `None` for anyone else.
pub(super) fn legal_for(game: &Game, audience: Audience, playing: bool) -> Option<Value> {
    match audience {
        Audience::Seat(s) => (playing && !game.is_finished() && game.current_player().index() == s)
            .then(|| serde_json::to_value(game.legal_actions_json()).unwrap_or_default()),
        Audience::Spectator => None,
    }
}

/// What anyone may see: the engine's view for a spectator (every hand
/// shown by its size only, no seat).
pub fn public_view(game: &Game) -> Value {
    game.view(Viewer::Spectator)
}

/// The `played` message for one audience.
pub(super) fn played_text(
    game: &Game,
    played: &Played<'_>,
    audience: Audience,
    playing: bool,
    clock: Option<&Value>,
) -> String {
    let (view, legal) = audience_payload(game, audience, playing);
    let mut body = json!({
        "version": played.version,
        "seat": played.seat,
        "action": played.action,
        "events": played.events,
        "view": view,
    });
    if let Some(o) = body.as_object_mut() {
        if let Some(l) = legal {
            o.insert("legal".into(), l);
        }
        if let Some(c) = clock {
            o.insert("clock".into(), c.clone());
        }
    }
    json!({ "played": body }).to_string()
}

/// What every audience is told of one committed action.
pub(super) struct Played<'a> {
    pub(super) version: u32,
    pub(super) seat: usize,
    pub(super) action: &'a ActionJson,
    /// The events it caused.
    pub(super) events: &'a Value,
}

/// The events that happened after the first `before` ones.
pub(super) fn new_events(game: &Game, before: usize) -> Value {
    serde_json::to_value(game.events_json_from(before)).unwrap_or_default()
}
