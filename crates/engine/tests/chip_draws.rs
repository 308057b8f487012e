//! Map Chips' `chip_draws`: every chip drawn from the supply, in order,
//! across the reshuffles when a Chumak square is built (the field a record
//! of an explicit-chance game writes, issue 42). A chip it names that is
//! not in the supply when drawn stops a replay at that action.

use bastide_engine::openspiel::tokens_drawn;
use bastide_engine::record::{ActionJson, Record, RecordError, FORMAT};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, ConfigError, Game, GameConfig};

fn config(seed: u64, draws: &[&str]) -> GameConfig {
    let mut c = GameConfig::from_sets(2, seed, &["base", "map-chips"]).expect("sets");
    c.chip_draws = Some(draws.iter().map(|s| s.to_string()).collect());
    c
}

/// Plays `game` at random until `stop` holds or the game ends; the actions.
fn play(game: &mut Game, seed: u64, stop: impl Fn(&Game) -> bool) -> Vec<Action> {
    let mut rng = Rng::new(seed);
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    while !stop(game) {
        let Some(a) = game.random_action(&mut rng, &mut buf) else {
            break;
        };
        game.apply_legal(&a);
        actions.push(a);
    }
    actions
}

fn record_of(config: GameConfig, g: &Game, actions: &[Action]) -> Record {
    Record {
        format: FORMAT,
        config,
        actions: actions
            .iter()
            .map(|a| ActionJson::from_action(a, g.catalog()))
            .collect(),
    }
}

/// The chips taken so far, by their names in records.
fn taken(g: &Game) -> Vec<String> {
    tokens_drawn(g).iter().map(|o| o.name(g)).collect()
}

/// 22 chips, no kind more often than the map has it (six 1s and four 2s
/// a colour): each is in the supply when its turn comes, whatever was
/// drawn, traded or reshuffled before.
const DRAWS: [&str; 22] = [
    "orange:2", "blue:1", "purple:2", "orange:1", "blue:2", "purple:1", "orange:1", "blue:1",
    "purple:1", "orange:2", "blue:1", "purple:2", "orange:1", "blue:2", "purple:1", "orange:1",
    "blue:1", "purple:1", "orange:2", "blue:2", "purple:2", "orange:2",
];

#[test]
fn chip_draws_fix_every_chip_drawn_across_reshuffles() {
    let mut past_a_reshuffle = 0;
    for seed in 0..12 {
        let mut g = Game::new(config(seed, &DRAWS)).expect("config");
        let mut rng = Rng::new(seed);
        let mut buf = Vec::new();
        let mut actions = Vec::new();
        while let Some(a) = g.random_action(&mut rng, &mut buf) {
            let built = |g: &Game| g.chips().is_some_and(|c| c.squares.iter().any(|q| q.built));
            let (was_built, before) = (built(&g), taken(&g).len());
            g.apply_legal(&a);
            actions.push(a);
            // A chip drawn after chips went back into the supply.
            past_a_reshuffle += usize::from(was_built && taken(&g).len() > before);
        }
        let got = taken(&g);
        let n = got.len().min(DRAWS.len());
        assert_eq!(got[..n], DRAWS[..n], "seed {seed}");
        // The record replays the same chips (the seed's own shuffles
        // differ from the fixed order, so this fails if either is used).
        let record = record_of(config(seed, &DRAWS), &g, &actions);
        let replayed = record.replay().expect("replays");
        assert_eq!(taken(&replayed), got, "seed {seed}");
    }
    assert!(past_a_reshuffle > 0, "no game drew past a reshuffle");
}

#[test]
fn a_chip_draw_not_in_the_supply_stops_the_replay_there() {
    // Seven purple 1s: the map has six; the seventh is in the supply only
    // if one of them went back (traded, then its square built).
    let draws = ["purple:1"; 7];
    let mut stopped = 0;
    for seed in 0..10 {
        let mut g = Game::new(config(seed, &draws)).expect("config");
        let actions = play(&mut g, seed, |g| taken(g).len() >= 7);
        let record = record_of(config(seed, &draws), &g, &actions);
        match record.replay() {
            Err(RecordError::Misfixed { index, message }) => {
                assert!(
                    matches!(actions[index], Action::Place { .. }),
                    "seed {seed}: a placement draws chips, not {:?}",
                    actions[index]
                );
                assert!(message.contains("chip_draws position 6"), "{message}");
                assert_eq!(index + 1, actions.len(), "seed {seed}: stops at the draw");
                stopped += 1;
            }
            Err(e) => panic!("seed {seed}: {e}"),
            Ok(_) => {}
        }
    }
    assert!(stopped > 0, "no replay stopped");
}

#[test]
fn chips_and_chip_draws_do_not_go_together() {
    let mut c = config(1, &["blue:1"]);
    c.chips = Some(vec!["blue:2".into()]);
    let e = Game::new(c).expect_err("both");
    assert!(e.to_string().contains("not both"), "{e}");
    let mut c = config(1, &["blue:3"]);
    c.expansions.clear();
    c.map = None;
    let e = Game::new(c).expect_err("no map chips");
    assert!(e.to_string().contains("chip_draws"), "{e}");
    let e = Game::new(config(1, &["green:1"])).expect_err("no such chip");
    assert!(matches!(e, ConfigError::BadOption { .. }), "{e}");
    assert!(e.to_string().contains("position 0"), "{e}");
}
