//! The greedy player: tries every placement with every follower choice (and
//! passing), and keeps the one whose position evaluates best right after the
//! turn: immediate points plus the expected worth of features held, minus
//! the best opponent's (see [`crate::eval`]).

use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, Phase, Seat};

use crate::eval::Evaluator;
use crate::{Bot, View};

/// The greedy bot.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
    eval: Evaluator,
}

impl Greedy {
    /// A greedy bot; `seed` breaks ties.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::for_stream(seed, 0x6EED),
            eval: Evaluator::default(),
        }
    }
}

/// Every choice of the current turn from `game` (a placement followed by its
/// best follower step, or a follower step alone), each with the margin of
/// `seat` after the turn. `game` must be a determinized game (its next draw
/// is revealed by playing the turn out, but the evaluation ignores it).
pub fn score_turn_options(game: &Game, seat: Seat, eval: &mut Evaluator) -> Vec<(Action, f64)> {
    let legal = game.legal_actions();
    let mut out = Vec::with_capacity(legal.len());
    let mut buf = Vec::new();
    for a in legal {
        let mut g = game.clone();
        g.apply_legal(&a);
        let v = if a == Action::Draw {
            // Drawing is worth the best placement of the tile drawn (in
            // this determinization, where the unseen tile is a sample).
            score_turn_options(&g, seat, eval)
                .into_iter()
                .map(|o| o.1)
                .fold(f64::NEG_INFINITY, f64::max)
        } else if game.phase() == Phase::Place && g.phase() == Phase::Follower {
            best_follower(&g, seat, eval, &mut buf).1
        } else {
            eval.margin(&g, seat)
        };
        out.push((a, v));
    }
    out
}

/// The best follower step (or pass) in a game at its follower step, with
/// its margin for `seat`.
pub fn best_follower(
    game: &Game,
    seat: Seat,
    eval: &mut Evaluator,
    buf: &mut Vec<Action>,
) -> (Action, f64) {
    game.legal_actions_into(buf);
    let mut best = (Action::Pass, f64::NEG_INFINITY);
    // One copy made, then reused for every option (`clone_from` keeps its
    // buffers).
    let mut h = game.clone();
    for (i, f) in buf.iter().enumerate() {
        if i > 0 {
            h.clone_from(game);
        }
        h.apply_legal(f);
        let v = eval.margin(&h, seat);
        if v > best.1 {
            best = (*f, v);
        }
    }
    best
}

impl Bot for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, view: &View<'_>) -> Action {
        let game = view.determinize(&mut self.rng);
        let seat = view.player();
        let options = score_turn_options(&game, seat, &mut self.eval);
        let best = options
            .iter()
            .map(|o| o.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<Action> = options
            .iter()
            .filter(|o| o.1 >= best - 1e-9)
            .map(|o| o.0)
            .collect();
        match ties.len() {
            0 => Action::Pass,
            n => ties[self.rng.below(n as u64) as usize],
        }
    }
}
