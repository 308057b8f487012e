//! The Plague, first edition (`plague.md`, seed `004_68c9f7c7e00c8a83.txt`).
//!
//! Six plague-source tiles bring six numbered outbreak tokens (face: active,
//! back: eradicated) into play; 18 flea tokens (red: active, pink: latent)
//! spread the plague from tile to tile and send home the followers on the
//! tiles they reach. The module is one file per part of the rules page:
//!
//! - `components.rs`: the components and the set-up, and the state that
//!   holds the tokens (with what is derived from them to keep listing
//!   cheap);
//! - `regions.rs`: the definitions (adjacent tiles, active and latent
//!   plague regions) and how regions merge and split;
//! - `spread.rs`: step 4 of the turn, the mandatory spread;
//! - `flight.rs`: step 5 of the turn, the optional flight;
//! - `turn.rs`: the rest of the turn with the plague: eradication at its
//!   start (step 1), a new outbreak when a source is placed (step 3), the
//!   follower ban, and the plague step that follows the follower step;
//! - `views.rs`: what is shown of it: the state JSON, the tensor and the
//!   action codec's numbering;
//! - `tests.rs`: long scenarios through the public API.
//!
//! This file is the wiring. The turn machine reaches the Plague only
//! through its hooks (`PlagueRules`, at the end of this file), and only
//! while it is in play: the outbreak after a tile is placed, the follower
//! ban, the plague actions in the follower step, the plague step when the
//! follower step ends, the `flea` and `flee` actions, and eradication when
//! the next turn begins. The few bit-set helpers several parts share live
//! here too. The types the `flea` and `flee` actions carry ([`TileAt`],
//! [`FeatureAt`]) belong to the vocabulary (`action.rs`) and are
//! re-exported here, as are the parts' public items, so that every path
//! `expansions::plague::X` stays what it was.

mod components;
mod flight;
mod regions;
mod spread;
mod turn;
mod views;

#[cfg(test)]
mod tests;

pub use crate::action::{FeatureAt, TileAt};
pub use components::{
    arrange_safe, is_source, setup, Flea, Outbreak, Plague, FLEAS, OUTBREAKS, SAFE_TILES, SET,
    SOURCE_TAG,
};
pub use components::{SafeDraws, SafeScratch};
pub use regions::adjacent_pieces;
pub use views::{FleaJson, OutbreakJson, PlagueJson, FLEA_SOURCES, FLIGHT_SOURCES};

use crate::catalog::TileIdx;
use crate::codec::ActionCodec;
use crate::expansions::{Expansion, Family};
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

// ---------------------------------------------------------------------------
// Bit sets shared by the parts

/// Calls `f` with a bit per item for `n` items, all clear: on the stack for
/// a board of ordinary size.
fn with_bits<R>(n: usize, f: impl FnOnce(&mut [u64]) -> R) -> R {
    with_zeroed::<u64, 32, R>(n.div_ceil(64), f)
}

/// Calls `f` with `n` zeroed items: an array of `N` on the stack when
/// they fit, else a vector (a board far beyond any real game's).
fn with_zeroed<T: Copy + Default, const N: usize, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    let mut stack = [T::default(); N];
    match stack.get_mut(..n) {
        Some(buf) => f(buf),
        None => f(&mut vec![T::default(); n]),
    }
}

/// Calls `f` with the index of every set bit of `bits`, lowest first,
/// until it returns false (then false).
fn each_set_bit(bits: &[u64], mut f: impl FnMut(u16) -> bool) -> bool {
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if !f((w * 64) as u16 + word.trailing_zeros() as u16) {
                return false;
            }
            word &= word - 1;
        }
    }
    true
}

// ---------------------------------------------------------------------------
// The hooks

/// The Plague's hooks into the turn.
pub(crate) struct PlagueRules;

