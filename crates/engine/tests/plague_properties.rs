//! Property tests of the Plague over many seeded random games: games finish,
//! the 18 fleas and 6 outbreak tokens are conserved after every action,
//! followers are conserved, the plague's invariants hold (no flea on a source,
//! no follower on a flea tile, every active flea belongs to an active
//! outbreak), replays reproduce the game, and `legal_actions` and `try_apply`
//! agree on plague actions.

use std::collections::HashSet;

use bastide_engine::expansions::plague::{self, FeatureAt, TileAt, FLEAS, OUTBREAKS};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, GameConfig, Phase, Place};

fn config(players: usize, seed: u64, expansions: &[&str], base: &str) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.base = base.to_string();
    c.expansions = expansions.iter().map(|s| s.to_string()).collect();
    c
}

const COMBOS: &[&[&str]] = &[
    &["plague"],
    &["river1", "plague"],
    &["plague"],
    &["river2", "plague"],
    &["river20", "plague"],
];

/// What random games went through, to be sure the tests reach the rules.
#[derive(Default, Debug)]
struct Seen {
    outbreaks: usize,
    spreads_from_supply: usize,
    moves: usize,
    moves_of_active: usize,
    flights: usize,
    removed: usize,
    eradicated: usize,
    latent: usize,
}

fn check_invariants(game: &Game, per_player: usize, seed: u64) {
    let p = game.plague().expect("plague in play");
    let cat = game.catalog();
    let pieces = game.board().pieces();
    // Tokens are conserved.
    assert_eq!(
        p.supply() as usize + p.fleas().len(),
        FLEAS as usize,
        "fleas lost or gained (seed {seed})"
    );
    let sources = pieces
        .iter()
        .filter(|pc| plague::is_source(cat, pc.tile))
        .count();
    assert_eq!(
        p.outbreaks().len(),
        sources.min(OUTBREAKS),
        "one outbreak token per source (seed {seed})"
    );
    // One flea per tile at most, never on a source.
    let mut on: HashSet<u16> = HashSet::new();
    for f in p.fleas() {
        assert!(on.insert(f.piece), "two fleas on one tile (seed {seed})");
        assert!(
            !plague::is_source(cat, pieces[f.piece as usize].tile),
            "a flea on a source (seed {seed})"
        );
        if let Some(r) = f.region {
            assert!(
                p.outbreaks()[r as usize].active,
                "an active flea of an eradicated outbreak (seed {seed})"
            );
        }
    }
    // Once the plague has broken out, an outbreak stays active.
    if p.started() {
        assert!(
            p.outbreaks().iter().any(|o| o.active),
            "no active outbreak left (seed {seed})"
        );
    }
    // No follower stands on a flea tile (the last piece may hold one only
    // through a follower placed before... never: followers go home).
    for f in game.followers() {
        assert!(
            p.flea_on(f.piece).is_none(),
            "a follower on a flea tile (seed {seed})"
        );
        assert!(
            p.active_outbreak_on(f.piece).is_none() || Some(f.piece) != game.last_piece(),
            "a follower on a new outbreak (seed {seed})"
        );
    }
    // Followers are conserved.
    for seat in 0..game.player_count() {
        let on_board = game
            .followers()
            .iter()
            .filter(|f| f.player.index() == seat)
            .count();
        assert_eq!(
            on_board + game.players()[seat].supply as usize,
            per_player,
            "seat {seat} lost or gained a follower (seed {seed})"
        );
    }
    // Scores are the sum of the events.
    let mut sums = vec![0u32; game.player_count()];
    for e in game.events() {
        for (seat, s) in sums.iter_mut().enumerate() {
            *s += e.points[seat];
        }
    }
    assert_eq!(
        sums,
        game.scores(),
        "scores differ from events (seed {seed})"
    );
}

