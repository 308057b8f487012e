//! Property tests of Abbey & Mayor's twelve land tiles, the abbeys, the
//! barns, the mayors and the wagons over many seeded random games, alone
//! and with the other sets: every listed action is accepted and every
//! follower, mayor, wagon, wagon move, barn or abbey candidate that is
//! accepted is listed (a refused one changes nothing), followers are
//! conserved (each mayor and wagon is on the board or in its supply, never
//! both), every legal action has its codec index, every game that ends has
//! had its final abbey round, and replays are identical. Each seat's barn
//! is in the supply or on the board exactly once, and at the start of every
//! turn no barn field holds a figure. A catalog test
//! checks the shapes the rules file's table gives.

mod common;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{
    Action, Corner, FeatureAt, Figure, Game, GameConfig, Phase, Place, Pos, Reason, Rotation,
    TileAt,
};
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
    ("base", &["abbey-mayor", "map-chips", "halfsies2"]),
    (
        "base",
        &["abbey-mayor", "traders-builders", "halfsies1", "plague"],
    ),
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
    common::config(COMBOS, seed, 4)
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
        for corner in Corner::ALL {
            if let Some(at) = TileAt::new(p.pos, p.corner) {
                v.push(Action::Barn { at, corner });
            }
        }
    }
    v
}

/// Each seat's barn is in the supply or on the board, once; at the start
/// of a turn no barn field holds a figure (the barn's scoring sent the
/// farmers home, and nothing enters a barn field).
fn check_barns(game: &Game, seed: u64) {
    let Some(barns) = game.barns() else { return };
    for seat in game.seats() {
        let placed = barns.placed().iter().filter(|b| b.seat == seat).count();
        assert_eq!(
            placed + usize::from(barns.in_supply(seat)),
            1,
            "seat {seat}'s barn is lost or doubled (seed {seed})"
        );
    }
    if game.phase() == Phase::Place {
        for b in barns.placed() {
            let field = game.feature(game.barn_field(b));
            assert_eq!(
                field.followers().count(),
                0,
                "a barn field holds a figure at the start of a turn (seed {seed})"
            );
        }
    }
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
    /// This set's land tiles placed.
    tiles: usize,
    /// Abbeys placed.
    abbeys: usize,
    /// Barns placed.
    barns: usize,
    /// Barn scorings.
    barn_events: usize,
    /// Mayors placed.
    mayors: usize,
    /// Wagon moves made.
    wagon_moves: usize,
    /// Wagon steps ended with `pass`.
    wagon_passes: usize,
}

/// An abbey at every empty cell beside a placed tile, in rotations 0 and
/// 1: what the engine must refuse unless listed.
fn abbey_candidates(game: &Game) -> Vec<Action> {
    let Some(abbey) = game.catalog().find("abbey-mayor/abbey") else {
        return Vec::new();
    };
    let mut cells: Vec<Pos> = game.board().frontier_cells().collect();
    for p in game.board().pieces() {
        cells.extend([(0, 1), (1, 0), (0, -1), (-1, 0)].map(|(dx, dy)| p.pos.offset(dx, dy)));
    }
    cells.sort_by_key(|p| (p.x, p.y));
    cells.dedup();
    cells
        .into_iter()
        .flat_map(|pos| {
            [0, 1].map(|q| Action::Place {
                tile: abbey,
                pos,
                rot: Rotation::from_quarters(q),
            })
        })
        .collect()
}

/// Every abbey candidate is accepted exactly when listed; a refusal
/// changes nothing.
fn check_abbey_candidates(game: &Game, legal: &[Action], seed: u64) {
    for cand in abbey_candidates(game) {
        let mut g = game.clone();
        let listed = legal.contains(&cand);
        match g.try_apply(&cand) {
            Ok(()) => assert!(listed, "abbey accepted, not listed: {cand:?} (seed {seed})"),
            Err(e) => {
                assert!(
                    !listed,
                    "abbey listed but refused: {cand:?}: {e} (seed {seed})"
                );
                assert!(g == *game, "a refused abbey changed the game: {cand:?}");
            }
        }
    }
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
    let mut round = false;
    while !game.is_finished() {
        round |= game.phase() == Phase::Abbey;
        if matches!(game.phase(), Phase::Place | Phase::Abbey | Phase::Builder) && check_candidates
        {
            check_abbey_candidates(&game, &game.legal_actions(), seed);
        }
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "a running game has an action (seed {seed})"
        );
        if check_candidates && matches!(game.phase(), Phase::Follower | Phase::Wagon) {
            common::listed_equals_accepted(&game, &legal, &candidates(&game), seed);
        }
        common::codec_round_trip(&game, &legal, &codec, seed);
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
        check_barns(&game, seed);
        check_mayor_wagon(&game, seed);
        steps += 1;
        assert!(steps < 20_000, "the game does not end (seed {seed})");
    }
    let replayed = rec.replay().expect("own record replays");
    assert!(replayed == game, "replay differs (seed {seed})");
    let text = rec.to_json();
    assert_eq!(Record::parse(&text).expect("parses"), rec);
    let abbeys = game.abbeys().expect("abbeys in play");
    let held = game.seats().filter(|s| abbeys.holds(*s)).count();
    let set = |p: &&bastide_engine::Piece| game.catalog().tile(p.tile).set == "abbey-mayor";
    let pieces = game.board().pieces();
    let placed = pieces.iter().filter(|p| p.tile == abbeys.tile()).count();
    assert_eq!(
        placed + held,
        game.player_count(),
        "one abbey per seat, placed or held (seed {seed})"
    );
    assert!(
        held == 0 || round,
        "abbeys left in hand but no final abbey round (seed {seed})"
    );
    played.tiles = pieces.iter().filter(set).count() - placed;
    played.abbeys = placed;
    played.barns = game.barns().map_or(0, |b| b.placed().len());
    played.barn_events = game
        .events()
        .iter()
        .filter(|e| e.reason == Reason::Barn)
        .count();
    played
}

