//! Property tests over many seeded random games: no panic, followers
//! conserved, scores never fall, replays reproduce the game, and
//! `legal_actions` and `try_apply` agree.

use std::collections::HashSet;

use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Figure, Game, GameConfig, Phase, Pos, Rotation, Seat, Viewer};
use proptest::prelude::*;

fn seat(i: usize) -> Seat {
    Seat::new(i).expect("a seat")
}

fn config(players: usize, seed: u64, base: &str) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.base = base.to_string();
    c
}

/// Plays a random game, checking invariants after every action; returns the
/// game and its record.
fn play_checked(players: usize, seed: u64, base: &str) -> (Game, Record) {
    play_config(config(players, seed, base))
}

fn play_config(cfg: GameConfig) -> (Game, Record) {
    let players = cfg.players.len();
    let seed = cfg.seed;
    let mut game = Game::new(cfg.clone()).expect("valid config");
    let mut rec = Record::new(cfg);
    let mut rng = Rng::new(seed ^ 0x5EED);
    let per_player = game.options().followers as usize;
    let mut last_scores = game.scores();
    let mut steps = 0;
    while !game.is_finished() {
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "a running game always has an action");
        let a = legal[rng.below(legal.len() as u64) as usize];
        rec.actions
            .push(ActionJson::from_action(&a, game.catalog()));
        game.try_apply(&a).expect("a listed action is accepted");
        // Followers are conserved: in supply or on the board (the large
        // follower of Inns & Cathedrals in its own supply).
        for seat in game.seats() {
            let on_board = |figure: Figure| {
                game.followers()
                    .iter()
                    .filter(|f| f.player == seat && f.figure == figure)
                    .count()
            };
            assert_eq!(
                on_board(Figure::Normal) + game.players()[seat.index()].supply as usize,
                per_player,
                "seat {seat} lost or gained a follower (seed {seed})"
            );
            let big_in_supply = game.big_followers().map(|b| b.in_supply(seat) as usize);
            assert_eq!(
                on_board(Figure::Big) + big_in_supply.unwrap_or(0),
                usize::from(big_in_supply.is_some()),
                "seat {seat} lost or gained a large follower (seed {seed})"
            );
        }
        // Scores never decrease.
        let s = game.scores();
        for (a, b) in last_scores.iter().zip(&s) {
            assert!(b >= a, "a score went down (seed {seed})");
        }
        // Scores are the sum of the events.
        let mut sums = vec![0u32; players];
        for e in game.events() {
            for (seat, p) in sums.iter_mut().enumerate() {
                *p += e.points[seat];
            }
        }
        assert_eq!(
            sums, s,
            "scores differ from the sum of events (seed {seed})"
        );
        last_scores = s;
        steps += 1;
        assert!(steps < 10_000, "game does not end (seed {seed})");
    }
    (game, rec)
}

#[test]
fn thousands_of_random_games_keep_every_invariant() {
    for seed in 0..2000u64 {
        let players = 2 + (seed % 5) as usize;
        let base = if seed % 3 == 0 { "winter" } else { "base" };
        let (game, _) = play_checked(players, seed, base);
        assert!(game.is_finished());
        assert_eq!(game.phase(), Phase::Over);
        // Every tile was placed or discarded.
        let discarded = game.events().iter().filter(|e| e.tile.is_some()).count();
        let total = if base == "winter" { 84 } else { 72 };
        assert_eq!(
            game.board().pieces().len() + discarded,
            total,
            "seed {seed}"
        );
    }
}

#[test]
fn replaying_a_record_reproduces_the_final_state() {
    for seed in 0..300u64 {
        let players = 2 + (seed % 5) as usize;
        let (game, rec) = play_checked(players, seed, "base");
        let text = rec.to_json();
        let again = Record::parse(&text).expect("own record parses");
        assert_eq!(again, rec);
        let replayed = again.replay().expect("own record replays");
        assert!(replayed == game, "replay differs (seed {seed})");
        assert_eq!(replayed.state_json(), game.state_json());
    }
}

