//! The `strong` bot: search over an evaluation that knows the unseen
//! tiles ([`eval`]).
//!
//! By default (`strong`, [`StrongSearch::Tree`]) it is the information-set
//! MCTS of [`crate::mcts`] with that evaluation as the prior of every
//! choice of the turn (placement, then follower step), weighted as many
//! playouts: the evaluation ranks the choices, and the playouts to the end
//! of the game (each on its own determinization) correct it where the
//! future matters. Measured against `mcts:2000` in `docs/bots.md`.
//!
//! The older search (`strong-ply`, [`StrongSearch::Ply`]):
//!
//! 1. **Every turn of its own** is tried: each placement with each
//!    follower step (and whatever else the turn offers, such as the
//!    Plague's fleas), and scored by the evaluation of the position after
//!    it — the margin over the best other player.
//! 2. **The best few are searched a ply deeper**: for each, every tile
//!    kind the next player may draw (weighted by its unseen count), that
//!    player's best turn by the same evaluation; the candidate's value is
//!    the expected margin after that reply. This sees the reply the first
//!    ply cannot: a city taken over, a farm joined, a feature closed for
//!    someone. Near the end the tile kinds are few, so every candidate is
//!    searched; with the last tile the reply is exact.
//!
//! The work is counted (iterations for `strong:N`, evaluations for
//! `strong-ply:N`), not timed, so a move is the same on every machine for
//! a given seed; a time per move (`strong:100ms`) is also accepted. Both
//! searches work on determinizations (the pile reshuffled, the others'
//! hands dealt again), so they cannot read the hidden order; the
//! evaluation reads only public counts.

pub mod eval;

use std::fmt;
use std::time::{Duration, Instant};

use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, Phase, Seat};

use crate::mcts::{Budget, LeafEval, Mcts, MctsConfig};
use crate::{Bot, View};
pub use eval::{StrongEval, StrongWeights};

/// Evaluations per move of the one-ply search (`strong-ply`).
pub const DEFAULT_EVALUATIONS: u32 = 12_000;

/// Search iterations per move of the default `strong` bot (the tree
/// search).
pub const DEFAULT_ITERATIONS: u32 = TREE_ITERATIONS;

/// How the `strong` bot searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrongSearch {
    /// MCTS with the unseen-tile evaluation as its prior; the budget
    /// counts iterations.
    Tree,
    /// Every turn scored, the best few searched a ply deeper against each
    /// reply; the budget counts evaluations.
    Ply,
}

/// How much work a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrongBudget {
    /// At most this many evaluations (`strong-ply`), or exactly this many
    /// search iterations (`strong`); deterministic for a seed.
    Evaluations(u32),
    /// About this long.
    Time(Duration),
}

impl fmt::Display for StrongBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrongBudget::Evaluations(n) => write!(f, "{n}"),
            StrongBudget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// Settings of the `strong` bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongConfig {
    /// Work per move.
    pub budget: StrongBudget,
    /// Candidates searched a ply deeper, at most.
    pub width: usize,
    /// Candidates further than this (points of margin) below the first
    /// ply's best are not searched deeper.
    pub window: f64,
    /// The evaluation's weights.
    pub weights: StrongWeights,
    /// The search.
    pub search: StrongSearch,
}

impl Default for StrongConfig {
    fn default() -> StrongConfig {
        StrongConfig {
            budget: StrongBudget::Evaluations(DEFAULT_ITERATIONS),
            width: 6,
            window: 8.0,
            weights: StrongWeights::default(),
            search: StrongSearch::Tree,
        }
    }
}

impl StrongConfig {
    /// The one-ply search with its default budget (`strong-ply`).
    pub fn ply() -> StrongConfig {
        StrongConfig {
            budget: StrongBudget::Evaluations(DEFAULT_EVALUATIONS),
            search: StrongSearch::Ply,
            ..StrongConfig::default()
        }
    }

    /// The default budget of this config's search.
    pub fn default_budget(&self) -> StrongBudget {
        match self.search {
            StrongSearch::Tree => StrongBudget::Evaluations(DEFAULT_ITERATIONS),
            StrongSearch::Ply => StrongBudget::Evaluations(DEFAULT_EVALUATIONS),
        }
    }

    /// The spec that makes this config (`strong`, `strong:3000`,
    /// `strong-ply`...). The weights, width and window have no spec.
    pub fn spec(&self) -> String {
        let name = match self.search {
            StrongSearch::Tree => "strong",
            StrongSearch::Ply => "strong-ply",
        };
        if self.budget == self.default_budget() {
            name.to_string()
        } else {
            format!("{name}:{}", self.budget)
        }
    }
}

