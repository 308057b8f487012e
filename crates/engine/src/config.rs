//! Game configuration: plain public data that becomes a checked game only
//! through [`crate::Game::new`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::expansions::registry::sets_help;
use crate::expansions::registry::{ExpansionId, Expansions};
use crate::limits::{cut, MAX_NAME_CHARS};

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
    /// At most [`crate::limits::MAX_TILES`] tiles.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::bounded_opt_vec::<_, _, { crate::limits::MAX_TILES }>"
    )]
    pub deck: Option<Vec<String>>,
    /// Makes `deck` the whole draw pile.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deck_only: bool,
    /// Half-and-half: the halves each player holds, instead of a random deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<String>>>,
    /// Map Chips: the first chips taken from the supply (`"purple:2"` …);
    /// the rest follow shuffled.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::bounded_opt_vec::<_, _, { crate::limits::MAX_TILES }>"
    )]
    pub chips: Option<Vec<String>>,
    /// Map Chips: every chip drawn from the supply, in order, across the
    /// reshuffles when a Chumak square is built (what a record of an
    /// explicit-chance game fixes, where chance chose each chip); each
    /// must be in the supply when it is drawn, and the draws after the
    /// list follow the seed. Not together with `chips`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::bounded_opt_vec::<_, _, { crate::limits::MAX_TILES }>"
    )]
    pub chip_draws: Option<Vec<String>>,
}

fn default_base() -> String {
    "base".to_string()
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl GameConfig {
    /// The fields that fix hidden information (the seed gives away every
    /// shuffle; the others fix draws and deals): what a running game's
    /// public record leaves out.
    pub const HIDDEN_FIELDS: [&'static str; 5] = ["seed", "deck", "hands", "chips", "chip_draws"];

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
            chip_draws: None,
        }
    }

    /// A game for `players` players from a list of set names, as the CLI's
    /// `--sets` takes them: the base game (`base` or `winter`) first, then
    /// expansion ids and map names (`ukraine`); without a base game the
    /// base game is `base`. Map Chips get the Ukraine map unless a map is
    /// named. Errors speak in `--sets` terms and the configuration is
    /// checked as [`crate::Game::new`] would, so a bad list fails at once.
    pub fn from_sets<S: AsRef<str>>(
        players: usize,
        seed: u64,
        sets: &[S],
    ) -> Result<GameConfig, ConfigError> {
        let bad = |m: String| Err(ConfigError::Sets(m));
        let mut c = GameConfig::new(players, seed);
        let mut on = Expansions::NONE;
        let mut base: Option<&str> = None;
        for (i, s) in sets.iter().map(AsRef::as_ref).map(str::trim).enumerate() {
            match s {
                "" => {}
                "base" | "winter" => {
                    if let Some(b) = base {
                        return bad(format!(
                            "--sets names two base games ({b} and {s}): name one, first (e.g. --sets {s},river1)"
                        ));
                    }
                    if i > 0 {
                        return bad(format!(
                            "--sets names the base game first: --sets {s},{}",
                            sets[..i]
                                .iter()
                                .map(AsRef::as_ref)
                                .collect::<Vec<_>>()
                                .join(",")
                        ));
                    }
                    base = Some(s);
                    c.base = s.to_string();
                }
                m if crate::map::MapDef::builtin(m).is_some() => {
                    if c.map.is_some() {
                        return bad("--sets names two maps: name one".into());
                    }
                    c.map = Some(m.to_string());
                }
                e => match e.parse::<ExpansionId>() {
                    Ok(id) if id.info().implemented => {
                        if !on.insert(id) {
                            return bad(format!("--sets names {e} twice"));
                        }
                        c.expansions.push(e.to_string());
                    }
                    Ok(id) => return Err(ConfigError::NotImplemented(id.key().into())),
                    Err(_) => return bad(format!("unknown set {}: {}", cut(e), sets_help())),
                },
            }
        }
        for e in on.iter().map(ExpansionId::info) {
            if let Some(b) = e.needs_base.filter(|b| *b != c.base) {
                let (name, key) = (e.name, e.key);
                let base = if b == "winter" {
                    "the Winter Edition"
                } else {
                    b
                };
                return bad(format!("{name} needs {base}: use --sets {b},{key}"));
            }
            if e.needs_map && c.map.is_none() {
                c.map = Some("ukraine".to_string());
            }
            let (ids, what) = e.needs_one_of;
            if !ids.is_empty() && !ids.iter().any(|i| on.has(*i)) {
                let example = ids.first().map_or("", |i| i.key());
                return bad(format!(
                    "{} need {what}: use --sets {},{example},{}",
                    e.name, c.base, e.key
                ));
            }
        }
        // The in-play part of `check_shape` cannot fail here: a list of
        // sets writes no hand, chip or option.
        c.check_sizes()?;
        Ok(c)
    }
}

