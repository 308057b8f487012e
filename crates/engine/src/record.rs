//! The JSON game record of `notation.md`: a configuration plus the actions
//! taken, and the replay that turns it back into a game.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Colour;
use crate::action::{illegal, Action, Figure, IllegalAction};
use crate::action::{FeatureAt, TileAt};
use crate::catalog::Catalog;
use crate::config::{ConfigError, GameConfig};
use crate::geometry::{Corner, Place, Pos, Rotation};
use crate::limits::MAX_RECORD_BYTES;

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
    /// Actions in order (at most [`crate::limits::MAX_ACTIONS`]).
    #[serde(
        default,
        deserialize_with = "crate::limits::bounded_vec::<_, _, { crate::limits::MAX_ACTIONS }>"
    )]
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
        x: i64,
        /// Row.
        y: i64,
        /// 0, 90, 180 or 270.
        rotation: i64,
    },
    /// Put a follower on the tile just placed.
    Follower {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// A place of the feature.
        place: String,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
        /// A figure other than a normal follower (`"big"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
    },
    /// Decline the current optional step.
    Pass {},
    /// Draw the next tile where drawing is a choice (Half-and-half).
    Draw {},
    /// Trade chips onto a chip space of the Chumak square at (x, y).
    Trade {
        /// Column of the Chumak square.
        x: i64,
        /// Row of the Chumak square.
        y: i64,
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
        x: i64,
        /// Row.
        y: i64,
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
        x: i64,
        /// Row.
        y: i64,
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
    /// Princess & Dragon: one move of the dragon onto the tile at (x, y).
    Dragon(TileAtJson),
    /// Princess & Dragon: the fairy moves next to the current player's
    /// follower at that place of the tile at (x, y) (`"tower"`: on top of
    /// its tower).
    Fairy(PlaceAtJson),
    /// Princess & Dragon: the princess sends home seat `seat`'s knight at
    /// that place of the tile at (x, y).
    Princess {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// A place of the knight's feature.
        place: String,
        /// The knight's owner.
        seat: u8,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
        /// A figure other than a normal follower (`"big"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
    },
    /// The Tower: a floor onto the foundation or open tower at (x, y).
    Tower {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// The Tower, capture step: seat `seat`'s follower at that place of the
    /// tile at (x, y) (`"tower"`: on top of its tower) leaves the board.
    Capture {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// A place of the follower's feature, or `tower`.
        place: String,
        /// The follower's owner.
        seat: u8,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
        /// A figure other than a normal follower (`"big"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
        /// The kind of the capturer's own follower that comes back in the
        /// prisoner exchange, where that is a choice (`"normal"`, `"big"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exchange: Option<String>,
    },
    /// The Tower: pay 3 points to seat `seat` for one's follower it holds.
    Ransom {
        /// The player holding the prisoner.
        seat: u8,
        /// A figure other than a normal follower (`"big"`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
    },
    /// Abbey & Mayor: the barn on a corner of the tile just placed.
    Barn {
        /// Column of the tile just placed.
        x: i64,
        /// Row of the tile just placed.
        y: i64,
        /// `NE`, `SE`, `SW` or `NW`.
        corner: String,
        /// The half's corner, for a cell with half tiles.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half: Option<String>,
    },
    /// Abbey & Mayor, wagon step: the wagon moves onto the feature at that
    /// place of the tile at (x, y).
    Wagon(PlaceAtJson),
}

/// The place word of the top of a tower (The Tower).
pub const TOWER_PLACE: &str = "tower";

/// Reads a `figure` key: a normal follower when left out.
fn figure_of(figure: &Option<String>) -> Result<Figure, String> {
    Ok(figure
        .as_deref()
        .map(Figure::parse)
        .transpose()?
        .unwrap_or_default())
}

/// Reads an `exchange` key: `"normal"` or another figure's word.
fn exchange_of(exchange: &Option<String>) -> Result<Option<Figure>, String> {
    exchange
        .as_deref()
        .map(|s| match s {
            "normal" => Ok(Figure::Normal),
            other => Figure::parse(other),
        })
        .transpose()
}

/// A map chip in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChipJson {
    /// `purple`, `blue` or `orange`.
    pub colour: String,
    /// 1 or 2.
    pub value: i64,
}

/// A tile on the board, by cell (and half).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileAtJson {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
    /// The half's corner, for a cell with half tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<String>,
}

