//! Board pictures for Bastide.
//!
//! Everything is drawn procedurally from the tile catalog: no artwork is
//! copied. Fields are the green ground of a tile; a city is the polygon over
//! the border places it covers, closed by brown walls that bow into the tile;
//! roads and rivers run from the middles of sides to the centre or across;
//! monasteries, coats of arms and inns are small upright symbols; followers
//! are meeples in their player's colour (farmers lie down in their field).
//! A game on a map (Maps of Carcassonne) shows the map's squares under the
//! tiles, its start spaces and its Chumak squares with the chips lying there.
//! Plague sources show the plague doctor; the Plague's tokens lie on their
//! tiles: outbreak tokens on the sources (red with a rat while active, green
//! once eradicated, with their number) and flea tokens (red while active,
//! pink while latent), clear of the followers.
//!
//! The output is SVG text, deterministic for a given state (no maps with
//! random order, fixed number formatting), and PNG through `resvg`.
//!
//! ```
//! use bastide_engine::{Game, GameConfig};
//! let game = Game::new(GameConfig::new(2, 1)).unwrap();
//! let svg = bastide_render::board_svg(&game, &bastide_render::BoardOptions::default());
//! assert!(svg.starts_with("<svg"));
//! ```

#![warn(missing_docs)]

use std::sync::{Arc, OnceLock};

use bastide_engine::expansions::map_chips::Chip;
use bastide_engine::expansions::plague::{Flea, Outbreak};
use bastide_engine::Catalog;
use bastide_engine::Follower;
use bastide_engine::Game;
use bastide_engine::MapDef;
use bastide_engine::Piece;
use bastide_engine::{Corner, Place, Pos, Rotation};
use resvg::{tiny_skia, usvg};
use thiserror::Error;

mod draw;
mod geom;
mod svg;

pub use draw::player_colour;

/// What a board picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardOptions {
    /// Coordinates along the edges and dashed cell lines.
    pub grid: bool,
    /// Highlight the cells where the drawn tile may go (when a tile is to be
    /// placed).
    pub legal: bool,
    /// Players' colours, scores and supplies under the board.
    pub legend: bool,
    /// Outline the piece placed last.
    pub mark_last: bool,
    /// A line of text above the legend.
    pub title: Option<String>,
    /// Size of one cell in the SVG's width and height (pixels).
    pub px_per_cell: f64,
}

impl Default for BoardOptions {
    fn default() -> Self {
        BoardOptions {
            grid: false,
            legal: false,
            legend: true,
            mark_last: true,
            title: None,
            px_per_cell: 80.0,
        }
    }
}

/// Size of one cell of a tile or sheet picture, in pixels.
pub const TILE_PX: f64 = 100.0;

/// A picture that cannot be made, with what to do about it.
#[derive(Debug, Error)]
pub enum RenderError {
    /// No tile has that id.
    #[error("unknown tile {0:?}: use an id like base/D (see `bastide catalog`)")]
    UnknownTile(String),
    /// No feature lies at the place asked to highlight.
    #[error("no feature to highlight at {0}: name a place of a placed tile, e.g. 0,0,N")]
    NoFeature(String),
    /// No set has that name.
    #[error("unknown tile set {name:?}: the catalog has {known}")]
    UnknownSet {
        /// The name asked for.
        name: String,
        /// The sets there are.
        known: String,
    },
    /// The SVG could not be read back for rasterising (a bug in the renderer).
    #[error("cannot rasterise the picture: {0}")]
    Svg(String),
    /// The picture is too big or empty for a PNG.
    #[error("cannot make a PNG of {width}x{height} pixels: use a smaller zoom")]
    Size {
        /// Width asked for.
        width: f64,
        /// Height asked for.
        height: f64,
    },
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Png(String),
}

/// One player's line in the legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLine {
    /// Name (a colour name picks that colour).
    pub name: String,
    /// Points so far.
    pub score: u32,
    /// Followers not on the board.
    pub supply: u8,
    /// Map chips in hand, when Map Chips are in play. Only their number is
    /// shown: their colours and values are hidden from the other players.
    pub chips: Option<usize>,
    /// Half tiles in hand, when Half-and-half is in play (only their number).
    pub halves: Option<usize>,
    /// Trade goods tokens held (wine, grain, cloth, in `Goods::ALL`
    /// order), when Traders & Builders is in play; they are public.
    pub goods: Option<[u8; 3]>,
    /// The Tower, when in play: floors left and prisoners held (followers
    /// of other players in front of this one).
    pub tower: Option<(u8, usize)>,
}

