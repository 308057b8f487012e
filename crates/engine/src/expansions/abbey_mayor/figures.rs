//! Abbey & Mayor's two new followers, `abbey-mayor.md` sections 2–4: the
//! mayor and the wagon.
//!
//! The **mayor** (`"figure": "mayor"`) goes only into a city; when the
//! city's majority is decided it counts as many followers as the city has
//! coats of arms, so with none it counts nothing (a city whose knights all
//! count nothing scores for nobody).
//!
//! The **wagon** (`"figure": "wagon"`) goes on a road, a city or a
//! monastery, never a field. Once a feature holding it has been scored
//! during the game (not at the end), the wagon step follows the scoring
//! (`Phase::Wagon`; the scoring is done when the follower and dragon steps
//! end, so the wagon step precedes the Plague's and the gingerbread man's): for each such wagon, owners in turn order from the
//! active player, the owner moves it (`wagon`) onto an unoccupied, not
//! completed road, city or monastery with a segment on the tile it stood on
//! or on a tile around it, or takes it home (`pass`). The scoring sends the
//! wagon home like any follower; the step only puts it back on the board,
//! so a wagon that left in any other way (eaten, a flea) is never asked
//! about.
//!
//! Both are followers in every other rule (`Figure::is_follower`): they
//! occupy, they keep a builder or pig company, they flee and are eaten.

use crate::action::{FeatureAt, Figure};
use crate::catalog::FeatureKind;
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Phase};
use crate::geometry::Pos;
use crate::seat::Seat;

/// The two figures, in the order of [`Figures`]' supply pairs and of the
/// codec segment.
pub(super) const FIGURES: [Figure; 2] = [Figure::Mayor, Figure::Wagon];

/// The rule tag of the wagon step's refusals.
const WAGON_RULE: &str = "wagon";

/// A wagon whose feature was just scored, waiting for its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Waiting {
    /// Its owner.
    seat: Seat,
    /// The piece it stood on when its feature was scored: its move is to
    /// this tile or one around it.
    piece: u16,
}

/// The mayors and wagons of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Per seat: whether the mayor and the wagon are in the supply.
    supply: Vec<[bool; 2]>,
    /// Wagons of this part's scoring still to move, in the order of their
    /// steps once the step has begun.
    waiting: Vec<Waiting>,
    /// The active player of the part whose wagon step runs (the current
    /// player is each wagon's owner in turn).
    active: Option<Seat>,
}

impl Figures {
    /// A new game's: every seat's mayor and wagon in the supply.
    pub(super) fn reset(&mut self, players: usize) {
        self.supply.clear();
        self.supply.resize(players, [true; 2]);
        self.waiting.clear();
        self.active = None;
    }

    /// Whether seat `seat`'s `figure` (mayor or wagon) is in the supply.
    pub fn in_supply(&self, seat: Seat, figure: Figure) -> bool {
        let Some(k) = FIGURES.iter().position(|f| *f == figure) else {
            return false;
        };
        self.supply.get(seat.index()).is_some_and(|s| s[k])
    }

    /// Puts seat `seat`'s `figure` in the supply (`true`) or on the board.
    fn set_supply(&mut self, seat: Seat, figure: Figure, there: bool) {
        if let (Some(k), Some(s)) = (
            FIGURES.iter().position(|f| *f == figure),
            self.supply.get_mut(seat.index()),
        ) {
            s[k] = there;
        }
    }

    /// The supply per figure, one flag a seat (the state JSON).
    pub(super) fn supply_of(&self, figure: Figure) -> Vec<bool> {
        let k = FIGURES.iter().position(|f| *f == figure).unwrap_or(0);
        self.supply.iter().map(|s| s[k]).collect()
    }

    /// The piece of the wagon whose move is asked now, if the step runs.
    pub fn moving_from(&self) -> Option<u16> {
        self.active.and(self.waiting.first().map(|w| w.piece))
    }
}

/// The pieces a wagon reaches (see `Game::wagon_reach`), kept on the stack:
/// the wagon step lists them on every move.
type WagonReach = arrayvec::ArrayVec<u16, 32>;

