//! The action codec and the tensor writer: the numbering of a position's
//! actions and the place an expansion writes its share of an observation.
//! Both are filled by the expansions' hooks (each lays out its own segment
//! and planes) and read by the views (`openspiel`, the Python bindings), so
//! they sit in the rules layer, below the views that use them; the views
//! add the parts that walk a whole position (`encode`, `decode`,
//! `legal_indices`, the observation tensor).

use crate::catalog::TileIdx;
use crate::game::{Action, Figure, Game};
use crate::geometry::{Corner, Place, Pos, Rotation};

/// The action-index codec: a bijection between the actions of a position
/// and integers in `0..num_distinct_actions(game)`, the same for every game
/// of one configuration.
///
/// Layout (see `docs/openspiel.md`):
/// - `0`: pass;
/// - `1 + 16·k + p` (`1..=32`): a follower on cell `k` (0 or 1: the cell of
///   the tile just placed, in its catalog order) at place code `p`
///   ([`place_code`]: NNW=0 … WNW=11, C=12, H1, H, H2 on a half; I1 = 13,
///   I2 = 14 on a whole cell);
/// - `33 + ((s·W + (y+R))·W + (x+R))·4 + r`: place the tile of slot `s`
///   (0: the drawn tile; 1, 2: the distinct tiles in the player's hand)
///   with its anchor at `(x, y)` and rotation `r` quarter turns, for
///   `|x|, |y| ≤ R` and `W = 2R + 1`;
/// - then one segment per expansion in play that has actions of its own,
///   in the fixed order of the expansions, each laid out by its module
///   (`Expansion::codec_size`, `encode`, `decode`).
///
/// A placement outside the window has no index: [`ActionCodec::encode`]
/// returns `None` and [`ActionCodec::legal_indices`] leaves it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionCodec {
    /// Half the window's side: cells with `|x|, |y| ≤ radius`.
    pub radius: i32,
    /// Tile slots: 0 the drawn tile, then the distinct tiles in the
    /// current player's hand in catalog order (default 3).
    pub slots: usize,
}

/// Index of the pass action.
pub const PASS_INDEX: usize = 0;
/// First follower index.
pub const FOLLOWER_BASE: usize = 1;
/// Follower codes: two cells × 16 place codes.
pub const FOLLOWER_CODES: usize = 32;

/// Place codes a cell has: [`place_code`] is below this.
const PLACE_CODES: usize = 16;

/// The code (`0..16`) of `place`: its index, except that the inner places
/// `I1`, `I2` take the codes of the long side's `H1`, `H`. A half has a
/// long side and no inner place, a whole cell the other way round, so the
/// code and the tile (or half) it lies on name the place: the action space
/// keeps 16 codes a cell, and every configuration its size.
pub(crate) const fn place_code(place: Place) -> usize {
    match place {
        Place::I1 => Place::H1.index(),
        Place::I2 => Place::H.index(),
        p => p.index(),
    }
}

/// The place of code `code` (`0..16`) on a half (`half`) or a whole cell.
pub(crate) fn place_of_code(code: usize, half: bool) -> Place {
    let p = Place::ALL[code % PLACE_CODES];
    match p {
        Place::H1 if !half => Place::I1,
        Place::H if !half => Place::I2,
        p => p,
    }
}
/// First placement index.
pub const PLACE_BASE: usize = FOLLOWER_BASE + FOLLOWER_CODES;

impl Default for ActionCodec {
    fn default() -> ActionCodec {
        ActionCodec {
            radius: ActionCodec::DEFAULT_RADIUS,
            slots: 3,
        }
    }
}

/// One expansion's range of indices in a configuration's action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodecSegment {
    /// The expansion (rules family) that owns it.
    pub family: crate::expansions::Family,
    /// Its first index.
    pub base: usize,
    /// Its number of indices.
    pub size: usize,
}

impl ActionCodec {
    /// The default window: 61 × 61 cells around the start tile, far more
    /// than a 72-tile game needs in practice.
    pub const DEFAULT_RADIUS: i32 = 30;

    /// Side of the window.
    pub fn width(&self) -> usize {
        (2 * self.radius + 1) as usize
    }

    /// First index after the shared segments (pass, followers,
    /// placements): where the expansions' segments begin.
    pub fn shared_end(&self) -> usize {
        PLACE_BASE + self.slots * self.cells() * 4
    }

    /// The action-space size of `game`'s configuration (OpenSpiel's
    /// `num_distinct_actions`): the shared segments and the segments of the
    /// expansions in play (base game, radius 30, one slot: 14,917).
    pub fn num_distinct_actions(&self, game: &Game) -> usize {
        self.shared_end() + crate::expansions::codec_size(self, game)
    }

