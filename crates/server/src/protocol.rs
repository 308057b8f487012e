//! The WebSocket protocol's messages (docs/server.md): what clients send,
//! how it is checked, and the error every refusal carries.

use bastide_engine::record::ActionJson;
use serde::{Deserialize, Serialize};

/// The largest message a client may send, in bytes. An action is well
/// under 1 KiB; this leaves room and bounds what one message can cost.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The longest token accepted (tokens are 32 hex digits).
pub const MAX_TOKEN_CHARS: usize = 128;

/// What went wrong, as a stable machine-readable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not shaped like the message it names.
    Malformed,
    /// A message type the server does not know.
    UnknownType,
    /// Larger than [`MAX_MESSAGE_BYTES`].
    TooLarge,
    /// A binary frame: the protocol is JSON text.
    Binary,
    /// The first message must be `hello`.
    HelloRequired,
    /// `hello` sent twice on one connection.
    HelloTwice,
    /// The token is not a seat's token in this game.
    BadToken,
    /// A spectator tried to act.
    Spectator,
    /// Another seat is to act.
    NotYourTurn,
    /// The game has not started.
    NotStarted,
    /// The game is over.
    GameOver,
    /// The action names something that does not exist (tile, place, …).
    BadAction,
    /// The rules do not allow the action now.
    Illegal,
    /// The action was meant for another version of the game: someone
    /// acted first.
    StaleVersion,
    /// `since` is beyond the game's version.
    BadSince,
    /// No such game.
    NotFound,
    /// An HTTP request the server cannot use.
    BadRequest,
    /// The connection fell too far behind; reconnect with `since`.
    Lagged,
    /// The database is unavailable; nothing changed.
    Unavailable,
    /// No message for too long.
    Timeout,
    /// Too many messages too fast; the message was ignored.
    RateLimited,
    /// A rematch of this game was already started.
    RematchExists,
    /// The client's address was blocked by an operator.
    Blocked,
    /// An operator's endpoint without the operator's token.
    Forbidden,
    /// An account name already taken (in any case).
    NameTaken,
    /// An account name or password outside the rules.
    BadName,
    /// A name and password that do not sign in.
    BadCredentials,
    /// A request that needs a signed-in player.
    SignInRequired,
    /// A chat line that is empty or too long.
    BadChat,
    /// No person's seat of the game is free to take from the lobby.
    NoFreeSeat,
}

impl ErrorCode {
    /// The code's name in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Malformed => "malformed",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::Binary => "binary",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::HelloTwice => "hello_twice",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::Spectator => "spectator",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::GameOver => "game_over",
            ErrorCode::BadAction => "bad_action",
            ErrorCode::Illegal => "illegal",
            ErrorCode::StaleVersion => "stale_version",
            ErrorCode::BadSince => "bad_since",
            ErrorCode::NotFound => "not_found",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::Lagged => "lagged",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::Timeout => "timeout",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::RematchExists => "rematch_exists",
            ErrorCode::Blocked => "blocked",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::BadName => "bad_name",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::SignInRequired => "sign_in_required",
            ErrorCode::BadChat => "bad_chat",
            ErrorCode::NoFreeSeat => "no_free_seat",
        }
    }
}

/// A refusal: a code and a sentence saying what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", code.as_str())]
pub struct ProtocolError {
    /// The code.
    pub code: ErrorCode,
    /// The explanation.
    pub message: String,
}

impl ProtocolError {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ProtocolError {
        ProtocolError {
            code,
            message: message.into(),
        }
    }