impl GameConfig {
    /// Checks the player count and names and the sizes of the lists, the
    /// part of [`GameConfig::check_shape`] that needs no expansion's rules.
    pub(crate) fn check_sizes(&self) -> Result<(), ConfigError> {
        use crate::limits::MAX_TILES;
        if !(2..=6).contains(&self.players.len()) {
            return Err(ConfigError::PlayerCount(self.players.len()));
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.is_empty() || p.chars().count() > MAX_NAME_CHARS {
                return Err(ConfigError::BadName(p.clone()));
            }
            if self.players[..i].contains(p) {
                return Err(ConfigError::DuplicatePlayer(p.clone()));
            }
        }
        let lists = [
            ("deck", self.deck.as_ref().map_or(0, Vec::len), MAX_TILES),
            ("expansions", self.expansions.len(), 32),
            ("options", self.options.len(), 32),
            ("hands", self.hands.as_ref().map_or(0, Vec::len), 6),
            (
                "a hand",
                self.hands.iter().flatten().map(Vec::len).max().unwrap_or(0),
                // Both Half-and-half sets hold 24 halves together.
                24,
            ),
            ("chips", self.chips.as_ref().map_or(0, Vec::len), MAX_TILES),
            (
                "chip_draws",
                self.chip_draws.as_ref().map_or(0, Vec::len),
                MAX_TILES,
            ),
        ];
        for (what, len, max) in lists {
            if len > max {
                return Err(ConfigError::TooLong { what, len, max });
            }
        }
        Ok(())
    }
}

/// Reads the expansion list of a configuration (kept beside the
/// configuration, which the registry below it does not know): every name known and
/// played, none twice, each with the base game and map it needs.
pub fn parse_config(config: &GameConfig) -> Result<Expansions, ConfigError> {
    let mut set = Expansions::NONE;
    for name in &config.expansions {
        let id: ExpansionId = name.parse().map_err(|_| ConfigError::UnknownExpansion {
            name: name.clone(),
            known: crate::expansions::registry::known_keys().join(", "),
        })?;
        let e = id.info();
        if !e.implemented {
            return Err(ConfigError::NotImplemented(name.clone()));
        }
        if !set.insert(id) {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: format!("{name} is listed twice"),
            });
        }
        if let Some(b) = e.needs_base.filter(|b| *b != config.base) {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: format!(
                    "{} plays only with the {b} base game: set \"base\": \"{b}\"",
                    e.name
                ),
            });
        }
        let (ids, what) = e.needs_one_of;
        if !ids.is_empty()
            && !config
                .expansions
                .iter()
                .any(|n| ids.iter().any(|i| i.key() == n))
        {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: format!("{} need {what} in \"expansions\"", e.name),
            });
        }
        if e.needs_map && config.map.is_none() {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: format!("{} needs a map: set \"map\": \"ukraine\"", e.key),
            });
        }
    }
    Ok(set)
}

/// Default player names, in seat order.
pub const PLAYER_COLOURS: [&str; 6] = ["RED", "BLUE", "GREEN", "YELLOW", "BLACK", "GREY"];

/// A configuration that does not describe a playable game.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Wrong number of players.
    #[error("a game needs 2 to 6 players, not {0}")]
    PlayerCount(usize),
    /// Two players share a name.
    #[error("player name {} is used twice; names must be distinct", cut(.0))]
    DuplicatePlayer(String),
    /// A `--sets` list that does not name a game (CLI terms).
    #[error("{0}")]
    Sets(String),
    /// Unknown base game.
    #[error("unknown base game {}: use \"base\" or \"winter\"", cut(.0))]
    UnknownBase(String),
    /// Unknown expansion.
    #[error("unknown expansion {}; known: {known}", cut(.name))]
    UnknownExpansion {
        /// The name given.
        name: String,
        /// What is available.
        known: String,
    },
    /// An expansion that this version cannot play yet.
    #[error("expansion {} is not implemented in this version of Bastide", cut(.0))]
    NotImplemented(String),
    /// An unknown map.
    #[error("unknown map {}; known: ukraine", cut(.0))]
    UnknownMap(String),
    /// Unknown option name.
    #[error("unknown option {}; known options: {known}", cut(.name))]
    UnknownOption {
        /// The name given.
        name: String,
        /// What is available.
        known: String,
    },
    /// An option with a bad value.
    #[error("option {}: {problem}", cut(.name))]
    BadOption {
        /// The option.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A deck names an unknown tile.
    #[error("deck position {index}: unknown tile id {} (ids look like \"base/U\")", cut(.id))]
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
    /// A list in the configuration is longer than the engine takes.
    #[error("{what} lists {len} entries; at most {max} are allowed")]
    TooLong {
        /// Which list (`deck`, `players` …).
        what: &'static str,
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A player name that is empty or too long.
    #[error("player name {} must have 1 to {MAX_NAME_CHARS} characters", cut(.0))]
    BadName(String),
    /// A field or option that belongs to an expansion not in play.
    #[error("{field} belongs to {owner}, which is not in this game: add {add} or remove {field}")]
    NotInPlay {
        /// The field or option, as written in a record.
        field: String,
        /// The expansion it belongs to, in words.
        owner: &'static str,
        /// What to add (an expansion or map id).
        add: &'static str,
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
        let c = GameConfig::from_sets(3, 9, &["winter", "gingerbread", "river2"]).unwrap();
        assert_eq!((c.base.as_str(), c.players.len(), c.seed), ("winter", 3, 9));
        assert_eq!(c.expansions, vec!["gingerbread", "river2"]);
        assert_eq!(c.map, None);
        // Map Chips bring the Ukraine map; a map alone is a map, not an expansion.
        assert_eq!(
            GameConfig::from_sets(2, 1, &["base", "map-chips"])
                .unwrap()
                .map
                .as_deref(),
            Some("ukraine")
        );
        let m = GameConfig::from_sets(2, 1, &["base", "ukraine"]).unwrap();
        assert_eq!(m.map.as_deref(), Some("ukraine"));
        assert!(m.expansions.is_empty());
    }
}
