//! `POST /api/games/{id}/sit`: a stranger takes a free person's seat of
//! a public open game from the lobby; `POST /api/games/{id}/cancel`: its
//! creator cancels an open game (docs/server.md, "Taking a seat").

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};

use crate::api::{body, game, ApiResult, TokenBody};
use crate::hub::Hub;

/// The route of taking a seat.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/games/{id}/sit", post(sit))
        .route("/api/games/{id}/cancel", post(cancel))
}

/// Seats the one asking (signed in: by their account too) and answers
/// the seat with its new token; the body, if any, is ignored.
async fn sit(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    client: Option<axum::Extension<crate::guard::Client>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let player = crate::players::signed_in(&hub, &headers).await?;
    if let Some(a) = &player {
        crate::players::seen_at(&hub, a, client).await;
    }
    let seated = hub.sit(&handle, player).await?;
    Ok(Json(seated).into_response())
}

/// Cancels an open game by its creator's token: `{"cancelled": true}`.
async fn cancel(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    hub.cancel(&handle, &t.token).await?;
    Ok(Json(serde_json::json!({"cancelled": true})).into_response())
}
