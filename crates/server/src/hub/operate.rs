//! What an operator may do to any game (`crate::admin` checks the
//! operator's token): stop a game, remove an open one.

use std::sync::Arc;

use super::live::GameHandle;
use super::{unavailable, Hub};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, Status};

impl Hub {
    /// Ends a game at once, as if resigned by nobody: its bots stop, its
    /// clients are told, its log stays. A game already over is left.
    /// `why` goes to the log.
    pub async fn stop(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        why: &str,
    ) -> Result<(), ProtocolError> {
        let mut live = handle.live.lock().await;
        if live.status.is_over() {
            return Err(ProtocolError::new(
                ErrorCode::GameOver,
                format!("the game is over already ({})", live.status.as_str()),
            ));
        }
        self.end_resigned(handle, &mut live, None).await?;
        tracing::info!("game {}: stopped ({why})", handle.id);
        Ok(())
    }

    /// Removes an open game (nothing was played in it); a started game is
    /// refused: its log is kept, stop it instead.
    pub async fn delete_open(&self, id: &GameId) -> Result<(), ProtocolError> {
        if !self.store.delete_open(id).await.map_err(unavailable)? {
            return Err(ProtocolError::new(
                ErrorCode::BadRequest,
                "only an open game can be removed (a started game's log is kept): stop it instead",
            ));
        }
        self.let_go(id, super::Gone::Removed).await;
        tracing::info!("game {id}: removed by the operator");
        Ok(())
    }

    /// The server's figures for `GET /metrics`, in the OpenMetrics text
    /// format.
    pub async fn metrics_text(&self) -> Result<String, ProtocolError> {
        let counts = self.store.count_by_status().await.map_err(unavailable)?;
        let games = [
            Status::Open,
            Status::Playing,
            Status::Finished,
            Status::Resigned,
        ]
        .into_iter()
        .map(|status| {
            let n = counts
                .iter()
                .find(|(s, _)| *s == status)
                .map_or(0, |(_, n)| *n);
            (status.as_str(), n)
        })
        .collect();
        let refusals = &self.guard.refusals;
        let now = crate::metrics::Snapshot {
            games,
            in_memory: self.live_games(),
            connections: self.guard.open_connections(),
            committed: self.committed_actions(),
            refusals: vec![
                (
                    "rate",
                    refusals.rate.load(std::sync::atomic::Ordering::Relaxed),
                ),
                (
                    "connection",
                    refusals
                        .connections
                        .load(std::sync::atomic::Ordering::Relaxed),
                ),
            ],
        };
        Ok(self.metrics.encode(&now))
    }
}
