//! Pictures of fixed records (snapshots), every catalog tile in every
//! rotation, made-up half and double-size tiles, maps with chips, the
//! Plague's tokens, and PNG output.

use bastide_engine::expansions::plague::{self, Flea, Outbreak};
use bastide_engine::record::Record;
use bastide_engine::Board;
use bastide_engine::Follower;
use bastide_engine::MapDef;
use bastide_engine::{Catalog, Game, GameConfig, Pos, Rotation, Seat};
use bastide_engine::{Shape, Tag};
use bastide_render::{
    board_svg, catalog_svg, scene_svg, svg_size, svg_to_png, tile_svg, BoardOptions, Figure,
    FigureKind, MapScene, PlagueScene, PlayerLine, RenderError, Scene,
};

const BASE_SMALL: &str = include_str!("data/base-small.json");
const WINTER_ANIMALS: &str = include_str!("data/winter-animals.json");
const SHAPES: &str = include_str!("data/shapes.toml");
const UKRAINE_CHIPS: &str = include_str!("data/ukraine-chips.json");
const HALFSIES1: &str = include_str!("data/halfsies1.json");
const RIVER20: &str = include_str!("data/river20.json");
/// `bastide play --sets base,plague --seed 4`: six outbreaks, outbreak 1
/// eradicated after action 189 and outbreak 2 after action 251.
const PLAGUE: &str = include_str!("data/plague.json");

fn replay(text: &str, at: Option<usize>) -> Game {
    let rec = Record::parse(text).expect("test record parses");
    let n = at.unwrap_or(rec.actions.len());
    rec.replay_to(n).expect("test record replays")
}

fn shapes_catalog() -> Catalog {
    Catalog::from_files(&[("shapes.toml", SHAPES)]).expect("test catalog loads")
}

/// A picture must be well-formed SVG that resvg reads.
fn check_svg(svg: &str) -> (f32, f32) {
    assert!(svg.starts_with("<svg "), "not an SVG document");
    assert!(svg.trim_end().ends_with("</svg>"));
    svg_size(svg).expect("resvg reads the picture")
}

#[test]
fn snapshot_base_game_over_with_grid() {
    let game = replay(BASE_SMALL, None);
    let svg = board_svg(
        &game,
        &BoardOptions {
            grid: true,
            title: Some("base-small: game over".into()),
            ..BoardOptions::default()
        },
    );
    check_svg(&svg);
    insta::assert_snapshot!("base_small_end", svg);
}

#[test]
fn snapshot_base_mid_game_with_legal_cells() {
    let game = replay(BASE_SMALL, Some(8));
    let svg = board_svg(
        &game,
        &BoardOptions {
            grid: true,
            legal: true,
            ..BoardOptions::default()
        },
    );
    check_svg(&svg);
    // The drawn tile (base/F) may go somewhere: cells are highlighted.
    assert!(svg.contains("class=\"legal\""));
    insta::assert_snapshot!("base_small_at_8_legal", svg);
}

#[test]
fn snapshot_winter_animals_three_players() {
    let game = replay(WINTER_ANIMALS, None);
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    // Followers of all three seats, in their colours.
    for name in ["Anna", "Ben", "Chloe"] {
        assert!(svg.contains(&format!("data-player=\"{name}\"")), "{name}");
    }
    insta::assert_snapshot!("winter_animals_end", svg);
}

#[test]
fn snapshot_single_tiles() {
    let cat = Catalog::builtin();
    let d = tile_svg(&cat, "base/D", Rotation::from_quarters(1)).expect("base/D");
    insta::assert_snapshot!("tile_base_d_90", d);
    let shapes = shapes_catalog();
    let h =
        tile_svg(&shapes, "shapes/half-city-road", Rotation::from_quarters(3)).expect("half tile");
    insta::assert_snapshot!("tile_half_city_road_270", h);
    let dbl =
        tile_svg(&shapes, "shapes/double-city", Rotation::from_quarters(1)).expect("double tile");
    insta::assert_snapshot!("tile_double_city_90", dbl);
}

