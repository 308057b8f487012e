//! A connection attaches to a game's audiences here (only audiences
//! someone listens as are written for, `messages.rs`), and a client that
//! reconnects is sent the `played` messages it missed: at most
//! [`CATCH_UP_MOVES`] of them, streamed one at a time; a client further
//! behind gets a snapshot (the welcome with today's view) instead.

use std::sync::Arc;

use bastide_engine::record::ActionJson;
use bastide_engine::{Game, GameConfig};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use super::live::{GameHandle, Occupant};
use super::messages::{new_events, played_text, Played, Update};
use super::Hub;
use crate::protocol::{Audience, ErrorCode, ProtocolError};
use crate::store::players::Account;
use crate::store::{Status, StoreError};

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
    pub backlog: Backlog,
    /// Who the connection speaks for.
    pub audience: Audience,
}

/// The most missed versions a reconnect is sent as `played` messages; a
/// client further behind is sent the current view in its welcome, as if
/// it had nothing (a long game's catch-up would otherwise be one message
/// with the whole board per version).
pub const CATCH_UP_MOVES: u32 = 32;

/// The `played` messages a reconnecting client missed, written one at a
/// time on the blocking pool as the connection takes them: nothing is
/// written ahead of a connection that does not read, and the writing
/// stops when the connection is dropped.
pub struct Backlog(Option<mpsc::Receiver<String>>);

impl Backlog {
    /// The next message, `None` once all are sent (or the catch-up failed:
    /// the cause is logged, and the client sees a gap and asks again).
    pub async fn next(&mut self) -> Option<String> {
        self.0.as_mut()?.recv().await
    }
}

impl Hub {
    /// Subscribes a connection that said hello: resolves its token (`who`,
    /// the connection's signed-in account, for a rated game's seats), and
    /// returns its welcome and the actions it missed since `since`.
    pub async fn attach(
        &self,
        handle: &Arc<GameHandle>,
        token: Option<&str>,
        since: Option<u32>,
        who: Option<&Account>,
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
                let seat = Hub::seat_for(&live, t, who)?;
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
        // Too far behind: the client is sent a snapshot, not every move.
        let since = since.filter(|s| version - s <= CATCH_UP_MOVES);
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
        let backlog = Backlog(missed.map(|(config, actions, since, offers)| {
            // One message ahead of the connection at most.
            let (tx, rx) = mpsc::channel(1);
            let id = handle.id.clone();
            tokio::task::spawn_blocking(move || {
                if let Err(e) = catch_up(config, &actions, since, audience, offers, &tx) {
                    tracing::error!("game {id}: catch-up failed: {e}");
                }
            });
            rx
        }));
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

/// Sends the `played` messages for one audience after version `since`,
/// replayed from the configuration, one at a time: it stops as soon as
/// the connection is gone.
fn catch_up(
    config: GameConfig,
    actions: &[ActionJson],
    since: u32,
    audience: Audience,
    offers_legal: bool,
    out: &mpsc::Sender<String>,
) -> Result<(), StoreError> {
    replay_after(config, actions, since, |game, played| {
        if out.is_closed() {
            return Flow::Stop;
        }
        // Legal actions as the audience would be offered them now: only
        // the last of these messages can be acted on anyway. Past clocks
        // are not rebuilt; the welcome has today's.
        let text = played_text(game, played, audience, offers_legal, None);
        match out.blocking_send(text) {
            Ok(()) => Flow::Go,
            Err(_) => Flow::Stop,
        }
    })
}

/// Whether a replay goes on ([`replay_after`]'s callback says).
pub(super) enum Flow {
    /// On to the next action.
    Go,
    /// Nobody wants the rest.
    Stop,
}

/// Replays `actions` from the configuration and calls `each` for every
/// action after the first `since`, with the game after it and what every
/// audience is told of it (a reconnect's catch-up, the move log), until
/// `each` says stop.
pub(super) fn replay_after(
    config: GameConfig,
    actions: &[ActionJson],
    since: u32,
    each: impl FnMut(&Game, &Played<'_>) -> Flow,
) -> Result<(), StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        game: String::new(),
        message,
    };
    let game = Game::new(config).map_err(|e| corrupt(e.to_string()))?;
    replay_from(game, 0, actions, since, each)
}

/// [`replay_after`] from `game`, the game after the first `first` actions
/// of the log (a snapshot): `actions` are the log's from index `first`.
pub(super) fn replay_from(
    mut game: Game,
    first: usize,
    actions: &[ActionJson],
    since: u32,
    mut each: impl FnMut(&Game, &Played<'_>) -> Flow,
) -> Result<(), StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        game: String::new(),
        message,
    };
    for (i, a) in actions.iter().enumerate().map(|(i, a)| (i + first, a)) {
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
            if let Flow::Stop = each(&game, &played) {
                break;
            }
        }
    }
    Ok(())
}
