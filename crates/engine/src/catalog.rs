//! Tile catalogs: the readable data files in `catalog/`, embedded at build
//! time, parsed and checked when loaded.
//!
//! A catalog file lists the tiles of one set in their catalog orientation.
//! Each feature is one line of a tiny language (see `docs/catalog-format.md`):
//! `city N W arms`, `road S`, `field ENE SSW -> N`, `monastery`, `river W E`.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use thiserror::Error;

use crate::geometry::{Corner, Place, Rotation, Side, PLACE_COUNT};

/// The tags the rules read, by their fixed numbers (see [`Tag::known`]);
/// a catalog's other tags are scenery for the renderer and are numbered
/// after these. The catalog numbers them, not the expansions that read
/// them, so that the ground knows nothing of the rules above it: each
/// expansion names its own tags (`river::SOURCE`, `plague::SOURCE_TAG`, …)
/// and turns them into numbers with [`Tag::known`], which fails the build
/// for a name missing here.
pub const KNOWN_TAGS: &[&str] = &[
    "source",
    "lake",
    "fork",
    "volcano",
    "plague",
    "gingerbread",
    "inn",
    "cathedral",
    "wine",
    "grain",
    "cloth",
    "pigherd",
    "dragon",
    "portal",
    "princess",
    "tower",
];

/// Index of a tile kind in a [`Catalog`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileIdx(pub u16);

/// A tag of a tile or feature (`source`, `inn`, `garden`, …), resolved to a
/// number when the catalog loads so that the rules test a bit, never a
/// string. The tags the rules know ([`KNOWN_TAGS`]) have fixed numbers,
/// made at compile time by [`Tag::known`]; scenery tags that only the
/// renderer reads get the next numbers in order of appearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(u8);

impl Tag {
    /// The most tags one catalog may use (the width of a [`TagSet`]).
    pub const LIMIT: usize = 64;

    /// The fixed number of a tag the rules know. Used in constants, so a
    /// name missing from [`KNOWN_TAGS`] fails the build.
    pub const fn known(name: &str) -> Tag {
        let mut i = 0;
        while i < KNOWN_TAGS.len() {
            if str_eq(KNOWN_TAGS[i], name) {
                return Tag(i as u8);
            }
            i += 1;
        }
        panic!("not a known tag: add it to KNOWN_TAGS");
    }
}

/// Byte-wise string equality usable in constants.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A set of [`Tag`]s: one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TagSet(u64);

impl TagSet {
    /// Whether `tag` is in the set.
    pub fn contains(self, tag: Tag) -> bool {
        self.0 >> tag.0 & 1 == 1
    }

    /// Adds `tag`.
    pub fn insert(&mut self, tag: Tag) {
        self.0 |= 1 << tag.0;
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The tags in the set, by number.
    pub fn iter(self) -> impl Iterator<Item = Tag> {
        (0..Tag::LIMIT as u8)
            .filter(move |&i| self.0 >> i & 1 == 1)
            .map(Tag)
    }
}

/// The number of tag `name`, added to `names` if new.
fn intern_tag(names: &mut Vec<String>, name: &str) -> Result<Tag, String> {
    if let Some(i) = names.iter().position(|n| n == name) {
        return Ok(Tag(i as u8));
    }
    if names.len() >= Tag::LIMIT {
        return Err(format!(
            "tag {name:?}: a catalog may use at most {} distinct tags",
            Tag::LIMIT
        ));
    }
    names.push(name.to_string());
    Ok(Tag((names.len() - 1) as u8))
}

/// What a feature is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum FeatureKind {
    /// A field (farm).
    Field = 0,
    /// A city.
    City = 1,
    /// A road.
    Road = 2,
    /// A river: separates fields, never scored, never occupied.
    River = 3,
    /// A monastery (cloister).
    Monastery = 4,
}

impl FeatureKind {
    /// The word used in catalog files and JSON.
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Field => "field",
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::River => "river",
            FeatureKind::Monastery => "monastery",
        }
    }

    fn parse(word: &str) -> Option<FeatureKind> {
        Some(match word {
            "field" => FeatureKind::Field,
            "city" => FeatureKind::City,
            "road" => FeatureKind::Road,
            "river" => FeatureKind::River,
            "monastery" => FeatureKind::Monastery,
            _ => return None,
        })
    }

    /// Whether a follower may stand on this kind of feature.
    pub fn can_hold_follower(self) -> bool {
        self != FeatureKind::River
    }

    /// Two-bit code of the kind of a border place, used in edge profiles.
    fn edge_code(self) -> u8 {
        match self {
            FeatureKind::Field | FeatureKind::Monastery => 0,
            FeatureKind::City => 1,
            FeatureKind::Road => 2,
            FeatureKind::River => 3,
        }
    }
}

/// The footprint of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One full cell.
    Square,
    /// A right isosceles triangle: half a cell cut along a diagonal.
    Half,
    /// Two cells side by side (catalog orientation: east of the first).
    Double,
}

/// A feature printed on a tile, in catalog orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// Its kind.
    pub kind: FeatureKind,
    /// The places it touches: `(cell of the tile, place)`.
    pub places: Vec<(u8, Place)>,
    /// Coats of arms (pennants) on it.
    pub arms: u8,
    /// For a field: indexes (into the tile's features) of the cities it borders.
    pub cities: Vec<u8>,
    /// Scenery and tags that matter only to other expansions (`inn`, …).
    pub tags: TagSet,
}