/// Every listed action is accepted, and every action that is accepted is
/// listed: checked on candidate placements around the board and on every
/// place name for followers.
#[test]
fn legal_actions_and_try_apply_agree() {
    for seed in 0..140u64 {
        let mut cfg = config(2 + (seed % 3) as usize, seed, "base");
        if seed >= 120 {
            cfg.map = Some("ukraine".into());
            cfg.expansions = vec!["map-chips".into()];
        } else if seed >= 90 {
            cfg.expansions = vec!["halfsies1".into(), "halfsies2".into()];
            if seed % 2 == 0 {
                cfg.options.insert("draft".into(), true.into());
            }
        } else if seed >= 60 {
            cfg.expansions = RIVER_COMBOS[seed as usize % RIVER_COMBOS.len()]
                .iter()
                .map(|s| s.to_string())
                .collect();
        }
        let mut game = Game::new(cfg).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_finished() {
            let legal = game.legal_actions();
            let listed: HashSet<Action> = legal.iter().copied().collect();
            for a in &legal {
                let mut g = game.clone();
                assert!(g.try_apply(a).is_ok(), "listed but rejected: {a:?}");
            }
            for cand in candidates(&game) {
                let mut g = game.clone();
                let ok = g.try_apply(&cand).is_ok();
                if !ok {
                    assert!(!listed.contains(&cand), "listed but rejected: {cand:?}");
                    assert!(g == game, "a rejected action changed the state");
                } else if !listed.contains(&cand) {
                    // A follower may name its feature by any of its places;
                    // the list names each feature once. The result must equal
                    // that of a listed action. A placement of the unseen tile
                    // while `draw` is listed implies the draw (older records):
                    // it must equal `draw` followed by that placement.
                    let same = legal.iter().any(|l| {
                        let mut h = game.clone();
                        if h.try_apply(l).is_err() {
                            return false;
                        }
                        if *l == Action::Draw && matches!(cand, Action::Place { .. }) {
                            // The implied draw: `draw`, then the placement.
                            if h.try_apply(&cand).is_err() {
                                return false;
                            }
                        }
                        h == g
                    });
                    assert!(
                        same,
                        "accepted but not listed, and unlike any listed action: {cand:?} (seed {seed})"
                    );
                }
            }
            let a = legal[rng.below(legal.len() as u64) as usize];
            game.try_apply(&a).unwrap();
        }
    }
}