/// Halves and double-size tiles laid by hand (no rules checked): two halves
/// filling a cell, a lone half with its gap, double tiles both ways.
fn hand_laid(cat: &Catalog) -> (Board, Vec<Follower>) {
    let t = |id: &str| cat.find(id).unwrap_or_else(|| panic!("{id}"));
    let r = Rotation::from_quarters;
    let mut board = Board::new(16, None);
    board.place(cat, t("shapes/crossing"), Pos::new(0, 0), r(0));
    board.place(cat, t("shapes/half-city-road"), Pos::new(1, 0), r(0));
    board.place(cat, t("shapes/half-road-across"), Pos::new(1, 0), r(2));
    board.place(cat, t("shapes/half-monastery"), Pos::new(0, 1), r(1));
    board.place(cat, t("shapes/double-city"), Pos::new(-2, 0), r(0));
    board.place(cat, t("shapes/double-source"), Pos::new(1, 1), r(1));
    board.place(cat, t("shapes/half-river"), Pos::new(-1, 1), r(3));
    let f = |player: usize, piece, feature| Follower {
        player: Seat::new(player).expect("a seat"),
        piece,
        feature,
        figure: bastide_engine::Figure::Normal,
    };
    // City of the first half, monk, farmer and road of the double city.
    let followers = vec![f(0, 1, 0), f(1, 3, 0), f(0, 4, 2), f(1, 4, 1), f(2, 2, 0)];
    (board, followers)
}

#[test]
fn snapshot_halves_and_double_tiles_on_a_board() {
    let cat = shapes_catalog();
    let (board, followers) = hand_laid(&cat);
    let players = ["Red", "Blue", "Purple"]
        .iter()
        .map(|n| PlayerLine::new(*n, 0, 6))
        .collect();
    let scene = Scene {
        catalog: &cat,
        pieces: board.pieces(),
        followers: &followers,
        players,
        legal: vec![Pos::new(2, 0), Pos::new(0, 2)],
        last: Some(6),
        figures: vec![Figure {
            kind: FigureKind::Gingerbread,
            piece: 4,
            feature: 0,
        }],
        map: None,
        plague: None,
        highlight: Vec::new(),
        barns: Vec::new(),
        towers: Vec::new(),
    };
    let opts = BoardOptions {
        grid: true,
        legal: true,
        ..BoardOptions::default()
    };
    let svg = scene_svg(&scene, &opts);
    check_svg(&svg);
    // Cell (1, 0) is full; the lone halves at (0, 1) and (-1, 1) show gaps.
    assert_eq!(svg.matches("class=\"gap\"").count(), 2);
    assert_eq!(svg.matches("data-player=").count(), 5 + 3);
    insta::assert_snapshot!("hand_laid_halves_and_doubles", svg);
}

/// A short Map Chips game on Ukraine: trades onto Chernihiv (two purple
/// chips on one space, two blue 2s on another), Odesa, Uman and Bratslav
/// built over, both players holding two chips at the end.
#[test]
fn snapshot_map_chips_on_ukraine() {
    let game = replay(UKRAINE_CHIPS, None);
    let svg = board_svg(
        &game,
        &BoardOptions {
            title: Some("ukraine-chips: game over".into()),
            ..BoardOptions::default()
        },
    );
    let (w, h) = check_svg(&svg);
    // The whole map shows, not only the tiles: 21 by 11 squares.
    let map = MapDef::builtin("ukraine").expect("ukraine");
    assert_eq!(svg.matches("data-map=\"ukraine\"").count(), 1);
    assert!(w >= 21.0 * 80.0 && h >= 11.0 * 80.0, "{w}x{h}");
    for n in 1..=map.starts.len() {
        assert!(svg.contains(&format!("data-start=\"{n}\"")), "start {n}");
    }
    assert_eq!(svg.matches("data-chumak=").count(), map.chumak.len());
    // The country's outline, not the squares' staircase, is the border:
    // one land under the squares and one border line with every corner.
    assert_eq!(svg.matches("class=\"mapland\"").count(), 1);
    let border = svg
        .split("class=\"mapborder\" d=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a border line");
    assert_eq!(
        border.matches('L').count() + 1,
        map.outline.len(),
        "{border}"
    );
    assert!(!svg.contains("class=\"mapedge\""), "no staircase border");
    let chips = game.chips().expect("map chips in play");
    let built = chips.squares.iter().filter(|s| s.built).count();
    assert_eq!(built, 3);
    assert_eq!(svg.matches("data-built=\"true\"").count(), built);
    for name in ["Odesa", "Uman", "Bratslav"] {
        assert!(
            svg.contains(&format!("data-chumak=\"{name}\" data-built=\"true\"")),
            "{name}"
        );
    }
    // Chips on the squares are drawn one by one; chips in hand only counted.
    let lying: usize = chips
        .squares
        .iter()
        .map(|s| s.spaces.iter().map(|sp| sp.len()).sum::<usize>())
        .sum();
    assert_eq!(lying, 4);
    assert_eq!(svg.matches("class=\"chip\"").count(), lying);
    assert!(svg.contains("data-chips=\"purple:1 purple:2\""));
    assert!(svg.contains("data-chips=\"blue:2 blue:2\""));
    assert!(svg.contains("RED 21 pts, 0 left, 2 chips"));
    assert!(svg.contains("BLUE 19 pts, 4 left, 2 chips"));
    assert!(svg.contains(&format!(
        "Ukraine (reconstructed): {} chips in the supply",
        chips.supply.len()
    )));
    insta::assert_snapshot!("ukraine_chips_end", svg);
}

