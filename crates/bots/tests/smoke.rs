//! Smoke tests: every bot finishes games in every set combination the
//! engine plays, choosing only legal actions, deterministically for a seed.

use bastide_bots::{make_bot, play_game, Bot, Strong, StrongBudget, StrongConfig, View};
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig};

const COMBOS: &[&[&str]] = &[
    &["base"],
    &["winter"],
    &["base", "river1"],
    &["base", "river2"],
    &["base", "river20", "cutcassonne"],
    &["base", "halfsies1", "halfsies2"],
    &["base", "plague"],
    &["winter", "gingerbread"],
    &["base", "map-chips"],
    &[
        "winter",
        "gingerbread",
        "plague",
        "river2",
        "halfsies1",
        "map-chips",
    ],
];

fn config(sets: &[&str], players: usize, seed: u64) -> GameConfig {
    GameConfig::from_sets(players, seed, sets).expect("a valid set list")
}

fn bots(specs: &[&str], seed: u64) -> Vec<Box<dyn Bot>> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| make_bot(s, seed + i as u64).expect("spec"))
        .collect()
}

/// A small tournament per set combination: each pair of bots, seats
/// swapped.
#[test]
fn a_few_games_per_set_combination_finish() {
    let lineups: [&[&str]; 5] = [
        &["mcts:8", "greedy"],
        &["greedy", "random"],
        &["random", "mcts:8"],
        &["strong:20", "greedy"],
        &["strong-ply:400", "mcts:8"],
    ];
    for combo in COMBOS {
        for (i, lineup) in lineups.iter().enumerate() {
            let mut specs = lineup.to_vec();
            if i % 2 == 1 {
                specs.reverse();
            }
            let game = Game::new(config(combo, 2, 10 + i as u64)).expect("config");
            let mut bs = bots(&specs, 1);
            let mut illegal = 0;
            let end = play_game(game, &mut bs, |g, a| {
                if !g.legal_actions().contains(a) {
                    illegal += 1;
                }
            });
            assert!(end.is_finished(), "{combo:?} {specs:?}");
            assert_eq!(illegal, 0);
        }
    }
}

#[test]
fn three_players_and_a_time_budget() {
    let game = Game::new(config(&["base"], 3, 4)).expect("config");
    let mut bs = bots(&["mcts:2ms", "greedy", "random"], 3);
    assert!(play_game(game, &mut bs, |_, _| {}).is_finished());
}

#[test]
fn greedy_beats_random() {
    let mut wins = 0;
    for seed in 0..4u64 {
        let game = Game::new(config(&["base"], 2, seed)).expect("config");
        let mut bs = bots(&["greedy", "random"], seed);
        if seed % 2 == 1 {
            bs.reverse();
        }
        let s = play_game(game, &mut bs, |_, _| {}).scores();
        let g = (seed % 2) as usize;
        if s[g] > s[1 - g] {
            wins += 1;
        }
    }
    assert_eq!(wins, 4);
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    let run = || {
        let game = Game::new(config(&["base", "river2"], 2, 5)).expect("config");
        let mut bs = bots(&["strong:6", "strong-ply:400"], 9);
        let mut actions = Vec::new();
        play_game(game, &mut bs, |_, a| actions.push(*a));
        actions
    };
    assert_eq!(run(), run());
}

#[test]
fn bots_never_depend_on_the_hidden_pile_order() {
    // Two games with the same public position but different hidden pile
    // orders: a bot with the same seed makes the same choice in both.
    let mut g = Game::new(config(&["base"], 2, 8)).expect("config");
    let mut rng = Rng::new(1);
    for _ in 0..20 {
        let l = g.legal_actions();
        g.apply_legal(&l[rng.below(l.len() as u64) as usize]);
    }
    let other = g.determinize(g.current_player(), &mut rng);
    assert_ne!(
        g.pile_in_order().collect::<Vec<_>>(),
        other.pile_in_order().collect::<Vec<_>>()
    );
    for spec in [
        "mcts:20",
        "greedy",
        "random",
        "strong:50",
        "strong",
        "strong-ply:2000",
        "strong-ply",
    ] {
        let a = make_bot(spec, 4).expect("spec").choose(&View::new(&g));
        let b = make_bot(spec, 4).expect("spec").choose(&View::new(&other));
        assert_eq!(a, b, "{spec} read the hidden pile");
    }
}

#[test]
fn bad_specs_are_clear_errors() {
    for bad in ["mcts:zero", "minimax", "greedy:9"] {
        let e = make_bot(bad, 0).err().expect("an error");
        let msg = e.to_string();
        assert!(msg.contains(bad) && msg.contains("Known bots"), "{msg}");
    }
}

/// The strong bot's budget bounds its first ply too: in Plague games (owed
/// spreads weighed for every candidate placement) a move once cost many
/// times the budget. Beyond the budget, each candidate of the first ply
/// costs one evaluation, so a move's cost stays near the budget plus its
/// candidates.
#[test]
fn the_strong_budget_bounds_plague_moves() {
    const BUDGET: u32 = 300;
    let mut g = Game::new(config(&["base", "plague"], 2, 3)).expect("config");
    let config = StrongConfig {
        budget: StrongBudget::Evaluations(BUDGET),
        ..StrongConfig::ply()
    };
    let mut bot = Strong::new(config, 1);
    let mut worst = 0;
    while !g.is_finished() {
        let before = bot.evaluations;
        let a = bot.choose(&View::new(&g));
        worst = worst.max(bot.evaluations - before);
        g.try_apply(&a).expect("a legal action");
    }
    assert!(
        worst <= 4 * u64::from(BUDGET),
        "a move used {worst} evaluations"
    );
}