/// Why a wagon may not move onto a feature; the message is built only
/// when a player asked for that move.
#[derive(Clone, Copy, Debug)]
enum WagonVeto {
    /// Another expansion bars figures from the tile (the dragon, a flea).
    Banned(&'static str),
    /// Not a road, a city or a monastery.
    Kind(FeatureKind),
    /// The feature is completed.
    Completed(FeatureKind),
    /// Followers stand on the feature.
    Occupied(FeatureKind),
}

impl WagonVeto {
    fn why(self) -> String {
        match self {
            WagonVeto::Banned(why) => why.to_string(),
            WagonVeto::Kind(kind) => format!(
                "a wagon moves onto a road, a city or a monastery, never onto a {}",
                kind.name()
            ),
            WagonVeto::Completed(kind) => format!(
                "this {} is completed: a wagon moves only onto a feature that is not",
                kind.name()
            ),
            WagonVeto::Occupied(kind) => format!(
                "this {} is occupied: a wagon moves only onto a feature without followers",
                kind.name()
            ),
        }
    }
}

impl Game {
    /// The mayors and wagons, when Abbey & Mayor is in play.
    pub fn abbey_mayor_figures(&self) -> Option<&Figures> {
        self.ext.abbey_mayor.as_ref().map(|s| &s.figures)
    }

    fn am_figures_mut(&mut self) -> Option<&mut Figures> {
        self.ext.abbey_mayor.as_mut().map(|s| &mut s.figures)
    }

    /// Whether `figure` (mayor or wagon) may stand on a feature of `kind`:
    /// the mayor in a city, the wagon on a road, city or monastery.
    pub(super) fn am_figure_fits(figure: Figure, kind: FeatureKind) -> bool {
        match figure {
            Figure::Mayor => kind == FeatureKind::City,
            Figure::Wagon => matches!(
                kind,
                FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery
            ),
            _ => false,
        }
    }

    /// The follower step's mayor and wagon placements on the tile just
    /// placed: each free feature the figure fits.
    pub(super) fn am_follower_spots(&self, out: &mut Vec<Action>) {
        let Some(f) = self.abbey_mayor_figures() else {
            return;
        };
        for figure in FIGURES {
            if f.in_supply(self.current, figure) {
                self.figure_spots(
                    figure,
                    |kind, node| {
                        Game::am_figure_fits(figure, kind)
                            && self.board.features().followers(node) == 0
                    },
                    |a| out.push(a),
                );
            }
        }
    }

    /// Places the current player's mayor or wagon, checking every rule.
    pub(super) fn am_place_figure(
        &mut self,
        pos: Pos,
        corner: Option<crate::geometry::Corner>,
        place: crate::geometry::Place,
        figure: Figure,
    ) -> Result<(), IllegalAction> {
        // Another tile than the one just placed is checked by the rule
        // that allows it (the magic portal, Decision P3).
        let (pi, fi) = self.check_follower(pos, corner, place)?;
        let seat = self.current;
        let (word, rule_text) = if figure == Figure::Mayor {
            ("mayor", "a mayor goes only into a city")
        } else {
            (
                "wagon",
                "a wagon goes on a road, a city or a monastery, never into a field",
            )
        };
        if !self
            .abbey_mayor_figures()
            .is_some_and(|f| f.in_supply(seat, figure))
        {
            return Err(illegal(
                "follower",
                format!("your {word} is already on the board: place another follower or pass"),
            ));
        }
        let kind = self.board.features().kind(self.node(pi, fi));
        if !Game::am_figure_fits(figure, kind) {
            return Err(illegal(
                "follower",
                format!("{rule_text}, not onto a {}", kind.name()),
            ));
        }
        if let Some(f) = self.am_figures_mut() {
            f.set_supply(seat, figure, false);
        }
        self.do_follower(pi, fi, figure);
        self.end_follower_step();
        Ok(())
    }