#[test]
fn every_position_of_a_map_chips_game_renders() {
    let rec = Record::parse(UKRAINE_CHIPS).expect("parses");
    for n in 0..=rec.actions.len() {
        let game = rec.replay_to(n).expect("replays");
        let opts = BoardOptions {
            grid: n % 2 == 0,
            legal: true,
            ..BoardOptions::default()
        };
        let svg = board_svg(&game, &opts);
        check_svg(&svg);
        assert_eq!(svg.matches("data-chumak=").count(), 8, "after {n}");
    }
}

#[test]
fn a_map_without_chips_and_a_scene_of_a_bare_map() {
    let mut config = GameConfig::new(2, 3);
    config.map = Some("ukraine".into());
    let game = Game::new(config).expect("a map without map chips");
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    assert!(svg.contains("data-map=\"ukraine\""));
    assert!(!svg.contains("chips in the supply"));
    assert!(!svg.contains(" chips</text>"));
    // The printed map alone, as a scene.
    let cat = Catalog::builtin();
    let map = MapDef::builtin("ukraine").expect("ukraine");
    let scene = Scene {
        catalog: &cat,
        pieces: &[],
        followers: &[],
        players: vec![PlayerLine::new("RED", 0, 7)],
        legal: Vec::new(),
        last: None,
        figures: Vec::new(),
        map: Some(MapScene::of_map(&map)),
        plague: None,
        highlight: Vec::new(),
        barns: Vec::new(),
        towers: Vec::new(),
    };
    let svg = scene_svg(&scene, &BoardOptions::default());
    check_svg(&svg);
    assert_eq!(
        svg.matches("data-built=\"false\"").count(),
        map.chumak.len()
    );
    assert_eq!(
        svg.matches("class=\"chipspace\"").count(),
        4 * map.chumak.len()
    );
}

/// Halves from a dealt hand (halfsies1) laid in a real game: two halves
/// sharing a cell, lone halves with their gaps, followers on halves.
#[test]
fn snapshot_halfsies1_game() {
    let game = replay(HALFSIES1, None);
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    for id in ["halfsies1/C", "halfsies1/G", "halfsies1/K", "halfsies1/L"] {
        assert!(svg.contains(&format!("data-tile=\"{id}\"")), "{id}");
    }
    // C and L fill (0, -1); G at (1, 0) and K at (-1, 0) are alone.
    assert_eq!(svg.matches("class=\"gap\"").count(), 2);
    assert!(svg.contains("RED 29 pts, 3 left, 0 halves"));
    // Before anybody plays, each hand holds two halves.
    let start = board_svg(&replay(HALFSIES1, Some(0)), &BoardOptions::default());
    assert_eq!(start.matches(", 2 halves").count(), 2);
    insta::assert_snapshot!("halfsies1_end", svg);
}

/// The 20th-anniversary river: the double-size source (its spring in the
/// middle), lakes at both ends, bridges.
#[test]
fn snapshot_river20_game() {
    let game = replay(RIVER20, None);
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    assert!(svg.contains("data-tile=\"river20/Q\""));
    // The spring, the two lakes.
    assert_eq!(svg.matches("class=\"pond\"").count(), 3);
    insta::assert_snapshot!("river20_end", svg);
}

