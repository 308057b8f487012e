//! Table chat (docs/server.md, "Table chat"): what a line is, how its
//! text is cleaned and bounded, who reads it, and the last lines a game
//! keeps for the welcome.
//!
//! Two channels, as lichess has them: the players' (written by seat
//! holders, read by everyone at the table, spectators included) and the
//! spectators' (written and read by spectators only), so that spectators
//! can talk about the game without the players reading hints.

use std::collections::VecDeque;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::{Audience, ErrorCode, ProtocolError};

/// The longest line, in characters (after cleaning).
pub const MAX_CHARS: usize = 300;

/// Lines a game keeps in memory for the welcome (the newest).
pub const KEPT: usize = 100;

/// A connection's own allowance: this many lines at once…
pub const CONNECTION_BURST: f64 = 5.0;

/// …then one every this many seconds. The address's allowance over all
/// its connections is the guard's (`--chat-rate`).
pub const CONNECTION_SECONDS_PER_LINE: f64 = 2.0;

/// Who may read a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Written by a seat's holder; read by every audience.
    Players,
    /// Written by a spectator; read by spectators only.
    Spectators,
}

impl Channel {
    /// The channel a connection writes to.
    pub fn of(audience: Audience) -> Channel {
        match audience {
            Audience::Seat(_) => Channel::Players,
            Audience::Spectator => Channel::Spectators,
        }
    }

    /// Whether `audience` reads this channel.
    pub fn read_by(self, audience: Audience) -> bool {
        match self {
            Channel::Players => true,
            Channel::Spectators => audience == Audience::Spectator,
        }
    }
}

/// One line of chat as clients receive it and instances relay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Who reads it.
    pub channel: Channel,
    /// The writer as shown: a signed-in player's name, else a guest
    /// seat's colour, else "spectator".
    pub from: String,
    /// The writer's seat (`None`: a spectator).
    pub seat: Option<usize>,
    /// The writer's account name, when signed in.
    pub player: Option<String>,
    /// The cleaned text.
    pub text: String,
    /// When it was said (Unix milliseconds).
    pub at: i64,
}

impl Line {
    /// The `chat` message of this line.
    pub fn message(&self) -> String {
        serde_json::json!({ "chat": self }).to_string()
    }
}

/// Cleans a line's text: control characters (line breaks and tabs among
/// them) become spaces, so that a line cannot forge others or move a
/// terminal's cursor; spaces at either end go. Refuses an empty line and
/// one longer than [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, ProtocolError> {
    let cleaned: String = text
        .chars()
        // Bidirectional overrides would let a line read as someone else's.
        .map(|c| {
            if c.is_control()
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
            {
                ' '
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned.trim();
    let n = cleaned.chars().count();
    if n == 0 {
        return Err(ProtocolError::new(
            ErrorCode::BadChat,
            "a chat line has some text: it was empty",
        ));
    }
    if n > MAX_CHARS {
        return Err(ProtocolError::new(
            ErrorCode::BadChat,
            format!(
                "a chat line has at most {MAX_CHARS} characters, not {n}; the line was not sent"
            ),
        ));
    }
    Ok(cleaned.to_string())
}

/// The newest lines of a game, at most [`KEPT`].
#[derive(Debug, Default)]
pub struct History {
    lines: VecDeque<Line>,
}

impl History {
    /// Keeps a line, forgetting the oldest past [`KEPT`].
    pub fn push(&mut self, line: Line) {
        if self.lines.len() == KEPT {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    /// The lines every audience reads (the players'), oldest first: for
    /// a game's page, which a seat's player opens too.
    pub fn for_everyone(&self) -> Value {
        self.for_audience(Audience::Seat(0))
    }

    /// The lines `audience` reads, oldest first, for the welcome.
    pub fn for_audience(&self, audience: Audience) -> Value {
        Value::Array(
            self.lines
                .iter()
                .filter(|l| l.channel.read_by(audience))
                .filter_map(|l| serde_json::to_value(l).ok())
                .collect(),
        )
    }
}

/// A connection's own allowance of lines: a token bucket of
/// [`CONNECTION_BURST`], refilled by one every
/// [`CONNECTION_SECONDS_PER_LINE`].
#[derive(Debug)]
pub struct Allowance {
    tokens: f64,
    last: Instant,
}

impl Default for Allowance {
    fn default() -> Allowance {
        Allowance {
            tokens: CONNECTION_BURST,
            last: Instant::now(),
        }
    }
}

impl Allowance {
    /// Takes one line's allowance, or refuses with the error to send.
    pub fn take(&mut self) -> Result<(), ProtocolError> {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() / CONNECTION_SECONDS_PER_LINE;
        self.tokens = (self.tokens + refill).min(CONNECTION_BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(ProtocolError::new(
                ErrorCode::RateLimited,
                format!(
                    "too many chat lines: {CONNECTION_BURST} at once, then one every {CONNECTION_SECONDS_PER_LINE} seconds (the line was not sent)"
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(channel: Channel, text: &str) -> Line {
        Line {
            channel,
            from: "RED".into(),
            seat: Some(0),
            player: None,
            text: text.into(),
            at: 0,
        }
    }

    #[test]
    fn text_is_cleaned_and_bounded() {
        assert_eq!(
            clean("  hello\nworld\t! ").ok().as_deref(),
            Some("hello world !")
        );
        assert_eq!(
            clean("a\u{1b}[2J\u{202e}b").ok().as_deref(),
            Some("a [2J b")
        );
        assert_eq!(clean(" \n\t ").map_err(|e| e.code), Err(ErrorCode::BadChat));
        assert_eq!(
            clean(&"é".repeat(MAX_CHARS)).map(|t| t.chars().count()),
            Ok(MAX_CHARS)
        );
        assert_eq!(
            clean(&"é".repeat(MAX_CHARS + 1)).map_err(|e| e.code),
            Err(ErrorCode::BadChat)
        );
    }

    #[test]
    fn spectators_lines_are_for_spectators() {
        let mut h = History::default();
        h.push(line(Channel::Players, "gl hf"));
        h.push(line(Channel::Spectators, "blue should take the city"));
        assert_eq!(
            h.for_audience(Audience::Seat(1)).as_array().map(Vec::len),
            Some(1)
        );
        assert_eq!(
            h.for_audience(Audience::Spectator).as_array().map(Vec::len),
            Some(2)
        );
    }

    #[test]
    fn the_history_keeps_the_newest() {
        let mut h = History::default();
        for i in 0..KEPT + 5 {
            h.push(line(Channel::Players, &i.to_string()));
        }
        let all = h.for_audience(Audience::Spectator);
        assert_eq!(all.as_array().map(Vec::len), Some(KEPT));
        assert_eq!(all[0]["text"], "5");
    }

    #[test]
    fn a_connection_may_say_a_burst_then_waits() {
        let mut a = Allowance::default();
        for _ in 0..5 {
            assert!(a.take().is_ok());
        }
        assert_eq!(a.take().map_err(|e| e.code), Err(ErrorCode::RateLimited));
    }
}
