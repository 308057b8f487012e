//! The vocabulary of `notation.md`: every action a player can take and every
//! step a game can wait in, the expansions' included (records name them all,
//! whichever expansions a game plays).

use crate::catalog::TileIdx;
use crate::geometry::{Corner, Place, Pos, Rotation};

/// A chip colour of Map Chips, carried by [`Action::Trade`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Purple.
    Purple,
    /// Light blue.
    Blue,
    /// Orange.
    Orange,
}

impl Colour {
    /// The three colours.
    pub const ALL: [Colour; 3] = [Colour::Purple, Colour::Blue, Colour::Orange];

    /// The name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Purple => "purple",
            Colour::Blue => "blue",
            Colour::Orange => "orange",
        }
    }
}

impl std::str::FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Colour, String> {
        match s {
            "purple" => Ok(Colour::Purple),
            "blue" | "light blue" | "lightblue" | "light-blue" => Ok(Colour::Blue),
            "orange" => Ok(Colour::Orange),
            _ => Err(format!(
                "unknown chip colour {}: use purple, blue or orange",
                crate::limits::cut(s)
            )),
        }
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An action that breaks a rule; the state is left unchanged. It belongs
/// to the vocabulary because records and the rules both report it.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("{rule}: {message}")]
pub struct IllegalAction {
    /// The rule broken, as a short tag (`placement`, `follower`, `turn` …).
    pub rule: &'static str,
    /// What is wrong, in words that say what to do instead.
    pub message: String,
}

/// An [`IllegalAction`] of a rule, with its message.
pub(crate) fn illegal(rule: &'static str, message: impl Into<String>) -> IllegalAction {
    IllegalAction {
        rule,
        message: message.into(),
    }
}

/// Everything a player can do; the vocabulary of `notation.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the drawn tile (or, with halves, a half from the hand).
    Place {
        /// The tile being placed.
        tile: TileIdx,
        /// Its anchor cell.
        pos: Pos,
        /// Its rotation.
        rot: Rotation,
    },
    /// Put a follower on a feature of the tile just placed.
    Follower {
        /// The cell.
        pos: Pos,
        /// For a cell with half tiles: which half.
        corner: Option<Corner>,
        /// Any place of the feature.
        place: Place,
        /// Which figure (a normal follower unless an expansion brings
        /// others).
        figure: Figure,
    },
    /// Decline the current optional step.
    Pass,
    /// Draw the next tile where drawing is a choice (a Half-and-half player
    /// who holds a half may play it instead). Elsewhere a placement of the
    /// drawn tile implies the draw.
    Draw,
    /// Trade chips from the hand onto a chip space of a Chumak square.
    Trade {
        /// The Chumak square.
        pos: Pos,
        /// The chips' colour.
        colour: Colour,
        /// Chips worth 1 traded.
        ones: u8,
        /// Chips worth 2 traded.
        twos: u8,
    },
    /// Take a half tile in the Half-and-half draft.
    Draft {
        /// The half taken.
        tile: TileIdx,
    },
    /// Move the gingerbread man into the city at that place.
    Gingerbread {
        /// The cell.
        pos: Pos,
        /// For a cell with half tiles: which half.
        corner: Option<Corner>,
        /// Any place of the city.
        place: Place,
    },
    /// The Plague: spread a flea onto a tile, from the supply or (`from`)
    /// moved from the tile it lies on.
    Flea {
        /// The tile that gets the flea.
        to: TileAt,
        /// The tile the flea comes from, when it moves on the board.
        from: Option<TileAt>,
    },
    /// The Plague: one of the current player's followers takes flight along
    /// its road, city or field.
    Flee {
        /// A place of the segment it stands on.
        from: FeatureAt,
        /// A place of the segment it flees to.
        to: FeatureAt,
    },
    /// Princess & Dragon, dragon step: one move of the dragon onto the
    /// tile at `to`, by the player whose move it is.
    Dragon {
        /// The tile the dragon enters.
        to: TileAt,
    },
    /// Princess & Dragon: the fairy moves next to the current player's
    /// follower at `place` of the tile at `at` (`None`: the follower on
    /// top of that tile's tower, The Tower's Decision W7).
    Fairy {
        /// The follower's tile.
        at: TileAt,
        /// A place of the follower's feature; `None` for the top of the
        /// tower.
        place: Option<Place>,
    },
    /// Princess & Dragon: the princess just placed sends home the knight
    /// of seat `seat` standing at `at` in her city.
    Princess {
        /// A place of the knight's feature on its tile.
        at: FeatureAt,
        /// The knight's owner (a seat index).
        seat: u8,
        /// Which figure (a normal follower unless given).
        figure: Figure,
    },
    /// The Tower: one of the current player's floors onto the foundation or
    /// the open tower of the tile at `to` (any tile); the capture step
    /// follows.
    Tower {
        /// The tile with the foundation.
        to: TileAt,
    },
    /// The Tower: one of the current player's followers on top of the open
    /// tower of the tile at `to` (any tile), closing it. Written as a
    /// `follower` with `"place": "tower"`.
    TowerTop {
        /// The tile with the tower.
        to: TileAt,
        /// A normal or large follower.
        figure: Figure,
    },
    /// The Tower, capture step: seat `seat`'s follower standing at `place`
    /// of the tile at `at` (`None`: on top of that tile's tower) leaves the
    /// board.
    Capture {
        /// The follower's tile.
        at: TileAt,
        /// A place of its feature; `None` for the top of the tower.
        place: Option<Place>,
        /// Its owner.
        seat: u8,
        /// Which figure it is.
        figure: Figure,
        /// Which of the capturer's own followers held by `seat` comes back
        /// in the prisoner exchange, where that is a choice.
        exchange: Option<Figure>,
    },
    /// The Tower: the current player pays 3 points to seat `seat` and takes
    /// back their `figure` that `seat` holds as a prisoner.
    Ransom {
        /// The player holding the prisoner.
        seat: u8,
        /// Which figure is ransomed.
        figure: Figure,
    },
    /// Abbey & Mayor: the barn on a corner of the tile just placed, instead
    /// of a follower.
    Barn {
        /// The tile just placed (a cell of it, and the half for a cell
        /// with half tiles).
        at: TileAt,
        /// Which corner of that cell.
        corner: Corner,
    },
    /// Abbey & Mayor, wagon step: the wagon whose feature was just scored
    /// moves onto the feature at `to`.
    Wagon {
        /// A place of the segment it moves onto.
        to: FeatureAt,
    },
}

