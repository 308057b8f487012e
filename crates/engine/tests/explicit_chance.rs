//! Explicit chance never reads the seeded pile: two explicit-chance games
//! that differ only in their seed, fed the same chance outcomes and the same
//! actions, give every seat the same observation, observation tensor, JSON
//! view, legal actions, tiles left and returns at every step; and a live
//! game is the game its own record replays (the chance outcomes as the
//! record's deck). Random games of every expansion alone and of the
//! combinations that meet in the hooks (issue 42).

use bastide_engine::openspiel::{explicit_record, ActionCodec, Node, Outcome, State};
use bastide_engine::rng::Rng;
use bastide_engine::{Action, Game, GameConfig, Seat, Shape};

/// Every expansion alone and the combinations that meet in the hooks.
const COMBOS: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("winter", &[]),
    ("base", &["river1"]),
    ("base", &["river2"]),
    ("base", &["river20"]),
    ("base", &["river1", "cutcassonne"]),
    ("base", &["river1", "river2"]),
    ("base", &["halfsies1"]),
    ("base", &["halfsies1", "halfsies2"]),
    ("base", &["plague"]),
    ("winter", &["gingerbread"]),
    ("base", &["inns-cathedrals"]),
    ("base", &["traders-builders", "plague"]),
    ("base", &["ukraine"]),
    ("base", &["ukraine", "plague"]),
    ("base", &["map-chips"]),
    ("base", &["map-chips", "halfsies1", "plague"]),
    ("base", &["river1", "halfsies1"]),
    ("base", &["plague", "halfsies1", "halfsies2"]),
    ("winter", &["plague", "gingerbread", "river2", "halfsies1"]),
    (
        "base",
        &["inns-cathedrals", "river2", "plague", "halfsies2"],
    ),
];

/// Half-and-half's deal is chance nodes; with `fixed_hands` the
/// configuration fixes the hands instead (no deal).
fn config(players: usize, seed: u64, base: &str, exps: &[&str], fixed_hands: bool) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.base = base.to_string();
    c.expansions = exps
        .iter()
        .filter(|e| **e != "ukraine")
        .map(|s| s.to_string())
        .collect();
    if exps.contains(&"ukraine") || exps.contains(&"map-chips") {
        c.map = Some("ukraine".into());
    }
    if fixed_hands && exps.iter().any(|e| e.starts_with("halfsies")) {
        let set = exps.iter().find(|e| e.starts_with("halfsies")).copied();
        let prefix = set.unwrap_or("halfsies1");
        let ids = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"];
        c.hands = Some(
            (0..players)
                .map(|p| {
                    (0..2)
                        .map(|k| format!("{prefix}/{}", ids[(2 * p + k) % ids.len()]))
                        .collect()
                })
                .collect(),
        );
    }
    c
}

/// Checks that every seat sees the same in both games.
fn same_for_every_seat(a: &State, b: &State, codec: &ActionCodec, at: &str) {
    assert_eq!(a.node(), b.node(), "node, {at}");
    assert_eq!(a.chance_outcomes(), b.chance_outcomes(), "chance, {at}");
    assert_eq!(a.legal_actions(), b.legal_actions(), "legal, {at}");
    assert_eq!(a.returns(), b.returns(), "returns, {at}");
    assert_eq!(
        a.game().tiles_left(),
        b.game().tiles_left(),
        "tiles left, {at}"
    );
    for seat in a.game().seats() {
        assert_eq!(
            a.observation(seat),
            b.observation(seat),
            "observation, {at}"
        );
        assert_eq!(
            codec.state_tensor(a, seat),
            codec.state_tensor(b, seat),
            "tensor, {at}"
        );
        assert_eq!(
            a.game().view_json(seat),
            b.game().view_json(seat),
            "view, {at}"
        );
    }
}

/// One step of both games: the same chance outcome or the same action.
enum Step {
    Chance(Outcome),
    Act(Action),
}

fn pick(s: &State, rng: &mut Rng) -> Option<Step> {
    match s.node() {
        Node::Terminal => None,
        Node::Chance => {
            let o = s.chance_outcomes();
            let total: f64 = o.iter().map(|x| x.1).sum();
            assert!((total - 1.0).abs() < 1e-9, "chance sums to {total}");
            // Now and then a tile that fits nowhere, if there is one, so
            // that discards are tried often.
            if rng.below(2) == 0 {
                let unplaceable = o.iter().map(|x| x.0).find(|t| {
                    let mut probe = s.clone();
                    probe.apply_chance(*t).is_ok() && probe.is_chance()
                });
                if let Some(t) = unplaceable {
                    return Some(Step::Chance(t));
                }
            }
            Some(Step::Chance(o[rng.below(o.len() as u64) as usize].0))
        }
        Node::Player(_) => {
            let l = s.legal_actions();
            assert!(!l.is_empty(), "a player node with no legal action");
            Some(Step::Act(l[rng.below(l.len() as u64) as usize]))
        }
    }
}

/// The observations of every seat of a game.
fn observed(g: &Game) -> Vec<bastide_engine::openspiel::Observation> {
    g.seats().map(|s| g.observation(s)).collect()
}

