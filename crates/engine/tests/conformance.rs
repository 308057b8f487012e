//! Conformance over every expansion combination: the checked and the
//! trusted transition agree, and move generation matches a golden file.
//!
//! The golden file (`tests/perft.json`) holds, for fixed seeded random games
//! of each combination, the number of legal actions at every position. Any
//! change in move generation (a speed rewrite, a refactor of the core)
//! shows up here as the first position whose count differs. When a rule
//! change is meant to change the counts, rewrite the file with
//! `BASTIDE_BLESS=1 cargo test -p bastide-engine --test conformance` and
//! say why in the commit.

use std::collections::BTreeMap;
use std::path::PathBuf;

use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig};

/// Every expansion alone (with the base game it needs) and together.
const COMBOS: &[&[&str]] = &[
    &["base"],
    &["winter"],
    &["base", "river1"],
    &["base", "river2"],
    &["base", "river20"],
    &["base", "river20", "cutcassonne"],
    &["base", "river1", "river2"],
    &["base", "halfsies1"],
    &["base", "halfsies2"],
    &["base", "halfsies1", "halfsies2"],
    &["base", "plague"],
    &["winter", "gingerbread"],
    &["base", "ukraine"],
    &["base", "map-chips"],
    &["base", "river2", "halfsies1"],
    &["base", "plague", "halfsies1"],
    &["base", "plague", "map-chips"],
    &["winter", "gingerbread", "plague"],
    &[
        "winter",
        "gingerbread",
        "plague",
        "river2",
        "halfsies1",
        "map-chips",
    ],
    &["base", "inns-cathedrals"],
    &["base", "river2", "inns-cathedrals"],
    &["base", "tower"],
    &["base", "tower", "inns-cathedrals", "halfsies1"],
    &[
        "winter",
        "gingerbread",
        "plague",
        "halfsies1",
        "map-chips",
        "inns-cathedrals",
    ],
];

fn config(combo: &[&str], players: usize, seed: u64) -> GameConfig {
    GameConfig::from_sets(players, seed, combo).expect("a valid combination")
}

#[test]
fn checked_and_trusted_transitions_give_identical_states() {
    for combo in COMBOS {
        for seed in 0..40u64 {
            let players = 2 + (seed % 5) as usize;
            let mut checked = Game::new(config(combo, players, seed)).expect("config");
            let mut trusted = checked.clone();
            let mut rng = Rng::new(seed ^ 0x5EED);
            let mut step = 0;
            while !checked.is_finished() {
                let legal = checked.legal_actions();
                let a = legal[rng.below(legal.len() as u64) as usize];
                checked
                    .try_apply(&a)
                    .unwrap_or_else(|e| panic!("{combo:?} seed {seed} step {step}: {a:?}: {e}"));
                trusted.apply_legal(&a);
                assert!(
                    checked == trusted,
                    "{combo:?} seed {seed}: the states differ after step {step} ({a:?})"
                );
                step += 1;
            }
            assert!(trusted.is_finished());
            assert_eq!(checked.scores(), trusted.scores());
        }
    }
}

/// Legal-action counts at every position of three seeded random games of
/// one combination.
fn counts(combo: &[&str]) -> Vec<Vec<usize>> {
    (0..3u64)
        .map(|seed| {
            let mut g = Game::new(config(combo, 2 + seed as usize, 1000 + seed)).expect("config");
            let mut rng = Rng::new(seed * 7919 + 1);
            let mut out = Vec::new();
            loop {
                let legal = g.legal_actions();
                out.push(legal.len());
                if legal.is_empty() {
                    break;
                }
                g.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
            }
            out
        })
        .collect()
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft.json")
}

#[test]
fn move_generation_matches_the_golden_counts() {
    let now: BTreeMap<String, Vec<Vec<usize>>> =
        COMBOS.iter().map(|c| (c.join(","), counts(c))).collect();
    if std::env::var_os("BASTIDE_BLESS").is_some() {
        let mut text = String::from("{\n");
        for (i, (k, v)) in now.iter().enumerate() {
            let games: Vec<String> = v
                .iter()
                .map(|g| serde_json::to_string(g).expect("numbers"))
                .collect();
            text.push_str(&format!(
                "  {:?}: [\n    {}\n  ]{}\n",
                k,
                games.join(",\n    "),
                if i + 1 < now.len() { "," } else { "" }
            ));
        }
        text.push_str("}\n");
        std::fs::write(golden_path(), text).expect("write the golden file");
        return;
    }
    let text = std::fs::read_to_string(golden_path())
        .expect("tests/perft.json (create it with BASTIDE_BLESS=1)");
    let golden: BTreeMap<String, Vec<Vec<usize>>> =
        serde_json::from_str(&text).expect("golden file is JSON");
    assert_eq!(
        golden.keys().collect::<Vec<_>>(),
        now.keys().collect::<Vec<_>>(),
        "the combinations changed: rewrite the golden file"
    );
    for (combo, games) in &now {
        for (gi, (want, got)) in golden[combo].iter().zip(games).enumerate() {
            if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
                panic!(
                    "{combo}, game {gi}: position {i} has {:?} legal actions, the golden file says {:?}",
                    got.get(i),
                    want.get(i)
                );
            }
        }
    }
}

#[test]
fn the_tile_to_draw_stays_unseen_until_the_draw() {
    let mut pending_seen = 0;
    for combo in [
        &["base", "halfsies1"][..],
        &["base", "halfsies1", "halfsies2"],
    ] {
        for seed in 0..20u64 {
            let mut g = Game::new(config(combo, 2 + (seed % 3) as usize, seed)).expect("config");
            let mut rng = Rng::new(seed);
            while !g.is_finished() {
                let legal = g.legal_actions();
                if legal.contains(&bastide_engine::Action::Draw) {
                    pending_seen += 1;
                    let drawn = g.drawn_tile().expect("a tile waits to be drawn");
                    assert!(
                        legal.iter().all(
                            |a| !matches!(a, bastide_engine::Action::Place { tile, .. } if *tile == drawn)
                        ),
                        "the unseen tile's placements are listed"
                    );
                    assert_eq!(g.visible_drawn_tile(), None);
                    for seat in g.seats() {
                        assert!(g.observation(seat).drawn.is_none());
                        assert!(g.view_json(seat)["drawn"].is_null());
                    }
                    // After the draw the tile is seen and only it is placed.
                    let mut d = g.clone();
                    d.try_apply(&bastide_engine::Action::Draw).expect("draw");
                    assert_eq!(d.visible_drawn_tile(), Some(drawn));
                    assert!(d.legal_actions().iter().all(
                        |a| matches!(a, bastide_engine::Action::Place { tile, .. } if *tile == drawn)
                    ));
                    assert!(d.try_apply(&bastide_engine::Action::Draw).is_err());
                }
                let a = legal[rng.below(legal.len() as u64) as usize];
                g.try_apply(&a).expect("listed");
            }
        }
    }
    assert!(pending_seen > 100, "only {pending_seen} draw choices seen");
    // Where drawing is no choice, `draw` is refused with a reason.
    let mut base = Game::new(GameConfig::new(2, 1)).expect("base");
    let e = base
        .try_apply(&bastide_engine::Action::Draw)
        .expect_err("no choice");
    assert_eq!(e.rule, "draw");
}
