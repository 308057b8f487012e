//! Criterion benchmark of MCTS search: 200 iterations from positions of
//! greedy games, for the base game and the Plague (the two the speed targets
//! name). Figures and commands: docs/performance.md.

use std::hint::black_box;

use bastide_bots::{Bot, Budget, Greedy, Mcts, MctsConfig, View};
use bastide_engine::{Game, GameConfig, Phase};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Iterations per search: enough for the tree to matter, few enough for
/// criterion to take many samples.
const ITERATIONS: u32 = 200;

/// Placement-step positions from the first two thirds of greedy games.
fn positions(sets: &[&str]) -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..4u64 {
        let config = GameConfig::from_sets(2, seed, sets).expect("a valid set list");
        let mut game = Game::new(config).expect("a valid configuration");
        let mut bot = Greedy::new(seed);
        let mut turn = 0u32;
        while !game.is_finished() {
            if game.phase() == Phase::Place && turn.is_multiple_of(6) && game.tiles_left() > 10 {
                out.push(game.clone());
            }
            let a = bot.choose(&View::new(&game));
            game.apply_legal(&a);
            turn += 1;
        }
    }
    out
}

fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_search");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(20);
    for (name, sets) in [
        ("base_2p", &["base"][..]),
        ("plague_2p", &["base", "plague"][..]),
    ] {
        let games = positions(sets);
        let mut mcts = Mcts::new(
            MctsConfig {
                budget: Budget::Iterations(ITERATIONS),
                ..MctsConfig::default()
            },
            1,
        );
        let mut i = 0usize;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % games.len();
                black_box(mcts.search(&View::new(&games[i])))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, mcts);
criterion_main!(benches);
