//! The HTTP API: health, lobby, seats, records, and the WebSocket upgrade
//! (docs/server.md).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::api::{body, game, ApiError, ApiResult, ListQuery, TokenBody};
use crate::guard::{Client, ClientKey, Slot};
use crate::hub::{CreateGame, GameHandle, Hub};
use crate::protocol::{ErrorCode, ProtocolError, MAX_MESSAGE_BYTES};
use crate::store::Status;

/// The server's routes.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/leave", post(leave))
        .route("/api/games/{id}/start", post(start))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/view", get(view))
        .route("/api/games/{id}/log", get(log))
        .route("/api/games/{id}/ws", get(ws))
        .merge(crate::admin::router())
        .merge(crate::players::router())
        .merge(crate::seats::router())
        .merge(crate::results::router())
        .merge(crate::assets::router())
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
        .layer(axum::middleware::map_response(json_errors))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            crate::origin::middleware,
        ))
        .layer(axum::middleware::from_fn_with_state(
            hub.guard().clone(),
            crate::guard::middleware,
        ))
        .with_state(hub)
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        Json(
            ProtocolError::new(
                ErrorCode::BadRequest,
                format!("{method} is not a method of {}", uri.path()),
            )
            .to_json(),
        ),
    )
        .into_response()
}

/// Longest rejection text kept when it is turned into a JSON error.
const REJECTION_TEXT: usize = 1024;

/// Rejections of axum's extractors (a body over the limit, a bad query,
/// a wrong content type) answer plain text; the API promises
/// `{"error": …}` for every refusal, so an error that is not JSON is
/// wrapped, its text kept as the message.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    // The client's page (HTML) and pictures are not API errors.
    if parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html") || v.starts_with("image/"))
    {
        return Response::from_parts(parts, body);
    }
    let text = axum::body::to_bytes(body, REJECTION_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::SERVICE_UNAVAILABLE => ErrorCode::Unavailable,
        _ => ErrorCode::BadRequest,
    };
    let message = if text.trim().is_empty() {
        status.canonical_reason().unwrap_or("refused").to_string()
    } else {
        text.trim().to_string()
    };
    let mut response = (status, Json(ProtocolError::new(code, message).to_json())).into_response();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            response.headers_mut().insert(name, value.clone());
        }
    }
    response
}

async fn health(State(hub): State<Arc<Hub>>) -> Response {
    match hub.store().ping().await {
        Ok(()) => Json(json!({"ok": true, "database": hub.store().backend()})).into_response(),
        Err(e) => ApiError(ProtocolError::new(
            ErrorCode::Unavailable,
            format!("the database is not ready: {e}"),
        ))
        .into_response(),
    }
}

/// A game brought up to the log first (shared mode: news of another
/// instance's last change may be on its way still, or may have come
/// while the game was being read): for a client's first view, and for
/// records.
async fn fresh_game(hub: &Hub, id: &str) -> Result<Arc<GameHandle>, ApiError> {
    let handle = game(hub, id).await?;
    hub.freshen(&handle).await;
    Ok(handle)
}

