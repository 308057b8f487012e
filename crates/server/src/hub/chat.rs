//! Table chat at the hub: a line is cleaned, kept in the game's history
//! and told to the audiences that read its channel, here and (shared
//! mode) on the other instances (`crate::chat` has the rules).

use std::sync::Arc;

use super::live::{GameHandle, LiveGame, Occupant};
use super::messages::Update;
use super::Hub;
use crate::chat::{self, Channel, Line};
use crate::cluster::Notice;
use crate::protocol::{Audience, ProtocolError};

impl Hub {
    /// Says `text` at the table as `audience`; `viewer` is the signed-in
    /// player behind the connection, if any (a seat is named by the
    /// account holding it, else by its colour; a spectator by the viewer's
    /// name, else "spectator").
    pub async fn chat(
        &self,
        handle: &Arc<GameHandle>,
        audience: Audience,
        viewer: Option<&str>,
        text: &str,
    ) -> Result<(), ProtocolError> {
        let text = chat::clean(text)?;
        let line = {
            let live = handle.live.lock().await;
            let (from, seat, player) = match audience {
                Audience::Seat(s) => {
                    let player = live
                        .seats
                        .get(s)
                        .and_then(Occupant::player)
                        .map(|a| a.name.clone());
                    let colour = live
                        .config
                        .players
                        .get(s)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {s}"));
                    (player.clone().unwrap_or(colour), Some(s), player)
                }
                Audience::Spectator => (
                    viewer.unwrap_or("spectator").to_string(),
                    None,
                    viewer.map(str::to_string),
                ),
            };
            let line = Line {
                channel: Channel::of(audience),
                from,
                seat,
                player,
                text,
                at: super::now_ms(),
            };
            tell(handle, &live, line.clone());
            line
        };
        self.notify(&handle.id, Notice::Chat { line }).await;
        Ok(())
    }

    /// Another instance's line (shared mode), for a game in memory here.
    pub(super) async fn on_chat_notice(&self, handle: &Arc<GameHandle>, line: Line) {
        let live = handle.live.lock().await;
        tell(handle, &live, line);
    }
}

impl GameHandle {
    /// The welcome of `audience` with the chat lines it reads (the game's
    /// lock held: `live` is this game's).
    pub(super) fn welcome_with_chat(
        &self,
        live: &LiveGame,
        audience: Audience,
        since: Option<u32>,
    ) -> serde_json::Value {
        let mut body = live.welcome(&self.id, audience, since);
        if let Some(o) = body.as_object_mut() {
            let chat = self
                .chat
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .for_audience(audience);
            o.insert("chat".into(), chat);
        }
        body
    }
}

/// Keeps a line and tells the connected audiences that read its channel.
/// Called under the game's lock, as `Hub::attach` subscribes: a new
/// connection gets each line once, in its welcome or as an update.
fn tell(handle: &GameHandle, live: &LiveGame, line: Line) {
    let text = line.message();
    let channel = line.channel;
    handle
        .chat
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(line);
    handle.publish(|| {
        Update::build(
            live.version(),
            live.seats.len(),
            |a| channel.read_by(a) && handle.watched(a),
            |_| text.clone(),
        )
    });
}
