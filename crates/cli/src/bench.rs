//! `bastide bench`: single-core speed of whole random games and of the
//! legal-placement generator.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use bastide_engine::play_random;
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, Phase};

/// Longest `--seconds`: an hour per measurement is already more than any
/// benchmark needs, and a bound keeps `inf` or `1e300` from reaching
/// `Duration::from_secs_f64`, which panics on them.
pub const MAX_SECONDS: f64 = 3600.0;

/// The measuring time `--seconds` asks for, if it is a usable one.
pub fn budget(seconds: f64) -> Result<Duration> {
    // `!(x > 0)` rather than `x <= 0`: NaN fails every comparison.
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS) {
        bail!(
            "--seconds {seconds}: give a number of seconds more than 0 and at most {MAX_SECONDS}"
        );
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Runs each measurement for about `seconds` and prints the rates to `out`.
pub fn run(seconds: f64, sets: &[String], out: &mut impl Write) -> Result<()> {
    let budget = budget(seconds)?;
    let config = crate::config_for(2, 1, sets)?;

    // Whole random games: set-up, every legal-action list, every apply, final
    // scoring.
    let start = Instant::now();
    let mut games = 0u64;
    let mut actions = 0u64;
    // At least one game, however short the budget: the rates divide by it.
    while games == 0 || start.elapsed() < budget {
        let mut c = config.clone();
        c.seed = games;
        let mut game = Game::new(c)?;
        let mut rng = Rng::for_stream(games, 0xB07);
        actions += play_random(&mut game, &mut rng, |_| {}) as u64;
        black_box(game.scores());
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "random 2-player games ({}): {:.0} games/s, {:.1} µs/game, {:.0} actions/s",
        sets.join("+"),
        games as f64 / secs,
        secs * 1e6 / games as f64,
        actions as f64 / secs
    )?;

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
    while calls == 0 || start.elapsed() < budget {
        for g in &positions {
            g.legal_actions_into(&mut buf);
            found += buf.len() as u64;
            calls += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "legal-placement generation: {:.0} calls/s ({:.0} ns/call, {:.1} placements per call)",
        calls as f64 / secs,
        secs * 1e9 / calls as f64,
        found as f64 / calls as f64
    )?;
    crate::tournament::bench(&config, budget, out)?;
    out.flush()?;
    Ok(())
}