impl PlayerLine {
    /// A line with a name, score and followers left, and no hand.
    pub fn new(name: impl Into<String>, score: u32, supply: u8) -> PlayerLine {
        PlayerLine {
            name: name.into(),
            score,
            supply,
            chips: None,
            halves: None,
            goods: None,
            tower: None,
        }
    }
}

/// A printed map under the tiles (Maps of Carcassonne): light squares in the
/// shape of the country, numbered start spaces and Chumak squares with the
/// chips lying on them.
#[derive(Clone, Debug, PartialEq)]
pub struct MapScene {
    /// The map's id (`ukraine`).
    pub name: String,
    /// The map's name in the legend.
    pub title: String,
    /// Its squares; the cells off the map stay blank.
    pub cells: Vec<Pos>,
    /// Start spaces, numbered from 1 in this order.
    pub starts: Vec<Pos>,
    /// Chumak squares.
    pub chumak: Vec<ChumakSquare>,
    /// Chips in the face-down supply, when Map Chips are in play.
    pub supply: Option<usize>,
    /// The land's outline (the country's border), a polygon's corners in
    /// tenths of a square ([`MapDef::outline`]); empty: the squares'
    /// border is drawn as the map's edge.
    pub outline: Vec<(i32, i32)>,
}

/// A Chumak square of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct ChumakSquare {
    /// Where it is.
    pub pos: Pos,
    /// Its town.
    pub name: String,
    /// Whether a tile lies on it (a square under a piece counts as built
    /// anyway).
    pub built: bool,
    /// Filled chip spaces (up to four are drawn), each with the chips
    /// traded there.
    pub spaces: Vec<Vec<Chip>>,
}

impl MapScene {
    /// A map as printed: no chips, nothing built.
    pub fn of_map(map: &MapDef) -> MapScene {
        MapScene {
            name: map.name.clone(),
            title: map.title.clone(),
            cells: map.bounds.cells().collect(),
            starts: map.starts.clone(),
            chumak: map
                .chumak
                .iter()
                .map(|(pos, name)| ChumakSquare {
                    pos: *pos,
                    name: name.clone(),
                    built: false,
                    spaces: Vec::new(),
                })
                .collect(),
            supply: None,
            outline: map.outline.clone(),
        }
    }

    /// The map of a game (none when it is played without one), with the
    /// chips on its Chumak squares and the size of the supply.
    pub fn of_game(game: &Game) -> Option<MapScene> {
        let def = game.config().map.as_deref().and_then(MapDef::builtin)?;
        let mut map = MapScene::of_map(&def);
        if let Some(chips) = game.chips() {
            map.supply = Some(chips.supply.len());
            for sq in &mut map.chumak {
                if let Some(c) = chips.squares.iter().find(|c| c.pos == sq.pos) {
                    sq.built = c.built;
                    sq.spaces = c.spaces.iter().map(|sp| sp.to_vec()).collect();
                }
            }
        }
        Some(map)
    }
}

/// The Plague's tokens on the board and the fleas left in the supply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlagueScene {
    /// Outbreak tokens, each on its source piece (index into
    /// [`Scene::pieces`]); token number = index + 1.
    pub outbreaks: Vec<Outbreak>,
    /// Flea tokens, each on its piece (a half tile carries its own flea).
    pub fleas: Vec<Flea>,
    /// Fleas in the supply.
    pub supply: u8,
}

impl PlagueScene {
    /// The Plague's tokens in a game (none when it is played without it).
    pub fn of_game(game: &Game) -> Option<PlagueScene> {
        let p = game.plague()?;
        Some(PlagueScene {
            outbreaks: p.outbreaks().to_vec(),
            fleas: p.fleas().to_vec(),
            supply: p.supply(),
        })
    }
}

