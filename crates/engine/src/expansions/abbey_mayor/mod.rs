//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules; each player
//! holds an abbey, placed instead of drawing and in the final abbey round
//! (`abbey.rs`); the barn is played (`barn.rs`). The mayor and the wagon
//! are not played yet. The expansion is in play exactly when its id is on;
//! its state ([`AbbeyMayorState`]) is made at set-up, one field per part.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

pub mod abbey;
pub mod barn;

use crate::catalog::TileIdx;
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{DeckCtx, Expansion, ExpansionId, ExpansionState, Family, SetupCtx};
use crate::features::NodeId;
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// Abbey & Mayor's per-game state, one part per component of the box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbbeyMayorState {
    /// The abbeys: who still holds one, the final abbey round.
    pub(crate) abbey: abbey::Abbeys,
    /// The barns: supply, board, the scoring owed.
    pub(crate) barns: barn::Barns,
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

    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "pig_herd_barn",
        "true: River II's pig herd adds 1 a city to barns at the end too (house rule; default false)",
    )];

    /// Its 12 land tiles (the abbeys are dealt, never in the pile).
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        abbey::land_tiles(ctx, bag)
    }

    fn setup(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
        ext.abbey_mayor = Some(AbbeyMayorState {
            abbey: abbey::setup(ctx)?,
            barns: barn::Barns::default(),
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

    // -- The barn (`barn.rs`) ------------------------------------------------

    /// Every barn in the supply.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        if let Some(s) = g.ext.abbey_mayor.as_mut() {
            s.barns.deal(n);
        }
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Barn { .. }).then_some(("barn", "Abbey & Mayor (the barn)"))
    }

    /// The barn's corners, instead of a follower.
    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        g.barn_spots(out);
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let Action::Barn { at, corner } = *a else {
            return None;
        };
        Some(if g.phase == Phase::Follower {
            g.place_barn(at, corner)
        } else {
            Err(illegal(
                "barn",
                "a barn goes on a corner of the tile just placed, in the follower step",
            ))
        })
    }

    fn figure_ban_in(g: &Game, node: NodeId) -> Option<&'static str> {
        g.barn_ban(node)
    }

    fn part_scoring(g: &mut Game, _pi: u16) {
        g.score_barn_fields();
    }

    fn final_features(g: &mut Game) {
        g.score_barns_at_end();
    }

    // -- Codec and views: each part's in turn -------------------------------

    /// Its codec segment: the barn's corners of the tile just placed
    /// ([`barn::BARN_CODES`]), then the abbey's placement on each window
    /// cell and its draw (`abbey::codec_size`).
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        barn::BARN_CODES + abbey::codec_size(codec)
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        g.barn_code(a)
            .or_else(|| abbey::encode(codec, g, a).map(|i| barn::BARN_CODES + i))
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        match i.checked_sub(barn::BARN_CODES) {
            None => g.barn_of_code(i),
            Some(j) => abbey::decode(codec, g, j, barn::BARN_CODES),
        }
    }

    /// `abbeys`: per seat, whether its abbey is still in hand (public);
    /// the barns' keys (`barn.rs`).
    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        put(out, "abbeys", abbey::held(g));
        g.barns_json(out);
    }

    /// One global per seat (its abbey in hand), then the barns' planes and
    /// globals.
    fn tensor_size(g: &Game) -> (usize, usize) {
        let n = g.player_count();
        (n, 2 * n)
    }

    /// Per relative player whether its abbey is in hand; then the barns:
    /// one plane per relative player (its barn stands on a corner of this
    /// cell), one global per relative player (its barn in the supply).
    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        let held = abbey::held(g);
        for r in 0..n {
            let seat = player.ahead(r, n);
            t.push(f32::from(u8::from(held.get(seat.index()) == Some(&true))));
        }
        g.barns_tensor(player, t);
    }
}
