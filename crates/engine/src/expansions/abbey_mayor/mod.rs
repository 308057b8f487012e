//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules; each player
//! holds an abbey, placed instead of drawing and in the final abbey round
//! (`abbey.rs`); the barn (`barn.rs`), the mayor and the wagon
//! ([`figures`]) are played. The expansion is in play exactly when its id
//! is on; its state ([`AbbeyMayorState`]) is made at set-up, one field per
//! part, and its codec segment and tensor part are the parts' in turn.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

pub mod abbey;
pub mod barn;
pub mod figures;

use crate::action::Figure;
use crate::catalog::TileIdx;
use crate::codec::{ActionCodec, FOLLOWER_CODES};
use crate::config::ConfigError;
use crate::expansions::{DeckCtx, Expansion, ExpansionId, ExpansionState, Family, SetupCtx};
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// Place-code slots of the figures' codec part: the wagon's move, then the
/// princess sending home a mayor or wagon of each of six seats, then the
/// mayor and the wagon through a magic portal.
const CODEC_SLOTS: usize = 1 + 2 * 6 + 2;

/// The first of the two slots of the mayor and the wagon through a magic
/// portal.
const PORTAL_SLOT: usize = 1 + 2 * 6;

/// Abbey & Mayor's per-game state, one part per component of the box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbbeyMayorState {
    /// The abbeys: who still holds one, the final abbey round.
    pub(crate) abbey: abbey::Abbeys,
    /// The barns: supply, board, the scoring owed.
    pub(crate) barns: barn::Barns,
    /// The mayors and wagons ([`figures`]).
    pub(crate) figures: figures::Figures,
}

// ---------------------------------------------------------------------------
// The hooks

/// Abbey & Mayor's hooks into the turn.
pub(crate) struct AbbeyMayor;

impl Expansion for AbbeyMayor {
    const FAMILY: Family = Family::AbbeyMayor;
    const SWITCH_ON: (&'static str, &'static str) =
        ("Abbey & Mayor", "abbey-mayor to \"expansions\"");