#[test]
fn random_games_keep_every_invariant_and_replay() {
    let mut total = Played::default();
    for seed in 0..140u64 {
        let p = play(seed, false);
        total.tiles += p.tiles;
        total.abbeys += p.abbeys;
        total.barns += p.barns;
        total.barn_events += p.barn_events;
        total.mayors += p.mayors;
        total.wagon_moves += p.wagon_moves;
        total.wagon_passes += p.wagon_passes;
    }
    let Played {
        tiles: placed,
        abbeys,
        barns,
        barn_events,
        mayors,
        wagon_moves: moves,
        wagon_passes: passes,
    } = total;
    // The tiles are in the pile and get placed (most of the 12 each game).
    assert!(placed > 140 * 8, "only {placed} abbey-mayor tiles placed");
    // Random players take the abbey whenever a hole lets them: most are
    // placed.
    assert!(abbeys > 140 * 2, "only {abbeys} abbeys placed");
    // Random players find barn corners and the barns score.
    assert!(barns > 140, "only {barns} barns placed");
    assert!(barn_events > 140, "only {barn_events} barn scorings");
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
        ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "abbey"]
    );
    let ids = &ids[..12];
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
    for &t in &set.tiles[..12] {
        assert_eq!(cat.tile(t).count, 1);
    }
    // The abbey: six (one per player colour), a monastery with closing
    // sides, never in the pile.
    let abbey = cat.tile(set.tiles[12]);
    assert_eq!(
        (abbey.count, abbey.closing_sides, abbey.monastery),
        (6, true, Some(0))
    );
    assert_eq!(abbey.features.len(), 1);
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

/// The observation tensor shows each barn on the cell it was placed from,
/// in its owner's relative plane, and each relative player's barn in the
/// supply (the scenario record `barn_with_farmers_scores_three_per_city`:
/// BLUE's barn on the NW corner of (1,1)).
#[test]
fn the_observation_tensor_shows_the_barns() {
    let text = include_str!("scenarios/abbey-mayor/barn_with_farmers_scores_three_per_city.json");
    let v: serde_json::Value = serde_json::from_str(text).expect("scenario JSON");
    let rec = Record::parse(&v["record"].to_string()).expect("record");
    let game = rec.replay().expect("replays");
    let codec = ActionCodec::default();
    let (planes, globals) = codec.tensor_shape(&game);
    let r = codec.radius;
    for (seat, own, other) in [(0, 1.0, 0.0), (1, 0.0, 1.0)] {
        let t = codec.observation_tensor(&game, game.seat(seat).expect("seat"));
        assert_eq!(t.globals.len(), globals);
        // The last globals, relative: the observer's barn, then the other's.
        assert_eq!(t.globals[globals - 2..], [own, other], "seat {seat}");
        let ww = t.width * t.width;
        let plane = |k: usize| &t.cells[k * ww..(k + 1) * ww];
        let at = ((1 + r) as usize) * t.width + (1 + r) as usize;
        // BLUE's barn: relative plane 1 for RED, 0 for BLUE.
        let blue = if seat == 0 { planes - 1 } else { planes - 2 };
        let red = if seat == 0 { planes - 2 } else { planes - 1 };
        assert_eq!(plane(blue)[at], 1.0, "seat {seat}");
        assert_eq!(plane(blue).iter().sum::<f32>(), 1.0);
        assert_eq!(plane(red).iter().sum::<f32>(), 0.0);
    }
}

/// With explicit chance (`openspiel::State`) a player who could place the
/// abbey chooses before the draw's chance node; random games of every
/// combination reach the end, every listed action is accepted and has a
/// codec index that decodes to it, and the abbeys are placed or held.
#[test]
fn explicit_chance_games_choose_the_abbey_before_the_draw() {
    use bastide_engine::openspiel::{Node, State};
    let codec = ActionCodec::default();
    let mut abbeys = 0;
    for seed in 0..2 * COMBOS.len() as u64 {
        let mut s = State::new(config(seed)).expect("config");
        let mut rng = Rng::new(seed ^ 0x5EED);
        let mut steps = 0;
        loop {
            match s.node() {
                Node::Terminal => break,
                Node::Chance => {
                    let o = s.chance_outcomes();
                    s.apply_chance(o[rng.below(o.len() as u64) as usize].0)
                        .expect("outcome");
                }
                Node::Player(_) => {
                    let l = s.legal_actions();
                    for a in &l {
                        let i = codec.encode(s.game(), a).expect("an index");
                        assert_eq!(codec.decode(s.game(), i), Some(*a), "seed {seed}");
                    }
                    if l.contains(&Action::Draw) {
                        assert!(
                            s.game().visible_drawn_tile().is_none(),
                            "the tile to draw is unseen while drawing is a choice"
                        );
                    }
                    let a = l[rng.below(l.len() as u64) as usize];
                    s.apply(&a).expect("legal");
                    steps += 1;
                    assert!(steps < 20_000, "the game does not end (seed {seed})");
                }
            }
        }
        let g = s.game();
        let a = g.abbeys().expect("abbeys");
        abbeys += g
            .board()
            .pieces()
            .iter()
            .filter(|p| p.tile == a.tile())
            .count();
    }
    assert!(abbeys > 0, "no abbey placed in explicit-chance games");
}
