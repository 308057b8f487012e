//! The Plague in the turn (`plague.md`, "A turn with the plague", with its
//! decisions): eradication at the start of the turn (step 1), a new outbreak
//! when a source is placed (step 3), the follower ban on a tile with a flea
//! or an active source, and the plague step after the follower step, which
//! the turn may not leave while a spread is owed.
//!
//! Spreading (step 4, `spread.rs`) and flight (step 5, `flight.rs`) may come
//! in the follower step or in the plague step: this file lists and picks
//! their actions together with the step's own and sends the `flea` and
//! `flee` actions to their parts. The turn machine calls it through the
//! hooks in `mod.rs`.

use crate::game::{illegal, Action, Game, IllegalAction, Phase};
use crate::scoring::Reason;

use super::components::{is_source, Plague, Turn, FLEAS, OUTBREAKS};
use super::flight::Stale;
use super::regions::token_event;

impl Game {
    /// The Plague's tokens, when it is in play.
    pub fn plague(&self) -> Option<&Plague> {
        self.ext.plague.as_ref()
    }

    /// Step 1, eradication at the start of a turn (before the draw; not
    /// after the last turn). Only once the flea supply is empty: while no
    /// latent flea could be moved and more than one outbreak is active, the
    /// lowest-numbered active outbreak is flipped. Also clears the turn's
    /// plague steps.
    pub(crate) fn plague_turn_start(&mut self) {
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        p.turn = Turn::default();
        // Listed again once the turn's tile is down.
        p.spreads_valid = false;
        p.flights_stale = Stale::All;
        if p.supply == 0 {
            loop {
                let latent = p.fleas.iter().any(|f| !f.is_active());
                let active = p.outbreaks.iter().filter(|o| o.active).count();
                if latent || active <= 1 {
                    break;
                }
                let Some(k) = p.outbreaks.iter().position(|o| o.active) else {
                    break;
                };
                p.eradicate(&self.board, &self.rules.catalog, k);
                let piece = p.outbreaks[k].piece;
                self.events
                    .push(token_event(&self.board, Reason::Eradicated, k, piece));
                p.settle(&self.board, &self.rules.catalog, &mut self.events);
            }
        }
    }

    /// Step 3, a new outbreak: a placed source tile gets the next outbreak token,
    /// active. No follower on it and no spread this turn. If all 18 fleas
    /// formed one region and the new source is not connected to it, that
    /// region's outbreak is flipped (its fleas turn latent). Then the
    /// turn's spreads are listed for the steps that follow.
    pub(crate) fn plague_placed(&mut self, pi: u16) {
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        let cat = &*self.rules.catalog;
        p.sync(&self.board, cat);
        let tile = self.board.pieces()[pi as usize].tile;
        if is_source(cat, tile) {
            p.sources.push(pi);
        }
        // Whether a source forbids the spread is judged per part: in a
        // double turn a part whose tile is no source may spread although
        // the other's was (seed 004, lines 62-70).
        p.turn.source = false;
        if is_source(cat, tile) && p.outbreaks.len() < OUTBREAKS {
            p.turn.source = true;
            let one_region = match p.fleas.first() {
                Some(f) if p.supply == 0 && p.fleas.len() == FLEAS as usize => f
                    .region
                    .filter(|r| p.fleas.iter().all(|g| g.region == Some(*r))),
                _ => None,
            };
            let k = p.outbreaks.len();
            p.add_outbreak(&self.board, cat, pi);
            self.events
                .push(token_event(&self.board, Reason::Outbreak, k, pi));
            if let Some(r) = one_region {
                let nb = p.adjacent_to(&self.board, cat, pi);
                if !nb.as_slice().iter().any(|&q| p.flea_set.has(q)) {
                    let r = r as usize;
                    p.eradicate(&self.board, cat, r);
                    let old = p.outbreaks[r].piece;
                    self.events
                        .push(token_event(&self.board, Reason::Eradicated, r, old));
                }
            }
            p.settle(&self.board, cat, &mut self.events);
        }
        p.prepare_spreads(&self.board, cat);
        self.prepare_flights();
    }