impl Expansion for PlagueRules {
    const FAMILY: Family = Family::Plague;

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.plague.is_some()
    }

    /// Its codec segment (spread fleas, then flights): `views::codec_size`.
    fn codec_size(codec: &ActionCodec, g: &Game) -> usize {
        views::codec_size(codec, g)
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        views::encode(codec, g, a)
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        views::decode(codec, g, i)
    }

    /// A turn may add a spread, a flight and the plague step's `pass`.
    fn max_moves(_g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: 3,
            ..Default::default()
        }
    }

    /// The sources go below the first 17 shuffled tiles.
    fn after_shuffle(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
        rng: &mut crate::rng::Rng,
    ) {
        setup(ctx.catalog, bag, rng);
    }

    /// Four planes and four globals: `views::tensor_size`.
    fn tensor_size(g: &Game) -> (usize, usize) {
        views::tensor_size(g)
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        views::tensor(g, player, t)
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Flea { .. } | Action::Flee { .. }).then_some(("plague", "the Plague"))
    }

    fn start(g: &mut Game, _start: TileIdx) {
        let cat = &*g.rules.catalog;
        let pieces = g.board.pieces().len() + g.pile.len();
        let segments = g.board.features().len()
            + g.pile
                .iter()
                .map(|t| cat.tile(*t).features.len())
                .sum::<usize>();
        // A seat's followers, and one more for a big figure.
        let followers = usize::from(g.rules.options.followers) + 1;
        let p = match &mut g.ext.plague {
            // An earlier deal's state: emptied, its vectors kept.
            Some(p) => {
                p.clone_from(&Plague::blank());
                p
            }
            None => g.ext.plague.insert(Plague::new()),
        };
        p.reserve_lists(pieces, segments, followers);
        // The start tile is not drawn; a map's second start tile was the
        // first land tile of the pile.
        let taken = g.board.pieces().len().saturating_sub(1);
        p.safe = SafeDraws::count(cat, &g.pile, taken);
    }

    /// No source may come while safe land draws are left (the set-up put
    /// the sources below the first 17 tiles).
    fn holds_back(g: &Game, t: TileIdx) -> bool {
        let cat = &*g.rules.catalog;
        is_source(cat, t)
            && g.ext
                .plague
                .as_ref()
                .is_some_and(|p| p.safe.left(cat, &g.pile) > 0)
    }

    /// A determinized pile keeps the sources below the safe tiles left.
    fn arrange_hidden(g: &mut Game, rng: &mut crate::rng::Rng) {
        let Some(p) = g.ext.plague.as_mut() else {
            return;
        };
        let cat = &g.rules.catalog;
        let left = p.safe.left(cat, &g.pile);
        arrange_safe(cat, &mut g.pile, left, rng, &mut p.arrange);
    }

    fn after_place(g: &mut Game, pi: u16) {
        g.plague_placed(pi);
    }

    fn follower_ban(g: &Game) -> Option<&'static str> {
        g.plague_follower_ban()
    }

    fn figure_ban_on(g: &Game, pi: u16) -> Option<&'static str> {
        g.plague_ban_on(pi)
    }

    fn extra_actions(g: &Game, out: &mut Vec<Action>) {
        g.plague_actions(out);
    }

    fn after_follower_step(g: &mut Game) -> bool {
        g.enter_plague_step()
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Plague
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.plague_step_actions(out);
    }

    fn pick_step_action(
        g: &Game,
        buf: &mut Vec<Action>,
        pick: &mut crate::expansions::Pick<'_>,
    ) -> Option<Action> {
        g.plague_pick_action(buf, pick)
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        match a {
            Action::Pass if mode == Mode::Trusted => {
                g.end_plague_step();
                Some(Ok(()))
            }
            Action::Pass => Some(g.plague_pass()),
            Action::Follower { .. } => Some(Err(illegal(
                "turn",
                "the follower step is over: spread the plague, flee or pass",
            ))),
            _ => None,
        }
    }

    fn apply_action(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        match *a {
            // A legal spread or flight needs none of the checks (random
            // play, tree search).
            Action::Flea { to, from } if mode == Mode::Trusted => {
                g.spread_trusted(to, from);
                Some(Ok(()))
            }
            Action::Flee { from, to } if mode == Mode::Trusted => {
                g.flee_trusted(from, to);
                Some(Ok(()))
            }
            Action::Flea { .. } | Action::Flee { .. } => Some(g.try_plague(a)),
            _ => None,
        }
    }

    /// A spread still owed keeps the turn from ending (the builder step's
    /// `pass`, which declines the second part).
    fn turn_end_veto(g: &Game) -> Option<(&'static str, &'static str)> {
        g.spread_owed().then_some((
            "plague",
            "the plague must spread this turn: put a flea on a tile next to an active outbreak or an active flea, or draw the second tile and spread after it",
        ))
    }

    /// Eradication comes at the start of every turn but after the last.
    fn turn_start(g: &mut Game) {
        if !g.pile.is_empty() {
            g.plague_turn_start();
        }
    }

    fn state_json(g: &Game, _viewer: crate::view::Viewer, out: &mut ExpansionsJson) {
        if let Some(p) = g.plague_json() {
            put(out, "plague", p);
        }
    }
}
