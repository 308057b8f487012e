//! Requests that change something, and WebSocket upgrades, come from
//! this site's own pages or from programs, never from another site's
//! page: a browser names the page's origin (`Origin`) on every such
//! request, so one whose origin is not this server's is refused (a page
//! on another port or a subdomain, which shares the site and so the
//! session cookie, once joined its visitor to a rated game). A request
//! without `Origin` comes from a program (curl, the tests, a bot), which
//! holds no visitor's cookie, and passes. A body is JSON, said so by its
//! `Content-Type`: a form or a plain-text `fetch` from another site, which
//! a browser sends without asking first, is refused too.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::hub::Hub;
use crate::protocol::{ErrorCode, ProtocolError};

/// The middleware: refuses a cross-site request that changes something
/// (`403 forbidden`) and a body that is not JSON (`400 bad_request`).
pub async fn middleware(State(hub): State<Arc<Hub>>, req: Request, next: Next) -> Response {
    let upgrade = req.headers().contains_key(header::UPGRADE);
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !(changes || upgrade) {
        return next.run(req).await;
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        if !same_origin(origin, req.headers(), &hub.settings().public_url) {
            let e = ProtocolError::new(
                ErrorCode::Forbidden,
                format!("a request from a page of {origin:?} cannot change anything here: only this server's own pages can"),
            );
            return (StatusCode::FORBIDDEN, Json(e.to_json())).into_response();
        }
    }
    if changes && !json_body(req.headers()) {
        let e = ProtocolError::new(
            ErrorCode::BadRequest,
            "send the body as JSON, with Content-Type: application/json",
        );
        return (StatusCode::BAD_REQUEST, Json(e.to_json())).into_response();
    }
    next.run(req).await
}

/// The `host[:port]` of a URL (`scheme://host[:port]/…`), lower case,
/// without the scheme's default port.
fn authority(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?.to_ascii_lowercase();
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => "",
    };
    Some(match host.strip_suffix(default) {
        Some(h) if !default.is_empty() => h.to_string(),
        _ => host,
    })
}

/// Whether a page of `origin` is this server's: its authority is the
/// request's `Host`, or that of the address people open (`public_url`,
/// for a proxy that does not pass `Host` on).
fn same_origin(origin: &str, headers: &HeaderMap, public_url: &str) -> bool {
    let Some(origin) = authority(origin) else {
        // `null` (a sandboxed frame, a file) or garbage.
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_ascii_lowercase);
    let strip = |h: String| {
        h.strip_suffix(":80")
            .or_else(|| h.strip_suffix(":443"))
            .map_or(h.clone(), str::to_string)
    };
    host.map(strip).as_deref() == Some(origin.as_str())
        || authority(public_url).as_deref() == Some(origin.as_str())
}

/// Whether a request's body is JSON, or it has none.
fn json_body(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE) {
        Some(t) => t
            .to_str()
            .unwrap_or_default()
            .split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")),
        None => {
            let length = headers
                .get(header::CONTENT_LENGTH)
                .and_then(|l| l.to_str().ok())
                .and_then(|l| l.trim().parse::<u64>().ok());
            length == Some(0)
                || (length.is_none() && !headers.contains_key(header::TRANSFER_ENCODING))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(h: &str) -> HeaderMap {
        let mut m = HeaderMap::new();
        m.insert(header::HOST, h.parse().expect("a header"));
        m
    }

    #[test]
    fn an_origin_is_the_hosts_or_the_public_urls() {
        let public = "https://bastide.example";
        assert!(same_origin(
            "http://127.0.0.1:8080",
            &host("127.0.0.1:8080"),
            ""
        ));
        assert!(same_origin(
            "https://bastide.example",
            &host("127.0.0.1:8080"),
            public
        ));
        assert!(same_origin(
            "https://Bastide.example:443",
            &host("bastide.example"),
            ""
        ));
        assert!(!same_origin(
            "http://127.0.0.1:9999",
            &host("127.0.0.1:8080"),
            ""
        ));
        assert!(!same_origin(
            "https://evil.bastide.example",
            &host("bastide.example"),
            public
        ));
        assert!(!same_origin("null", &host("bastide.example"), public));
    }
}