    /// Why no follower may go onto the piece just placed: it has a flea, or
    /// it is a source with an active outbreak (the turn it was placed, and
    /// while its outbreak stays active).
    pub(crate) fn plague_follower_ban(&self) -> Option<&'static str> {
        self.plague_ban_on(self.last?)
    }

    /// Why no follower may go onto piece `pi` by any means (a magic portal
    /// included, `princess-dragon.md`): a flea, or an active outbreak.
    pub(crate) fn plague_ban_on(&self, pi: u16) -> Option<&'static str> {
        let p = self.ext.plague.as_ref()?;
        if p.flea_on(pi).is_some() {
            return Some("a follower may never go onto a tile with a flea");
        }
        if p.active_outbreak_on(pi).is_some() {
            return Some("no follower may go onto a plague source with an active outbreak");
        }
        None
    }

    /// Whether the tile of the turn is down, so that plague actions may be
    /// taken (in the follower step, the plague step after it, or a step
    /// held between the two parts of a double turn).
    pub(super) fn plague_turn_open(&self) -> bool {
        self.plague_step_open() && self.ext.plague.as_ref().is_some_and(Plague::started)
    }

    /// Whether the current step is one where `flea` and `flee` may come:
    /// the follower step, the plague step, and a step between the two
    /// parts of a double turn (the builder step: seed 004, lines 54-70).
    pub(super) fn plague_step_open(&self) -> bool {
        matches!(self.phase, Phase::Follower | Phase::Plague)
            || crate::expansions::between_parts(self)
    }

    /// Whether the owed spread may wait: another part of this double turn
    /// may still follow (the builder step is to come, or is held now), and
    /// that part may spread instead (seed 004, lines 66-70).
    pub(super) fn spread_may_wait(&self) -> bool {
        crate::expansions::more_parts(self)
    }

    // -- The plague actions in the turn -------------------------------------

    /// The legal `flea` and `flee` actions (follower step and plague step).
    pub(crate) fn plague_actions(&self, out: &mut Vec<Action>) {
        self.each_spread(|from, to| {
            out.push(Action::Flea {
                to: self.tile_anchor(to),
                from: from.map(|o| self.tile_anchor(o)),
            });
            true
        });
        let Some(p) = &self.ext.plague else {
            return;
        };
        if !self.plague_turn_open() || p.turn.fled {
            return;
        }
        if self.flights_current(p) {
            let before = out.len();
            self.push_stored_flights(p, out);
            // Debug builds check the stored flights against a fresh search.
            #[cfg(debug_assertions)]
            {
                let mut fresh = Vec::new();
                self.list_flights(p, (&mut Vec::new(), &mut Vec::new()), &mut fresh);
                debug_assert_eq!(fresh, out[before..], "stored flights out of date");
            }
            let _ = before;
        } else {
            self.list_flights(p, (&mut Vec::new(), &mut Vec::new()), out);
        }
    }

    /// [`Expansion::pick_step_action`] in the follower step and the
    /// plague step: the list there is the follower step's own actions (or
    /// nothing), the spreads, the flights, then the plague step's `pass`
    /// unless a spread is owed. The spreads and flights stored for the
    /// turn are counted, and only the action picked is built. `None` (before
    /// any pick) when the stored ones are not current.
    ///
    /// [`Expansion::pick_step_action`]: crate::expansions::Expansion::pick_step_action
    pub(super) fn plague_pick_action(
        &self,
        buf: &mut Vec<Action>,
        pick: &mut crate::expansions::Pick<'_>,
    ) -> Option<Action> {
        let p = self.ext.plague.as_ref()?;
        let follower_step = match self.phase {
            Phase::Follower => true,
            Phase::Plague => false,
            _ => return None,
        };
        let open = self.plague_turn_open();
        let spreads = open && !p.turn.source && !p.turn.spread;
        if spreads && !p.spreads_valid {
            return None;
        }
        let flights = open && !p.turn.fled;
        if flights && !self.flights_current(p) {
            return None;
        }
        let ns = if spreads { p.spreads.len() } else { 0 };
        let nf = if flights {
            p.flight_from.last().map_or(0, |g| g.end as usize)
        } else {
            0
        };
        buf.clear();
        if follower_step {
            // What `Game::legal_actions_into` lists before the plague's.
            self.follower_options(|a| buf.push(a));
            crate::expansions::follower_alternatives(self, buf);
            buf.push(Action::Pass);
        }
        let pass = usize::from(!follower_step && (ns == 0 || self.spread_may_wait()));
        let n = buf.len() + ns + nf + pass;
        // The follower step's pass is listed before the plague's actions;
        // the plague step's comes last.
        let pass_at = if follower_step {
            buf.len().checked_sub(1)
        } else {
            (pass == 1).then_some(n - 1)
        };
        let mut k = pick(n, pass_at);
        if let Some(&a) = buf.get(k) {
            return Some(a);
        }
        k -= buf.len();
        let cat = &*self.rules.catalog;
        let adj = |pi| p.adjacent_to(&self.board, cat, pi);
        if let Some((from, to)) = (k < ns).then(|| p.spreads.nth(k, adj)).flatten() {
            return Some(Action::Flea {
                to: self.tile_anchor(to),
                from: from.map(|o| self.tile_anchor(o)),
            });
        }
        k -= ns;
        if k < nf {
            let a = self.nth_stored_flight(p, k);
            debug_assert!(a.is_some(), "plague_pick_action: flight {k} of {nf}");
            return a;
        }
        Some(Action::Pass)
    }

    /// The legal actions of the plague step: spread, flee, and `pass` unless
    /// a spread is owed that may not wait for the turn's second part.
    pub(crate) fn plague_step_actions(&self, out: &mut Vec<Action>) {
        let before = out.len();
        self.plague_actions(out);
        let owed = out[before..]
            .iter()
            .any(|a| matches!(a, Action::Flea { .. }));
        if !owed || self.spread_may_wait() {
            out.push(Action::Pass);
        }
    }

    /// The follower step is over. Once the plague has broken out the turn
    /// goes on with the plague step (completed features are scored first, so
    /// spreading or fleeing then comes after scoring); returns false when
    /// the turn may simply end.
    pub(crate) fn enter_plague_step(&mut self) -> bool {
        if !self.ext.plague.as_ref().is_some_and(Plague::started) {
            return false;
        }
        if let Some(pi) = self.last {
            self.score_completed(pi);
        }
        self.phase = Phase::Plague;
        // A follower placed or scored changes the flights.
        self.prepare_flights();
        true
    }

    /// `pass` in the plague step: ends the part, unless a spread is owed
    /// that may not wait for the turn's second part.
    pub(crate) fn plague_pass(&mut self) -> Result<(), IllegalAction> {
        if self.spread_owed() && !self.spread_may_wait() {
            return Err(illegal(
                "plague",
                "the plague must spread this turn: put a flea on a tile next to an active outbreak or an active flea",
            ));
        }
        self.end_plague_step();
        Ok(())
    }

    /// Ends the turn after the plague step: [`Game::end_turn`] without its
    /// completion scoring, which ran when the plague step began (spreading
    /// and fleeing place no tile, so nothing can have completed since, and
    /// a second scoring would find nothing).
    pub(super) fn end_plague_step(&mut self) {
        self.end_turn_scored();
    }

    /// Checks and applies a `flea` or `flee` action.
    pub(crate) fn try_plague(&mut self, action: &Action) -> Result<(), IllegalAction> {
        if self.ext.plague.is_none() {
            return Err(illegal("plague", "the Plague is not in play in this game"));
        }
        if !self.plague_step_open() {
            return Err(illegal(
                "turn",
                "place the drawn tile first: the plague acts only once the turn's tile is down",
            ));
        }
        if !self.ext.plague.as_ref().is_some_and(Plague::started) {
            return Err(illegal(
                "plague",
                "the plague has not broken out yet: no outbreak token is on the board",
            ));
        }
        match *action {
            Action::Flea { to, from } => self.try_spread(to, from),
            Action::Flee { from, to } => self.try_flee(from, to),
            _ => Err(illegal("plague", "not a plague action")),
        }
    }
}