    /// A bitset test (its state exists exactly when it is on).
    #[inline]
    fn active(g: &Game) -> bool {
        g.rules.expansions.has(ExpansionId::AbbeyMayor)
    }

    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "pig_herd_barn",
        "true: River II's pig herd adds 1 a city to barns at the end too (house rule; default false)",
    )];

    /// Its 12 land tiles (the abbeys are dealt, never in the pile).
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        abbey::land_tiles(ctx, bag)
    }

    fn setup(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
        // An earlier deal's memory is kept: `start` deals the barns and the
        // figures again in place.
        let (abbey, barns, figures) = match ext.abbey_mayor.take() {
            Some(s) => (Some(s.abbey), s.barns, s.figures),
            None => Default::default(),
        };
        ext.abbey_mayor = Some(AbbeyMayorState {
            abbey: abbey::setup(ctx, abbey)?,
            barns,
            figures,
        });
        Ok(())
    }

    fn extra_cells(ext: &ExpansionState) -> usize {
        abbey::cells_left(ext)
    }

    // -- The abbey in the tile step ------------------------------------

    const LISTS_PLACEMENTS: bool = true;

    /// Only while the abbey is a choice do the tile step's actions differ
    /// from the drawn tile's edge placements.
    #[inline]
    fn lists_placements_of(g: &Game, _tile: TileIdx) -> bool {
        abbey::pending_drawn(g)
    }

    fn before_draw(g: &mut Game) {
        abbey::set_drew(g, false);
    }

    fn draw_pending(g: &Game) -> bool {
        abbey::pending(g)
    }

    fn draw_taken(g: &mut Game) {
        abbey::set_drew(g, true);
    }

    fn implied_draw(g: &mut Game) -> Result<(), IllegalAction> {
        abbey::set_drew(g, true);
        Ok(())
    }

    fn undisclosed_draws(g: &Game, out: &mut Vec<TileIdx>) {
        abbey::undisclosed(g, out);
    }

    fn unsee_draws(g: &mut Game) -> bool {
        abbey::unsee(g)
    }

    fn other_placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
        abbey::placements(g, pending, out);
    }

    fn places_tile(g: &Game, tile: TileIdx) -> bool {
        abbey::is_abbey(g, tile)
    }

    fn play_other_tile(
        g: &mut Game,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
        mode: Mode,
    ) -> Option<Result<(), IllegalAction>> {
        abbey::play(g, tile, pos, rot, mode)
    }

    fn after_place(g: &mut Game, pi: u16) {
        abbey::placed(g, pi);
    }

    /// A turn may add `draw`; each abbey is a turn of its own, and each
    /// seat may pass once in the final abbey round.
    /// (and a part may add one wagon step per seat).
    fn max_moves(g: &Game) -> crate::expansions::MoveBound {
        let n = g.player_count();
        crate::expansions::MoveBound {
            per_turn: 1 + 2 * n,
            once: n,
            turns: n,
        }
    }

    // -- The final abbey round -----------------------------------------

    fn play_without_draw(g: &mut Game) -> bool {
        abbey::begin_round(g)
    }

    fn hold_turn(g: &mut Game) -> bool {
        abbey::after_abbey_turn(g)
    }

    /// The final abbey round and the wagon step.
    fn owns_phase(p: Phase) -> bool {
        matches!(p, Phase::Abbey | Phase::Wagon)
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        if g.phase == Phase::Wagon {
            g.wagon_actions(out);
        } else {
            abbey::round_actions(g, out);
        }
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        if g.phase != Phase::Wagon {
            return Some(abbey::apply_in_round(g, a, mode));
        }
        Some(match *a {
            Action::Wagon { to } => g.move_wagon(to),
            Action::Pass => {
                g.next_wagon();
                Ok(())
            }
            _ => Err(Game::wagon_step_refusal()),
        })
    }

    // -- The barn (`barn.rs`) ------------------------------------------------

    /// Every barn, mayor and wagon in the supply.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        if let Some(s) = g.ext.abbey_mayor.as_mut() {
            s.barns.deal(n);
            s.figures.reset(n);
        }
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        match a {
            Action::Barn { .. } => Some(("barn", "Abbey & Mayor (the barn)")),
            Action::Follower {
                figure: Figure::Mayor | Figure::Wagon,
                ..
            } => Some(("follower", "Abbey & Mayor (the mayor and the wagon)")),
            Action::Wagon { .. } => Some(("wagon", "Abbey & Mayor (the wagon)")),
            _ => None,
        }
    }

    /// The mayor's and the wagon's spots, and the barn's corners, instead
    /// of a follower.
    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        g.am_follower_spots(out);
        g.barn_spots(out);
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let in_step = g.phase == Phase::Follower;
        Some(match *a {
            Action::Barn { at, corner } if in_step => g.place_barn(at, corner),
            Action::Barn { .. } => Err(illegal(
                "barn",
                "a barn goes on a corner of the tile just placed, in the follower step",
            )),
            Action::Follower {
                pos,
                corner,
                place,
                figure: figure @ (Figure::Mayor | Figure::Wagon),
            } if in_step => g.am_place_figure(pos, corner, place, figure),
            Action::Wagon { .. } => Err(illegal(
                "wagon",
                "a wagon moves only in the wagon step, after its feature was scored",
            )),
            _ => return None,
        })
    }

    // -- The mayor and the wagon (`figures.rs`) ------------------------------

    fn figure_in_supply(g: &Game, seat: Seat, figure: Figure) -> Option<bool> {
        figures::FIGURES.contains(&figure).then(|| {
            g.abbey_mayor_figures()
                .is_some_and(|f| f.in_supply(seat, figure))
        })
    }

    /// The mayor in a city, the wagon on a road, city or monastery (also
    /// through a magic portal).
    fn figure_fits(figure: Figure, kind: crate::catalog::FeatureKind) -> Option<bool> {
        figures::FIGURES
            .contains(&figure)
            .then(|| Game::am_figure_fits(figure, kind))
    }

    fn figure_home(g: &mut Game, f: Follower) -> bool {
        g.am_figure_home(f)
    }

    /// The mayor counts its city's coats of arms; the wagon one.
    fn majority_weight(g: &Game, f: &Follower) -> Option<u8> {
        match f.figure {
            Figure::Mayor => Some(g.mayor_strength(f)),
            Figure::Wagon => Some(1),
            _ => None,
        }
    }

    fn before_completion(g: &mut Game, root: NodeId) {
        g.note_wagons(root);
    }

    /// The part's scoring happens here, after the dragon step and before
    /// the Plague's step, so that the wagon step can follow it at once.
    fn after_follower_step(g: &mut Game) -> bool {
        g.score_then_wagon_step()
    }

    /// The mayor and the wagon: followers, but beyond the `followers`
    /// count, so a seat may have two more figures on the board (the
    /// Plague's flight codec numbers them).
    fn special_figures(_g: &Game) -> usize {
        figures::FIGURES.len()
    }

    fn figure_ban_in(g: &Game, node: NodeId) -> Option<&'static str> {
        g.barn_ban(node)
    }

    fn part_scoring(g: &mut Game, _pi: u16) {
        g.score_barn_fields();
    }

    fn final_features(g: &mut Game) {
        g.score_barns_at_end();
    }

    // -- Codec and views: each part's in turn -------------------------------

    /// Its codec segment: the barn's corners of the tile just placed
    /// ([`barn::BARN_CODES`]), then the mayor's and the wagon's part
    /// ([`figures_codec_size`]), then the abbey's placement on each window
    /// cell and its draw (`abbey::codec_size`).
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        barn::BARN_CODES + figures_codec_size(codec) + abbey::codec_size(codec)
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        let abbey_base = barn::BARN_CODES + figures_codec_size(codec);
        g.barn_code(a)
            .or_else(|| figures_encode(codec, g, a).map(|i| barn::BARN_CODES + i))
            .or_else(|| abbey::encode(codec, g, a).map(|i| abbey_base + i))
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        let abbey_base = barn::BARN_CODES + figures_codec_size(codec);
        if i < barn::BARN_CODES {
            g.barn_of_code(i)
        } else if i < abbey_base {
            figures_decode(codec, g, i - barn::BARN_CODES)
        } else {
            abbey::decode(codec, g, i - abbey_base, abbey_base)
        }
    }

    /// `abbeys`: per seat, whether its abbey is still in hand (public);
    /// the barns' keys (`barn.rs`).
    /// `mayors`, `wagons`: per seat, whether the figure is in the supply.
    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        put(out, "abbeys", abbey::held(g));
        g.barns_json(out);
        if let Some(f) = g.abbey_mayor_figures() {
            put(out, "mayors", f.supply_of(Figure::Mayor));
            put(out, "wagons", f.supply_of(Figure::Wagon));
        }
    }

    /// One global per seat (its abbey in hand), then the mayor's and
    /// wagon's planes and globals, then the barns'.
    fn tensor_size(g: &Game) -> (usize, usize) {
        let n = g.player_count();
        (2 * n + 1 + n, n + (2 * n + 1) + n)
    }

    /// Per relative player whether its abbey is in hand; then the mayors
    /// and wagons ([`figures_tensor`], planes `0..2n+1`); then the barns:
    /// one plane per relative player (its barn stands on a corner of this
    /// cell), one global per relative player (its barn in the supply).
    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        let held = abbey::held(g);
        for r in 0..n {
            let seat = player.ahead(r, n);
            t.push(f32::from(u8::from(held.get(seat.index()) == Some(&true))));
        }
        t.within(0, 2 * n + 1, |t| figures_tensor(g, player, t));
        t.within(2 * n + 1, n, |t| g.barns_tensor(player, t));
    }
}