    /// How many followers the mayor `f` counts as: its city's coats of
    /// arms.
    pub(super) fn mayor_strength(&self, f: &Follower) -> u8 {
        let feats = self.board.features();
        feats.arms(feats.root(self.node(f.piece, f.feature)))
    }

    /// The feature `root` is about to be scored as completed during the
    /// game: its wagons will be asked to move.
    pub(super) fn note_wagons(&mut self, root: NodeId) {
        let feats = self.board.features();
        // One wagon a seat: at most six, on the stack (scoring runs often).
        let found: arrayvec::ArrayVec<Waiting, 6> = self
            .followers
            .iter()
            .filter(|f| {
                f.figure == Figure::Wagon && feats.root(self.node(f.piece, f.feature)) == root
            })
            .map(|f| Waiting {
                seat: f.player,
                piece: f.piece,
            })
            .take(6)
            .collect();
        if let Some(fig) = self.am_figures_mut() {
            fig.waiting.extend(found);
        }
    }

    /// The follower step (and the dragon step) are over: the part's
    /// completed features are scored now, then the wagon step follows if a
    /// wagon waits; returns whether it does. Scoring again later (the
    /// Plague's step, the end of the turn) finds nothing new.
    pub(super) fn score_then_wagon_step(&mut self) -> bool {
        if let Some(pi) = self.last {
            self.score_completed(pi);
        }
        self.begin_wagon_step()
    }

    /// After the part's scoring: the wagon step, if a wagon waits. Its
    /// owners act in turn order from the active player.
    fn begin_wagon_step(&mut self) -> bool {
        let (active, n) = (self.current, self.players.len());
        let Some(fig) = self.am_figures_mut() else {
            return false;
        };
        if fig.waiting.is_empty() {
            return false;
        }
        // Stable: one seat has one wagon, so ties never happen.
        fig.waiting.sort_by_key(|w| w.seat.after(active, n));
        fig.active = Some(active);
        let first = fig.waiting[0].seat;
        self.current = first;
        self.phase = Phase::Wagon;
        true
    }

    /// The wagon step's legal actions: the waiting wagon's moves, then
    /// `pass`.
    pub(super) fn wagon_actions(&self, out: &mut Vec<Action>) {
        if let Some(from) = self.abbey_mayor_figures().and_then(Figures::moving_from) {
            self.wagon_targets(from, |q, fi| {
                let (pos, place) = self.feature_anchor(q, fi);
                let half = self.board.pieces()[q as usize].corner;
                if let Some(to) = FeatureAt::new(pos, half, place) {
                    out.push(Action::Wagon { to });
                }
            });
        }
        out.push(Action::Pass);
    }

