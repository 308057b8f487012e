//! The game-theory view's unit tests: chance nodes, determinization,
//! observations, the codec and the tensor.

use super::*;
use crate::game::Figure;
use crate::geometry::{Place, Rotation};

fn seat(i: usize) -> Seat {
    Seat::new(i).expect("a seat")
}
use crate::GameConfig;

fn config(sets: &[&str], seed: u64) -> GameConfig {
    GameConfig::from_sets(2, seed, sets).expect("a valid set list")
}

const COMBOS: &[&[&str]] = &[
    &["base"],
    &["winter"],
    &["base", "river1"],
    &["base", "river2"],
    &["base", "river20", "cutcassonne"],
    &["base", "river1", "river2"],
    &["base", "halfsies1", "halfsies2"],
    &["winter", "gingerbread"],
    &["base", "map-chips"],
    &["base", "plague"],
    &["base", "inns-cathedrals"],
    &[
        "winter",
        "gingerbread",
        "plague",
        "river2",
        "halfsies1",
        "map-chips",
    ],
];

/// Plays random games in every set combination, calling `check` at every
/// position.
#[test]
fn codec_numbers_moved_fleas_and_flights_compactly() {
    // Moved fleas (the supply empty) and flights are rare in a few random
    // games: play Plague games until both have been round-tripped.
    let codec = ActionCodec::default();
    let (mut moved, mut flights) = (0, 0);
    for seed in 0..200 {
        let mut g = Game::new(config(&["base", "plague"], seed)).expect("config");
        let mut rng = Rng::new(seed);
        while !g.is_finished() {
            let legal = g.legal_actions();
            for a in &legal {
                let i = codec.encode(&g, a).expect("inside the window");
                assert_eq!(codec.decode(&g, i), Some(*a));
                match a {
                    Action::Flea { from: Some(_), .. } => moved += 1,
                    Action::Flee { .. } => flights += 1,
                    _ => {}
                }
            }
            // Prefer spreading, so the supply runs out in some games.
            let a = legal
                .iter()
                .find(|a| matches!(a, Action::Flea { .. }) && rng.below(2) == 0)
                .copied()
                .unwrap_or(legal[rng.below(legal.len() as u64) as usize]);
            g.apply_legal(&a);
        }
        if moved > 0 && flights > 0 {
            break;
        }
    }
    assert!(moved > 0 && flights > 0, "moved {moved}, flights {flights}");
    // The flight segment is follower × place, not place × place.
    let g = Game::new(config(&["base", "plague"], 0)).expect("config");
    let n = codec.num_distinct_actions(&g);
    assert!(n < 10_000_000, "{n}");
}

