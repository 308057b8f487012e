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

    /// The server's figures for `GET /metrics`, in Prometheus' text format.
    pub async fn metrics_text(&self) -> Result<String, ProtocolError> {
        use crate::metrics::scalar;
        let mut out = String::new();
        let counts = self.store.count_by_status().await.map_err(unavailable)?;
        out.push_str(
            "# HELP bastide_games Games in the store by status.\n# TYPE bastide_games gauge\n",
        );
        for status in [
            Status::Open,
            Status::Playing,
            Status::Finished,
            Status::Resigned,
        ] {
            let n = counts
                .iter()
                .find(|(s, _)| *s == status)
                .map_or(0, |(_, n)| *n);
            out.push_str(&format!(
                "bastide_games{{status=\"{}\"}} {n}\n",
                status.as_str()
            ));
        }
        scalar(
            &mut out,
            "bastide_games_in_memory",
            "gauge",
            "Games held in memory.",
            self.live_games(),
        );
        scalar(
            &mut out,
            "bastide_connections",
            "gauge",
            "TCP connections open (WebSockets included).",
            self.guard.open_connections(),
        );
        scalar(
            &mut out,
            "bastide_actions_committed_total",
            "counter",
            "Actions committed since start.",
            self.committed_actions(),
        );
        let refusals = &self.guard.refusals;
        out.push_str("# HELP bastide_refusals_total Requests, messages and connections refused for a limit.\n# TYPE bastide_refusals_total counter\n");
        out.push_str(&format!(
            "bastide_refusals_total{{kind=\"rate\"}} {}\nbastide_refusals_total{{kind=\"connection\"}} {}\n",
            refusals.rate.load(std::sync::atomic::Ordering::Relaxed),
            refusals.connections.load(std::sync::atomic::Ordering::Relaxed)
        ));
        self.metrics.write(&mut out);
        Ok(out)
    }
}
