//! Seats and actions: joining, leaving, starting, resigning, and the one
//! path by which an action changes a game. An action is checked by the
//! engine on a copy of the game, appended to the store's log, and only
//! then applied to the cache and broadcast; on any refusal nothing
//! changes.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use bastide_engine::limits::cut_message;
use bastide_engine::record::{ActionError, ActionJson};
use bastide_engine::Game;

use super::live::{GameHandle, LiveGame, Occupant};
use super::messages::{new_events, played_text, Played, Update};
use super::{now_ms, unavailable, Hub};
use crate::clock::ClockState;
use crate::cluster::Notice;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::rating::{bot_rating, Class, Glicko};
use crate::store::players::{Account, GameEnd};
use crate::store::{GameId, Status, StoreError};

impl Hub {
    pub(super) fn seat_of(live: &LiveGame, token: &str) -> Result<usize, ProtocolError> {
        live.seat_for_token(token).ok_or_else(|| {
            ProtocolError::new(
                ErrorCode::BadToken,
                "that token is not a seat's token in this game",
            )
        })
    }

    /// The seat a token belongs to, for the signed-in account `who`: in a
    /// rated game a seat an account holds is played by that account's
    /// session alone, whoever else has its token (the game's creator was
    /// handed every seat's, and resigned a rival's seat with it).
    pub(super) fn seat_for(
        live: &LiveGame,
        token: &str,
        who: Option<&Account>,
    ) -> Result<usize, ProtocolError> {
        let seat = Hub::seat_of(live, token)?;
        let holder = live.seats.get(seat).and_then(Occupant::player);
        match holder {
            Some(h) if live.rated && who.is_none_or(|w| w.id != h.id) => {
                Err(ProtocolError::new(
                    ErrorCode::Forbidden,
                    format!(
                        "seat {seat} of this rated game is held by {}: only their own session plays it, a token alone does not; sign in as {} to play it",
                        h.name, h.name
                    ),
                ))
            }
            _ => Ok(seat),
        }
    }

    /// Claims the seat a token belongs to; a signed-in `player` holds it
    /// by their account from then on (docs/server.md, "Players").
    pub async fn join(
        &self,
        handle: &GameHandle,
        token: &str,
        player: Option<Account>,
    ) -> Result<usize, ProtocolError> {
        let mut live = handle.live.lock().await;
        let seat = Hub::seat_for(&live, token, player.as_ref())?;
        if live.status.is_over() {
            return Err(ProtocolError::new(
                ErrorCode::GameOver,
                format!(
                    "the game is over ({}): nothing to join; watch its replay or ask for a rematch",
                    live.status.as_str()
                ),
            ));
        }
        self.bind_player(handle, &mut live, seat, player, None)
            .await?;
        self.mark_joined(handle, &mut live, seat).await?;
        Ok(seat)
    }

    /// A guest's seat claimed by the account they signed in with (docs/
    /// server.md, "Players"): the token's seat is held by the account from
    /// now on, in a game of any status; an ended game enters the player's
    /// history with the seat's place (it moves no rating: it was not rated).
    pub async fn claim_seat(
        &self,
        handle: &GameHandle,
        token: &str,
        player: Account,
    ) -> Result<usize, ProtocolError> {
        let mut live = handle.live.lock().await;
        let seat = Hub::seat_of(&live, token)?;
        let place = live
            .status
            .is_over()
            .then(|| crate::rating::places(&live.game.scores(), live.resigned))
            .and_then(|p| p.get(seat).copied());
        self.bind_player(handle, &mut live, seat, Some(player), place)
            .await?;
        Ok(seat)
    }

    /// Binds a seat to the account of the player who joined it: a seat
    /// held by another account stays theirs, and in a rated game every
    /// person must be signed in and hold one seat only.
    pub(super) async fn bind_player(
        &self,
        handle: &GameHandle,
        live: &mut LiveGame,
        seat: usize,
        player: Option<Account>,
        place: Option<u8>,
    ) -> Result<(), ProtocolError> {
        let holder = live.seats.get(seat).and_then(Occupant::player).cloned();
        let Some(player) = player else {
            if live.rated && holder.is_none() {
                return Err(ProtocolError::new(
                    ErrorCode::SignInRequired,
                    "this game is rated: sign in to take a seat",
                ));
            }
            return Ok(());
        };
        match holder {
            Some(h) if h.id == player.id => return Ok(()),
            Some(h) => {
                return Err(ProtocolError::new(
                    ErrorCode::Forbidden,
                    format!("seat {seat} is held by {}", h.name),
                ))
            }
            None => {}
        }
        if live.rated
            && live
                .seats
                .iter()
                .any(|s| s.player().is_some_and(|p| p.id == player.id))
        {
            return Err(ProtocolError::new(
                ErrorCode::Forbidden,
                "in a rated game a player holds one seat only",
            ));
        }
        // Seats are numbered below six.
        self.store
            .bind_seat(&handle.id, seat as u8, player.id, place)
            .await
            .map_err(unavailable)?;
        if let Some(Occupant::Human { player: p, .. }) = live.seats.get_mut(seat) {
            *p = Some(player);
        }
        // Other instances read the seat's new holder from the store.
        self.notify(&handle.id, Notice::Changed { timeout: None })
            .await;
        Ok(())
    }