/// Iterations of the tree search per move: within 100 ms of one core on
/// base (docs/performance.md).
const TREE_ITERATIONS: u32 = 4000;

/// Virtual playouts the tree search gives each choice's evaluation: the
/// evaluation counts as much as this many playouts to the end.
const TREE_PRIOR: f64 = 15.0;

/// Placements the tree search keeps at the root: the best by the
/// evaluation. Fewer than `mcts`'s ten: the evaluation ranks well enough
/// that the playouts pay more spent on its first few (docs/bots.md).
const TREE_WIDTH: usize = 5;

/// The MCTS settings of the tree search.
fn tree_config(c: &StrongConfig) -> MctsConfig {
    MctsConfig {
        budget: match c.budget {
            StrongBudget::Evaluations(n) => Budget::Iterations(n),
            StrongBudget::Time(d) => Budget::Time(d),
        },
        leaf: LeafEval::Strong,
        prior_visits: TREE_PRIOR,
        width: TREE_WIDTH,
        ..MctsConfig::default()
    }
}

/// The most actions of one player's turn the search follows (a placement,
/// a follower step, the Plague's step, a builder's second tile...).
const TURN_DEPTH: u32 = 4;

/// One way to play the turn: the actions in order and their values.
#[derive(Clone, Debug)]
struct Candidate {
    actions: Vec<Action>,
    /// The margin after the turn (first ply).
    first: f64,
    /// The expected margin after the next player's reply, once searched.
    deep: Option<f64>,
}

/// The `strong` bot.
#[derive(Clone, Debug)]
pub struct Strong {
    config: StrongConfig,
    rng: Rng,
    eval: StrongEval,
    /// The rest of the turn chosen with its first action: (pieces on the
    /// board and followers after the step before, actions).
    planned: Option<(usize, usize, Vec<Action>)>,
    /// Evaluations made in all moves so far (the one-ply search).
    pub evaluations: u64,
    /// The tree search, when the config asks for it.
    tree: Option<Box<Mcts>>,
}

impl Strong {
    /// A `strong` bot; `seed` drives its determinizations and ties.
    pub fn new(config: StrongConfig, seed: u64) -> Strong {
        Strong {
            config,
            rng: Rng::for_stream(seed, 0x57_0E6),
            eval: StrongEval::new(config.weights),
            planned: None,
            evaluations: 0,
            tree: (config.search == StrongSearch::Tree).then(|| {
                let mut tree = Mcts::new(tree_config(&config), seed);
                tree.set_strong_weights(config.weights);
                Box::new(tree)
            }),
        }
    }

    fn out_of_budget(&self, start: Instant) -> bool {
        match self.config.budget {
            StrongBudget::Evaluations(n) => self.eval.count >= n as u64,
            StrongBudget::Time(d) => start.elapsed() >= d,
        }
    }

    /// Searches the position of `view`: every way to play the rest of the
    /// turn, with its value (the deeper one where searched), best first.
    fn search(&mut self, view: &View<'_>) -> Vec<Candidate> {
        let start = Instant::now();
        let seat = view.player();
        let mut root = view.determinize(&mut self.rng);
        root.set_event_log(false);
        self.eval.prepare(&root);
        self.eval.limit = match self.config.budget {
            StrongBudget::Evaluations(n) => u64::from(n),
            StrongBudget::Time(_) => 0,
        };
        let mut cands = Vec::new();
        let mut prefix = Vec::with_capacity(TURN_DEPTH as usize);
        turn_options(
            &root,
            seat,
            &mut self.eval,
            TURN_DEPTH,
            &mut prefix,
            &mut cands,
        );
        cands.sort_by(|a, b| b.first.total_cmp(&a.first));
        self.deepen(&root, seat, &mut cands, start);
        self.evaluations += self.eval.count;
        cands.sort_by(|a, b| value(b).total_cmp(&value(a)));
        cands
    }

    /// The second ply for the best candidates, while the budget lasts.
    fn deepen(&mut self, root: &Game, seat: Seat, cands: &mut [Candidate], start: Instant) {
        let Some(best) = cands.first().map(|c| c.first) else {
            return;
        };
        let draws = root.chance_outcomes();
        if draws.is_empty() || cands.len() < 2 {
            return;
        }
        let mut last_cost = 0u64;
        for (ci, c) in cands.iter_mut().enumerate() {
            let late = draws.len() <= 2;
            if !late && (ci >= self.config.width || c.first < best - self.config.window) {
                break;
            }
            if let StrongBudget::Evaluations(n) = self.config.budget {
                if self.eval.count + last_cost > n as u64 && ci > 0 {
                    break;
                }
            }
            if self.out_of_budget(start) && ci > 0 {
                break;
            }
            let before = self.eval.count;
            c.deep = reply_value(root, seat, &c.actions, &draws, &mut self.eval);
            last_cost = self.eval.count - before;
        }
        // Compare like with like: a candidate not searched deeper cannot
        // be chosen over one that was.
        if cands.iter().any(|c| c.deep.is_some()) {
            for c in cands.iter_mut() {
                if c.deep.is_none() {
                    c.deep = Some(f64::NEG_INFINITY);
                }
            }
        }
    }
}