#[test]
fn two_seeds_fed_the_same_outcomes_look_the_same_to_every_seat() {
    let codec = ActionCodec::default();
    let mut steps = 0usize;
    let mut discarded = 0usize;
    let mut chips = 0usize;
    let mut returned = 0usize;
    for (n, (base, exps)) in COMBOS.iter().enumerate() {
        for game in 0..3u64 {
            let players = 2 + ((game as usize + n) % 3);
            let fixed = game == 2;
            let mut a = State::new(config(players, 3 + game, base, exps, fixed)).expect("config");
            let mut b =
                State::new(config(players, 82 + 7 * game, base, exps, fixed)).expect("config");
            let mut rng = Rng::new(1000 * n as u64 + game);
            let mut draws = Vec::new();
            let mut actions = Vec::new();
            let mut i = 0usize;
            loop {
                let at = format!("{base}+{} game {game} step {i}", exps.join("+"));
                same_for_every_seat(&a, &b, &codec, &at);
                let Some(step) = pick(&a, &mut rng) else {
                    break;
                };
                match step {
                    Step::Chance(t) => {
                        let left = a.game().tiles_left();
                        a.apply_chance(t).expect("outcome");
                        b.apply_chance(t).expect("outcome");
                        // A half dealt or a chip leaves the pile as it was.
                        let drawn = usize::from(matches!(t, Outcome::Tile(t)
                            if a.game().catalog().tile(t).shape != Shape::Half));
                        assert_eq!(a.game().tiles_left() + drawn, left, "one tile drawn, {at}");
                        if a.is_chance() {
                            discarded += 1;
                        }
                        chips += usize::from(matches!(t, Outcome::Token(_)));
                        draws.push(t);
                    }
                    Step::Act(x) => {
                        // Only a chance outcome moves the counts.
                        let left = a.game().tiles_left();
                        a.apply(&x).expect("legal");
                        b.apply(&x).expect("legal");
                        assert_eq!(a.game().tiles_left(), left, "{x:?} moved the pile, {at}");
                        actions.push(x);
                        // A live game is its own record replayed (checked
                        // now and then: a replay costs the whole game).
                        if actions.len() % 8 != 0 && !a.game().is_finished() {
                            i += 1;
                            steps += 1;
                            continue;
                        }
                        // Also once chips went back into the supply (a
                        // Chumak square built): `chip_draws` holds across
                        // the reshuffle.
                        returned += usize::from(
                            a.game()
                                .chips()
                                .is_some_and(|c| c.squares.iter().any(|q| q.built)),
                        );
                        let record =
                            explicit_record(a.game().config().clone(), a.game(), &draws, &actions);
                        let replayed = record.replay().unwrap_or_else(|e| {
                            panic!("replay, {at}: {e}; deck {:?}", record.config.deck)
                        });
                        if !a.is_chance() {
                            assert_eq!(observed(&replayed), observed(a.game()), "replay, {at}");
                        }
                    }
                }
                i += 1;
                steps += 1;
            }
            assert!(a.game().is_finished(), "finished");
            let r = a.returns();
            assert!(r.iter().sum::<f64>().abs() < 1e-9);
        }
    }
    assert!(steps > 5000, "only {steps} steps");
    // Draws that fit nowhere go through chance too.
    assert!(discarded > 0, "no chance outcome was discarded");
    // Map Chips' chips go through chance too.
    assert!(chips > 20, "only {chips} chips were chance outcomes");
    // Records replayed after chips went back into the supply.
    assert!(returned > 0, "no replay after a Chumak square was built");
}

#[test]
fn the_seat_to_choose_a_half_or_the_draw_chooses_before_chance() {
    let mut s = State::new(config(2, 3, "base", &["halfsies1"], true)).expect("config");
    let mut rng = Rng::new(5);
    let mut choices = 0;
    while let Some(step) = pick(&s, &mut rng) {
        if let Node::Player(seat) = s.node() {
            let l = s.legal_actions();
            if l.contains(&Action::Draw) {
                choices += 1;
                // Nothing is drawn while the seat chooses.
                assert_eq!(s.game().drawn_tile(), None);
                assert_eq!(s.observation(seat).drawn, None);
                let mut t = s.clone();
                t.apply(&Action::Draw).expect("draw");
                assert_eq!(t.node(), Node::Chance);
                assert_eq!(t.game().tiles_left(), s.game().tiles_left());
            }
        }
        match step {
            Step::Chance(t) => s.apply_chance(t).expect("outcome"),
            Step::Act(x) => s.apply(&x).expect("legal"),
        }
    }
    assert!(choices > 3, "only {choices} choices");
    let _ = Seat::new(0);
}

#[test]
fn the_half_and_half_deal_is_chance_round_the_table() {
    let mut a = State::new(config(3, 3, "base", &["halfsies1"], false)).expect("config");
    let b = State::new(config(3, 82, "base", &["halfsies1"], false)).expect("config");
    assert_eq!(a.chance_outcomes(), b.chance_outcomes(), "no seed shows");
    let cat = a.game().catalog().clone();
    let mut dealt = Vec::new();
    for k in 0..6 {
        assert_eq!(a.node(), Node::Chance, "deal {k}");
        let o = a.chance_outcomes();
        assert!(
            o.iter()
                .all(|(t, _)| matches!(t, Outcome::Tile(t) if cat.tile(*t).shape == Shape::Half)),
            "halves only"
        );
        let t = o[k % o.len()].0;
        let left = a.game().tiles_left();
        a.apply_chance(t).expect("a half is an outcome");
        assert_eq!(a.game().tiles_left(), left, "the pile is not touched");
        dealt.push(t);
    }
    let hands = &a.game().halves().expect("halves").hands;
    for (seat, hand) in hands.iter().enumerate() {
        let hand: Vec<Outcome> = hand.iter().map(|t| Outcome::Tile(*t)).collect();
        assert_eq!(hand, vec![dealt[seat], dealt[seat + 3]], "seat {seat}");
    }
    // The deal over, the first seat chooses a half or the draw.
    assert_eq!(a.node(), Node::Player(Seat::default()));
    // A tile kind is not a deal outcome, nor a half once the deal is over.
    let mut c = State::new(config(2, 3, "base", &["halfsies1"], false)).expect("config");
    let tile = c.game().catalog().find("base/U").expect("base/U");
    assert!(c.apply_chance(tile).is_err());
}