    /// Writes a game's end: its status, and for a game with accounts in
    /// it each seat's place and (rated) the new ratings, all in one
    /// transaction.
    pub(super) async fn write_end(
        &self,
        id: &GameId,
        live: &LiveGame,
        status: Status,
        resigned: Option<usize>,
    ) -> Result<(), StoreError> {
        // Seats are numbered below six.
        let resigned_row = resigned.map(|s| s as u8);
        if !live.seats.iter().any(|s| s.player().is_some()) {
            return self.store.set_status(id, status, resigned_row).await;
        }
        let places = crate::rating::places(&live.game.scores(), resigned);
        // A game stopped (resigned by nobody) is no result to rate, nor
        // one resigned (or lost on time) before every seat moved: the
        // game was never played (lichess aborts it), and a player could
        // otherwise hand a friend rating by resigning at once.
        let result = status == Status::Finished || (resigned.is_some() && live.everyone_moved());
        let rated = (live.rated && result).then(|| {
            let accounts = live.seats.iter().map(|s| s.player().map(|p| p.id));
            let fixed = live.seats.iter().map(|s| match s {
                Occupant::Bot(spec) => bot_rating(&spec.to_string()),
                // Read from the store in the transaction.
                Occupant::Human { .. } => Glicko::NEW,
            });
            (
                Class::of(live.seats.len()),
                accounts.collect(),
                fixed.collect(),
            )
        });
        let end = GameEnd {
            status,
            resigned: resigned_row,
            places,
            rated,
            at_ms: now_ms(),
        };
        self.store.end_game(id, &end).await.map(|_| ())
    }

    /// Leaves a seat before the start: the seat shows as free again, and
    /// its invite link stays good for whoever takes it next.
    pub async fn leave(
        &self,
        handle: &GameHandle,
        token: &str,
        who: Option<&Account>,
    ) -> Result<usize, ProtocolError> {
        let mut live = handle.live.lock().await;
        let seat = Hub::seat_for(&live, token, who)?;
        if live.status != Status::Open {
            return Err(ProtocolError::new(
                ErrorCode::BadRequest,
                "a seat can be left only before the start; resign instead",
            ));
        }
        self.set_joined(handle, &mut live, seat, false).await?;
        Ok(seat)
    }

    pub(super) async fn mark_joined(
        &self,
        handle: &GameHandle,
        live: &mut LiveGame,
        seat: usize,
    ) -> Result<(), ProtocolError> {
        self.set_joined(handle, live, seat, true).await
    }

    /// Marks a person's seat as claimed or free, if it is not already;
    /// before the start, tells the game's connections (a `status` with
    /// the new `seats`): a waiting room shows who has come. (Once the game
    /// runs, its messages are about moves: a late claim is told to nobody.)
    async fn set_joined(
        &self,
        handle: &GameHandle,
        live: &mut LiveGame,
        seat: usize,
        now: bool,
    ) -> Result<(), ProtocolError> {
        let Some(Occupant::Human { joined, .. }) = live.seats.get_mut(seat) else {
            return Ok(());
        };
        if *joined == now {
            return Ok(());
        }
        // Seats are numbered below six.
        let row = seat as u8;
        if now {
            self.store.mark_joined(&handle.id, row).await
        } else {
            self.store.mark_left(&handle.id, row).await
        }
        .map_err(unavailable)?;
        *joined = now;
        self.notify(&handle.id, Notice::Changed { timeout: None })
            .await;
        if live.status == Status::Open {
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
        }
        Ok(())
    }

