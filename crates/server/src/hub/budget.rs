//! What one client address may hold at once: open games waiting for
//! people, bot seats in live games, games of bots only. A game is charged
//! to the address that created it until it starts (open games) or ends
//! (bots), so one stranger cannot fill the server's memory with open games
//! or its cores with bots. Bot searches themselves queue for a bounded
//! pool of workers (`driver.rs`).
//!
//! A signed-in creator's games are charged to their account instead of
//! their address (people behind one address do not share a cap); a game
//! stops counting when it ends, and an untimed game when it is adjourned
//! (`adjourn.rs`: nobody connected for a while), so a guest can always
//! free a share by resigning from the lobby's list or by leaving.
//!
//! The charges live in this instance's memory, and the creator's address
//! is stored with the game (as a [`CreatorKey`]): a game read back from
//! the store (resumed at start, taken up after an adjournment) is charged
//! to its creator again, so a restart does not reset the caps. The
//! operator's games are charged to nobody, before and after.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{ChargedGame, CreatorKey, GameId};

/// Caps per client address.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Open games (created, not started) per address.
    pub open_games: usize,
    /// Bot seats in games that have not ended, per address.
    pub bot_seats: usize,
    /// Games of bots only that have not ended, per address.
    pub bots_only_games: usize,
    /// The longest a searching bot may think about a move in a game
    /// created without the operator's token (the server's own limit,
    /// `Settings::bot_move_limit`, still bounds it).
    pub think: Duration,
    /// The largest MCTS iteration budget in a game created without the
    /// operator's token (`Settings::max_mcts_iterations` still bounds it).
    pub iterations: u32,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            open_games: 10,
            bot_seats: 12,
            bots_only_games: 2,
            // A strong bot (mcts:2s plays well above greedy) that still
            // lets a pool of one worker serve a few games a minute each.
            think: Duration::from_secs(2),
            iterations: 20_000,
        }
    }
}

impl Caps {
    /// No caps: for benchmarks and tests that play many games from one
    /// address.
    pub fn unlimited() -> Caps {
        Caps {
            open_games: usize::MAX,
            bot_seats: usize::MAX,
            bots_only_games: usize::MAX,
            think: Duration::MAX,
            iterations: u32::MAX,
        }
    }
}

/// What a game costs its creator.
#[derive(Clone, Copy, Debug)]
pub(super) struct Charge {
    pub(super) client: CreatorKey,
    pub(super) open: bool,
    pub(super) bot_seats: usize,
    pub(super) bots_only: bool,
}

impl Charge {
    /// What a game costs `client`: whether it is open, and its seats
    /// (`true` for a bot's). A game without a person's seat is of bots
    /// only.
    pub(super) fn new(
        client: CreatorKey,
        open: bool,
        bots: impl IntoIterator<Item = bool>,
    ) -> Charge {
        let (mut seats, mut bot_seats) = (0, 0);
        for bot in bots {
            seats += 1;
            bot_seats += usize::from(bot);
        }
        Charge::of_counts(client, open, seats, bot_seats)
    }

    /// What a game of `seats` seats, `bot_seats` of them bots', costs
    /// `client` (a game as the store counts it, `Store::charged_to`).
    pub(super) fn of_counts(
        client: CreatorKey,
        open: bool,
        seats: usize,
        bot_seats: usize,
    ) -> Charge {
        Charge {
            client,
            open,
            bot_seats,
            bots_only: bot_seats == seats,
        }
    }
}

/// The charges of the games in memory, by game.
#[derive(Default)]
pub(super) struct Budget {
    charges: Mutex<HashMap<GameId, Charge>>,
}

impl Budget {
    /// Charges `game` to its creator, or refuses it past a cap.
    /// `elsewhere`: the creator's games as the store has them (shared
    /// mode: other instances' games count too); a game in this instance's
    /// memory counts once, as this instance has it.
    pub(super) fn charge(
        &self,
        caps: &Caps,
        game: &GameId,
        charge: Charge,
        elsewhere: &[ChargedGame],
    ) -> Result<(), ProtocolError> {
        let mut charges = self.charges.lock().unwrap_or_else(|e| e.into_inner());
        let stored = elsewhere
            .iter()
            .filter(|g| !charges.contains_key(&g.id))
            .map(|g| Charge::of_counts(charge.client, g.open, g.seats, g.bot_seats));
        let (mut open, mut bots, mut bots_only) = (0, 0, 0);
        for c in charges
            .values()
            .filter(|c| c.client == charge.client)
            .copied()
            .chain(stored)
        {
            open += usize::from(c.open);
            bots += c.bot_seats;
            bots_only += usize::from(c.bots_only);
        }
        let refuse = |m: String| Err(ProtocolError::new(ErrorCode::RateLimited, m));
        if charge.open && open >= caps.open_games {
            return refuse(format!(
                "you have {open} open games waiting for people (at most {}, counted by address for guests, by account once signed in): start one, or wait for it to expire",
                caps.open_games
            ));
        }
        if charge.bots_only && bots_only >= caps.bots_only_games {
            return refuse(format!(
                "you have {bots_only} games of bots only running (at most {}, counted by address for guests, by account once signed in): wait for one to end",
                caps.bots_only_games
            ));
        }
        if charge.bot_seats > 0 && bots.saturating_add(charge.bot_seats) > caps.bot_seats {
            return refuse(format!(
                "you have {bots} bot seats in games running (at most {}, counted by address for guests, by account once signed in): this game's {} would pass it; resign or finish one of your games (the lobby lists them), or leave it: a game nobody is connected to stops counting once it is adjourned",
                caps.bot_seats, charge.bot_seats
            ));
        }
        charges.insert(game.clone(), charge);
        Ok(())
    }

