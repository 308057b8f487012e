//! What every HTTP handler of the API shares, below the handlers
//! themselves (`http.rs` for games, `players.rs`, `admin.rs`): the error
//! as a response in the documented `{"error": …}` form, JSON bodies, a
//! game looked up by the id in its path, and a list's `?status=`.

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use crate::hub::{GameHandle, Hub};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, Status};

/// An error as an HTTP response: a status and `{"error": {…}}`.
pub(crate) struct ApiError(pub(crate) ProtocolError);

impl From<ProtocolError> for ApiError {
    fn from(e: ProtocolError) -> ApiError {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.0.code {
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::BadToken | ErrorCode::Blocked | ErrorCode::Forbidden => {
                StatusCode::FORBIDDEN
            }
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::NotStarted
            | ErrorCode::GameOver
            | ErrorCode::StaleVersion
            | ErrorCode::RematchExists
            | ErrorCode::NameTaken
            | ErrorCode::NoFreeSeat => StatusCode::CONFLICT,
            ErrorCode::BadCredentials | ErrorCode::SignInRequired => StatusCode::UNAUTHORIZED,
            _ => StatusCode::BAD_REQUEST,
        };
        let mut response = (status, Json(self.0.to_json())).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            // Every `unavailable` says to try again: say when.
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(1u32));
        }
        response
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// Parses a JSON body into `T`, with errors in the protocol's form.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError(ProtocolError::new(
            ErrorCode::Malformed,
            format!("body: {e}"),
        ))
    })
}

/// The game `id` names (404 `not_found` for an id that is none).
pub(crate) async fn game(hub: &Hub, id: &str) -> Result<Arc<GameHandle>, ApiError> {
    let id =
        GameId::parse(id).ok_or_else(|| ProtocolError::new(ErrorCode::NotFound, "no such game"))?;
    Ok(hub.get(&id).await?)
}

/// A body of one seat's token (`{"token": T}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenBody {
    pub(crate) token: String,
}

/// `?status=…` of a list of games.
#[derive(Deserialize)]
pub(crate) struct ListQuery {
    status: Option<String>,
}

impl ListQuery {
    /// The status asked for, `default` if none.
    pub(crate) fn status(&self, default: Status) -> Result<Status, ApiError> {
        match self.status.as_deref() {
            None => Ok(default),
            Some(s) => Status::parse(s).ok_or_else(|| {
                ApiError(ProtocolError::new(
                    ErrorCode::BadRequest,
                    "status is one of open, playing, finished, resigned",
                ))
            }),
        }
    }
}
