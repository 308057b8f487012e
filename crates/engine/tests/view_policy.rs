//! One view policy: what a seat may see is its observation, and every view
//! (the JSON of `replay --as`, the OpenSpiel tensor, the legal choices it
//! is offered) is a function of it. A determinized game resamples exactly
//! what the seat cannot see, so all of these must come out the same on the
//! real game and on any determinization of it, in every phase of random
//! games of every expansion combination. A view that leaked the pile order,
//! another seat's hand or an undrawn tile would differ here.

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig, Seat};

/// Every expansion alone and the combinations that meet in the hooks.
const COMBOS: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("base", &["river1"]),
    ("base", &["river2"]),
    ("base", &["river20"]),
    ("base", &["river1", "cutcassonne"]),
    ("base", &["halfsies1"]),
    ("base", &["halfsies1", "halfsies2"]),
    ("base", &["plague"]),
    ("winter", &["gingerbread"]),
    ("base", &["map-chips"]),
    ("base", &["inns-cathedrals"]),
    ("base", &["traders-builders"]),
    ("base", &["traders-builders", "plague", "halfsies2"]),
    ("base", &["plague", "halfsies1", "halfsies2"]),
    ("base", &["map-chips", "halfsies1"]),
    (
        "winter",
        &["plague", "gingerbread", "river2", "halfsies1", "map-chips"],
    ),
    (
        "base",
        &["inns-cathedrals", "river2", "plague", "halfsies2"],
    ),
];

fn config(players: usize, seed: u64, base: &str, exps: &[&str]) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.base = base.to_string();
    c.expansions = exps.iter().map(|s| s.to_string()).collect();
    if exps.contains(&"map-chips") {
        c.map = Some("ukraine".into());
    }
    c
}

/// Checks that `seat` sees the same in `real` and in `guess`, a game that
/// differs from it only in what `seat` cannot see.
fn same_view(real: &Game, guess: &Game, seat: Seat, codec: &ActionCodec, at: &str) {
    assert_eq!(
        real.observation(seat),
        guess.observation(seat),
        "observation, {at}"
    );
    assert_eq!(
        codec.observation_tensor(real, seat),
        codec.observation_tensor(guess, seat),
        "tensor, {at}"
    );
    assert_eq!(real.view_json(seat), guess.view_json(seat), "view, {at}");
    // The seat to act is offered the same choices: they are part of what
    // it sees (its own hand, the drawn tile once drawn), never the unseen
    // next tile.
    if !real.is_finished() && real.current_player() == seat {
        assert_eq!(
            real.legal_actions(),
            guess.legal_actions(),
            "legal actions, {at}"
        );
    }
}

#[test]
fn every_view_is_the_same_on_a_determinized_game() {
    let codec = ActionCodec::default();
    let mut checked = 0usize;
    for (n, (base, exps)) in COMBOS.iter().enumerate() {
        for seed in 0..4u64 {
            let players = 2 + ((seed as usize + n) % 3);
            let cfg = config(players, seed * 31 + n as u64, base, exps);
            let mut game = Game::new(cfg).expect("valid config");
            let mut pick = Rng::new(seed ^ 0xD1E);
            let mut resample = Rng::new(seed ^ 0xFACE);
            let mut scratch = game.clone();
            let mut step = 0usize;
            loop {
                // Every third position, and every position of the first
                // turns (the river's source, the first draws of halves).
                if step < 12 || step.is_multiple_of(3) || game.is_finished() {
                    for seat in game.seats() {
                        let at = format!("{base}+{exps:?} seed {seed} step {step} seat {seat}");
                        let full = game.determinize(seat, &mut resample);
                        same_view(&game, &full, seat, &codec, &at);
                        let fast = game.determinize_fast(seat, &mut resample);
                        same_view(&game, &fast, seat, &codec, &at);
                        game.determinize_fast_into(seat, &mut resample, &mut scratch);
                        same_view(&game, &scratch, seat, &codec, &at);
                        checked += 1;
                    }
                }
                if game.is_finished() {
                    break;
                }
                let legal = game.legal_actions();
                let a = legal[pick.below(legal.len() as u64) as usize];
                game.try_apply(&a).expect("a listed action is accepted");
                step += 1;
            }
        }
    }
    // The loop really visited positions: at least a seat per position of
    // 60 whole games.
    assert!(checked > 60 * 40, "only {checked} views checked");
}

/// The check above must be able to fail: a determinization does change
/// what the seat cannot see, so another seat's view of it (one with a
/// hand the first seat does not know) differs somewhere in a game with
/// hidden hands.
#[test]
fn a_determinization_changes_what_the_seat_cannot_see() {
    let cfg = config(2, 5, "base", &["halfsies1", "halfsies2", "map-chips"]);
    let mut game = Game::new(cfg).expect("valid config");
    let mut pick = Rng::new(9);
    let mut resample = Rng::new(10);
    let mut differs = false;
    for _ in 0..40 {
        let me = game.seats().next().expect("a seat");
        let other = game.seats().nth(1).expect("a second seat");
        let guess = game.determinize(me, &mut resample);
        assert_eq!(game.view_json(me), guess.view_json(me));
        differs |= game.view_json(other) != guess.view_json(other);
        let legal = game.legal_actions();
        let a = legal[pick.below(legal.len() as u64) as usize];
        game.try_apply(&a).expect("a listed action is accepted");
    }
    assert!(differs, "determinize never resampled the other seat's hand");
}
