//! Game configuration: plain public data that becomes a checked game only
//! through [`crate::Game::new`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::expansions::halfsies::HalfOptions;
use crate::expansions::river::RiverOptions;

/// How a game is set up: the `config` object of a game record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// Player names (colours), in turn order; 2–6.
    pub players: Vec<String>,
    /// `"base"` or `"winter"`.
    #[serde(default = "default_base")]
    pub base: String,
    /// Expansion and tile-set ids.
    #[serde(default)]
    pub expansions: Vec<String>,
    /// A bounded map, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// Named rule variants and counts.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Drives every random event.
    #[serde(default)]
    pub seed: u64,
    /// Fixed draw order (first drawn first); the rest follows shuffled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// Makes `deck` the whole draw pile.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deck_only: bool,
    /// Half-and-half: the halves each player holds, instead of a random deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<String>>>,
    /// Map Chips: the first chips taken from the supply (`"purple:2"` …);
    /// the rest follow shuffled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Option<Vec<String>>,
}

fn default_base() -> String {
    "base".to_string()
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl GameConfig {
    /// A base game for `players` players named after the usual colours.
    pub fn new(players: usize, seed: u64) -> GameConfig {
        GameConfig {
            players: PLAYER_COLOURS
                .iter()
                .cycle()
                .take(players)
                .map(|s| s.to_string())
                .collect(),
            base: default_base(),
            expansions: Vec::new(),
            map: None,
            options: BTreeMap::new(),
            seed,
            deck: None,
            deck_only: false,
            hands: None,
            chips: None,
        }
    }

    /// A game for `players` players from a list of set names, as the CLI's
    /// `--sets` takes them: `base` or `winter`, expansion ids, and map names
    /// (`ukraine`). Map Chips get the Ukraine map unless a map is named.
    /// Unknown names become expansions, which [`crate::Game::new`] rejects
    /// with a message listing the known ones.
    pub fn from_sets<S: AsRef<str>>(players: usize, seed: u64, sets: &[S]) -> GameConfig {
        let mut c = GameConfig::new(players, seed);
        for s in sets.iter().map(AsRef::as_ref) {
            match s {
                "base" | "winter" => c.base = s.to_string(),
                "" => {}
                m if crate::map::MapDef::builtin(m).is_some() => c.map = Some(m.to_string()),
                e => c.expansions.push(e.to_string()),
            }
        }
        if c.expansions.iter().any(|e| e == "map-chips") && c.map.is_none() {
            c.map = Some("ukraine".to_string());
        }
        c
    }
}

/// Default player names, in seat order.
pub const PLAYER_COLOURS: [&str; 6] = ["RED", "BLUE", "GREEN", "YELLOW", "BLACK", "GREY"];

/// Checked rule options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Followers each player starts with.
    pub followers: u8,
    /// The river's house rules.
    pub river: RiverOptions,
    /// The Gingerbread Man's first print run: no tile D, two tiles C.
    pub gingerbread_misprint: bool,
    /// Half-and-half options.
    pub halves: HalfOptions,
    /// On a map: the two start spaces used (1-based), default 1 and 2.
    pub start_spaces: [u8; 2],
}

/// Every option name the engine knows, with what it takes.
pub const KNOWN_OPTIONS: &[(&str, &str)] = &[
    ("followers", "followers per player, 1–20 (default 7)"),
    (
        "start_spaces",
        "on a map: the two start spaces used, e.g. [1, 3] (default [1, 2])",
    ),
    (
        "gingerbread_misprint",
        "true: the Gingerbread Man's first print run (no D, two C)",
    ),
];

