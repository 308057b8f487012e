//! The Princess & the Dragon (second edition), `princess-dragon.md`.
//!
//! Thirty land tiles join the pile (`catalog/princess-dragon.toml`): six
//! volcanoes (tile tag `volcano`, shared with River II's lake), twelve
//! dragon tiles (`dragon`), six magic portals (`portal`) and six princess
//! cities (feature tag `princess`).
//!
//! The dragon and the fairy are neutral figures: positions in this
//! module's state, never entries of `Game::followers`. The dragon is out
//! of play until the first volcano; a dragon tile drawn before that is set
//! aside (event `set aside`) and comes back into the pile with the first
//! volcano. A volcano brings the dragon onto it, and nothing may be placed
//! on the dragon's tile. After the follower step of a dragon tile's part,
//! the dragon step (`Phase::Dragon`): the players, the active one first,
//! move it one tile each in turn, six moves in all, never onto an empty
//! cell, a tile it visited in this movement (its start included) or the
//! fairy's tile; it eats every figure on each tile it enters.
//!
//! In the follower step, besides a figure: the fairy moves next to one of
//! the player's followers (1 point to that player at the start of each of
//! their turns, 3 whenever her follower's feature is scored, and her tile
//! is safe from the dragon); a portal tile sends a follower onto any free,
//! unfinished feature of another tile; a princess city sends one knight of
//! that city home.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

use crate::action::{FeatureAt, Figure, TileAt};
use crate::catalog::{FeatureKind, Tag, TileIdx};
use crate::codec::ActionCodec;
use crate::expansions::{Expansion, Family, MoveBound};
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Corner, Place, Pos};
use crate::rng::Rng;
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// The tile tag of a volcano (this set's six and River II's lake).
pub const VOLCANO: &str = "volcano";
/// The tile tag of a dragon tile.
pub const DRAGON: &str = "dragon";
/// The tile tag of a magic portal tile.
pub const PORTAL: &str = "portal";
/// The feature tag of a city segment showing the princess.
pub const PRINCESS: &str = "princess";
/// Moves in one movement of the dragon, whatever the number of players.
pub const FLIGHT_MOVES: u8 = 6;
/// The fairy's point at the start of her player's turn.
pub const FAIRY_TURN_POINTS: u32 = 1;
/// The fairy's points when her follower's feature is scored.
pub const FAIRY_SCORING_POINTS: u32 = 3;
/// Stream of the seeded shuffle of set-aside tiles back into the pile
/// (see [`Rng::for_stream`]).
pub const RETURN_STREAM: u64 = 6;

/// The followers whose portal placements and princess removals this
/// segment numbers, in the codec's order (the other expansions' followers
/// are numbered in their own segments).
const PORTAL_FIGURES: [Figure; 2] = [Figure::Normal, Figure::Big];

const VOLCANO_TAG: Tag = Tag::known(VOLCANO);
const DRAGON_TAG: Tag = Tag::known(DRAGON);
const PORTAL_TAG: Tag = Tag::known(PORTAL);
const PRINCESS_TAG: Tag = Tag::known(PRINCESS);

/// Where the fairy stands: next to a seat's followers at one feature of
/// one tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fairy {
    /// The piece (tile) she stands on.
    pub piece: u16,
    /// The feature of that piece she was put next to; `None`: next to a
    /// follower standing on the tile in no feature (on top of a tower,
    /// The Tower's Decision W7).
    pub feature: Option<u8>,
    /// The player whose follower she was put next to.
    pub seat: Seat,
    /// Whether that player still has a follower there (Decision P2: once
    /// none is left she is with nobody until moved again).
    pub with: bool,
}

/// The state of the Princess & the Dragon in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DragonState {
    /// The piece the dragon stands on; `None` before the first volcano.
    dragon: Option<u16>,
    /// Dragon tiles set aside before the dragon came into play, in order.
    aside: Vec<TileIdx>,
    /// Tiles in the pile before the first draw (to tell how many draws the
    /// configuration's `deck` still fixes).
    pile_at_start: usize,
    /// The fairy, once moved for the first time.
    fairy: Option<Fairy>,
    /// The current movement: moves made.
    moves: u8,
    /// The current movement: tiles visited, the start tile first.
    visited: Vec<u16>,
    /// The active player of the part whose dragon step runs.
    active: Seat,
    /// This part's dragon step was held (it is held once a part).
    flown: bool,
}

impl DragonState {
    /// The piece the dragon stands on (`None`: not in play yet).
    pub fn dragon(&self) -> Option<u16> {
        self.dragon
    }

    /// Dragon tiles set aside and not yet back in the pile.
    pub fn set_aside(&self) -> &[TileIdx] {
        &self.aside
    }