/// What the game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current player must place the drawn tile.
    Place,
    /// The current player may put a follower on the tile just placed.
    Follower,
    /// The current player moves the gingerbread man.
    Gingerbread,
    /// Before the first turn: players draft half tiles.
    Draft,
    /// The Plague, after the follower step: the current player may still
    /// spread (and must, while a spread is owed) and flee, then passes.
    Plague,
    /// Princess & Dragon, after the follower step of a dragon tile's part:
    /// the players move the dragon one tile each in turn, six moves in all.
    Dragon,
    /// Traders & Builders, at the end of a turn's first part that
    /// extended the player's builder's road or city: `draw` takes the
    /// second tile, `pass` declines it.
    Builder,
    /// The Tower, after a floor was placed: the current player may take
    /// one follower in the tower's reach off the board.
    Capture,
    /// Abbey & Mayor's final abbey round, after the last land tile's turn:
    /// the current player places their abbey or passes.
    Abbey,
    /// Abbey & Mayor, after the scoring: the owner of a wagon whose
    /// feature was just scored moves it (`wagon`) or takes it home (`pass`).
    Wagon,
    /// The game is over and final scoring is done.
    Over,
}

/// A figure a player puts on the board in the follower step: every kind
/// of the notation's `figure` key. What a kind is for the rules is stated
/// once, here ([`Figure::is_follower`], [`Figure::needs_company`]); where
/// its supply lives and where it may go is its expansion's
/// (`docs/architecture.md`, "Figures").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    /// A normal follower (every game).
    #[default]
    Normal,
    /// The large follower of Inns & Cathedrals (`"figure": "big"`).
    Big,
    /// Traders & Builders' builder (`"figure": "builder"`): a special
    /// figure on a road or city.
    Builder,
    /// Traders & Builders' pig (`"figure": "pig"`): a special figure in a
    /// field.
    Pig,
    /// Abbey & Mayor's mayor (`"figure": "mayor"`): a follower in a city,
    /// as strong as the city's coats of arms.
    Mayor,
    /// Abbey & Mayor's wagon (`"figure": "wagon"`): a follower on a road,
    /// city or monastery that moves on once its feature is scored.
    Wagon,
}

impl Figure {
    /// Every kind, in the order of the notation.
    pub const ALL: [Figure; 6] = [
        Figure::Normal,
        Figure::Big,
        Figure::Builder,
        Figure::Pig,
        Figure::Mayor,
        Figure::Wagon,
    ];

