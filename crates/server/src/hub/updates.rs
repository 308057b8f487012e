//! Audiences and what they are told: each change of a game is written
//! once per audience (a seat, or the spectators), so that no connection
//! is ever handed another seat's text, and only for audiences someone
//! listens as. A connection attaches here, and a client that reconnects
//! is sent the `played` messages it missed.

use std::sync::Arc;

use bastide_engine::record::ActionJson;
use bastide_engine::{Game, GameConfig, Viewer};
use serde_json::{json, Value};
use tokio::sync::broadcast;

use super::live::{GameHandle, Occupant};
use super::{unavailable, Hub};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{Status, StoreError};

/// Who a connection speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The person in this seat: sees that seat's view.
    Seat(usize),
    /// Anyone else: sees the public view.
    Spectator,
}

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

/// Why the server let an open game go while people may be connected to
/// it: each of its connections is sent a `gone` message, then closed
/// with [`GONE_CLOSE_CODE`] (docs/server.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// Nobody started it within `Settings::open_game_ttl`.
    Expired,
    /// An operator removed it.
    Removed,
}

/// The close code after a `gone` message: 1000, a normal closure (the
/// connection's purpose is over; the message says why, and a client must
/// not reconnect).
pub const GONE_CLOSE_CODE: u16 = 1000;

impl Gone {
    /// The name in the `gone` message's `reason` and the close frame.
    pub fn as_str(self) -> &'static str {
        match self {
            Gone::Expired => "expired",
            Gone::Removed => "removed",
        }
    }

    /// The sentence a waiting room shows; `ttl` is how long an open game
    /// waits (`Settings::open_game_ttl`).
    pub fn sentence(self, ttl: Option<std::time::Duration>) -> String {
        match self {
            Gone::Expired => format!(
                "This game expired: nobody joined within {}",
                ttl.map_or_else(|| "its time".to_string(), wait_in_words)
            ),
            Gone::Removed => "This game was removed by the server's operator".to_string(),
        }
    }
}

/// A wait as a waiting room says it: "an hour", "90 minutes", "30 seconds".
fn wait_in_words(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        3600 => "an hour".into(),
        60 => "a minute".into(),
        _ if s >= 7200 && s.is_multiple_of(3600) => format!("{} hours", s / 3600),
        _ if s >= 120 && s.is_multiple_of(60) => format!("{} minutes", s / 60),
        1 => "a second".into(),
        _ if s >= 1 => format!("{s} seconds"),
        _ => format!("{} ms", d.as_millis()),
    }
}

/// Six seats and the spectators.
pub(super) const AUDIENCES: usize = 7;

impl Audience {
    pub(super) fn index(self) -> usize {
        match self {
            Audience::Seat(s) => s.min(AUDIENCES - 2),
            Audience::Spectator => AUDIENCES - 1,
        }
    }
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
    let events = game.state_json().events;
    serde_json::to_value(events.get(before..).unwrap_or_default()).unwrap_or_default()
}

