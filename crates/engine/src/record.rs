//! The JSON game record of `notation.md`: a configuration plus the actions
//! taken, and the replay that turns it back into a game.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::catalog::Catalog;
use crate::config::{ConfigError, GameConfig};
use crate::expansions::map_chips::Colour;
use crate::expansions::plague::{FeatureAt, TileAt};
use crate::game::{Action, Game, IllegalAction};
use crate::geometry::{Corner, Place, Pos, Rotation};

/// The record format this version reads and writes.
pub const FORMAT: u64 = 1;

/// A game record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Format version (1).
    pub format: u64,
    /// Set-up.
    pub config: GameConfig,
    /// Actions in order.
    #[serde(default)]
    pub actions: Vec<ActionJson>,
}

/// One action as written in a record: an object with one key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionJson {
    /// Place a tile.
    Place {
        /// Tile id.
        tile: String,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// 0, 90, 180 or 270.
        rotation: i64,
    },
    /// Put a follower on the tile just placed.
    Follower {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// A place of the feature.
        place: String,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
    },
    /// Decline the current optional step.
    Pass {},
    /// Trade chips onto a chip space of the Chumak square at (x, y).
    Trade {
        /// Column of the Chumak square.
        x: i32,
        /// Row of the Chumak square.
        y: i32,
        /// The chips: 1–4 of one colour.
        chips: Vec<ChipJson>,
    },
    /// Take a half tile in the draft.
    Draft {
        /// Tile id of the half.
        tile: String,
    },
    /// Move the gingerbread man into the city at that place.
    Gingerbread {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// A place of the city.
        place: String,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
    },
    /// The Plague: spread a flea onto a tile (from the supply, or moved from
    /// the tile `from`).
    Flea {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
        /// The tile a flea on the board moves from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<TileAtJson>,
    },
    /// The Plague: one follower takes flight along its feature.
    Flee {
        /// Where it stands.
        from: PlaceAtJson,
        /// Where it goes.
        to: PlaceAtJson,
    },
}

/// A map chip in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChipJson {
    /// `purple`, `blue` or `orange`.
    pub colour: String,
    /// 1 or 2.
    pub value: u8,
}

/// A tile on the board, by cell (and half).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileAtJson {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// The half's corner, for a cell with half tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<String>,
}

/// A place on the board: cell, place (and half).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceAtJson {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// A place of the feature.
    pub place: String,
    /// The half's corner, for a cell with half tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<String>,
}

fn corner_of(half: &Option<String>) -> Result<Option<Corner>, String> {
    half.as_deref().map(str::parse::<Corner>).transpose()
}

impl TileAtJson {
    fn resolve(&self) -> Result<TileAt, String> {
        TileAt::new(Pos::new(self.x, self.y), corner_of(&self.half)?)
            .ok_or_else(|| format!("cell ({}, {}) is out of range", self.x, self.y))
    }

    fn of(t: TileAt) -> TileAtJson {
        TileAtJson {
            x: t.x.into(),
            y: t.y.into(),
            half: t.half.map(|c| c.name().to_string()),
        }
    }
}

impl PlaceAtJson {
    fn resolve(&self) -> Result<FeatureAt, String> {
        let place = self.place.parse::<Place>()?;
        FeatureAt::new(Pos::new(self.x, self.y), corner_of(&self.half)?, place)
            .ok_or_else(|| format!("cell ({}, {}) is out of range", self.x, self.y))
    }

    fn of(f: FeatureAt) -> PlaceAtJson {
        PlaceAtJson {
            x: f.x.into(),
            y: f.y.into(),
            place: f.place.name().to_string(),
            half: f.half.map(|c| c.name().to_string()),
        }
    }
}

