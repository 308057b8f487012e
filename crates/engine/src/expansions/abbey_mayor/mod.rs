//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules. The abbey
//! tile, the mayor, the wagon, the barn and the final abbey round are not
//! played yet; with none of them in, the tiles alone need no state of
//! their own, so the expansion is in play exactly when its id is on.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

use crate::catalog::TileIdx;
use crate::config::ConfigError;
use crate::expansions::{set_tiles, DeckCtx, Expansion, ExpansionId, Family};
use crate::game::Game;

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

    /// Its 12 land tiles.
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        set_tiles(ctx, ExpansionId::AbbeyMayor, bag)
    }
}
