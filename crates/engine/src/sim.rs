//! Random playouts: the uniform random player used by `simulate`, `bench`
//! and the property tests.

use crate::game::{Action, Game};
use crate::rng::Rng;

/// Plays the game to the end choosing uniformly among legal actions; calls
/// `on_action` with each action taken. Returns the number of actions.
pub fn play_random(game: &mut Game, rng: &mut Rng, on_action: impl FnMut(&Action)) -> usize {
    let mut buf = Vec::with_capacity(256);
    play_random_with(game, rng, &mut buf, on_action)
}

/// Like [`play_random`], with a scratch buffer the caller keeps from game
/// to game, so that a loop of playouts (with [`Game::reset`]) makes no heap
/// allocation once warmed up.
pub fn play_random_with(
    game: &mut Game,
    rng: &mut Rng,
    buf: &mut Vec<Action>,
    mut on_action: impl FnMut(&Action),
) -> usize {
    let mut n = 0;
    // `random_action` draws exactly as a pick from the full list would:
    // the games are the same as listing every action each time.
    while let Some(a) = game.random_action(rng, buf) {
        on_action(&a);
        game.apply_legal(&a);
        n += 1;
    }
    n
}