    /// The word of the notation's `figure` key (`None` for a normal
    /// follower, which records leave out).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Figure::Normal => None,
            Figure::Big => Some("big"),
            Figure::Builder => Some("builder"),
            Figure::Pig => Some("pig"),
            Figure::Mayor => Some("mayor"),
            Figure::Wagon => Some("wagon"),
        }
    }

    /// Reads the notation's `figure` value.
    pub fn parse(s: &str) -> Result<Figure, String> {
        Figure::ALL
            .into_iter()
            .find(|f| f.name() == Some(s))
            .ok_or_else(|| {
                format!(
                    "unknown figure {}: the figures besides a normal follower are \"big\", \"builder\", \"pig\", \"mayor\" and \"wagon\"",
                    crate::limits::cut(s)
                )
            })
    }

    /// Whether it is a follower: it occupies its feature, counts for the
    /// majority and is what every rule saying "follower", "knight",
    /// "thief", "monk" or "farmer" means. The others are special figures:
    /// they stand on a segment without occupying it and never count.
    #[inline]
    pub fn is_follower(self) -> bool {
        matches!(
            self,
            Figure::Normal | Figure::Big | Figure::Mayor | Figure::Wagon
        )
    }

    /// Whether it goes home as soon as its owner has no follower left in
    /// its feature (the builder and the pig).
    #[inline]
    pub fn needs_company(self) -> bool {
        matches!(self, Figure::Builder | Figure::Pig)
    }
}

impl Phase {
    /// The step's name in the notation's state (`replay`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Place => "place",
            Phase::Follower => "follower",
            Phase::Gingerbread => "gingerbread",
            Phase::Draft => "draft",
            Phase::Plague => "plague",
            Phase::Builder => "builder",
            Phase::Dragon => "dragon",
            Phase::Capture => "capture",
            Phase::Abbey => "abbey",
            Phase::Wagon => "wagon",
            Phase::Over => "over",
        }
    }
}

impl Phase {
    /// Whether the turn machine runs this step itself (the others belong to
    /// an expansion).
    #[inline]
    pub(crate) fn is_shared(self) -> bool {
        matches!(self, Phase::Place | Phase::Follower | Phase::Over)
    }
}

impl Action {
    /// Whether the action belongs to every game (the others belong to an
    /// expansion).
    #[inline]
    pub(crate) fn is_shared(&self) -> bool {
        matches!(
            self,
            Action::Place { .. }
                | Action::Follower {
                    figure: Figure::Normal,
                    ..
                }
                | Action::Pass
                | Action::Draw
        )
    }

    /// The cell an action names, for actions that name one.
    pub fn cell(&self) -> Option<Pos> {
        match *self {
            Action::Place { pos, .. }
            | Action::Follower { pos, .. }
            | Action::Trade { pos, .. }
            | Action::Gingerbread { pos, .. } => Some(pos),
            Action::Dragon { to } => Some(to.pos()),
            Action::Princess { at, .. } | Action::Wagon { to: at } => Some(at.pos()),
            Action::Fairy { at, .. } => Some(at.pos()),
            Action::Tower { to } | Action::TowerTop { to, .. } => Some(to.pos()),
            Action::Capture { at, .. } => Some(at.pos()),
            Action::Barn { at, .. } => Some(at.pos()),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Naming tiles and places in actions (the Plague's `flea` and `flee`)

/// A tile named in an action: its cell and, for a half, its corner. Kept
/// small (cells fit in 16 bits) so that adding these actions does not make
/// every [`Action`] bigger than a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileAt {
    /// Column.
    pub x: i16,
    /// Row.
    pub y: i16,
    /// The half's corner, for a cell with half tiles.
    pub half: Option<Corner>,
}

impl TileAt {
    /// The tile at `pos` (`None` when the cell is out of range).
    pub fn new(pos: Pos, half: Option<Corner>) -> Option<TileAt> {
        Some(TileAt {
            x: pos.x.try_into().ok()?,
            y: pos.y.try_into().ok()?,
            half,
        })
    }

    /// Its cell.
    pub fn pos(self) -> Pos {
        Pos::new(self.x.into(), self.y.into())
    }
}

/// A feature named in an action by one of its places: cell, half, place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureAt {
    /// Column.
    pub x: i16,
    /// Row.
    pub y: i16,
    /// The half's corner, for a cell with half tiles.
    pub half: Option<Corner>,
    /// A place of the feature.
    pub place: Place,
}

impl FeatureAt {
    /// The feature at `place` of the tile at `pos` (`None` when the cell is
    /// out of range).
    pub fn new(pos: Pos, half: Option<Corner>, place: Place) -> Option<FeatureAt> {
        let t = TileAt::new(pos, half)?;
        Some(FeatureAt {
            x: t.x,
            y: t.y,
            half,
            place,
        })
    }

    /// Its cell.
    pub fn pos(self) -> Pos {
        Pos::new(self.x.into(), self.y.into())
    }
}
