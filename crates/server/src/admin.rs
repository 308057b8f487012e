//! The operator's endpoints, behind the token of `--admin-token-file`
//! (`Authorization: Bearer TOKEN`): list, stop and remove games, block an
//! address, read the metrics. Without a token configured they answer 404,
//! as if they did not exist.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::guard::ClientKey;
use crate::hub::Hub;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, Status};

/// The longest block an operator may set in one call: a year.
const MAX_BLOCK_MINUTES: u64 = 366 * 24 * 60;

fn error(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Response {
    (status, Json(ProtocolError::new(code, message).to_json())).into_response()
}

/// Whether a request carries the operator's token (and the operator's
/// endpoints are on).
pub(crate) fn is_operator(hub: &Hub, headers: &HeaderMap) -> bool {
    hub.settings().admin_token.is_some() && operator(hub, headers).is_ok()
}

/// Refuses a request without the operator's token.
fn operator(hub: &Hub, headers: &HeaderMap) -> Result<(), Box<Response>> {
    let Some(expected) = hub.settings().admin_token else {
        return Err(Box::new(error(
            StatusCode::NOT_FOUND,
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
        _ => Err(Box::new(error(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "an operator's endpoint: send Authorization: Bearer with the token of --admin-token-file",
        ))),
    }
}

fn refusal(e: ProtocolError) -> Response {
    let status = match e.code {
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::GameOver => StatusCode::CONFLICT,
        ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    };
    (status, Json(e.to_json())).into_response()
}

/// The operator's routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/api/admin/games", get(list))
        .route("/api/admin/games/{id}/stop", post(stop))
        .route("/api/admin/games/{id}", delete(remove))
        .route("/api/admin/block", post(block))
}

async fn metrics(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    if let Err(r) = operator(&hub, &headers) {
        return *r;
    }
    match hub.metrics_text().await {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(e) => refusal(e),
    }
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(r) = operator(&hub, &headers) {
        return *r;
    }
    let status = match q.status.as_deref().map(Status::parse) {
        None => Status::Playing,
        Some(Some(s)) => s,
        Some(None) => {
            return error(
                StatusCode::BAD_REQUEST,
                ErrorCode::BadRequest,
                "status is one of open, playing, finished, resigned",
            )
        }
    };
    match hub.list(status).await {
        Ok(games) => Json(json!({ "games": games })).into_response(),
        Err(e) => refusal(e),
    }
}

async fn stop(State(hub): State<Arc<Hub>>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(r) = operator(&hub, &headers) {
        return *r;
    }
    let Some(id) = GameId::parse(&id) else {
        return refusal(ProtocolError::new(ErrorCode::NotFound, "no such game"));
    };
    let result = match hub.get(&id).await {
        Ok(handle) => hub.stop(&handle, "by the operator").await,
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => Json(json!({"status": "resigned"})).into_response(),
        Err(e) => refusal(e),
    }
}

async fn remove(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Err(r) = operator(&hub, &headers) {
        return *r;
    }
    let Some(id) = GameId::parse(&id) else {
        return refusal(ProtocolError::new(ErrorCode::NotFound, "no such game"));
    };
    match hub.delete_open(&id).await {
        Ok(()) => Json(json!({"removed": id.to_string()})).into_response(),
        Err(e) => refusal(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockBody {
    /// An IP address (an IPv6 address blocks its /64).
    address: std::net::IpAddr,
    /// How long; 0 unblocks.
    minutes: u64,
}

async fn block(State(hub): State<Arc<Hub>>, headers: HeaderMap, bytes: Bytes) -> Response {
    if let Err(r) = operator(&hub, &headers) {
        return *r;
    }
    let b: BlockBody = match serde_json::from_slice(&bytes) {
        Ok(b) => b,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                ErrorCode::Malformed,
                format!("body: {e}; give {{\"address\": \"1.2.3.4\", \"minutes\": 60}}"),
            )
        }
    };
    let minutes = b.minutes.min(MAX_BLOCK_MINUTES);
    let key = ClientKey::of(b.address);
    hub.guard().block(key, Duration::from_secs(minutes * 60));
    tracing::info!("address {key}: blocked for {minutes} minutes by the operator");
    Json(json!({"blocked": key.to_string(), "minutes": minutes})).into_response()
}