/// A place on the board: cell, place (and half).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceAtJson {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
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
        TileAt::new(Pos::checked(self.x, self.y)?, corner_of(&self.half)?)
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
        FeatureAt::new(Pos::checked(self.x, self.y)?, corner_of(&self.half)?, place)
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
    /// Not text, not JSON, or not shaped like a record. The message names
    /// where: the field path (`actions[3].place.x`), the action's index
    /// when inside an action, and the line and column.
    #[error("malformed record: {0}")]
    Json(String),
    /// Larger than [`MAX_RECORD_BYTES`].
    #[error(
        "the record is {0} bytes or more; records may be at most {MAX_RECORD_BYTES} bytes (16 MiB)"
    )]
    TooLarge(usize),
    /// A format this version does not read.
    #[error("record format {0} is not supported: this version of Bastide reads format {FORMAT}")]
    Format(String),
    /// The configuration is not a playable game.
    #[error("bad configuration: {0}")]
    Config(ConfigError),
    /// An action that does not name real things (tile, place, rotation,
    /// a coordinate in range).
    #[error("action {index}: {message}")]
    BadAction {
        /// Index in the action list (0-based).
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A configuration field that fixes random events named something the
    /// game could not give at this action (a chip of `chip_draws` not in
    /// the supply when drawn).
    #[error("action {index}: the configuration's {message}")]
    Misfixed {
        /// Index in the action list (0-based).
        index: usize,
        /// What could not be given.
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

// Written by hand rather than with `#[from]`: thiserror would also make the
// inner error the `source`, and reporters that print the chain (anyhow's
// `{:#}`) would then say the same thing twice.
impl From<ConfigError> for RecordError {
    fn from(e: ConfigError) -> RecordError {
        RecordError::Config(e)
    }
}

/// Why a written action cannot become an engine action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// It names something that does not exist: an unknown tile, place or
    /// colour, a rotation other than 0/90/180/270, a coordinate out of range.
    Malformed(String),
    /// It is well formed but no rule allows it (a trade of mixed colours or
    /// of more than four chips): reported like every other illegal action.
    Illegal(IllegalAction),
}

impl From<String> for ActionError {
    fn from(m: String) -> ActionError {
        ActionError::Malformed(m)
    }
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Malformed(m) => f.write_str(m),
            ActionError::Illegal(e) => write!(f, "illegal: {e}"),
        }
    }
}

/// The one field read before the whole record: its format version.
#[derive(Deserialize)]
struct Head {
    format: Option<serde_json::Value>,
}

/// Says where a JSON error is: the field path, the action's index when the
/// path is inside `actions`, and the line and column.
fn json_error(e: serde_path_to_error::Error<serde_json::Error>) -> RecordError {
    let path = e.path().to_string();
    let inner = e.inner();
    let action = path
        .strip_prefix("actions[")
        .and_then(|rest| rest.split(']').next())
        .map(|i| format!("action {i}: "))
        .unwrap_or_default();
    let at = if path.is_empty() || path == "." {
        String::new()
    } else {
        format!("{path}: ")
    };
    RecordError::Json(crate::limits::cut_message(&format!("{action}{at}{inner}")))
}

impl Record {
    /// Parses a record from JSON text, checking the format version first.
    /// A leading byte-order mark is skipped; text over [`MAX_RECORD_BYTES`]
    /// is refused before it is parsed.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(text.len()));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if !text.trim_start().starts_with('{') {
            return Err(RecordError::Json(
                "not a record: a record is a JSON object with \"format\", \"config\" and \"actions\""
                    .into(),
            ));
        }
        // The format first, skipping everything else without building it,
        // so a record of another format is named as such.
        let head: Head = serde_json::from_str(text).map_err(|e| {
            let what = if e.is_syntax() || e.is_eof() {
                "not JSON"
            } else {
                "not a record (a JSON object with \"format\", \"config\" and \"actions\")"
            };
            RecordError::Json(crate::limits::cut_message(&format!("{what}: {e}")))
        })?;
        match head.format {
            Some(v) if v.as_u64() == Some(FORMAT) => {}
            Some(v) => {
                return Err(RecordError::Format(crate::limits::cut_message(
                    &v.to_string(),
                )))
            }
            None => return Err(RecordError::Format("(missing)".into())),
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let record: Record = serde_path_to_error::deserialize(&mut de).map_err(json_error)?;
        de.end()
            .map_err(|e| RecordError::Json(format!("text after the record: {e}")))?;
        Ok(record)
    }

    /// Parses a record from bytes: checks the size and that they are UTF-8
    /// text before anything else, so a binary file is named at once.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(bytes.len()));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            RecordError::Json(format!(
                "not a record: the file is not UTF-8 text (byte {} is not valid UTF-8)",
                e.valid_up_to()
            ))
        })?;
        Record::parse(text)
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
}

