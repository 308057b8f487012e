//! One WebSocket connection to one game: hello, welcome and catch-up, then
//! actions in and updates out (docs/server.md).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::guard::{Action, ClientKey, Guard, Slot};
use crate::hub::{Audience, GameHandle, Hub};
use crate::protocol::{
    parse_client, too_large, ClientMessage, ErrorCode, ProtocolError, MAX_MESSAGE_BYTES,
};

/// How long a new connection may take to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection may stay silent (a `ping` keeps it open).
const IDLE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// Failed hellos before the connection is closed (forged tokens).
const MAX_BAD_HELLOS: u32 = 3;

/// Messages refused in a row for the rate before the connection is closed:
/// a client that ignores `rate_limited` is not listening.
const MAX_RATE_REFUSALS: u32 = 50;

/// A token bucket: `burst` messages at once, then `rate` a second.
struct RateLimit {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
    refused_in_a_row: u32,
}

impl RateLimit {
    fn new(settings: &crate::hub::Settings) -> RateLimit {
        RateLimit {
            tokens: settings.message_burst,
            rate: settings.messages_per_second,
            burst: settings.message_burst,
            last: Instant::now(),
            refused_in_a_row: 0,
        }
    }

    /// Whether one more message may be handled now.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refused_in_a_row = 0;
            true
        } else {
            self.refused_in_a_row += 1;
            false
        }
    }

    fn error(&self) -> ProtocolError {
        ProtocolError::new(
            ErrorCode::RateLimited,
            format!(
                "too many messages: at most {} a second (the message was ignored)",
                self.rate
            ),
        )
    }
}

type Sink = SplitSink<WebSocket, Message>;

/// What arrived from the client.
enum Incoming {
    Text(String),
    /// A frame that carries no message (ping, pong).
    Nothing,
    /// Closed, or the connection failed.
    Gone,
    /// A frame that is not text.
    Refused(ProtocolError),
    /// A text frame that is not UTF-8: the connection is closed with
    /// code 1007, as RFC 6455 asks.
    NotUtf8,
}

/// Whether a read failed on a text frame that is not UTF-8.
fn is_utf8_error(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if matches!(
            s.downcast_ref::<tungstenite::Error>(),
            Some(tungstenite::Error::Utf8(_))
        ) {
            return true;
        }
        source = s.source();
    }
    false
}

fn incoming(msg: Option<Result<Message, axum::Error>>) -> Incoming {
    match msg {
        Some(Err(e)) if is_utf8_error(&e) => Incoming::NotUtf8,
        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => Incoming::Gone,
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Incoming::Nothing,
        Some(Ok(Message::Binary(_))) => Incoming::Refused(ProtocolError::new(
            ErrorCode::Binary,
            "messages are JSON text, not binary frames",
        )),
        Some(Ok(Message::Text(t))) if t.len() > MAX_MESSAGE_BYTES => {
            Incoming::Refused(too_large(t.len()))
        }
        Some(Ok(Message::Text(t))) => Incoming::Text(t.to_string()),
    }
}

/// A client frame after the checks every frame passes (kind, size, rate).
enum Screened {
    /// A text message to parse.
    Text(String),
    /// Nothing to do (ping and pong frames).
    Skip,
    /// Refused: answer the error, and close if asked.
    Refuse { error: ProtocolError, close: bool },
    /// The client left.
    Gone,
    /// Close with this code and reason.
    Close(u16, &'static str),
}

/// The limits a connection's messages count against: its own, and its
/// address's over all its connections.
struct Limiter<'a> {
    own: RateLimit,
    guard: &'a Guard,
    client: ClientKey,
}

