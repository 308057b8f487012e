//! What a stranger's game may ask for beyond the engine's own limits: the
//! engine accepts a free deck (`deck_only`) of up to ten thousand tiles,
//! fit for a study an operator sets up, but every action of a game costs
//! its catch-ups and its log, so a stranger's game is as long as the sets
//! it plays make it, no longer.

use bastide_engine::{Game, GameConfig};

/// Refuses a free deck longer than the sets in play hold (their tiles,
/// the start tile included). A deck drawn from the sets is bounded by
/// them already: the engine refuses a copy they do not hold.
pub(super) fn within_sets(config: &GameConfig) -> Result<(), String> {
    if !config.deck_only {
        return Ok(());
    }
    let mut printed = config.clone();
    printed.deck = None;
    printed.deck_only = false;
    // The pile, the tile drawn for the first turn, and the start tile.
    let held = Game::new(printed)
        .map_err(|e| format!("config: {e}"))?
        .tiles_left()
        + 2;
    let asked = config.deck.as_ref().map_or(0, Vec::len);
    if asked > held {
        return Err(format!(
            "config.deck: a free deck (deck_only) holds at most as many tiles as the sets in play ({held}); this one has {asked}. Shorten it, or add the sets whose tiles it needs"
        ));
    }
    Ok(())
}
