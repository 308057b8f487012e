//! The accept loop: each TCP connection takes a slot (per address and in
//! all, [`crate::guard`]) or is closed at once, then is served over
//! HTTP/1.1 with a deadline for each request's headers, which also closes
//! a kept-alive connection left idle and a connection that sends nothing,
//! and the same deadline for its body once the headers are in: a body
//! sent a byte at a time is cut, and its connection closed.
//!
//! axum's own `serve` has neither caps nor header deadlines, so the loop
//! is ours, on hyper's connection builder.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::guard::Guard;

/// How long a stop waits for requests in flight (WebSockets are not
/// among them: they end when the process does).
const DRAIN: Duration = Duration::from_secs(10);

/// Read buffer of an HTTP connection: requests are small (bodies are
/// limited to a message's size), and idle connections should cost little.
const HTTP_BUFFER: usize = 16 * 1024;

/// Serves `app` on `listener` until `stop` fires, then lets the requests
/// in flight finish (for at most [`DRAIN`]).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    guard: Arc<Guard>,
    stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let mut http = auto::Builder::new(TokioExecutor::new()).http1_only();
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(guard.limits().header_timeout)
        .max_buf_size(HTTP_BUFFER.max(8192));
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, most often: wait for some
                    // to be given back rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let Some(slot) = guard.connection(peer.ip()) else {
            // Closed at once: a client over its cap learns nothing more.
            drop(tcp);
            continue;
        };
        // Without TCP_NODELAY, Nagle's algorithm holds each small update
        // back until the previous one is acknowledged: tens of
        // milliseconds per message on a live game.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY: {e}");
        }
        let app = app.clone();
        let first_byte = guard.limits().header_timeout;
        let request_slot = slot.clone();
        let service = hyper::service::service_fn(move |req: Request<Incoming>| {
            let mut req = req.map(|b| axum::body::Body::new(Deadline::new(b, first_byte)));
            req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            // A WebSocket keeps the slot for as long as it is open.
            req.extensions_mut().insert(request_slot.clone());
            let app = app.clone();
            async move { Ok::<_, Infallible>(app.oneshot(req).await.unwrap_or_else(|e| match e {})) }
        });
        let (http, watcher) = (http.clone(), graceful.watcher());
        tokio::spawn(async move {
            let _slot = slot;
            // hyper's header deadline starts at the first byte: a
            // connection that sends nothing gets the same time to start.
            let mut byte = [0u8; 1];
            match tokio::time::timeout(first_byte, tcp.peek(&mut byte)).await {
                Ok(Ok(n)) if n > 0 => {}
                // Silent past the deadline, closed, or failed.
                _ => return,
            }
            let conn = http
                .serve_connection_with_upgrades(TokioIo::new(tcp), service)
                .into_owned();
            if let Err(e) = watcher.watch(conn).await {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("stopping: requests still running after {DRAIN:?}; leaving them");
    }
    Ok(())
}

pin_project_lite::pin_project! {
    /// A request body that fails once its deadline has passed: the
    /// handler reading it answers `400`, and hyper closes a connection
    /// whose body was not read to its end.
    struct Deadline<B> {
        #[pin]
        inner: B,
        #[pin]
        deadline: tokio::time::Sleep,
    }
}

impl<B> Deadline<B> {
    /// `inner`, which must have come within `within` from now.
    fn new(inner: B, within: Duration) -> Deadline<B> {
        Deadline {
            inner,
            deadline: tokio::time::sleep(within),
        }
    }
}

impl<B> http_body::Body for Deadline<B>
where
    B: http_body::Body,
    B::Error: Into<axum::BoxError>,
{
    type Data = B::Data;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<B::Data>, axum::BoxError>>> {
        let this = self.project();
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match this.deadline.poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(
                "the request body did not arrive in time: send it with its headers".into(),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}
