//! Random playouts: the uniform random player used by `simulate`, `bench`
//! and the property tests.

use crate::game::{Action, Game};
use crate::rng::Rng;

/// Plays the game to the end choosing uniformly among legal actions; calls
/// `on_action` with each action taken. Returns the number of actions.
pub fn play_random(game: &mut Game, rng: &mut Rng, mut on_action: impl FnMut(&Action)) -> usize {
    let mut buf = Vec::with_capacity(256);
    let mut n = 0;
    loop {
        game.legal_actions_into(&mut buf);
        if buf.is_empty() {
            return n;
        }
        let a = buf[rng.below(buf.len() as u64) as usize];
        on_action(&a);
        game.apply_legal(&a);
        n += 1;
    }
}
