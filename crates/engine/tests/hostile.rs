//! Hostile and careless input: every case here once crashed Bastide or gave
//! a silently wrong result (issue 12). Each must now give a clear error that
//! names the action or field, in any build, without panicking.

use bastide_engine::limits::{COORD_LIMIT, MAX_RECORD_BYTES, MAX_TILES};
use bastide_engine::record::{Record, RecordError};
use bastide_engine::{Action, ConfigError, Game, GameConfig, Pos, Rotation};

/// A base-game record with the given actions (JSON text).
fn base_record(actions: &str) -> String {
    format!(
        r#"{{"format": 1, "config": {{"players": ["RED", "BLUE"], "seed": 7, "deck": ["base/U"], "deck_only": true}}, "actions": [{actions}]}}"#
    )
}

fn replay_error(text: &str) -> RecordError {
    match Record::parse(text) {
        Err(e) => e,
        Ok(r) => r.replay().expect_err("the record must be refused"),
    }
}

#[test]
fn coordinates_out_of_range_are_refused_not_wrapped() {
    // 32767 and 65537 once wrapped to (-1, 0)/(1, 0) and scored with the
    // start tile; i32::MAX overflowed in debug builds.
    for x in [
        32767i64,
        65537,
        -65535,
        16001,
        2147483647,
        -2147483648,
        1 << 40,
    ] {
        let text = base_record(&format!(
            r#"{{"place": {{"tile": "base/U", "x": {x}, "y": 0, "rotation": 0}}}}"#
        ));
        let e = replay_error(&text);
        let msg = e.to_string();
        assert!(
            matches!(e, RecordError::BadAction { index: 0, .. }),
            "x = {x}: {msg}"
        );
        assert!(
            msg.contains("out of range")
                && msg.contains(&format!("-{COORD_LIMIT} to {COORD_LIMIT}")),
            "x = {x}: {msg}"
        );
    }
    // Every action with a cell is checked, not only placements.
    let text = base_record(
        r#"{"place": {"tile": "base/U", "x": 1, "y": 0, "rotation": 0}}, {"follower": {"x": 1, "y": 99999, "place": "N"}}"#,
    );
    let msg = replay_error(&text).to_string();
    assert!(
        msg.starts_with("action 1: y = 99999 is out of range"),
        "{msg}"
    );
    // The edge of the range itself is a coordinate like any other.
    let text = base_record(&format!(
        r#"{{"place": {{"tile": "base/U", "x": {COORD_LIMIT}, "y": 0, "rotation": 0}}}}"#
    ));
    assert!(matches!(
        replay_error(&text),
        RecordError::Illegal { index: 0, .. }
    ));
}

#[test]
fn the_engine_refuses_far_cells_from_rust_callers_too() {
    let mut g = Game::new(GameConfig::new(2, 1)).expect("base game");
    let before = g.clone();
    for pos in [
        Pos::new(i32::MAX, 0),
        Pos::new(0, i32::MIN),
        Pos::new(32767, 0),
    ] {
        let Some(Action::Place { tile, .. }) = g.legal_actions().first().copied() else {
            panic!("a placement is legal at the start");
        };
        let e = g
            .try_apply(&Action::Place {
                tile,
                pos,
                rot: Rotation::default(),
            })
            .expect_err("far cell");
        assert_eq!(e.rule, "coordinates", "{e}");
        assert_eq!(g, before, "the state is unchanged");
    }
}

/// A Map Chips game where BLUE holds purple:1 and orange:1 at the follower
/// step (the scenario `map-chips/error_trade_mixed_colours.json`), then the
/// given trade as action 3.
fn chips_record(chips: &str) -> String {
    format!(
        r#"{{"format": 1, "config": {{"players": ["RED", "BLUE"], "map": "ukraine", "expansions": ["map-chips"], "seed": 1, "deck": ["base/E", "base/U", "base/A"], "deck_only": true, "chips": ["purple:1", "orange:1"]}},
        "actions": [
          {{"place": {{"tile": "base/U", "x": 1, "y": 0, "rotation": 0}}}},
          {{"pass": {{}}}},
          {{"place": {{"tile": "base/A", "x": 1, "y": 1, "rotation": 0}}}},
          {{"trade": {{"x": 1, "y": 2, "chips": [{chips}]}}}}
        ]}}"#
    )
}