impl ActionJson {
    /// Resolves names into an engine action.
    pub fn to_action(&self, cat: &Catalog) -> Result<Action, ActionError> {
        Ok(match self {
            ActionJson::Place {
                tile,
                x,
                y,
                rotation,
            } => Action::Place {
                tile: cat.find(tile).ok_or_else(|| {
                    format!(
                        "unknown tile id {} (ids look like \"base/U\")",
                        crate::limits::cut(tile)
                    )
                })?,
                pos: Pos::checked(*x, *y)?,
                rot: Rotation::from_degrees(*rotation)
                    .ok_or_else(|| format!("rotation must be 0, 90, 180 or 270, not {rotation}"))?,
            },
            ActionJson::Follower {
                x,
                y,
                place,
                half,
                figure,
            } if place == TOWER_PLACE => Action::TowerTop {
                to: TileAtJson {
                    x: *x,
                    y: *y,
                    half: half.clone(),
                }
                .resolve()?,
                figure: figure_of(figure)?,
            },
            ActionJson::Follower {
                x,
                y,
                place,
                half,
                figure,
            } => Action::Follower {
                pos: Pos::checked(*x, *y)?,
                corner: half.as_deref().map(str::parse::<Corner>).transpose()?,
                place: place.parse::<Place>()?,
                figure: figure
                    .as_deref()
                    .map(Figure::parse)
                    .transpose()?
                    .unwrap_or_default(),
            },
            ActionJson::Pass {} => Action::Pass,
            ActionJson::Draw {} => Action::Draw,
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
                let pos = Pos::checked(*x, *y)?;
                let trade_rule = |m: String| ActionError::Illegal(illegal("trade", m));
                // Names first (a chip that does not exist is malformed),
                // then the rules of a trade, reported as illegal.
                let mut parsed = Vec::with_capacity(chips.len().min(4));
                for c in chips {
                    let col: Colour = c.colour.parse()?;
                    if !(1..=2).contains(&c.value) {
                        return Err(format!("a chip is worth 1 or 2, not {}", c.value).into());
                    }
                    parsed.push((col, c.value));
                }
                if !(1..=4).contains(&parsed.len()) {
                    return Err(trade_rule(format!(
                        "a trade puts 1 to 4 chips on one space, not {}",
                        parsed.len()
                    )));
                }
                let colour = parsed[0].0;
                if parsed.iter().any(|(c, _)| *c != colour) {
                    return Err(trade_rule(
                        "the chips of one trade must all have one colour: trade one colour now, the other on a later turn".into(),
                    ));
                }
                let twos = parsed.iter().filter(|(_, v)| *v == 2).count();
                // At most four chips: the counts fit in a byte.
                Action::Trade {
                    pos,
                    colour,
                    ones: (parsed.len() - twos) as u8,
                    twos: twos as u8,
                }
            }
            ActionJson::Draft { tile } => Action::Draft {
                tile: cat.find(tile).ok_or_else(|| {
                    format!(
                        "unknown tile id {} (ids look like \"halfsies1/A\")",
                        crate::limits::cut(tile)
                    )
                })?,
            },
            ActionJson::Gingerbread { x, y, place, half } => Action::Gingerbread {
                pos: Pos::checked(*x, *y)?,
                corner: half.as_deref().map(str::parse::<Corner>).transpose()?,
                place: place.parse::<Place>()?,
            },
            ActionJson::Dragon(to) => Action::Dragon { to: to.resolve()? },
            ActionJson::Fairy(p) => Action::Fairy {
                at: TileAtJson {
                    x: p.x,
                    y: p.y,
                    half: p.half.clone(),
                }
                .resolve()?,
                place: if p.place == TOWER_PLACE {
                    None
                } else {
                    Some(p.place.parse::<Place>()?)
                },
            },
            ActionJson::Wagon(to) => Action::Wagon { to: to.resolve()? },
            ActionJson::Princess {
                x,
                y,
                place,
                seat,
                half,
                figure,
            } => Action::Princess {
                at: PlaceAtJson {
                    x: *x,
                    y: *y,
                    place: place.clone(),
                    half: half.clone(),
                }
                .resolve()?,
                seat: *seat,
                figure: figure
                    .as_deref()
                    .map(Figure::parse)
                    .transpose()?
                    .unwrap_or_default(),
            },
            ActionJson::Tower { x, y } => Action::Tower {
                to: TileAtJson {
                    x: *x,
                    y: *y,
                    half: None,
                }
                .resolve()?,
            },
            ActionJson::Capture {
                x,
                y,
                place,
                seat,
                half,
                figure,
                exchange,
            } => Action::Capture {
                at: TileAtJson {
                    x: *x,
                    y: *y,
                    half: half.clone(),
                }
                .resolve()?,
                place: if place == TOWER_PLACE {
                    None
                } else {
                    Some(place.parse::<Place>()?)
                },
                seat: *seat,
                figure: figure_of(figure)?,
                exchange: exchange_of(exchange)?,
            },
            ActionJson::Ransom { seat, figure } => Action::Ransom {
                seat: *seat,
                figure: figure_of(figure)?,
            },
            ActionJson::Barn { x, y, corner, half } => Action::Barn {
                at: TileAtJson {
                    x: *x,
                    y: *y,
                    half: half.clone(),
                }
                .resolve()?,
                corner: corner.parse::<Corner>()?,
            },
        })
    }

    /// Writes an engine action with names.
    pub fn from_action(a: &Action, cat: &Catalog) -> ActionJson {
        match *a {
            Action::Place { tile, pos, rot } => ActionJson::Place {
                tile: cat.tile(tile).id.clone(),
                x: pos.x.into(),
                y: pos.y.into(),
                rotation: rot.degrees() as i64,
            },
            Action::Follower {
                pos,
                corner,
                place,
                figure,
            } => ActionJson::Follower {
                x: pos.x.into(),
                y: pos.y.into(),
                place: place.name().to_string(),
                half: corner.map(|c| c.name().to_string()),
                figure: figure.name().map(str::to_string),
            },
            Action::Pass => ActionJson::Pass {},
            Action::Draw => ActionJson::Draw {},
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
                x: pos.x.into(),
                y: pos.y.into(),
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
                x: pos.x.into(),
                y: pos.y.into(),
                place: place.name().to_string(),
                half: corner.map(|c| c.name().to_string()),
            },
            Action::Dragon { to } => ActionJson::Dragon(TileAtJson::of(to)),
            Action::Fairy { at, place } => {
                let t = TileAtJson::of(at);
                ActionJson::Fairy(PlaceAtJson {
                    x: t.x,
                    y: t.y,
                    place: place.map_or(TOWER_PLACE, Place::name).to_string(),
                    half: t.half,
                })
            }
            Action::Wagon { to } => ActionJson::Wagon(PlaceAtJson::of(to)),
            Action::Princess { at, seat, figure } => {
                let p = PlaceAtJson::of(at);
                ActionJson::Princess {
                    x: p.x,
                    y: p.y,
                    place: p.place,
                    seat,
                    half: p.half,
                    figure: figure.name().map(str::to_string),
                }
            }
            Action::Tower { to } => ActionJson::Tower {
                x: to.x.into(),
                y: to.y.into(),
            },
            Action::TowerTop { to, figure } => ActionJson::Follower {
                x: to.x.into(),
                y: to.y.into(),
                place: TOWER_PLACE.to_string(),
                half: to.half.map(|c| c.name().to_string()),
                figure: figure.name().map(str::to_string),
            },
            Action::Capture {
                at,
                place,
                seat,
                figure,
                exchange,
            } => ActionJson::Capture {
                x: at.x.into(),
                y: at.y.into(),
                place: place.map_or(TOWER_PLACE, Place::name).to_string(),
                seat,
                half: at.half.map(|c| c.name().to_string()),
                figure: figure.name().map(str::to_string),
                exchange: exchange.map(|f| f.name().unwrap_or("normal").to_string()),
            },
            Action::Ransom { seat, figure } => ActionJson::Ransom {
                seat,
                figure: figure.name().map(str::to_string),
            },
            Action::Barn { at, corner } => {
                let t = TileAtJson::of(at);
                ActionJson::Barn {
                    x: t.x,
                    y: t.y,
                    corner: corner.name().to_string(),
                    half: t.half,
                }
            }
        }
    }
}
