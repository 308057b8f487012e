//! Information-set Monte Carlo tree search.
//!
//! Every iteration samples a determinization of the game for the player to
//! act (the draw pile reshuffled inside what the player can know), walks a
//! UCT tree over the player's own choices of this turn (the placement, then
//! the follower step), plays the game out on that determinization with a
//! light random policy (random placements, a follower now and then), and
//! backs up a reward from the final score margin against the best opponent.
//! The tree's actions are the same in every determinization (the board and
//! the drawn tile are public), so its statistics pool over all of them.
//!
//! The children of a node start with a prior from the greedy evaluation
//! (a few virtual visits), so even a small budget plays like `greedy`, and
//! the playouts then correct it where the future matters; `eval=strong`
//! takes the prior from the `strong` bot's unseen-tile evaluation instead
//! (the `strong` bot is this search with that prior). Playouts may also
//! be cut after a few turns and scored by the static evaluation
//! (`rollout=N`); finishing the game plays better (see `docs/bots.md`).
//!
//! With an iteration budget a search is deterministic for a given seed; a
//! time budget depends on the machine's speed.

use std::fmt;
use std::time::{Duration, Instant};

use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, Phase, Seat};

use crate::eval::Evaluator;
use crate::strong::{StrongEval, StrongWeights};
use crate::{Bot, View};

/// Iterations per move of the default `mcts` bot.
pub const DEFAULT_ITERATIONS: u32 = 2000;

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (deterministic for a seed).
    Iterations(u32),
    /// A time per move.
    Time(Duration),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations or time per move.
    pub budget: Budget,
    /// UCT exploration constant (rewards lie in 0..1).
    pub exploration: f64,
    /// Turns played out after the searched turn before evaluating
    /// (`u32::MAX`: to the end of the game).
    pub rollout_turns: u32,
    /// Chance that a rollout player puts a follower down when it may.
    pub rollout_followers: f64,
    /// Virtual visits given to each child's greedy prior.
    pub prior_visits: f64,
    /// Margin (points) that maps to a reward of about 0.73: reward =
    /// 1 / (1 + exp(−margin / scale)).
    pub scale: f64,
    /// Root children kept: the `width` best by the greedy prior (0: all).
    /// Pruning to the greedy's best few lets the playouts decide among
    /// them instead of spreading thin over every placement.
    pub width: usize,
    /// Which evaluation gives the priors and scores cut playouts: the
    /// greedy's, or the unseen-tile evaluation of `strong`.
    pub leaf: LeafEval,
    /// Share of a child's value taken from its prior for good, whatever
    /// its visits (0: the prior fades as playouts come in).
    pub mix: f64,
}

/// The evaluation an MCTS uses for its priors and its cut playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafEval {
    /// The greedy's evaluation ([`crate::eval`]).
    Greedy,
    /// The `strong` bot's unseen-tile evaluation ([`crate::strong::eval`]).
    Strong,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(DEFAULT_ITERATIONS),
            exploration: 0.35,
            rollout_turns: u32::MAX,
            rollout_followers: 0.6,
            prior_visits: 3.0,
            scale: 16.0,
            width: 10,
            leaf: LeafEval::Greedy,
            mix: 0.0,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    action: Action,
    visits: f64,
    total: f64,
    /// The reward of the prior's margin.
    prior: f64,
    /// Child nodes, `None` until first expanded.
    children: Option<Vec<u32>>,
}

/// The MCTS bot.
#[derive(Clone, Debug)]
pub struct Mcts {
    config: MctsConfig,
    rng: Rng,
    eval: Evaluator,
    strong: StrongEval,
    nodes: Vec<Node>,
    buf: Vec<Action>,
    /// The game each iteration plays out in, copied into with `clone_from`
    /// so that iterations reuse its buffers instead of allocating a game.
    scratch: Option<Game>,
    /// Scratch for expansion: each child position is copied into it.
    child: Option<Game>,
    /// The follower step chosen with the last placement: (pieces on the
    /// board after it, action).
    planned: Option<(usize, Action)>,
    /// Iterations run in all searches so far.
    pub iterations: u64,
}

