//! What is shown of the Plague: its part of the state JSON (`bastide
//! replay`), its planes and globals in the observation tensor, and the
//! action codec's numbering of the `flea` and `flee` actions.
//!
//! None of it changes play: it names the tokens and actions the other parts
//! define, so it is kept apart from the rules. The `Expansion` hooks in
//! `mod.rs` call the codec and tensor functions here.

use serde::Serialize;

use crate::action::{FeatureAt, TileAt};
use crate::codec::ActionCodec;
use crate::game::{Action, Game};
use crate::geometry::{Corner, Pos};
use crate::seat::Seat;

use super::components::FLEAS;

// ---------------------------------------------------------------------------
// State in JSON

/// The Plague's tokens, as `bastide replay` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlagueJson {
    /// Fleas in the supply.
    pub supply: u8,
    /// Outbreak tokens on the board, by number.
    pub outbreaks: Vec<OutbreakJson>,
    /// Flea tokens on the board, in the order their tiles were placed.
    pub fleas: Vec<FleaJson>,
    /// Whether the plague has spread this turn.
    pub spread_done: bool,
    /// Whether a spread is still owed this turn.
    pub spread_owed: bool,
    /// Whether a follower has fled this turn.
    pub fled: bool,
}

/// An outbreak token.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutbreakJson {
    /// Its number, 1–6.
    pub number: u8,
    /// The source tile it lies on.
    pub tile: String,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// `active` (rats) or `eradicated` (field side).
    pub side: &'static str,
}

/// A flea token.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleaJson {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Half corner, for a half tile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half: Option<&'static str>,
    /// `active` (red) or `latent` (pink).
    pub side: &'static str,
    /// For an active flea: the number of the outbreak of its region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbreak: Option<u8>,
}

impl Game {
    /// The plague part of the state JSON.
    pub fn plague_json(&self) -> Option<PlagueJson> {
        let p = self.ext.plague.as_ref()?;
        let cat = self.catalog();
        let pieces = self.board.pieces();
        Some(PlagueJson {
            supply: p.supply,
            outbreaks: p
                .outbreaks
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let piece = pieces[o.piece as usize];
                    OutbreakJson {
                        number: k as u8 + 1,
                        tile: cat.tile(piece.tile).id.clone(),
                        x: piece.pos.x,
                        y: piece.pos.y,
                        side: if o.active { "active" } else { "eradicated" },
                    }
                })
                .collect(),
            fleas: p
                .fleas
                .iter()
                .map(|f| {
                    let piece = pieces[f.piece as usize];
                    FleaJson {
                        x: piece.pos.x,
                        y: piece.pos.y,
                        half: piece.corner.map(|c| c.name()),
                        side: if f.is_active() { "active" } else { "latent" },
                        outbreak: f.region.map(|r| r + 1),
                    }
                })
                .collect(),
            spread_done: p.turn.spread,
            spread_owed: self.spread_owed(),
            fled: p.turn.fled,
        })
    }
}

// ---------------------------------------------------------------------------
// The action codec's numbering

/// Where a spread flea comes from, in the codec: the supply (0), or the
/// flea on the board of that rank (1–18) when the fleas are ordered by the
/// piece they sit on (placement order).
pub const FLEA_SOURCES: usize = 1 + FLEAS as usize;
/// Which follower flees, in the codec: the rank of its segment among the
/// current player's figures on the board, ordered by (piece, feature) —
/// at most 20 followers (the `followers` option's limit) and the large
/// follower; the special figures that may flee too (builder, pig) add one
/// each ([`flight_sources_max`]).
pub const FLIGHT_SOURCES: usize = 21;

/// How many segments a flight may start from in `g`'s codec: the
/// followers' [`FLIGHT_SOURCES`] and one per special figure a seat has.
fn flight_sources_max(g: &Game) -> usize {
    FLIGHT_SOURCES + crate::expansions::special_figures(g)
}

/// The piece in cell `p` (the half at `half` in a half-filled cell).
fn piece_in(g: &Game, p: Pos, half: Option<Corner>) -> Option<u16> {
    let board = g.board();
    board
        .pieces_at(p)
        .map(|(pi, _)| pi)
        .find(|&pi| board.pieces()[pi as usize].corner == half)
}

/// The pieces that carry a flea, ascending: a moved flea's source is its
/// rank here.
fn flea_pieces(g: &Game) -> Vec<u16> {
    let mut v: Vec<u16> = g
        .plague()
        .map(|p| p.fleas().iter().map(|f| f.piece).collect())
        .unwrap_or_default();
    v.sort_unstable();
    v
}

