//! The Plague's scenarios (`plague.md` end to end). Long set-ups (all 18
//! fleas on the board) built through the public API: a strip of
//! monasteries (all-field tiles) south of the start tile, sources below
//! it, fleas spread one a turn.

use std::sync::Arc;

use super::*;
use crate::action::Figure;
use crate::board::Board;
use crate::catalog::Catalog;
use crate::config::GameConfig;
use crate::geometry::{Corner, Place, Pos, Rotation};
use crate::scoring::Reason;

const B: &str = "base/B";
const SRC: &str = "plague/F";

fn new_game(deck: &[&str]) -> Game {
    let mut c = GameConfig::new(2, 1);
    c.expansions = vec![SET.to_string()];
    c.deck = Some(deck.iter().map(|s| s.to_string()).collect());
    c.deck_only = true;
    Game::new(c).expect("valid config")
}

fn act(g: &mut Game, a: Action) {
    if let Err(e) = g.try_apply(&a) {
        panic!("{a:?} refused: {e}");
    }
}

fn tile(x: i32, y: i32) -> TileAt {
    TileAt::new(Pos::new(x, y), None).unwrap()
}

fn flea(x: i32, y: i32) -> Action {
    Action::Flea {
        to: tile(x, y),
        from: None,
    }
}

fn flea_from(f: (i32, i32), t: (i32, i32)) -> Action {
    Action::Flea {
        to: tile(t.0, t.1),
        from: Some(tile(f.0, f.1)),
    }
}

/// Places the drawn tile at `at` (rotation `rot`, or the first that fits).
fn place(g: &mut Game, at: (i32, i32), rot: Option<u8>) {
    // A player holding halves draws first (the `draw` step).
    if g.legal_actions().contains(&Action::Draw) {
        act(g, Action::Draw);
    }
    let a = g
        .legal_actions()
        .into_iter()
        .find(|a| match a {
            Action::Place { pos, rot: r, .. } => {
                *pos == Pos::new(at.0, at.1) && rot.is_none_or(|q| *r == Rotation::from_quarters(q))
            }
            _ => false,
        })
        .unwrap_or_else(|| panic!("the drawn tile does not fit at {at:?}"));
    act(g, a);
}

/// One whole turn: place, pass the follower step, the plague actions,
/// then pass the plague step if there is one.
fn turn(g: &mut Game, at: (i32, i32), rot: Option<u8>, plague: &[Action]) {
    place(g, at, rot);
    act(g, Action::Pass);
    for a in plague {
        act(g, *a);
    }
    if g.phase() == Phase::Plague {
        act(g, Action::Pass);
    }
}

fn plague(g: &Game) -> &Plague {
    g.plague().expect("plague in play")
}

/// Fleas as (x, y, outbreak number of their region or 0 when latent).
fn fleas(g: &Game) -> Vec<(i32, i32, u8)> {
    let mut v: Vec<_> = plague(g)
        .fleas()
        .iter()
        .map(|f| {
            let p = g.board().pieces()[f.piece as usize].pos;
            (p.x, p.y, f.region.map_or(0, |r| r + 1))
        })
        .collect();
    v.sort_unstable();
    v
}

fn active_outbreaks(g: &Game) -> Vec<usize> {
    plague(g)
        .outbreaks()
        .iter()
        .enumerate()
        .filter(|(_, o)| o.active)
        .map(|(k, _)| k + 1)
        .collect()
}

fn token_events(g: &Game) -> Vec<(&'static str, u32)> {
    g.events()
        .iter()
        .filter(|e| matches!(e.reason, Reason::Outbreak | Reason::Eradicated))
        .map(|e| (e.reason.name(), e.extra))
        .collect()
}

/// Strip cells (x, 1) for `xs`, in an order that keeps them touching.
fn strip(xs: std::ops::RangeInclusive<i32>) -> Vec<(i32, i32)> {
    let mut v: Vec<i32> = xs.collect();
    v.sort_by_key(|x| (x.abs(), *x));
    v.into_iter().map(|x| (x, 1)).collect()
}