impl Mcts {
    /// An MCTS bot; `seed` drives its determinizations and rollouts.
    pub fn new(config: MctsConfig, seed: u64) -> Mcts {
        Mcts {
            config,
            rng: Rng::for_stream(seed, 0x3C75),
            eval: Evaluator::default(),
            strong: StrongEval::new(StrongWeights::default()),
            nodes: Vec::new(),
            buf: Vec::with_capacity(256),
            scratch: None,
            child: None,
            planned: None,
            iterations: 0,
        }
    }

    /// Sets the weights of the unseen-tile evaluation (`eval=strong`).
    pub fn set_strong_weights(&mut self, weights: StrongWeights) {
        self.strong = StrongEval::new(weights);
    }

    /// The margin of `seat` in `game` by the configured evaluation.
    fn leaf_margin(&mut self, game: &Game, seat: Seat) -> f64 {
        match self.config.leaf {
            LeafEval::Greedy => self.eval.margin(game, seat),
            LeafEval::Strong => self.strong.margin(game, seat),
        }
    }

    fn reward(&self, margin: f64) -> f64 {
        1.0 / (1.0 + (-margin / self.config.scale).exp())
    }

    /// Makes the children of node `ni` for the position `game` (at the
    /// node), each with its greedy prior.
    fn expand(&mut self, ni: usize, game: &Game, seat: Seat) {
        let mut options: Vec<(Action, f64)> = Vec::new();
        let mut legal = std::mem::take(&mut self.buf);
        game.legal_actions_into(&mut legal);
        let mut fbuf = Vec::new();
        let mut g = self.child.take().unwrap_or_else(|| game.clone());
        for &a in &legal {
            g.clone_from(game);
            g.apply_legal(&a);
            let m = if game.phase() == Phase::Place && g.phase() == Phase::Follower {
                match self.config.leaf {
                    LeafEval::Greedy => {
                        crate::greedy::best_follower(&g, seat, &mut self.eval, &mut fbuf).1
                    }
                    LeafEval::Strong => strong_best_follower(&g, seat, &mut self.strong, &mut fbuf),
                }
            } else {
                self.leaf_margin(&g, seat)
            };
            options.push((a, m));
        }
        self.child = Some(g);
        self.buf = legal;
        if ni == 0 && self.config.width > 0 && options.len() > self.config.width {
            options.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
            options.truncate(self.config.width);
        }
        let pv = self.config.prior_visits;
        let mut kids = Vec::with_capacity(options.len());
        for (a, m) in options {
            let r = self.reward(m);
            kids.push(self.nodes.len() as u32);
            self.nodes.push(Node {
                action: a,
                visits: pv,
                total: pv * r,
                prior: r,
                children: None,
            });
        }
        self.nodes[ni].children = Some(kids);
    }

    /// A node's value: its mean reward, with the prior's share kept.
    fn mean(&self, n: &Node) -> f64 {
        let m = self.config.mix;
        m * n.prior + (1.0 - m) * n.total / n.visits.max(1e-9)
    }

    fn select(&self, ni: usize) -> usize {
        let kids = match &self.nodes[ni].children {
            Some(k) => k,
            None => return ni,
        };
        let parent: f64 = kids.iter().map(|k| self.nodes[*k as usize].visits).sum();
        let ln = parent.max(1.0).ln();
        let c = self.config.exploration;
        let mut best = (f64::NEG_INFINITY, ni);
        for &k in kids {
            let n = &self.nodes[k as usize];
            let v = self.mean(n) + c * (ln / n.visits.max(1e-9)).sqrt();
            if v > best.0 {
                best = (v, k as usize);
            }
        }
        best.1
    }