    /// Starts an open game; any seat's token may.
    pub async fn start(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        token: &str,
        who: Option<&Account>,
    ) -> Result<(), ProtocolError> {
        {
            let mut live = handle.live.lock().await;
            Hub::seat_for(&live, token, who)?;
            if let Some(seat) = live
                .seats
                .iter()
                .position(|s| matches!(s, Occupant::Human { player: None, .. }))
                .filter(|_| live.rated)
            {
                return Err(ProtocolError::new(
                    ErrorCode::BadRequest,
                    format!("a rated game starts once every person's seat is held by a signed-in player; seat {seat} is not yet"),
                ));
            }
            match live.status {
                Status::Open => {}
                Status::Playing => {
                    return Err(ProtocolError::new(
                        ErrorCode::BadRequest,
                        "the game has already started",
                    ))
                }
                _ => return Err(game_over()),
            }
            let now = now_ms();
            if !self
                .store
                .start_game(&handle.id, now)
                .await
                .map_err(unavailable)?
            {
                return Err(ProtocolError::new(
                    ErrorCode::BadRequest,
                    "the game has already started",
                ));
            }
            live.status = Status::Playing;
            self.budget.started(&handle.id);
            let n = live.seats.len();
            live.clock = live.clock_spec.clone().map(|c| ClockState::new(c, n, now));
            self.notify(&handle.id, Notice::Changed { timeout: None })
                .await;
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
            self.claim(&handle.id, &live).await;
            self.arm_timer(handle, &mut live);
        }
        self.schedule_bots(handle.clone());
        Ok(())
    }

    /// Ends a running game: the token's seat resigns.
    pub async fn resign(&self, handle: &Arc<GameHandle>, seat: usize) -> Result<(), ProtocolError> {
        let mut live = handle.live.lock().await;
        match live.status {
            Status::Playing => {}
            Status::Open => {
                return Err(ProtocolError::new(
                    ErrorCode::NotStarted,
                    "the game has not started: there is nothing to resign",
                ))
            }
            _ => return Err(game_over()),
        }
        self.end_resigned(handle, &mut live, Some(seat)).await
    }

    /// Ends a game as resigned by `seat` (`None`: by nobody, stopped):
    /// stored first, then its timer stops, other instances and its
    /// connections are told.
    pub(super) async fn end_resigned(
        &self,
        handle: &Arc<GameHandle>,
        live: &mut LiveGame,
        seat: Option<usize>,
    ) -> Result<(), ProtocolError> {
        self.write_end(&handle.id, live, Status::Resigned, seat)
            .await
            .map_err(unavailable)?;
        live.status = Status::Resigned;
        live.resigned = seat;
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        self.notify(&handle.id, Notice::Changed { timeout: None })
            .await;
        handle.publish(|| live.status_update(None, |a| handle.watched(a)));
        self.ended(handle);
        Ok(())
    }

    /// Resigns by token (HTTP).
    pub async fn resign_token(
        &self,
        handle: &Arc<GameHandle>,
        token: &str,
        who: Option<&Account>,
    ) -> Result<usize, ProtocolError> {
        let seat = Hub::seat_for(&*handle.live.lock().await, token, who)?;
        self.resign(handle, seat).await?;
        Ok(seat)
    }