impl Options {
    /// Reads the options map of a configuration.
    pub fn parse(map: &BTreeMap<String, serde_json::Value>) -> Result<Options, ConfigError> {
        let mut o = Options {
            followers: 7,
            river: RiverOptions::parse(map)?,
            gingerbread_misprint: false,
            halves: HalfOptions::parse(map)?,
            start_spaces: [1, 2],
        };
        for (k, v) in map {
            match k.as_str() {
                k if RiverOptions::KNOWN.iter().any(|(n, _)| *n == k) => {}
                k if HalfOptions::KNOWN.iter().any(|(n, _)| *n == k) => {}
                "start_spaces" => {
                    let bad = || ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!(
                            "{v} is not two different start space numbers, e.g. [1, 3]"
                        ),
                    };
                    let list = v.as_array().ok_or_else(bad)?;
                    let nums: Vec<u8> = list
                        .iter()
                        .map(|n| n.as_u64().filter(|n| (1..=9).contains(n)).map(|n| n as u8))
                        .collect::<Option<_>>()
                        .ok_or_else(bad)?;
                    match nums.as_slice() {
                        [a, b] if a != b => o.start_spaces = [*a, *b],
                        _ => return Err(bad()),
                    }
                }
                "gingerbread_misprint" => {
                    o.gingerbread_misprint = v.as_bool().ok_or_else(|| ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!("{v} is not true or false"),
                    })?;
                }
                "followers" => {
                    o.followers = v.as_u64().filter(|n| (1..=20).contains(n)).ok_or_else(|| {
                        ConfigError::BadOption {
                            name: k.clone(),
                            problem: format!("{v} is not a whole number from 1 to 20"),
                        }
                    })? as u8;
                }
                _ => {
                    return Err(ConfigError::UnknownOption {
                        name: k.clone(),
                        known: KNOWN_OPTIONS
                            .iter()
                            .chain(RiverOptions::KNOWN)
                            .chain(HalfOptions::KNOWN)
                            .map(|(n, d)| format!("{n} ({d})"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    })
                }
            }
        }
        Ok(o)
    }
}

/// A configuration that does not describe a playable game.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Wrong number of players.
    #[error("a game needs 2 to 6 players, not {0}")]
    PlayerCount(usize),
    /// Two players share a name.
    #[error("player name {0:?} is used twice; names must be distinct")]
    DuplicatePlayer(String),
    /// Unknown base game.
    #[error("unknown base game {0:?}: use \"base\" or \"winter\"")]
    UnknownBase(String),
    /// Unknown expansion.
    #[error("unknown expansion {name:?}; known: {known}")]
    UnknownExpansion {
        /// The name given.
        name: String,
        /// What is available.
        known: String,
    },
    /// An expansion that this version cannot play yet.
    #[error("expansion {0:?} is not implemented in this version of Bastide")]
    NotImplemented(String),
    /// An unknown map.
    #[error("unknown map {0:?}")]
    UnknownMap(String),
    /// Unknown option name.
    #[error("unknown option {name:?}; known options: {known}")]
    UnknownOption {
        /// The name given.
        name: String,
        /// What is available.
        known: String,
    },
    /// An option with a bad value.
    #[error("option {name:?}: {problem}")]
    BadOption {
        /// The option.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A deck names an unknown tile.
    #[error("deck position {index}: unknown tile id {id:?} (ids look like \"base/U\")")]
    UnknownTile {
        /// Position in the deck list.
        index: usize,
        /// The id given.
        id: String,
    },
    /// A deck names a tile of a set that is not in play.
    #[error("deck position {index}: tile {id} belongs to a set that is not in this game")]
    TileNotInGame {
        /// Position in the deck list.
        index: usize,
        /// The id given.
        id: String,
    },
    /// A deck names more copies of a tile than the sets hold.
    #[error("deck position {index}: no copy of {id} is left (the sets in play hold {copies}); use \"deck_only\": true for a free deck")]
    TooManyCopies {
        /// Position in the deck list.
        index: usize,
        /// The tile.
        id: String,
        /// How many copies exist (the start tile's copy excluded).
        copies: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_name_the_base_game_expansions_and_maps() {
        let c = GameConfig::from_sets(3, 9, &["winter", "gingerbread", "river2"]);
        assert_eq!((c.base.as_str(), c.players.len(), c.seed), ("winter", 3, 9));
        assert_eq!(c.expansions, vec!["gingerbread", "river2"]);
        assert_eq!(c.map, None);
        // Map Chips bring the Ukraine map; a map alone is a map, not an expansion.
        assert_eq!(
            GameConfig::from_sets(2, 1, &["base", "map-chips"])
                .map
                .as_deref(),
            Some("ukraine")
        );
        let m = GameConfig::from_sets(2, 1, &["base", "ukraine"]);
        assert_eq!(m.map.as_deref(), Some("ukraine"));
        assert!(m.expansions.is_empty());
    }
}
