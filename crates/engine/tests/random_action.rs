//! `Game::random_action` (the random player of `simulate` and of MCTS
//! playouts) chooses exactly what a uniform pick from `legal_actions()`
//! chooses with the same random stream, in every set, so counting
//! placements instead of listing them changes no game.

use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig};

#[test]
fn random_action_picks_what_the_list_picks() {
    let sets: [&[&str]; 13] = [
        &["base"],
        &["winter"],
        &["base", "river2"],
        &["base", "river20", "cutcassonne"],
        &["base", "halfsies1", "halfsies2"],
        &["winter", "gingerbread"],
        &["base", "map-chips"],
        &["base", "plague"],
        &["base", "inns-cathedrals"],
        &["base", "traders-builders"],
        &["base", "traders-builders", "plague", "halfsies1"],
        &["base", "princess-dragon"],
        &["base", "princess-dragon", "plague", "inns-cathedrals"],
    ];
    for sets in sets {
        for seed in 0..3u64 {
            let config = GameConfig::from_sets(2 + seed as usize, seed, sets).expect("a valid set");
            let mut game = Game::new(config).expect("a valid configuration");
            let mut rng = Rng::for_stream(seed, 5);
            let mut buf = Vec::new();
            let mut steps = 0;
            loop {
                let listed = game.legal_actions();
                let mut twin = rng.clone();
                let expected =
                    (!listed.is_empty()).then(|| listed[twin.below(listed.len() as u64) as usize]);
                let got = game.random_action(&mut rng, &mut buf);
                assert_eq!(got, expected, "{sets:?}, seed {seed}, step {steps}");
                assert_eq!(rng, twin, "{sets:?}: the streams drifted");
                let Some(a) = got else { break };
                game.apply_legal(&a);
                steps += 1;
            }
            assert!(game.is_finished());
        }
    }
}

/// `Game::pick_action` tells its chooser the list's length and where `pass`
/// stands in it, and gives the listed action at the index chosen, in every
/// step of every set (the Plague builds it from its stored spreads and
/// flights without the list).
#[test]
fn pick_action_gives_the_listed_action_at_the_index_picked() {
    for sets in [
        &["base"][..],
        &["base", "plague"],
        &[
            "winter",
            "gingerbread",
            "river2",
            "halfsies1",
            "halfsies2",
            "plague",
        ],
        &["base", "map-chips"],
    ] {
        for seed in 0..3u64 {
            let config = GameConfig::from_sets(2, seed, sets).expect("a valid set");
            let mut game = Game::new(config).expect("a valid configuration");
            let mut rng = Rng::for_stream(seed, 11);
            let mut buf = Vec::new();
            let mut steps = 0u64;
            while !game.is_finished() {
                let listed = game.legal_actions();
                let pass = listed
                    .iter()
                    .position(|a| *a == bastide_engine::Action::Pass);
                // Pass, the last action or one in between, in turn.
                let choose = |n: usize, p: Option<usize>| match steps % 3 {
                    0 => p.unwrap_or(0),
                    1 => n - 1,
                    _ => n / 2,
                };
                let mut told = None;
                let got = game.pick_action(&mut buf, |n, p| {
                    told = Some((n, p));
                    choose(n, p)
                });
                let (n, p) = told.expect("the chooser was asked");
                assert_eq!(
                    (n, p),
                    (listed.len(), pass),
                    "{sets:?}, seed {seed}, step {steps}"
                );
                let k = choose(n, p);
                assert_eq!(got, Some(listed[k]), "{sets:?}, seed {seed}, step {steps}");
                // Play on at random so the games reach every step.
                let a = game
                    .random_action(&mut rng, &mut buf)
                    .expect("a legal action");
                game.apply_legal(&a);
                steps += 1;
            }
        }
    }
}