/// The edge profile and features of one external side of a tile cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SideProfile {
    /// Whether the side exists (is a real side of the piece facing outwards).
    pub present: bool,
    /// The kinds of its three places, read west→east (north/south sides),
    /// north→south (east/west sides and the long side of a half), so that two
    /// touching sides match exactly when their codes are equal;
    /// [`SideProfile::ANY`] on a closing side, which matches every code.
    pub code: u8,
}

impl SideProfile {
    /// The code of a closing side (a tile with `closing_sides`): outside
    /// the six bits of the kinds' codes, it fits against any side.
    pub const ANY: u8 = 0x40;

    /// Whether two touching sides' codes fit: equal, or one of them closing.
    #[inline]
    pub fn fit(a: u8, b: u8) -> bool {
        a == b || a == SideProfile::ANY || b == SideProfile::ANY
    }
}

/// A tile turned by one rotation: everything the board needs, precomputed.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// Cell offsets from the tile's anchor cell.
    pub cells: Vec<(i32, i32)>,
    /// For each cell: the feature at each place (`NO_FEATURE` where none).
    pub place_feature: Vec<[u8; PLACE_COUNT]>,
    /// For each cell: the four cell sides.
    pub sides: Vec<[SideProfile; 4]>,
    /// For a half tile: its corner and its long side.
    pub half: Option<(Corner, SideProfile)>,
    /// For a single square: the four side codes packed one byte each (N
    /// lowest), for matching against a frontier cell in one compare.
    pub packed: u32,
    /// For each feature: the cell and place that name it (see
    /// [`Oriented::anchor_of`]).
    pub anchors: Vec<(u8, Place)>,
    /// For a single square of at most 16 features, each side's features
    /// (its three places clockwise) with repeats and absent sides as
    /// [`NO_FEATURE`]: what one side adds to or takes from open-edge counts,
    /// without a search for repeats at every placement.
    pub side_once: [[u8; 3]; 4],
    /// For a single square of at most 16 features: feature `f`'s open
    /// edges while no side touches anything (the present sides it lies
    /// on); `None` for other pieces, which count their sides one by one.
    pub open_init: Option<[u8; 16]>,
    /// For each cell and side: the features at the side's three places,
    /// clockwise (`place_feature` read along the side), so that joining a
    /// side reads one triple instead of three places.
    pub side_features: Vec<[[u8; 3]; 4]>,
    /// For each cell and side `s`: the features this piece shows to a
    /// piece whose side `s` touches it, in the order of that piece's places
    /// on `s` (this piece's places on the opposite side, each across from
    /// one of them).
    pub across: Vec<[[u8; 3]; 4]>,
}

impl Oriented {
    /// The canonical name of feature `f`: the centre for a monastery, else
    /// the first side middle it touches clockwise from north, else its first
    /// border place clockwise from NNW, else its inner place; the first cell
    /// that has one.
    fn anchor_of(&self, f: u8) -> (u8, Place) {
        const ORDER: [Place; PLACE_COUNT] = [
            Place::C,
            Place::N,
            Place::E,
            Place::S,
            Place::W,
            Place::H,
            Place::Nnw,
            Place::Nne,
            Place::Ene,
            Place::Ese,
            Place::Sse,
            Place::Ssw,
            Place::Wsw,
            Place::Wnw,
            Place::H1,
            Place::H2,
            Place::I1,
            Place::I2,
        ];
        for (k, cell) in self.place_feature.iter().enumerate() {
            for p in ORDER {
                if cell[p.index()] == f {
                    return (k as u8, p);
                }
            }
        }
        (0, Place::C)
    }
}

/// Marks a place that holds no feature.
pub const NO_FEATURE: u8 = u8::MAX;

/// A tile kind.
#[derive(Clone, Debug)]
pub struct TileDef {
    /// Full id, `set/letter`.
    pub id: String,
    /// Its set.
    pub set: String,
    /// Copies in the set.
    pub count: u8,
    /// Footprint.
    pub shape: Shape,
    /// Features in catalog orientation.
    pub features: Vec<FeatureDef>,
    /// Whether the shape is a documented reconstruction, not a printed fact.
    pub reconstructed: bool,
    /// Free-text description.
    pub note: String,
    /// Tile-level tags (`source`, `lake`, `fork`, `volcano`, `plague`, …).
    pub tags: TagSet,
    oriented: [Oriented; 4],
    /// Index of its monastery feature, if it has one.
    pub monastery: Option<u8>,
    /// Whether a river runs on it.
    pub is_river: bool,
    /// Whether its sides show no feature, fit against any side and end
    /// whatever touches them (Abbey & Mayor's abbey): such a tile continues
    /// no road, city or field, so the features it completes are its
    /// neighbours'.
    pub closing_sides: bool,
    /// Bit `i` set: feature `i` (of the first 64) is a road or a city, the
    /// kinds a placement completes besides monasteries.
    pub(crate) roads_cities: u64,
}

impl TileDef {
    /// The tile turned by `r`.
    pub fn oriented(&self, r: Rotation) -> &Oriented {
        &self.oriented[r.quarters() as usize]
    }

    /// Whether the tile carries `tag`.
    pub fn has_tag(&self, tag: Tag) -> bool {
        self.tags.contains(tag)
    }