#[test]
fn observation_tensor_shows_each_expansions_public_state() {
    let codec = ActionCodec::default();
    let ww = codec.width() * codec.width();
    let at = |t: &ObservationTensor, plane: usize, p: Pos| {
        codec.cell_index(p).map_or(0.0, |c| t.cells[plane * ww + c])
    };
    let mut seen = [0usize; 5];
    for (sets, check) in [
        (&["base", "plague"][..], 0),
        (&["winter", "gingerbread"][..], 1),
        (&["base", "inns-cathedrals"][..], 2),
        (&["base", "map-chips"][..], 3),
        (&["base", "halfsies1", "halfsies2"][..], 4),
    ] {
        let mut g = Game::new(config(sets, 5)).expect("config");
        let mut rng = Rng::new(5);
        let own = CELL_PLANES + 4 * g.player_count();
        while !g.is_finished() {
            let t = codec.observation_tensor(&g, seat(0));
            assert_eq!(codec.tensor_shape(&g), (t.planes, t.globals.len()));
            let shared = 6 + 3 * 2 + 1 + 2 * g.catalog().tiles().len();
            let tail = &t.globals[shared..];
            let pos_of = |pi: u16| g.board().pieces()[pi as usize].pos;
            match check {
                0 => {
                    let p = g.plague().expect("plague");
                    for f in p.fleas() {
                        let plane = own + usize::from(!f.is_active());
                        assert_eq!(at(&t, plane, pos_of(f.piece)), 1.0);
                        seen[0] += 1;
                    }
                    assert_eq!(tail[0], f32::from(p.supply()) / 18.0);
                }
                1 => {
                    if let Some(city) = g.gingerbread().and_then(|m| m.city()) {
                        let (pi, fi) = g.segment(city);
                        assert_eq!(at(&t, own, g.feature_anchor(pi, fi).0), 1.0);
                        seen[1] += 1;
                    }
                }
                2 => {
                    for f in g.followers().iter().filter(|f| f.figure == Figure::Big) {
                        let plane = own + f.player.index();
                        assert_eq!(at(&t, plane, g.feature_anchor(f.piece, f.feature).0), 1.0);
                        seen[2] += 1;
                    }
                    assert_eq!(tail.len(), 2);
                }
                3 => {
                    let c = g.chips().expect("chips");
                    for q in c.squares.iter().filter(|q| !q.built) {
                        assert_eq!(at(&t, own + 1, q.pos), 1.0);
                        seen[3] += 1;
                    }
                    let mine: f32 = tail[..6]
                        .iter()
                        .zip([6.0, 4.0].iter().cycle())
                        .map(|(v, k)| v * k)
                        .sum();
                    assert_eq!(mine.round() as usize, c.hands[0].len());
                }
                _ => {
                    let h = g.halves().expect("halves");
                    let kinds = g.catalog().tiles().len();
                    let mine: f32 = tail[..kinds].iter().sum::<f32>() * 2.0;
                    assert_eq!(mine.round() as usize, h.hands[0].len());
                    seen[4] += h.hands[0].len();
                }
            }
            let legal = g.legal_actions();
            let a = legal[rng.below(legal.len() as u64) as usize];
            g.apply_legal(&a);
        }
    }
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
}

#[test]
fn games_stay_within_their_size() {
    // Every index used lies below the configuration's space, and every
    // game (with its draws) is shorter than its bound.
    let codec = ActionCodec::default();
    for combo in COMBOS {
        for seed in 0..3 {
            let mut g = Game::new(config(combo, seed)).expect("config");
            let space = codec.num_distinct_actions(&g);
            let bound = max_game_length(&g);
            let mut rng = Rng::new(seed);
            let mut moves = 1; // the first draw
            while !g.is_finished() {
                for i in codec.legal_indices(&g) {
                    assert!(i < space, "{combo:?}: index {i} ≥ {space}");
                }
                let legal = g.legal_actions();
                let before = g.tiles_left();
                g.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
                moves += 1 + usize::from(g.tiles_left() < before);
            }
            assert!(moves <= bound, "{combo:?}: {moves} moves > {bound}");
        }
    }
    let base = Game::new(config(&["base"], 1)).expect("config");
    let one_slot = ActionCodec {
        radius: 30,
        slots: 1,
    };
    assert_eq!(one_slot.num_distinct_actions(&base), 14_917);
    assert!(one_slot.segments(&base).is_empty());
    // The sizes tabled in docs/python.md (one tile slot without
    // Half-and-half, three with it, as the Python package builds them).
    let size = |sets: &[&str], slots: usize| {
        let g = Game::new(config(sets, 1)).expect("config");
        ActionCodec { radius: 30, slots }.num_distinct_actions(&g)
    };
    assert_eq!(size(&["base", "inns-cathedrals"], 1), 14_949);
    assert_eq!(size(&["base", "map-chips"], 1), 15_517);
    assert_eq!(size(&["base", "halfsies1"], 3), 44_686);
    assert_eq!(size(&["winter", "gingerbread"], 1), 312_597);
    assert_eq!(size(&["base", "plague"], 1), 6_619_692);
    let most = [
        "winter",
        "gingerbread",
        "plague",
        "river2",
        "halfsies1",
        "halfsies2",
    ];
    assert_eq!(size(&most, 3), 6_947_141);
    assert_eq!(size(COMBOS[COMBOS.len() - 1], 3), 6_947_741);
}