// ---------------------------------------------------------------------------
// The mayor's and the wagon's codec and tensor parts

/// The figures' codec part: the mayor's and the wagon's follower codes;
/// then, with `F` place codes, slot 0 the wagon step's move by place code,
/// slots `1 + 2·seat + k` the princess sending home that seat's mayor
/// (`k` = 0) or wagon (`k` = 1), slots `13 + k` the mayor or wagon through
/// a magic portal onto another tile than the one just placed (the
/// Princess & the Dragon's segment numbers the normal and large followers
/// only).
fn figures_codec_size(codec: &ActionCodec) -> usize {
    2 * FOLLOWER_CODES + CODEC_SLOTS * codec.feature_codes()
}

fn figures_encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
    let f = codec.feature_codes();
    let figure_k = |figure| figures::FIGURES.iter().position(|x| *x == figure);
    match *a {
        Action::Follower {
            pos,
            corner,
            place,
            figure,
        } => {
            let k = figure_k(figure)?;
            if g.last.is_none_or(|pi| g.on_piece(pi, pos, corner)) {
                ActionCodec::follower_code(g, pos, place).map(|c| k * FOLLOWER_CODES + c)
            } else {
                let c = codec.feature_code(pos, corner, place)?;
                Some(2 * FOLLOWER_CODES + (PORTAL_SLOT + k) * f + c)
            }
        }
        Action::Wagon { to } => codec
            .feature_code(to.pos(), to.half, to.place)
            .map(|c| 2 * FOLLOWER_CODES + c),
        Action::Princess { at, seat, figure } => {
            let k = figure_k(figure)?;
            let seat = usize::from(seat);
            (seat < 6).then_some(())?;
            let c = codec.feature_code(at.pos(), at.half, at.place)?;
            Some(2 * FOLLOWER_CODES + (1 + 2 * seat + k) * f + c)
        }
        _ => None,
    }
}