    /// The pieces whose features a wagon that stood on piece `from` may
    /// reach: `from` itself and every piece with a cell among the eight
    /// around one of its cells (the other half of its own cell included),
    /// in board order, each once.
    fn wagon_reach(&self, from: u16) -> WagonReach {
        let piece = self.board.pieces()[from as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let mut near = WagonReach::new();
        for &(dx, dy) in &o.cells {
            let c = piece.pos.offset(dx, dy);
            for ny in -1..=1 {
                for nx in -1..=1 {
                    for (q, _) in self.board.pieces_at(c.offset(nx, ny)) {
                        // At most two halves a cell, twelve cells around
                        // a double tile: the room never runs out.
                        if !near.contains(&q) && near.try_push(q).is_err() {
                            break;
                        }
                    }
                }
            }
        }
        near.sort_unstable();
        near
    }

    /// Why the wagon may not move onto feature `fi` of piece `q` (reach
    /// aside), if it may not.
    fn wagon_target_veto(&self, q: u16, fi: u8) -> Option<WagonVeto> {
        if let Some(why) = crate::expansions::figure_ban_on(self, q) {
            return Some(WagonVeto::Banned(why));
        }
        let feats = self.board.features();
        let node = self.node(q, fi);
        let kind = feats.kind(node);
        if !Game::am_figure_fits(Figure::Wagon, kind) {
            return Some(WagonVeto::Kind(kind));
        }
        let complete = match kind {
            FeatureKind::Monastery => {
                feats.is_closed(node)
                    || self
                        .board
                        .monastery_surroundings(q, self.count_per_cell())
                        .1
            }
            _ => feats.is_closed(node) || feats.open(node) == 0,
        };
        if complete {
            return Some(WagonVeto::Completed(kind));
        }
        if feats.followers(node) > 0 {
            return Some(WagonVeto::Occupied(kind));
        }
        None
    }

    /// Calls `f` with each feature (piece, feature index) the wagon that
    /// stood on piece `from` may move onto.
    fn wagon_targets(&self, from: u16, mut f: impl FnMut(u16, u8)) {
        let cat = &*self.rules.catalog;
        for q in self.wagon_reach(from) {
            let tile = self.board.pieces()[q as usize].tile;
            for fi in 0..cat.tile(tile).features.len() as u8 {
                if self.wagon_target_veto(q, fi).is_none() {
                    f(q, fi);
                }
            }
        }
    }

    /// Checks and makes the waiting wagon's move onto the feature at `to`.
    pub(super) fn move_wagon(&mut self, to: FeatureAt) -> Result<(), IllegalAction> {
        let from = self
            .abbey_mayor_figures()
            .and_then(Figures::moving_from)
            .ok_or_else(|| illegal(WAGON_RULE, "no wagon is waiting to move"))?;
        let cat = self.rules.catalog.clone();
        let (q, part) = self
            .board
            .pieces_at(to.pos())
            .find(|(q, _)| self.board.pieces()[*q as usize].corner == to.half)
            .ok_or_else(|| illegal(WAGON_RULE, format!("there is no tile at {}", to.pos())))?;
        let node = self.board.node_of(&cat, q, part, to.place).ok_or_else(|| {
            illegal(
                WAGON_RULE,
                format!("the tile at {} has no feature at {}", to.pos(), to.place),
            )
        })?;
        let fi = (node - self.board.pieces()[q as usize].node_base) as u8;
        if !self.wagon_reach(from).contains(&q) {
            let at = self.board.pieces()[from as usize].pos;
            return Err(illegal(
                WAGON_RULE,
                format!(
                    "the wagon moves onto a feature of the tile it stood on ({at}) or of one of the 8 tiles around it, or passes"
                ),
            ));
        }
        if let Some(veto) = self.wagon_target_veto(q, fi) {
            return Err(illegal(WAGON_RULE, veto.why()));
        }
        let seat = self.current;
        if let Some(fig) = self.am_figures_mut() {
            fig.set_supply(seat, Figure::Wagon, false);
        }
        self.do_follower(q, fi, Figure::Wagon);
        self.next_wagon();
        Ok(())
    }

    /// The waiting wagon has moved or gone home: the next one's owner acts,
    /// or the part goes on with its later steps.
    pub(super) fn next_wagon(&mut self) {
        let Some(fig) = self.am_figures_mut() else {
            return;
        };
        if !fig.waiting.is_empty() {
            fig.waiting.remove(0);
        }
        if let Some(w) = fig.waiting.first() {
            self.current = w.seat;
            return;
        }
        if let Some(active) = fig.active.take() {
            self.current = active;
        }
        // The part goes on with the steps after the wagon step (the
        // Plague's, the gingerbread man's, …), as after a dragon step.
        self.phase = Phase::Follower;
        self.end_follower_step();
    }

    /// Refuses any other action in the wagon step.
    pub(super) fn wagon_step_refusal() -> IllegalAction {
        illegal(
            WAGON_RULE,
            "the wagon step: move the wagon whose feature was scored (a wagon action) or pass to take it home",
        )
    }

    /// Puts a mayor or wagon back in its owner's supply; false if `f` is
    /// another figure.
    pub(super) fn am_figure_home(&mut self, f: Follower) -> bool {
        if !FIGURES.contains(&f.figure) {
            return false;
        }
        if let Some(fig) = self.am_figures_mut() {
            fig.set_supply(f.player, f.figure, true);
        }
        true
    }
}