/// Everything a board picture shows, whatever produced it: a game, a
/// server's state or a test that lays pieces by hand.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The catalog the pieces' tiles come from.
    pub catalog: &'a Catalog,
    /// Pieces on the board, in order of placement.
    pub pieces: &'a [Piece],
    /// Followers; `piece` indexes `pieces`, `player` indexes `players`.
    pub followers: &'a [Follower],
    /// Players in seat order.
    pub players: Vec<PlayerLine>,
    /// Cells to highlight when [`BoardOptions::legal`] is set.
    pub legal: Vec<Pos>,
    /// The piece placed last, outlined when [`BoardOptions::mark_last`] is
    /// set; `None` when no tile has been placed since the set-up.
    pub last: Option<u16>,
    /// Neutral figures standing on features.
    pub figures: Vec<Figure>,
    /// The printed map under the tiles, if the game is played on one.
    pub map: Option<MapScene>,
    /// The Plague's tokens, when it is in play.
    pub plague: Option<PlagueScene>,
    /// Pieces to outline as one highlighted feature (see
    /// [`Scene::highlight_feature`]).
    pub highlight: Vec<u16>,
    /// Abbey & Mayor's barns, each on a corner point of the grid.
    pub barns: Vec<BarnMark>,
    /// The Tower's foundations and towers, when it is in play.
    pub towers: Vec<TowerScene>,
}

/// A barn on a corner point: named by a cell and a corner of it, with its
/// owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarnMark {
    /// A cell the point is a corner of.
    pub pos: Pos,
    /// Which corner of that cell.
    pub corner: Corner,
    /// The owner's seat (index into [`Scene::players`]).
    pub seat: usize,
}

/// The barns of a game (none without Abbey & Mayor).
fn barn_marks(game: &Game) -> Vec<BarnMark> {
    game.barns().map_or_else(Vec::new, |b| {
        b.placed()
            .iter()
            .map(|x| BarnMark {
                pos: x.pos,
                corner: x.corner,
                seat: x.seat.index(),
            })
            .collect()
    })
}

/// A tower foundation of the Tower, with its floors and the follower on
/// top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerScene {
    /// The piece (index into [`Scene::pieces`]).
    pub piece: u16,
    /// Its floors (0: an empty foundation).
    pub height: u8,
    /// The follower on top: its seat and figure.
    pub top: Option<(usize, bastide_engine::Figure)>,
}

/// The Tower's foundations and towers of `game`.
fn towers_of(game: &Game) -> Vec<TowerScene> {
    game.tower().map_or_else(Vec::new, |t| {
        t.towers()
            .iter()
            .map(|w| TowerScene {
                piece: w.piece,
                height: w.height,
                top: w.top.map(|(seat, figure)| (seat.index(), figure)),
            })
            .collect()
    })
}

/// A neutral figure on a feature of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What it is.
    pub kind: FigureKind,
    /// The piece (index into [`Scene::pieces`]).
    pub piece: u16,
    /// The feature of that piece.
    pub feature: u8,
}

/// The neutral figures a picture knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureKind {
    /// The Gingerbread Man, in a city.
    Gingerbread,
    /// The Princess & the Dragon's dragon, on its tile.
    Dragon,
    /// The Princess & the Dragon's fairy, next to a follower.
    Fairy,
}

/// The piece placed last in `game`, at any point of a turn. The engine
/// only remembers it until the turn ends (`Game::last_piece`), so at the
/// start of a turn, and at the end of the game, it is the newest piece,
/// unless every piece on the board is from the set-up (start tile, river
/// source, start spaces of a map): then no tile has been placed yet.
fn last_placed(game: &Game) -> Option<u16> {
    if let Some(last) = game.last_piece() {
        return Some(last);
    }
    let pieces = game.board().pieces().len();
    // A fresh game of the same configuration holds the set-up pieces; it
    // always builds, since `game` was built from the same configuration.
    let setup = Game::new(game.config().clone()).map_or(pieces, |g| g.board().pieces().len());
    if pieces > setup {
        u16::try_from(pieces - 1).ok()
    } else {
        None
    }
}

