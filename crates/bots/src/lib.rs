//! Bots for Bastide: `random`, `greedy`, `mcts` (information-set Monte
//! Carlo tree search) and `strong` (that search guided by an evaluation
//! that knows the unseen tiles; `strong-ply`, its older one-ply search),
//! behind one [`Bot`] trait, made from specs
//! such as `"mcts:2000"` by [`make_bot`].
//!
//! A bot sees a game only through a [`View`]: the current player's
//! observation, the legal actions, and determinizations (games whose hidden
//! part, the order of the draw pile, is resampled). A `View` has no way to
//! read the real pile order, so no bot can cheat. Bots use only the generic
//! engine API, so they play every expansion the engine supports.

#![warn(missing_docs)]

use std::fmt;
use std::time::Duration;

use bastide_engine::openspiel::Observation;
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, Seat};
use thiserror::Error;

pub mod eval;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod strong;

pub use greedy::Greedy;
pub use mcts::{Budget, Mcts, MctsConfig};
pub use random::RandomBot;
pub use strong::{Strong, StrongBudget, StrongConfig, StrongSearch};

/// What a bot may know of a game: the view of the player to act.
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a Game,
}

impl<'a> View<'a> {
    /// The view of the player to act in `game`.
    pub fn new(game: &'a Game) -> View<'a> {
        View { game }
    }

    /// The seat to act.
    pub fn player(&self) -> Seat {
        self.game.current_player()
    }

    /// The legal actions of the player to act.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions()
    }

    /// What the player to act sees.
    pub fn observation(&self) -> Observation {
        self.game.observation(self.player())
    }

    /// A game consistent with what the player to act knows, its hidden part
    /// (pile order, seed) resampled with `rng`.
    pub fn determinize(&self, rng: &mut Rng) -> Game {
        self.game.determinize(self.player(), rng)
    }
}

/// A player that chooses actions.
pub trait Bot: Send {
    /// The spec that makes this bot (`mcts:2000`, `greedy`, …).
    fn name(&self) -> String;

    /// Chooses one of `view.legal_actions()` for the player to act. Called
    /// only while the game runs.
    fn choose(&mut self, view: &View<'_>) -> Action;
}

/// A bot spec that cannot be made into a bot.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("bad bot spec {spec:?}: {problem}. Known bots: {KNOWN}")]
pub struct SpecError {
    /// The spec given.
    pub spec: String,
    /// What is wrong.
    pub problem: String,
}

/// The bots that [`make_bot`] knows, for messages.
pub const KNOWN: &str = "random, greedy, mcts (mcts:ITERATIONS such as mcts:2000, or a time per move such as mcts:500ms or mcts:2s), strong (MCTS over the unseen-tile evaluation: strong:ITERATIONS such as strong:4000, or a time per move such as strong:100ms), strong-ply (its older one-ply search: strong-ply:EVALUATIONS such as strong-ply:12000)";

/// A parsed bot spec.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal actions.
    Random,
    /// Best immediate evaluation.
    Greedy,
    /// Information-set MCTS with a budget per move and its settings.
    Mcts(MctsConfig),
    /// A search over the unseen-tile evaluation (`strong`: MCTS;
    /// `strong-ply`: one ply), with its budget.
    Strong(StrongConfig),
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Strong(c) => f.write_str(&c.spec()),
            BotSpec::Mcts(c) => {
                write!(f, "mcts:{}", c.budget)?;
                let d = MctsConfig::default();
                if c.exploration != d.exploration {
                    write!(f, ":c={}", c.exploration)?;
                }
                if c.rollout_turns != d.rollout_turns {
                    match c.rollout_turns {
                        u32::MAX => f.write_str(":rollout=end")?,
                        n => write!(f, ":rollout={n}")?,
                    }
                }
                if c.rollout_followers != d.rollout_followers {
                    write!(f, ":followers={}", c.rollout_followers)?;
                }
                if c.prior_visits != d.prior_visits {
                    write!(f, ":prior={}", c.prior_visits)?;
                }
                if c.scale != d.scale {
                    write!(f, ":scale={}", c.scale)?;
                }
                if c.width != d.width {
                    write!(f, ":width={}", c.width)?;
                }
                if c.mix != d.mix {
                    write!(f, ":mix={}", c.mix)?;
                }
                if c.leaf == mcts::LeafEval::Strong {
                    f.write_str(":eval=strong")?;
                }
                Ok(())
            }
        }
    }
}