    /// The `{"error": {"code": …, "message": …}}` message.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code, "message": self.message}})
    }
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMessage {
    /// The first message: who is this (a seat's token, or none to
    /// spectate) and the last version the client has seen.
    Hello {
        /// The seat's token; `None` spectates.
        token: Option<String>,
        /// The last version the client has; `None` asks for the full view.
        since: Option<u32>,
    },
    /// An action in record form.
    Action {
        /// The action.
        action: ActionJson,
        /// The version the client acts on; when given, the action is
        /// refused if the game has moved on.
        version: Option<u32>,
    },
    /// Resign the game for the seat.
    Resign,
    /// Asks for a `pong` (keeps idle connections open).
    Ping,
    /// A line of table chat (its text as sent; `crate::chat::clean`
    /// cleans and bounds it).
    Chat {
        /// The line.
        text: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelloBody {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    since: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmptyBody {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatBody {
    text: String,
}

/// The message types clients may send, for error messages.
const KNOWN_TYPES: &str = "hello, action, resign, ping, chat";

/// Parses one text message from a client.
pub fn parse_client(text: &str) -> Result<ClientMessage, ProtocolError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(too_large(text.len()));
    }
    let malformed = |m: String| ProtocolError::new(ErrorCode::Malformed, m);
    let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text)
        .map_err(|e| {
            malformed(format!(
                "a message is one JSON object such as {{\"ping\": {{}}}}: {e}"
            ))
        })?;
    let version = object.remove("version");
    let mut keys = object.keys();
    let kind = match (keys.next(), keys.next()) {
        (Some(k), None) => k.clone(),
        (None, _) => {
            return Err(malformed(format!(
                "the message names no type: send an object with one key ({KNOWN_TYPES})"
            )))
        }
        (Some(_), Some(_)) => {
            return Err(malformed(format!(
                "the message names several types; send one of {KNOWN_TYPES} per message"
            )))
        }
    };
    let body = object.remove(&kind).unwrap_or_default();
    if version.is_some() && kind != "action" {
        return Err(malformed(format!(
            "\"version\" goes only with \"action\", not with {}",
            cut(&kind)
        )));
    }
    let shape = |e: serde_json::Error| malformed(format!("{kind}: {e}"));
    match kind.as_str() {
        "hello" => {
            let h: HelloBody = serde_json::from_value(body).map_err(shape)?;
            if h.token.as_ref().is_some_and(|t| t.len() > MAX_TOKEN_CHARS) {
                return Err(ProtocolError::new(
                    ErrorCode::BadToken,
                    "that token is not a seat's token in this game",
                ));
            }
            Ok(ClientMessage::Hello {
                token: h.token,
                since: h.since,
            })
        }
        "action" => {
            let action: ActionJson = serde_json::from_value(body).map_err(shape)?;
            let version = version
                .map(|v| {
                    v.as_u64()
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or_else(|| malformed("\"version\" is a whole number, 0 or more".into()))
                })
                .transpose()?;
            Ok(ClientMessage::Action { action, version })
        }
        "resign" => {
            let _: EmptyBody = serde_json::from_value(body).map_err(shape)?;
            Ok(ClientMessage::Resign)
        }
        "ping" => {
            let _: EmptyBody = serde_json::from_value(body).map_err(shape)?;
            Ok(ClientMessage::Ping)
        }
        "chat" => {
            let c: ChatBody = serde_json::from_value(body).map_err(shape)?;
            Ok(ClientMessage::Chat { text: c.text })
        }
        other => Err(ProtocolError::new(
            ErrorCode::UnknownType,
            format!(
                "unknown message type {}: known are {KNOWN_TYPES}",
                cut(other)
            ),
        )),
    }
}

/// The error for a message of `len` bytes.
pub fn too_large(len: usize) -> ProtocolError {
    ProtocolError::new(
        ErrorCode::TooLarge,
        format!("the message is {len} bytes; messages may be at most {MAX_MESSAGE_BYTES} bytes"),
    )
}

/// Cuts a client's text before quoting it back.
fn cut(s: &str) -> String {
    bastide_engine::limits::cut(s)
}

/// Who a connection speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The person in this seat: sees that seat's view.
    Seat(usize),
    /// Anyone else: sees the public view.
    Spectator,
}

/// Six seats and the spectators.
pub(crate) const AUDIENCES: usize = 7;

impl Audience {
    /// Its place among a game's audiences: seats first, then the
    /// spectators.
    pub(crate) fn index(self) -> usize {
        match self {
            Audience::Seat(s) => s.min(AUDIENCES - 2),
            Audience::Spectator => AUDIENCES - 1,
        }
    }
}

/// Why the server let an open game go while people may be connected to
/// it: each of its connections is sent a `gone` message, then closed
/// with [`GONE_CLOSE_CODE`] (docs/server.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// Nobody started it within `Settings::open_game_ttl`.
    Expired,
    /// An operator removed it.
    Removed,
    /// Its creator cancelled it before the start (the lobby's list).
    Cancelled,
}