    /// The expansions' segments in `game`'s configuration, in index order.
    pub fn segments(&self, game: &Game) -> Vec<CodecSegment> {
        crate::expansions::codec_segments(self, game)
            .into_iter()
            .map(|(family, base, size)| CodecSegment { family, base, size })
            .collect()
    }

    fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// Codes for a tile on the board: window cell × (whole tile or one of
    /// the four halves).
    pub(crate) fn tile_codes(&self) -> usize {
        self.cells() * 5
    }

    /// Codes for a place on a tile: tile code × 16 place codes.
    pub(crate) fn feature_codes(&self) -> usize {
        self.tile_codes() * PLACE_CODES
    }

    /// The code of the tile (or half) at `pos`, inside the window.
    pub(crate) fn tile_code(&self, pos: Pos, half: Option<Corner>) -> Option<usize> {
        Some(self.cell_index(pos)? * 5 + half.map_or(0, |c| c as usize + 1))
    }

    /// The tile (or half) of a tile code.
    pub(crate) fn tile_of(&self, code: usize) -> Option<(Pos, Option<Corner>)> {
        let (cell, h) = (code / 5, code % 5);
        if cell >= self.cells() {
            return None;
        }
        let w = self.width() as i32;
        let pos = Pos::new(cell as i32 % w - self.radius, cell as i32 / w - self.radius);
        let half = (h > 0).then(|| Corner::from_index(h as u8 - 1));
        Some((pos, half))
    }

    /// The code of a place on the tile (or half) at `pos`.
    pub(crate) fn feature_code(
        &self,
        pos: Pos,
        half: Option<Corner>,
        place: Place,
    ) -> Option<usize> {
        Some(self.tile_code(pos, half)? * PLACE_CODES + place_code(place))
    }

    /// The place of a place code.
    pub(crate) fn feature_of(&self, code: usize) -> Option<(Pos, Option<Corner>, Place)> {
        let (pos, half) = self.tile_of(code / PLACE_CODES)?;
        let place = place_of_code(code % PLACE_CODES, half.is_some());
        Some((pos, half, place))
    }

    /// The follower code (`0..32`) of a follower at `place` of cell `pos`
    /// of the tile just placed.
    pub(crate) fn follower_code(game: &Game, pos: Pos, place: Place) -> Option<usize> {
        let pi = game.last_piece()?;
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        let k = o
            .cells
            .iter()
            .position(|&(dx, dy)| piece.pos.offset(dx, dy) == pos)?;
        (k < 2).then_some(PLACE_CODES * k + place_code(place))
    }

    /// The follower of `figure` with follower code `code`.
    pub(crate) fn follower_of(game: &Game, code: usize, figure: Figure) -> Option<Action> {
        let (k, p) = (code / PLACE_CODES, code % PLACE_CODES);
        let pi = game.last_piece()?;
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        let &(dx, dy) = o.cells.get(k)?;
        Some(Action::Follower {
            pos: piece.pos.offset(dx, dy),
            corner: piece.corner,
            place: place_of_code(p, piece.corner.is_some()),
            figure,
        })
    }