    /// Number of cells it covers.
    pub fn cell_count(&self) -> usize {
        self.oriented[0].cells.len()
    }
}

/// One tile set: which tiles, how many, which starts.
#[derive(Clone, Debug)]
pub struct TileSet {
    /// Set id (`base`, `winter`, `river1`, …).
    pub name: String,
    /// Human title.
    pub title: String,
    /// The start tile, if the set has one.
    pub start: Option<TileIdx>,
    /// Tiles of the set with their counts (start tile's copy included).
    pub tiles: Vec<TileIdx>,
}

/// Every tile kind of every loaded set.
#[derive(Clone, Debug)]
pub struct Catalog {
    tiles: Vec<TileDef>,
    sets: Vec<TileSet>,
    by_id: BTreeMap<String, TileIdx>,
    tag_names: Vec<String>,
}

/// A catalog file that does not make sense, naming the file, the tile and the
/// problem.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("catalog {file}: {tile}: {problem}")]
pub struct CatalogError {
    /// The catalog file.
    pub file: String,
    /// The tile (or `-` for the file as a whole).
    pub tile: String,
    /// What is wrong and how to fix it.
    pub problem: String,
}

/// The catalog files built into the binary.
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    ("base.toml", include_str!("../catalog/base.toml")),
    ("winter.toml", include_str!("../catalog/winter.toml")),
    ("river1.toml", include_str!("../catalog/river1.toml")),
    ("river2.toml", include_str!("../catalog/river2.toml")),
    ("river20.toml", include_str!("../catalog/river20.toml")),
    (
        "cutcassonne.toml",
        include_str!("../catalog/cutcassonne.toml"),
    ),
    (
        "gingerbread.toml",
        include_str!("../catalog/gingerbread.toml"),
    ),
    ("halfsies1.toml", include_str!("../catalog/halfsies1.toml")),
    ("halfsies2.toml", include_str!("../catalog/halfsies2.toml")),
    ("plague.toml", include_str!("../catalog/plague.toml")),
    (
        "inns-cathedrals.toml",
        include_str!("../catalog/inns-cathedrals.toml"),
    ),
    (
        "traders-builders.toml",
        include_str!("../catalog/traders-builders.toml"),
    ),
    (
        "princess-dragon.toml",
        include_str!("../catalog/princess-dragon.toml"),
    ),
    (
        "abbey-mayor.toml",
        include_str!("../catalog/abbey-mayor.toml"),
    ),
    ("tower.toml", include_str!("../catalog/tower.toml")),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    set: String,
    title: String,
    total: usize,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    include: Option<String>,
    #[serde(default)]
    reconstructed: bool,
    #[serde(default, rename = "tile")]
    tiles: Vec<TileSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileSpec {
    id: String,
    count: u8,
    #[serde(default)]
    shape: Option<String>,
    #[serde(default)]
    edges: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    reconstructed: Option<bool>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    closing_sides: bool,
    features: Vec<String>,
}