/// A connection's place among a game's audiences, given up when dropped.
pub struct Watch {
    handle: Arc<GameHandle>,
    index: usize,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut w = self
            .handle
            .watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        w[self.index] = w[self.index].saturating_sub(1);
        self.handle
            .seen_ms
            .store(super::now_ms(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// What a connection receives when it says hello.
pub struct Attached {
    /// Keeps the connection counted among its audience's; drop it when
    /// the connection ends.
    pub watch: Watch,
    /// Updates after the welcome's version.
    pub updates: broadcast::Receiver<Arc<Update>>,
    /// The welcome message.
    pub welcome: String,
    /// The `played` messages the client missed, in order.
    pub backlog: Vec<String>,
    /// Who the connection speaks for.
    pub audience: Audience,
}

impl Hub {
    /// Subscribes a connection that said hello: resolves its token, and
    /// returns its welcome and the actions it missed since `since`.
    pub async fn attach(
        &self,
        handle: &Arc<GameHandle>,
        token: Option<&str>,
        since: Option<u32>,
    ) -> Result<Attached, ProtocolError> {
        let mut live = handle.live.lock().await;
        if handle.gone.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ProtocolError::new(
                ErrorCode::NotFound,
                format!("no game {}", handle.id),
            ));
        }
        if handle.is_adjourned() {
            return Err(ProtocolError::new(
                ErrorCode::Unavailable,
                "the game was adjourned: say hello again",
            ));
        }
        let audience = match token {
            Some(t) => {
                let seat = Hub::seat_of(&live, t)?;
                self.mark_joined(handle, &mut live, seat).await?;
                Audience::Seat(seat)
            }
            None => Audience::Spectator,
        };
        if self.cluster.is_some() && since.is_some_and(|s| s > live.version()) {
            // A client come from another instance may be ahead of our
            // copy: read the log before calling it ahead of the game.
            self.resync_locked(handle, &mut live, None).await;
        }
        let version = live.version();
        if let Some(s) = since.filter(|s| *s > version) {
            return Err(ProtocolError::new(
                ErrorCode::BadSince,
                format!("since {s} is ahead of the game, which is at version {version}"),
            ));
        }
        // Subscribed under the lock: every update after `version` reaches
        // this receiver, and none before it.
        let updates = handle.updates.subscribe();
        let watch = {
            let index = audience.index();
            handle.watchers.lock().unwrap_or_else(|e| e.into_inner())[index] += 1;
            Watch {
                handle: handle.clone(),
                index,
            }
        };
        // Lines are said under the game's lock too: each is in this
        // welcome or reaches the receiver subscribed above, not both.
        let welcome =
            json!({ "welcome": handle.welcome_with_chat(&live, audience, since) }).to_string();
        let missed = since.filter(|s| *s < version).map(|s| {
            // A seat a bot took over is offered no legal actions.
            let person = matches!(audience, Audience::Seat(seat)
                    if matches!(live.seats.get(seat), Some(Occupant::Human { .. })));
            (
                live.config.clone(),
                live.actions.clone(),
                s,
                live.status == Status::Playing && person,
            )
        });
        drop(live);
        let backlog = match missed {
            None => Vec::new(),
            Some((config, actions, since, offers)) => tokio::task::spawn_blocking(move || {
                catch_up(config, &actions, since, audience, offers)
            })
            .await
            .map_err(|e| unavailable(StoreError::Url(format!("catch-up failed: {e}"))))?
            .map_err(unavailable)?,
        };
        Ok(Attached {
            watch,
            updates,
            welcome,
            backlog,
            audience,
        })
    }
}

/// The `rematch` message per audience: each person connected to the old
/// game gets their own new seat's token (`tokens` by new seat).
pub(super) fn rematch_update(
    version: u32,
    n: usize,
    game: &str,
    tokens: &[Option<String>],
    handle: &GameHandle,
) -> Update {
    let text = |audience| {
        let mut body = json!({ "game": game });
        if let Audience::Seat(old) = audience {
            // Old seat s is new seat s - 1.
            let new = (old + n - 1) % n;
            if let Some(t) = tokens.get(new).and_then(Option::as_ref) {
                body["seat"] = new.into();
                body["token"] = t.clone().into();
            }
        }
        json!({ "rematch": body }).to_string()
    };
    Update::build(version, n, |a| handle.watched(a), text)
}

/// The `played` messages for one audience after version `since`, replayed
/// from the configuration.
fn catch_up(
    config: GameConfig,
    actions: &[ActionJson],
    since: u32,
    audience: Audience,
    offers_legal: bool,
) -> Result<Vec<String>, StoreError> {
    let mut out = Vec::with_capacity(actions.len().saturating_sub(since as usize));
    replay_after(config, actions, since, |game, played| {
        // Legal actions as the audience would be offered them now: only
        // the last of these messages can be acted on anyway. Past clocks
        // are not rebuilt; the welcome has today's.
        out.push(played_text(game, played, audience, offers_legal, None));
    })?;
    Ok(out)
}

/// Replays `actions` from the configuration and calls `each` for every
/// action after the first `since`, with the game after it and what every
/// audience is told of it (a reconnect's catch-up, the move log).
pub(super) fn replay_after(
    config: GameConfig,
    actions: &[ActionJson],
    since: u32,
    mut each: impl FnMut(&Game, &Played<'_>),
) -> Result<(), StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        game: String::new(),
        message,
    };
    let mut game = Game::new(config).map_err(|e| corrupt(e.to_string()))?;
    for (i, a) in actions.iter().enumerate() {
        let action = a
            .to_action(game.catalog())
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        let before = game.events().len();
        let actor = game.current_player().index();
        game.try_apply(&action)
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        if i >= since as usize {
            let events = new_events(&game, before);
            let played = Played {
                version: u32::try_from(i + 1).unwrap_or(u32::MAX),
                seat: actor,
                action: a,
                events: &events,
            };
            each(&game, &played);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Gone;
    use std::time::Duration;

    #[test]
    fn an_expired_game_says_how_long_it_waited() {
        let said = |s| Gone::Expired.sentence(Some(Duration::from_secs(s)));
        assert_eq!(
            said(3600),
            "This game expired: nobody joined within an hour"
        );
        assert_eq!(
            said(5400),
            "This game expired: nobody joined within 90 minutes"
        );
        assert_eq!(
            said(7200),
            "This game expired: nobody joined within 2 hours"
        );
        assert_eq!(
            said(45),
            "This game expired: nobody joined within 45 seconds"
        );
    }
}
