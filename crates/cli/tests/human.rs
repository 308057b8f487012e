//! `bastide play` with a person at the terminal, fed through standard input:
//! the record stays clean JSON, quitting saves, `--resume` continues, `u`
//! takes back, symmetric tiles are offered once per look, `?` helps.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn bastide() -> Command {
    let mut c = Command::cargo_bin("bastide").expect("binary built");
    c.env("CI", "true");
    c
}

fn record_at(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("a record was written");
    serde_json::from_str(&text).expect("the record is JSON")
}

fn actions(rec: &serde_json::Value) -> Vec<serde_json::Value> {
    rec["actions"].as_array().expect("an action list").clone()
}

/// Replays a record file and returns the final state.
fn replay(path: &Path) -> serde_json::Value {
    let out = bastide().arg("replay").arg(path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("replay prints JSON")
}

#[test]
fn the_record_on_stdout_is_json_when_a_person_plays() {
    let out = bastide()
        .args(["play", "--bots", "human,greedy", "--seed", "4"])
        .write_stdin("0\n".repeat(400))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("seat 0 RED, your tile"), "{stderr}");
    assert!(stderr.contains("game over"), "{stderr}");
    let rec: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("standard output is the record alone");
    assert_eq!(rec["config"]["players"], serde_json::json!(["RED", "BLUE"]));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    std::fs::write(&file, &out.stdout).unwrap();
    assert_eq!(replay(&file)["finished"], true);
}

#[test]
fn scores_of_the_other_players_are_announced_with_their_reason() {
    bastide()
        .args(["play", "--bots", "human,greedy", "--seed", "4"])
        .write_stdin("0\n".repeat(400))
        .assert()
        .success()
        .stderr(
            predicate::str::is_match(r"\* seat 1 BLUE \+\d+: completed (city|road|monastery)")
                .unwrap()
                .and(predicate::str::contains("at game end")),
        );
}

#[test]
fn players_without_bots_are_random_bots() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    bastide()
        .args(["play", "--players", "3", "--seed", "2", "--out"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("written to"));
    let state = replay(&file);
    assert_eq!(state["finished"], true);
    assert_eq!(state["scores"].as_array().unwrap().len(), 3);
}

#[test]
fn a_wrong_number_of_bots_is_counted_in_good_english() {
    bastide()
        .args(["play", "--players", "2", "--bots", "greedy"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--bots names 1 player but the game has 2 seats",
        ));
    bastide()
        .args(["play", "--players", "9"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--players"));
}

#[test]
fn a_bad_out_path_fails_before_the_game_starts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no such dir").join("x.json");
    // A person sits at seat 0 with no input: had the game started, it
    // would have shown the board and then run out of input.
    bastide()
        .args(["play", "--bots", "human,random", "--out"])
        .arg(&missing)
        .write_stdin("")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("--out")
                .and(predicate::str::contains("cannot write there"))
                .and(predicate::str::contains("Players:").not())
                .and(predicate::str::contains("input ended").not()),
        );
    bastide()
        .args(["play", "--out"])
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("is a directory"));
    // The check leaves no file behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn quit_saves_and_resume_plays_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    // Place, follower; the bot moves; place; then quit (saying no once).
    bastide()
        .args(["play", "--bots", "human,greedy", "--seed", "4", "--out"])
        .arg(&file)
        .write_stdin("0\n0\n0\nq\nn\nq\ny\n")
        .assert()
        .success()
        .stderr(
            predicate::str::contains("Playing on.")
                .and(predicate::str::contains("Saved 5 actions"))
                .and(predicate::str::contains("--resume")),
        );
    let saved = actions(&record_at(&file));
    assert_eq!(saved.len(), 5);
    assert!(saved[4].get("place").is_some());
    assert_eq!(replay(&file)["finished"], false);

    bastide()
        .args(["play", "--resume"])
        .arg(&file)
        .args(["--bots", "human,greedy", "--out"])
        .arg(&file)
        .write_stdin("0\n".repeat(400))
        .assert()
        .success()
        .stderr(
            predicate::str::contains("Continuing after 5 actions")
                .and(predicate::str::contains("follower on the tile just placed")),
        )
        .stdout(predicate::str::contains("written to"));
    let done = actions(&record_at(&file));
    assert_eq!(&done[..5], &saved[..]);
    assert_eq!(replay(&file)["finished"], true);
}

#[test]
fn quit_without_out_prints_the_record_so_far() {
    let out = bastide()
        .args(["play", "--bots", "human,random"])
        .write_stdin("0\nq\ny\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(actions(&rec).len(), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output"));
}