impl Catalog {
    /// The built-in catalog, parsed once and shared.
    pub fn builtin() -> Arc<Catalog> {
        static BUILTIN: OnceLock<Arc<Catalog>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                // The built-in files are checked by the test suite, so a failure
                // here is a build defect, not bad user input.
                Arc::new(Catalog::from_files(BUILTIN_FILES).unwrap_or_else(|e| {
                    panic!("built-in tile catalog is invalid: {e}");
                }))
            })
            .clone()
    }

    /// Parses and checks catalog files (name, text), in order; a file may
    /// include a set defined by an earlier file.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Catalog, CatalogError> {
        let mut cat = Catalog {
            tiles: Vec::new(),
            sets: Vec::new(),
            by_id: BTreeMap::new(),
            tag_names: KNOWN_TAGS.iter().map(|t| t.to_string()).collect(),
        };
        for (name, text) in files {
            cat.add_file(name, text)?;
        }
        Ok(cat)
    }

    fn add_file(&mut self, file: &str, text: &str) -> Result<(), CatalogError> {
        let err = |tile: &str, problem: String| CatalogError {
            file: file.to_string(),
            tile: tile.to_string(),
            problem,
        };
        let spec: FileSpec = toml::from_str(text).map_err(|e| err("-", e.to_string()))?;
        if self.set(&spec.set).is_some() {
            return Err(err("-", format!("set {:?} is defined twice", spec.set)));
        }
        let mut members = Vec::new();
        if let Some(inc) = &spec.include {
            let included = self
                .set(inc)
                .ok_or_else(|| err("-", format!("includes unknown set {inc:?}; list it first")))?
                .clone();
            for idx in included.tiles {
                let mut def = self.tiles[idx.0 as usize].clone();
                let letter = def.id.split('/').nth(1).unwrap_or_default().to_string();
                def.id = format!("{}/{}", spec.set, letter);
                def.set = spec.set.clone();
                members.push(self.push_tile(def).map_err(|p| err(&letter, p))?);
            }
        }
        for t in &spec.tiles {
            let def = build_tile(&spec, t, &mut self.tag_names).map_err(|p| err(&t.id, p))?;
            members.push(self.push_tile(def).map_err(|p| err(&t.id, p))?);
        }
        let total: usize = members
            .iter()
            .map(|i| self.tiles[i.0 as usize].count as usize)
            .sum();
        if total != spec.total {
            return Err(err(
                "-",
                format!(
                    "tile counts add up to {total}, but the file says total = {}",
                    spec.total
                ),
            ));
        }
        let start = match &spec.start {
            None => None,
            Some(s) => Some(
                *self
                    .by_id
                    .get(&format!("{}/{s}", spec.set))
                    .ok_or_else(|| err("-", format!("start tile {s:?} is not in the set")))?,
            ),
        };
        self.sets.push(TileSet {
            name: spec.set,
            title: spec.title,
            start,
            tiles: members,
        });
        Ok(())
    }

    fn push_tile(&mut self, def: TileDef) -> Result<TileIdx, String> {
        if self.by_id.contains_key(&def.id) {
            return Err(format!("tile id {} is used twice", def.id));
        }
        let idx = TileIdx(self.tiles.len() as u16);
        self.by_id.insert(def.id.clone(), idx);
        self.tiles.push(def);
        Ok(idx)
    }

    /// The tile kind with index `idx`.
    pub fn tile(&self, idx: TileIdx) -> &TileDef {
        &self.tiles[idx.0 as usize]
    }

    /// Every tile kind.
    pub fn tiles(&self) -> &[TileDef] {
        &self.tiles
    }

    /// Looks a tile up by its full id (`base/D`).
    pub fn find(&self, id: &str) -> Option<TileIdx> {
        self.by_id.get(id).copied()
    }

    /// Looks a set up by name.
    pub fn set(&self, name: &str) -> Option<&TileSet> {
        self.sets.iter().find(|s| s.name == name)
    }

    /// Every set.
    pub fn sets(&self) -> &[TileSet] {
        &self.sets
    }

    /// The tag called `name`, if any tile or feature of the catalog (or the
    /// rules) uses it.
    pub fn tag(&self, name: &str) -> Option<Tag> {
        self.tag_names
            .iter()
            .position(|n| n == name)
            .map(|i| Tag(i as u8))
    }

    /// The name of `tag`.
    pub fn tag_name(&self, tag: Tag) -> &str {
        self.tag_names
            .get(tag.0 as usize)
            .map_or("", String::as_str)
    }

    /// The names of the tags in `tags`, sorted.
    pub fn tag_names(&self, tags: TagSet) -> Vec<&str> {
        let mut v: Vec<&str> = tags.iter().map(|t| self.tag_name(t)).collect();
        v.sort_unstable();
        v
    }
}

fn build_tile(file: &FileSpec, t: &TileSpec, names: &mut Vec<String>) -> Result<TileDef, String> {
    if t.id.is_empty() || t.id.contains('/') || t.id.contains(char::is_whitespace) {
        return Err("a tile id must be a non-empty word without '/'".into());
    }
    if t.count == 0 {
        return Err("count must be at least 1".into());
    }
    let shape = match t.shape.as_deref().unwrap_or("square") {
        "square" => Shape::Square,
        "half" => Shape::Half,
        "double" => Shape::Double,
        other => {
            return Err(format!(
                "unknown shape {other:?}: use square, half or double"
            ))
        }
    };
    let mut features = Vec::new();
    let mut pending_cities = Vec::new();
    for line in &t.features {
        let (f, cities) = parse_feature(line, shape, names)?;
        features.push(f);
        pending_cities.push(cities);
    }
    // Resolve "-> N" references now that every feature is known.
    for (i, refs) in pending_cities.into_iter().enumerate() {
        for (cell, place) in refs {
            let target = features
                .iter()
                .position(|f| f.places.contains(&(cell, place)))
                .ok_or_else(|| {
                    format!(
                        "feature {:?} names a city at {place}, but no feature is there",
                        t.features[i]
                    )
                })?;
            if features[target].kind != FeatureKind::City {
                return Err(format!(
                    "feature {:?} names {place} as a city, but a {} is there",
                    t.features[i],
                    features[target].kind.name()
                ));
            }
            if features[i].kind != FeatureKind::Field {
                return Err(format!(
                    "only a field can border cities: {:?}",
                    t.features[i]
                ));
            }
            if !features[i].cities.contains(&(target as u8)) {
                features[i].cities.push(target as u8);
            }
        }
    }
    if t.closing_sides {
        check_closing(shape, &features)?;
    } else {
        check_coverage(shape, &features)?;
    }
    let oriented = [0u8, 1, 2, 3].map(|q| {
        let mut o = orient(
            shape,
            &features,
            Rotation::from_quarters(q),
            t.closing_sides,
        );
        o.anchors = (0..features.len() as u8).map(|f| o.anchor_of(f)).collect();
        o
    });
    if let Some(edges) = &t.edges {
        let want: Vec<char> = edges.chars().collect();
        if shape != Shape::Square || want.len() != 4 {
            return Err("edges must be four letters (N E S W) on a square tile".into());
        }
        for side in Side::ALL {
            let mid = oriented[0].place_feature[0][side.middle().index()];
            let kind = features[mid as usize].kind;
            let letter = match kind {
                FeatureKind::City => 'C',
                FeatureKind::Road => 'R',
                FeatureKind::River => 'I',
                _ => 'F',
            };
            if want[side.index()] != letter {
                return Err(format!(
                    "edges says {} on side {}, but the features put a {} there",
                    want[side.index()],
                    side.name(),
                    kind.name()
                ));
            }
        }
    }
    let mut tags = TagSet::default();
    for name in &t.tags {
        tags.insert(intern_tag(names, name)?);
    }
    let is_river = features.iter().any(|f| f.kind == FeatureKind::River);
    let monastery = features
        .iter()
        .position(|f| f.kind == FeatureKind::Monastery)
        .map(|i| i as u8);
    let roads_cities = features
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, f)| matches!(f.kind, FeatureKind::Road | FeatureKind::City))
        .fold(0u64, |m, (i, _)| m | 1 << i);
    Ok(TileDef {
        id: format!("{}/{}", file.set, t.id),
        set: file.set.clone(),
        count: t.count,
        shape,
        features,
        reconstructed: t.reconstructed.unwrap_or(file.reconstructed),
        note: t.note.clone().unwrap_or_default(),
        tags,
        oriented,
        monastery,
        is_river,
        closing_sides: t.closing_sides,
        roads_cities,
    })
}