/// The close code after a `gone` message: 1000, a normal closure (the
/// connection's purpose is over; the message says why, and a client must
/// not reconnect).
pub const GONE_CLOSE_CODE: u16 = 1000;

impl Gone {
    /// The name in the `gone` message's `reason` and the close frame.
    pub fn as_str(self) -> &'static str {
        match self {
            Gone::Expired => "expired",
            Gone::Removed => "removed",
            Gone::Cancelled => "cancelled",
        }
    }

    /// The sentence a waiting room shows; `ttl` is how long an open game
    /// waits (`Settings::open_game_ttl`).
    pub fn sentence(self, ttl: Option<std::time::Duration>) -> String {
        match self {
            Gone::Expired => format!(
                "This game expired: nobody joined within {}",
                ttl.map_or_else(|| "its time".to_string(), wait_in_words)
            ),
            Gone::Removed => "This game was removed by the server's operator".to_string(),
            Gone::Cancelled => "This game was cancelled by its creator".to_string(),
        }
    }
}

/// A wait as a waiting room says it: "an hour", "90 minutes", "30 seconds".
fn wait_in_words(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        3600 => "an hour".into(),
        60 => "a minute".into(),
        _ if s >= 7200 && s.is_multiple_of(3600) => format!("{} hours", s / 3600),
        _ if s >= 120 && s.is_multiple_of(60) => format!("{} minutes", s / 60),
        1 => "a second".into(),
        _ if s >= 1 => format!("{s} seconds"),
        _ => format!("{} ms", d.as_millis()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> ErrorCode {
        parse_client(text).expect_err(text).code
    }

    #[test]
    fn messages_parse_and_refusals_are_named() {
        assert_eq!(
            parse_client(r#"{"hello": {"token": null, "since": 3}}"#),
            Ok(ClientMessage::Hello {
                token: None,
                since: Some(3)
            })
        );
        assert_eq!(
            parse_client(r#"{"action": {"pass": {}}, "version": 7}"#),
            Ok(ClientMessage::Action {
                action: ActionJson::Pass {},
                version: Some(7)
            })
        );
        assert_eq!(parse_client(r#"{"ping": {}}"#), Ok(ClientMessage::Ping));
        assert_eq!(
            parse_client(r#"{"chat": {"text": "gl hf"}}"#),
            Ok(ClientMessage::Chat {
                text: "gl hf".into()
            })
        );
        assert_eq!(code(r#"{"chat": {"text": 3}}"#), ErrorCode::Malformed);
        assert_eq!(code("{not json"), ErrorCode::Malformed);
        assert_eq!(code("[1, 2]"), ErrorCode::Malformed);
        assert_eq!(code("{}"), ErrorCode::Malformed);
        assert_eq!(code(r#"{"ping": {}, "resign": {}}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"teleport": {}}"#), ErrorCode::UnknownType);
        assert_eq!(
            code(r#"{"action": {"teleport": {}}}"#),
            ErrorCode::Malformed
        );
        assert_eq!(
            code(r#"{"action": {"pass": {}}, "version": -1}"#),
            ErrorCode::Malformed
        );
        assert_eq!(code(r#"{"ping": {}, "version": 1}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"hello": {"tokn": "x"}}"#), ErrorCode::Malformed);
        let long = format!(r#"{{"hello": {{"token": "{}"}}}}"#, "a".repeat(200));
        assert_eq!(code(&long), ErrorCode::BadToken);
        let huge = format!(
            r#"{{"ping": {{}}, "pad": "{}"}}"#,
            "x".repeat(MAX_MESSAGE_BYTES)
        );
        assert_eq!(code(&huge), ErrorCode::TooLarge);
    }

    #[test]
    fn an_expired_game_says_how_long_it_waited() {
        let said = |s| Gone::Expired.sentence(Some(std::time::Duration::from_secs(s)));
        assert_eq!(
            said(3600),
            "This game expired: nobody joined within an hour"
        );
        assert_eq!(
            said(5400),
            "This game expired: nobody joined within 90 minutes"
        );
        assert_eq!(
            said(7200),
            "This game expired: nobody joined within 2 hours"
        );
        assert_eq!(
            said(45),
            "This game expired: nobody joined within 45 seconds"
        );
    }
}