fn play(cfg: GameConfig, seen: &mut Seen) -> (Game, Record) {
    let seed = cfg.seed;
    let mut game = Game::new(cfg.clone()).expect("valid config");
    let mut rec = Record::new(cfg);
    let mut rng = Rng::new(seed ^ 0x9_1A6E);
    let per_player = game.options().followers as usize;
    let mut steps = 0;
    while !game.is_finished() {
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "a running game always has an action");
        let a = legal[rng.below(legal.len() as u64) as usize];
        let before = game.plague().cloned().expect("plague");
        let events = game.events().len();
        rec.actions
            .push(ActionJson::from_action(&a, game.catalog()));
        game.try_apply(&a).expect("a listed action is accepted");
        match a {
            Action::Flea { from: None, .. } => seen.spreads_from_supply += 1,
            Action::Flea { from: Some(_), .. } => {
                seen.moves += 1;
                if before.fleas().iter().all(|f| f.is_active()) {
                    seen.moves_of_active += 1;
                }
            }
            Action::Flee { .. } => seen.flights += 1,
            _ => {}
        }
        for e in &game.events()[events..] {
            match e.reason.name() {
                "outbreak" => seen.outbreaks += 1,
                "plague" => seen.removed += 1,
                "eradicated" => seen.eradicated += 1,
                _ => {}
            }
        }
        let p = game.plague().expect("plague");
        if p.fleas().iter().any(|f| !f.is_active()) {
            seen.latent += 1;
        }
        check_invariants(&game, per_player, seed);
        steps += 1;
        assert!(steps < 20_000, "game does not end (seed {seed})");
    }
    assert_eq!(game.phase(), Phase::Over);
    (game, rec)
}

#[test]
fn random_plague_games_finish_and_keep_every_invariant() {
    let mut seen = Seen::default();
    for seed in 0..300u64 {
        let players = 2 + (seed % 5) as usize;
        let combo = COMBOS[seed as usize % COMBOS.len()];
        let base = if seed % 7 == 3 { "winter" } else { "base" };
        let cfg = config(players, seed, combo, base);
        let start = Game::new(cfg.clone()).unwrap();
        let total = 2 + start.tiles_left();
        let (game, _) = play(cfg, &mut seen);
        // Every tile was placed or discarded.
        let discarded = game
            .events()
            .iter()
            .filter(|e| e.reason.name() == "discarded")
            .count();
        assert_eq!(
            game.board().pieces().len() + discarded,
            total,
            "seed {seed}"
        );
    }
    println!("{seen:?}");
    assert!(seen.outbreaks > 0 && seen.spreads_from_supply > 0 && seen.moves > 0);
    assert!(seen.flights > 0 && seen.removed > 0 && seen.eradicated > 0 && seen.latent > 0);
}

/// Set-up: river tiles first, then 17 base tiles, then the 6 sources
/// shuffled into the rest.
#[test]
fn sources_come_after_seventeen_base_tiles() {
    for seed in 0..200u64 {
        let combo = COMBOS[seed as usize % COMBOS.len()];
        let game = Game::new(config(2, seed, combo, "base")).unwrap();
        let cat = game.catalog();
        let order: Vec<_> = game
            .drawn_tile()
            .into_iter()
            .chain(game.pile_in_order())
            .collect();
        let rivers = order
            .iter()
            .take_while(|t| {
                cat.tile(**t)
                    .features
                    .iter()
                    .any(|f| f.kind == bastide_engine::FeatureKind::River)
            })
            .count();
        let sources: Vec<usize> = order
            .iter()
            .enumerate()
            .filter(|(_, t)| plague::is_source(cat, **t))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(sources.len(), 6, "seed {seed}");
        assert!(
            sources[0] >= rivers + 17,
            "seed {seed}: a source among the first 17"
        );
    }
}

#[test]
fn replaying_a_plague_record_reproduces_the_game() {
    let mut seen = Seen::default();
    for seed in 0..40u64 {
        let combo = COMBOS[seed as usize % COMBOS.len()];
        let (game, rec) = play(
            config(2 + (seed % 3) as usize, seed, combo, "base"),
            &mut seen,
        );
        let again = Record::parse(&rec.to_json()).expect("own record parses");
        assert_eq!(again, rec);
        let replayed = again.replay().expect("own record replays");
        assert!(replayed == game, "replay differs (seed {seed})");
        assert_eq!(replayed.state_json(), game.state_json());
    }
}

