//! The move history over HTTP (`GET /api/games/ID/log`): each committed
//! action with its seat and the events it caused, as the `played`
//! messages give them to a spectator but without the views, a page at a
//! time. A client rebuilds its history from it after a reload.

use std::sync::Arc;

use serde_json::{json, Value};

use super::live::GameHandle;
use super::updates::{replay_from, Flow, Replay};
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
            let (start, first, actions) = live
                .replay_start(since as usize, since as usize + LOG_PAGE)
                .map_err(unavailable)?;
            (start, first, actions, version)
        };
        let replayed = self.metrics.replayed.clone();
        let moves = tokio::task::spawn_blocking(move || {
            let from = Replay {
                start,
                first,
                actions: &actions,
                since,
            };
            replay_moves(from).inspect(|m| {
                replayed.inc_by(m.1);
            })
        })
        .await
        .map_err(|e| unavailable(StoreError::Url(format!("the log's replay failed: {e}"))))?
        .map_err(unavailable)?
        .0;
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

/// The moves after the replay's `since`, each with the events it caused,
/// and the number of actions replayed.
fn replay_moves(from: Replay<'_>) -> Result<(Vec<Value>, u64), StoreError> {
    let mut out = Vec::with_capacity(LOG_PAGE);
    let replayed = replay_from(from, |_, played| {
        out.push(json!({
            "version": played.version,
            "seat": played.seat,
            "action": played.action,
            "events": played.events,
        }));
        Flow::Go
    })?;
    Ok((out, replayed))
}