/// Where the elements with `attr` stand: the `translate(x,y)` of each.
fn places(svg: &str, attr: &str) -> Vec<(f64, f64)> {
    svg.lines()
        .filter(|l| l.contains(attr))
        .filter_map(|l| {
            let rest = l.split("translate(").nth(1)?;
            let (xy, _) = rest.split_once(')')?;
            let (x, y) = xy.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// The Plague's part of a picture: its tokens and the legend's line.
fn plague_layer(svg: &str) -> String {
    svg.lines()
        .filter(|l| {
            l.contains("data-outbreak=") || l.contains("data-flea=") || l.contains(">Plague: ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tokens drawn for a game position, checked against the engine's state.
fn check_plague_tokens(game: &Game, svg: &str) {
    let p = game.plague().expect("the plague is in play");
    let active = p.outbreaks().iter().filter(|o| o.active).count();
    let gone = p.outbreaks().len() - active;
    assert_eq!(svg.matches("data-side=\"active\"").count(), active);
    assert_eq!(svg.matches("data-side=\"eradicated\"").count(), gone);
    for (i, o) in p.outbreaks().iter().enumerate() {
        let side = if o.active { "active" } else { "eradicated" };
        assert!(svg.contains(&format!("data-outbreak=\"{}\" data-side=\"{side}\"", i + 1)));
    }
    let lively = p.fleas().iter().filter(|f| f.is_active()).count();
    assert_eq!(svg.matches("data-flea=\"active\"").count(), lively);
    assert_eq!(
        svg.matches("data-flea=\"latent\"").count(),
        p.fleas().len() - lively
    );
    let supply = match p.supply() {
        1 => "1 flea in the supply".to_string(),
        n => format!("{n} fleas in the supply"),
    };
    assert!(svg.contains(&format!(">Plague: {supply}")), "{supply}");
    // Every source on the board shows the plague doctor.
    let sources = game
        .board()
        .pieces()
        .iter()
        .filter(|pc| {
            game.catalog()
                .tile(pc.tile)
                .has_tag(Tag::known(plague::SOURCE_TAG))
        })
        .count();
    assert_eq!(svg.matches("data-tag=\"plague\"").count(), sources);
    // No token under a follower: followers stand on other spots.
    let followers = places(svg, "data-player=");
    for (x, y) in places(svg, "data-outbreak=")
        .into_iter()
        .chain(places(svg, "data-flea="))
    {
        for &(fx, fy) in &followers {
            let d = ((x - fx).powi(2) + (y - fy).powi(2)).sqrt();
            assert!(d >= 24.0, "token at {x},{y} under a follower at {fx},{fy}");
        }
    }
}

/// Late in a Plague game: five active outbreaks and the first eradicated
/// (a green token), active fleas in red and latent ones in pink, the empty
/// supply in the legend, the plague doctor on each source.
#[test]
fn snapshot_plague_game() {
    let game = replay(PLAGUE, Some(200));
    let svg = board_svg(
        &game,
        &BoardOptions {
            title: Some("plague: after 200 actions".into()),
            ..BoardOptions::default()
        },
    );
    check_svg(&svg);
    check_plague_tokens(&game, &svg);
    assert!(svg.contains("data-outbreak=\"1\" data-side=\"eradicated\""));
    assert_eq!(svg.matches("data-side=\"active\"").count(), 5);
    assert_eq!(svg.matches("data-flea=\"active\"").count(), 8);
    assert_eq!(svg.matches("data-flea=\"latent\"").count(), 10);
    assert!(svg.contains(">Plague: 0 fleas in the supply, 5 outbreaks active, 1 eradicated<"));
    insta::assert_snapshot!("plague_at_200", svg);
}

/// The Plague's tokens as the game goes: the first outbreaks with their
/// first fleas (supply 15), and the end (two outbreaks eradicated).
#[test]
fn snapshot_plague_tokens_early_and_late() {
    let early = replay(PLAGUE, Some(100));
    let svg = board_svg(&early, &BoardOptions::default());
    check_plague_tokens(&early, &svg);
    assert!(svg.contains(">Plague: 15 fleas in the supply, 2 outbreaks active<"));
    assert!(!svg.contains("data-flea=\"latent\""));
    insta::assert_snapshot!("plague_at_100_tokens", plague_layer(&svg));
    let end = replay(PLAGUE, None);
    let svg = board_svg(&end, &BoardOptions::default());
    check_plague_tokens(&end, &svg);
    assert!(svg.contains(">Plague: 0 fleas in the supply, 4 outbreaks active, 2 eradicated<"));
    insta::assert_snapshot!("plague_end_tokens", plague_layer(&svg));
}

/// Positions through a whole Plague game (every sixth action, the
/// eradications and the end: a board picture takes a while in a test build).
#[test]
fn positions_through_a_plague_game_render() {
    let rec = Record::parse(PLAGUE).expect("parses");
    let mut game = rec.replay_to(0).expect("replays");
    let before = board_svg(&game, &BoardOptions::default());
    assert!(before.contains(">Plague: 18 fleas in the supply, no outbreak yet<"));
    assert!(!before.contains("data-outbreak="));
    for (n, a) in rec.actions.iter().enumerate() {
        let action = a
            .to_action(game.catalog())
            .unwrap_or_else(|e| panic!("action {n}: {e}"));
        game.try_apply(&action)
            .unwrap_or_else(|e| panic!("action {n}: {e}"));
        let done = n + 1;
        if done % 6 != 0 && ![190, 252, rec.actions.len()].contains(&done) {
            continue;
        }
        let svg = board_svg(&game, &BoardOptions::default());
        check_svg(&svg);
        check_plague_tokens(&game, &svg);
    }
}

/// Fleas on half tiles (each half its own), on a monastery half with its
/// monk, an eradicated outbreak with followers on its source, an active
/// one beside it.
#[test]
fn snapshot_plague_tokens_on_halves_and_beside_followers() {
    let cat = Catalog::builtin();
    let t = |id: &str| cat.find(id).unwrap_or_else(|| panic!("{id}"));
    let r = Rotation::from_quarters;
    let mut board = Board::new(16, None);
    board.place(&cat, t("plague/E"), Pos::new(0, 0), r(0));
    board.place(&cat, t("plague/A"), Pos::new(1, 0), r(1));
    board.place(&cat, t("halfsies1/C"), Pos::new(0, 1), r(0));
    board.place(&cat, t("halfsies1/L"), Pos::new(0, 1), r(2));
    board.place(&cat, t("halfsies1/G"), Pos::new(1, 1), r(1));
    board.place(&cat, t("base/D"), Pos::new(-1, 0), r(0));
    board.place(&cat, t("base/B"), Pos::new(-1, 1), r(0));
    let f = |player: usize, piece, feature| Follower {
        player: Seat::new(player).expect("a seat"),
        piece,
        feature,
        figure: bastide_engine::Figure::Normal,
    };
    // A road and a farmer on the eradicated source; monks beside fleas.
    let followers = vec![f(0, 0, 0), f(1, 0, 4), f(1, 4, 0), f(0, 6, 0)];
    let players = vec![PlayerLine::new("RED", 3, 5), PlayerLine::new("BLUE", 0, 5)];
    let plague = PlagueScene {
        outbreaks: vec![
            Outbreak {
                piece: 0,
                active: false,
            },
            Outbreak {
                piece: 1,
                active: true,
            },
        ],
        fleas: vec![
            Flea {
                piece: 2,
                region: Some(1),
            },
            Flea {
                piece: 3,
                region: None,
            },
            Flea {
                piece: 4,
                region: None,
            },
            Flea {
                piece: 5,
                region: Some(1),
            },
            Flea {
                piece: 6,
                region: None,
            },
        ],
        supply: 1,
    };
    let scene = Scene {
        catalog: &cat,
        pieces: board.pieces(),
        followers: &followers,
        players,
        legal: Vec::new(),
        last: None,
        figures: Vec::new(),
        map: None,
        plague: Some(plague),
        highlight: Vec::new(),
        barns: Vec::new(),
        towers: Vec::new(),
    };
    let svg = scene_svg(&scene, &BoardOptions::default());
    check_svg(&svg);
    assert_eq!(svg.matches("data-flea=\"active\"").count(), 2);
    assert_eq!(svg.matches("data-flea=\"latent\"").count(), 3);
    assert!(svg.contains(">Plague: 1 flea in the supply, 1 outbreak active, 1 eradicated<"));
    assert_eq!(svg.matches("data-tag=\"plague\"").count(), 2);
    // The two halves of cell (0, 1) each hold their own flea, in their own
    // triangle: C's right angle is at SW, L's at NE.
    let fleas = places(&svg, "data-flea=");
    let cell = |x: f64, y: f64| ((x - 24.0) / 100.0 - 1.0, (y - 24.0) / 100.0);
    let in_cell: Vec<(f64, f64)> = fleas
        .iter()
        .map(|&(x, y)| cell(x, y))
        .filter(|&(cx, cy)| (0.0..1.0).contains(&cx) && (1.0..2.0).contains(&cy))
        .collect();
    assert_eq!(in_cell.len(), 2, "{fleas:?}");
    // Within the cell, x - y > 0 is the NE triangle.
    let ne = |(cx, cy): (f64, f64)| (cx - 0.0) - (cy - 1.0) > 0.0;
    assert_eq!(in_cell.iter().filter(|&&c| ne(c)).count(), 1, "{in_cell:?}");
    for (x, y) in places(&svg, "data-outbreak=").into_iter().chain(fleas) {
        for (fx, fy) in places(&svg, "data-player=") {
            let d = ((x - fx).powi(2) + (y - fy).powi(2)).sqrt();
            assert!(d >= 24.0, "token at {x},{y} under a follower at {fx},{fy}");
        }
    }
    insta::assert_snapshot!("plague_halves_and_followers", svg);
}

#[test]
fn the_plague_doctor_replaces_the_letter_badge() {
    let cat = Catalog::builtin();
    for id in [
        "plague/A", "plague/B", "plague/C", "plague/D", "plague/E", "plague/F",
    ] {
        for rot in Rotation::ALL {
            let svg = tile_svg(&cat, id, rot).expect("a plague source");
            assert_eq!(svg.matches("data-tag=\"plague\"").count(), 1, "{id}");
            assert!(svg.contains("plague doctor"), "{id}");
            assert!(!svg.contains("class=\"badge\""), "{id}");
        }
    }
}

#[test]
fn the_double_source_has_its_spring_in_the_middle() {
    let cat = Catalog::builtin();
    for rot in Rotation::ALL {
        let svg = tile_svg(&cat, "river20/Q", rot).expect("river20/Q");
        assert_eq!(svg.matches("class=\"pond\"").count(), 1);
        assert!(svg.contains("cx=\"100\" cy=\"50\""), "{}", rot.degrees());
    }
}

#[test]
fn the_gingerbread_man_is_drawn_in_his_city() {
    let mut config = GameConfig::new(2, 5);
    config.base = "winter".into();
    config.expansions = vec!["gingerbread".into()];
    let game = Game::new(config).expect("winter with gingerbread");
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    // He starts in the start tile's city.
    assert_eq!(svg.matches("data-figure=\"gingerbread\"").count(), 1);
}

#[test]
fn output_is_deterministic() {
    let a = board_svg(&replay(BASE_SMALL, None), &BoardOptions::default());
    let b = board_svg(&replay(BASE_SMALL, None), &BoardOptions::default());
    assert_eq!(a, b);
    let cat = Catalog::builtin();
    assert_eq!(catalog_svg(&cat, None).ok(), catalog_svg(&cat, None).ok());
}

fn expected_tile_size(shape: Shape, rot: Rotation) -> (f32, f32) {
    let (long, short) = (216.0, 116.0);
    match (shape, rot.quarters() % 2) {
        (Shape::Double, 0) => (long, short),
        (Shape::Double, _) => (short, long),
        _ => (short, short),
    }
}

fn every_tile_in_every_rotation(cat: &Catalog) -> usize {
    let mut n = 0;
    for def in cat.tiles() {
        for rot in Rotation::ALL {
            let svg = tile_svg(cat, &def.id, rot)
                .unwrap_or_else(|e| panic!("{} at {}: {e}", def.id, rot.degrees()));
            let size = check_svg(&svg);
            assert_eq!(
                size,
                expected_tile_size(def.shape, rot),
                "{} at {}",
                def.id,
                rot.degrees()
            );
            assert!(svg.contains(&format!("data-tile=\"{}\"", def.id)));
            n += 1;
        }
    }
    n
}

#[test]
fn every_builtin_tile_renders_in_all_rotations() {
    let cat = Catalog::builtin();
    let n = every_tile_in_every_rotation(&cat);
    assert!(n >= 4 * 36, "only {n} pictures");
}

#[test]
fn half_and_double_tiles_render_in_all_rotations() {
    let cat = shapes_catalog();
    assert_eq!(every_tile_in_every_rotation(&cat), 4 * cat.tiles().len());
    // A half tile shows the empty half of its cell.
    let svg = tile_svg(&cat, "shapes/half-monastery", Rotation::default()).expect("half");
    assert!(svg.contains("class=\"gap\""));
    // Unknown tags are kept as data, never an error.
    let svg = tile_svg(&cat, "shapes/double-source", Rotation::default()).expect("double");
    assert!(svg.contains("mystery-tag"));
}

#[test]
fn contact_sheets_of_every_set() {
    let cat = Catalog::builtin();
    for set in cat.sets() {
        let svg = catalog_svg(&cat, Some(&set.name)).expect("known set");
        check_svg(&svg);
        for &t in &set.tiles {
            let id = &cat.tile(t).id;
            assert!(svg.contains(&format!("data-tile=\"{id}\"")), "{id} missing");
        }
    }
    check_svg(&catalog_svg(&cat, None).expect("all sets"));
    check_svg(&catalog_svg(&shapes_catalog(), None).expect("shapes"));
}

#[test]
fn every_position_of_a_record_renders() {
    let rec = Record::parse(WINTER_ANIMALS).expect("parses");
    for n in 0..=rec.actions.len() {
        let game = rec.replay_to(n).expect("replays");
        let opts = BoardOptions {
            grid: n % 2 == 0,
            legal: true,
            legend: n % 3 != 0,
            ..BoardOptions::default()
        };
        check_svg(&board_svg(&game, &opts));
    }
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixels decode");
    (info.width, info.height)
}

#[test]
fn png_decodes_with_the_expected_size() {
    let cat = Catalog::builtin();
    let tile = tile_svg(&cat, "base/A", Rotation::default()).expect("base/A");
    assert_eq!(png_size(&svg_to_png(&tile, 1.0).expect("png")), (116, 116));
    assert_eq!(png_size(&svg_to_png(&tile, 2.0).expect("png")), (232, 232));

    let board = board_svg(&replay(BASE_SMALL, None), &BoardOptions::default());
    let (w, h) = svg_size(&board).expect("size");
    let (pw, ph) = png_size(&svg_to_png(&board, 1.5).expect("png"));
    assert_eq!((pw, ph), ((w * 1.5).ceil() as u32, (h * 1.5).ceil() as u32));
    // Four columns of 80-pixel cells and margins: a sensible picture.
    assert!(w > 4.0 * 80.0 && h > 3.0 * 80.0, "{w}x{h}");
}

#[test]
fn bad_requests_say_what_to_do() {
    let cat = Catalog::builtin();
    let e = tile_svg(&cat, "base/Z", Rotation::default()).expect_err("no such tile");
    assert!(matches!(e, RenderError::UnknownTile(_)));
    assert!(e.to_string().contains("base/D"), "{e}");
    let e = catalog_svg(&cat, Some("nope")).expect_err("no such set");
    assert!(e.to_string().contains("base"), "{e}");
    let e = svg_to_png("<svg", 1.0).expect_err("not SVG");
    assert!(matches!(e, RenderError::Svg(_)));
    let tile = tile_svg(&cat, "base/A", Rotation::default()).expect("base/A");
    assert!(matches!(
        svg_to_png(&tile, 0.0),
        Err(RenderError::Size { .. })
    ));
}

#[test]
fn a_highlighted_feature_outlines_every_piece_of_it() {
    let game = replay(BASE_SMALL, None);
    // The start tile's road runs W–E; highlight it and compare with the
    // engine's own member list.
    let mut scene = Scene::of_game(&game);
    scene
        .highlight_feature(&game, Pos::new(0, 0), None, bastide_engine::Place::E)
        .expect("a road lies there");
    let road = game
        .feature_at(Pos::new(0, 0), None, bastide_engine::Place::E)
        .unwrap();
    let mut want: Vec<u16> = game.feature(road).segments().map(|(pi, _)| pi).collect();
    want.sort_unstable();
    want.dedup();
    assert!(want.len() > 1, "the start road has grown");
    assert_eq!(scene.highlight, want);
    let svg = scene_svg(&scene, &BoardOptions::default());
    assert_eq!(svg.matches("class=\"highlight\"").count(), want.len());
    // Nothing there: a clear error.
    let e = scene
        .highlight_feature(&game, Pos::new(40, 40), None, bastide_engine::Place::N)
        .unwrap_err();
    assert!(e.to_string().contains("no feature to highlight"));
}

/// A Traders & Builders game where BLUE takes a wine token (the scenario
/// record `goods_go_to_the_completer`).
const GOODS: &str =
    include_str!("../../engine/tests/scenarios/traders-builders/goods_go_to_the_completer.json");

#[test]
fn goods_symbols_replace_the_letter_badge() {
    let cat = Catalog::builtin();
    for (id, tag) in [
        ("traders-builders/A", "grain"),
        ("traders-builders/B", "wine"),
        ("traders-builders/C", "cloth"),
    ] {
        for rot in Rotation::ALL {
            let svg = tile_svg(&cat, id, rot).expect("a Traders & Builders tile");
            assert_eq!(
                svg.matches(&format!("data-tag=\"{tag}\"")).count(),
                1,
                "{id}"
            );
            assert!(svg.contains(&format!("trade goods: {tag}")), "{id}");
            assert!(!svg.contains("class=\"badge\""), "{id}");
        }
    }
}

#[test]
fn the_legend_shows_each_players_goods() {
    let scenario: serde_json::Value = serde_json::from_str(GOODS).expect("scenario JSON");
    let game = replay(&scenario["record"].to_string(), None);
    let opts = BoardOptions {
        legend: true,
        ..BoardOptions::default()
    };
    let svg = board_svg(&game, &opts);
    check_svg(&svg);
    // BLUE completed the wine city; RED scored it and took nothing.
    assert!(svg.contains("0 wine 0 grain 0 cloth"), "{svg}");
    assert!(svg.contains("1 wine 0 grain 0 cloth"), "{svg}");
    // Without Traders & Builders no goods are named.
    let base = replay(BASE_SMALL, None);
    assert!(!board_svg(&base, &opts).contains(" wine "));
}

/// An Abbey & Mayor game where BLUE's barn stands on the corner shared by
/// (0,0), (1,0), (0,1) and (1,1) (the scenario record
/// `barn_with_farmers_scores_three_per_city`).
const BARN: &str = include_str!(
    "../../engine/tests/scenarios/abbey-mayor/barn_with_farmers_scores_three_per_city.json"
);

#[test]
fn a_barn_is_drawn_on_its_corner_point() {
    let scenario: serde_json::Value = serde_json::from_str(BARN).expect("scenario JSON");
    let game = replay(&scenario["record"].to_string(), None);
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    assert_eq!(svg.matches("data-figure=\"barn\"").count(), 1);
    assert!(svg.contains("<title>Barn (BLUE)</title>"));
    // Not before the barn action.
    let before = replay(&scenario["record"].to_string(), Some(7));
    assert!(!board_svg(&before, &BoardOptions::default()).contains("data-figure=\"barn\""));
}

/// Abbey & Mayor's abbey is drawn apart from a monastery: walled paved
/// ground instead of a field, with the monastery on it.
#[test]
fn the_abbey_tile_is_walled_ground_with_a_monastery() {
    let cat = Catalog::builtin();
    let svg = tile_svg(&cat, "abbey-mayor/abbey", Rotation::default()).expect("the abbey");
    check_svg(&svg);
    assert!(svg.contains("data-tile=\"abbey-mayor/abbey\""));
    assert!(svg.contains("class=\"abbey\""), "paved ground");
    assert!(!svg.contains("class=\"field\""), "no field on an abbey");
    assert!(svg.contains("class=\"mroof\""), "the monastery on it");
    let monastery = tile_svg(&cat, "base/B", Rotation::default()).expect("base/B");
    assert!(!monastery.contains("class=\"abbey\""));
}

#[test]
fn the_mayor_and_the_wagon_are_drawn() {
    // RED's mayor in the city of (0,-1), BLUE's wagon on the road of (1,0).
    const REC: &str = r#"{"format": 1,
      "config": {"players": ["RED", "BLUE"], "expansions": ["abbey-mayor"], "seed": 1,
                 "deck": ["base/N", "base/U", "base/E"]},
      "actions": [
        {"place": {"tile": "base/N", "x": 0, "y": -1, "rotation": 180}},
        {"follower": {"x": 0, "y": -1, "place": "S", "figure": "mayor"}},
        {"place": {"tile": "base/U", "x": 1, "y": 0, "rotation": 0}},
        {"follower": {"x": 1, "y": 0, "place": "E", "figure": "wagon"}}]}"#;
    let game = replay(REC, None);
    let svg = board_svg(&game, &BoardOptions::default());
    check_svg(&svg);
    assert_eq!(svg.matches("data-figure=\"mayor\"").count(), 1);
    assert_eq!(svg.matches("data-figure=\"wagon\"").count(), 1);
    // Each in its owner's colour: RED's mayor, BLUE's wagon.
    let mayor = svg.find("data-figure=\"mayor\"").expect("mayor");
    let wagon = svg.find("data-figure=\"wagon\"").expect("wagon");
    assert!(svg[..mayor].rfind("data-player=\"RED\"") > svg[..mayor].rfind("data-player=\"BLUE\""));
    assert!(svg[..wagon].rfind("data-player=\"BLUE\"") > svg[..wagon].rfind("data-player=\"RED\""));
}

/// The Tower: `tests/scenarios/tower/capture_tower_top_reopens_tower.json`.
const TOWER: &str = include_str!("data/tower.json");

#[test]
fn towers_by_height_with_the_follower_on_top_and_prisoners() {
    // After action 7 RED stands on top of the tower at (0,1) (height 1);
    // (0,2) is an empty foundation.
    let svg = board_svg(&replay(TOWER, Some(7)), &BoardOptions::default());
    check_svg(&svg);
    assert_eq!(svg.matches("data-tower=\"1\"").count(), 1, "{svg}");
    assert_eq!(svg.matches("data-tower=\"0\"").count(), 1);
    assert!(svg.contains("RED 0 pts, 6 left, 10 floors, 0 prisoners"));
    assert!(svg.contains("BLUE 0 pts, 7 left, 9 floors, 0 prisoners"));
    // At the end BLUE's floor on (0,2) took RED's follower: both towers
    // have height 1, nobody is on top, and BLUE holds one prisoner.
    let svg = board_svg(&replay(TOWER, None), &BoardOptions::default());
    assert_eq!(svg.matches("data-tower=\"1\"").count(), 2);
    assert!(svg.contains("BLUE 0 pts, 7 left, 8 floors, 1 prisoner"));
}