    /// The fairy, once she is in play.
    pub fn fairy(&self) -> Option<Fairy> {
        self.fairy
    }

    /// Moves the dragon has made in the current movement.
    pub fn moves(&self) -> u8 {
        self.moves
    }
}

impl Game {
    /// The Princess & the Dragon's state, when it is in play.
    pub fn princess_dragon(&self) -> Option<&DragonState> {
        self.ext.dragon.as_ref()
    }

    /// Whether the tile of piece `pi` carries tile tag `tag`.
    fn piece_tagged(&self, pi: u16, tag: Tag) -> bool {
        let tile = self.board.pieces()[pi as usize].tile;
        self.rules.catalog.tile(tile).has_tag(tag)
    }

    /// The piece at cell `pos` (half `corner`), if any.
    fn piece_in(&self, pos: Pos, corner: Option<Corner>) -> Option<u16> {
        let pieces = self.board.pieces();
        self.board
            .pieces_at(pos)
            .find(|(pi, _)| pieces[*pi as usize].corner == corner)
            .map(|(pi, _)| pi)
    }

    /// Piece and feature at `place` of the tile at `pos` (half `corner`).
    fn segment_at(&self, pos: Pos, corner: Option<Corner>, place: Place) -> Option<(u16, u8)> {
        let node = self
            .board
            .node_at(&self.rules.catalog, pos, corner, place)?;
        Some(self.board.features().origin(node))
    }

    /// The tile of piece `pi` as actions name it (its first cell).
    fn tile_of(&self, pi: u16) -> Option<TileAt> {
        let p = self.board.pieces()[pi as usize];
        TileAt::new(p.pos, p.corner)
    }

    /// Feature `fi` of piece `pi` as actions name it.
    fn feature_named(&self, pi: u16, fi: u8) -> Option<FeatureAt> {
        let (pos, place) = self.feature_anchor(pi, fi);
        FeatureAt::new(pos, self.board.pieces()[pi as usize].corner, place)
    }

    // -- Drawing: dragon tiles set aside ------------------------------------

    /// Puts the set-aside dragon tiles back into the pile at the first
    /// volcano: below the draws the configuration's `deck` still fixes and
    /// any river tiles still to come, at seeded random places (which keeps
    /// the order of the others, so the Plague's sources stay below its safe
    /// draws). With `deck_only`, after the last entry in the order they were
    /// set aside, unless a later entry names a tile of that kind (that entry
    /// is the returned copy).
    fn return_set_aside(&mut self) {
        let Some(s) = self.ext.dragon.as_mut() else {
            return;
        };
        if s.aside.is_empty() {
            return;
        }
        let aside = std::mem::take(&mut s.aside);
        let drawn = s.pile_at_start.saturating_sub(self.pile.len());
        let config = &self.rules.config;
        if config.deck_only {
            let back: Vec<TileIdx> = aside
                .into_iter()
                .filter(|t| !self.pile.contains(t))
                .collect();
            // The pile's bottom is drawn last: the first set aside lies
            // just above the later ones.
            self.pile.splice(0..0, back.into_iter().rev());
            return;
        }
        let fixed = config
            .deck
            .as_ref()
            .map_or(0, Vec::len)
            .saturating_sub(drawn);
        let cat = &self.rules.catalog;
        let river = self
            .pile
            .iter()
            .rev()
            .take_while(|t| cat.tile(**t).is_river)
            .count();
        let keep = fixed.max(river).min(self.pile.len());
        let mut rng = Rng::for_stream(config.seed ^ drawn as u64, RETURN_STREAM);
        for &t in &aside {
            let room = self.pile.len() - keep;
            let at = rng.below(room as u64 + 1) as usize;
            self.pile.insert(at, t);
        }
        // The emptied list goes back, its memory kept for the next game.
        let mut aside = aside;
        aside.clear();
        if let Some(s) = self.ext.dragon.as_mut() {
            s.aside = aside;
        }
    }

    // -- The dragon's movement ----------------------------------------------

    /// The pieces the dragon may enter now: next to its tile (Decision P6:
    /// the Plague's adjacency, [`crate::board::Board::each_adjacent`],
    /// halves and gaps included), not visited in this movement, not the
    /// fairy's: `f` is called with each once, in the board's order. On the
    /// stack, as the dragon step is listed (and was checked) on every move.
    fn each_dragon_target(&self, mut f: impl FnMut(u16)) {
        let Some(s) = self.princess_dragon() else {
            return;
        };
        let Some(at) = s.dragon else { return };
        let fairy = s.fairy.map(|f| f.piece);
        // A piece has at most twelve neighbours (a double tile's six
        // cells, two halves each): indexing past them would be a bug.
        let mut seen = [0u16; 12];
        let mut n = 0;
        self.board.each_adjacent(&self.rules.catalog, at, |q| {
            if seen[..n].contains(&q) {
                return;
            }
            seen[n] = q;
            n += 1;
            if !s.visited.contains(&q) && Some(q) != fairy {
                f(q);
            }
        });
    }

