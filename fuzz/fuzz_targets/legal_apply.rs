//! Bytes steer a game: each byte either picks a listed action or makes up
//! one. `try_apply` must accept every listed action, and anything it accepts
//! must act like a listed action; a rejected action leaves the game as it was.
#![no_main]

use bastide_engine::{Action, Game, GameConfig, Place, Pos, Rotation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    // Expansion combinations to explore; the second byte picks one.
    const COMBOS: &[(&str, &[&str])] = &[
        ("base", &[]),
        ("winter", &["gingerbread"]),
        ("base", &["river1", "river2"]),
        ("base", &["river20", "cutcassonne"]),
        ("base", &["halfsies1", "halfsies2"]),
        ("base", &["map-chips"]),
        ("winter", &["gingerbread", "halfsies1", "river2", "map-chips"]),
        ("base", &["plague"]),
        ("winter", &["gingerbread", "plague", "halfsies1", "river2"]),
    ];
    let players = 2 + (data[0] % 5) as usize;
    let (base, exps) = COMBOS[(data[1] as usize >> 4) % COMBOS.len()];
    let mut cfg = GameConfig::new(players, (data[1] & 0x0F) as u64 | ((data[0] as u64) << 4));
    cfg.base = base.into();
    cfg.expansions = exps.iter().map(|e| e.to_string()).collect();
    if cfg.expansions.iter().any(|e| e == "map-chips") {
        cfg.map = Some("ukraine".into());
    }
    let Ok(mut game) = Game::new(cfg) else {
        return;
    };
    for chunk in data[2..].chunks(3) {
        if game.is_finished() {
            break;
        }
        let legal = game.legal_actions();
        assert!(!legal.is_empty());
        let b = chunk[0];
        let action = if b < 192 || chunk.len() < 3 {
            legal[b as usize % legal.len()]
        } else {
            let (x, y) = ((chunk[1] % 16) as i32 - 8, (chunk[2] % 16) as i32 - 8);
            match b % 3 {
                0 => Action::Place {
                    tile: game.drawn_tile().unwrap_or(bastide_engine::TileIdx(0)),
                    pos: Pos::new(x, y),
                    rot: Rotation::from_quarters(chunk[2] / 64),
                },
                1 => Action::Follower {
                    pos: Pos::new(x, y),
                    corner: None,
                    place: Place::ALL[(chunk[1] % 16) as usize],
                },
                2 if chunk[1] & 1 == 1 => Action::Gingerbread {
                    pos: Pos::new(x, y),
                    corner: None,
                    place: Place::ALL[(chunk[2] % 16) as usize],
                },
                _ => Action::Pass,
            }
        };
        let before = game.clone();
        match game.try_apply(&action) {
            Ok(()) => {
                let like_listed = legal.iter().any(|l| {
                    let mut g = before.clone();
                    g.try_apply(l).is_ok() && g == game
                });
                assert!(like_listed, "accepted an action unlike any listed one: {action:?}");
            }
            Err(_) => {
                assert!(!legal.contains(&action), "rejected a listed action: {action:?}");
                assert!(game == before, "a rejected action changed the game");
            }
        }
    }
});