    /// Plays `turns` turns with the light policy.
    fn rollout(&mut self, g: &mut Game) {
        let mut t = 0;
        while !g.is_finished() && t < self.config.rollout_turns {
            // A uniform pick from the legal actions, drawn as a pick from
            // the list would be, without listing the placements.
            let Some(a) = g.random_action(&mut self.rng, &mut self.buf) else {
                break;
            };
            g.apply_legal(&a);
            if g.phase() == Phase::Follower {
                // Picked as from the list, built alone where an expansion
                // can count the step (the Plague's spreads and flights).
                let (rng, p) = (&mut self.rng, self.config.rollout_followers);
                let f = g
                    .pick_action(&mut self.buf, |n, pass| follower_pick(n, pass, rng, p))
                    .unwrap_or(Action::Pass);
                g.apply_legal(&f);
            }
            t += 1;
        }
    }

    /// Searches from the position of `view`; returns the root's children
    /// as (action, visits, mean reward) and the chosen follower step of the
    /// best placement.
    pub fn search(&mut self, view: &View<'_>) -> Vec<(Action, f64, f64)> {
        let seat = view.player();
        let mut base = view.determinize(&mut self.rng);
        // Nobody reads the playouts' events: not recording them saves the
        // pushes and keeps the copies short.
        base.set_event_log(false);
        // The unseen tiles are public and the same in every
        // determinization; a cut playout's few extra tiles are read as
        // still unseen (a small error for a short playout).
        if self.config.leaf == LeafEval::Strong {
            self.strong.prepare(&base);
        }
        self.nodes.clear();
        self.nodes.push(Node {
            action: Action::Pass,
            visits: 0.0,
            total: 0.0,
            prior: 0.0,
            children: None,
        });
        self.expand(0, &base, seat);
        let start = Instant::now();
        let mut done = 0u32;
        let mut path: Vec<usize> = Vec::with_capacity(4);
        loop {
            match self.config.budget {
                Budget::Iterations(n) if done >= n => break,
                Budget::Time(d) if done.is_multiple_of(8) && start.elapsed() >= d => break,
                _ => {}
            }
            done += 1;
            let mut g = self.scratch.take().unwrap_or_else(|| base.clone());
            base.determinize_fast_into(seat, &mut self.rng, &mut g);
            path.clear();
            let mut ni = 0;
            // Descend through this turn's own choices.
            loop {
                let next = self.select(ni);
                if next == ni {
                    break;
                }
                ni = next;
                path.push(ni);
                let a = self.nodes[ni].action;
                let phase = g.phase();
                // The tree's follower-step children were listed in another
                // determinization: a trade may need chips this sample did
                // not deal. Such a child is not a move here; stop at it.
                if g.try_apply(&a).is_err() {
                    path.pop();
                    break;
                }
                // Still this player's turn (the follower step): go on.
                if phase == Phase::Place && g.phase() == Phase::Follower {
                    if self.nodes[ni].children.is_none() {
                        self.expand(ni, &g, seat);
                    }
                    continue;
                }
                break;
            }
            self.rollout(&mut g);
            let m = if g.is_finished() {
                let s = g.scores();
                let p: [f64; 6] = std::array::from_fn(|i| s.get(i).map_or(0.0, |v| *v as f64));
                crate::eval::margin_of(&p, g.player_count(), seat)
            } else {
                self.leaf_margin(&g, seat)
            };
            self.scratch = Some(g);
            let r = self.reward(m);
            self.nodes[0].visits += 1.0;
            self.nodes[0].total += r;
            for &n in &path {
                self.nodes[n].visits += 1.0;
                self.nodes[n].total += r;
            }
        }
        self.iterations += done as u64;
        let kids = self.nodes[0].children.clone().unwrap_or_default();
        kids.iter()
            .map(|&k| {
                let n = &self.nodes[k as usize];
                (n.action, n.visits, self.mean(n))
            })
            .collect()
    }