    /// Whether the dragon may enter piece `q` now.
    fn is_dragon_target(&self, q: u16) -> bool {
        let mut found = false;
        self.each_dragon_target(|t| found |= t == q);
        found
    }

    /// Whether the dragon may move at all.
    fn dragon_can_move(&self) -> bool {
        let mut any = false;
        self.each_dragon_target(|_| any = true);
        any
    }

    /// The dragon step's actions: a move to each tile it may enter, or
    /// `pass` when there is none.
    fn dragon_step_actions(&self, out: &mut Vec<Action>) {
        self.each_dragon_target(|q| {
            if let Some(to) = self.tile_of(q) {
                out.push(Action::Dragon { to });
            }
        });
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// One move of the dragon onto `to`, checked unless `mode` trusts it.
    fn move_dragon(&mut self, to: TileAt, mode: Mode) -> Result<(), IllegalAction> {
        let q = self.piece_in(to.pos(), to.half).ok_or_else(|| {
            illegal(
                "dragon",
                format!(
                    "there is no tile at {}: the dragon moves only onto tiles",
                    to.pos()
                ),
            )
        })?;
        if mode == Mode::Checked && !self.is_dragon_target(q) {
            let s = self.princess_dragon();
            let why = if s.is_some_and(|s| s.visited.contains(&q)) {
                "the dragon has already been on that tile in this movement (its start included)"
            } else if s.and_then(|s| s.fairy).is_some_and(|f| f.piece == q) {
                "the fairy stands on that tile: the dragon may not enter it"
            } else {
                "the dragon moves one tile at a time, onto a tile next to its own"
            };
            return Err(illegal(
                "dragon",
                format!("{why}; choose one of the legal moves"),
            ));
        }
        if let Some(s) = &mut self.ext.dragon {
            s.dragon = Some(q);
            s.visited.push(q);
            s.moves += 1;
        }
        self.eat(q);
        self.next_dragon_mover();
        Ok(())
    }

    /// After a move: the movement ends after the sixth, else the next
    /// player (clockwise) moves.
    fn next_dragon_mover(&mut self) {
        let done = self
            .princess_dragon()
            .is_none_or(|s| s.moves >= FLIGHT_MOVES);
        if done {
            self.end_flight();
        } else {
            self.current = self.current.next(self.players.len());
        }
    }

    /// The movement is over: the active player's turn goes on (scoring,
    /// the other expansions' steps).
    fn end_flight(&mut self) {
        if let Some(s) = &self.ext.dragon {
            self.current = s.active;
        }
        self.phase = Phase::Follower;
        self.end_follower_step();
    }

    /// The dragon eats every figure on piece `q` (events `eaten`); the
    /// figures that needed company go too.
    fn eat(&mut self, q: u16) {
        let mut i = 0;
        let mut ate = false;
        while i < self.followers.len() {
            let f = self.followers[i];
            if f.piece != q {
                i += 1;
                continue;
            }
            self.take_off(i);
            self.log_figure(Reason::Eaten, f);
            ate = true;
        }
        if ate {
            crate::expansions::followers_left(self);
            self.refresh_fairy();
        }
        // The other expansions' neutral figures there (the gingerbread
        // man); never the fairy, whose tile the dragon does not enter.
        crate::expansions::clear_tile(self, q);
    }

    /// Takes figure `i` off the board, back to its owner.
    fn take_off(&mut self, i: usize) {
        let f = self.followers.remove(i);
        if f.figure.is_follower() {
            let node = self.node(f.piece, f.feature);
            self.board.features_mut().add_followers(node, -1);
        }
        self.follower_home(f);
    }

    /// An event without points about figure `f` (eaten, sent home by the
    /// princess).
    fn log_figure(&mut self, reason: Reason, f: Follower) {
        if !self.log_events {
            return;
        }
        let (pos, place) = self.feature_anchor(f.piece, f.feature);
        let corner = self.board.pieces()[f.piece as usize].corner;
        let mut who = [0u8; 6];
        who[f.player.index()] = 1;
        let kind = self.follower_kind(&f);
        self.events.push(Event {
            reason,
            feature: Some(kind),
            at: Some((pos, corner, place)),
            tiles: 0,
            extra: 0,
            points: [0; 6],
            followers: who,
            tile: None,
        });
    }

    // -- The fairy ----------------------------------------------------------

    /// Whether `seat` has a follower on feature `fi` of piece `pi` (`None`:
    /// standing on that tile in no feature, on top of a tower).
    fn has_follower_at(&self, seat: Seat, pi: u16, fi: Option<u8>) -> bool {
        let Some(fi) = fi else {
            let mut found = false;
            crate::expansions::followers_off_features(self, &mut |s, q| {
                found |= s == seat && q == pi;
            });
            return found;
        };
        self.followers
            .iter()
            .any(|f| f.player == seat && f.piece == pi && f.feature == fi && f.figure.is_follower())
    }

    /// Where the fairy stands as events and the state name it: her
    /// follower's feature, or the centre of the tile whose tower top she
    /// is beside (as the Tower's events name a tower top).
    fn fairy_anchor(&self, f: Fairy) -> (Pos, Place) {
        match f.feature {
            Some(fi) => self.feature_anchor(f.piece, fi),
            None => (self.board.pieces()[f.piece as usize].pos, Place::C),
        }
    }

    /// Decision P2: once her player has no follower left where she is, the
    /// fairy is with nobody.
    fn refresh_fairy(&mut self) {
        let Some(f) = self.princess_dragon().and_then(|s| s.fairy) else {
            return;
        };
        if f.with && !self.has_follower_at(f.seat, f.piece, f.feature) {
            if let Some(s) = &mut self.ext.dragon {
                s.fairy = Some(Fairy { with: false, ..f });
            }
        }
    }

    /// Gives `seat` the fairy's `points` (event `fairy` at her place).
    fn fairy_points(&mut self, f: Fairy, points: u32) {
        self.players[f.seat.index()].score += points;
        if !self.log_events {
            return;
        }
        let mut given = [0u32; 6];
        given[f.seat.index()] = points;
        let (pos, place) = self.fairy_anchor(f);
        let corner = self.board.pieces()[f.piece as usize].corner;
        self.events.push(Event {
            reason: Reason::Fairy,
            feature: None,
            at: Some((pos, corner, place)),
            tiles: 0,
            extra: 0,
            points: given,
            followers: [0; 6],
            tile: None,
        });
    }

    /// The fairy moves: each feature of a tile where the current player
    /// has a follower, and each tower top of theirs (Decision W7), except
    /// where she already is with that player.
    fn fairy_moves(&self, out: &mut Vec<Action>) {
        let fairy = self.princess_dragon().and_then(|s| s.fairy);
        let seat = self.current;
        let there = |pi: u16, fi: Option<u8>| {
            fairy.is_some_and(|z| z.with && z.seat == seat && z.piece == pi && z.feature == fi)
        };
        let mine = |f: &Follower| f.player == seat && f.figure.is_follower();
        for (i, f) in self.followers.iter().enumerate() {
            if !mine(f) || there(f.piece, Some(f.feature)) {
                continue;
            }
            // One move per segment: the actions of two followers on the
            // same segment are equal (asked by segment, not by comparing
            // actions, which was most of this listing's cost).
            if self.followers[..i]
                .iter()
                .any(|e| mine(e) && e.piece == f.piece && e.feature == f.feature)
            {
                continue;
            }
            let Some(at) = self.feature_named(f.piece, f.feature) else {
                continue;
            };
            out.push(Action::Fairy {
                at: TileAt {
                    x: at.x,
                    y: at.y,
                    half: at.half,
                },
                place: Some(at.place),
            });
        }
        crate::expansions::followers_off_features(self, &mut |s, pi| {
            if s != seat || there(pi, None) {
                return;
            }
            if let Some(at) = self.tile_of(pi) {
                out.push(Action::Fairy { at, place: None });
            }
        });
    }

    /// Moves the fairy next to the current player's follower at `place`
    /// of the tile `at` (`None`: on top of its tower).
    fn move_fairy(&mut self, at: TileAt, place: Option<Place>) -> Result<(), IllegalAction> {
        let seat = self.current;
        let spot = match place {
            Some(place) => self
                .segment_at(at.pos(), at.half, place)
                .map(|(pi, fi)| (pi, Some(fi))),
            None => self.piece_in(at.pos(), at.half).map(|pi| (pi, None)),
        };
        let (pi, fi) = spot
            .filter(|&(pi, fi)| self.has_follower_at(seat, pi, fi))
            .ok_or_else(|| {
                illegal(
                    "fairy",
                    "the fairy moves next to one of your own followers: name a tile and a place of its feature where you have one (`tower` for one on top of its tower)",
                )
            })?;
        let now = Fairy {
            piece: pi,
            feature: fi,
            seat,
            with: true,
        };
        if self.princess_dragon().and_then(|s| s.fairy) == Some(now) {
            return Err(illegal(
                "fairy",
                "the fairy is already with this follower: move her elsewhere, or do something else",
            ));
        }
        if let Some(s) = &mut self.ext.dragon {
            s.fairy = Some(now);
        }
        self.end_follower_step();
        Ok(())
    }

    // -- The magic portal ---------------------------------------------------

    /// Whether the tile just placed shows a magic portal.
    fn portal_open(&self) -> bool {
        self.last
            .is_some_and(|pi| self.piece_tagged(pi, PORTAL_TAG))
    }

    /// Why no follower may go through the portal onto feature `fi` of piece
    /// `q` (the occupancy of the whole feature is checked apart).
    fn portal_ban(&self, q: u16, fi: u8) -> Option<&'static str> {
        // The dragon's tile, the Plague's fleas and outbreaks.
        crate::expansions::figure_ban_on(self, q).or_else(|| self.portal_feature_ban(q, fi))
    }