/// Each expansion in play owns one range of indices, the ranges follow
/// the shared ones without gaps, and an index decodes to an action of
/// the expansion whose range holds it.
#[test]
fn expansion_segments_tile_the_space() {
    use crate::expansions::Family;
    let codec = ActionCodec::default();
    for combo in COMBOS {
        let g = Game::new(config(combo, 1)).expect("config");
        let segs = codec.segments(&g);
        let mut next = codec.shared_end();
        for s in &segs {
            assert_eq!(s.base, next, "{combo:?}: {segs:?}");
            assert!(g.expansions().has_family(s.family), "{combo:?}: {s:?}");
            next = s.base + s.size;
        }
        assert_eq!(next, codec.num_distinct_actions(&g), "{combo:?}");
    }
    // In a game, every index of the plague's range names a plague
    // action or nothing, never another expansion's.
    let mut g = Game::new(config(&["winter", "plague", "gingerbread"], 2)).expect("config");
    let mut rng = Rng::new(2);
    for _ in 0..40 {
        let legal = g.legal_actions();
        g.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
    }
    for s in codec.segments(&g) {
        for i in (s.base..s.base + s.size).step_by(997) {
            let Some(a) = codec.decode(&g, i) else {
                continue;
            };
            let plague = matches!(a, Action::Flea { .. } | Action::Flee { .. });
            assert_eq!(plague, s.family == Family::Plague, "{i}: {a:?} in {s:?}");
        }
    }
}

fn each_position(games: u64, mut check: impl FnMut(&Game, &mut Rng)) {
    for combo in COMBOS {
        for seed in 0..games {
            let mut g = Game::new(config(combo, seed)).expect("config");
            let mut rng = Rng::new(seed * 31 + 7);
            while !g.is_finished() {
                check(&g, &mut rng);
                let legal = g.legal_actions();
                let a = legal[rng.below(legal.len() as u64) as usize];
                g.apply_legal(&a);
            }
            check(&g, &mut rng);
        }
    }
}

#[test]
fn chance_probabilities_sum_to_one() {
    each_position(3, |g, _| {
        let o = g.chance_outcomes();
        if g.tiles_left() == 0 {
            assert!(o.is_empty());
        } else {
            let s: f64 = o.iter().map(|x| x.1).sum();
            assert!((s - 1.0).abs() < 1e-9, "{s}");
            assert!(o.iter().all(|x| x.1 > 0.0));
        }
    });
}

#[test]
fn the_next_draw_follows_the_outcomes_part_of_the_pile() {
    // The next tile the real pile gives is always a possible outcome.
    each_position(3, |g, _| {
        if let Some(next) = g.pile_in_order().next() {
            assert!(g.chance_outcomes().iter().any(|o| o.0 == next));
        }
    });
}

#[test]
fn a_fixed_outcome_is_the_next_draw() {
    each_position(2, |g, rng| {
        if g.phase() != Phase::Follower || g.tiles_left() == 0 {
            return;
        }
        let o = g.chance_outcomes();
        let (t, _) = o[rng.below(o.len() as u64) as usize];
        let mut h = g.with_next_draw(t).expect("outcome");
        assert_eq!(h.pile_in_order().next(), Some(t));
        let events = h.events().len();
        h.apply_legal(&Action::Pass);
        // A plague or gingerbread step may come before the draw.
        if h.phase() != Phase::Place {
            return;
        }
        let discarded = h.events()[events..]
            .iter()
            .any(|e| e.tile == Some(t) && e.reason == crate::scoring::Reason::Discarded);
        // With half tiles a tile that fits nowhere waits (skipped) instead.
        assert!(h.drawn_tile() == Some(t) || discarded || h.ext.skipped.contains(&t));
    });
}

