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
//! Every game also counts against the network it was created from (an
//! IPv4 /24, an IPv6 /48), whoever it is charged to, with
//! [`Caps::network_factor`] times an address's caps: thousands of
//! addresses of one /48 filled the server's games cap before. And a
//! correspondence game, which is never adjourned and lives for weeks,
//! counts until it ends ([`Caps::correspondence_games`]).
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
    /// Correspondence games (days per move) that have not ended, per
    /// address.
    pub correspondence_games: usize,
    /// A network (an IPv4 /24, an IPv6 /48) holds this many times an
    /// address's caps, over every game created from it.
    pub network_factor: usize,
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
            // A player's correspondence games at once; each lives for
            // weeks (about 25 KB in memory).
            correspondence_games: 20,
            // A school or an office behind one /24 holds eight people's
            // worth of guests' games (signed-in people have their own
            // caps, but count here too).
            network_factor: 8,
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
            correspondence_games: usize::MAX,
            // Unbounded, whatever an address's caps are set to.
            network_factor: usize::MAX,
            think: Duration::MAX,
            iterations: u32::MAX,
        }
    }
}

/// Whom a game is charged to: its creator (an address, or an account)
/// and the network it was created from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Payer {
    pub(super) client: CreatorKey,
    pub(super) network: Option<CreatorKey>,
}

/// What a game costs its creator.
#[derive(Clone, Copy, Debug)]
pub(super) struct Charge {
    pub(super) client: CreatorKey,
    pub(super) network: Option<CreatorKey>,
    pub(super) open: bool,
    pub(super) bot_seats: usize,
    pub(super) bots_only: bool,
    pub(super) correspondence: bool,
}

impl Charge {
    /// What a game costs `payer`: whether it is open, whether it is a
    /// correspondence game, and its seats (`true` for a bot's). A game
    /// without a person's seat is of bots only.
    pub(super) fn new(
        payer: Payer,
        open: bool,
        correspondence: bool,
        bots: impl IntoIterator<Item = bool>,
    ) -> Charge {
        let (mut seats, mut bot_seats) = (0, 0);
        for bot in bots {
            seats += 1;
            bot_seats += usize::from(bot);
        }
        Charge {
            correspondence,
            ..Charge::of_counts(payer, open, seats, bot_seats)
        }
    }

    /// What a game of `seats` seats, `bot_seats` of them bots', costs
    /// `payer` (a game as the store counts it, `Store::charged_to`).
    pub(super) fn of_counts(payer: Payer, open: bool, seats: usize, bot_seats: usize) -> Charge {
        Charge {
            client: payer.client,
            network: payer.network,
            open,
            bot_seats,
            bots_only: bot_seats == seats,
            correspondence: false,
        }
    }
}

/// What one payer holds.
#[derive(Default)]
struct Tally {
    open: usize,
    bots: usize,
    bots_only: usize,
    correspondence: usize,
}

impl Tally {
    fn of(charges: impl Iterator<Item = Charge>) -> Tally {
        let mut t = Tally::default();
        for c in charges {
            t.open += usize::from(c.open);
            t.bots += c.bot_seats;
            t.bots_only += usize::from(c.bots_only);
            t.correspondence += usize::from(c.correspondence);
        }
        t
    }