    /// The most visited child of node `ni` (ties: higher mean).
    fn best_child(&self, ni: usize) -> Option<usize> {
        let kids = self.nodes[ni].children.as_ref()?;
        kids.iter().map(|k| *k as usize).max_by(|a, b| {
            let (na, nb) = (&self.nodes[*a], &self.nodes[*b]);
            (na.visits, self.mean(na))
                .partial_cmp(&(nb.visits, self.mean(nb)))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

impl Bot for Mcts {
    fn name(&self) -> String {
        format!("mcts:{}", self.config.budget)
    }

    fn choose(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let obs = view.observation();
        if obs.phase == Phase::Follower {
            if let Some((pieces, a)) = self.planned.take() {
                if pieces == obs.pieces.len() && legal.contains(&a) {
                    return a;
                }
            }
        }
        self.search(view);
        let Some(best) = self.best_child(0) else {
            return legal[0];
        };
        let action = self.nodes[best].action;
        self.planned = None;
        if obs.phase == Phase::Place {
            if let Some(f) = self.best_child(best) {
                self.planned = Some((obs.pieces.len() + 1, self.nodes[f].action));
            }
        }
        action
    }
}

/// The margin of `seat` after its best follower step in `game` (at its
/// follower step), by the unseen-tile evaluation.
fn strong_best_follower(
    game: &Game,
    seat: Seat,
    eval: &mut StrongEval,
    buf: &mut Vec<Action>,
) -> f64 {
    game.legal_actions_into(buf);
    let mut best = f64::NEG_INFINITY;
    let mut h = game.clone();
    for (i, f) in buf.iter().enumerate() {
        if i > 0 {
            h.clone_from(game);
        }
        h.apply_legal(f);
        best = best.max(eval.margin(&h, seat));
    }
    best
}

/// [`follower_pick`] applied to a listed step (the tests' form).
#[cfg(test)]
fn follower_step(legal: &[Action], rng: &mut Rng, p: f64) -> Action {
    let pass = legal.iter().position(|a| matches!(a, Action::Pass));
    legal
        .get(follower_pick(legal.len(), pass, rng, p))
        .copied()
        .unwrap_or(Action::Pass)
}

/// The light policy's follower step, as an index among the step's `n`
/// actions with `pass` at `pass` (for [`Game::pick_action`], so playouts
/// need not list the step): with probability `p` one of the actions other
/// than `pass`, uniformly, else `pass`. The pass is looked up, not assumed
/// last: with the Plague, flea and flight actions follow it in the list.
fn follower_pick(n: usize, pass: Option<usize>, rng: &mut Rng, p: f64) -> usize {
    let others = n - usize::from(pass.is_some());
    let take = others > 0 && (rng.below(1 << 20) as f64) < p * (1 << 20) as f64;
    match pass {
        Some(at) if !take => at,
        Some(at) => {
            let i = rng.below(others as u64) as usize;
            if i >= at {
                i + 1
            } else {
                i
            }
        }
        // No pass in this step (never in today's rules): any action.
        None => rng.below(n.max(1) as u64) as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastide_engine::{Place, Pos};

    fn follower(x: i32) -> Action {
        Action::Follower {
            pos: Pos::new(x, 0),
            corner: None,
            place: Place::N,
            figure: bastide_engine::Figure::Normal,
        }
    }

    /// With the Plague the pass sits between the followers and the fleas:
    /// every non-pass action must be reachable and the pass must only come
    /// from the coin.
    #[test]
    fn follower_step_finds_the_pass_wherever_it_is() {
        let legal = [follower(0), Action::Pass, follower(1), follower(2)];
        let mut rng = Rng::for_stream(7, 1);
        let mut seen = [0u32; 4];
        for _ in 0..3000 {
            let a = follower_step(&legal, &mut rng, 1.0);
            let i = legal.iter().position(|b| *b == a).expect("a legal action");
            seen[i] += 1;
        }
        assert_eq!(seen[1], 0, "p = 1 never passes");
        for i in [0, 2, 3] {
            assert!(seen[i] > 800, "action {i} chosen {} times of 3000", seen[i]);
        }
        for _ in 0..100 {
            assert_eq!(follower_step(&legal, &mut rng, 0.0), Action::Pass);
        }
        // Only the pass: always the pass, whatever p.
        assert_eq!(follower_step(&[Action::Pass], &mut rng, 1.0), Action::Pass);
    }
}