#[test]
fn state_chance_nodes_draw_the_chosen_tile() {
    for combo in COMBOS {
        for seed in 0..3 {
            let mut s = State::new(config(combo, seed)).expect("config");
            let mut rng = Rng::new(seed);
            let mut turns = 0;
            while s.node() != Node::Terminal {
                match s.node() {
                    Node::Chance => {
                        let o = s.chance_outcomes();
                        let total: f64 = o.iter().map(|x| x.1).sum();
                        assert!((total - 1.0).abs() < 1e-9);
                        let (outcome, _) = o[rng.below(o.len() as u64) as usize];
                        let left = s.game().tiles_left();
                        s.apply_chance(outcome).expect("outcome");
                        // A chip owed leaves the pile as it was.
                        let Outcome::Tile(t) = outcome else {
                            assert_eq!(s.game().tiles_left(), left);
                            continue;
                        };
                        // A half dealt leaves the pile as it was.
                        let half = s.game().catalog().tile(t).shape == crate::Shape::Half;
                        assert_eq!(s.game().tiles_left() + usize::from(!half), left);
                        if half {
                            continue;
                        }
                        // Drawn if it fits; else discarded (or held) and
                        // chance acts again, or play goes on without it.
                        if s.game().drawn_tile() == Some(t) {
                            assert!(!s.legal_actions().is_empty());
                            turns += 1;
                        } else {
                            assert!(
                                s.is_chance() || s.game().drawn_tile().is_none(),
                                "an outcome that fits nowhere is not drawn"
                            );
                        }
                    }
                    Node::Player(_) => {
                        let l = s.legal_actions();
                        s.apply(&l[rng.below(l.len() as u64) as usize])
                            .expect("legal");
                    }
                    Node::Terminal => {}
                }
            }
            assert!(turns > 10);
            let r = s.returns();
            assert!(r.iter().sum::<f64>().abs() < 1e-9);
        }
    }
}

#[test]
fn determinize_keeps_public_state_and_permutes_the_pile() {
    each_position(2, |g, rng| {
        let p = seat(rng.below(2) as usize);
        let d = g.determinize(p, rng);
        assert_eq!(d.observation(p), g.observation(p));
        // The other seat's public view is the same; its own hidden items
        // (halves, chips) are a sample, so its expansions' part is
        // compared as a spectator sees it.
        let public = |mut o: Observation| {
            o.expansion_state.clear();
            o
        };
        assert_eq!(
            public(d.observation(seat(1 - p.index()))),
            public(g.observation(seat(1 - p.index())))
        );
        assert_eq!(
            d.state_json_as(Viewer::Spectator).expansions,
            g.state_json_as(Viewer::Spectator).expansions
        );
        let mut a: Vec<TileIdx> = g.pile_in_order().collect();
        let mut b: Vec<TileIdx> = d.pile_in_order().collect();
        // The sample depends only on what the player knows: the same
        // generator state gives the same pile from a reordered game.
        let mut shuffled = g.clone();
        shuffled.pile.reverse();
        let mut r1 = rng.clone();
        let mut r2 = rng.clone();
        assert_eq!(
            g.determinize(p, &mut r1).pile,
            shuffled.determinize(p, &mut r2).pile
        );
        assert_eq!(d.config().seed, 0);
        assert!(d.config().deck.is_none());
        // The next draw is still a possible outcome (parts respected).
        if let Some(next) = b.first() {
            assert!(g.chance_outcomes().iter().any(|o| o.0 == *next));
        }
        a.sort();
        b.sort();
        if g.visible_drawn_tile() == g.drawn_tile() {
            assert_eq!(a, b);
        }
        // A pending Half-and-half draw is resampled with the pile: the
        // tiles not yet seen are the same, whatever their order.
        assert_eq!(g.remaining_tiles(), d.remaining_tiles());
        if g.current_player() == p {
            assert_eq!(d.legal_actions(), g.legal_actions());
        }
    });
}

#[test]
fn determinize_really_resamples() {
    let g = Game::new(config(&["base"], 3)).expect("config");
    let mut rng = Rng::new(1);
    let d1 = g.determinize(seat(0), &mut rng);
    let d2 = g.determinize(seat(0), &mut rng);
    let p0: Vec<_> = g.pile_in_order().collect();
    let p1: Vec<_> = d1.pile_in_order().collect();
    let p2: Vec<_> = d2.pile_in_order().collect();
    assert_ne!(p0, p1);
    assert_ne!(p1, p2);
}

