//! Property tests of Abbey & Mayor's twelve land tiles, mayors and wagons
//! over many seeded random games, alone and with the other sets: every
//! listed action is accepted and every follower, mayor, wagon and wagon
//! move candidate that is accepted is listed (a refused one changes
//! nothing), followers are conserved (each mayor and wagon is on the board
//! or in its supply, never both), every legal action has its codec index,
//! and replays are identical; mayors are placed and wagons move. A catalog test
//! checks the shapes the rules file's table gives.

use std::collections::HashSet;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, FeatureAt, Figure, Game, GameConfig, Phase, Place, Pos};
use bastide_engine::{Catalog, FeatureKind};

/// The combinations played: the tiles alone and with the sets whose rules
/// read tiles (goods, inns, the dragon, fleas, halves, the river).
const COMBOS: &[(&str, &[&str])] = &[
    ("base", &["abbey-mayor"]),
    ("base", &["abbey-mayor", "inns-cathedrals"]),
    ("base", &["abbey-mayor", "traders-builders"]),
    ("base", &["abbey-mayor", "princess-dragon"]),
    ("base", &["abbey-mayor", "river2", "plague"]),
    ("base", &["abbey-mayor", "halfsies1"]),
    (
        "winter",
        &[
            "abbey-mayor",
            "gingerbread",
            "traders-builders",
            "inns-cathedrals",
            "princess-dragon",
            "halfsies2",
        ],
    ),
];

fn config(seed: u64) -> GameConfig {
    let (base, sets) = COMBOS[seed as usize % COMBOS.len()];
    let mut c = GameConfig::new(2 + (seed % 4) as usize, seed);
    c.base = base.to_string();
    c.expansions = sets.iter().map(|s| s.to_string()).collect();
    c
}

/// A follower, mayor and wagon on every place of every tile (in the wagon
/// step: a wagon move there): what the engine must refuse unless listed
/// (or a place of a listed feature).
fn candidates(game: &Game) -> Vec<Action> {
    let mut v = vec![Action::Pass];
    for p in game.board().pieces() {
        for place in &Place::ALL {
            if game.phase() == Phase::Wagon {
                if let Some(to) = FeatureAt::new(p.pos, p.corner, *place) {
                    v.push(Action::Wagon { to });
                }
                continue;
            }
            for figure in [Figure::Normal, Figure::Mayor, Figure::Wagon] {
                v.push(Action::Follower {
                    pos: p.pos,
                    corner: p.corner,
                    place: *place,
                    figure,
                });
            }
        }
    }
    v
}

/// Each seat's mayor and wagon: on the board at most once, and there
/// exactly when not in the supply; in the wagon step the waiting wagon is
/// home.
fn check_mayor_wagon(game: &Game, seed: u64) {
    let Some(figs) = game.abbey_mayor_figures() else {
        return;
    };
    for seat in game.seats() {
        for figure in [Figure::Mayor, Figure::Wagon] {
            let on_board = game
                .followers()
                .iter()
                .filter(|f| f.player == seat && f.figure == figure)
                .count();
            assert!(
                on_board <= 1,
                "two {figure:?}s of seat {seat} (seed {seed})"
            );
            assert_eq!(
                on_board == 0,
                figs.in_supply(seat, figure),
                "seat {seat}'s {figure:?} both or neither on the board and in the supply (seed {seed})"
            );
        }
    }
    if game.phase() == Phase::Wagon {
        assert!(
            figs.in_supply(game.current_player(), Figure::Wagon),
            "the wagon step's wagon is home while it waits (seed {seed})"
        );
    }
}

/// Normal followers on the board plus the supply make the starting number.
fn check_followers(game: &Game, per_player: usize, seed: u64) {
    for seat in game.seats() {
        let on_board = game
            .followers()
            .iter()
            .filter(|f| f.player == seat && f.figure == Figure::Normal)
            .count();
        assert_eq!(
            on_board + game.players()[seat.index()].supply as usize,
            per_player,
            "seat {seat} lost or gained a follower (seed {seed})"
        );
    }
}

/// What one random game did.
#[derive(Default)]
struct Played {
    /// This set's tiles placed.
    tiles: usize,
    /// Mayors placed.
    mayors: usize,
    /// Wagon moves made.
    wagon_moves: usize,
    /// Wagon steps ended with `pass`.
    wagon_passes: usize,
}

