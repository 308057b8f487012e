//! Abbey & Mayor (second edition), `abbey-mayor.md`.
//!
//! In progress: the twelve land tiles join the pile
//! (`catalog/abbey-mayor.toml`) and play by the base rules; the mayor and
//! the wagon are played ([`figures`]). The abbey tile, the barn and the
//! final abbey round are not played yet.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end;
//! each part's state is one field of [`AbbeyMayorState`].

pub mod figures;

use crate::action::Figure;
use crate::catalog::TileIdx;
use crate::codec::{ActionCodec, FOLLOWER_CODES};
use crate::config::ConfigError;
use crate::expansions::{set_tiles, DeckCtx, Expansion, ExpansionId, Family};
use crate::features::NodeId;
use crate::game::{Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

/// Place-code slots of the codec segment: the wagon's move, then the
/// princess sending home a mayor or wagon of each of six seats.
const CODEC_SLOTS: usize = 1 + 2 * 6;

/// Abbey & Mayor's per-game state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbbeyMayorState {
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

    /// A bitset test (its state is made at the start of every game).
    #[inline]
    fn active(g: &Game) -> bool {
        g.rules.expansions.has(ExpansionId::AbbeyMayor)
    }

    /// Its 12 land tiles.
    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        set_tiles(ctx, ExpansionId::AbbeyMayor, bag)
    }

    /// Every seat's mayor and wagon start in the supply.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        let s = g.ext.abbey_mayor.get_or_insert_with(Default::default);
        s.figures.reset(n);
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        match a {
            Action::Follower {
                figure: Figure::Mayor | Figure::Wagon,
                ..
            } => Some(("follower", "Abbey & Mayor (the mayor and the wagon)")),
            Action::Wagon { .. } => Some(("wagon", "Abbey & Mayor (the wagon)")),
            _ => None,
        }
    }

    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        g.am_follower_spots(out);
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        match *a {
            Action::Follower {
                pos,
                corner,
                place,
                figure: figure @ (Figure::Mayor | Figure::Wagon),
            } if g.phase == Phase::Follower => Some(g.am_place_figure(pos, corner, place, figure)),
            Action::Wagon { .. } => Some(Err(crate::game::illegal(
                "wagon",
                "a wagon moves only in the wagon step, after its feature was scored",
            ))),
            _ => None,
        }
    }

    fn figure_in_supply(g: &Game, seat: Seat, figure: Figure) -> Option<bool> {
        figures::FIGURES.contains(&figure).then(|| {
            g.abbey_mayor_figures()
                .is_some_and(|f| f.in_supply(seat, figure))
        })
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

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Wagon
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.wagon_actions(out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match *a {
            Action::Wagon { to } => g.move_wagon(to),
            Action::Pass => {
                g.next_wagon();
                Ok(())
            }
            _ => Err(Game::wagon_step_refusal()),
        })
    }

    /// The mayor and the wagon: followers, but beyond the `followers`
    /// count, so a seat may have two more figures on the board (the
    /// Plague's flight codec numbers them).
    fn special_figures(_g: &Game) -> usize {
        figures::FIGURES.len()
    }

    /// A part may add one wagon step per seat.
    fn max_moves(g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: 2 * g.players.len(),
            ..Default::default()
        }
    }

    /// Its codec segment: the mayor's and the wagon's follower codes; then,
    /// with `F` place codes, slot 0 the wagon step's move by place code,
    /// slots `1 + 2·seat + k` the princess sending home that seat's mayor
    /// (`k` = 0) or wagon (`k` = 1) (the Princess & the Dragon's segment
    /// numbers the normal and large followers only).
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        2 * FOLLOWER_CODES + CODEC_SLOTS * codec.feature_codes()
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        let f = codec.feature_codes();
        let figure_k = |figure| figures::FIGURES.iter().position(|x| *x == figure);
        match *a {
            Action::Follower {
                pos, place, figure, ..
            } => {
                let k = figure_k(figure)?;
                ActionCodec::follower_code(g, pos, place).map(|c| k * FOLLOWER_CODES + c)
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

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
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
            s if s < CODEC_SLOTS => Action::Princess {
                at,
                seat: u8::try_from((s - 1) / 2).ok()?,
                figure: figures::FIGURES[(s - 1) % 2],
            },
            _ => return None,
        })
    }

    /// Two planes per seat (relative to the observer): its mayor, its
    /// wagon on a feature named by this cell; then the tile the waiting
    /// wagon stood on in the wagon step. Globals: per seat its mayor and
    /// its wagon in the supply; the wagon step is held.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (2 * g.player_count() + 1, 2 * g.player_count() + 1)
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
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

    /// `mayors`, `wagons`: per seat, whether the figure is in the supply.
    fn state_json(g: &Game, _viewer: crate::view::Viewer, out: &mut ExpansionsJson) {
        let Some(f) = g.abbey_mayor_figures() else {
            return;
        };
        put(out, "mayors", f.supply_of(Figure::Mayor));
        put(out, "wagons", f.supply_of(Figure::Wagon));
    }
}
