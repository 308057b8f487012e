//! `Game::random_action` (the random player of `simulate` and of MCTS
//! playouts) chooses exactly what a uniform pick from `legal_actions()`
//! chooses with the same random stream, in every set, so counting
//! placements instead of listing them changes no game.

use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig};

#[test]
fn random_action_picks_what_the_list_picks() {
    let sets: [&[&str]; 9] = [
        &["base"],
        &["winter"],
        &["base", "river2"],
        &["base", "river20", "cutcassonne"],
        &["base", "halfsies1", "halfsies2"],
        &["winter", "gingerbread"],
        &["base", "map-chips"],
        &["base", "plague"],
        &["base", "inns-cathedrals"],
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
