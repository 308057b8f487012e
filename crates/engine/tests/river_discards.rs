//! How many river tiles random games lose (issue 12): a measurement, not a
//! check, so it is ignored by default. Run it with
//!
//! ```text
//! cargo test --release -p bastide-engine --test river_discards -- --ignored --nocapture
//! ```
//!
//! Each game is played by the uniform random player until no river tile is
//! left to draw; a river tile that is not on the board by then was discarded
//! (it fit nowhere). `BASTIDE_GAMES` sets the number of games per river set
//! (default 2000).

use bastide_engine::expansions::river;
use bastide_engine::rng::Rng;
use bastide_engine::Reason;
use bastide_engine::Shape;
use bastide_engine::{Action, Game, GameConfig, Tag};

/// Outcome of one game's river phase.
struct RiverRun {
    /// River tiles in the pile at the start (the start tile excluded).
    drawn: usize,
    /// River tiles that never reached the board.
    lost: usize,
    /// Whether a lake was among them.
    lake_lost: bool,
    /// Half tiles played while a river tile was drawn or still in the pile.
    halves_in_river: usize,
    /// River tiles discarded while two open ends faced one cell.
    lost_facing: usize,
}

fn river_in_pile(game: &Game) -> usize {
    let cat = game.catalog();
    game.pile_in_order()
        .chain(game.drawn_tile())
        .filter(|t| cat.tile(*t).is_river)
        .count()
}

fn lakes_on_board(game: &Game) -> usize {
    let cat = game.catalog();
    game.board()
        .pieces()
        .iter()
        .filter(|p| cat.tile(p.tile).has_tag(Tag::known(river::LAKE)))
        .count()
}

fn lakes_in(game: &Game) -> usize {
    let cat = game.catalog();
    game.pile_in_order()
        .chain(game.drawn_tile())
        .filter(|t| cat.tile(*t).has_tag(Tag::known(river::LAKE)))
        .count()
}

fn play_river(cfg: GameConfig) -> RiverRun {
    let seed = cfg.seed;
    let mut game = Game::new(cfg).expect("valid config");
    let on_board = |g: &Game| {
        g.board()
            .pieces()
            .iter()
            .filter(|p| g.catalog().tile(p.tile).is_river)
            .count()
    };
    let start_pieces = on_board(&game);
    let drawn = river_in_pile(&game);
    let lakes = lakes_in(&game) + lakes_on_board(&game);
    let mut rng = Rng::new(seed ^ 0x0005_EED5_0F21_7E45);
    let mut buf: Vec<Action> = Vec::new();
    let mut halves_in_river = 0;
    let mut lost_facing = 0;
    while !game.is_finished() && river_in_pile(&game) > 0 {
        game.legal_actions_into(&mut buf);
        let a = buf[rng.below(buf.len() as u64) as usize];
        if let Action::Place { tile, .. } = a {
            if game.catalog().tile(tile).shape == Shape::Half {
                halves_in_river += 1;
            }
        }
        let before = game.events().len();
        game.apply_legal(&a);
        if game.river().is_some_and(|r| r.has_facing_ends()) {
            lost_facing += game.events()[before..]
                .iter()
                .filter(|e| {
                    e.reason == Reason::Discarded
                        && e.tile.is_some_and(|t| game.catalog().tile(t).is_river)
                })
                .count();
        }
    }
    let placed = on_board(&game) - start_pieces;
    RiverRun {
        drawn,
        lost: drawn - placed,
        lake_lost: lakes_on_board(&game) < lakes,
        halves_in_river,
        lost_facing,
    }
}

/// The river sets measured, with the player count.
const COMBOS: &[(&[&str], usize)] = &[
    (&["river1"], 2),
    (&["river2"], 2),
    (&["river20"], 2),
    (&["river1", "cutcassonne"], 2),
    (&["river2", "cutcassonne"], 2),
    (&["river20", "cutcassonne"], 2),
    (&["river1", "river2"], 2),
    (&["river1", "river2", "cutcassonne"], 2),
    (&["river2", "halfsies1", "halfsies2"], 4),
    (&["river1", "river2", "halfsies1", "halfsies2"], 4),
];

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn river_tiles_lost_in_random_games() {
    let games: u64 = std::env::var("BASTIDE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    println!(
        "| sets | players | games | river tiles drawn | lost per game | lost per game, ends facing one cell | games losing any | games losing a lake | halves played during the river |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (sets, players) in COMBOS {
        let mut lost = 0;
        let mut any = 0;
        let mut lake = 0;
        let mut halves = 0;
        let mut facing = 0;
        let mut drawn = 0;
        for seed in 0..games {
            let cfg = GameConfig::from_sets(*players, seed, sets).expect("valid sets");
            let r = play_river(cfg);
            drawn = r.drawn;
            lost += r.lost;
            any += (r.lost > 0) as u64;
            lake += r.lake_lost as u64;
            halves += r.halves_in_river;
            facing += r.lost_facing;
        }
        let pct = |n: u64| 100.0 * n as f64 / games as f64;
        println!(
            "| {} | {players} | {games} | {drawn} | {:.3} | {:.3} | {:.1}% | {:.1}% | {:.3} |",
            sets.join(" + "),
            lost as f64 / games as f64,
            facing as f64 / games as f64,
            pct(any),
            pct(lake),
            halves as f64 / games as f64,
        );
    }
}