async fn create(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let mut req: CreateGame = body(&bytes)?;
    req.creator = crate::players::signed_in(&hub, &headers).await?;
    if let Some(a) = &req.creator {
        crate::players::seen_at(&hub, a, client).await;
    }
    // The operator's games are charged to nobody and may have bots that
    // think up to the server's own limit.
    let client = if crate::admin::is_operator(&hub, &headers) {
        None
    } else {
        client.map(|c| c.0 .0)
    };
    let created = hub.create(req, client).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn list(State(hub): State<Arc<Hub>>, Query(q): Query<ListQuery>) -> ApiResult<Response> {
    let status = q.status(Status::Open)?;
    Ok(Json(json!({"games": hub.list(status).await?})).into_response())
}

async fn summary(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    Ok(Json(hub.summary(&handle).await).into_response())
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    let player = crate::players::signed_in(&hub, &headers).await?;
    if let Some(a) = &player {
        crate::players::seen_at(&hub, a, client).await;
    }
    let seat = hub.join(&handle, &t.token, player).await?;
    Ok(Json(json!({"seat": seat})).into_response())
}

async fn leave(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    let who = crate::players::signed_in(&hub, &headers).await?;
    let seat = hub.leave(&handle, &t.token, who.as_ref()).await?;
    Ok(Json(json!({"seat": seat, "joined": false})).into_response())
}

async fn start(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    let who = crate::players::signed_in(&hub, &headers).await?;
    hub.start(&handle, &t.token, who.as_ref()).await?;
    Ok(Json(json!({"status": "playing"})).into_response())
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    let who = crate::players::signed_in(&hub, &headers).await?;
    let seat = hub.resign_token(&handle, &t.token, who.as_ref()).await?;
    Ok(Json(json!({"status": "resigned", "seat": seat})).into_response())
}

async fn rematch(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    client: Option<Extension<Client>>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    let t: TokenBody = body(&bytes)?;
    let created = hub
        .rematch(&handle, &t.token, client.map(|c| c.0 .0))
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let handle = fresh_game(&hub, &id).await?;
    let (record, complete) = hub.record(&handle).await;
    let text = serde_json::to_string_pretty(&record).unwrap_or_default();
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (
                header::CONTENT_DISPOSITION,
                &format!("attachment; filename=\"bastide-{id}.json\""),
            ),
            (
                header::HeaderName::from_static("x-bastide-record"),
                if complete { "complete" } else { "partial" },
            ),
        ],
        text,
    )
        .into_response())
}

async fn view(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let handle = game(&hub, &id).await?;
    Ok(Json(hub.public_view(&handle).await).into_response())
}

/// `?since=N` of a move log.
#[derive(Deserialize)]
struct LogQuery {
    /// Kept as text so that a bad value gets this API's own message.
    since: Option<String>,
}

/// The moves after version `since` (default 0), a page at a time
/// (`Hub::move_log`).
async fn log(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<LogQuery>,
) -> ApiResult<Response> {
    let since = match q.since.as_deref() {
        None => 0,
        Some(s) => s.parse::<u32>().map_err(|_| {
            ApiError(ProtocolError::new(
                ErrorCode::BadRequest,
                "since is a version: a whole number from 0 up to the game's",
            ))
        })?,
    };
    let handle = fresh_game(&hub, &id).await?;
    Ok(Json(hub.move_log(&handle, since).await?).into_response())
}

/// A WebSocket's read buffer: client messages are at most
/// [`MAX_MESSAGE_BYTES`], and an idle connection should cost little
/// (tungstenite's default is 128 KiB per connection).
const WS_READ_BUFFER: usize = 4 * 1024;

/// Bytes of updates a WebSocket may have queued before it counts as
/// stalled: a welcome of a long game fits.
const WS_MAX_WRITE_BUFFER: usize = 4 * 1024 * 1024;

async fn ws(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    client: Option<Extension<Client>>,
    slot: Option<Extension<Arc<Slot>>>,
    headers: axum::http::HeaderMap,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let handle = fresh_game(&hub, &id).await?;
    // The signed-in player watching, who is named in the spectators'
    // chat; a store that cannot say now makes them a plain spectator.
    let viewer = crate::players::signed_in(&hub, &headers)
        .await
        .ok()
        .flatten();
    let client = client.map_or(ClientKey::of(std::net::Ipv4Addr::UNSPECIFIED.into()), |c| {
        c.0 .0
    });
    let slot = slot.map(|s| s.0);
    // Frames up to four times the message limit reach the protocol, which
    // answers too_large; larger ones close the connection.
    Ok(upgrade
        .max_message_size(4 * MAX_MESSAGE_BYTES)
        .max_frame_size(4 * MAX_MESSAGE_BYTES)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| crate::ws::run(hub, handle, socket, client, slot, viewer)))
}
