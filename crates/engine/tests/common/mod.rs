//! Checks shared by the expansions' property tests (each test file is its
//! own crate and takes this module with `mod common;`).

use std::collections::HashSet;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::{Action, Game, GameConfig, Pos};

/// Every listed action is accepted; every candidate that is accepted is
/// listed, or has the result of a listed one (another place of a listed
/// feature); a refused candidate changes nothing.
pub fn listed_equals_accepted(game: &Game, legal: &[Action], candidates: &[Action], seed: u64) {
    let listed: HashSet<Action> = legal.iter().copied().collect();
    for a in legal {
        assert!(
            game.clone().try_apply(a).is_ok(),
            "listed but refused: {a:?} (seed {seed})"
        );
    }
    for cand in candidates {
        let mut g = game.clone();
        if g.try_apply(cand).is_err() {
            assert!(!listed.contains(cand), "listed but refused: {cand:?}");
            assert!(g == *game, "a refused action changed the game: {cand:?}");
        } else if !listed.contains(cand) {
            let same = legal.iter().any(|l| {
                let mut h = game.clone();
                h.try_apply(l).is_ok() && h == g
            });
            assert!(same, "accepted, not listed: {cand:?} (seed {seed})");
        }
    }
}

/// Every legal action inside the codec's window has an index below the
/// codec's size that names it back.
pub fn codec_round_trip(game: &Game, legal: &[Action], codec: &ActionCodec, seed: u64) {
    let window = |p: Pos| p.x.abs() <= codec.radius && p.y.abs() <= codec.radius;
    let ours = |a: &&Action| a.cell().is_none_or(window);
    for a in legal.iter().filter(ours) {
        let i = codec
            .encode(game, a)
            .unwrap_or_else(|| panic!("no codec index for {a:?} (seed {seed})"));
        assert!(
            i < codec.num_distinct_actions(game),
            "{a:?}: index {i} out of range"
        );
        assert_eq!(codec.decode(game, i), Some(*a), "index {i} (seed {seed})");
    }
}

/// Game `seed` of a property test: the combination `seed` picks from
/// `combos` (base game, expansions; Map Chips on the Ukraine map), with 2
/// to `1 + spread` players.
pub fn config(combos: &[(&str, &[&str])], seed: u64, spread: u64) -> GameConfig {
    let (base, sets) = combos[seed as usize % combos.len()];
    let mut c = GameConfig::new(2 + (seed % spread) as usize, seed);
    c.base = base.to_string();
    c.expansions = sets.iter().map(|s| s.to_string()).collect();
    if sets.contains(&"map-chips") {
        c.map = Some("ukraine".into());
    }
    c
}
