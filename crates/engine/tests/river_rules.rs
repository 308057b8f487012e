//! Issue 12's river rules over many seeded random games, and the join
//! message on a board where two open ends already face each other.
//!
//! - No half tile may be played while a river tile is drawn (the seed: a half
//!   replaces drawing a *normal* tile).
//! - A placement that leaves two open river ends facing one cell is legal
//!   only when the tile has no other legal placement.

use bastide_engine::record::Record;
use bastide_engine::rng::Rng;
use bastide_engine::Shape;
use bastide_engine::{Action, Game, GameConfig, Pos, Rotation};

const RIVER_SETS: &[&[&str]] = &[
    &["river2"],
    &["river20"],
    &["river1", "cutcassonne"],
    &["river2", "cutcassonne"],
    &["river20", "cutcassonne"],
    &["river1", "river2"],
];

/// Plays random actions while river tiles are left to draw, calling `check`
/// before each action and once after the river.
fn play_river(cfg: GameConfig, mut check: impl FnMut(&Game, &[Action])) {
    let seed = cfg.seed;
    let mut game = Game::new(cfg).expect("valid config");
    let mut rng = Rng::new(seed ^ 0x21_22);
    let mut buf = Vec::new();
    let river_left = |g: &Game| {
        g.pile_in_order()
            .chain(g.drawn_tile())
            .any(|t| g.catalog().tile(t).is_river)
    };
    while !game.is_finished() && river_left(&game) {
        game.legal_actions_into(&mut buf);
        check(&game, &buf);
        let a = buf[rng.below(buf.len() as u64) as usize];
        game.try_apply(&a).expect("a listed action is accepted");
    }
    // Once more, right after the river.
    game.legal_actions_into(&mut buf);
    check(&game, &buf);
}

fn drawn_river(game: &Game) -> Option<bastide_engine::TileIdx> {
    game.drawn_tile()
        .filter(|t| game.catalog().tile(*t).is_river)
}

/// Whether placing leaves two open ends facing one cell.
fn leaves_facing(game: &Game, a: &Action) -> bool {
    let mut g = game.clone();
    g.try_apply(a).expect("legal");
    g.river().is_some_and(|r| r.has_facing_ends())
}

#[test]
fn facing_ends_only_when_the_tile_has_no_other_placement() {
    let mut fallbacks = 0;
    let mut refused = 0;
    for sets in RIVER_SETS {
        for seed in 0..150u64 {
            let cfg = GameConfig::from_sets(2, seed, sets).expect("valid sets");
            play_river(cfg, |game, legal| {
                let Some(tile) = drawn_river(game) else {
                    return;
                };
                let places: Vec<&Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Place { .. }))
                    .collect();
                let facing = places.iter().filter(|a| leaves_facing(game, a)).count();
                assert!(
                    facing == 0 || facing == places.len(),
                    "{sets:?} seed {seed}: {facing} of {} placements leave the ends facing",
                    places.len()
                );
                if facing > 0 {
                    fallbacks += 1;
                }
                // try_apply agrees: every placement at an end's front cell
                // that is not listed is refused.
                let r = game.river().expect("river");
                for end in &r.ends {
                    let pos = end.pos.step(end.side);
                    for rot in Rotation::ALL {
                        let a = Action::Place { tile, pos, rot };
                        let ok = game.clone().try_apply(&a).is_ok();
                        assert_eq!(
                            ok,
                            legal.contains(&a),
                            "{sets:?} seed {seed}: {a:?} listed and accepted disagree"
                        );
                        if !ok && !places.is_empty() {
                            refused += 1;
                        }
                    }
                }
            });
        }
    }
    // Random river games never need the fallback; it has its own scenario
    // (river/forced_join_only_placement_allowed.json).
    assert_eq!(fallbacks, 0);
    assert!(refused > 0);
}

#[test]
fn no_half_while_a_river_tile_is_drawn() {
    let mut river_turns = 0;
    let mut halves_after = 0;
    for sets in [
        &["river2", "halfsies1", "halfsies2"][..],
        &["river1", "river2", "halfsies1"],
        &["river20", "cutcassonne", "halfsies2"],
    ] {
        for seed in 0..60u64 {
            let cfg = GameConfig::from_sets(4, seed, sets).expect("valid sets");
            play_river(cfg, |game, legal| {
                let cat = game.catalog();
                let is_half = |a: &Action| matches!(a, Action::Place { tile, .. } if cat.tile(*tile).shape == Shape::Half);
                if drawn_river(game).is_none() {
                    halves_after += legal.iter().filter(|a| is_half(a)).count().min(1);
                    return;
                }
                assert!(
                    !legal.iter().any(is_half),
                    "{sets:?} seed {seed}: a half is offered while a river tile is drawn"
                );
                if !legal.iter().any(|a| matches!(a, Action::Place { .. })) {
                    return;
                }
                river_turns += 1;
                // Every half in hand, anywhere next to the board, is refused.
                let hand = &game.halves().expect("halves").hands[game.current_player().index()];
                let cells: Vec<Pos> = game.board().frontier_cells().collect();
                for &tile in hand {
                    for &pos in &cells {
                        for rot in Rotation::ALL {
                            let a = Action::Place { tile, pos, rot };
                            let e = game.clone().try_apply(&a).expect_err("half refused");
                            assert_eq!(e.rule, "halves", "{sets:?} seed {seed}: {e}");
                        }
                    }
                }
            });
        }
    }
    assert!(river_turns > 0);
    assert!(halves_after > 0, "halves are offered again after the river");
}

#[test]
fn a_tile_facing_both_ends_would_join_the_branches() {
    // The board of river/forced_join_only_placement_allowed.json after the
    // forced river2/J: both open ends face (2,1). river2/K (road N-E, river
    // W-S) at (2,1) r90 (road E-S, river N-W) fits every edge there, but it
    // would join the two branches.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/river/forced_join_only_placement_allowed.json"
    ))
    .expect("scenario");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let rec = Record::parse(&v["record"].to_string()).expect("record");
    let game = rec.replay_to(10).expect("replay");
    let r = game.river().expect("river");
    assert!(r.has_facing_ends());
    let cat = game.catalog();
    let k = cat.find("river2/K").expect("river2/K");
    let pos = Pos::new(2, 1);
    let rot = Rotation::from_degrees(90).expect("rotation");
    assert!(
        game.board().check(cat, k, pos, rot).is_ok(),
        "K fits by its edges"
    );
    let e = r
        .check(game.board(), cat, k, pos, rot)
        .expect_err("joining the branches");
    assert!(e.contains("never be joined"), "{e}");
}
