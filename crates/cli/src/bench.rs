//! `bastide bench`: single-core speed of whole random games and of the
//! legal-placement generator.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::Result;
use bastide_engine::rng::Rng;
use bastide_engine::sim::play_random;
use bastide_engine::{Action, Game, Phase};

/// Runs each measurement for about `seconds` and prints the rates.
pub fn run(seconds: f64, sets: &[String]) -> Result<()> {
    let config = crate::config_for(2, 1, sets)?;
    let budget = Duration::from_secs_f64(seconds.max(0.1));

    // Whole random games: set-up, every legal-action list, every apply, final
    // scoring.
    let start = Instant::now();
    let mut games = 0u64;
    let mut actions = 0u64;
    while start.elapsed() < budget {
        let mut c = config.clone();
        c.seed = games;
        let mut game = Game::new(c)?;
        let mut rng = Rng::for_stream(games, 0xB07);
        actions += play_random(&mut game, &mut rng, |_| {}) as u64;
        black_box(game.scores());
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random 2-player games ({}): {:.0} games/s, {:.1} µs/game, {:.0} actions/s",
        sets.join("+"),
        games as f64 / secs,
        secs * 1e6 / games as f64,
        actions as f64 / secs
    );

    // Legal placements: positions sampled from random games, each asked for
    // its placement list repeatedly.
    let mut positions = Vec::new();
    for seed in 0..20u64 {
        let mut c = config.clone();
        c.seed = seed;
        let mut game = Game::new(c)?;
        let mut rng = Rng::for_stream(seed, 0xB07);
        let mut buf = Vec::new();
        while !game.is_finished() {
            game.legal_actions_into(&mut buf);
            if game.phase() == Phase::Place && rng.below(4) == 0 {
                positions.push(game.clone());
            }
            let a: Action = buf[rng.below(buf.len() as u64) as usize];
            game.apply_legal(&a);
        }
    }
    let start = Instant::now();
    let mut calls = 0u64;
    let mut found = 0u64;
    let mut buf = Vec::with_capacity(256);
    while start.elapsed() < budget {
        for g in &positions {
            g.legal_actions_into(&mut buf);
            found += buf.len() as u64;
            calls += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "legal-placement generation: {:.0} calls/s ({:.0} ns/call, {:.1} placements per call)",
        calls as f64 / secs,
        secs * 1e9 / calls as f64,
        found as f64 / calls as f64
    );
    crate::tournament::bench(&config, budget)?;
    Ok(())
}