/// A candidate's value: the deeper one where searched.
fn value(c: &Candidate) -> f64 {
    c.deep.unwrap_or(c.first)
}

/// Every way for `seat` to play the rest of its turn from `game`, each
/// with the margin after it, appended to `out` (the actions after
/// `prefix`).
fn turn_options(
    game: &Game,
    seat: Seat,
    eval: &mut StrongEval,
    depth: u32,
    prefix: &mut Vec<Action>,
    out: &mut Vec<Candidate>,
) {
    let legal = game.legal_actions();
    // Out of evaluations, the later steps of each candidate are played
    // cheaply too: the budget bounds the first ply as well.
    if !branches(game, prefix.len()) || (!prefix.is_empty() && eval.spent()) {
        // Later steps of the turn (the Plague's spreads and flights...)
        // are played cheaply: branching on each would multiply.
        let (a, g) = cheap_step(game, &legal, seat, eval);
        follow(&g, a, seat, eval, depth, prefix, out);
        return;
    }
    let mut g = game.clone();
    for (i, a) in legal.iter().enumerate() {
        if i > 0 {
            g.clone_from(game);
        }
        g.apply_legal(a);
        follow(&g, *a, seat, eval, depth, prefix, out);
    }
}

/// After `a` (already applied to `g`): the turn's next steps if it is
/// still the seat's turn and depth remains, else one finished candidate.
fn follow(
    g: &Game,
    a: Action,
    seat: Seat,
    eval: &mut StrongEval,
    depth: u32,
    prefix: &mut Vec<Action>,
    out: &mut Vec<Candidate>,
) {
    prefix.push(a);
    if depth > 1 && still_my_turn(g, seat, &a) {
        turn_options(g, seat, eval, depth - 1, prefix, out);
    } else {
        out.push(Candidate {
            actions: prefix.clone(),
            first: eval.margin(g, seat),
            deep: None,
        });
    }
    prefix.pop();
}

/// Steps of a turn searched in full (a placement and its follower step);
/// the later ones are chosen cheaply ([`cheap_step`]).
const BRANCH_STEPS: usize = 2;

/// Whether the search tries every action of step `step` of a turn (0:
/// the decision asked for): the first step always, then placements and
/// follower steps up to [`BRANCH_STEPS`].
fn branches(game: &Game, step: usize) -> bool {
    step == 0 || (step < BRANCH_STEPS && matches!(game.phase(), Phase::Place | Phase::Follower))
}

/// A later step of a turn, without a search: passing where the rules
/// allow it (the Plague's optional flights), else the action whose
/// position is best for `seat` right after it (a spread that is owed).
fn cheap_step(game: &Game, legal: &[Action], seat: Seat, eval: &mut StrongEval) -> (Action, Game) {
    let mut g = game.clone();
    if legal.contains(&Action::Pass) {
        g.apply_legal(&Action::Pass);
        return (Action::Pass, g);
    }
    greedy_step(game, legal, seat, eval)
}

/// The action among `legal` (not empty) whose position is best for `seat`
/// right after it, with that position.
fn greedy_step(game: &Game, legal: &[Action], seat: Seat, eval: &mut StrongEval) -> (Action, Game) {
    if eval.spent() {
        // Out of evaluations: the first action, unweighed. Without this an
        // owed Plague spread weighed every spread for every candidate of
        // the first ply, which no budget bounded (seconds a move).
        let mut g = game.clone();
        g.apply_legal(&legal[0]);
        return (legal[0], g);
    }
    let mut best = (legal[0], f64::NEG_INFINITY, game.clone());
    let mut g = game.clone();
    for a in legal {
        g.clone_from(game);
        g.apply_legal(a);
        let m = eval.margin(&g, seat);
        if m > best.1 {
            best = (*a, m, g.clone());
        }
    }
    (best.0, best.2)
}

/// Whether `seat` is still to act in the turn it began with `last` just
/// played: a step of the same turn, or the tile a draw just gave it (a
/// Half-and-half draw, a builder's second tile), not a turn of its own
/// after everyone else's.
fn still_my_turn(g: &Game, seat: Seat, last: &Action) -> bool {
    !g.is_finished()
        && g.current_player() == seat
        && (g.phase() != Phase::Place || *last == Action::Draw)
}

