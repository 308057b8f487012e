//! The move history over HTTP (`GET /api/games/ID/log`): each committed
//! action with its seat and the events it caused, as the `played`
//! messages give them to a spectator but without the views, a page at a
//! time. A client rebuilds its history from it after a reload.

use std::sync::Arc;

use bastide_engine::record::ActionJson;
use bastide_engine::Game;
use serde_json::{json, Value};

use super::live::GameHandle;
use super::updates::{replay_from, Flow};
use super::{unavailable, Hub};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::StoreError;

/// The most moves one answer holds: a whole base game (about 150
/// actions) comes in one page, and a long game's answer stays small
/// (a move is about 200 bytes with its events).
pub const LOG_PAGE: usize = 200;

impl Hub {
    /// The moves after version `since`, at most [`LOG_PAGE`] of them:
    /// `{"game", "version", "since", "moves": [{"version", "seat",
    /// "action", "events"}], "next"}`, where `next` is the `since` of the
    /// following page (`null`: this page reaches the game's version).
    /// Only what every spectator is told: actions and events are public
    /// (a half or a chip is named once it is played), and no view is
    /// sent, so nothing of a hand still held or of the pile is in it.
    pub async fn move_log(
        &self,
        handle: &Arc<GameHandle>,
        since: u32,
    ) -> Result<Value, ProtocolError> {
        let (start, first, actions, version) = {
            let live = handle.live.lock().await;
            let version = live.version();
            if since > version {
                return Err(ProtocolError::new(
                    ErrorCode::BadSince,
                    format!("since {since} is ahead of the game, which is at version {version}"),
                ));
            }
            // Only what this page needs is copied and replayed, from the
            // last snapshot at or before `since`: a page of a long game
            // costs at most two pages' replay, wherever it is.
            let end = (since as usize + LOG_PAGE).min(live.actions.len());
            let pages = since as usize / LOG_PAGE;
            let snapshot = pages.checked_sub(1).and_then(|k| live.snapshots.get(k));
            let (start, first) = match snapshot {
                Some(g) => (g.clone(), pages * LOG_PAGE),
                None => (
                    Game::new(live.config.clone()).map_err(|e| {
                        unavailable(StoreError::Url(format!("the log's replay failed: {e}")))
                    })?,
                    0,
                ),
            };
            (start, first, live.actions[first..end].to_vec(), version)
        };
        let moves =
            tokio::task::spawn_blocking(move || replay_moves(start, first, &actions, since))
                .await
                .map_err(|e| unavailable(StoreError::Url(format!("the log's replay failed: {e}"))))?
                .map_err(unavailable)?;
        let last = since as usize + moves.len();
        let next = (last < version as usize).then_some(last);
        Ok(json!({
            "game": handle.id.as_str(),
            "version": version,
            "since": since,
            "moves": moves,
            "next": next,
        }))
    }
}

/// The moves after version `since`, each with the events it caused,
/// replayed from `start`, the game after the log's first `first` actions
/// (`actions` are the log's from there).
fn replay_moves(
    start: Game,
    first: usize,
    actions: &[ActionJson],
    since: u32,
) -> Result<Vec<Value>, StoreError> {
    let mut out = Vec::with_capacity(LOG_PAGE);
    replay_from(start, first, actions, since, |_, played| {
        out.push(json!({
            "version": played.version,
            "seat": played.seat,
            "action": played.action,
            "events": played.events,
        }));
        Flow::Go
    })?;
    Ok(out)
}