/// Builds the strip, then places the sources (cell, rotation) in order.
fn setup(
    strip_xs: std::ops::RangeInclusive<i32>,
    sources: &[((i32, i32), u8)],
    extra: usize,
) -> Game {
    let cells = strip(strip_xs);
    let mut deck = vec![B; cells.len()];
    deck.extend(std::iter::repeat_n(SRC, sources.len()));
    deck.extend(std::iter::repeat_n(B, extra));
    let mut g = new_game(&deck);
    for c in cells {
        turn(&mut g, c, None, &[]);
    }
    for &(c, r) in sources {
        turn(&mut g, c, Some(r), &[]);
    }
    g
}

/// Spreads one flea a turn onto `targets`, placing a filler monastery
/// at (x, 0) for x = start, start + step, … each turn.
fn spread_all(g: &mut Game, targets: &[(i32, i32)], filler_start: i32, step: i32) -> i32 {
    let mut x = filler_start;
    for &t in targets {
        turn(g, (x, 0), None, &[flea(t.0, t.1)]);
        x += step;
    }
    x
}

fn line(from: i32, to: i32) -> Vec<(i32, i32)> {
    (from..=to).map(|x| (x, 1)).collect()
}

#[test]
fn supply_exhausted_eradicates_the_lowest_outbreak_then_latent_fleas_move() {
    let mut g = setup(-9..=14, &[((-8, 2), 0), ((8, 2), 0)], 24);
    assert_eq!(active_outbreaks(&g), vec![1, 2]);
    // Region 1: 6 fleas around (-8,1); region 2: 12 fleas around (8,1).
    let mut targets = vec![(-8, 1), (-9, 1), (-7, 1), (-6, 1), (-5, 1), (-4, 1)];
    targets.extend([8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 14].map(|x| (x, 1)));
    let x = spread_all(&mut g, &targets, -2, -1);
    // The 18th flea left the supply; at the start of this turn the lowest
    // outbreak (1) was flipped: its 6 fleas are latent, and that stops it.
    assert_eq!(plague(&g).supply(), 0);
    assert_eq!(active_outbreaks(&g), vec![2]);
    assert_eq!(
        token_events(&g),
        vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
    );
    let f = fleas(&g);
    assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 6);
    assert!(f.iter().filter(|f| f.0 < 0).all(|f| f.2 == 0));
    assert!(f.iter().filter(|f| f.0 > 0).all(|f| f.2 == 2));
    // A latent flea must move now: not from the supply, not an active one.
    place(&mut g, (x, 0), None);
    let legal = g.legal_actions();
    let moves: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Flea { .. }))
        .collect();
    assert!(!moves.is_empty());
    for a in &moves {
        let Action::Flea { from: Some(p), to } = a else {
            panic!("{a:?} does not move a flea");
        };
        assert!(p.x < 0, "{a:?} moves an active flea");
        assert!(to.x > 0, "{a:?} does not go next to the active region");
    }
    assert!(legal.contains(&flea_from((-9, 1), (2, 1))));
    let before = g.clone();
    let e = g.try_apply(&flea(2, 1)).unwrap_err();
    assert!(e.message.contains("supply is empty"), "{e}");
    let e = g.try_apply(&flea_from((3, 1), (2, 1))).unwrap_err();
    assert!(e.message.contains("latent one moves"), "{e}");
    let e = g.try_apply(&flea_from((-9, 1), (-3, 1))).unwrap_err();
    assert!(e.message.contains("not next to an active"), "{e}");
    assert!(g == before);
    act(&mut g, flea_from((-9, 1), (2, 1)));
    act(&mut g, Action::Pass);
    act(&mut g, Action::Pass);
    let f = fleas(&g);
    assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 5);
    assert!(f.contains(&(2, 1, 2)));
    assert!(!f.iter().any(|f| f.0 == -9));
    // Latent fleas remain: no further eradication at this turn's start.
    assert_eq!(token_events(&g).len(), 3);
    assert_eq!(plague(&g).fleas().len(), FLEAS as usize);
}

