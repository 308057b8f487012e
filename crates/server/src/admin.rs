//! The operator's endpoints, behind the token of `--admin-token-file`
//! (`Authorization: Bearer TOKEN`): list, stop and remove games, block an
//! address, read the metrics. Without a token configured they answer 404,
//! as if they did not exist.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::api::{body, game, ApiError, ApiResult, ListQuery};
use crate::guard::ClientKey;
use crate::hub::Hub;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, Status};

/// The longest block an operator may set in one call: a year.
const MAX_BLOCK_MINUTES: u64 = 366 * 24 * 60;

/// Whether a request carries the operator's token (and the operator's
/// endpoints are on).
pub(crate) fn is_operator(hub: &Hub, headers: &HeaderMap) -> bool {
    operator(hub, headers).is_ok()
}

/// Refuses a request without the operator's token.
fn operator(hub: &Hub, headers: &HeaderMap) -> ApiResult<()> {
    let Some(expected) = hub.settings().admin_token else {
        return Err(ApiError(ProtocolError::new(
            ErrorCode::NotFound,
            "the operator's endpoints are off: start the server with --admin-token-file",
        )));
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| crate::token::hash_token(t.trim()));
    match given {
        Some(h) if bool::from(h.ct_eq(&expected)) => Ok(()),
        _ => Err(ApiError(ProtocolError::new(
            ErrorCode::Forbidden,
            "an operator's endpoint: send Authorization: Bearer with the token of --admin-token-file",
        ))),
    }
}

/// The operator's routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/api/admin/games", get(list))
        .route("/api/admin/games/{id}/stop", post(stop))
        .route("/api/admin/games/{id}", delete(remove))
        .route("/api/admin/block", post(block))
        .route("/api/admin/players/{name}/void", post(void))
}

/// `POST /api/admin/players/NAME/void`: voids every rated result of a
/// player (a cheat found out): each of their rated games counts for
/// nobody, their opponents get back what those games moved their
/// ratings by, and their own ratings start over.
async fn void(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let unavailable = |e| ApiError(crate::hub::unavailable(e));
    let (account, _) = hub
        .store()
        .account_by_name(&name)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| {
            ProtocolError::new(ErrorCode::NotFound, format!("no player is named {name:?}"))
        })?;
    let games = hub
        .store()
        .void_ratings(account.id)
        .await
        .map_err(unavailable)?;
    tracing::info!(
        "player {}: {games} rated games voided by the operator",
        account.name
    );
    Ok(Json(json!({"player": account.name, "voided": games})).into_response())
}

async fn metrics(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let text = hub.metrics_text().await?;
    let kind = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    Ok(([(header::CONTENT_TYPE, kind)], text).into_response())
}

async fn list(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let games = hub.list(q.status(Status::Playing)?).await?;
    Ok(Json(json!({ "games": games })).into_response())
}

async fn stop(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let handle = game(&hub, &id).await?;
    hub.stop(&handle, "by the operator").await?;
    Ok(Json(json!({"status": "resigned"})).into_response())
}

async fn remove(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let id = GameId::parse(&id)
        .ok_or_else(|| ProtocolError::new(ErrorCode::NotFound, "no such game"))?;
    hub.delete_open(&id).await?;
    Ok(Json(json!({"removed": id.to_string()})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockBody {
    /// An IP address (an IPv6 address blocks its /64).
    address: std::net::IpAddr,
    /// How long; 0 unblocks.
    minutes: u64,
}

async fn block(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    operator(&hub, &headers)?;
    let b: BlockBody = body(&bytes)?;
    let minutes = b.minutes.min(MAX_BLOCK_MINUTES);
    let key = ClientKey::of(b.address);
    hub.guard().block(key, Duration::from_secs(minutes * 60));
    tracing::info!("address {key}: blocked for {minutes} minutes by the operator");
    Ok(Json(json!({"blocked": key.to_string(), "minutes": minutes})).into_response())
}
