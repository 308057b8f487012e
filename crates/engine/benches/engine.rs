//! Criterion benchmarks: whole random games of every set, legal-placement
//! generation and observation tensors.
//! Figures and commands: docs/performance.md.

use std::hint::black_box;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::play_random;
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig, Phase};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Every set the targets name, as `--sets` lists.
const SETS: [(&str, &[&str]); 9] = [
    ("base_2p", &["base"]),
    ("winter_2p", &["winter"]),
    ("river2_2p", &["base", "river2"]),
    (
        "river20_cutcassonne_2p",
        &["base", "river20", "cutcassonne"],
    ),
    ("halfsies_2p", &["base", "halfsies1", "halfsies2"]),
    ("plague_2p", &["base", "plague"]),
    ("gingerbread_2p", &["winter", "gingerbread"]),
    ("map_chips_2p", &["base", "map-chips"]),
    (
        "all_2p",
        &[
            "winter",
            "gingerbread",
            "river2",
            "halfsies1",
            "halfsies2",
            "plague",
        ],
    ),
];

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for (name, sets) in SETS {
        let config = GameConfig::from_sets(2, 0, sets).expect("a valid set list");
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut cfg = config.clone();
                cfg.seed = seed;
                let mut game = Game::new(cfg).expect("valid config");
                let mut rng = Rng::for_stream(seed, 0xB07);
                play_random(&mut game, &mut rng, |_| {});
                black_box(game.scores())
            })
        });
    }
    group.finish();
}

/// The positions of random 2-player base games (seeds `0..games`) that
/// `keep` picks.
fn positions(games: u64, mut keep: impl FnMut(&Game, &mut Rng) -> bool) -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut game = Game::new(GameConfig::new(2, seed)).expect("valid config");
        let mut rng = Rng::new(seed);
        while !game.is_finished() {
            if keep(&game, &mut rng) {
                out.push(game.clone());
            }
            let legal = game.legal_actions();
            game.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
        }
    }
    out
}

fn legal_placements(c: &mut Criterion) {
    // Positions at the placement step, sampled from random games.
    let positions = positions(10, |g, rng| g.phase() == Phase::Place && rng.below(3) == 0);
    let mut group = c.benchmark_group("legal_placements");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut buf = Vec::with_capacity(256);
    group.bench_function("base_2p_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for g in &positions {
                g.legal_actions_into(&mut buf);
                n += buf.len();
            }
            black_box(n)
        })
    });
    group.finish();
}

fn observation_tensors(c: &mut Criterion) {
    // Every position of a few random base games, as learning agents ask
    // for them (one tensor per step, radius 30).
    let positions = positions(3, |_, _| true);
    let codec = ActionCodec::default();
    let mut group = c.benchmark_group("observation_tensor");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("base_2p_positions", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for g in &positions {
                let t = codec.observation_tensor(g, g.current_player());
                sum += t.globals[0];
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, random_games, legal_placements, observation_tensors);
criterion_main!(benches);