fn candidates(game: &Game) -> Vec<Action> {
    let pieces = game.board().pieces();
    let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
    for p in pieces {
        x0 = x0.min(p.pos.x);
        x1 = x1.max(p.pos.x);
        y0 = y0.min(p.pos.y);
        y1 = y1.max(p.pos.y);
    }
    let mut v = vec![Action::Pass];
    let mut tiles: Vec<_> = game.drawn_tile().into_iter().collect();
    if let Some(h) = game.halves() {
        tiles.extend(h.hands[game.current_player().index()].iter().copied());
    }
    for tile in tiles {
        for y in y0 - 1..=y1 + 1 {
            for x in x0 - 1..=x1 + 1 {
                for rot in Rotation::ALL {
                    v.push(Action::Place {
                        tile,
                        pos: Pos::new(x, y),
                        rot,
                    });
                }
            }
        }
    }
    if let Some(chips) = game.chips() {
        for sq in &chips.squares {
            for colour in bastide_engine::expansions::map_chips::Colour::ALL {
                for ones in 0..3 {
                    for twos in 0..3 {
                        v.push(Action::Trade {
                            pos: sq.pos,
                            colour,
                            ones,
                            twos,
                        });
                    }
                }
            }
        }
    }
    if let Some(last) = pieces.last() {
        for place in bastide_engine::Place::ALL {
            for corner in [None, last.corner] {
                v.push(Action::Follower {
                    pos: last.pos,
                    corner,
                    place,
                    figure: Figure::Normal,
                });
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Arbitrary actions thrown at a game in progress never panic and never
    /// change the state when rejected.
    #[test]
    fn arbitrary_actions_never_panic(seed in 0u64..1000, steps in 0usize..120, x in -8i32..8, y in -8i32..8, r in 0u8..4, p in 0usize..16, kind in 0u8..3) {
        let mut game = Game::new(config(2, seed, "base")).unwrap();
        let mut rng = Rng::new(seed);
        for _ in 0..steps {
            let legal = game.legal_actions();
            if legal.is_empty() { break; }
            game.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
        }
        let tile = game.drawn_tile().unwrap_or(bastide_engine::TileIdx(0));
        let a = match kind {
            0 => Action::Place { tile, pos: Pos::new(x, y), rot: Rotation::from_quarters(r) },
            1 => Action::Follower { pos: Pos::new(x, y), corner: None, place: bastide_engine::Place::ALL[p], figure: Figure::Normal },
            _ => Action::Pass,
        };
        let before = game.clone();
        let legal = game.legal_actions();
        match game.try_apply(&a) {
            // A follower may name its feature by any of its places, and
            // `legal` lists each feature once: an accepted action must do
            // what one of the listed actions does.
            Ok(()) => {
                let same_as_listed = legal.contains(&a) || legal.iter().any(|l| {
                    let mut g = before.clone();
                    g.try_apply(l).is_ok() && g == game
                });
                prop_assert!(same_as_listed, "{:?} accepted but unlike any legal action", a);
            }
            Err(e) => {
                prop_assert!(game == before);
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

const RIVER_COMBOS: &[&[&str]] = &[
    &["river1"],
    &["river2"],
    &["river1", "river2"],
    &["river20"],
    &["river1", "cutcassonne"],
    &["river2", "cutcassonne"],
    &["river20", "cutcassonne"],
];

#[test]
fn river_games_finish_with_the_river_first() {
    for (ci, combo) in RIVER_COMBOS.iter().enumerate() {
        for seed in 0..150u64 {
            let mut cfg = config(2 + (seed % 4) as usize, seed * 7 + ci as u64, "base");
            cfg.expansions = combo.iter().map(|s| s.to_string()).collect();
            let (game, rec) = play_config(cfg);
            assert!(game.is_finished());
            let cat = game.catalog();
            let is_river = |id: &str| {
                let t = cat.tile(cat.find(id).unwrap());
                t.features
                    .iter()
                    .any(|f| f.kind == bastide_engine::FeatureKind::River)
            };
            let placed: Vec<&str> = rec
                .actions
                .iter()
                .filter_map(|a| match a {
                    ActionJson::Place { tile, .. } => Some(tile.as_str()),
                    _ => None,
                })
                .collect();
            let first_normal = placed
                .iter()
                .position(|t| !is_river(t))
                .unwrap_or(placed.len());
            assert!(
                placed[first_normal..].iter().all(|t| !is_river(t)),
                "a river tile came after a normal tile ({combo:?}, seed {seed})"
            );
            // Replays reproduce river games too.
            assert!(rec.replay().unwrap() == game);
        }
    }
}

#[test]
fn gingerbread_games_keep_him_in_an_unfinished_city_or_aside() {
    for seed in 0..300u64 {
        let mut cfg = config(2 + (seed % 5) as usize, seed, "winter");
        cfg.expansions = vec!["gingerbread".into()];
        if seed % 4 == 0 {
            cfg.expansions.push("river2".into());
        }
        if seed % 7 == 0 {
            cfg.options
                .insert("gingerbread_misprint".into(), true.into());
        }
        let (game, rec) = play_config(cfg.clone());
        assert!(game.is_finished());
        assert!(rec.replay().unwrap() == game);
        // Walk the game again and look at every turn boundary.
        let mut g = Game::new(cfg).unwrap();
        for a in &rec.actions {
            let action = a.to_action(g.catalog()).unwrap();
            g.try_apply(&action).unwrap();
            if g.phase() == Phase::Place {
                let him = g.gingerbread().expect("in play");
                if let Some(city) = him.city() {
                    assert!(
                        !g.feature(city).is_complete(),
                        "he stands in a finished city (seed {seed})"
                    );
                    assert_eq!(g.feature(city).kind(), bastide_engine::FeatureKind::City);
                }
            }
        }
        // Each gingerbread score pays every knight 1 point a tile.
        for e in g.events() {
            if e.reason == bastide_engine::Reason::Gingerbread {
                for seat in 0..g.player_count() {
                    assert_eq!(e.points[seat], e.followers[seat] as u32 * e.tiles);
                }
            }
        }
    }
}

#[test]
fn half_tile_games_keep_every_invariant() {
    for seed in 0..300u64 {
        let players = 2 + (seed % 5) as usize;
        let mut cfg = config(players, seed, if seed % 2 == 0 { "base" } else { "winter" });
        cfg.expansions = vec!["halfsies1".into(), "halfsies2".into()];
        if seed % 3 == 0 {
            cfg.options.insert("draft".into(), true.into());
        }
        if seed % 5 == 0 {
            cfg.options.insert("halfsies_scoring".into(), "2014".into());
        }
        if seed % 7 == 0 {
            cfg.expansions.push("river1".into());
        }
        let (game, rec) = play_config(cfg);
        assert!(game.is_finished());
        assert!(
            rec.replay().unwrap() == game,
            "replay differs (seed {seed})"
        );
        // Every half is on the board or still in a hand (lost at the end).
        let h = game.halves().unwrap();
        let on_board = game
            .board()
            .pieces()
            .iter()
            .filter(|p| p.corner.is_some())
            .count();
        let in_hands: usize = h.hands.iter().map(Vec::len).sum();
        assert_eq!(on_board + in_hands, 2 * players, "seed {seed}");
        // A cell holds at most two halves, on opposite corners.
        for p in game.board().pieces().iter().filter(|p| p.corner.is_some()) {
            let here: Vec<_> = game.board().pieces_at(p.pos).collect();
            assert!(here.len() <= 2);
            if here.len() == 2 {
                let a = game.board().pieces()[here[0].0 as usize].corner.unwrap();
                let b = game.board().pieces()[here[1].0 as usize].corner.unwrap();
                assert_eq!(a.opposite(), b);
            }
        }
    }
}

#[test]
fn map_chip_games_conserve_the_30_chips() {
    let combos: &[&[&str]] = &[
        &["map-chips"],
        &["map-chips", "river2"],
        &["map-chips", "halfsies1"],
        &["map-chips", "river20", "cutcassonne", "halfsies2"],
    ];
    for seed in 0..200u64 {
        let players = 2 + (seed % 5) as usize;
        let mut cfg = config(players, seed, "base");
        cfg.map = Some("ukraine".into());
        cfg.expansions = combos[seed as usize % combos.len()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if seed % 3 == 0 {
            cfg.options
                .insert("start_spaces".into(), serde_json::json!([3, 1]));
        }
        let (game, rec) = play_config(cfg.clone());
        assert!(game.is_finished());
        assert!(
            rec.replay().unwrap() == game,
            "replay differs (seed {seed})"
        );
        let mut g = Game::new(cfg).unwrap();
        for a in &rec.actions {
            g.try_apply(&a.to_action(g.catalog()).unwrap()).unwrap();
            let c = g.chips().unwrap();
            let on_squares: usize = c
                .squares
                .iter()
                .map(|s| s.spaces.iter().map(|sp| sp.len()).sum::<usize>())
                .sum();
            let in_hands: usize = c.hands.iter().map(Vec::len).sum();
            assert_eq!(c.supply.len() + in_hands + on_squares, 30, "seed {seed}");
            assert!(c.squares.iter().all(|s| s.spaces.len() <= 4));
            assert!(c.squares.iter().all(|s| !s.built || s.spaces.is_empty()));
        }
        // Every tile lies on a map square.
        let map = bastide_engine::MapDef::builtin("ukraine").unwrap();
        for p in g.board().pieces() {
            assert!(
                map.bounds.contains(p.pos),
                "off the map at {} (seed {seed})",
                p.pos
            );
        }
    }
}

#[test]
fn a_players_view_hides_the_pile_order_and_the_others_hands() {
    let mut cfg = config(3, 11, "base");
    cfg.map = Some("ukraine".into());
    cfg.expansions = vec!["map-chips".into(), "halfsies1".into()];
    let (_, rec) = play_config(cfg.clone());
    let mut g = Game::new(cfg).unwrap();
    for a in rec.actions.iter().take(60) {
        g.try_apply(&a.to_action(g.catalog()).unwrap()).unwrap();
    }
    let view = g.view_json(seat(1));
    let text = view.to_string();
    // Others' halves and chips are counts only; one's own are listed.
    assert!(view["hands"][0].get("hidden").is_some());
    assert!(view["hands"][1].is_array());
    assert!(view["chips"]["hands"][2].get("hidden").is_some());
    assert!(view["chips"]["hands"][1].is_array());
    // The remaining tiles are a multiset with the right total, in id order.
    let total: u64 = view["remaining"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total as usize, g.tiles_left());
    assert!(!text.contains("pile"));
    // Two games that differ only in the order of the remaining pile look the
    // same to the player.
    let mut other = g.clone();
    let order: Vec<_> = g.pile_in_order().collect();
    assert!(order.len() > 2);
    other.shuffle_pile_for_tests(7);
    assert_ne!(other.pile_in_order().collect::<Vec<_>>(), order);
    assert_eq!(other.view_json(seat(1)), view);
    // A spectator sees every hand as a count, and no seat; the same
    // policy otherwise (one view differs from a seat's only in hands).
    let watch = g.view(Viewer::Spectator);
    for seat in 0..3 {
        assert!(watch["hands"][seat].get("hidden").is_some());
        assert!(watch["chips"]["hands"][seat].get("hidden").is_some());
    }
    assert!(watch["seat"].is_null());
    assert_eq!(watch["hands"][0], view["hands"][0]);
    assert_eq!(watch["remaining"], view["remaining"]);
    assert_eq!(watch["board"], view["board"]);
    assert!(Viewer::Seat(seat(1)).sees_hand_of(seat(1)));
    assert!(!Viewer::Seat(seat(1)).sees_hand_of(seat(0)));
    assert!(!Viewer::Spectator.sees_hand_of(seat(0)));
    // The referee (the full state, `bastide replay`) lists every hand, and
    // the full state is exactly the referee's view of it.
    let all = serde_json::to_value(g.state_json_as(Viewer::Referee)).unwrap();
    assert_eq!(all, serde_json::to_value(g.state_json()).unwrap());
    for seat in 0..3 {
        assert!(all["hands"][seat].is_array());
        assert!(all["chips"]["hands"][seat].is_array());
        let n = all["hands"][seat].as_array().unwrap().len();
        assert_eq!(watch["hands"][seat]["hidden"], n);
    }
    assert_eq!(all["hands"][1], view["hands"][1]);
    assert!(all.get("seat").is_none() && all.get("remaining").is_none());
}

#[test]
fn every_expansion_together_keeps_every_invariant() {
    let combos: &[(&str, &[&str])] = &[
        ("base", &["plague", "halfsies1", "halfsies2"]),
        ("winter", &["plague", "gingerbread"]),
        ("base", &["plague", "map-chips"]),
        (
            "winter",
            &["plague", "gingerbread", "river2", "halfsies1", "map-chips"],
        ),
        ("base", &["plague", "river20", "cutcassonne", "halfsies2"]),
        ("base", &["inns-cathedrals"]),
        (
            "base",
            &["inns-cathedrals", "river2", "plague", "halfsies1"],
        ),
        (
            "winter",
            &["inns-cathedrals", "gingerbread", "map-chips", "river1"],
        ),
        ("base", &["traders-builders"]),
        (
            "winter",
            &[
                "traders-builders",
                "inns-cathedrals",
                "gingerbread",
                "plague",
                "river2",
                "halfsies1",
            ],
        ),
        ("base", &["traders-builders", "map-chips", "river20"]),
        ("base", &["princess-dragon"]),
        (
            "winter",
            &[
                "princess-dragon",
                "traders-builders",
                "inns-cathedrals",
                "gingerbread",
                "plague",
                "river2",
                "halfsies1",
            ],
        ),
        ("base", &["princess-dragon", "map-chips", "river20"]),
    ];
    for seed in 0..160u64 {
        let (base, exps) = combos[seed as usize % combos.len()];
        let mut cfg = config(2 + (seed % 5) as usize, seed, base);
        cfg.expansions = exps.iter().map(|s| s.to_string()).collect();
        if cfg.expansions.iter().any(|e| e == "map-chips") {
            cfg.map = Some("ukraine".into());
        }
        let (game, rec) = play_config(cfg);
        assert!(game.is_finished(), "seed {seed}");
        assert!(
            rec.replay().unwrap() == game,
            "replay differs (seed {seed})"
        );
    }
}

/// Tree search copies positions into one reused scratch game with
/// `clone_from` (the expansions' state field by field): the copy must be
/// the position itself, whatever the scratch game held before, and play on
/// exactly as a fresh clone does.
#[test]
fn clone_from_into_a_used_game_is_a_clone() {
    let combos: &[(&str, &[&str])] = &[
        ("base", &["plague"]),
        ("winter", &["plague", "gingerbread", "river2", "halfsies1"]),
        ("base", &["map-chips", "inns-cathedrals"]),
        ("base", &["traders-builders", "plague"]),
    ];
    for (i, (base, sets)) in combos.iter().enumerate() {
        let mut cfg = config(2, 40 + i as u64, base);
        cfg.expansions = sets.iter().map(|s| s.to_string()).collect();
        if sets.contains(&"map-chips") {
            cfg.map = Some("ukraine".into());
        }
        let mut g = Game::new(cfg.clone()).unwrap();
        // The scratch game starts as another deal, then always holds the
        // previous position copied into it.
        let mut other = cfg.clone();
        other.seed += 100;
        let mut scratch = Game::new(other).unwrap();
        let mut rng = Rng::new(7 + i as u64);
        let mut copies = 0;
        while !g.is_finished() {
            scratch.clone_from(&g);
            let fresh = g.clone();
            assert!(scratch == fresh, "{base}+{sets:?}: a copy differs");
            assert_eq!(scratch.legal_actions(), fresh.legal_actions());
            // A short playout from both copies takes the same actions.
            let (mut a, mut b) = (scratch.clone(), fresh);
            let (mut ra, mut rb) = (Rng::new(copies), Rng::new(copies));
            for _ in 0..6 {
                if a.is_finished() {
                    break;
                }
                let la = a.legal_actions();
                assert_eq!(la, b.legal_actions());
                let k = ra.below(la.len() as u64) as usize;
                assert_eq!(k, rb.below(la.len() as u64) as usize);
                a.try_apply(&la[k]).unwrap();
                b.try_apply(&la[k]).unwrap();
            }
            assert!(a == b);
            copies += 1;
            let legal = g.legal_actions();
            let act = legal[rng.below(legal.len() as u64) as usize];
            g.try_apply(&act).unwrap();
        }
        assert!(copies > 50, "{base}+{sets:?}: only {copies} positions");
    }
}

/// A game hands out only its own seats: `Game::seat` refuses a number past
/// the last player, and `Game::seats` lists each seat once, in order.
#[test]
fn a_game_has_exactly_its_players_seats() {
    let g = Game::new(GameConfig::new(3, 1)).expect("valid config");
    assert_eq!(g.seat(2), Some(seat(2)));
    assert_eq!(g.seat(3), None);
    assert_eq!(g.seat(usize::MAX), None);
    let all: Vec<Seat> = g.seats().collect();
    assert_eq!(all, vec![seat(0), seat(1), seat(2)]);
    assert_eq!(g.current_player(), seat(0));
}
