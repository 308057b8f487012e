//! `GET /api/games/{id}/ratings`: what a rated game that ended did to
//! each player's rating (docs/server.md, "Players"), for the end of game
//! panel.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::api::{game, ApiResult};
use crate::hub::{unavailable, Hub};

/// The route of a game's rating changes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/games/{id}/ratings", get(ratings))
}

/// `{"rated": bool, "changes": [{"seat", "player", "before", "after", "change"}]}`:
/// no changes for an unrated game or one not over.
async fn ratings(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let rated = hub.summary(&handle).await.rated;
    let changes = hub
        .store()
        .game_ratings(handle.id())
        .await
        .map_err(unavailable)?;
    let changes: Vec<_> = changes
        .iter()
        .map(|c| {
            json!({
                "seat": c.seat, "player": c.name, "before": c.before, "after": c.after,
                "change": c.after - c.before,
            })
        })
        .collect();
    Ok(Json(json!({"rated": rated, "changes": changes})).into_response())
}
