//! The uniformly random player.

use bastide_engine::rng::Rng;
use bastide_engine::Action;

use crate::{Bot, View};

/// Picks a legal action uniformly at random.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot whose choices follow `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::for_stream(seed, 0xA11),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        match legal.len() {
            0 => Action::Pass,
            n => legal[self.rng.below(n as u64) as usize],
        }
    }
}