impl BotSpec {
    /// Parses `random`, `greedy`, `mcts`, `mcts:N`, `mcts:Nms`, `mcts:Ns`,
    /// optionally followed by settings: `mcts:2000:c=0.5:rollout=end`.
    pub fn parse(spec: &str) -> Result<BotSpec, SpecError> {
        let err = |problem: &str| SpecError {
            spec: spec.to_string(),
            problem: problem.to_string(),
        };
        let s = spec.trim();
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("greedy", None) => Ok(BotSpec::Greedy),
            ("random" | "greedy", Some(_)) => Err(err("this bot takes no setting")),
            ("mcts", None) => Ok(BotSpec::Mcts(MctsConfig::default())),
            ("mcts", Some(a)) => parse_mcts(a).map(BotSpec::Mcts).map_err(|p| err(&p)),
            ("strong", None) => Ok(BotSpec::Strong(StrongConfig::default())),
            ("strong", Some(a)) => parse_strong(a, StrongConfig::default())
                .map(BotSpec::Strong)
                .map_err(|p| err(&p)),
            ("strong-ply", None) => Ok(BotSpec::Strong(StrongConfig::ply())),
            ("strong-ply", Some(a)) => parse_strong(a, StrongConfig::ply())
                .map(BotSpec::Strong)
                .map_err(|p| err(&p)),
            ("", _) => Err(err("the spec is empty")),
            _ => Err(err("unknown bot")),
        }
    }

    /// Makes the bot; `seed` drives all its random choices.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(Greedy::new(seed)),
            BotSpec::Mcts(c) => Box::new(Mcts::new(*c, seed)),
            BotSpec::Strong(c) => Box::new(Strong::new(*c, seed)),
        }
    }
}

/// Makes a bot from a spec such as `"mcts:2000"`, `"greedy"` or `"random"`.
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, SpecError> {
    Ok(BotSpec::parse(spec)?.build(seed))
}

impl Budget {
    /// Parses `2000` (iterations), `500ms` or `1.5s` (time per move).
    pub fn parse(s: &str) -> Result<Budget, String> {
        let bad_time = || format!("{s:?} is not a time such as 500ms or 2s");
        if let Some(ms) = s.strip_suffix("ms") {
            let v: f64 = ms.parse().map_err(|_| bad_time())?;
            return time_budget(v / 1000.0).ok_or_else(bad_time);
        }
        if let Some(sec) = s.strip_suffix('s') {
            let v: f64 = sec.parse().map_err(|_| bad_time())?;
            return time_budget(v).ok_or_else(bad_time);
        }
        match s.parse::<u32>() {
            Ok(n) if (1..=MAX_ITERATIONS).contains(&n) => Ok(Budget::Iterations(n)),
            Ok(n) => Err(format!(
                "{n} iterations: give 1 to {MAX_ITERATIONS} (about a minute a move), or a time such as 2s"
            )),
            Err(_) => Err(format!(
                "{s:?} is neither a number of iterations (such as 2000) nor a time (500ms, 2s)"
            )),
        }
    }
}

/// The most MCTS iterations a move may take: about a minute of thinking on
/// one core, so a typo cannot make a bot that never moves.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// Parses what follows `mcts:`: a budget, then `key=value` settings.
fn parse_mcts(arg: &str) -> Result<MctsConfig, String> {
    let mut c = MctsConfig::default();
    let mut parts = arg.split(':');
    if let Some(b) = parts.next().filter(|b| !b.contains('=')) {
        c.budget = Budget::parse(b)?;
    } else {
        parts = arg.split(':');
    }
    for p in parts {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| format!("setting {p:?} is not key=value"))?;
        let num = || -> Result<f64, String> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{k}={v}: the value must be a number, 0 or more"))
        };
        match k {
            "c" => c.exploration = num()?,
            "rollout" if v == "end" => c.rollout_turns = u32::MAX,
            "rollout" => {
                c.rollout_turns = v
                    .parse()
                    .map_err(|_| format!("rollout={v}: give a number of turns or `end`"))?
            }
            "followers" => c.rollout_followers = num()?.min(1.0),
            "prior" => c.prior_visits = num()?,
            "scale" => c.scale = num()?.max(0.01),
            "width" => {
                c.width = v
                    .parse()
                    .map_err(|_| format!("width={v}: give a whole number (0: all)"))?
            }
            "mix" => c.mix = num()?.min(1.0),
            "eval" => {
                c.leaf = match v {
                    "greedy" => mcts::LeafEval::Greedy,
                    "strong" => mcts::LeafEval::Strong,
                    _ => return Err(format!("eval={v}: give greedy or strong")),
                }
            }
            _ => {
                return Err(format!(
                    "unknown setting {k:?}: known are c, rollout, followers, prior, scale, width, mix, eval"
                ))
            }
        }
    }
    Ok(c)
}

