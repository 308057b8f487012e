//! Features as the other crates see them: a [`FeatureRef`] names one, and a
//! [`FeatureView`] reads it, so the union-find behind them ([`crate::features`])
//! stays private and free to change.

use crate::catalog::FeatureKind;
use crate::features::NodeId;
use crate::game::{Follower, Game};
use crate::geometry::{Corner, Place, Pos};

/// A feature on the board, named by one of its segments (a feature printed
/// on one placed piece). The feature it names grows as tiles join it, so
/// two refs may name the same feature: compare [`FeatureView::id`]s, which
/// are the same for every segment of a feature at one moment of a game.
/// A ref belongs to the game that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureRef(pub(crate) NodeId);

/// What a game can tell of one feature now (made by [`Game::feature`]).
#[derive(Clone, Copy)]
pub struct FeatureView<'a> {
    game: &'a Game,
    root: NodeId,
}

impl Game {
    /// The feature `r` names, as it is now.
    ///
    /// # Panics
    /// If `r` was made by another game with more segments on its board.
    #[inline]
    pub fn feature(&self, r: FeatureRef) -> FeatureView<'_> {
        FeatureView {
            game: self,
            root: self.board.features().root(r.0),
        }
    }

    /// The feature printed as feature number `feature` of placed piece
    /// `piece` (as a [`Follower`] names its place).
    ///
    /// # Panics
    /// If no piece `piece` is on the board.
    #[inline]
    pub fn feature_of(&self, piece: u16, feature: u8) -> FeatureRef {
        FeatureRef(self.node(piece, feature))
    }

    /// The segment `r` itself names: (piece, feature number on the piece).
    ///
    /// # Panics
    /// As [`Game::feature`].
    pub fn segment(&self, r: FeatureRef) -> (u16, u8) {
        self.board.features().origin(r.0)
    }

    /// The feature a follower stands on.
    #[inline]
    pub fn follower_feature(&self, f: &Follower) -> FeatureRef {
        self.feature_of(f.piece, f.feature)
    }

    /// The feature at `place` of the tile in cell `pos` (`corner` picks the
    /// half of a half-filled cell); `None` if no tile is there or nothing
    /// is printed at that place.
    pub fn feature_at(&self, pos: Pos, corner: Option<Corner>, place: Place) -> Option<FeatureRef> {
        self.board
            .node_at(self.catalog(), pos, corner, place)
            .map(FeatureRef)
    }
}

impl<'a> FeatureView<'a> {
    /// The feature's identity now: the same for every segment of it, and
    /// changed only when it joins another.
    #[inline]
    pub fn id(&self) -> FeatureRef {
        FeatureRef(self.root)
    }

    /// Its kind.
    #[inline]
    pub fn kind(&self) -> FeatureKind {
        self.game.board.features().kind(self.root)
    }

    /// Edges still open (a road's open ends, a city's open sides); zero when
    /// it is complete. Fields and rivers keep theirs open.
    #[inline]
    pub fn open_edges(&self) -> u16 {
        self.game.board.features().open(self.root)
    }

    /// Whether it is finished (no open edge).
    #[inline]
    pub fn is_complete(&self) -> bool {
        self.open_edges() == 0
    }

    /// Its segments: (piece, feature number on the piece), each once.
    pub fn segments(&self) -> impl Iterator<Item = (u16, u8)> + 'a {
        let feats = self.game.board.features();
        feats.members(self.root).map(move |m| feats.origin(m))
    }

    /// The placed pieces it covers, in placement order, each once.
    pub fn pieces(&self) -> Vec<u16> {
        let mut pieces: Vec<u16> = self.segments().map(|(pi, _)| pi).collect();
        pieces.sort_unstable();
        pieces.dedup();
        pieces
    }

    /// The cities bordering it (for a field), as refs of their segments:
    /// one for each segment of the field and each city it borders there,
    /// so a city may come more than once.
    pub fn bordering_cities(&self) -> impl Iterator<Item = FeatureRef> + 'a {
        let game = self.game;
        self.segments().flat_map(move |(pi, fi)| {
            let piece = game.board.pieces()[pi as usize];
            game.catalog().tile(piece.tile).features[fi as usize]
                .cities
                .iter()
                .map(move |&c| FeatureRef(piece.node_base + c as NodeId))
        })
    }

    /// The cell and place that name it in the notation: its first segment's
    /// anchor (see [`Game::feature_anchor`]).
    pub fn anchor(&self) -> (Pos, Place) {
        let (pi, fi) = self.game.board.features().origin(self.root);
        self.game.feature_anchor(pi, fi)
    }

    /// What it is worth now, complete or not, and what was counted:
    /// (points, tiles, extra) — extra is a city's coats of arms or a
    /// field's completed cities.
    pub fn value(&self) -> (u32, u32, u32) {
        self.game.feature_value(self.root)
    }

    /// The followers on it, in the order they were placed.
    pub fn followers(&self) -> impl Iterator<Item = &'a Follower> + 'a {
        let game = self.game;
        let root = self.root;
        game.followers()
            .iter()
            .filter(move |f| game.board.features().root(game.node(f.piece, f.feature)) == root)
    }
}
