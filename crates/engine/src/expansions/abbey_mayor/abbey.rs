//! The abbey (`abbey-mayor.md`, "1. Tile step — the abbey instead of a
//! drawn tile" and "End of game: final abbey round").
//!
//! Each player holds one abbey tile (`abbey-mayor/abbey`, never in the
//! pile). Instead of drawing, a player who still holds it may place it in
//! an empty cell whose four orthogonal neighbours all hold a tile (a cell
//! holding one half counts), once no river tile is to be drawn. The
//! catalog gives the abbey closing sides: they fit against anything and
//! end whatever touches them, so the board closes the neighbours' roads,
//! cities and fields there and the scoring step scores what that completed
//! (`Game::score_completed`). The abbey is a monastery at `C`; the follower
//! step and every later step follow as after any tile. It may be a builder
//! double turn's second tile (Decision M2: Traders & Builders' builder step
//! lists the tiles held through [`placements`]).
//!
//! Drawing is a choice while the player could place the abbey: the tile
//! step then starts with the drawn tile unseen and offers the abbey's
//! placements and `draw` (a placement of the drawn tile implies the draw).
//! Where the abbey fits nowhere there is no choice to make, so the drawn
//! tile is shown as usual.
//!
//! After the last land tile's turn, the final abbey round (phase `abbey`,
//! Decision M1): from the player after the one who placed the last land
//! tile round to that player, each who still holds an abbey begins a turn
//! and places it or passes.

use crate::catalog::TileIdx;
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{DeckCtx, ExpansionId, ExpansionState, SetupCtx};
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation, Side};
use crate::seat::Seat;

/// The abbey's tile id.
pub const ABBEY_ID: &str = "abbey-mayor/abbey";

/// The rule tag of every refusal here.
const RULE: &str = "abbey";

/// The abbeys of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abbeys {
    /// The abbey's catalog index.
    tile: TileIdx,
    /// Per seat: whether the abbey is still in hand.
    held: Vec<bool>,
    /// Whether the current player has drawn this part (then the drawn tile
    /// is placed, no abbey).
    drew: bool,
    /// The player who placed the latest tile other than an abbey: at the
    /// end, the one who placed the last land tile.
    last_placer: Seat,
    /// The final abbey round, once begun: how many seats of its order
    /// (from the one after [`Abbeys::last_placer`]) have had their turn.
    round: Option<u8>,
}

impl Abbeys {
    /// Whether `seat` still holds its abbey.
    pub fn holds(&self, seat: Seat) -> bool {
        self.held.get(seat.index()).copied().unwrap_or(false)
    }

    /// The abbey's catalog index.
    pub fn tile(&self) -> TileIdx {
        self.tile
    }
}

impl Game {
    /// The abbeys, when Abbey & Mayor is in play.
    pub fn abbeys(&self) -> Option<&Abbeys> {
        self.ext.abbey_mayor.as_ref().map(|s| &s.abbey)
    }
}

fn abbeys_mut(g: &mut Game) -> Option<&mut Abbeys> {
    g.ext.abbey_mayor.as_mut().map(|s| &mut s.abbey)
}

// ---------------------------------------------------------------------------
// Set-up

/// The set's land tiles into the bag, each as many times as its count: the
/// abbeys stay out (they are dealt into the hands).
pub(super) fn land_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
    let key = ExpansionId::AbbeyMayor.key();
    let set = ctx
        .catalog
        .set(key)
        .ok_or_else(|| ConfigError::NotImplemented(key.into()))?;
    for &t in &set.tiles {
        let def = ctx.catalog.tile(t);
        if !def.closing_sides {
            bag.extend(std::iter::repeat_n(t, def.count as usize));
        }
    }
    Ok(())
}

/// One abbey in each hand.
/// `earlier`: an earlier deal's abbeys, whose memory is reused (a reset
/// game allocates nothing).
pub(super) fn setup(ctx: &SetupCtx<'_>, earlier: Option<Abbeys>) -> Result<Abbeys, ConfigError> {
    let tile = ctx
        .catalog
        .find(ABBEY_ID)
        .ok_or_else(|| ConfigError::NotImplemented(ABBEY_ID.into()))?;
    let mut held = earlier.map(|a| a.held).unwrap_or_default();
    held.clear();
    held.resize(ctx.config.players.len(), true);
    Ok(Abbeys {
        tile,
        held,
        drew: false,
        last_placer: Seat::default(),
        round: None,
    })
}