/// A tile with closing sides is a square whose features touch no side:
/// its border places stay empty, so nothing on it continues across.
fn check_closing(shape: Shape, features: &[FeatureDef]) -> Result<(), String> {
    if shape != Shape::Square {
        return Err("closing_sides: only a square tile may have closing sides".into());
    }
    match features
        .iter()
        .find(|f| f.places.iter().any(|(_, p)| *p != Place::C))
    {
        Some(f) => Err(format!(
            "closing_sides: its sides show no feature, but a {} touches one",
            f.kind.name()
        )),
        None => Ok(()),
    }
}

/// Parses one feature line; returns the feature and its unresolved city refs.
fn parse_feature(
    line: &str,
    shape: Shape,
    names: &mut Vec<String>,
) -> Result<(FeatureDef, Vec<(u8, Place)>), String> {
    let mut words = line.split_whitespace();
    let kind_word = words.next().ok_or("empty feature line")?;
    let kind = FeatureKind::parse(kind_word).ok_or_else(|| {
        format!("unknown feature kind {kind_word:?} in {line:?}: use city, road, field, monastery or river")
    })?;
    let mut f = FeatureDef {
        kind,
        places: Vec::new(),
        arms: 0,
        cities: Vec::new(),
        tags: TagSet::default(),
    };
    let mut refs = Vec::new();
    let mut after_arrow = false;
    for w in words {
        if w == "->" {
            after_arrow = true;
            continue;
        }
        if w == "arms" {
            f.arms += 1;
            continue;
        }
        let (cell, name) = match w.split_once(':') {
            Some((c, n)) => (
                c.parse::<u8>()
                    .map_err(|_| format!("bad cell number in {w:?} ({line:?})"))?,
                n,
            ),
            None => (0, w),
        };
        let is_place = name.parse::<Place>().is_ok();
        if !is_place {
            if after_arrow || w.contains(':') {
                return Err(format!("unknown place {w:?} in {line:?}"));
            }
            if w.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                f.tags.insert(intern_tag(names, w)?);
                continue;
            }
            return Err(format!("unknown place or tag {w:?} in {line:?}"));
        }
        let max_cell = if shape == Shape::Double { 1 } else { 0 };
        if cell > max_cell {
            return Err(format!(
                "cell {cell} in {line:?}: the tile has no such cell"
            ));
        }
        let places = expand_places(kind, name, after_arrow);
        if after_arrow {
            refs.push((cell, places[0]));
        } else {
            for p in places {
                if f.places.contains(&(cell, p)) {
                    return Err(format!("{line:?} lists {p} twice"));
                }
                f.places.push((cell, p));
            }
        }
    }
    if kind == FeatureKind::Monastery {
        if !f.places.is_empty() {
            return Err(format!(
                "a monastery lies in the centre and names no places: {line:?}"
            ));
        }
        f.places.push((0, Place::C));
    } else if f.places.is_empty() {
        return Err(format!("{line:?} names no places"));
    }
    if f.arms > 0 && kind != FeatureKind::City {
        return Err(format!("only a city can have a coat of arms: {line:?}"));
    }
    Ok((f, refs))
}

/// A side letter stands for the whole side in a city or field, and for the
/// side's middle in a road or river.
fn expand_places(kind: FeatureKind, name: &str, reference: bool) -> Vec<Place> {
    let place: Place = name.parse().unwrap_or(Place::C);
    let side = match name {
        "N" => Some(Side::N),
        "E" => Some(Side::E),
        "S" => Some(Side::S),
        "W" => Some(Side::W),
        _ => None,
    };
    match side {
        Some(s) if !reference && matches!(kind, FeatureKind::City | FeatureKind::Field) => {
            s.places().to_vec()
        }
        _ => vec![place],
    }
}

/// The border places a cell of this shape exposes (catalog orientation).
fn shape_places(shape: Shape, cell: u8) -> Vec<Place> {
    let sides: Vec<Side> = match (shape, cell) {
        (Shape::Square, _) => Side::ALL.to_vec(),
        (Shape::Half, _) => vec![Side::W, Side::S],
        (Shape::Double, 0) => vec![Side::N, Side::S, Side::W],
        (Shape::Double, _) => vec![Side::N, Side::E, Side::S],
    };
    let mut v: Vec<Place> = sides.iter().flat_map(|s| s.places()).collect();
    if shape == Shape::Half {
        v.extend([Place::H1, Place::H, Place::H2]);
    }
    v
}

