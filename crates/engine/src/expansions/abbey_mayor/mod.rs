//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules, and the barn
//! is played (`barn.rs`). The abbey tile, the mayor, the wagon and the
//! final abbey round are not played yet. The expansion is in play exactly
//! when its id is on; its figures' state is [`AbbeyMayorState`], made at
//! the start.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

pub mod barn;

use crate::catalog::TileIdx;
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{set_tiles, DeckCtx, Expansion, ExpansionId, Family};
use crate::features::NodeId;
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::view::{ExpansionsJson, Viewer};

/// Abbey & Mayor's state in one game: one field per part of its rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbbeyMayorState {
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

    /// A bitset test: the tiles alone keep no state (see the module
    /// documentation).
    #[inline]
    fn active(g: &Game) -> bool {
        g.rules.expansions.has(ExpansionId::AbbeyMayor)
    }

    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "pig_herd_barn",
        "true: River II's pig herd adds 1 a city to barns at the end too (house rule; default false)",
    )];

    /// Its 12 land tiles.
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        set_tiles(ctx, ExpansionId::AbbeyMayor, bag)
    }

    /// Every figure in the supply (an earlier deal's state is reused).
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        let s = g.ext.abbey_mayor.get_or_insert_with(Default::default);
        s.barns.deal(n);
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Barn { .. }).then_some(("barn", "Abbey & Mayor (the barn)"))
    }

    // -- The barn (`barn.rs`) ------------------------------------------------

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

    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        g.barns_json(out);
    }

    /// One plane per relative player: its barn stands on a corner of this
    /// cell (the cell it was placed from). One global per relative player:
    /// its barn is in the supply.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (g.player_count(), g.player_count())
    }

    fn tensor(g: &Game, player: crate::seat::Seat, t: &mut crate::codec::TensorPart<'_>) {
        g.barns_tensor(player, t);
    }

    /// Its codec segment: the barn's corners of the tile just placed.
    fn codec_size(_codec: &ActionCodec, _g: &Game) -> usize {
        barn::BARN_CODES
    }

    fn encode(_codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        g.barn_code(a)
    }

    fn decode(_codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        g.barn_of_code(i)
    }
}