/// Cells the abbeys still in hand may fill.
pub(super) fn cells_left(ext: &ExpansionState) -> usize {
    ext.abbey_mayor
        .as_ref()
        .map_or(0, |s| s.abbey.held.iter().filter(|h| **h).count())
}

// ---------------------------------------------------------------------------
// Where an abbey may go

/// Calls `f` with each cell the abbey may go into: empty, on the map, and
/// each of its four neighbours holding a tile. A frontier cell that faces a
/// placed side on all four sides is one; with halves on the board, so is
/// an empty cell beside a half whose gap faces it, if its other neighbours
/// hold tiles. In frontier order, then in the halves' order.
pub(super) fn holes(g: &Game, mut f: impl FnMut(Pos) -> bool) {
    let board = &g.board;
    for fc in board.frontier() {
        if fc.mask == u32::MAX && !f(fc.pos) {
            return;
        }
    }
    // A cell beside a half's gap faces no side there: not on the frontier
    // with a full mask, so looked for from the halves.
    let full = |p: Pos| {
        board
            .frontier()
            .iter()
            .any(|c| c.pos == p && c.mask == u32::MAX)
    };
    let mut seen: Vec<Pos> = Vec::new();
    for &h in board.half_cells() {
        for side in Side::ALL {
            let p = h.step(side);
            if seen.contains(&p) || full(p) || !is_hole(g, p) {
                continue;
            }
            seen.push(p);
            if !f(p) {
                return;
            }
        }
    }
}

/// Whether `p` is an empty cell on the map whose four neighbours hold a
/// tile (or a half).
fn is_hole(g: &Game, p: Pos) -> bool {
    let b = &g.board;
    p.in_range()
        && b.allowed(p)
        && !b.is_occupied(p)
        && Side::ALL.iter().all(|s| b.is_occupied(p.step(*s)))
}

/// Whether the abbey has a cell to go into.
fn any_hole(g: &Game) -> bool {
    let mut any = false;
    holes(g, |_| {
        any = true;
        false
    });
    any
}

/// Why no abbey may be placed now, if a river tile is the tile to draw (as
/// for halves: an abbey replaces the draw of a land tile).
fn river_ban(g: &Game) -> Option<&'static str> {
    let t = g.drawn.or_else(|| g.next_draw_kind())?;
    g.rules.catalog.tile(t).is_river.then_some(
        "a river tile is to be drawn and must be placed: no abbey until the river is finished",
    )
}

/// Whether the current player still chooses between their abbey and the
/// draw: they hold it, have not drawn, a tile is there to draw, no river
/// tile is to be drawn, and the abbey fits somewhere.
pub(super) fn pending(g: &Game) -> bool {
    g.phase == Phase::Place
        && (g.drawn.is_some() || (g.chance.due && g.chance.drawable))
        && g.abbeys().is_some_and(|a| !a.drew && a.holds(g.current))
        && river_ban(g).is_none()
        && any_hole(g)
}

/// [`pending`] with a tile drawn: what the place step lists differs from
/// the drawn tile's edge placements. It reads the drawn tile only, never
/// the kind of a draw to come, which asks where tiles fit (and so this).
pub(super) fn pending_drawn(g: &Game) -> bool {
    g.phase == Phase::Place
        && g.drawn.is_some_and(|t| !g.rules.catalog.tile(t).is_river)
        && g.abbeys().is_some_and(|a| !a.drew && a.holds(g.current))
        && any_hole(g)
}

/// The abbey's placements for the current player, where the draw is still
/// a choice (`pending`: the tile step before the draw, or the builder
/// step).
pub(super) fn placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
    let Some(a) = g.abbeys() else { return };
    if !pending || !a.holds(g.current) || river_ban(g).is_some() {
        return;
    }
    push_placements(g, a.tile, out);
}

fn push_placements(g: &Game, tile: TileIdx, out: &mut Vec<Action>) {
    holes(g, |pos| {
        out.push(Action::Place {
            tile,
            pos,
            rot: Rotation::default(),
        });
        true
    });
}

// ---------------------------------------------------------------------------
// Placing it

/// Places the abbey from the current player's hand, or refuses it naming
/// the rule; `None` when `tile` is not the abbey.
pub(super) fn play(
    g: &mut Game,
    tile: TileIdx,
    pos: Pos,
    rot: Rotation,
    mode: Mode,
) -> Option<Result<(), IllegalAction>> {
    if g.abbeys()?.tile != tile {
        return None;
    }
    if mode == Mode::Checked {
        if let Err(e) = check(g, pos, rot) {
            return Some(Err(e));
        }
    }
    place(g, pos);
    Some(Ok(()))
}