fn screen(msg: Option<Result<Message, axum::Error>>, limit: &mut Limiter<'_>) -> Screened {
    match incoming(msg) {
        Incoming::Nothing => Screened::Skip,
        Incoming::Gone => Screened::Gone,
        Incoming::NotUtf8 => Screened::Close(1007, "messages are UTF-8 JSON text"),
        // Every message counts towards the rate, refused ones too.
        _ if !limit.own.allow() => Screened::Refuse {
            error: limit.own.error(),
            close: limit.own.refused_in_a_row >= MAX_RATE_REFUSALS,
        },
        _ if limit.guard.check(limit.client, Action::Message).is_err() => {
            limit.own.refused_in_a_row += 1;
            Screened::Refuse {
                error: ProtocolError::new(
                    ErrorCode::RateLimited,
                    "too many messages from your address over all its connections (the message was ignored)",
                ),
                close: limit.own.refused_in_a_row >= MAX_RATE_REFUSALS,
            }
        }
        Incoming::Text(t) => Screened::Text(t),
        Incoming::Refused(error) => Screened::Refuse {
            error,
            close: false,
        },
    }
}

async fn send(sink: &mut Sink, text: impl Into<Utf8Bytes>) -> bool {
    sink.send(Message::Text(text.into())).await.is_ok()
}

async fn send_error(sink: &mut Sink, e: &ProtocolError) -> bool {
    send(sink, e.to_json().to_string()).await
}

