//! A connection attaches to a game's audiences here (only audiences
//! someone listens as are written for, `messages.rs`), and a client that
//! reconnects is sent the `played` messages it missed: at most
//! [`CATCH_UP_MOVES`] of them, streamed one at a time and replayed from
//! the move log's last snapshot before them (not from the start); a
//! client further behind gets the welcome with today's view instead.

use std::sync::Arc;

use bastide_engine::record::ActionJson;
use bastide_engine::Game;
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

/// The most board pieces a reconnect's `played` messages may carry in
/// all (each has the audience's view, the whole board): 32 moves of a
/// 200-tile game. Past it the client gets the snapshot, one view, as if
/// it were further behind: a few moves of an operator's 3,000-tile game
/// would otherwise cost as many views of the whole board.
pub const CATCH_UP_PIECES: u32 = CATCH_UP_MOVES * 200;

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
        let pieces = u32::try_from(live.game.board().pieces().len()).unwrap_or(u32::MAX);
        let since = since.filter(|s| {
            let missed = version - s;
            missed <= CATCH_UP_MOVES && missed.saturating_mul(pieces) <= CATCH_UP_PIECES
        });
        // Lines are said under the game's lock too: each is in this
        // welcome or reaches the receiver subscribed above, not both.
        let welcome =
            json!({ "welcome": handle.welcome_with_chat(&live, audience, since) }).to_string();
        let missed = match since.filter(|s| *s < version) {
            // Replayed from the last snapshot at or before `s`: at most a
            // page and the missed moves, however long the game.
            Some(s) => Some((
                live.replay_start(s as usize, version as usize)
                    .map_err(super::unavailable)?,
                s,
            )),
            None => None,
        };
        // A seat a bot took over is offered no legal actions.
        let person = matches!(audience, Audience::Seat(seat)
                if matches!(live.seats.get(seat), Some(Occupant::Human { .. })));
        let offers = live.status == Status::Playing && person;
        drop(live);
        let replayed = self.metrics.replayed.clone();
        let backlog = Backlog(missed.map(|((start, first, actions), since)| {
            // One message ahead of the connection at most.
            let (tx, rx) = mpsc::channel(1);
            let id = handle.id.clone();
            tokio::task::spawn_blocking(move || {
                let from = Replay {
                    start,
                    first,
                    actions: &actions,
                    since,
                };
                match catch_up(from, audience, offers, &tx) {
                    Ok(n) => {
                        replayed.inc_by(n);
                    }
                    Err(e) => tracing::error!("game {id}: catch-up failed: {e}"),
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

/// A replay of part of a game's log: from `start`, the game after the
/// log's first `first` actions (a snapshot, or the configuration's game),
/// through `actions`, the log's actions from there; the actions after
/// version `since` are shown to the caller.
pub(super) struct Replay<'a> {
    /// The game the replay starts from.
    pub(super) start: Game,
    /// How many of the log's actions `start` holds.
    pub(super) first: usize,
    /// The log's actions from index `first`.
    pub(super) actions: &'a [ActionJson],
    /// The version after which actions are shown.
    pub(super) since: u32,
}

/// Sends the `played` messages for one audience after the replay's
/// `since`, one at a time: it stops as soon as the connection is gone.
/// The number of actions replayed.
fn catch_up(
    from: Replay<'_>,
    audience: Audience,
    offers_legal: bool,
    out: &mpsc::Sender<String>,
) -> Result<u64, StoreError> {
    replay_from(from, |game, played| {
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

/// Whether a replay goes on ([`replay_from`]'s callback says).
pub(super) enum Flow {
    /// On to the next action.
    Go,
    /// Nobody wants the rest.
    Stop,
}

/// Replays `from` and calls `each` for every action after its `since`,
/// with the game after it and what every audience is told of it (a
/// reconnect's catch-up, the move log), until `each` says stop. The
/// number of actions replayed (for the operator's figures).
pub(super) fn replay_from(
    from: Replay<'_>,
    mut each: impl FnMut(&Game, &Played<'_>) -> Flow,
) -> Result<u64, StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        game: String::new(),
        message,
    };
    let Replay {
        start: mut game,
        first,
        actions,
        since,
    } = from;
    let mut replayed = 0;
    for (i, a) in actions.iter().enumerate().map(|(i, a)| (i + first, a)) {
        let action = a
            .to_action(game.catalog())
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        let before = game.events().len();
        let actor = game.current_player().index();
        game.try_apply(&action)
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        replayed += 1;
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
    Ok(replayed)
}