/// Every rule of an abbey placement in the tile step, the builder step or
/// the final abbey round.
fn check(g: &Game, pos: Pos, rot: Rotation) -> Result<(), IllegalAction> {
    let Some(a) = g.abbeys() else {
        return Err(illegal(RULE, "Abbey & Mayor is not in play in this game"));
    };
    if !a.holds(g.current) {
        return Err(illegal(
            RULE,
            "you have placed your abbey already: each player has one abbey, placed once; draw a tile instead",
        ));
    }
    if rot != Rotation::default() {
        return Err(illegal(
            RULE,
            "the abbey looks the same every way: place it with rotation 0",
        ));
    }
    if g.phase == Phase::Place {
        if let Some(why) = river_ban(g) {
            return Err(illegal(RULE, why));
        }
        if a.drew {
            return Err(illegal(
                RULE,
                "you drew a tile this turn: place it (the abbey is placed instead of drawing, not after)",
            ));
        }
    }
    check_cell(g, pos)
}

/// The cell must be an empty cell of the map closed on all four sides.
fn check_cell(g: &Game, pos: Pos) -> Result<(), IllegalAction> {
    let b = &g.board;
    if !b.allowed(pos) {
        return Err(illegal(
            RULE,
            format!("cell {pos} is not a square of the map"),
        ));
    }
    if b.is_occupied(pos) {
        return Err(illegal(
            RULE,
            format!("cell {pos} already holds a tile: the abbey goes into an empty cell"),
        ));
    }
    if let Some(open) = Side::ALL.iter().find(|s| !b.is_occupied(pos.step(**s))) {
        return Err(illegal(
            RULE,
            format!(
                "the abbey goes only into a hole closed on all four sides, and the cell {} of {pos} is empty",
                open.name()
            ),
        ));
    }
    Ok(())
}

/// The abbey leaves the hand and goes down at `pos`: a tile drawn and not
/// yet seen goes back on top of the pile (with any passed over before it),
/// since the abbey replaces the draw.
fn place(g: &mut Game, pos: Pos) {
    let seat = g.current.index();
    let Some(a) = abbeys_mut(g) else { return };
    let tile = a.tile;
    if let Some(h) = a.held.get_mut(seat) {
        *h = false;
    }
    if let Some(d) = g.drawn.take() {
        g.pile.push(d);
    }
    while let Some(t) = g.ext.skipped.pop() {
        g.pile.push(t);
    }
    g.do_place(tile, pos, Rotation::default());
}

/// The drawn tile (not an abbey) went down: its placer may be the last
/// land tile's.
pub(super) fn placed(g: &mut Game, pi: u16) {
    let tile = g.board.pieces()[pi as usize].tile;
    let seat = g.current;
    if let Some(a) = abbeys_mut(g) {
        if a.tile != tile {
            a.last_placer = seat;
        }
    }
}

/// A draw starts or the player draws: no abbey after it.
pub(super) fn set_drew(g: &mut Game, drew: bool) {
    if let Some(a) = abbeys_mut(g) {
        a.drew = drew;
    }
}

/// Whether `tile` is the abbey (placed from a hand, never drawn).
pub(super) fn is_abbey(g: &Game, tile: TileIdx) -> bool {
    g.abbeys().is_some_and(|a| a.tile == tile)
}

/// While the choice is pending, the tile that would be drawn is unseen
/// (unless an expansion before this one listed it already).
pub(super) fn undisclosed(g: &Game, out: &mut Vec<TileIdx>) {
    if out.is_empty() && pending(g) {
        out.extend(g.drawn);
    }
}

/// Puts an unseen draw back in the pile; true if the draw must be made
/// again.
pub(super) fn unsee(g: &mut Game) -> bool {
    if !pending(g) {
        return false;
    }
    if let Some(d) = g.drawn.take() {
        g.pile.push(d);
    }
    true
}

// ---------------------------------------------------------------------------
// The final abbey round (Decision M1)

/// The pile is out after the last land tile's turn: the round begins (or
/// goes on). Returns whether someone still has an abbey turn.
pub(super) fn begin_round(g: &mut Game) -> bool {
    let Some(a) = abbeys_mut(g) else {
        return false;
    };
    a.round.get_or_insert(0);
    next_abbey_turn(g)
}

