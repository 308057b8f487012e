//! Building the draw pile from the configuration: which tiles are in play,
//! the fixed `deck` prefix, and the seeded shuffle of the rest.

use crate::catalog::{Catalog, TileIdx};
use crate::config::{ConfigError, GameConfig};
use crate::expansions::DeckCtx;
use crate::rng::Rng;

/// Stream number of the draw-pile shuffle (see [`Rng::for_stream`]).
pub const DECK_STREAM: u64 = 1;

/// The start tile and the draw pile, first drawn first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The tile at (0, 0).
    pub start: TileIdx,
    /// Tiles to draw, first drawn first.
    pub pile: Vec<TileIdx>,
}

/// Builds the set-up of a game: start tile, then the pile in draw order
/// (river tiles first), then the fixed `deck` prefix on top.
pub fn build(cat: &Catalog, config: &GameConfig) -> Result<Setup, ConfigError> {
    if config.base != "base" && config.base != "winter" {
        return Err(ConfigError::UnknownBase(config.base.clone()));
    }
    let on = crate::config::parse_config(config)?;
    let options = crate::options::Options::parse(&config.options)?;
    let mut pile = Vec::new();
    let start = build_into(cat, config, on, &options, &mut pile, &mut Vec::new())?;
    Ok(Setup { start, pile })
}

/// [`build`] for a configuration whose expansions and options are parsed
/// already, into `pile` (first drawn first), with `opening` for an
/// expansion's opening pile (left empty); returns the start tile. Both
/// vectors' memory is reused: a new deal of the same configuration
/// allocates nothing here unless a fixed `deck` prefix is built.
pub(crate) fn build_into(
    cat: &Catalog,
    config: &GameConfig,
    on: crate::expansions::registry::Expansions,
    options: &crate::options::Options,
    pile: &mut Vec<TileIdx>,
    opening: &mut Vec<TileIdx>,
) -> Result<TileIdx, ConfigError> {
    let set = cat
        .set(&config.base)
        .ok_or_else(|| ConfigError::UnknownBase(config.base.clone()))?;
    let mut rng = Rng::for_stream(config.seed, DECK_STREAM);
    // The bag is built where the pile goes.
    let bag = pile;
    bag.clear();
    for &t in &set.tiles {
        for _ in 0..cat.tile(t).count {
            bag.push(t);
        }
    }
    let ctx = DeckCtx {
        catalog: cat,
        options,
        on,
    };
    crate::expansions::deck_tiles(&ctx, bag)?;
    opening.clear();
    let start = match crate::expansions::opening_pile(&ctx, &mut rng, opening) {
        // The opening pile's start tile replaces the base game's, which
        // stays in the bag.
        Some(r) => r?,
        None => {
            let start = set
                .start
                .ok_or_else(|| ConfigError::UnknownBase(config.base.clone()))?;
            if let Some(i) = bag.iter().position(|t| *t == start) {
                bag.remove(i);
            }
            start
        }
    };
    rng.shuffle(bag);
    crate::expansions::after_shuffle(&ctx, bag, &mut rng);
    // The opening pile, then the bag.
    let ordered = bag;
    let k = opening.len();
    ordered.extend_from_slice(opening);
    ordered.rotate_right(k);
    opening.clear();
    if config.deck.is_none() && !config.deck_only {
        return Ok(start);
    }
    let in_play = |t: TileIdx| {
        let s = &cat.tile(t).set;
        *s == config.base || config.expansions.iter().any(|e| e == s)
    };
    let mut prefix = Vec::new();
    for (index, id) in config.deck.iter().flatten().enumerate() {
        let t = cat.find(id).ok_or_else(|| ConfigError::UnknownTile {
            index,
            id: id.clone(),
        })?;
        if cat.tile(t).shape == crate::catalog::Shape::Half {
            return Err(ConfigError::BadOption {
                name: "deck".into(),
                problem: format!("deck position {index}: {id} is a half tile: halves are dealt (config \"hands\"), not drawn"),
            });
        }
        if !in_play(t) {
            return Err(ConfigError::TileNotInGame {
                index,
                id: id.clone(),
            });
        }
        match ordered.iter().position(|b| *b == t) {
            Some(i) => {
                ordered.remove(i);
            }
            // A free-form deck may repeat tiles beyond the printed counts.
            None if config.deck_only => {}
            None => {
                // Every copy in play is already in the prefix: that is how
                // many the sets hold (misprints and the start tile counted).
                let copies = prefix.iter().filter(|p| **p == t).count();
                return Err(ConfigError::TooManyCopies {
                    index,
                    id: id.clone(),
                    copies,
                });
            }
        }
        prefix.push(t);
    }
    if config.deck_only {
        ordered.clear();
    }
    // The prefix on top: first drawn first.
    let k = prefix.len();
    ordered.extend(prefix);
    ordered.rotate_right(k);
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pile_ids(cfg: &GameConfig) -> Vec<String> {
        let cat = Catalog::builtin();
        build(&cat, cfg)
            .expect("valid config")
            .pile
            .iter()
            .map(|t| cat.tile(*t).id.clone())
            .collect()
    }

    #[test]
    fn gingerbread_tiles_join_the_winter_pile_and_the_misprint_swaps_d_for_c() {
        let mut cfg = GameConfig::new(2, 3);
        cfg.base = "winter".into();
        cfg.expansions = vec!["gingerbread".into()];
        let ids = pile_ids(&cfg);
        assert_eq!(ids.len(), 83 + 6);
        let count = |ids: &[String], id: &str| ids.iter().filter(|t| *t == id).count();
        assert_eq!(count(&ids, "gingerbread/C"), 1);
        assert_eq!(count(&ids, "gingerbread/D"), 1);
        cfg.options
            .insert("gingerbread_misprint".into(), true.into());
        let ids = pile_ids(&cfg);
        assert_eq!(ids.len(), 83 + 6);
        assert_eq!(count(&ids, "gingerbread/C"), 2);
        assert_eq!(count(&ids, "gingerbread/D"), 0);
    }

    #[test]
    fn a_river_replaces_the_start_tile_which_joins_the_pile() {
        let mut cfg = GameConfig::new(2, 3);
        cfg.expansions = vec!["river1".into()];
        let ids = pile_ids(&cfg);
        // 72 base tiles (start D included) + 11 river tiles after the source.
        assert_eq!(ids.len(), 72 + 11);
        assert!(ids[..11].iter().all(|t| t.starts_with("river1/")));
        assert_eq!(ids[10], "river1/L", "the lake comes last");
    }
}