#[test]
fn eradication_repeats_until_a_latent_flea_exists() {
    let mut g = setup(-9..=16, &[((-8, 2), 0), ((-3, 2), 0), ((8, 2), 0)], 24);
    assert_eq!(active_outbreaks(&g), vec![1, 2, 3]);
    // Outbreak 1 gets no flea, outbreak 2 two, outbreak 3 sixteen.
    let mut targets = vec![(-3, 1), (-2, 1)];
    targets.extend([8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 16].map(|x| (x, 1)));
    spread_all(&mut g, &targets, -4, -1);
    // Flipping 1 makes no flea latent, so 2 is flipped too; then its two
    // fleas are latent and the eradication stops with 3 active.
    assert_eq!(active_outbreaks(&g), vec![3]);
    assert_eq!(
        token_events(&g),
        vec![
            ("outbreak", 1),
            ("outbreak", 2),
            ("outbreak", 3),
            ("eradicated", 1),
            ("eradicated", 2)
        ]
    );
    let f = fleas(&g);
    assert_eq!(
        f.iter()
            .filter(|f| f.2 == 0)
            .map(|f| (f.0, f.1))
            .collect::<Vec<_>>(),
        vec![(-3, 1), (-2, 1)]
    );
    assert_eq!(f.iter().filter(|f| f.2 == 3).count(), 16);
}

/// 18 active fleas in one region: x = -9..=8 on the strip, outbreak 1
/// at (-8,2).
fn all_in_one_region() -> Game {
    let mut g = setup(-9..=14, &[((-8, 2), 0)], 24);
    let mut targets = vec![(-8, 1), (-9, 1)];
    targets.extend(line(-7, 8));
    spread_all(&mut g, &targets, 2, 1);
    assert_eq!(plague(&g).supply(), 0);
    assert!(fleas(&g).iter().all(|f| f.2 == 1));
    assert_eq!(active_outbreaks(&g), vec![1]);
    g
}

#[test]
fn all_eighteen_in_one_region_move_an_active_flea() {
    let mut g = all_in_one_region();
    // No eradication: only one outbreak is active.
    assert_eq!(token_events(&g), vec![("outbreak", 1)]);
    place(&mut g, (20, 0), None);
    let legal = g.legal_actions();
    let moves: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Flea { .. }))
        .collect();
    assert!(!moves.is_empty());
    assert!(moves
        .iter()
        .all(|a| matches!(a, Action::Flea { from: Some(_), .. })));
    // The last flea of the line moves to a filler above the line.
    assert!(legal.contains(&flea_from((8, 1), (5, 0))));
    // Not back onto its own tile, not onto a tile beside only itself.
    assert!(!legal.contains(&flea_from((8, 1), (8, 0))));
    assert!(!legal.contains(&flea_from((8, 1), (9, 1))));
    act(&mut g, flea_from((8, 1), (5, 0)));
    act(&mut g, Action::Pass);
    act(&mut g, Action::Pass);
    let f = fleas(&g);
    assert!(f.contains(&(5, 0, 1)));
    assert!(!f.iter().any(|f| (f.0, f.1) == (8, 1)));
    assert!(f.iter().all(|f| f.2 == 1));
}

#[test]
fn a_new_source_away_from_the_single_region_turns_all_fleas_latent() {
    let cells = strip(-9..=14);
    let mut deck = vec![B; cells.len()];
    deck.push(SRC);
    deck.extend(std::iter::repeat_n(B, 18));
    deck.push(SRC);
    deck.extend(std::iter::repeat_n(B, 4));
    let mut g = new_game(&deck);
    for c in cells {
        turn(&mut g, c, None, &[]);
    }
    turn(&mut g, (-8, 2), Some(0), &[]);
    let mut targets = vec![(-8, 1), (-9, 1)];
    targets.extend(line(-7, 8));
    spread_all(&mut g, &targets, 2, 1);
    assert!(fleas(&g).iter().all(|f| f.2 == 1));
    // A new source below (12,1), which has no flea: it touches no flea.
    place(&mut g, (12, 2), Some(0));
    // Outbreak 2 is active; 1 flipped at once; all 18 fleas latent.
    assert_eq!(active_outbreaks(&g), vec![2]);
    assert_eq!(
        token_events(&g),
        vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
    );
    assert!(fleas(&g).iter().all(|f| f.2 == 0));
    // No follower on the new source, no spread this turn.
    let legal = g.legal_actions();
    assert!(!legal
        .iter()
        .any(|a| matches!(a, Action::Flea { .. } | Action::Follower { .. })));
    act(&mut g, Action::Pass);
    act(&mut g, Action::Pass);
    // Next turn: a latent flea moves next to the new outbreak.
    place(&mut g, (20, 0), None);
    let legal = g.legal_actions();
    assert!(legal.contains(&flea_from((0, 1), (12, 1))));
    assert!(!legal.contains(&flea_from((0, 1), (9, 1))));
    act(&mut g, flea_from((0, 1), (12, 1)));
    let f = fleas(&g);
    assert!(f.contains(&(12, 1, 2)));
    assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 17);
}

