//! Building the draw pile from the configuration: which tiles are in play,
//! the fixed `deck` prefix, and the seeded shuffle of the rest.

use crate::catalog::{Catalog, TileIdx};
use crate::config::{ConfigError, GameConfig};
use crate::rng::Rng;

/// Stream number of the draw-pile shuffle (see [`Rng::for_stream`]).
pub const DECK_STREAM: u64 = 1;

/// Every expansion id of `notation.md`, for messages.
pub const EXPANSIONS: &[&str] = &[
    "river1",
    "river2",
    "river20",
    "cutcassonne",
    "halfsies1",
    "halfsies2",
    "plague",
    "gingerbread",
    "map-chips",
];

/// The start tile and the draw pile, first drawn first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The tile at (0, 0).
    pub start: TileIdx,
    /// Tiles to draw, first drawn first.
    pub pile: Vec<TileIdx>,
}

/// Builds the set-up of a game.
pub fn build(cat: &Catalog, config: &GameConfig) -> Result<Setup, ConfigError> {
    if config.base != "base" && config.base != "winter" {
        return Err(ConfigError::UnknownBase(config.base.clone()));
    }
    if let Some(e) = config.expansions.first() {
        if !EXPANSIONS.contains(&e.as_str()) {
            return Err(ConfigError::UnknownExpansion {
                name: e.clone(),
                known: EXPANSIONS.join(", "),
            });
        }
        return Err(ConfigError::NotImplemented(e.clone()));
    }
    if let Some(m) = &config.map {
        return Err(ConfigError::UnknownMap(m.clone()));
    }
    let set = cat
        .set(&config.base)
        .ok_or_else(|| ConfigError::UnknownBase(config.base.clone()))?;
    let start = set
        .start
        .ok_or_else(|| ConfigError::UnknownBase(config.base.clone()))?;
    let mut bag: Vec<TileIdx> = Vec::new();
    for &t in &set.tiles {
        for _ in 0..cat.tile(t).count {
            bag.push(t);
        }
    }
    if let Some(i) = bag.iter().position(|t| *t == start) {
        bag.remove(i);
    }
    let mut prefix = Vec::new();
    for (index, id) in config.deck.iter().flatten().enumerate() {
        let t = cat.find(id).ok_or_else(|| ConfigError::UnknownTile {
            index,
            id: id.clone(),
        })?;
        if !set.tiles.contains(&t) {
            return Err(ConfigError::TileNotInGame {
                index,
                id: id.clone(),
            });
        }
        match bag.iter().position(|b| *b == t) {
            Some(i) => {
                bag.remove(i);
            }
            // A free-form deck may repeat tiles beyond the printed counts.
            None if config.deck_only => {}
            None => {
                let copies = cat.tile(t).count as usize - usize::from(t == start);
                return Err(ConfigError::TooManyCopies {
                    index,
                    id: id.clone(),
                    copies,
                });
            }
        }
        prefix.push(t);
    }
    if !config.deck_only {
        let mut rng = Rng::for_stream(config.seed, DECK_STREAM);
        rng.shuffle(&mut bag);
        prefix.extend(bag);
    }
    Ok(Setup {
        start,
        pile: prefix,
    })
}
