//! The observation tensor shows a seat nothing of another seat's hidden
//! Half-and-half hand, even when that seat is to act (its halves are among
//! its legal placements, which the tensor's placement planes must leave
//! out).

use bastide_engine::openspiel::ActionCodec;
use bastide_engine::{Game, GameConfig, Seat, Viewer};

fn seat(i: usize) -> Seat {
    Seat::new(i).expect("a seat")
}

fn game_with_second_hand(hand: [&str; 2]) -> Game {
    let mut c = GameConfig::from_sets(2, 3, &["base", "halfsies1"]).expect("valid sets");
    c.hands = Some(vec![
        vec!["halfsies1/A".into(), "halfsies1/B".into()],
        hand.iter().map(|t| t.to_string()).collect(),
    ]);
    Game::new(c).expect("valid hands")
}

#[test]
fn seat_zero_sees_the_same_whatever_seat_one_holds() {
    let mut a = game_with_second_hand(["halfsies1/C", "halfsies1/D"]);
    let mut b = game_with_second_hand(["halfsies1/E", "halfsies1/F"]);
    let codec = ActionCodec::default();
    // Seat 0 plays its turn the same way in both games.
    while a.current_player().index() == 0 {
        assert_eq!(
            codec.observation_tensor(&a, seat(0)),
            codec.observation_tensor(&b, seat(0))
        );
        let act = a.legal_actions()[0];
        a.try_apply(&act).expect("legal in a");
        b.try_apply(&act).expect("the same position in b");
    }
    // Seat 1 is to act, and its hidden halves make its choices differ...
    assert_ne!(a.legal_actions(), b.legal_actions());
    // ...but not what seat 0 sees.
    assert_eq!(
        codec.observation_tensor(&a, seat(0)),
        codec.observation_tensor(&b, seat(0))
    );
    // The observation (what bots get) is the seat's view: its own hand
    // listed, the other counted, the same in both games for seat 0.
    let seen = a.observation(seat(0));
    assert_eq!(seen, b.observation(seat(0)));
    // (Seat 0 played its first legal action, halfsies1/A.)
    assert_eq!(
        seen.expansion_state["hands"],
        serde_json::json!([["halfsies1/B"], {"hidden": 2}])
    );
    assert_eq!(
        seen.expansion_state,
        a.state_json_as(Viewer::Seat(seat(0))).expansions
    );
    assert_ne!(a.observation(seat(1)), b.observation(seat(1)));
}

/// The public observer (OpenSpiel's `private_info=NONE`) sees the hand
/// sizes but no seat's own halves: a seat's public globals are the same
/// whatever that seat holds, while its private globals differ.
#[test]
fn public_globals_hide_the_observers_own_hand_but_keep_its_size() {
    let a = game_with_second_hand(["halfsies1/C", "halfsies1/D"]);
    let b = game_with_second_hand(["halfsies1/E", "halfsies1/F"]);
    let codec = ActionCodec::default();
    let me = seat(1);
    assert_ne!(
        codec.observation_globals(&a, me),
        codec.observation_globals(&b, me),
        "the seat's own tensor shows its own halves"
    );
    let public = codec.public_observation_globals(&a, me);
    assert_eq!(public, codec.public_observation_globals(&b, me));
    // Only the hidden counts differ from the private globals: the hand
    // sizes (2 each, 2/4 in the tensor) stay.
    let private = codec.observation_globals(&a, me);
    assert_eq!(public.len(), private.len());
    let changed = public.iter().zip(&private).filter(|(x, y)| x != y).count();
    assert_eq!(changed, 2, "the two halves of the own hand, nothing else");
    assert!(public.iter().filter(|&&v| v == 0.5).count() >= 2);
    // Written into a buffer: the seat's own cell planes, the public globals.
    let mut cells = vec![0f32; codec.tensor_cells(&a)];
    let globals = codec.public_observation_tensor_into(&a, me, &mut cells);
    assert_eq!(globals, Some(public));
    assert_eq!(cells, codec.observation_tensor(&a, me).cells);
}