/// Whether the final abbey round is under way.
pub(super) fn in_round(g: &Game) -> bool {
    g.abbeys().is_some_and(|a| a.round.is_some())
}

/// The next seat of the round still holding an abbey begins its turn
/// (phase `abbey`; its turn's start happens, unless the turn machine has
/// just started this seat's turn); false when the round is over.
fn next_abbey_turn(g: &mut Game) -> bool {
    let n = g.players.len();
    let Some(a) = abbeys_mut(g) else {
        return false;
    };
    let first = a.last_placer.next(n);
    let from = usize::from(a.round.unwrap_or(0));
    let Some(k) = (from..n).find(|&k| a.holds(first.ahead(k, n))) else {
        a.round = Some(n as u8);
        return false;
    };
    a.round = Some(k as u8 + 1);
    let seat = first.ahead(k, n);
    g.last = None;
    g.drawn = None;
    g.phase = Phase::Abbey;
    if seat != g.current {
        g.current = seat;
        crate::expansions::turn_start(g);
    }
    true
}

/// An abbey turn's steps are over: the next abbey turn, or the end of the
/// game. Returns true (the turn is held here) while the round is under way.
pub(super) fn after_abbey_turn(g: &mut Game) -> bool {
    if !in_round(g) {
        return false;
    }
    if !next_abbey_turn(g) {
        end_game(g);
    }
    true
}

/// The round is over: final scoring.
fn end_game(g: &mut Game) {
    g.last = None;
    g.drawn = None;
    g.final_scoring();
    g.phase = Phase::Over;
}

/// The actions of an abbey turn: the abbey's placements, then `pass`.
pub(super) fn round_actions(g: &Game, out: &mut Vec<Action>) {
    if let Some(a) = g.abbeys() {
        if a.holds(g.current) {
            push_placements(g, a.tile, out);
        }
    }
    out.push(Action::Pass);
}

/// Applies (or refuses) an action of an abbey turn.
pub(super) fn apply_in_round(
    g: &mut Game,
    action: &Action,
    mode: Mode,
) -> Result<(), IllegalAction> {
    match *action {
        Action::Place { tile, pos, rot } if is_abbey(g, tile) => {
            play(g, tile, pos, rot, mode).unwrap_or(Ok(()))
        }
        Action::Pass => {
            if !next_abbey_turn(g) {
                end_game(g);
            }
            Ok(())
        }
        _ => Err(illegal(
            RULE,
            "the final abbey round: place your abbey into a hole closed on all four sides, or pass",
        )),
    }
}

// ---------------------------------------------------------------------------
// Codec, views

/// Its codec indices: the abbey's placement on each window cell (rotation
/// is always 0), then `draw` (the choice the abbey makes; an expansion
/// earlier in the order that numbers `draw` takes it first).
pub(super) fn codec_size(codec: &ActionCodec) -> usize {
    codec.width() * codec.width() + 1
}

/// The index of `draw` in the segment, after the cells.
fn draw_index(codec: &ActionCodec) -> usize {
    codec.width() * codec.width()
}

/// The index of an abbey placement, or of `draw`.
pub(super) fn encode(codec: &ActionCodec, g: &Game, action: &Action) -> Option<usize> {
    match *action {
        Action::Place { tile, pos, rot } if is_abbey(g, tile) && rot == Rotation::default() => {
            codec.cell_index(pos)
        }
        Action::Draw => Some(draw_index(codec)),
        _ => None,
    }
}

/// The abbey placement of index `i`, or `draw`; `base` is where this part
/// starts in Abbey & Mayor's segment.
pub(super) fn decode(codec: &ActionCodec, g: &Game, i: usize, base: usize) -> Option<Action> {
    let tile = g.abbeys()?.tile;
    if i == draw_index(codec) {
        // Only the index `draw` is encoded to (an earlier segment's first).
        let family = crate::expansions::Family::AbbeyMayor;
        return crate::expansions::numbers_draw(codec, g, family, base + i).then_some(Action::Draw);
    }
    if i > draw_index(codec) {
        return None;
    }
    let w = codec.width() as i32;
    let (r, i) = (codec.radius, i as i32);
    Some(Action::Place {
        tile,
        pos: Pos::new(i % w - r, i / w - r),
        rot: Rotation::default(),
    })
}

/// Per seat, whether its abbey is still in hand (public).
pub(super) fn held(g: &Game) -> Vec<bool> {
    g.abbeys().map(|a| a.held.clone()).unwrap_or_default()
}