fn check_coverage(shape: Shape, features: &[FeatureDef]) -> Result<(), String> {
    let cells = if shape == Shape::Double { 2 } else { 1 };
    for cell in 0..cells {
        let allowed = shape_places(shape, cell);
        for p in &allowed {
            let owners: Vec<&FeatureDef> = features
                .iter()
                .filter(|f| f.places.contains(&(cell, *p)))
                .collect();
            match owners.len() {
                1 => {}
                0 => {
                    return Err(format!(
                        "border place {p} of cell {cell} belongs to no feature; every border place needs exactly one"
                    ))
                }
                _ => {
                    return Err(format!(
                        "border place {p} of cell {cell} belongs to {} features; it needs exactly one",
                        owners.len()
                    ))
                }
            }
        }
        for f in features {
            for (c, p) in &f.places {
                let inner_ok = p.is_inner() && shape != Shape::Half;
                if *c == cell && *p != Place::C && !inner_ok && !allowed.contains(p) {
                    return Err(format!(
                        "{} names {p}, which is not a border place of this {} tile",
                        f.kind.name(),
                        match shape {
                            Shape::Square => "square",
                            Shape::Half => "half",
                            Shape::Double => "double-size",
                        }
                    ));
                }
            }
        }
    }
    check_inner(features)?;
    // Roads and rivers meet a side in its middle; cities own whole sides.
    for f in features {
        for (_, p) in &f.places {
            let mid = matches!(p, Place::N | Place::E | Place::S | Place::W | Place::H);
            match f.kind {
                FeatureKind::Road | FeatureKind::River if !mid => {
                    return Err(format!(
                        "a {} meets a side in its middle, not at {p}",
                        f.kind.name()
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// An inner place (`I1`, `I2`) names a field that touches no side: it is
/// the field's only place, no two fields share one, and `I2` comes only
/// with `I1`.
fn check_inner(features: &[FeatureDef]) -> Result<(), String> {
    let mut used = [0u8; 2];
    for f in features {
        let inner = f.places.iter().filter(|(_, p)| p.is_inner()).count();
        if inner == 0 {
            continue;
        }
        if f.kind != FeatureKind::Field || f.places.len() != 1 {
            return Err(format!(
                "an inner place (I1, I2) is a field's only place; this {} names {} place(s)",
                f.kind.name(),
                f.places.len()
            ));
        }
        let k = usize::from(f.places[0].1 == Place::I2);
        used[k] += 1;
    }
    match used {
        [0 | 1, 0] | [1, 1] => Ok(()),
        [_, 1] if used[0] == 0 => {
            Err("I2 names the second inner field, but no field is at I1".into())
        }
        _ => Err("an inner place (I1, I2) belongs to one field only".into()),
    }
}

fn read_code(kinds: [u8; 3], reversed: bool) -> u8 {
    let k = if reversed {
        [kinds[2], kinds[1], kinds[0]]
    } else {
        kinds
    };
    k[0] | (k[1] << 2) | (k[2] << 4)
}

fn orient(shape: Shape, features: &[FeatureDef], r: Rotation, closing: bool) -> Oriented {
    let ncells = if shape == Shape::Double { 2 } else { 1 };
    let mut cells = vec![(0, 0)];
    if ncells == 2 {
        cells.push(r.rotate_offset(1, 0));
    }
    let mut place_feature = vec![[NO_FEATURE; PLACE_COUNT]; ncells];
    for (fi, f) in features.iter().enumerate() {
        for (cell, p) in &f.places {
            place_feature[*cell as usize][p.rotate(r).index()] = fi as u8;
        }
    }
    let mut sides = vec![[SideProfile::default(); 4]; ncells];
    for (c, cell_sides) in sides.iter_mut().enumerate() {
        for side in Side::ALL {
            let places = side.places();
            let fs = places.map(|p| place_feature[c][p.index()]);
            if closing {
                // Present, so that what touches it is joined (and ended)
                // there, with no feature of its own.
                cell_sides[side.index()] = SideProfile {
                    present: true,
                    code: SideProfile::ANY,
                };
                continue;
            }
            if fs.contains(&NO_FEATURE) {
                continue;
            }
            let kinds = fs.map(|f| features[f as usize].kind.edge_code());
            // Clockwise order runs west→east on N, north→south on E, and the
            // other way on S and W: read those two backwards.
            let reversed = matches!(side, Side::S | Side::W);
            cell_sides[side.index()] = SideProfile {
                present: true,
                code: read_code(kinds, reversed),
            };
        }
    }
    let half = (shape == Shape::Half).then(|| {
        let corner = Corner::of_half(r);
        let fs = [Place::H1, Place::H, Place::H2].map(|p| place_feature[0][p.index()]);
        let kinds = fs.map(|f| features[f as usize].kind.edge_code());
        // H1 lies at the north end of the diagonal for rotations 0 and 90.
        let reversed = r.quarters() >= 2;
        (
            corner,
            SideProfile {
                present: true,
                code: read_code(kinds, reversed),
            },
        )
    });
    let packed = if shape == Shape::Square {
        sides[0]
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, s)| acc | (s.code as u32) << (8 * i))
    } else {
        0
    };
    let mut side_once = [[NO_FEATURE; 3]; 4];
    let mut open_init = (shape == Shape::Square && features.len() <= 16).then_some([0u8; 16]);
    for side in Side::ALL {
        if !sides[0][side.index()].present {
            continue;
        }
        let once = &mut side_once[side.index()];
        for (i, p) in side.places().iter().enumerate() {
            let f = place_feature[0][p.index()];
            if f != NO_FEATURE && !once[..i].contains(&f) {
                once[i] = f;
                if let Some(n) = open_init.as_mut().and_then(|o| o.get_mut(f as usize)) {
                    *n += 1;
                }
            }
        }
    }
    let side_features = place_feature
        .iter()
        .map(|pf| Side::ALL.map(|s| s.places().map(|p| pf[p.index()])))
        .collect();
    let across = place_feature
        .iter()
        .map(|pf| {
            Side::ALL.map(|s| {
                s.places()
                    .map(|p| p.facing().map_or(NO_FEATURE, |f| pf[f.index()]))
            })
        })
        .collect();
    Oriented {
        cells,
        place_feature,
        sides,
        half,
        packed,
        anchors: Vec::new(),
        side_once,
        open_init,
        side_features,
        across,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_in(cat: &Catalog, set: &str) -> usize {
        cat.set(set)
            .unwrap()
            .tiles
            .iter()
            .map(|i| cat.tile(*i).count as usize)
            .sum()
    }

    #[test]
    fn base_has_72_tiles_10_arms_6_monasteries() {
        let cat = Catalog::builtin();
        assert_eq!(count_in(&cat, "base"), 72);
        let set = cat.set("base").unwrap();
        let mut arms = 0;
        let mut monasteries = 0;
        for i in &set.tiles {
            let t = cat.tile(*i);
            arms += t.count as usize * t.features.iter().map(|f| f.arms as usize).sum::<usize>();
            monasteries += t.count as usize
                * t.features
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Monastery)
                    .count();
        }
        assert_eq!(arms, 10);
        assert_eq!(monasteries, 6);
        assert_eq!(cat.tile(set.start.unwrap()).id, "base/D");
        assert_eq!(set.tiles.len(), 24);
    }

    #[test]
    fn winter_has_84_tiles_with_the_base_letters() {
        let cat = Catalog::builtin();
        assert_eq!(count_in(&cat, "winter"), 84);
        for letter in 'A'..='X' {
            let b = cat.tile(cat.find(&format!("base/{letter}")).unwrap());
            let w = cat.tile(cat.find(&format!("winter/{letter}")).unwrap());
            assert_eq!(b.features, w.features);
            assert_eq!(b.count, w.count);
        }
        assert_eq!(
            cat.tile(cat.set("winter").unwrap().start.unwrap()).id,
            "winter/D"
        );
    }

    #[test]
    fn edge_codes_match_across_a_shared_side() {
        let cat = Catalog::builtin();
        let d = cat.tile(cat.find("base/D").unwrap());
        let u = cat.tile(cat.find("base/U").unwrap());
        // D's east side (road) against U's west side (road): equal codes.
        let d0 = d.oriented(Rotation::from_quarters(0));
        let u0 = u.oriented(Rotation::from_quarters(0));
        assert_eq!(
            d0.sides[0][Side::E.index()].code,
            u0.sides[0][Side::W.index()].code
        );
        // D's north side (city) against U's south side (field): different.
        assert_ne!(
            d0.sides[0][Side::N.index()].code,
            u0.sides[0][Side::S.index()].code
        );
        // An asymmetric side: K's field/road... J turned 90 has its road on S and W.
        let j = cat.tile(cat.find("base/J").unwrap());
        let j1 = j.oriented(Rotation::from_quarters(1));
        assert_eq!(
            j1.place_feature[0][Place::E.index()],
            0,
            "city moved from N to E"
        );
    }

    fn load(text: &str) -> Result<Catalog, CatalogError> {
        Catalog::from_files(&[("test.toml", text)])
    }

    #[test]
    fn bad_catalogs_name_the_tile_and_the_problem() {
        let missing =
            "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=['city N']\n";
        let e = load(missing).unwrap_err();
        assert_eq!(e.tile, "A");
        assert!(e.problem.contains("belongs to no feature"), "{e}");

        let twice = "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=['city N E S W', 'field N']\n";
        assert!(load(twice).unwrap_err().problem.contains("2 features"));

        let bad_ref = "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=['road W E', 'field WNW N ENE -> S', 'field ESE S WSW']\n";
        assert!(load(bad_ref).unwrap_err().problem.contains("as a city"));

        let bad_total =
            "set='t'\ntitle='t'\ntotal=2\n[[tile]]\nid='A'\ncount=1\nfeatures=['field N E S W']\n";
        assert!(load(bad_total).unwrap_err().problem.contains("add up to 1"));

        let bad_edges = "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nedges='CFFF'\nfeatures=['field N E S W']\n";
        assert!(load(bad_edges)
            .unwrap_err()
            .problem
            .contains("edges says C"));

        let bad_kind =
            "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=['castle N E S W']\n";
        assert!(load(bad_kind)
            .unwrap_err()
            .problem
            .contains("unknown feature kind"));

        let road_side = "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=['road NNW', 'field N E S W']\n";
        assert!(load(road_side).is_err());
    }

    #[test]
    fn tags_are_bits_numbered_once() {
        let text = "set='t'\ntitle='t'\ntotal=2\n[[tile]]\nid='A'\ncount=1\ntags=['garden', 'lake']\nfeatures=['road W E inn', 'field N ENE WNW', 'field S ESE WSW']\n[[tile]]\nid='B'\ncount=1\ntags=['garden']\nfeatures=['field N E S W']\n";
        let cat = load(text).expect("loads");
        let a = cat.tile(cat.find("t/A").expect("A"));
        let b = cat.tile(cat.find("t/B").expect("B"));
        // The rules' tags keep their fixed numbers whatever the file says.
        assert_eq!(cat.tag("lake"), Some(Tag::known("lake")));
        assert!(a.has_tag(Tag::known("lake")));
        assert!(!b.has_tag(Tag::known("lake")));
        assert!(a.features[0].tags.contains(Tag::known("inn")));
        assert!(!a.features[1].tags.contains(Tag::known("inn")));
        // A scenery tag gets one number, shared by every tile that uses it.
        let garden = cat.tag("garden").expect("garden is numbered");
        assert!(garden > Tag::known(KNOWN_TAGS[KNOWN_TAGS.len() - 1]));
        assert!(a.has_tag(garden) && b.has_tag(garden));
        assert_eq!(cat.tag_name(garden), "garden");
        assert_eq!(cat.tag_names(a.tags), ["garden", "lake"]);
        assert_eq!(cat.tag("robbers"), None);

        // More distinct tags than a set holds is refused, naming the tag.
        let many: Vec<String> = (0..Tag::LIMIT)
            .map(|i| format!("'t{}'", "x".repeat(i)))
            .collect();
        let text = format!(
            "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\ntags=[{}]\nfeatures=['field N E S W']\n",
            many.join(", ")
        );
        let e = load(&text).unwrap_err();
        assert!(e.problem.contains("at most 64 distinct tags"), "{e}");
    }

    #[test]
    fn inner_fields_touch_no_side_and_keep_their_place() {
        let tile = |features: &str| {
            format!(
                "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='A'\ncount=1\nfeatures=[{features}]\n"
            )
        };
        let cat = load(&tile("'city N W', 'city E S', 'field I1 -> N S'")).expect("loads");
        let a = cat.tile(cat.find("t/A").expect("A"));
        assert_eq!(a.features[2].cities, vec![0, 1]);
        for r in Rotation::ALL {
            let o = a.oriented(r);
            assert_eq!(o.place_feature[0][Place::I1.index()], 2);
            assert_eq!(o.anchors[2], (0, Place::I1));
            // Touching no side, it has no open edge to close.
            assert_eq!(o.open_init.map(|n| n[2]), Some(0));
        }
        for (bad, why) in [
            ("'city N W', 'city E S', 'road I1'", "only place"),
            ("'city N W', 'field E S I1'", "only place"),
            (
                "'city N W', 'city E S', 'field I2 -> N'",
                "no field is at I1",
            ),
            (
                "'city N W', 'city E S', 'field I1', 'field I1'",
                "one field only",
            ),
        ] {
            let e = load(&tile(bad)).unwrap_err();
            assert!(e.problem.contains(why), "{bad}: {e}");
        }
        let half = "set='t'\ntitle='t'\ntotal=1\n[[tile]]\nid='H'\ncount=1\nshape='half'\nfeatures=['city W S', 'field H1 H H2', 'field I1']\n";
        assert!(load(half)
            .unwrap_err()
            .problem
            .contains("not a border place"));
    }

    #[test]
    fn half_and_double_tiles_load() {
        let text = r#"
set = "t"
title = "test"
total = 2
[[tile]]
id = "H"
count = 1
shape = "half"
features = ["road W H", "field WNW H1 -> S", "field WSW SSW SSE H2", "city S"]
[[tile]]
id = "Q"
count = 1
shape = "double"
features = ["river 0:W 1:E", "field 0:WNW 0:N 1:N 1:ENE", "field 0:WSW 0:S 1:S 1:ESE"]
"#;
        let e = load(text).unwrap_err();
        // City S overlaps the field's SSE/SSW: caught.
        assert!(e.problem.contains("2 features"), "{e}");
        let fixed = text.replace(
            "\"field WSW SSW SSE H2\", \"city S\"",
            "\"field WSW H2 -> S\", \"city S\"",
        );
        let cat = load(&fixed).unwrap();
        let h = cat.tile(cat.find("t/H").unwrap());
        assert_eq!(h.shape, Shape::Half);
        let o = h.oriented(Rotation::from_quarters(1));
        assert_eq!(o.half.unwrap().0, Corner::NW);
        // Road on W moves to N after a quarter turn.
        assert_eq!(o.place_feature[0][Place::N.index()], 0);
        let q = cat.tile(cat.find("t/Q").unwrap());
        assert_eq!(
            q.oriented(Rotation::from_quarters(1)).cells,
            vec![(0, 0), (0, 1)]
        );
        assert_eq!(
            q.oriented(Rotation::from_quarters(3)).cells,
            vec![(0, 0), (0, -1)]
        );
        // Cell 1's west side is internal: not present.
        assert!(!q.oriented(Rotation::from_quarters(0)).sides[1][Side::W.index()].present);
        assert!(q.oriented(Rotation::from_quarters(0)).sides[1][Side::E.index()].present);
    }
}