    /// Refuses `charge` if it would pass `caps` times `factor`; `who`
    /// says whose count it is, for the message.
    fn check(
        &self,
        caps: &Caps,
        factor: usize,
        charge: &Charge,
        who: &str,
    ) -> Result<(), ProtocolError> {
        let cap = |c: usize| c.saturating_mul(factor);
        let refuse = |m: String| Err(ProtocolError::new(ErrorCode::RateLimited, m));
        if charge.open && self.open >= cap(caps.open_games) {
            return refuse(format!(
                "{who} {} open games waiting for people (at most {}): start one, or wait for it to expire",
                self.open,
                cap(caps.open_games)
            ));
        }
        if charge.bots_only && self.bots_only >= cap(caps.bots_only_games) {
            return refuse(format!(
                "{who} {} games of bots only running (at most {}): wait for one to end",
                self.bots_only,
                cap(caps.bots_only_games)
            ));
        }
        if charge.correspondence && self.correspondence >= cap(caps.correspondence_games) {
            return refuse(format!(
                "{who} {} correspondence games not over (at most {}): finish or resign one first",
                self.correspondence,
                cap(caps.correspondence_games)
            ));
        }
        if charge.bot_seats > 0 && self.bots.saturating_add(charge.bot_seats) > cap(caps.bot_seats)
        {
            return refuse(format!(
                "{who} {} bot seats in games running (at most {}): this game's {} would pass it; resign or finish one of your games (the lobby lists them), or leave it: a game nobody is connected to stops counting once it is adjourned",
                self.bots,
                cap(caps.bot_seats),
                charge.bot_seats
            ));
        }
        Ok(())
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
        let payer = Payer {
            client: charge.client,
            network: charge.network,
        };
        // A game held here counts once, as this instance has it.
        let stored = || {
            elsewhere
                .iter()
                .filter(|g| !charges.contains_key(&g.id))
                .map(move |g| {
                    let c = Charge::of_counts(payer, g.open, g.seats, g.bot_seats);
                    (
                        g,
                        Charge {
                            correspondence: g.correspondence,
                            ..c
                        },
                    )
                })
        };
        let mine = Tally::of(
            charges
                .values()
                .filter(|c| c.client == charge.client)
                .copied()
                .chain(stored().filter(|(g, _)| g.by_creator).map(|(_, c)| c)),
        );
        mine.check(
            caps,
            1,
            &charge,
            "you (by address for a guest, by account once signed in) have",
        )?;
        if let Some(network) = charge.network {
            let theirs = Tally::of(
                charges
                    .values()
                    .filter(|c| c.network == Some(network))
                    .copied()
                    .chain(stored().filter(|(g, _)| g.by_network).map(|(_, c)| c)),
            );
            theirs.check(
                caps,
                caps.network_factor.max(1),
                &charge,
                "your network (an IPv4 /24 or an IPv6 /48, everyone's games from it) has",
            )?;
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

    /// Whom a game in memory is charged to (`None`: nobody, the
    /// operator's game).
    pub(super) fn payer(&self, game: &GameId) -> Option<CreatorKey> {
        self.charges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(game)
            .map(|c| c.client)
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

    fn alone(client: CreatorKey) -> Payer {
        Payer {
            client,
            network: None,
        }
    }

    fn from(s: &str) -> Payer {
        let c = crate::guard::ClientKey::of(s.parse().unwrap());
        Payer {
            client: CreatorKey::of(c),
            network: Some(CreatorKey::of_network(c)),
        }
    }

    #[test]
    fn networks_and_correspondence_have_caps_too() {
        let caps = Caps {
            open_games: 2,
            correspondence_games: 1,
            network_factor: 2,
            ..Caps::unlimited()
        };
        let budget = Budget::default();
        // Four open games from four /64s of one /48: the network holds
        // twice an address's two.
        for host in [
            "2001:db8:1:1::1",
            "2001:db8:1:2::1",
            "2001:db8:1:3::1",
            "2001:db8:1:4::1",
        ] {
            let c = Charge::new(from(host), true, false, [false, false]);
            budget.charge(&caps, &GameId::random(), c, &[]).unwrap();
        }
        let next = Charge::new(from("2001:db8:1:5::1"), true, false, [false, false]);
        let e = budget
            .charge(&caps, &GameId::random(), next, &[])
            .unwrap_err();
        assert!(e.message.contains("your network"), "{}", e.message);
        // Another /48, and an IPv4 /24, are other networks.
        let other = Charge::new(from("2001:db8:2:1::1"), true, false, [false, false]);
        budget.charge(&caps, &GameId::random(), other, &[]).unwrap();
        for host in ["10.1.1.1", "10.1.1.2", "10.1.1.3", "10.1.1.4"] {
            let c = Charge::new(from(host), true, false, [false]);
            budget.charge(&caps, &GameId::random(), c, &[]).unwrap();
        }
        let c = Charge::new(from("10.1.1.5"), true, false, [false]);
        assert!(budget.charge(&caps, &GameId::random(), c, &[]).is_err());
        assert!(budget
            .charge(
                &caps,
                &GameId::random(),
                Charge::new(from("10.1.2.1"), true, false, [false]),
                &[]
            )
            .is_ok());
        // One correspondence game per address here; a started one counts
        // until it ends.
        let corr = Charge::new(from("192.0.2.1"), false, true, [false, false]);
        let g = GameId::random();
        budget.charge(&caps, &g, corr, &[]).unwrap();
        let e = budget
            .charge(&caps, &GameId::random(), corr, &[])
            .unwrap_err();
        assert!(e.message.contains("correspondence"), "{}", e.message);
        budget.release(&g);
        budget.charge(&caps, &GameId::random(), corr, &[]).unwrap();
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
            network: None,
            correspondence: false,
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
            network: None,
            correspondence: false,
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
        let open = Charge::of_counts(alone(a), true, 2, 0);
        let here = GameId::random();
        budget.charge(&caps, &here, open, &[]).unwrap();
        // The store has the game held here and one of another instance:
        // two open games, not three.
        let stored = |id: &GameId| ChargedGame {
            id: id.clone(),
            open: true,
            seats: 2,
            bot_seats: 0,
            by_creator: true,
            by_network: false,
            correspondence: false,
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
            by_creator: true,
            by_network: false,
            correspondence: false,
        };
        let all_bots = Charge::of_counts(alone(a), false, 2, 2);
        assert!(all_bots.bots_only);
        let e = budget
            .charge(&caps, &GameId::random(), all_bots, &[bots])
            .unwrap_err();
        assert!(e.message.contains("bots only"), "{}", e.message);
    }
}