#[test]
fn trades_of_the_wrong_size_or_mixed_colours_are_illegal_actions() {
    let chip = r#"{"colour": "purple", "value": 1}"#;
    // 257 chips once wrapped to a 1-chip trade.
    for n in [0usize, 5, 256, 257] {
        let chips = vec![chip; n].join(", ");
        let e = replay_error(&chips_record(&chips));
        let msg = e.to_string();
        assert!(matches!(e, RecordError::Illegal { index: 3, .. }), "{msg}");
        assert!(
            msg.contains("is illegal: trade: a trade puts 1 to 4 chips on one space"),
            "{msg}"
        );
    }
    let mixed = r#"{"colour": "purple", "value": 1}, {"colour": "orange", "value": 1}"#;
    let msg = replay_error(&chips_record(mixed)).to_string();
    assert!(
        msg.starts_with("action 3 (")
            && msg.contains("is illegal: trade: the chips of one trade must all have one colour"),
        "{msg}"
    );
    // A chip that does not exist is a malformed action, not a rule.
    let bad = r#"{"colour": "purple", "value": 300}"#;
    let e = replay_error(&chips_record(bad));
    assert!(matches!(e, RecordError::BadAction { index: 3, .. }), "{e}");
    // The legal trade still works.
    let ok = Record::parse(&chips_record(chip)).expect("parses");
    ok.replay().expect("a one-chip trade is legal");
}