    /// Checks, commits and broadcasts one action for `seat`. With
    /// `expected`, the action is refused unless the game is at that
    /// version. On any refusal nothing changes.
    pub async fn submit(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        seat: usize,
        action: ActionJson,
        expected: Option<u32>,
        by_bot: bool,
    ) -> Result<u32, ProtocolError> {
        let version = {
            let mut live = handle.live.lock().await;
            match live.status {
                Status::Playing => {}
                Status::Open => {
                    return Err(ProtocolError::new(
                        ErrorCode::NotStarted,
                        "the game has not started yet",
                    ))
                }
                Status::Finished | Status::Resigned => return Err(game_over()),
            }
            if self.cluster.is_some() && expected.is_some_and(|v| v > live.version()) {
                // The client saw a version our copy lacks (it came from
                // another instance): catch up before judging the action.
                self.resync_locked(handle, &mut live, None).await;
            }
            if live.game.is_finished() {
                return Err(game_over());
            }
            if live.deadline().is_some_and(|d| now_ms() >= d) {
                // The timer has not fired yet, but time is up.
                self.flag_fall(handle, &mut live).await;
                return Err(ProtocolError::new(
                    ErrorCode::Timeout,
                    "the seat to act ran out of time",
                ));
            }
            if by_bot != matches!(live.seats.get(seat), Some(Occupant::Bot(_))) {
                return Err(ProtocolError::new(
                    ErrorCode::BadToken,
                    format!("seat {seat} is played by a bot now (its person ran out of time)"),
                ));
            }
            let version = live.version();
            if let Some(v) = expected.filter(|v| *v != version) {
                return Err(ProtocolError::new(
                    ErrorCode::StaleVersion,
                    format!("the action was for version {v}, but the game is at version {version}: someone acted first"),
                ));
            }
            let to_act = live.game.current_player().index();
            if to_act != seat {
                return Err(ProtocolError::new(
                    ErrorCode::NotYourTurn,
                    format!("seat {to_act} is to act, not seat {seat}"),
                ));
            }
            let engine_action = action.to_action(live.game.catalog()).map_err(|e| match e {
                ActionError::Malformed(m) => ProtocolError::new(ErrorCode::BadAction, m),
                ActionError::Illegal(i) => ProtocolError::new(ErrorCode::Illegal, i.to_string()),
            })?;
            let mut next = live.game.clone();
            next.try_apply(&engine_action)
                .map_err(|e| ProtocolError::new(ErrorCode::Illegal, cut_message(&e.to_string())))?;
            // Written as the engine would write it, so the log is canonical.
            let action = ActionJson::from_action(&engine_action, live.game.catalog());
            let text = serde_json::to_string(&action).map_err(|e| {
                ProtocolError::new(
                    ErrorCode::BadAction,
                    format!("cannot write the action: {e}"),
                )
            })?;
            let at = now_ms();
            match self
                .store
                .append_action(&handle.id, version, &text, at)
                .await
            {
                Ok(()) => {}
                Err(StoreError::Conflict { .. }) => {
                    // Another instance wrote this index first: our copy
                    // is behind. Catch up from the log (telling our
                    // clients what they missed) and refuse.
                    self.resync_locked(handle, &mut live, None).await;
                    drop(live);
                    self.schedule_bots(handle.clone());
                    return Err(ProtocolError::new(
                        ErrorCode::StaleVersion,
                        "another action was committed first",
                    ));
                }
                Err(e) => return Err(unavailable(e)),
            }
            // Committed: now the other instances, the cache and the clients.
            self.committed.fetch_add(1, Ordering::Relaxed);
            let version = version + 1;
            self.notify(
                &handle.id,
                Notice::Played {
                    version,
                    seat,
                    action: action.clone(),
                    at,
                },
            )
            .await;
            self.apply_committed(handle, &mut live, next, seat, action, at);
            if live.game.is_finished() {
                if let Err(e) = self
                    .write_end(&handle.id, &live, Status::Finished, None)
                    .await
                {
                    // The log says it is finished; a reload repairs this.
                    tracing::warn!("game {}: status not written: {e}", handle.id);
                }
            }
            self.arm_timer(handle, &mut live);
            version
        };
        self.schedule_bots(handle.clone());
        Ok(version)
    }

    /// Applies a committed action (`next` is the game after it) to the
    /// cache and tells this instance's clients.
    pub(super) fn apply_committed(
        &self,
        handle: &Arc<GameHandle>,
        live: &mut LiveGame,
        next: Game,
        seat: usize,
        action: ActionJson,
        at: i64,
    ) {
        let before = live.game.events().len();
        live.game = next;
        live.actions.push(action.clone());
        if let Some(a) = live.acted.get_mut(seat) {
            *a = true;
        }
        if live.actions.len().is_multiple_of(super::LOG_PAGE) {
            let snapshot = live.game.clone();
            live.snapshots.push(snapshot);
        }
        if let Some(c) = live.clock.as_mut() {
            let person = matches!(live.seats.get(seat), Some(Occupant::Human { .. }));
            let turn_ended = live.game.is_finished() || live.game.current_player().index() != seat;
            c.charge(person.then_some(seat), at, turn_ended);
        }
        let version = live.version();
        let finished = live.game.is_finished();
        if finished {
            live.status = Status::Finished;
        }
        handle.publish(|| {
            let events = new_events(&live.game, before);
            let clock = live.clock_json();
            let text = |audience| {
                let played = Played {
                    version,
                    seat,
                    action: &action,
                    events: &events,
                };
                played_text(
                    &live.game,
                    &played,
                    audience,
                    live.offers_legal(audience),
                    clock.as_ref(),
                )
            };
            Update::build(version, live.seats.len(), |a| handle.watched(a), text)
        });
        if finished {
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
            self.ended(handle);
        }
    }
}

fn game_over() -> ProtocolError {
    ProtocolError::new(ErrorCode::GameOver, "the game is over")
}