    /// Distinct tiles in the current player's hand, in catalog order: the
    /// tiles of slots 1, 2, ….
    fn hand_slots(game: &Game) -> Vec<TileIdx> {
        let mut v = crate::expansions::hand(game);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Index of the window cell `p`, if inside.
    pub fn cell_index(&self, p: Pos) -> Option<usize> {
        let r = self.radius;
        if p.x.abs() > r || p.y.abs() > r {
            return None;
        }
        Some((p.y + r) as usize * self.width() + (p.x + r) as usize)
    }

    /// The index of `action` in the position `game` (which names the tile
    /// just placed, for followers). `None` outside the window, or for a tile
    /// that is not the drawn one.
    pub fn encode(&self, game: &Game, action: &Action) -> Option<usize> {
        match *action {
            Action::Pass => Some(PASS_INDEX),
            Action::Follower {
                pos,
                place,
                figure: Figure::Normal,
                ..
            } => match Self::follower_code(game, pos, place) {
                Some(c) => Some(FOLLOWER_BASE + c),
                // A follower on another tile (the magic portal) has an
                // expansion's index.
                None => crate::expansions::encode(self, game, action),
            },
            Action::Place { tile, pos, rot } => {
                let slot = if game.drawn_tile() == Some(tile) {
                    0
                } else {
                    match Self::hand_slots(game).iter().position(|t| *t == tile) {
                        Some(k) => 1 + k,
                        // A tile held outside the hand slots (the abbey)
                        // has an expansion's index.
                        None => return crate::expansions::encode(self, game, action),
                    }
                };
                if slot >= self.slots {
                    return None;
                }
                let cell = self.cell_index(pos)?;
                Some(PLACE_BASE + (slot * self.cells() + cell) * 4 + rot.quarters() as usize)
            }
            _ => crate::expansions::encode(self, game, action),
        }
    }

    /// The action with index `index` in the position `game`, or `None` if the
    /// index names nothing here (it may still be illegal: check with
    /// [`Game::legal_actions`] or [`Game::try_apply`]).
    pub fn decode(&self, game: &Game, index: usize) -> Option<Action> {
        if index == PASS_INDEX {
            return Some(Action::Pass);
        }
        if index < PLACE_BASE {
            return Self::follower_of(game, index - FOLLOWER_BASE, Figure::Normal);
        }
        if index >= self.shared_end() {
            return crate::expansions::decode(self, game, index);
        }
        let i = index - PLACE_BASE;
        let rot = Rotation::from_quarters((i % 4) as u8);
        let (slot, cell) = (i / 4 / self.cells(), i / 4 % self.cells());
        let w = self.width() as i32;
        let pos = Pos::new(cell as i32 % w - self.radius, cell as i32 / w - self.radius);
        let tile = match slot {
            0 => game.drawn_tile()?,
            s => *Self::hand_slots(game).get(s - 1)?,
        };
        Some(Action::Place { tile, pos, rot })
    }

    /// The action with index `index` if it is among the legal actions
    /// here, else `None`. What an agent's `apply` accepts is exactly the
    /// legal list (mask): [`Game::try_apply`] also takes other spellings
    /// of a legal action (a follower named by any place of its feature),
    /// which a mask does not list.
    pub fn decode_legal(&self, game: &Game, index: usize) -> Option<Action> {
        let a = self.decode(game, index)?;
        let mut legal = Vec::new();
        game.legal_actions_into(&mut legal);
        legal.contains(&a).then_some(a)
    }

    /// The indices of the legal actions, ascending (actions outside the
    /// window left out).
    pub fn legal_indices(&self, game: &Game) -> Vec<usize> {
        let mut v: Vec<usize> = game
            .legal_actions()
            .iter()
            .filter_map(|a| self.encode(game, a))
            .collect();
        v.sort_unstable();
        v
    }
}

/// Where an expansion writes its share of an observation tensor: its own
/// cell planes, numbered from 0, and its globals, appended in order. Values
/// are clamped to `0..=1` like the rest of the tensor.
pub struct TensorPart<'a> {
    pub(crate) codec: &'a ActionCodec,
    /// The planes after the shared ones.
    pub(crate) cells: &'a mut [f32],
    /// The current expansion's first plane and one past its last.
    pub(crate) base: usize,
    pub(crate) end: usize,
    pub(crate) globals: &'a mut Vec<f32>,
    /// Whether the observer's own hidden items (face-down halves, chips)
    /// are written; false for the public observer, which sees only counts.
    pub(crate) private: bool,
}

impl TensorPart<'_> {
    /// Starts the next expansion's part, `planes` planes long.
    pub(crate) fn begin(&mut self, planes: usize) {
        self.base = self.end;
        self.end += planes;
    }

    /// Runs `f` on planes `from..from + planes` of the current part, as if
    /// they were the whole part: an expansion of several components lays
    /// out each one's planes in turn.
    pub(crate) fn within(&mut self, from: usize, planes: usize, f: impl FnOnce(&mut Self)) {
        let (base, end) = (self.base, self.end);
        self.base = base + from;
        self.end = self.base + planes;
        debug_assert!(self.end <= end, "planes beyond the expansion's part");
        f(self);
        self.base = base;
        self.end = end;
    }

    /// Whether the observer's own hidden items may be written (see
    /// [`ActionCodec::public_observation_globals`]).
    pub(crate) fn private(&self) -> bool {
        self.private
    }

    /// Globals written so far (shared and expansions').
    pub(crate) fn globals_written(&self) -> usize {
        self.globals.len()
    }

    /// Raises the expansion's plane `k` at cell `p` to at least `v` (cells
    /// outside the window are left out).
    pub fn set(&mut self, k: usize, p: Pos, v: f32) {
        debug_assert!(
            self.base + k < self.end,
            "plane {k} beyond the expansion's planes"
        );
        let ww = self.codec.width() * self.codec.width();
        if let Some(c) = self.codec.cell_index(p) {
            if let Some(slot) = self.cells.get_mut((self.base + k) * ww + c) {
                *slot = slot.max(v.clamp(0.0, 1.0));
            }
        }
    }

    /// Marks every cell of piece `pi` on the expansion's plane `k`.
    pub fn set_piece(&mut self, game: &Game, k: usize, pi: u16, v: f32) {
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        for &(dx, dy) in &o.cells {
            self.set(k, piece.pos.offset(dx, dy), v);
        }
    }

    /// The window's radius: cells with `|x|, |y| ≤ radius` are in the tensor.
    pub fn radius(&self) -> i32 {
        self.codec.radius
    }

    /// Appends one global.
    pub fn push(&mut self, v: f32) {
        self.globals.push(v.clamp(0.0, 1.0));
    }
}