/// Plague actions to try besides the listed ones: a flea onto every tile
/// (from the supply and from every tile), flights from every follower of the
/// current player to every place of every tile.
fn candidates(game: &Game) -> Vec<Action> {
    let pieces = game.board().pieces();
    let mut v = vec![Action::Pass];
    for to in pieces {
        let to_at = TileAt::new(to.pos, to.corner).unwrap();
        v.push(Action::Flea {
            to: to_at,
            from: None,
        });
        let fleas = game
            .plague()
            .map(|p| p.fleas().to_vec())
            .unwrap_or_default();
        let froms =
            fleas
                .iter()
                .map(|f| f.piece as usize)
                .chain([0, pieces.len() / 2, pieces.len() - 1]);
        for from in froms {
            let from = pieces[from];
            v.push(Action::Flea {
                to: to_at,
                from: TileAt::new(from.pos, from.corner),
            });
        }
    }
    for f in game.followers() {
        let fp = pieces[f.piece as usize];
        let (fpos, fplace) = game.feature_anchor(f.piece, f.feature);
        for to in pieces.iter().rev().take(12) {
            for place in [
                Place::N,
                Place::E,
                Place::S,
                Place::W,
                Place::Nnw,
                Place::Sse,
                Place::C,
            ] {
                v.push(Action::Flee {
                    from: FeatureAt::new(fpos, fp.corner, fplace).unwrap(),
                    to: FeatureAt::new(to.pos, to.corner, place).unwrap(),
                });
            }
        }
    }
    v
}

#[test]
fn legal_actions_and_try_apply_agree_with_the_plague() {
    for seed in 0..15u64 {
        let combo = COMBOS[seed as usize % COMBOS.len()];
        let mut game = Game::new(config(2 + (seed % 3) as usize, seed, combo, "base")).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_finished() {
            let legal = game.legal_actions();
            let listed: HashSet<Action> = legal.iter().copied().collect();
            assert_eq!(listed.len(), legal.len(), "an action is listed twice");
            for a in &legal {
                let mut g = game.clone();
                assert!(g.try_apply(a).is_ok(), "listed but rejected: {a:?}");
            }
            let plague_turn = game.plague().is_some_and(|p| p.started());
            if plague_turn && game.phase() != Phase::Place && rng.below(4) == 0 {
                for cand in candidates(&game) {
                    let mut g = game.clone();
                    match g.try_apply(&cand) {
                        Err(e) => {
                            assert!(!listed.contains(&cand), "listed but rejected: {cand:?}");
                            assert!(g == game, "a rejected action changed the state");
                            assert!(!e.message.is_empty());
                        }
                        Ok(()) if !listed.contains(&cand) => {
                            let same = legal.iter().any(|l| {
                                let mut h = game.clone();
                                h.try_apply(l).is_ok() && h == g
                            });
                            assert!(
                                same,
                                "accepted but not listed, and unlike any listed action: {cand:?} (seed {seed})"
                            );
                        }
                        Ok(()) => {}
                    }
                }
            }
            let a = legal[rng.below(legal.len() as u64) as usize];
            game.try_apply(&a).unwrap();
        }
    }
}

#[test]
fn plague_actions_before_the_tile_is_placed_are_refused() {
    let mut game = Game::new(config(2, 5, &["plague"], "base")).unwrap();
    let mut rng = Rng::new(5);
    while !game.is_finished() {
        if game.phase() == Phase::Place && game.plague().is_some_and(|p| p.started()) {
            let before = game.clone();
            let pos = game.board().pieces()[0].pos;
            let e = game
                .try_apply(&Action::Flea {
                    to: TileAt::new(pos, None).unwrap(),
                    from: None,
                })
                .unwrap_err();
            assert!(e.message.contains("place the drawn tile first"), "{e}");
            assert!(game == before);
            return;
        }
        let legal = game.legal_actions();
        game.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
    }
    panic!("the plague never broke out");
}

#[test]
fn without_the_plague_nothing_changes() {
    let mut game = Game::new(config(2, 9, &[], "base")).unwrap();
    assert!(game.plague().is_none());
    assert!(!game.state_json().expansions.contains_key("plague"));
    let legal = game.legal_actions();
    game.try_apply(&legal[0]).unwrap();
    let pos = game.board().pieces()[0].pos;
    let e = game
        .try_apply(&Action::Flea {
            to: TileAt::new(pos, None).unwrap(),
            from: None,
        })
        .unwrap_err();
    assert!(e.message.contains("not in play"), "{e}");
}