#[test]
fn a_new_source_next_to_the_single_region_takes_it_over() {
    let cells = strip(-9..=14);
    let mut deck = vec![B; cells.len()];
    deck.push(SRC);
    deck.extend(std::iter::repeat_n(B, 18));
    deck.push(SRC);
    deck.extend(std::iter::repeat_n(B, 4));
    let mut g = new_game(&deck);
    for c in cells {
        turn(&mut g, c, None, &[]);
    }
    turn(&mut g, (-8, 2), Some(0), &[]);
    let mut targets = vec![(-8, 1), (-9, 1)];
    targets.extend(line(-7, 8));
    spread_all(&mut g, &targets, 2, 1);
    // The new source lies below the flea on (5,1): the regions join and
    // the lower outbreak 1 is flipped; every flea now belongs to 2.
    place(&mut g, (5, 2), Some(0));
    assert_eq!(active_outbreaks(&g), vec![2]);
    assert_eq!(
        token_events(&g),
        vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
    );
    assert!(fleas(&g).iter().all(|f| f.2 == 2));
    assert_eq!(fleas(&g).len(), 18);
}

#[test]
fn moving_the_flea_that_joins_the_region_splits_it() {
    // Outbreak 1 at (-8,2) turned so that its west side is field, with a
    // monastery at (-9,2) beside it; fleas on x = -8..=9 of the strip.
    let cells = strip(-9..=14);
    let mut deck = vec![B; cells.len() + 1];
    deck.push(SRC);
    deck.extend(std::iter::repeat_n(B, 22));
    let mut g = new_game(&deck);
    for c in cells {
        turn(&mut g, c, None, &[]);
    }
    turn(&mut g, (-9, 2), None, &[]);
    turn(&mut g, (-8, 2), Some(3), &[]);
    spread_all(&mut g, &line(-8, 9), 2, 1);
    assert!(fleas(&g).iter().all(|f| f.2 == 1));
    place(&mut g, (20, 0), None);
    // Lifted, the flea on (-8,1) no longer joins the line to the source:
    // the source alone is the region, and (-9,2) beside it is a target.
    assert!(g.legal_actions().contains(&flea_from((-8, 1), (-9, 2))));
    act(&mut g, flea_from((-8, 1), (-9, 2)));
    let f = fleas(&g);
    assert!(f.contains(&(-9, 2, 1)));
    assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 17);
    assert!(f.iter().filter(|f| f.1 == 1).all(|f| f.2 == 0));
    // With latent fleas on the board, no eradication follows.
    act(&mut g, Action::Pass);
    act(&mut g, Action::Pass);
    assert_eq!(token_events(&g), vec![("outbreak", 1)]);
}

/// Half tiles and double tiles: adjacency is judged between occupied
/// cells; the two halves of a cell touch; a double tile touches the
/// neighbours of both its cells.
#[test]
fn adjacency_with_half_and_double_tiles() {
    const SHAPES: &str = r#"
set = "shapes"
title = "test shapes"
total = 3
[[tile]]
id = "half"
count = 2
shape = "half"
features = ["field W S H1 H H2"]
[[tile]]
id = "double"
count = 1
shape = "double"
features = ["field N S W 1:N 1:E 1:S"]
"#;
    let cat = Catalog::from_files(&[
        ("base.toml", include_str!("../../../catalog/base.toml")),
        ("shapes.toml", SHAPES),
    ])
    .expect("test catalog");
    let b = cat.find("base/B").unwrap();
    let half = cat.find("shapes/half").unwrap();
    let double = cat.find("shapes/double").unwrap();
    let mut board = Board::new(16, None);
    let centre = board.place(&cat, b, Pos::new(0, 0), Rotation::default());
    // A half with its right angle at SW in (1,0): its short sides face
    // west (the centre) and south; its long side faces north-east.
    let h1 = board.place(&cat, half, Pos::new(1, 0), Rotation::from_quarters(0));
    // Tiles north and east of (1,0), which face the half's gap.
    let north = board.place(&cat, b, Pos::new(1, -1), Rotation::default());
    let east = board.place(&cat, b, Pos::new(2, 0), Rotation::default());
    let mut nb = Vec::new();
    adjacent_pieces(&board, &cat, h1, &mut nb);
    nb.sort_unstable();
    assert_eq!(nb, vec![centre, north, east]);
    // The other half fills the cell: the halves touch each other.
    let h2 = board.place(&cat, half, Pos::new(1, 0), Rotation::from_quarters(2));
    adjacent_pieces(&board, &cat, h1, &mut nb);
    assert!(nb.contains(&h2));
    adjacent_pieces(&board, &cat, north, &mut nb);
    nb.sort_unstable();
    assert_eq!(nb, vec![h1, h2]);
    // A double tile on (0,1)-(1,1) touches the centre, both halves.
    let d = board.place(&cat, double, Pos::new(0, 1), Rotation::default());
    adjacent_pieces(&board, &cat, d, &mut nb);
    nb.sort_unstable();
    assert_eq!(nb, vec![centre, h1, h2]);
    // Diagonal cells are not adjacent.
    adjacent_pieces(&board, &cat, east, &mut nb);
    assert!(!nb.contains(&north) && !nb.contains(&d));
}

