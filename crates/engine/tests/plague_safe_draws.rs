//! The Plague's set-up puts the six sources below the first 17 land tiles
//! (`plague.md`, "Setup"). The seeded pile keeps that order; what never reads
//! the pile's order must keep the rule too: the chance outcomes of the
//! explicit-chance game (no source among the first 17 land draws, sources
//! possible from the 18th) and a bot's determinized pile (no source among
//! the safe draws still to come). Issue 42.

use bastide_engine::expansions::plague::{is_source, SAFE_TILES};
use bastide_engine::openspiel::{Node, Outcome, State};
use bastide_engine::rng::Rng;
use bastide_engine::{Catalog, Game, GameConfig, Phase, Seat, TileIdx};

fn config(seed: u64, expansions: &[&str]) -> GameConfig {
    let mut c = GameConfig::new(2, seed);
    c.expansions = expansions.iter().map(|s| s.to_string()).collect();
    c
}

fn river(cat: &Catalog, t: TileIdx) -> bool {
    cat.tile(t).is_river
}

/// Plays explicit-chance games to the end, counting the land tiles chance
/// draws: while fewer than 17 are drawn no outcome is a source; once 17
/// are, the sources left are outcomes (with their share of the pile).
#[test]
fn chance_draws_no_source_among_the_first_17_land_tiles() {
    for (seed, sets) in [(1, &["plague"][..]), (2, &["plague", "river1"][..])] {
        let mut s = State::new(config(seed, sets)).expect("config");
        let cat = Catalog::builtin();
        let mut rng = Rng::new(seed);
        let (mut land_drawn, mut seen_after) = (0usize, false);
        loop {
            match s.node() {
                Node::Terminal => break,
                Node::Chance => {
                    let outcomes = s.chance_outcomes();
                    let tile = |o: &Outcome| match o {
                        Outcome::Tile(t) => Some(*t),
                        Outcome::Token(_) => None,
                    };
                    let sources = outcomes
                        .iter()
                        .filter(|o| tile(&o.0).is_some_and(|t| is_source(&cat, t)))
                        .count();
                    if land_drawn < SAFE_TILES {
                        assert_eq!(sources, 0, "a source after {land_drawn} land draws");
                    } else if s.game().pile_in_order().any(|t| is_source(&cat, t)) {
                        assert!(sources > 0, "sources left but not outcomes");
                        seen_after = true;
                    }
                    // Refused as an outcome too, not only left out of the list.
                    if land_drawn < SAFE_TILES {
                        if let Some(src) = s.game().pile_in_order().find(|t| is_source(&cat, *t)) {
                            assert!(s.clone().apply_chance(src).is_err());
                        }
                    }
                    let o = outcomes[rng.below(outcomes.len() as u64) as usize].0;
                    s.apply_chance(o).expect("an outcome applies");
                    let t = tile(&o).expect("tiles only without Map Chips");
                    if !river(&cat, t) && !is_source(&cat, t) {
                        land_drawn += 1;
                    }
                }
                Node::Player(_) => {
                    let l = s.legal_actions();
                    let a = l[rng.below(l.len() as u64) as usize];
                    s.apply(&a).expect("a legal action applies");
                }
            }
        }
        assert!(
            land_drawn > SAFE_TILES,
            "the game drew {land_drawn} land tiles"
        );
        assert!(seen_after, "no source was ever an outcome");
    }
}

/// Land tiles left in the pile (neither river nor source).
fn land_left(g: &Game) -> usize {
    let cat = g.catalog();
    g.pile_in_order()
        .filter(|t| !river(cat, *t) && !is_source(cat, *t))
        .count()
}

/// A determinized pile holds no source among the safe land draws left,
/// and a source can come right after them.
#[test]
fn determinized_piles_keep_the_sources_below_the_safe_tiles() {
    for (seed, sets) in [(3, &["plague"][..]), (4, &["plague", "river2"][..])] {
        let mut g = Game::new(config(seed, sets)).expect("config");
        let cat = Catalog::builtin();
        // The drawn tile has left the pile: count it as drawn.
        let land_at_start =
            land_left(&g) + usize::from(g.drawn_tile().is_some_and(|t| !river(&cat, t)));
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        while g.phase() != Phase::Over && checked < 12 {
            let drawn = land_at_start - land_left(&g);
            if drawn < SAFE_TILES && g.phase() == Phase::Place {
                let safe_left = SAFE_TILES - drawn;
                let mut right_after = 0;
                for k in 0..200 {
                    let d = g.determinize(Seat::default(), &mut Rng::new(1000 + k));
                    let land: Vec<TileIdx> =
                        d.pile_in_order().filter(|t| !river(&cat, *t)).collect();
                    assert!(
                        land.iter().take(safe_left).all(|t| !is_source(&cat, *t)),
                        "a source among the {safe_left} safe draws left"
                    );
                    right_after +=
                        usize::from(land.get(safe_left).is_some_and(|t| is_source(&cat, *t)));
                }
                assert!(right_after > 0, "no source ever right after the safe tiles");
                checked += 1;
            }
            let l = g.legal_actions();
            let a = l[rng.below(l.len() as u64) as usize];
            g.try_apply(&a).expect("a legal action applies");
        }
        assert!(checked >= 5, "checked {checked} positions");
    }
}
