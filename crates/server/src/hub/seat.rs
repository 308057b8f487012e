//! A stranger takes a seat: the lobby lists public open games, and anyone
//! may sit in a free person's seat of one (docs/server.md, "Taking a
//! seat"). The seat gets a new token, handed to the one who sat (the old
//! invite link of that seat stops working: the seat is no longer free).
//! A private game is seated by its invite links only. The game starts
//! once its last free seat is taken.

use std::sync::Arc;

use super::live::{GameHandle, Occupant};
use super::{unavailable, Hub};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::players::Account;
use crate::store::Status;
use crate::token;

/// A seat taken from the lobby: its number and its new token.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Seated {
    /// The seat's number.
    pub seat: usize,
    /// The seat's token (shown once: whoever holds it plays the seat).
    pub token: String,
    /// The game's status after the seat was taken: `playing` once every
    /// seat is.
    pub status: &'static str,
}

impl Hub {
    /// Seats the one asking (a signed-in `player`, or a guest) in the
    /// first free person's seat of the open public game `handle`, with a
    /// new token; starts the game if that was the last free seat.
    pub async fn sit(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        player: Option<Account>,
    ) -> Result<Seated, ProtocolError> {
        // Kept for the start: a rated seat acts only for its account's session.
        let who = player.clone();
        let (seat, token, full) = {
            let mut live = handle.live.lock().await;
            if live.status != Status::Open {
                return Err(ProtocolError::new(
                    ErrorCode::NoFreeSeat,
                    format!(
                        "the game is {}: its seats are taken; watch it instead",
                        live.status.as_str()
                    ),
                ));
            }
            // A rated game has no invite with a token (its creator never
            // holds another's seat): its address is the invite, and a
            // private one is taken by whoever was handed it.
            if live.private && !live.rated {
                return Err(ProtocolError::new(
                    ErrorCode::Forbidden,
                    "this game is private: its seats are taken by invite link only",
                ));
            }
            if live.rated && player.is_none() {
                return Err(ProtocolError::new(
                    ErrorCode::SignInRequired,
                    "this game is rated: sign in to take a seat",
                ));
            }
            let seat = live.seats.iter().position(free).ok_or_else(|| {
                ProtocolError::new(
                    ErrorCode::NoFreeSeat,
                    "every person's seat of this game is taken; watch it instead",
                )
            })?;
            let (token, hash) = token::new_token();
            // Seats are numbered below six. The store takes the seat only
            // if it is still free there: another instance may have seated
            // someone first.
            if !self
                .store
                .take_seat(&handle.id, seat as u8, &hash)
                .await
                .map_err(unavailable)?
            {
                return Err(ProtocolError::new(
                    ErrorCode::NoFreeSeat,
                    "that seat was just taken; try another game",
                ));
            }
            if let Some(Occupant::Human { hash: h, .. }) = live.seats.get_mut(seat) {
                *h = hash;
            }
            self.bind_player(handle, &mut live, seat, player, None)
                .await?;
            // Already joined in the store: this marks it in memory, tells
            // the waiting room and the other instances.
            self.mark_joined(handle, &mut live, seat).await?;
            let full = live
                .seats
                .iter()
                .all(|s| matches!(s, Occupant::Bot(_) | Occupant::Human { joined: true, .. }));
            (seat, token, full)
        };
        let status = if full {
            match self.start(handle, &token, who.as_ref()).await {
                Ok(()) => Status::Playing,
                // Someone else started it in the meantime: it runs.
                Err(e) if e.code == ErrorCode::BadRequest => Status::Playing,
                Err(e) => return Err(e),
            }
        } else {
            Status::Open
        };
        Ok(Seated {
            seat,
            token,
            status: status.as_str(),
        })
    }
}

impl Hub {
    /// Cancels an open game by its creator's token (the first person's
    /// seat): removed like an expired one (nothing was played), its
    /// waiting room told; its creator's share of the caps is free again.
    pub async fn cancel(&self, handle: &Arc<GameHandle>, token: &str) -> Result<(), ProtocolError> {
        {
            let live = handle.live.lock().await;
            let seat = Hub::seat_of(&live, token)?;
            if live.status != Status::Open {
                return Err(ProtocolError::new(
                    ErrorCode::BadRequest,
                    "only a game still waiting for its people can be cancelled: resign instead",
                ));
            }
            let creator = live
                .seats
                .iter()
                .position(|s| matches!(s, Occupant::Human { .. }));
            if creator != Some(seat) {
                return Err(ProtocolError::new(
                    ErrorCode::Forbidden,
                    "only the game's creator (its first person's seat) may cancel it: leave it instead",
                ));
            }
        }
        if !self
            .store
            .delete_open(&handle.id)
            .await
            .map_err(unavailable)?
        {
            return Err(ProtocolError::new(
                ErrorCode::BadRequest,
                "the game has just started: resign instead",
            ));
        }
        self.let_go(&handle.id, super::Gone::Cancelled).await;
        Ok(())
    }
}

/// A seat a stranger may take: a person's, nobody in it, held by no
/// account (a rematch keeps its players' seats for them).
fn free(s: &Occupant) -> bool {
    matches!(
        s,
        Occupant::Human {
            joined: false,
            player: None,
            ..
        }
    )
}