fn figures_decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
    if i < 2 * FOLLOWER_CODES {
        let figure = figures::FIGURES[i / FOLLOWER_CODES];
        return ActionCodec::follower_of(g, i % FOLLOWER_CODES, figure);
    }
    let f = codec.feature_codes();
    let (slot, code) = ((i - 2 * FOLLOWER_CODES) / f, (i - 2 * FOLLOWER_CODES) % f);
    let (pos, half, place) = codec.feature_of(code)?;
    let at = crate::action::FeatureAt::new(pos, half, place)?;
    Some(match slot {
        0 => Action::Wagon { to: at },
        s if s < PORTAL_SLOT => Action::Princess {
            at,
            seat: u8::try_from((s - 1) / 2).ok()?,
            figure: figures::FIGURES[(s - 1) % 2],
        },
        // The tile just placed is the follower codes' (as `figures_encode`
        // spells it): one index an action.
        s if s < CODEC_SLOTS && g.last.is_none_or(|pi| g.on_piece(pi, pos, half)) => return None,
        s if s < CODEC_SLOTS => Action::Follower {
            pos,
            corner: half,
            place,
            figure: figures::FIGURES[s - PORTAL_SLOT],
        },
        _ => return None,
    })
}

/// Two planes per seat (relative to the observer): its mayor, its wagon on
/// a feature named by this cell; then the tile the waiting wagon stood on
/// in the wagon step. Globals: per seat its mayor and its wagon in the
/// supply; the wagon step is held.
fn figures_tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
    let n = g.player_count();
    for f in g.followers() {
        if let Some(k) = figures::FIGURES.iter().position(|x| *x == f.figure) {
            let rel = f.player.after(player, n);
            t.set(2 * rel + k, g.feature_anchor(f.piece, f.feature).0, 1.0);
        }
    }
    let figs = g.abbey_mayor_figures();
    let from = figs.and_then(figures::Figures::moving_from);
    if let Some(pi) = from {
        t.set_piece(g, 2 * n, pi, 1.0);
    }
    for r in 0..n {
        let seat = player.ahead(r, n);
        for figure in figures::FIGURES {
            t.push(f32::from(u8::from(
                figs.is_some_and(|f| f.in_supply(seat, figure)),
            )));
        }
    }
    t.push(f32::from(u8::from(from.is_some())));
}