#[test]
fn resume_needs_the_seats_named_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    bastide()
        .args(["play", "--out"])
        .arg(&file)
        .assert()
        .success();
    bastide()
        .args(["play", "--resume"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::contains("--bots human,random"));
}

#[test]
fn undo_takes_back_the_placement_before_the_follower_choice() {
    let dir = tempfile::tempdir().unwrap();
    let direct = dir.path().join("direct.json");
    let undone = dir.path().join("undone.json");
    let other = dir.path().join("other.json");
    let run = |file: &Path, input: &str| {
        bastide()
            .args(["play", "--bots", "human,greedy", "--seed", "4", "--out"])
            .arg(file)
            .write_stdin(input.to_string())
            .assert()
            .success()
    };
    run(&direct, "1\n0\nq\ny\n");
    // `u` before anything is done says so; after the placement it takes
    // it back, so placing 1 then gives the same record as placing it at once.
    run(&undone, "u\n0\nu\n1\n0\nq\ny\n").stderr(
        predicate::str::contains("Nothing to take back")
            .and(predicate::str::contains("Taken back")),
    );
    run(&other, "0\n0\nq\ny\n");
    let direct = actions(&record_at(&direct));
    // Place and follower, then the bot's two.
    assert_eq!(direct.len(), 4);
    assert_eq!(direct, actions(&record_at(&undone)));
    assert_ne!(direct, actions(&record_at(&other)));
}

#[test]
fn a_monastery_is_offered_once_per_cell_not_four_times() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deck.json");
    // RED has put a city cap north of the start tile; BLUE draws a
    // monastery that fits on four cells.
    std::fs::write(
        &file,
        r#"{"format": 1, "config": {"players": ["RED", "BLUE"], "seed": 1,
            "deck": ["base/E", "base/B", "base/B"], "deck_only": true},
            "actions": [{"place": {"tile": "base/E", "x": 0, "y": -1, "rotation": 180}},
                        {"pass": {}}]}"#,
    )
    .unwrap();
    let out = bastide()
        .args(["play", "--resume"])
        .arg(&file)
        .args(["--bots", "random,human"])
        .write_stdin("q\ny\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("your tile is base/B"), "{stderr}");
    let offered = stderr.lines().filter(|l| l.contains(" turned ")).count();
    assert_eq!(offered, 4, "{stderr}");
    let legal = bastide().arg("legal").arg(&file).output().unwrap();
    let legal: serde_json::Value = serde_json::from_slice(&legal.stdout).unwrap();
    assert_eq!(legal.as_array().unwrap().len(), 16);
}

#[test]
fn question_mark_explains_the_board_and_the_commands() {
    bastide()
        .args(["play", "--bots", "human,random"])
        .write_stdin("?\nq\ny\n")
        .assert()
        .success()
        .stderr(
            predicate::str::contains("C city")
                .and(predicate::str::contains("M monastery"))
                .and(predicate::str::contains("undo"))
                .and(predicate::str::contains("--resume")),
        );
}

#[test]
fn the_ukraine_map_shows_its_squares_and_chumak_squares() {
    bastide()
        .args(["play", "--bots", "human,random", "--sets", "base,map-chips"])
        .write_stdin("q\ny\n")
        .assert()
        .success()
        .stderr(
            predicate::str::contains(" $ ")
                .and(predicate::str::contains(" · "))
                .and(predicate::str::contains(
                    "Chumak squares ($):\n    Chernihiv (5, -4)",
                )),
        );
}

#[test]
fn the_board_is_shown_again_before_the_follower_choice() {
    let out = bastide()
        .args(["play", "--bots", "human,random", "--seed", "5"])
        .write_stdin("0\nq\ny\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let after_placing = stderr
        .split_once("your choice")
        .map(|(_, rest)| rest)
        .expect("a first prompt");
    let (before_follower, _) = after_placing
        .split_once("put a follower on the tile just placed")
        .expect("a follower prompt");
    assert!(
        before_follower.contains("(? for the symbols and commands)")
            && before_follower.contains("seat 0 RED: 0 points"),
        "{stderr}"
    );
}

#[test]
fn input_ending_mid_game_keeps_the_record_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    bastide()
        .args(["play", "--bots", "human,random", "--out"])
        .arg(&file)
        .write_stdin("0\n")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("input ended")
                .and(predicate::str::contains("the record so far is in")),
        );
    assert_eq!(actions(&record_at(&file)).len(), 1);
    assert_eq!(replay(&file)["finished"], false);
}