/// The best the player to act in `game` can do with the rest of its turn,
/// by its own margin: the potentials of the position it reaches.
fn best_reply(game: &Game, eval: &mut StrongEval, depth: u32) -> [f64; 6] {
    let mover = game.current_player();
    let n = game.player_count();
    let legal = game.legal_actions();
    if legal.is_empty() {
        return eval.potentials(game);
    }
    if !branches(game, (TURN_DEPTH - depth) as usize)
        || TURN_DEPTH - depth >= 1 && game.phase() == Phase::Plague
    {
        let (a, g) = cheap_step(game, &legal, mover, eval);
        return if depth > 1 && still_my_turn(&g, mover, &a) {
            best_reply(&g, eval, depth - 1)
        } else {
            eval.potentials(&g)
        };
    }
    let mut best = ([0f64; 6], f64::NEG_INFINITY);
    let mut g = game.clone();
    for (i, a) in legal.iter().enumerate() {
        if i > 0 {
            g.clone_from(game);
        }
        g.apply_legal(a);
        let p = if depth > 1 && still_my_turn(&g, mover, a) {
            best_reply(&g, eval, depth - 1)
        } else {
            eval.potentials(&g)
        };
        let m = crate::eval::margin_of(&p, n, mover);
        if m > best.1 {
            best = (p, m);
        }
        if eval.spent() {
            break;
        }
    }
    best.0
}

/// The expected margin of `seat` after it plays `actions` from `root` and
/// the next player replies as well as it can, over the tile kinds that
/// player may draw. `None` if the turn does not pass to a player who
/// draws (the game ends: the first ply was exact).
fn reply_value(
    root: &Game,
    seat: Seat,
    actions: &[Action],
    draws: &[(bastide_engine::TileIdx, f64)],
    eval: &mut StrongEval,
) -> Option<f64> {
    let n = root.player_count();
    let mut total = 0.0;
    let mut weight = 0.0;
    let mut g = root.clone();
    // A turn that draws a tile of its own takes the next draw itself: the
    // reply is then searched for the determinization's next tile alone.
    let own_draw = actions.contains(&Action::Draw);
    let sampled = [(bastide_engine::TileIdx(0), 1.0)];
    let draws = if own_draw { &sampled[..] } else { draws };
    for &(t, p) in draws {
        g.clone_from(root);
        if !own_draw && g.set_next_draw(t).is_err() {
            continue;
        }
        if actions.iter().any(|a| g.try_apply(a).is_err()) {
            continue;
        }
        let pot = if g.is_finished() {
            eval.potentials(&g)
        } else if g.current_player() == seat {
            // Still this player (a second tile of its own): no reply to
            // look at; the position as it stands.
            eval.potentials(&g)
        } else {
            best_reply(&g, eval, TURN_DEPTH)
        };
        if eval.spent() {
            // Cut short: a partial reply search would mislead.
            return None;
        }
        total += p * crate::eval::margin_of(&pot, n, seat);
        weight += p;
    }
    (weight > 0.0).then(|| total / weight)
}

impl Bot for Strong {
    fn name(&self) -> String {
        self.config.spec()
    }

    fn choose(&mut self, view: &View<'_>) -> Action {
        if let Some(tree) = &mut self.tree {
            return tree.choose(view);
        }
        let legal = view.legal_actions();
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let obs = view.observation();
        let mark = (obs.pieces.len(), obs.followers.len());
        if let Some((pieces, followers, rest)) = self.planned.take() {
            if (pieces, followers) == mark && rest.first().is_some_and(|a| legal.contains(a)) {
                self.plan(view, &rest);
                return rest[0];
            }
        }
        let cands = self.search(view);
        let Some(best) = cands.first() else {
            return legal[0];
        };
        let actions = best.actions.clone();
        if !legal.contains(&actions[0]) {
            return legal[0];
        }
        self.plan(view, &actions);
        actions[0]
    }
}

impl Strong {
    /// Keeps the rest of the turn decided with `actions[0]` for the next
    /// steps, keyed by the board it expects after `actions[0]`.
    fn plan(&mut self, view: &View<'_>, actions: &[Action]) {
        self.planned = None;
        if actions.len() < 2 {
            return;
        }
        let mut g = view.determinize(&mut self.rng);
        if g.try_apply(&actions[0]).is_ok() && g.current_player() == view.player() {
            self.planned = Some((
                g.board().pieces().len(),
                g.followers().len(),
                actions[1..].to_vec(),
            ));
        }
    }
}