/// Parses what follows `strong:` or `strong-ply:`: a number of
/// iterations (evaluations for `strong-ply`) or a time per move (the same
/// forms as an MCTS budget), applied to `base`.
fn parse_strong(arg: &str, base: StrongConfig) -> Result<StrongConfig, String> {
    let budget = match Budget::parse(arg)? {
        Budget::Iterations(n) => StrongBudget::Evaluations(n),
        Budget::Time(d) => StrongBudget::Time(d),
    };
    Ok(StrongConfig { budget, ..base })
}

fn time_budget(secs: f64) -> Option<Budget> {
    (secs.is_finite() && secs > 0.0 && secs <= 3600.0)
        .then(|| Budget::Time(Duration::from_secs_f64(secs)))
}

/// Plays one game to the end with one bot per seat; calls `on_action` with
/// each action taken. Returns the finished game.
pub fn play_game(
    mut game: Game,
    bots: &mut [Box<dyn Bot>],
    mut on_action: impl FnMut(&Game, &Action),
) -> Game {
    while !game.is_finished() {
        let seat = game.current_player();
        let legal = game.legal_actions();
        let mut a = if legal.len() == 1 {
            legal[0]
        } else {
            bots[seat.index() % bots.len()].choose(&View::new(&game))
        };
        if !legal.contains(&a) {
            // A bot bug must not stop a tournament: take the first legal
            // action instead.
            a = legal[0];
        }
        on_action(&game, &a);
        game.apply_legal(&a);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(BotSpec::parse("random"), Ok(BotSpec::Random));
        assert_eq!(BotSpec::parse("greedy"), Ok(BotSpec::Greedy));
        assert_eq!(
            BotSpec::parse("strong"),
            Ok(BotSpec::Strong(StrongConfig::default()))
        );
        for s in ["strong:500", "strong:100ms"] {
            assert_eq!(BotSpec::parse(s).map(|b| b.to_string()), Ok(s.to_string()));
        }
        let budget = |s: &str| match BotSpec::parse(s) {
            Ok(BotSpec::Mcts(c)) => Some(c.budget),
            _ => None,
        };
        assert_eq!(budget("mcts:2000"), Some(Budget::Iterations(2000)));
        assert_eq!(
            budget("mcts:250ms"),
            Some(Budget::Time(Duration::from_millis(250)))
        );
        assert_eq!(
            budget("mcts:2s"),
            Some(Budget::Time(Duration::from_secs(2)))
        );
        assert_eq!(
            budget("mcts"),
            Some(Budget::Iterations(mcts::DEFAULT_ITERATIONS))
        );
        for s in [
            "mcts:300:c=0.5:rollout=4",
            "mcts:10:followers=0.5:prior=0:scale=4:width=8",
            "mcts:500:prior=15:mix=0.2:eval=strong",
            "strong",
            "strong:300",
            "strong:100ms",
            "strong-ply",
            "strong-ply:500",
        ] {
            assert_eq!(BotSpec::parse(s).map(|b| b.to_string()), Ok(s.to_string()));
        }
        assert_eq!(
            BotSpec::parse("mcts:2000").map(|s| s.to_string()),
            Ok("mcts:2000".into())
        );
        for bad in [
            "",
            "mcts:",
            "mcts:0",
            "mcts:1000001",
            "mcts:4294967295",
            "mcts:-3",
            "mcts:abc",
            "mcts:1e9s",
            "greedy:3",
            "alphazero",
            "mcts:5:c=x",
            "mcts:5:depth=3",
            "mcts:5:c",
            "strong:0",
            "strong:fast",
            "strong-ply:0",
            "mcts:5:eval=best",
        ] {
            let e = BotSpec::parse(bad).expect_err(bad);
            assert!(e.to_string().contains("Known bots"), "{e}");
        }
    }
}