#[test]
fn codec_round_trips_every_legal_action() {
    let codec = ActionCodec::default();
    each_position(3, |g, _| {
        let legal = g.legal_actions();
        let mut seen = std::collections::HashSet::new();
        for a in &legal {
            let i = codec
                .encode(g, a)
                .unwrap_or_else(|| panic!("{a:?} is outside the window"));
            assert!(i < codec.num_distinct_actions(g));
            assert!(seen.insert(i), "two actions share index {i}");
            assert_eq!(codec.decode(g, i), Some(*a));
        }
        assert_eq!(codec.legal_indices(g).len(), legal.len());
    });
}

/// The tensor holds only what its seat may know: a determinization
/// for that seat (pile reshuffled, other hands and a pending
/// Half-and-half draw dealt again) leaves it unchanged, at every
/// position of every combination.
/// A codec with a small window (radius 8), enough for the tensor tests.
fn small_codec() -> ActionCodec {
    ActionCodec {
        radius: 8,
        slots: 3,
    }
}

#[test]
fn observation_globals_are_the_tensors_globals() {
    let codec = small_codec();
    each_position(1, |g, _| {
        for p in g.seats() {
            let t = codec.observation_tensor(g, p);
            assert_eq!(codec.observation_globals(g, p), t.globals);
        }
    });
}

#[test]
fn a_tensor_written_into_a_buffer_is_the_same_tensor() {
    let codec = small_codec();
    each_position(2, |g, _| {
        let mut cells = vec![0f32; codec.tensor_cells(g)];
        let globals = codec.observation_tensor_into(g, seat(1), &mut cells);
        let t = codec.observation_tensor(g, seat(1));
        assert_eq!(globals.as_ref(), Some(&t.globals));
        assert_eq!(cells, t.cells);
        let state = State::from_game(g.clone());
        let mut cells = vec![0f32; codec.tensor_cells(g)];
        let globals = codec.state_tensor_into(&state, seat(0), &mut cells);
        let t = codec.state_tensor(&state, seat(0));
        assert_eq!((globals, cells), (Some(t.globals), t.cells));
        // A buffer of the wrong size is refused, untouched.
        let mut short = vec![0f32; codec.tensor_cells(g) - 1];
        assert_eq!(codec.observation_tensor_into(g, seat(0), &mut short), None);
        assert!(short.iter().all(|&v| v == 0.0));
    });
}

#[test]
fn observation_tensor_depends_only_on_what_the_seat_knows() {
    let codec = ActionCodec::default();
    each_position(2, |g, rng| {
        for p in g.seats() {
            let d = g.determinize(p, rng);
            assert_eq!(
                codec.observation_tensor(g, p),
                codec.observation_tensor(&d, p),
                "seat {p} sees a difference after determinization"
            );
        }
    });
}

#[test]
fn observation_tensor_has_the_documented_shape() {
    let codec = ActionCodec::default();
    let g = Game::new(config(&["base"], 1)).expect("config");
    let t = codec.observation_tensor(&g, seat(0));
    assert_eq!(t.planes, CELL_PLANES + 8);
    assert_eq!(t.cells.len(), t.planes * 61 * 61);
    let kinds = g.catalog().tiles().len();
    assert_eq!(t.globals.len(), 6 + 3 * 2 + 1 + 2 * kinds);
    assert_eq!(codec.tensor_shape(&g), (t.planes, t.globals.len()));
    assert!(t
        .cells
        .iter()
        .chain(&t.globals)
        .all(|v| (0.0..=1.0).contains(v)));
    // The start tile is at the window's centre.
    let c = codec.cell_index(Pos::new(0, 0)).expect("centre");
    assert_eq!(t.cells[c], 1.0);
}

#[test]
fn win_returns_are_zero_sum() {
    assert_eq!(win_returns(&[10, 5]), vec![1.0, -1.0]);
    assert_eq!(win_returns(&[7, 7]), vec![0.0, 0.0]);
    let r = win_returns(&[3, 9, 9]);
    assert!(r.iter().sum::<f64>().abs() < 1e-12);
    assert!(r[1] > 0.0 && r[0] < 0.0);
}

