//! The `bastide` binary end to end: good records replay, bad input gives a
//! clear error and a non-zero exit code, never a panic.

use assert_cmd::Command;
use predicates::prelude::*;
use std::io::Write;

fn bastide() -> Command {
    Command::cargo_bin("bastide").expect("binary built")
}

fn record_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

const HEADER: &str = r#""format": 1, "config": {"players": ["RED", "BLUE"], "seed": 7, "deck": ["base/U", "base/E"], "deck_only": true}"#;

#[test]
fn play_then_replay_gives_the_same_scores() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.json");
    bastide()
        .args([
            "play",
            "--players",
            "3",
            "--bots",
            "random,random,random",
            "--seed",
            "5",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("written to"));
    let output = bastide().arg("replay").arg(&out).output().unwrap();
    assert!(output.status.success());
    let state: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(state["finished"], true);
    assert_eq!(state["scores"].as_array().unwrap().len(), 3);
    let legal = bastide().arg("legal").arg(&out).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&legal.stdout).trim(), "[]");
}

#[test]
fn a_short_record_replays_and_lists_legal_actions() {
    let f = record_file(&format!(
        r#"{{{HEADER}, "actions": [{{"place": {{"tile": "base/U", "x": 1, "y": 0, "rotation": 0}}}}, {{"follower": {{"x": 1, "y": 0, "place": "E"}}}}]}}"#
    ));
    let out = bastide().arg("replay").arg(f.path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(state["drawn"], "base/E");
    assert_eq!(state["supply"], serde_json::json!([6, 7]));
    let legal = bastide().arg("legal").arg(f.path()).output().unwrap();
    let actions: serde_json::Value = serde_json::from_slice(&legal.stdout).unwrap();
    let list = actions.as_array().unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().all(|a| a.get("place").is_some()));
}

#[test]
fn an_illegal_action_names_its_index_and_rule() {
    let f = record_file(&format!(
        r#"{{{HEADER}, "actions": [{{"place": {{"tile": "base/U", "x": 0, "y": -1, "rotation": 0}}}}]}}"#
    ));
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("action 0").and(predicate::str::contains("must match")));
}

#[test]
fn actions_out_of_turn_are_refused() {
    let f = record_file(&format!(r#"{{{HEADER}, "actions": [{{"pass": {{}}}}]}}"#));
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("action 0")
                .and(predicate::str::contains("must be placed first")),
        );
}

#[test]
fn malformed_json_is_a_clear_error() {
    let f = record_file("{\"format\": 1, \"config\": ");
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("malformed record"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn unknown_tile_ids_are_named() {
    let f = record_file(
        r#"{"format": 1, "config": {"players": ["A", "B"], "deck": ["base/Z"]}, "actions": []}"#,
    );
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown tile id \"base/Z\""));
    let g = record_file(&format!(
        r#"{{{HEADER}, "actions": [{{"place": {{"tile": "base/Q9", "x": 1, "y": 0, "rotation": 0}}}}]}}"#
    ));
    bastide()
        .arg("replay")
        .arg(g.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("action 0: unknown tile id"));
}

#[test]
fn another_format_version_is_refused() {
    let f = record_file(r#"{"format": 2, "config": {"players": ["A", "B"]}, "actions": []}"#);
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("record format 2 is not supported"));
}

#[test]
fn bad_configurations_say_what_to_fix() {
    let f = record_file(r#"{"format": 1, "config": {"players": ["A"]}, "actions": []}"#);
    bastide()
        .arg("replay")
        .arg(f.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("2 to 6 players"));
    let g = record_file(
        r#"{"format": 1, "config": {"players": ["A", "B"], "options": {"meeples": 3}}, "actions": []}"#,
    );
    bastide()
        .arg("replay")
        .arg(g.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown option \"meeples\""));
    bastide()
        .args(["simulate", "--games", "1", "--sets", "base,dragons"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown set \"dragons\""));
}

#[test]
fn a_missing_file_is_named() {
    bastide()
        .args(["replay", "/nonexistent/game.json"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("/nonexistent/game.json"));
}

#[test]
fn simulate_reports_speed_and_means() {
    bastide()
        .args([
            "simulate",
            "--games",
            "20",
            "--players",
            "4",
            "--threads",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("games/s").and(predicate::str::contains("mean scores")));
}

#[test]
fn replay_shows_the_goods_each_player_holds() {
    // BLUE completes RED's wine city (traders-builders/O, then R): the token
    // goes to BLUE, the completer; at the end BLUE's wine majority scores 10.
    let scenario: serde_json::Value = serde_json::from_str(include_str!(
        "../../engine/tests/scenarios/traders-builders/goods_go_to_the_completer.json"
    ))
    .unwrap();
    let f = record_file(&scenario["record"].to_string());
    let out = bastide().arg("replay").arg(f.path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        state["goods"],
        serde_json::json!([
            {"wine": 0, "grain": 0, "cloth": 0},
            {"wine": 1, "grain": 0, "cloth": 0}
        ])
    );
    assert_eq!(state["builders"], serde_json::json!([true, true]));
    assert_eq!(state["pigs"], serde_json::json!([true, true]));
}

#[test]
fn replay_and_legal_show_the_wagon_step() {
    // Two wagons scored by one tile: BLUE placed it, so BLUE's wagon moves
    // first; `legal` lists its targets and `pass`, `replay` the step.
    let scenario: serde_json::Value = serde_json::from_str(include_str!(
        "../../engine/tests/scenarios/abbey-mayor/two_wagons_move_in_turn_order_from_active.json"
    ))
    .unwrap();
    let mut record = scenario["record"].clone();
    let actions = record["actions"].as_array_mut().unwrap();
    actions.truncate(8);
    let f = record_file(&record.to_string());
    let out = bastide().arg("replay").arg(f.path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(state["phase"], "wagon");
    assert_eq!(state["current_player"], 1);
    assert_eq!(state["wagons"], serde_json::json!([true, true]));
    let legal = bastide().arg("legal").arg(f.path()).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&legal.stdout).unwrap();
    let list = list.as_array().unwrap();
    assert!(list.contains(&serde_json::json!({"wagon": {"x": 1, "y": 0, "place": "C"}})));
    assert!(list.contains(&serde_json::json!({"pass": {}})));
    assert!(list
        .iter()
        .all(|a| a.get("wagon").is_some() || a.get("pass").is_some()));
}