    /// [`Game::portal_ban`] past the bans on the whole tile.
    fn portal_feature_ban(&self, q: u16, fi: u8) -> Option<&'static str> {
        let node = self.node(q, fi);
        // A feature no figure may enter by any means (a barn's field).
        if let Some(why) = crate::expansions::figure_ban_in(self, node) {
            return Some(why);
        }
        let tile = self.board.pieces()[q as usize].tile;
        let kind = self.rules.catalog.tile(tile).features[fi as usize].kind;
        let feats = self.board.features();
        let complete = match kind {
            FeatureKind::River => return Some("followers may never stand on a river"),
            FeatureKind::Road | FeatureKind::City => feats.open(node) == 0,
            FeatureKind::Monastery => {
                feats.is_closed(node)
                    || self
                        .board
                        .monastery_surroundings(q, self.count_per_cell())
                        .1
            }
            FeatureKind::Field => false,
        };
        complete.then_some(
            "a follower goes through the portal only onto a feature that is not completed",
        )
    }

    /// The portal's placements: every follower the player has in the
    /// supply (whatever its expansion, Decision P3) onto each free,
    /// unfinished feature of every other tile that it may stand on.
    fn portal_moves(&self, out: &mut Vec<Action>) {
        let Some(last) = self.last else { return };
        let mut figures = [Figure::Normal; Figure::ALL.len()];
        let mut n = 0;
        for f in Figure::ALL {
            if f.is_follower() && crate::expansions::figure_in_supply(self, self.current, f) {
                figures[n] = f;
                n += 1;
            }
        }
        let figures = &figures[..n];
        if figures.is_empty() {
            return;
        }
        let cat = &*self.rules.catalog;
        for (q, piece) in self.board.pieces().iter().enumerate() {
            let q = q as u16;
            // A ban on the whole tile is asked once, not per feature.
            if q == last || crate::expansions::figure_ban_on(self, q).is_some() {
                continue;
            }
            for fi in 0..cat.tile(piece.tile).features.len() as u8 {
                if self.board.features().followers(self.node(q, fi)) > 0
                    || self.portal_feature_ban(q, fi).is_some()
                {
                    continue;
                }
                let kind = cat.tile(piece.tile).features[fi as usize].kind;
                let (pos, place) = self.feature_anchor(q, fi);
                for &figure in figures {
                    if !crate::expansions::figure_fits(self, figure, kind) {
                        continue;
                    }
                    out.push(Action::Follower {
                        pos,
                        corner: piece.corner,
                        place,
                        figure,
                    });
                }
            }
        }
    }

    /// A follower named on another tile than the one just placed: allowed
    /// by the portal, or why not.
    fn through_portal(
        &self,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Result<(u16, u8), IllegalAction> {
        let (q, fi) = self.segment_at(pos, corner, place).ok_or_else(|| {
            illegal(
                "portal",
                format!("there is no feature at {place} of a tile at {pos}"),
            )
        })?;
        if let Some(why) = self.portal_ban(q, fi) {
            return Err(illegal("portal", why));
        }
        Ok((q, fi))
    }

    // -- The princess -------------------------------------------------------

    /// The city of the princess on the tile just placed, if it shows one.
    fn princess_city(&self) -> Option<NodeId> {
        let pi = self.last?;
        let piece = self.board.pieces()[pi as usize];
        let def = self.rules.catalog.tile(piece.tile);
        let fi = def
            .features
            .iter()
            .position(|f| f.tags.contains(PRINCESS_TAG))?;
        Some(self.board.features().root(self.node(pi, fi as u8)))
    }

    /// The princess's actions: each knight in her city.
    fn princess_moves(&self, out: &mut Vec<Action>) {
        let Some(root) = self.princess_city() else {
            return;
        };
        let start = out.len();
        for f in &self.followers {
            if !f.figure.is_follower()
                || self.board.features().root(self.node(f.piece, f.feature)) != root
            {
                continue;
            }
            let Some(at) = self.feature_named(f.piece, f.feature) else {
                continue;
            };
            let a = Action::Princess {
                at,
                seat: f.player.index() as u8,
                figure: f.figure,
            };
            if !out[start..].contains(&a) {
                out.push(a);
            }
        }
    }

    /// The princess sends the knight named home.
    fn use_princess(
        &mut self,
        at: FeatureAt,
        seat: u8,
        figure: Figure,
    ) -> Result<(), IllegalAction> {
        let root = self.princess_city().ok_or_else(|| {
            illegal(
                "princess",
                "the tile just placed shows no princess: place a follower or pass",
            )
        })?;
        let i = self
            .segment_at(at.pos(), at.half, at.place)
            .and_then(|(pi, fi)| {
                self.followers.iter().position(|f| {
                    f.piece == pi
                        && f.feature == fi
                        && f.player.index() == usize::from(seat)
                        && f.figure == figure
                        && f.figure.is_follower()
                })
            })
            .filter(|&i| {
                let f = self.followers[i];
                self.board.features().root(self.node(f.piece, f.feature)) == root
            })
            .ok_or_else(|| {
                illegal(
                    "princess",
                    "the princess sends home a knight of her own city: name a tile, a place and the seat of a knight standing there",
                )
            })?;
        let f = self.followers[i];
        self.take_off(i);
        self.log_figure(Reason::Princess, f);
        crate::expansions::followers_left(self);
        self.refresh_fairy();
        self.end_follower_step();
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// The Princess & the Dragon's hooks into the turn.
pub(crate) struct PrincessDragon;

impl Expansion for PrincessDragon {
    const FAMILY: Family = Family::PrincessDragon;
    const SWITCH_ON: (&'static str, &'static str) = (
        "the Princess & the Dragon",
        "princess-dragon to \"expansions\"",
    );
    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "volcano_extra_turn",
        "false: River II's volcano lake gives no extra turn with the dragon (Decision P5; default true)",
    )];

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.dragon.is_some()
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        let rule = match a {
            Action::Dragon { .. } => "dragon",
            Action::Fairy { .. } => "fairy",
            Action::Princess { .. } => "princess",
            _ => return None,
        };
        Some((rule, "the Princess & the Dragon"))
    }

    /// Its 30 tiles.
    fn deck_tiles(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
    ) -> Result<(), crate::config::ConfigError> {
        crate::expansions::set_tiles(ctx, crate::expansions::ExpansionId::PrincessDragon, bag)
    }

    /// The dragon and the fairy stand beside the board.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.pile.len();
        let s = g.ext.dragon.get_or_insert_with(|| DragonState {
            dragon: None,
            aside: Vec::new(),
            pile_at_start: 0,
            fairy: None,
            moves: 0,
            visited: Vec::with_capacity(usize::from(FLIGHT_MOVES) + 1),
            active: Seat::default(),
            flown: false,
        });
        // An earlier deal's vectors are reused; room for the whole pile
        // set aside, so that the list never grows in a game.
        s.dragon = None;
        s.aside.clear();
        s.aside.reserve(n);
        s.pile_at_start = n;
        s.fairy = None;
        s.moves = 0;
        s.visited.clear();
        s.active = Seat::default();
        s.flown = false;
    }

    /// A dragon tile drawn while the dragon is not in play is set aside.
    fn set_aside(g: &mut Game, t: TileIdx) -> bool {
        let Some(s) = &mut g.ext.dragon else {
            return false;
        };
        if s.dragon.is_some() || !g.rules.catalog.tile(t).has_tag(DRAGON_TAG) {
            return false;
        }
        s.aside.push(t);
        if g.log_events {
            g.events.push(Event::of_tile(Reason::SetAside, t));
        }
        true
    }

    /// A volcano brings the dragon onto it (nothing is eaten); the first
    /// brings the set-aside dragon tiles back.
    fn after_place(g: &mut Game, pi: u16) {
        let volcano = g.piece_tagged(pi, VOLCANO_TAG);
        let Some(s) = &mut g.ext.dragon else { return };
        s.flown = false;
        if volcano {
            s.dragon = Some(pi);
            g.return_set_aside();
        }
    }

    fn follower_ban(g: &Game) -> Option<&'static str> {
        Self::figure_ban_on(g, g.last?)
    }

    /// Decision P7: nothing is placed on the dragon's tile by any means.
    fn figure_ban_on(g: &Game, pi: u16) -> Option<&'static str> {
        (g.princess_dragon()?.dragon == Some(pi))
            .then_some("the dragon stands on that tile: no figure may be placed on it")
    }

    /// Decision P10: the gingerbread man is a figure for P7.
    fn neutral_ban_on(g: &Game, pi: u16) -> Option<&'static str> {
        Self::figure_ban_on(g, pi)
    }

    fn follower_elsewhere(
        g: &Game,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Option<Result<(u16, u8), IllegalAction>> {
        g.portal_open()
            .then(|| g.through_portal(pos, corner, place))
    }

    /// The portal's placements, the princess, the fairy.
    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        if g.portal_open() {
            g.portal_moves(out);
        }
        g.princess_moves(out);
        g.fairy_moves(out);
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let in_step = g.phase == Phase::Follower;
        Some(match *a {
            Action::Fairy { at, place } if in_step => g.move_fairy(at, place),
            Action::Princess { at, seat, figure } if in_step => g.use_princess(at, seat, figure),
            Action::Fairy { .. } | Action::Princess { .. } => Err(illegal(
                "turn",
                "the fairy and the princess act in the follower step, after your tile is placed",
            )),
            Action::Dragon { .. } => Err(illegal(
                "dragon",
                "the dragon moves only in the dragon step, after the follower step of a dragon tile",
            )),
            _ => return None,
        })
    }

    /// After a dragon tile's follower step, with the dragon in play: the
    /// dragon step, once a part.
    fn after_follower_step(g: &mut Game) -> bool {
        let Some(pi) = g.last else { return false };
        let dragon_tile = g.piece_tagged(pi, DRAGON_TAG);
        let current = g.current;
        let Some(s) = &mut g.ext.dragon else {
            return false;
        };
        let Some(at) = s.dragon.filter(|_| dragon_tile && !s.flown) else {
            return false;
        };
        s.flown = true;
        s.moves = 0;
        s.visited.clear();
        s.visited.push(at);
        s.active = current;
        g.phase = Phase::Dragon;
        true
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Dragon
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.dragon_step_actions(out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match *a {
            Action::Dragon { to } => g.move_dragon(to, mode),
            Action::Pass => {
                if !g.dragon_can_move() {
                    g.end_flight();
                    Ok(())
                } else {
                    Err(illegal(
                        "dragon",
                        "the dragon can still move: pass only ends its movement when you have no legal move",
                    ))
                }
            }
            _ => Err(illegal(
                "dragon",
                "the dragon step: move the dragon one tile (or pass if it cannot move)",
            )),
        })
    }

    /// Its codec segment: a dragon move by tile code; the fairy by
    /// feature code; a portal follower by feature code, normal then large;
    /// the princess by feature code, seat (6) and figure (normal, large);
    /// last the fairy beside a tower top by tile code (Decision W7).
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        2 * codec.tile_codes() + (1 + PORTAL_FIGURES.len() * (1 + 6)) * codec.feature_codes()
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        let (t, f) = (codec.tile_codes(), codec.feature_codes());
        match *a {
            Action::Dragon { to } => codec.tile_code(to.pos(), to.half),
            Action::Fairy {
                at,
                place: Some(place),
            } => Some(t + codec.feature_code(at.pos(), at.half, place)?),
            Action::Fairy { at, place: None } => {
                let top = t + (1 + PORTAL_FIGURES.len() * (1 + 6)) * f;
                Some(top + codec.tile_code(at.pos(), at.half)?)
            }
            Action::Follower {
                pos,
                corner,
                place,
                figure,
            } => {
                // Only a follower on another tile than the one just placed.
                if g.last.is_none_or(|pi| g.on_piece(pi, pos, corner)) {
                    return None;
                }
                let k = PORTAL_FIGURES.iter().position(|x| *x == figure)?;
                Some(t + (1 + k) * f + codec.feature_code(pos, corner, place)?)
            }
            Action::Princess { at, seat, figure } => {
                let k = PORTAL_FIGURES.iter().position(|x| *x == figure)?;
                let seat = usize::from(seat);
                (seat < 6).then_some(())?;
                let slot = 1 + PORTAL_FIGURES.len() + seat * PORTAL_FIGURES.len() + k;
                Some(t + slot * f + codec.feature_code(at.pos(), at.half, at.place)?)
            }
            _ => None,
        }
    }

    fn decode(codec: &ActionCodec, _g: &Game, i: usize) -> Option<Action> {
        let (t, f) = (codec.tile_codes(), codec.feature_codes());
        if i < t {
            let (pos, half) = codec.tile_of(i)?;
            return Some(Action::Dragon {
                to: TileAt::new(pos, half)?,
            });
        }
        let n = PORTAL_FIGURES.len();
        let top = t + (1 + n * (1 + 6)) * f;
        if i >= top {
            let (pos, half) = codec.tile_of(i - top)?;
            return Some(Action::Fairy {
                at: TileAt::new(pos, half)?,
                place: None,
            });
        }
        let (slot, code) = ((i - t) / f, (i - t) % f);
        let (pos, half, place) = codec.feature_of(code)?;
        let at = FeatureAt::new(pos, half, place)?;
        Some(match slot {
            0 => Action::Fairy {
                at: TileAt::new(pos, half)?,
                place: Some(place),
            },
            s if s <= n => Action::Follower {
                pos,
                corner: half,
                place,
                figure: PORTAL_FIGURES[s - 1],
            },
            s => {
                let r = s - 1 - n;
                Action::Princess {
                    at,
                    seat: u8::try_from(r / n).ok().filter(|s| *s < 6)?,
                    figure: PORTAL_FIGURES[r % n],
                }
            }
        })
    }

    /// Six moves and a `pass` at most.
    fn max_moves(_g: &Game) -> MoveBound {
        MoveBound {
            per_turn: usize::from(FLIGHT_MOVES) + 1,
            ..Default::default()
        }
    }

    /// The fairy's 3 points when her follower's feature is scored.
    fn feature_scored(g: &mut Game, root: NodeId) {
        let Some(f) = g.princess_dragon().and_then(|s| s.fairy) else {
            return;
        };
        // Beside a tower top she is with a follower in no feature: no
        // scoring bonus (Decision W7).
        let Some(fi) = f.feature else { return };
        if f.with
            && g.has_follower_at(f.seat, f.piece, Some(fi))
            && g.board.features().root(g.node(f.piece, fi)) == root
        {
            g.fairy_points(f, FAIRY_SCORING_POINTS);
        }
    }

    fn after_completion(g: &mut Game, _root: NodeId) {
        g.refresh_fairy();
    }

    fn followers_left(g: &mut Game) {
        g.refresh_fairy();
    }

    /// The fairy's point, before anything else of the turn.
    fn turn_start(g: &mut Game) {
        g.refresh_fairy();
        let Some(f) = g.princess_dragon().and_then(|s| s.fairy) else {
            return;
        };
        if f.with && f.seat == g.current {
            g.fairy_points(f, FAIRY_TURN_POINTS);
        }
    }

    /// Two planes: the dragon's tile, the fairy's tile. Globals: the
    /// dragon in play, the tiles set aside, the moves of the movement under
    /// way, then per seat (relative to the observer) whether the fairy is
    /// with that seat's follower. All public.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (2, 3 + g.player_count())
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        let Some(s) = g.princess_dragon() else {
            // Not in play: no part of the tensor is written.
            return;
        };
        if let Some(pi) = s.dragon {
            t.set_piece(g, 0, pi, 1.0);
        }
        if let Some(f) = s.fairy {
            t.set_piece(g, 1, f.piece, 1.0);
        }
        t.push(f32::from(u8::from(s.dragon.is_some())));
        t.push(s.aside.len() as f32);
        t.push(f32::from(s.moves));
        for r in 0..n {
            let seat = player.ahead(r, n);
            let with = s.fairy.is_some_and(|f| f.with && f.seat == seat);
            t.push(f32::from(u8::from(with)));
        }
    }

    /// `dragon`: its tile (or null), the tiles set aside, the moves of the
    /// movement under way; `fairy`: her tile and place, and whose
    /// follower she is with (null for nobody). All public.
    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        let Some(s) = g.princess_dragon() else { return };
        let tile = |pi: u16| {
            let p = g.board.pieces()[pi as usize];
            let mut v = serde_json::json!({"x": p.pos.x, "y": p.pos.y});
            if let Some(c) = p.corner {
                v["half"] = c.name().into();
            }
            v
        };
        put(
            out,
            "dragon",
            serde_json::json!({
                "tile": s.dragon.map(tile),
                "set_aside": s.aside.len(),
                "moves": s.moves,
            }),
        );
        let fairy = s.fairy.map(|f| {
            let (pos, place) = g.fairy_anchor(f);
            let mut v = tile(f.piece);
            v["place"] = match f.feature {
                Some(_) => place.name(),
                None => crate::record::TOWER_PLACE,
            }
            .into();
            v["at"] = serde_json::json!({"x": pos.x, "y": pos.y});
            v["with"] = if f.with {
                f.seat.index().into()
            } else {
                serde_json::Value::Null
            };
            v
        });
        put(out, "fairy", fairy);
    }
}