/// With explicit chance the seed chooses nothing: `river_shuffle_all`
/// (whose seeded games start on the first river tile shuffled up) starts
/// every explicit-chance game on one tile, with one set of outcomes.
#[test]
fn river_shuffle_all_start_tile_ignores_the_seed_with_explicit_chance() {
    let shuffled = |seed: u64| {
        let mut c = config(&["base", "river1", "river2"], seed);
        c.options
            .insert("river_shuffle_all".into(), serde_json::Value::Bool(true));
        c
    };
    let starts: Vec<TileIdx> = (0..8)
        .map(|seed| {
            let s = State::new(shuffled(seed)).expect("config");
            let first = s.game().board().pieces()[0].tile;
            assert_eq!(
                s.chance_outcomes(),
                State::new(shuffled(0)).expect("config").chance_outcomes(),
                "seed {seed}"
            );
            first
        })
        .collect();
    assert!(starts.iter().all(|t| *t == starts[0]), "{starts:?}");
    // The seeded games do start on different tiles: the test can fail.
    let seeded: std::collections::BTreeSet<TileIdx> = (0..8)
        .map(|seed| Game::new(shuffled(seed)).expect("config").board().pieces()[0].tile)
        .collect();
    assert!(seeded.len() > 1, "{seeded:?}");
}

/// An inner place (I1, I2: a whole tile's field that touches no side)
/// takes the code of the long side's H1, H, which a whole tile lacks: a
/// follower there has an index of its own, and the action space keeps
/// its size.
#[test]
fn codec_gives_inner_places_the_long_sides_codes_on_a_whole_tile() {
    use crate::codec::{place_code, place_of_code};
    for p in Place::ALL {
        let half = p.is_long_side();
        assert_eq!(place_of_code(place_code(p), half), p, "{p}");
    }
    assert_eq!(place_code(Place::I1), place_code(Place::H1));
    assert_eq!(place_code(Place::I2), place_code(Place::H));

    let mut c = config(&["base", "traders-builders"], 1);
    c.deck = Some(vec!["traders-builders/C".to_string()]);
    c.deck_only = true;
    let mut g = Game::new(c).expect("config");
    let codec = ActionCodec::default();
    let size = codec.num_distinct_actions(&g);
    g.try_apply(&Action::Place {
        tile: g.drawn_tile().expect("a drawn tile"),
        pos: Pos::new(0, -1),
        rot: Rotation::default(),
    })
    .expect("C fits on the start tile's city");
    let inner = Action::Follower {
        pos: Pos::new(0, -1),
        corner: None,
        place: Place::I1,
        figure: Figure::Normal,
    };
    assert!(g.legal_actions().contains(&inner));
    let i = codec.encode(&g, &inner).expect("an index");
    assert_eq!(i, FOLLOWER_BASE + place_code(Place::H1));
    assert_eq!(codec.decode(&g, i), Some(inner));
    assert_eq!(codec.num_distinct_actions(&g), size);

    // Through the magic portal, onto another tile's inner field: a place
    // code (tile code·16 + 13) in the expansion's segment.
    let mut c = config(&["base", "princess-dragon"], 1);
    c.deck = Some(vec!["princess-dragon/Y".into(), "princess-dragon/S".into()]);
    c.deck_only = true;
    let mut g = Game::new(c).expect("config");
    let place = |g: &mut Game, pos: Pos| {
        let tile = g.drawn_tile().expect("a drawn tile");
        g.try_apply(&Action::Place {
            tile,
            pos,
            rot: Rotation::default(),
        })
        .expect("Y on the city, S on the road");
    };
    place(&mut g, Pos::new(0, -1));
    g.try_apply(&Action::Pass).expect("no follower on Y");
    place(&mut g, Pos::new(1, 0));
    let portal = Action::Follower {
        pos: Pos::new(0, -1),
        corner: None,
        place: Place::I1,
        figure: Figure::Normal,
    };
    assert!(g.legal_actions().contains(&portal));
    let i = codec.encode(&g, &portal).expect("an index");
    assert!(i >= codec.shared_end(), "{i}: the portal's segment");
    assert_eq!(codec.decode(&g, i), Some(portal));
}