/// The segments `(piece, feature)` holding the current player's figures
/// (followers, builder, pig), ascending and distinct: a flight's source is
/// its rank here.
fn flight_sources(g: &Game) -> Vec<(u16, u8)> {
    let me = g.current_player();
    let mut v: Vec<(u16, u8)> = g
        .followers()
        .iter()
        .filter(|f| f.player == me)
        .map(|f| (f.piece, f.feature))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

// ---------------------------------------------------------------------------
// The codec and the tensor (through the hooks in `mod.rs`)

/// Its codec segment: spread fleas, `tile code·FLEA_SOURCES + source`
/// (the target tile; the supply or the rank of the flea moved), then
/// flights, `follower·place codes + place code` (the rank of the
/// fleeing follower's segment among the player's, then where to).
pub(super) fn codec_size(codec: &ActionCodec, g: &Game) -> usize {
    codec.tile_codes() * FLEA_SOURCES + flight_sources_max(g) * codec.feature_codes()
}

pub(super) fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
    match *a {
        Action::Flea { to, from } => {
            let t = codec.tile_code(to.pos(), to.half)?;
            let f = match from {
                None => 0,
                Some(f) => {
                    let pi = piece_in(g, f.pos(), f.half)?;
                    1 + flea_pieces(g).iter().position(|&q| q == pi)?
                }
            };
            (f < FLEA_SOURCES).then_some(t * FLEA_SOURCES + f)
        }
        Action::Flee { from, to } => {
            let cat = g.catalog();
            let board = g.board();
            let start = board.node_at(cat, from.pos(), from.half, from.place)?;
            let segment = board.features().origin(start);
            let f = flight_sources(g).iter().position(|&s| s == segment)?;
            // The destination by its canonical name, so that every name
            // of one segment gets the index `legal_indices` gives it.
            let dest = board.node_at(cat, to.pos(), to.half, to.place)?;
            let (qi, qf) = board.features().origin(dest);
            let (pos, place) = g.feature_anchor(qi, qf);
            let t = codec.feature_code(pos, board.pieces()[qi as usize].corner, place)?;
            (f < flight_sources_max(g))
                .then(|| codec.tile_codes() * FLEA_SOURCES + f * codec.feature_codes() + t)
        }
        _ => None,
    }
}

pub(super) fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
    let fleas = codec.tile_codes() * FLEA_SOURCES;
    if i >= fleas {
        let i = i - fleas;
        let (f, t) = (i / codec.feature_codes(), i % codec.feature_codes());
        let (pi, fi) = *flight_sources(g).get(f)?;
        let (fp, fpl) = g.feature_anchor(pi, fi);
        let fh = g.board().pieces()[pi as usize].corner;
        let (tp, th, tpl) = codec.feature_of(t)?;
        return Some(Action::Flee {
            from: FeatureAt::new(fp, fh, fpl)?,
            to: FeatureAt::new(tp, th, tpl)?,
        });
    }
    let (t, f) = (i / FLEA_SOURCES, i % FLEA_SOURCES);
    let (tp, th) = codec.tile_of(t)?;
    let from = match f {
        0 => None,
        f => {
            let pi = *flea_pieces(g).get(f - 1)?;
            let piece = g.board().pieces()[pi as usize];
            Some(TileAt::new(piece.pos, piece.corner)?)
        }
    };
    Some(Action::Flea {
        to: TileAt::new(tp, th)?,
        from,
    })
}

/// Planes: active flea, latent flea, active outbreak, eradicated
/// outbreak. Globals: fleas in the supply / 18, a spread is owed, a
/// follower fled this turn, the plague has broken out.
pub(super) fn tensor_size(_g: &Game) -> (usize, usize) {
    (4, 4)
}

pub(super) fn tensor(g: &Game, _player: Seat, t: &mut crate::codec::TensorPart<'_>) {
    let Some(p) = g.plague() else { return };
    for f in p.fleas() {
        t.set_piece(g, if f.is_active() { 0 } else { 1 }, f.piece, 1.0);
    }
    for o in p.outbreaks() {
        t.set_piece(g, if o.active { 2 } else { 3 }, o.piece, 1.0);
    }
    t.push(f32::from(p.supply()) / f32::from(FLEAS));
    t.push(f32::from(u8::from(g.spread_owed())));
    t.push(f32::from(u8::from(p.fled())));
    t.push(f32::from(u8::from(p.started())));
}