/// A record that cannot be read or replayed.
#[derive(Debug, Error)]
pub enum RecordError {
    /// Not JSON, or not shaped like a record.
    #[error("malformed record: {0}")]
    Json(#[from] serde_json::Error),
    /// A format this version does not read.
    #[error("record format {0} is not supported: this version of Bastide reads format {FORMAT}")]
    Format(String),
    /// The configuration is not a playable game.
    #[error("bad configuration: {0}")]
    Config(#[from] ConfigError),
    /// An action that does not name real things (tile, place, rotation).
    #[error("action {index}: {message}")]
    BadAction {
        /// Index in the action list (0-based).
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// An action that breaks a rule.
    #[error("action {index} ({action}) is illegal: {error}")]
    Illegal {
        /// Index in the action list (0-based).
        index: usize,
        /// The action as written.
        action: String,
        /// The rule it breaks.
        error: IllegalAction,
    },
}

impl Record {
    /// Parses a record from JSON text, checking the format version first.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        match value.get("format") {
            Some(v) if v.as_u64() == Some(FORMAT) => {}
            Some(v) => return Err(RecordError::Format(v.to_string())),
            None => return Err(RecordError::Format("(missing)".into())),
        }
        Ok(serde_json::from_value(value)?)
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        // A record holds only strings, numbers and maps: serialising it
        // cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// A record of a new game.
    pub fn new(config: GameConfig) -> Record {
        Record {
            format: FORMAT,
            config,
            actions: Vec::new(),
        }
    }

    /// Replays every action.
    pub fn replay(&self) -> Result<Game, RecordError> {
        self.replay_to(self.actions.len())
    }

    /// Replays the first `n` actions.
    pub fn replay_to(&self, n: usize) -> Result<Game, RecordError> {
        let mut game = Game::new(self.config.clone())?;
        for (index, a) in self.actions.iter().take(n).enumerate() {
            let action = a
                .to_action(game.catalog())
                .map_err(|message| RecordError::BadAction { index, message })?;
            game.try_apply(&action)
                .map_err(|error| RecordError::Illegal {
                    index,
                    action: serde_json::to_string(a).unwrap_or_default(),
                    error,
                })?;
        }
        Ok(game)
    }
}

impl ActionJson {
    /// Resolves names into an engine action.
    pub fn to_action(&self, cat: &Catalog) -> Result<Action, String> {
        Ok(match self {
            ActionJson::Place {
                tile,
                x,
                y,
                rotation,
            } => Action::Place {
                tile: cat.find(tile).ok_or_else(|| {
                    format!("unknown tile id {tile:?} (ids look like \"base/U\")")
                })?,
                pos: Pos::new(*x, *y),
                rot: Rotation::from_degrees(*rotation)
                    .ok_or_else(|| format!("rotation must be 0, 90, 180 or 270, not {rotation}"))?,
            },
            ActionJson::Follower { x, y, place, half } => Action::Follower {
                pos: Pos::new(*x, *y),
                corner: half.as_deref().map(str::parse::<Corner>).transpose()?,
                place: place.parse::<Place>()?,
            },
            ActionJson::Pass {} => Action::Pass,
            ActionJson::Flea { x, y, half, from } => Action::Flea {
                to: TileAtJson {
                    x: *x,
                    y: *y,
                    half: half.clone(),
                }
                .resolve()?,
                from: from.as_ref().map(TileAtJson::resolve).transpose()?,
            },
            ActionJson::Flee { from, to } => Action::Flee {
                from: from.resolve()?,
                to: to.resolve()?,
            },
            ActionJson::Trade { x, y, chips } => {
                let mut colour = None;
                let (mut ones, mut twos) = (0u8, 0u8);
                for c in chips {
                    let col: Colour = c.colour.parse()?;
                    if colour.is_some_and(|k| k != col) {
                        return Err("the chips of one trade must all have one colour".into());
                    }
                    colour = Some(col);
                    match c.value {
                        1 => ones += 1,
                        2 => twos += 1,
                        v => return Err(format!("a chip is worth 1 or 2, not {v}")),
                    }
                }
                Action::Trade {
                    pos: Pos::new(*x, *y),
                    colour: colour.ok_or("a trade needs 1 to 4 chips")?,
                    ones,
                    twos,
                }
            }
            ActionJson::Draft { tile } => Action::Draft {
                tile: cat.find(tile).ok_or_else(|| {
                    format!("unknown tile id {tile:?} (ids look like \"halfsies1/A\")")
                })?,
            },
            ActionJson::Gingerbread { x, y, place, half } => Action::Gingerbread {
                pos: Pos::new(*x, *y),
                corner: half.as_deref().map(str::parse::<Corner>).transpose()?,
                place: place.parse::<Place>()?,
            },
        })
    }

    /// Writes an engine action with names.
    pub fn from_action(a: &Action, cat: &Catalog) -> ActionJson {
        match *a {
            Action::Place { tile, pos, rot } => ActionJson::Place {
                tile: cat.tile(tile).id.clone(),
                x: pos.x,
                y: pos.y,
                rotation: rot.degrees() as i64,
            },
            Action::Follower { pos, corner, place } => ActionJson::Follower {
                x: pos.x,
                y: pos.y,
                place: place.name().to_string(),
                half: corner.map(|c| c.name().to_string()),
            },
            Action::Pass => ActionJson::Pass {},
            Action::Flea { to, from } => ActionJson::Flea {
                x: to.x.into(),
                y: to.y.into(),
                half: to.half.map(|c| c.name().to_string()),
                from: from.map(TileAtJson::of),
            },
            Action::Flee { from, to } => ActionJson::Flee {
                from: PlaceAtJson::of(from),
                to: PlaceAtJson::of(to),
            },
            Action::Trade {
                pos,
                colour,
                ones,
                twos,
            } => ActionJson::Trade {
                x: pos.x,
                y: pos.y,
                chips: std::iter::repeat_n(1, ones as usize)
                    .chain(std::iter::repeat_n(2, twos as usize))
                    .map(|value| ChipJson {
                        colour: colour.name().to_string(),
                        value,
                    })
                    .collect(),
            },
            Action::Draft { tile } => ActionJson::Draft {
                tile: cat.tile(tile).id.clone(),
            },
            Action::Gingerbread { pos, corner, place } => ActionJson::Gingerbread {
                x: pos.x,
                y: pos.y,
                place: place.name().to_string(),
                half: corner.map(|c| c.name().to_string()),
            },
        }
    }
}
