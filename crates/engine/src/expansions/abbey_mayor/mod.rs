//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules; each player
//! holds an abbey, placed instead of drawing and in the final abbey round
//! (`abbey.rs`). The mayor, the wagon and the barn are not played yet.
//! The expansion is in play exactly when its id is on; its state
//! ([`AbbeyMayorState`]) is made at set-up.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

pub mod abbey;

use crate::catalog::TileIdx;
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{DeckCtx, Expansion, ExpansionId, ExpansionState, Family, SetupCtx};
use crate::game::{Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// Abbey & Mayor's per-game state, one part per component of the box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbbeyMayorState {
    /// The abbeys: who still holds one, the final abbey round.
    pub(crate) abbey: abbey::Abbeys,
}

// ---------------------------------------------------------------------------
// The hooks

/// Abbey & Mayor's hooks into the turn.
pub(crate) struct AbbeyMayor;

impl Expansion for AbbeyMayor {
    const FAMILY: Family = Family::AbbeyMayor;
    const SWITCH_ON: (&'static str, &'static str) =
        ("Abbey & Mayor", "abbey-mayor to \"expansions\"");

    /// A bitset test (its state exists exactly when it is on).
    #[inline]
    fn active(g: &Game) -> bool {
        g.rules.expansions.has(ExpansionId::AbbeyMayor)
    }

    /// Its 12 land tiles (the abbeys are dealt, never in the pile).
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        abbey::land_tiles(ctx, bag)
    }

    fn setup(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
        ext.abbey_mayor = Some(AbbeyMayorState {
            abbey: abbey::setup(ctx)?,
        });
        Ok(())
    }

    fn extra_cells(ext: &ExpansionState) -> usize {
        abbey::cells_left(ext)
    }

    // -- The abbey in the tile step ------------------------------------

    const LISTS_PLACEMENTS: bool = true;

    /// Only while the abbey is a choice do the tile step's actions differ
    /// from the drawn tile's edge placements.
    #[inline]
    fn lists_placements_of(g: &Game, _tile: TileIdx) -> bool {
        abbey::pending_drawn(g)
    }

    fn before_draw(g: &mut Game) {
        abbey::set_drew(g, false);
    }

    fn draw_pending(g: &Game) -> bool {
        abbey::pending(g)
    }

    fn draw_taken(g: &mut Game) {
        abbey::set_drew(g, true);
    }

    fn implied_draw(g: &mut Game) -> Result<(), IllegalAction> {
        abbey::set_drew(g, true);
        Ok(())
    }

    fn undisclosed_draws(g: &Game, out: &mut Vec<TileIdx>) {
        abbey::undisclosed(g, out);
    }

    fn unsee_draws(g: &mut Game) -> bool {
        abbey::unsee(g)
    }

    fn other_placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
        abbey::placements(g, pending, out);
    }

    fn places_tile(g: &Game, tile: TileIdx) -> bool {
        abbey::is_abbey(g, tile)
    }

    fn play_other_tile(
        g: &mut Game,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
        mode: Mode,
    ) -> Option<Result<(), IllegalAction>> {
        abbey::play(g, tile, pos, rot, mode)
    }

    fn after_place(g: &mut Game, pi: u16) {
        abbey::placed(g, pi);
    }

    /// A turn may add `draw`; each abbey is a turn of its own, and each
    /// seat may pass once in the final abbey round.
    fn max_moves(g: &Game) -> crate::expansions::MoveBound {
        let n = g.player_count();
        crate::expansions::MoveBound {
            per_turn: 1,
            once: n,
            turns: n,
        }
    }

    // -- The final abbey round -----------------------------------------

    fn play_without_draw(g: &mut Game) -> bool {
        abbey::begin_round(g)
    }

    fn hold_turn(g: &mut Game) -> bool {
        abbey::after_abbey_turn(g)
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Abbey
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        abbey::round_actions(g, out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(abbey::apply_in_round(g, a, mode))
    }

    // -- Codec and views -------------------------------------------------

    /// Its codec segment: the abbey's placement on each window cell.
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        abbey::codec_size(codec)
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        abbey::encode(codec, g, a)
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        abbey::decode(codec, g, i)
    }

    /// `abbeys`: per seat, whether its abbey is still in hand (public).
    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        put(out, "abbeys", abbey::held(g));
    }

    /// One global per seat (relative to the observer): its abbey in hand.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (0, g.player_count())
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        let held = abbey::held(g);
        for r in 0..n {
            let seat = player.ahead(r, n);
            t.push(f32::from(u8::from(held.get(seat.index()) == Some(&true))));
        }
    }
}