#[test]
fn a_deck_longer_than_the_limit_is_refused_before_the_board_is_built() {
    let mut c = GameConfig::new(2, 1);
    c.deck = Some(vec!["base/V".to_string(); 33_000]);
    c.deck_only = true;
    let e = Game::new(c.clone()).expect_err("too long");
    assert!(
        matches!(e, ConfigError::TooLong { what: "deck", .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains(&format!("at most {MAX_TILES}")),
        "{e}"
    );
    // At the limit, a line of straight roads is a game like any other, to
    // its end: no 16-bit index or cell key runs out.
    c.deck = Some(vec!["base/U".to_string(); MAX_TILES]);
    let mut g = Game::new(c).expect("at the limit");
    let mut x = 1;
    while !g.is_finished() {
        g.try_apply(&Action::Place {
            tile: g.legal_actions_place_tile(),
            pos: Pos::new(x, 0),
            rot: Rotation::default(),
        })
        .expect("a straight road east");
        g.try_apply(&Action::Pass).expect("pass");
        x += 1;
    }
}

/// The drawn tile, for the test above.
trait DrawnTile {
    fn legal_actions_place_tile(&self) -> bastide_engine::TileIdx;
}

impl DrawnTile for Game {
    fn legal_actions_place_tile(&self) -> bastide_engine::TileIdx {
        match self.legal_actions().first() {
            Some(Action::Place { tile, .. }) => *tile,
            other => panic!("expected a placement, got {other:?}"),
        }
    }
}

#[test]
fn records_are_bounded_and_must_be_text() {
    let big = " ".repeat(MAX_RECORD_BYTES + 1);
    assert!(matches!(Record::parse(&big), Err(RecordError::TooLarge(_))));
    let e = Record::parse_bytes(&[0x7B, 0xFF, 0xFE, 0x00]).expect_err("binary");
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    // A byte-order mark is accepted.
    let text = format!("\u{feff}{}", base_record(""));
    Record::parse(&text).expect("BOM accepted");
    Record::parse_bytes(text.as_bytes()).expect("BOM accepted as bytes");
    // Not a record at all.
    let e = Record::parse("[1, 2]").expect_err("array");
    assert!(e.to_string().contains("not a record"), "{e}");
    let e = Record::parse("{\"format\": 1").expect_err("cut short");
    assert!(e.to_string().contains("not JSON"), "{e}");
}

#[test]
fn json_errors_inside_actions_name_the_action_field_and_line() {
    let text = base_record(
        "{\"pass\": {}},\n{\"place\": {\"tile\": \"base/U\", \"x\": \"3\", \"y\": 0, \"rotation\": 0}}",
    );
    let msg = Record::parse(&text).expect_err("string x").to_string();
    assert!(
        msg.contains("action 1: actions[1].place.x: invalid type"),
        "{msg}"
    );
    assert!(msg.contains("line 2"), "{msg}");
    let text = base_record(r#"{"pass": {}, "colour": "red"}"#);
    let msg = Record::parse(&text).expect_err("two keys").to_string();
    assert!(msg.contains("action 0"), "{msg}");
    let text =
        base_record(r#"{"place": {"tile": "base/U", "x": 1, "y": 0, "rotation": 0, "spin": 1}}"#);
    let msg = Record::parse(&text).expect_err("unknown field").to_string();
    assert!(msg.contains("action 0") && msg.contains("spin"), "{msg}");
}

#[test]
fn configuration_errors_are_said_once_and_cut_short() {
    let name = "x".repeat(10 << 20);
    let text = format!(
        r#"{{"format": 1, "config": {{"players": ["RED", "BLUE"], "expansions": ["{name}"]}}, "actions": []}}"#
    );
    let e = replay_error(&text);
    let msg = e.to_string();
    assert!(msg.len() < 1000, "{} bytes", msg.len());
    assert!(msg.contains("unknown expansion"), "{msg}");
    // No source chain: a reporter printing the chain would repeat it.
    assert!(std::error::Error::source(&e).is_none());
    assert_eq!(msg.matches("unknown expansion").count(), 1);
}

#[test]
fn expansion_actions_and_fields_need_their_expansion() {
    let mut g = Game::new(GameConfig::new(2, 1)).expect("base game");
    let e = g
        .try_apply(&Action::Gingerbread {
            pos: Pos::new(0, 0),
            corner: None,
            place: bastide_engine::Place::N,
        })
        .expect_err("no gingerbread");
    assert!(e.message.contains("not in play"), "{e}");
    // Decision: a field or option of an expansion that is not in play is
    // refused, never ignored.
    let cases: &[(&str, &str)] = &[
        (
            r#""hands": [["halfsies1/A"], ["halfsies1/B"]]"#,
            "Half-and-half",
        ),
        (r#""chips": ["purple:1"]"#, "Map Chips"),
        (r#""options": {"draft": true}"#, "Half-and-half"),
        (r#""options": {"river_no_followers": true}"#, "the River"),
        (r#""options": {"start_spaces": [1, 3]}"#, "a map"),
        (
            r#""options": {"gingerbread_misprint": true}"#,
            "the Gingerbread Man",
        ),
    ];
    for (field, owner) in cases {
        let text = format!(
            r#"{{"format": 1, "config": {{"players": ["RED", "BLUE"], {field}}}, "actions": []}}"#
        );
        let msg = replay_error(&text).to_string();
        assert!(
            msg.contains(&format!("belongs to {owner}, which is not in this game")),
            "{field}: {msg}"
        );
    }
}

#[test]
fn the_gingerbread_misprint_holds_no_tile_d() {
    let mut c = GameConfig::from_sets(2, 1, &["winter", "gingerbread"]).expect("sets");
    c.options
        .insert("gingerbread_misprint".into(), serde_json::json!(true));
    c.deck = Some(vec!["gingerbread/D".into()]);
    let msg = Game::new(c).expect_err("no D in the misprint").to_string();
    assert!(msg.contains("the sets in play hold 0"), "{msg}");
}

#[test]
fn set_lists_are_answered_in_command_line_terms() {
    let e = GameConfig::from_sets(2, 1, &["base", "gingerbread"]).expect_err("needs winter");
    assert_eq!(
        e.to_string(),
        "the Gingerbread Man needs the Winter Edition: use --sets winter,gingerbread"
    );
    let e = GameConfig::from_sets(2, 1, &["winter", "base"]).expect_err("two bases");
    assert!(e.to_string().contains("two base games"), "{e}");
    let e = GameConfig::from_sets(2, 1, &["river1", "winter"]).expect_err("base last");
    assert!(e.to_string().contains("--sets winter,river1"), "{e}");
    let e = GameConfig::from_sets(2, 1, &["base", "river9"]).expect_err("unknown");
    assert!(
        e.to_string().contains("unknown set \"river9\"") && e.to_string().contains("halfsies2"),
        "{e}"
    );
    let c = GameConfig::from_sets(3, 1, &["river1"]).expect("base implied");
    assert_eq!((c.base.as_str(), c.expansions.len()), ("base", 1));
}

#[test]
fn long_lists_stop_at_their_limit_while_parsing() {
    use bastide_engine::limits::MAX_ACTIONS;
    let passes = vec![r#"{"pass": {}}"#; MAX_ACTIONS + 1].join(",");
    let msg = Record::parse(&base_record(&passes))
        .expect_err("too many actions")
        .to_string();
    assert!(msg.contains(&format!("at most {MAX_ACTIONS}")), "{msg}");
    let deck = vec!["\"base/U\""; MAX_TILES + 1].join(",");
    let text = format!(
        r#"{{"format": 1, "config": {{"players": ["RED", "BLUE"], "deck": [{deck}], "deck_only": true}}, "actions": []}}"#
    );
    let msg = Record::parse(&text).expect_err("deck too long").to_string();
    assert!(
        msg.contains("config.deck") && msg.contains(&format!("at most {MAX_TILES}")),
        "{msg}"
    );
    // Absent lists still default to empty.
    let r = Record::parse(r#"{"format": 1, "config": {"players": ["A", "B"]}}"#).expect("minimal");
    assert!(r.actions.is_empty() && r.config.deck.is_none());
}