async fn close(sink: &mut Sink, code: u16, reason: &'static str) {
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// Runs one connection until the client leaves. `client` is the address
/// its messages count against; `slot`, its place among the open
/// connections, is held until it closes; `viewer`, the signed-in
/// player's name (a spectator's chat lines carry it).
pub async fn run(
    hub: Arc<Hub>,
    mut handle: Arc<GameHandle>,
    socket: WebSocket,
    client: ClientKey,
    slot: Option<Arc<Slot>>,
    viewer: Option<crate::store::players::Account>,
) {
    let _slot = slot;
    let _open = crate::metrics::Gauge::up(&hub.metrics().websockets);
    let (mut sink, mut stream) = socket.split();

    let mut limit = Limiter {
        own: RateLimit::new(hub.settings()),
        guard: hub.guard(),
        client,
    };
    // Hello first.
    let mut bad_hellos = 0;
    let attached = loop {
        let msg = match tokio::time::timeout(HELLO_TIMEOUT, stream.next()).await {
            Ok(m) => m,
            Err(_) => {
                let e = ProtocolError::new(ErrorCode::Timeout, "no hello within 30 seconds");
                send_error(&mut sink, &e).await;
                return;
            }
        };
        let text = match screen(msg, &mut limit) {
            Screened::Text(t) => t,
            Screened::Skip => continue,
            Screened::Gone => return,
            Screened::Close(code, reason) => return close(&mut sink, code, reason).await,
            Screened::Refuse { error, close } => {
                if !send_error(&mut sink, &error).await || close {
                    return;
                }
                continue;
            }
        };
        let result = match parse_client(&text) {
            Ok(ClientMessage::Hello { token, since }) => {
                let (h, attached) = hub
                    .hello(handle, token.as_deref(), since, viewer.as_ref())
                    .await;
                handle = h;
                attached
            }
            Ok(_) => Err(ProtocolError::new(
                ErrorCode::HelloRequired,
                "say hello first: {\"hello\": {\"token\": TOKEN or null, \"since\": VERSION or null}}",
            )),
            Err(e) => Err(e),
        };
        match result {
            Ok(a) => break a,
            Err(e) => {
                if !send_error(&mut sink, &e).await {
                    return;
                }
                if e.code == ErrorCode::BadToken {
                    bad_hellos += 1;
                    if bad_hellos >= MAX_BAD_HELLOS {
                        return;
                    }
                }
            }
        }
    };
    let audience = attached.audience;
    // Counted among the game's audiences until this function returns.
    let _watch = attached.watch;
    let mut updates = attached.updates;
    let mut backlog = attached.backlog;
    let mut talk = Talk {
        viewer: viewer.map(|a| a.name),
        allowance: crate::chat::Allowance::default(),
        client,
    };
    if !send(&mut sink, attached.welcome).await {
        return;
    }
    while let Some(text) = backlog.next().await {
        if !send(&mut sink, text).await {
            return;
        }
    }

    loop {
        tokio::select! {
            // Updates first: a client's next message is handled only once
            // everything committed before it has been sent.
            biased;
            update = updates.recv() => match update {
                Ok(u) => {
                    if let Some(text) = u.text_for(audience) {
                        if !send(&mut sink, text.to_string()).await {
                            return;
                        }
                    }
                    // The game is gone: the message said why.
                    if let Some(reason) = u.closes() {
                        return close(&mut sink, crate::protocol::GONE_CLOSE_CODE, reason).await;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    let e = ProtocolError::new(
                        ErrorCode::Lagged,
                        "this connection fell behind; reconnect with your last version as since",
                    );
                    send_error(&mut sink, &e).await;
                    return;
                }
                // The game left memory (it ended); nothing more will come.
                Err(RecvError::Closed) => return,
            },
            msg = tokio::time::timeout(IDLE_TIMEOUT, stream.next()) => {
                let Ok(msg) = msg else {
                    let e = ProtocolError::new(ErrorCode::Timeout, "idle for too long");
                    send_error(&mut sink, &e).await;
                    return;
                };
                let text = match screen(msg, &mut limit) {
                    Screened::Text(t) => t,
                    Screened::Skip => continue,
                    Screened::Gone => return,
                    Screened::Close(code, reason) => return close(&mut sink, code, reason).await,
                    Screened::Refuse { error, close } => {
                        if !send_error(&mut sink, &error).await || close {
                            return;
                        }
                        continue;
                    }
                };
                let reply = handle_message(&hub, &handle, audience, &mut talk, &text).await;
                if let Some(text) = reply {
                    if !send(&mut sink, text).await {
                        return;
                    }
                }
            }
        }
    }
}

/// What a connection needs to chat: who it is, and its own allowance of
/// lines (its address's is the guard's).
struct Talk {
    viewer: Option<String>,
    allowance: crate::chat::Allowance,
    client: ClientKey,
}

/// Acts on one message after hello; returns the direct reply, if any
/// (updates reach every connection through the game's channel).
async fn handle_message(
    hub: &Arc<Hub>,
    handle: &Arc<GameHandle>,
    audience: Audience,
    talk: &mut Talk,
    text: &str,
) -> Option<String> {
    let result = match parse_client(text) {
        Err(e) => Err(e),
        Ok(ClientMessage::Ping) => return Some(json!({"pong": {}}).to_string()),
        Ok(ClientMessage::Hello { .. }) => Err(ProtocolError::new(
            ErrorCode::HelloTwice,
            "this connection has said hello; open a new one to change seat",
        )),
        Ok(ClientMessage::Action { action, version }) => match audience {
            Audience::Seat(seat) => {
                let received = Instant::now();
                let result = hub.submit(handle, seat, action, version, false).await;
                hub.metrics().move_latency.observe(received.elapsed());
                result.map(|_| ())
            }
            Audience::Spectator => Err(spectator()),
        },
        Ok(ClientMessage::Chat { text }) => {
            // The text is checked before the allowances are drawn: a line
            // too long costs nothing, so that its writer can shorten it.
            let said = async {
                crate::chat::clean(&text)?;
                talk.allowance.take()?;
                hub.guard()
                    .check(talk.client, Action::Chat)
                    .map_err(|r| r.error())?;
                hub.chat(handle, audience, talk.viewer.as_deref(), &text)
                    .await
            };
            said.await
        }
        Ok(ClientMessage::Resign) => match audience {
            Audience::Seat(seat) => hub.resign(handle, seat).await,
            Audience::Spectator => Err(spectator()),
        },
    };
    result.err().map(|e| e.to_json().to_string())
}

fn spectator() -> ProtocolError {
    ProtocolError::new(
        ErrorCode::Spectator,
        "spectators cannot act: say hello with a seat's token to play",
    )
}