    /// Charges a game read back from the store to its creator, past the
    /// caps if need be: it was accepted when created, and refusing it now
    /// would lose a game, not spare a cost.
    pub(super) fn restore(&self, game: &GameId, charge: Charge) {
        self.charges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game.clone(), charge);
    }

    /// The game started: it no longer counts as open.
    pub(super) fn started(&self, game: &GameId) {
        let mut charges = self.charges.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = charges.get_mut(game) {
            c.open = false;
        }
    }

    /// The game ended or is gone: its creator is charged no more.
    pub(super) fn release(&self, game: &GameId) {
        self.charges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> CreatorKey {
        CreatorKey::of(crate::guard::ClientKey::of(s.parse().unwrap()))
    }

    #[test]
    fn caps_apply_per_address_until_released() {
        let caps = Caps {
            open_games: 1,
            bot_seats: 3,
            bots_only_games: 1,
            ..Caps::unlimited()
        };
        let budget = Budget::default();
        let a = key("1.1.1.1");
        let open = Charge {
            client: a,
            open: true,
            bot_seats: 1,
            bots_only: false,
        };
        let g1 = GameId::random();
        budget.charge(&caps, &g1, open, &[]).unwrap();
        let e = budget
            .charge(&caps, &GameId::random(), open, &[])
            .unwrap_err();
        assert!(e.message.contains("open games"), "{}", e.message);
        // Another address is not charged for it.
        budget
            .charge(
                &caps,
                &GameId::random(),
                Charge {
                    client: key("2.2.2.2"),
                    ..open
                },
                &[],
            )
            .unwrap();
        // Started: no longer open, its bot still counts.
        budget.started(&g1);
        budget.charge(&caps, &GameId::random(), open, &[]).unwrap();
        let bots = Charge {
            client: a,
            open: false,
            bot_seats: 2,
            bots_only: true,
        };
        let e = budget
            .charge(&caps, &GameId::random(), bots, &[])
            .unwrap_err();
        assert!(e.message.contains("bot seats"), "{}", e.message);
        budget.release(&g1);
        let g2 = GameId::random();
        budget.charge(&caps, &g2, bots, &[]).unwrap();
        let e = budget
            .charge(
                &caps,
                &GameId::random(),
                Charge {
                    bot_seats: 0,
                    ..bots
                },
                &[],
            )
            .unwrap_err();
        assert!(e.message.contains("bots only"), "{}", e.message);
        budget.release(&g2);
        budget
            .charge(
                &caps,
                &GameId::random(),
                Charge {
                    bot_seats: 0,
                    ..bots
                },
                &[],
            )
            .unwrap();
    }

    #[test]
    fn games_elsewhere_count_once() {
        let caps = Caps {
            open_games: 2,
            bots_only_games: 1,
            ..Caps::unlimited()
        };
        let budget = Budget::default();
        let a = key("1.1.1.1");
        let open = Charge::of_counts(a, true, 2, 0);
        let here = GameId::random();
        budget.charge(&caps, &here, open, &[]).unwrap();
        // The store has the game held here and one of another instance:
        // two open games, not three.
        let stored = |id: &GameId| ChargedGame {
            id: id.clone(),
            open: true,
            seats: 2,
            bot_seats: 0,
        };
        let elsewhere = [stored(&here), stored(&GameId::random())];
        let e = budget
            .charge(&caps, &GameId::random(), open, &elsewhere)
            .unwrap_err();
        assert!(e.message.contains("2 open games"), "{}", e.message);
        assert!(budget
            .charge(&caps, &GameId::random(), open, &elsewhere[..1])
            .is_ok());
        // A game of bots only on another instance counts for that cap.
        let bots = ChargedGame {
            id: GameId::random(),
            open: false,
            seats: 2,
            bot_seats: 2,
        };
        let all_bots = Charge::of_counts(a, false, 2, 2);
        assert!(all_bots.bots_only);
        let e = budget
            .charge(&caps, &GameId::random(), all_bots, &[bots])
            .unwrap_err();
        assert!(e.message.contains("bots only"), "{}", e.message);
    }
}
