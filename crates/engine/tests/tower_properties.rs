//! Property tests of the Tower over many seeded random games, alone and
//! with the other sets: every listed action is accepted and every floor,
//! tower top, capture or ransom candidate that is accepted is listed (and
//! a refused one changes nothing), followers are conserved across board,
//! tower tops, prisoners and supplies, floors are conserved, a closed tower
//! takes no floor, and replays are identical.

mod common;

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Figure, Game, GameConfig, Phase, Place, TileAt};

/// The combinations played: base game and Winter, with the sets the rules
/// file names an interaction with.
const COMBOS: &[(&str, &[&str])] = &[
    ("base", &["tower"]),
    ("base", &["tower", "inns-cathedrals"]),
    ("base", &["tower", "traders-builders"]),
    ("base", &["tower", "princess-dragon"]),
    ("base", &["tower", "plague"]),
    ("base", &["tower", "halfsies1"]),
    ("base", &["tower", "river1"]),
    (
        "winter",
        &[
            "tower",
            "princess-dragon",
            "traders-builders",
            "inns-cathedrals",
            "gingerbread",
            "halfsies2",
        ],
    ),
];

fn config(seed: u64) -> GameConfig {
    common::config(COMBOS, seed, 5)
}

/// Floors and tower tops on every tile, captures naming every place and
/// tower top of every tile for every seat, ransoms to every seat: what the
/// engine must refuse unless listed.
fn candidates(game: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    let seats = game.player_count() as u8;
    for p in game.board().pieces() {
        let Some(to) = TileAt::new(p.pos, p.corner) else {
            continue;
        };
        v.push(Action::Tower { to });
        for figure in [Figure::Normal, Figure::Big] {
            v.push(Action::TowerTop { to, figure });
            for seat in 0..seats {
                let places = Place::ALL.iter().map(|p| Some(*p));
                for place in places.chain(std::iter::once(None)) {
                    v.push(Action::Capture {
                        at: to,
                        place,
                        seat,
                        figure,
                        exchange: None,
                    });
                }
            }
        }
    }
    for seat in 0..seats {
        v.push(Action::Ransom {
            seat,
            figure: Figure::Normal,
        });
    }
    v.push(Action::Pass);
    v
}

/// Every seat's followers: on features, on tower tops, held as prisoners
/// by others and in the supply make the starting number; the large
/// follower is one; the floors placed and in the supplies make the set-up.
fn check_conservation(game: &Game, per_player: usize, seed: u64) {
    let t = game.tower().expect("the Tower is in play");
    for seat in game.seats() {
        let count = |figure: Figure| {
            let on_board = game
                .followers()
                .iter()
                .filter(|f| f.player == seat && f.figure == figure)
                .count();
            let on_top = t
                .towers()
                .iter()
                .filter(|w| w.top == Some((seat, figure)))
                .count();
            let held = t
                .prisoners()
                .iter()
                .filter(|p| p.owner == seat && p.figure == figure)
                .count();
            on_board + on_top + held
        };
        assert_eq!(
            count(Figure::Normal) + game.players()[seat.index()].supply as usize,
            per_player,
            "seat {seat} lost or gained a follower (seed {seed})"
        );
        if let Some(b) = game.big_followers() {
            assert_eq!(
                count(Figure::Big) + usize::from(b.in_supply(seat)),
                1,
                "seat {seat}: large follower (seed {seed})"
            );
        }
        assert!(
            t.prisoners().iter().all(|p| p.holder != p.owner
                && (p.holder != seat
                    || !t
                        .prisoners()
                        .iter()
                        .any(|q| q.holder == p.owner && q.owner == seat))),
            "two players hold each other's prisoners: the exchange was missed (seed {seed})"
        );
    }
    let n = game.player_count();
    let placed: usize = t.towers().iter().map(|w| usize::from(w.height)).sum();
    let left: usize = game.seats().map(|s| usize::from(t.floors(s))).sum();
    assert_eq!(
        placed + left,
        n * usize::from(bastide_engine::expansions::tower::floors_per_player(n)),
        "floors (seed {seed})"
    );
}

fn play(seed: u64, check_candidates: bool) -> (usize, usize, usize) {
    let cfg = config(seed);
    let mut game = Game::new(cfg.clone()).expect("valid config");
    let mut rec = Record::new(cfg);
    let mut rng = Rng::new(seed ^ 0x70E4);
    let per_player = game.options().followers as usize;
    let codec = ActionCodec::default();
    let (mut floors, mut captures, mut ransoms) = (0, 0, 0);
    let mut steps = 0;
    while !game.is_finished() {
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "a running game has an action (seed {seed})"
        );
        let its_step =
            game.phase() == Phase::Capture || (game.phase() == Phase::Follower && steps % 5 == 0);
        if check_candidates && its_step {
            common::listed_equals_accepted(&game, &legal, &candidates(&game), seed);
        }
        // Every legal action has an index of the action codec, and the
        // index names it back.
        common::codec_round_trip(&game, &legal, &codec, seed);
        if steps % 7 == 0 {
            let _ = codec.observation_tensor(&game, game.current_player());
        }
        // Towers, captures and ransoms are chosen more often than a
        // uniform pick would, so the games exercise them.
        let pick = legal
            .iter()
            .copied()
            .filter(|a| {
                matches!(
                    a,
                    Action::Tower { .. } | Action::Capture { .. } | Action::Ransom { .. }
                )
            })
            .collect::<Vec<_>>();
        let a = if !pick.is_empty() && rng.below(3) == 0 {
            pick[rng.below(pick.len() as u64) as usize]
        } else {
            legal[rng.below(legal.len() as u64) as usize]
        };
        floors += usize::from(matches!(a, Action::Tower { .. }));
        captures += usize::from(matches!(a, Action::Capture { .. }));
        ransoms += usize::from(matches!(a, Action::Ransom { .. }));
        rec.actions
            .push(ActionJson::from_action(&a, game.catalog()));
        let closed_before: Vec<TileAt> = game
            .tower()
            .map(|t| {
                t.towers()
                    .iter()
                    .filter(|w| !w.is_open())
                    .filter_map(|w| {
                        let p = game.board().pieces()[w.piece as usize];
                        TileAt::new(p.pos, p.corner)
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Action::Tower { to } = a {
            assert!(
                !closed_before.contains(&to),
                "a floor on a closed tower was listed (seed {seed})"
            );
        }
        game.try_apply(&a).expect("a listed action is accepted");
        check_conservation(&game, per_player, seed);
        steps += 1;
        assert!(steps < 20_000, "the game does not end (seed {seed})");
    }
    let replayed = rec.replay().expect("own record replays");
    assert!(replayed == game, "replay differs (seed {seed})");
    let text = rec.to_json();
    assert_eq!(Record::parse(&text).expect("parses"), rec);
    (floors, captures, ransoms)
}

#[test]
fn random_games_keep_every_invariant_and_replay() {
    let (mut floors, mut captures, mut ransoms) = (0, 0, 0);
    for seed in 0..160u64 {
        let (f, c, r) = play(seed, false);
        floors += f;
        captures += c;
        ransoms += r;
    }
    // The rules are exercised, not skipped.
    assert!(
        floors > 500 && captures > 100 && ransoms > 10,
        "floors {floors}, captures {captures}, ransoms {ransoms}"
    );
}

#[test]
fn legal_actions_are_exactly_the_accepted_ones() {
    for seed in 0..COMBOS.len() as u64 {
        play(seed, true);
    }
}
