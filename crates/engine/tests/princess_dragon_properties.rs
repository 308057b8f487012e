//! Property tests of the Princess & the Dragon over many seeded random
//! games, alone and with the other sets: every listed action is accepted
//! and every dragon, fairy, princess or portal candidate that is accepted
//! is listed (and a refused one changes nothing), figures are conserved,
//! nothing stands on the dragon's tile after it moved, and replays are
//! identical.

mod common;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, FeatureAt, Figure, Game, GameConfig, Phase, Place, Pos, TileAt};

/// The combinations played: base game and Winter, with the sets the rules
/// file names an interaction with.
const COMBOS: &[(&str, &[&str])] = &[
    ("base", &["princess-dragon"]),
    ("base", &["princess-dragon", "inns-cathedrals"]),
    ("base", &["princess-dragon", "traders-builders"]),
    ("base", &["princess-dragon", "river2"]),
    ("base", &["princess-dragon", "plague"]),
    ("base", &["princess-dragon", "halfsies1"]),
    ("winter", &["princess-dragon", "gingerbread"]),
    (
        "winter",
        &[
            "princess-dragon",
            "traders-builders",
            "inns-cathedrals",
            "gingerbread",
            "plague",
            "river2",
            "halfsies2",
        ],
    ),
];

fn config(seed: u64) -> GameConfig {
    common::config(COMBOS, seed, 4)
}

/// Dragon moves onto every tile, fairy moves and princess removals naming
/// every place of every tile: what the engine must refuse unless listed.
fn candidates(game: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    for p in game.board().pieces() {
        let Some(to) = TileAt::new(p.pos, p.corner) else {
            continue;
        };
        v.push(Action::Dragon { to });
        v.push(Action::Fairy {
            at: to,
            place: None,
        });
        for place in &Place::ALL {
            let Some(at) = FeatureAt::new(p.pos, p.corner, *place) else {
                continue;
            };
            v.push(Action::Fairy {
                at: to,
                place: Some(*place),
            });
            for seat in 0..game.player_count() as u8 {
                v.push(Action::Princess {
                    at,
                    seat,
                    figure: Figure::Normal,
                });
            }
            v.push(Action::Follower {
                pos: p.pos,
                corner: p.corner,
                place: *place,
                figure: Figure::Normal,
            });
        }
    }
    v.push(Action::Dragon {
        to: TileAt {
            x: 40,
            y: 40,
            half: None,
        },
    });
    v.push(Action::Pass);
    v
}

/// Checks the figures of every seat: normal followers on the board plus
/// the supply make the starting number; the large follower is one.
fn check_figures(game: &Game, per_player: usize, seed: u64) {
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
        if let Some(b) = game.big_followers() {
            assert_eq!(
                on_board(Figure::Big) + usize::from(b.in_supply(seat)),
                1,
                "seat {seat}: large follower (seed {seed})"
            );
        }
    }
}

fn play(seed: u64, check_candidates: bool) {
    let cfg = config(seed);
    let mut game = Game::new(cfg.clone()).expect("valid config");
    let mut rec = Record::new(cfg);
    let mut rng = Rng::new(seed ^ 0xD7A6);
    let per_player = game.options().followers as usize;
    let codec = ActionCodec::default();
    let mut steps = 0;
    while !game.is_finished() {
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "a running game has an action (seed {seed})"
        );
        // The steps where this expansion's actions live.
        // Every dragon step, and one follower step in three (each check
        // tries thousands of candidates on a copy of the game).
        let its_step =
            game.phase() == Phase::Dragon || (game.phase() == Phase::Follower && steps % 3 == 0);
        if check_candidates && its_step {
            common::listed_equals_accepted(&game, &legal, &candidates(&game), seed);
        }
        // Every legal action has an index of the action codec, and the
        // index names it back.
        common::codec_round_trip(&game, &legal, &codec, seed);
        // The observation tensor is written in full (each expansion checks
        // its globals' count in debug builds).
        if steps % 7 == 0 {
            let _ = codec.observation_tensor(&game, game.current_player());
        }
        let a = legal[rng.below(legal.len() as u64) as usize];
        rec.actions
            .push(ActionJson::from_action(&a, game.catalog()));
        game.try_apply(&a).expect("a listed action is accepted");
        check_figures(&game, per_player, seed);
        if let Action::Dragon { to } = a {
            let here: Vec<_> = game
                .followers()
                .iter()
                .filter(|f| {
                    let p = game.board().pieces()[f.piece as usize];
                    p.pos == Pos::new(to.x.into(), to.y.into()) && p.corner == to.half
                })
                .collect();
            assert!(
                here.is_empty(),
                "figures left on the dragon's tile: {here:?} (seed {seed})"
            );
        }
        steps += 1;
        assert!(steps < 20_000, "the game does not end (seed {seed})");
    }
    let replayed = rec.replay().expect("own record replays");
    assert!(replayed == game, "replay differs (seed {seed})");
    let text = rec.to_json();
    assert_eq!(Record::parse(&text).expect("parses"), rec);
}

#[test]
fn random_games_keep_every_invariant_and_replay() {
    for seed in 0..240u64 {
        play(seed, false);
    }
}

#[test]
fn legal_actions_are_exactly_the_accepted_ones() {
    for seed in 0..COMBOS.len() as u64 {
        play(seed, true);
    }
}

#[test]
fn the_dragon_comes_into_play_and_moves() {
    // Over many games the volcano brings the dragon in and dragon tiles
    // make it move: the rules are exercised, not skipped.
    let mut moved = 0;
    let mut fairy = 0;
    for seed in 0..40u64 {
        let mut cfg = GameConfig::new(2, seed);
        cfg.expansions = vec!["princess-dragon".into()];
        let mut game = Game::new(cfg).expect("valid config");
        let mut rng = Rng::new(seed);
        let mut buf = Vec::new();
        while let Some(a) = game.random_action(&mut rng, &mut buf) {
            moved += usize::from(matches!(a, Action::Dragon { .. }));
            fairy += usize::from(matches!(a, Action::Fairy { .. }));
            game.apply_legal(&a);
        }
        let s = game.princess_dragon().expect("in play");
        assert!(
            s.dragon().is_some(),
            "six volcanoes: the dragon is in play (seed {seed})"
        );
        assert!(
            s.set_aside().is_empty(),
            "set-aside tiles came back (seed {seed})"
        );
    }
    assert!(
        moved > 100 && fairy > 10,
        "dragon moves {moved}, fairy moves {fairy}"
    );
}