/// The neutral figures on the board: the gingerbread man in his city, the
/// dragon on its tile (drawn at its first feature's spot), the fairy by
/// the feature of her follower.
fn neutral_figures(game: &Game) -> Vec<Figure> {
    let mut v: Vec<Figure> = game
        .gingerbread()
        .and_then(|g| g.city())
        .map(|city| game.segment(city))
        .map(|(piece, feature)| Figure {
            kind: FigureKind::Gingerbread,
            piece,
            feature,
        })
        .into_iter()
        .collect();
    if let Some(s) = game.princess_dragon() {
        if let Some(piece) = s.dragon() {
            v.push(Figure {
                kind: FigureKind::Dragon,
                piece,
                feature: 0,
            });
        }
        if let Some(f) = s.fairy() {
            v.push(Figure {
                kind: FigureKind::Fairy,
                piece: f.piece,
                // Beside a tower top (in no feature) she is drawn at the
                // tile's first feature's spot, as the dragon is.
                feature: f.feature.unwrap_or(0),
            });
        }
    }
    v
}

impl<'a> Scene<'a> {
    /// The scene of a game's current position.
    pub fn of_game(game: &'a Game) -> Scene<'a> {
        let scores = game.scores();
        let players = game
            .config()
            .players
            .iter()
            .enumerate()
            .map(|(seat, name)| PlayerLine {
                name: name.clone(),
                score: scores.get(seat).copied().unwrap_or(0),
                supply: game.players().get(seat).map_or(0, |p| p.supply),
                chips: game.chips().map(|c| c.hands.get(seat).map_or(0, Vec::len)),
                halves: game.halves().map(|h| h.hands.get(seat).map_or(0, Vec::len)),
                goods: game.traders().and_then(|t| {
                    let s = game.seat(seat)?;
                    Some(bastide_engine::Goods::ALL.map(|k| t.goods(s, k)))
                }),
                tower: game.tower().and_then(|t| {
                    let s = game.seat(seat)?;
                    let held = t.prisoners().iter().filter(|p| p.holder == s).count();
                    Some((t.floors(s), held))
                }),
            })
            .collect();
        Scene {
            catalog: game.catalog(),
            pieces: game.board().pieces(),
            followers: game.followers(),
            players,
            legal: draw::legal_cells(game),
            last: last_placed(game),
            figures: neutral_figures(game),
            map: MapScene::of_game(game),
            plague: PlagueScene::of_game(game),
            highlight: Vec::new(),
            barns: barn_marks(game),
            towers: towers_of(game),
        }
    }

    /// Highlights the feature at `place` of the tile in cell `pos` (and half
    /// `corner`): every piece holding a segment of it is outlined. Errors
    /// when no feature is there.
    pub fn highlight_feature(
        &mut self,
        game: &Game,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Result<(), RenderError> {
        let feature = game
            .feature_at(pos, corner, place)
            .ok_or_else(|| RenderError::NoFeature(format!("{place} of the tile at {pos}")))?;
        self.highlight = game.feature(feature).pieces();
        Ok(())
    }
}

/// The board of a game as SVG.
pub fn board_svg(game: &Game, opts: &BoardOptions) -> String {
    draw::board(&Scene::of_game(game), opts)
}

/// A scene as SVG.
pub fn scene_svg(scene: &Scene, opts: &BoardOptions) -> String {
    draw::board(scene, opts)
}

/// One tile by id, turned clockwise by `rotation`, as SVG.
pub fn tile_svg(catalog: &Catalog, id: &str, rotation: Rotation) -> Result<String, RenderError> {
    let t = catalog
        .find(id)
        .ok_or_else(|| RenderError::UnknownTile(id.to_string()))?;
    Ok(draw::tile(catalog, t, rotation, TILE_PX))
}

/// Where one place of a tile's picture holds a feature and where that
/// feature's follower stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    /// The cell of the tile (offset from its first cell, after rotation).
    pub cell: (i32, i32),
    /// The place, in board orientation (`N`, `NNE`, `C`, `H1`, …).
    pub place: String,
    /// The feature's index in the tile's catalog entry: places with the
    /// same index name the same feature.
    pub feature: u8,
    /// The feature's kind (`city`, `road`, `field`, `monastery`, `river`).
    pub kind: &'static str,
    /// Where its follower stands, in the picture's units.
    pub x: f64,
    /// Where its follower stands, in the picture's units.
    pub y: f64,
    /// Whether a follower there lies down (a farmer).
    pub lying: bool,
}

/// How [`tile_svg`]'s picture of a tile in one rotation is laid out: its
/// size, where its first cell's corner is, and its follower spots. All in
/// the picture's units ([`TILE_PX`] to a cell).
#[derive(Clone, Debug, PartialEq)]
pub struct TileLayout {
    /// The picture's width.
    pub width: f64,
    /// The picture's height.
    pub height: f64,
    /// The top-left corner of the tile's first cell (its board position).
    pub origin: (f64, f64),
    /// The size of one cell.
    pub cell: f64,
    /// The cells it covers, as offsets from the first.
    pub cells: Vec<(i32, i32)>,
    /// Every place that holds a feature.
    pub spots: Vec<Spot>,
}

/// The layout of [`tile_svg`]'s picture of a tile.
pub fn tile_layout(
    catalog: &Catalog,
    id: &str,
    rotation: Rotation,
) -> Result<TileLayout, RenderError> {
    let t = catalog
        .find(id)
        .ok_or_else(|| RenderError::UnknownTile(id.to_string()))?;
    Ok(draw::tile_layout(catalog, t, rotation))
}

/// One tile as [`tile_svg`] draws it, without the table behind it and, for
/// a half tile, without the hatched empty half: the pictures of
/// neighbouring tiles overlap by their margins when a client lays them out
/// on a board, and only the tile itself may cover the others (the client
/// hatches a half-filled cell under its tiles).
pub fn tile_svg_bare(
    catalog: &Catalog,
    id: &str,
    rotation: Rotation,
) -> Result<String, RenderError> {
    let mut svg = tile_svg(catalog, id, rotation)?;
    for start_tag in ["<rect class=\"table\"", "<polygon class=\"gap\""] {
        if let Some(start) = svg.find(start_tag) {
            if let Some(len) = svg[start..].find("/>") {
                svg.replace_range(start..start + len + 2, "");
            }
        }
    }
    Ok(svg)
}

/// A contact sheet of every tile kind of a set (of every set for `None`),
/// with ids and counts, as SVG.
pub fn catalog_svg(catalog: &Catalog, set: Option<&str>) -> Result<String, RenderError> {
    let names: Vec<&str> = match set {
        Some(name) => {
            if catalog.set(name).is_none() {
                return Err(RenderError::UnknownSet {
                    name: name.to_string(),
                    known: set_names(catalog),
                });
            }
            vec![name]
        }
        None => catalog.sets().iter().map(|s| s.name.as_str()).collect(),
    };
    Ok(draw::sheet(catalog, &names, TILE_PX))
}

fn set_names(catalog: &Catalog) -> String {
    catalog
        .sets()
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        Arc::new(db)
    })
    .clone()
}

/// Most pixels of a PNG: 100 million (10,000 × 10,000) is 400 MB of
/// pixmap, about the most a small shared machine can spare; the whole
/// catalog at zoom 5 fits, a real board at zoom 16 does too. Larger asks
/// fail before anything is allocated.
pub const MAX_PNG_PIXELS: f32 = 100_000_000.0;

/// Rasterises SVG text to PNG bytes, `zoom` times its nominal size.
/// Text uses the system's fonts (DejaVu Sans where installed); without any
/// font the picture is drawn without its labels.
pub fn svg_to_png(svg: &str, zoom: f32) -> Result<Vec<u8>, RenderError> {
    let opt = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = ((size.width() * zoom).ceil(), (size.height() * zoom).ceil());
    let too_big = || RenderError::Size {
        width: w as f64,
        height: h as f64,
    };
    if !(w >= 1.0 && h >= 1.0 && w * h <= MAX_PNG_PIXELS) {
        return Err(too_big());
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32).ok_or_else(too_big)?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(zoom, zoom),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}

/// The pixel size a picture's SVG declares (`width`, `height`).
pub fn svg_size(svg: &str) -> Result<(f32, f32), RenderError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    Ok((tree.size().width(), tree.size().height()))
}