/// A road crossing the long sides of two halves: a robber flees along it
/// from one half to the other (and no further when a flea blocks it).
#[test]
fn flight_across_the_long_side_of_two_halves() {
    const BASE: &str = r#"
set = "base"
title = "test base"
total = 4
start = "D"
[[tile]]
id = "D"
count = 1
features = ["city N", "road W E", "field WNW ENE -> N", "field ESE S WSW"]
[[tile]]
id = "U"
count = 1
features = ["road W E", "field WNW N ENE", "field ESE S WSW"]
[[tile]]
id = "B"
count = 2
features = ["monastery", "field N E S W"]
"#;
    const HALVES: &str = r#"
set = "halfsies1"
title = "test halves"
total = 2
[[tile]]
id = "HR"
count = 2
shape = "half"
features = ["road W H", "field WNW H1", "field WSW S H2"]
"#;
    let cat = Arc::new(
        Catalog::from_files(&[
            ("base.toml", BASE),
            ("halfsies1.toml", HALVES),
            ("plague.toml", include_str!("../../../catalog/plague.toml")),
        ])
        .expect("test catalog"),
    );
    let hr = cat.find("halfsies1/HR").expect("half in the test catalog");
    let mut c = GameConfig::new(2, 1);
    c.expansions = vec![SET.to_string(), "halfsies1".to_string()];
    c.hands = Some(vec![
        vec!["halfsies1/HR".to_string()],
        vec!["halfsies1/HR".to_string()],
    ]);
    c.deck = Some(
        ["base/U", SRC, "base/B", "base/B"]
            .map(String::from)
            .to_vec(),
    );
    c.deck_only = true;
    let mut g = Game::with_catalog(c, cat).expect("valid config");
    place(&mut g, (-1, 0), Some(0));
    act(
        &mut g,
        Action::Follower {
            pos: Pos::new(-1, 0),
            corner: None,
            place: Place::E,
            figure: Figure::Normal,
        },
    );
    // Each player plays a half from the hand instead of drawing.
    for q in [0, 2] {
        act(
            &mut g,
            Action::Place {
                tile: hr,
                pos: Pos::new(1, 0),
                rot: Rotation::from_quarters(q),
            },
        );
        act(&mut g, Action::Pass);
    }
    turn(&mut g, (0, 1), Some(0), &[]);
    place(&mut g, (1, 1), None);
    let from = FeatureAt::new(Pos::new(-1, 0), None, Place::E).unwrap();
    let to_far = FeatureAt::new(Pos::new(1, 0), Some(Corner::NE), Place::E).unwrap();
    let to_near = FeatureAt::new(Pos::new(1, 0), Some(Corner::SW), Place::W).unwrap();
    let legal = g.legal_actions();
    assert!(
        legal.contains(&Action::Flee { from, to: to_far }),
        "{legal:?}"
    );
    assert!(legal.contains(&Action::Flee { from, to: to_near }));
    // A flea on the start tile (next to the outbreak) blocks the way.
    let mut blocked = g.clone();
    act(&mut blocked, flea(0, 0));
    let e = blocked
        .try_apply(&Action::Flee { from, to: to_far })
        .unwrap_err();
    assert!(e.message.contains("across"), "{e}");
    act(&mut g, Action::Flee { from, to: to_far });
    let f = g.followers()[0];
    assert_eq!(
        g.board().pieces()[f.piece as usize].corner,
        Some(Corner::NE)
    );
}