/// Plays one random game, checking every step.
fn play(seed: u64, check_candidates: bool) -> Played {
    let mut played = Played::default();
    let cfg = config(seed);
    let mut game = Game::new(cfg.clone()).expect("valid config");
    let mut rec = Record::new(cfg);
    let mut rng = Rng::new(seed ^ 0xAB8E);
    let per_player = game.options().followers as usize;
    let codec = ActionCodec::default();
    let mut steps = 0;
    while !game.is_finished() {
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "a running game has an action (seed {seed})"
        );
        if check_candidates && matches!(game.phase(), Phase::Follower | Phase::Wagon) {
            let listed: HashSet<Action> = legal.iter().copied().collect();
            for a in &legal {
                assert!(
                    game.clone().try_apply(a).is_ok(),
                    "listed but refused: {a:?}"
                );
            }
            for cand in candidates(&game) {
                let mut g = game.clone();
                if g.try_apply(&cand).is_err() {
                    assert!(!listed.contains(&cand), "listed but refused: {cand:?}");
                    assert!(g == game, "a refused action changed the game: {cand:?}");
                } else if !listed.contains(&cand) {
                    let same = legal.iter().any(|l| {
                        let mut h = game.clone();
                        h.try_apply(l).is_ok() && h == g
                    });
                    assert!(same, "accepted, not listed: {cand:?} (seed {seed})");
                }
            }
        }
        let window = |p: Pos| p.x.abs() <= codec.radius && p.y.abs() <= codec.radius;
        // (`draw` in Traders & Builders' builder step has no index yet.)
        let indexed = |a: &&Action| a.cell().is_none_or(window) && **a != Action::Draw;
        for a in legal.iter().filter(indexed) {
            let i = codec
                .encode(&game, a)
                .unwrap_or_else(|| panic!("no codec index for {a:?} (seed {seed})"));
            assert_eq!(codec.decode(&game, i), Some(*a), "index {i} (seed {seed})");
        }
        if game.phase() == Phase::Wagon {
            // The tensor in the wagon step: its shape is the one announced
            // (the expansions' parts are checked as they are written).
            let t = codec.observation_tensor(&game, game.current_player());
            assert_eq!(t.globals.len(), codec.tensor_shape(&game).1);
        }
        let a = legal[rng.below(legal.len() as u64) as usize];
        rec.actions
            .push(ActionJson::from_action(&a, game.catalog()));
        match a {
            Action::Follower {
                figure: Figure::Mayor,
                ..
            } => played.mayors += 1,
            Action::Wagon { .. } => played.wagon_moves += 1,
            Action::Pass if game.phase() == Phase::Wagon => played.wagon_passes += 1,
            _ => {}
        }
        let before = game.phase();
        game.try_apply(&a).expect("a listed action is accepted");
        // The wagon step comes right after the scoring: never after the
        // Plague's or the gingerbread man's step of the same part.
        assert!(
            !(matches!(before, Phase::Plague | Phase::Gingerbread) && game.phase() == Phase::Wagon),
            "a wagon step after the {before:?} step (seed {seed})"
        );
        check_followers(&game, per_player, seed);
        check_mayor_wagon(&game, seed);
        steps += 1;
        assert!(steps < 20_000, "the game does not end (seed {seed})");
    }
    let replayed = rec.replay().expect("own record replays");
    assert!(replayed == game, "replay differs (seed {seed})");
    let text = rec.to_json();
    assert_eq!(Record::parse(&text).expect("parses"), rec);
    played.tiles = game
        .board()
        .pieces()
        .iter()
        .filter(|p| game.catalog().tile(p.tile).set == "abbey-mayor")
        .count();
    played
}

#[test]
fn random_games_keep_every_invariant_and_replay() {
    let (mut placed, mut mayors, mut moves, mut passes) = (0, 0, 0, 0);
    for seed in 0..140u64 {
        let p = play(seed, false);
        placed += p.tiles;
        mayors += p.mayors;
        moves += p.wagon_moves;
        passes += p.wagon_passes;
    }
    // The tiles are in the pile and get placed (most of the 12 each game).
    assert!(placed > 140 * 8, "only {placed} abbey-mayor tiles placed");
    // Random players place mayors and move wagons, and pass in the wagon
    // step: the properties above saw every part of the figures' rules.
    assert!(mayors > 140, "only {mayors} mayors placed");
    assert!(
        moves > 40 && passes > 20,
        "wagon steps: {moves} moves, {passes} passes"
    );
}

#[test]
fn legal_actions_are_exactly_the_accepted_ones() {
    for seed in 0..COMBOS.len() as u64 {
        play(seed, true);
    }
}

/// The table of `abbey-mayor.md`: 12 tiles, one of each, their cities'
/// coats of arms, and the shapes easiest to get wrong (the bridges, the
/// one road with three ends, the separate fields of I).
#[test]
fn the_catalog_holds_the_twelve_tiles_of_the_table() {
    let cat = Catalog::builtin();
    let set = cat.set("abbey-mayor").expect("the set is in the catalog");
    let ids: Vec<&str> = set
        .tiles
        .iter()
        .map(|&t| cat.tile(t).id.trim_start_matches("abbey-mayor/"))
        .collect();
    assert_eq!(
        ids,
        ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
    );
    let count = |id: &str, kind: FeatureKind| {
        let t = cat.find(&format!("abbey-mayor/{id}")).expect("tile");
        cat.tile(t)
            .features
            .iter()
            .filter(|f| f.kind == kind)
            .count()
    };
    let arms = |id: &str| {
        let t = cat.find(&format!("abbey-mayor/{id}")).expect("tile");
        cat.tile(t)
            .features
            .iter()
            .map(|f| u32::from(f.arms))
            .sum::<u32>()
    };
    let total_arms: u32 = ids.iter().map(|id| arms(id)).sum();
    assert_eq!(total_arms, 6, "6 coats of arms, A has 2");
    assert_eq!(arms("A"), 2);
    for &t in &set.tiles {
        assert_eq!(cat.tile(t).count, 1);
    }
    // Bridges: two cities on B and C; one city and one road on L.
    assert_eq!(count("B", FeatureKind::City), 2);
    assert_eq!(count("C", FeatureKind::City), 2);
    assert_eq!(
        (count("L", FeatureKind::City), count("L", FeatureKind::Road)),
        (1, 1)
    );
    assert_eq!(
        count("L", FeatureKind::Field),
        3,
        "the road splits the north field only"
    );
    assert_eq!(count("K", FeatureKind::Road), 1, "one road with three ends");
    assert_eq!(count("E", FeatureKind::Road), 4);
    assert_eq!(count("E", FeatureKind::Monastery), 1);
    assert_eq!(count("I", FeatureKind::Field), 3);
    assert_eq!(count("G", FeatureKind::Field), 3);
    assert_eq!(count("H", FeatureKind::Field), 3);
    assert_eq!(
        count("D", FeatureKind::Road),
        2,
        "two roads ending at the cities"
    );
}
