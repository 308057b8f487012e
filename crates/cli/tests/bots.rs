//! `bastide tournament` and `bastide play` with bots and people, end to end.

use assert_cmd::Command;
use predicates::prelude::*;

fn bastide() -> Command {
    let mut c = Command::cargo_bin("bastide").expect("binary built");
    c.env("CI", "true");
    c
}

#[test]
fn a_small_tournament_prints_a_table_and_writes_replayable_records() {
    let dir = tempfile::tempdir().unwrap();
    bastide()
        .args([
            "tournament",
            "--bots",
            "mcts:5,greedy,random",
            "--games",
            "2",
            "--seed",
            "3",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(
            predicate::str::contains("win rate")
                .and(predicate::str::contains("mcts:5 vs greedy"))
                .and(predicate::str::contains("overall")),
        );
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 6);
    for f in files {
        let out = bastide().arg("replay").arg(&f).output().unwrap();
        assert!(out.status.success(), "{}", f.display());
        let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(state["finished"], true);
    }
}

#[test]
fn every_set_combination_runs_a_tournament() {
    for sets in [
        "winter",
        "base,river1",
        "base,river2",
        "base,river20,cutcassonne",
    ] {
        bastide()
            .args([
                "tournament",
                "--bots",
                "mcts:3,greedy",
                "--games",
                "2",
                "--sets",
                sets,
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("2 games"));
    }
}

#[test]
fn more_players_rotate_through_the_seats() {
    bastide()
        .args([
            "tournament",
            "--bots",
            "greedy,random",
            "--players",
            "3",
            "--games",
            "3",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("greedy vs random vs greedy"));
}

#[test]
fn bad_bot_specs_are_clear_errors() {
    bastide()
        .args(["tournament", "--bots", "mcts:lots,greedy"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("bad bot spec \"mcts:lots\"")
                .and(predicate::str::contains("Known bots")),
        );
    bastide()
        .args(["play", "--bots", "greedy,wizard"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("wizard").and(predicate::str::contains("human")));
    bastide()
        .args(["tournament", "--bots", "greedy", "--games", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--games"));
}

#[test]
fn a_person_plays_a_whole_game_at_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.json");
    // Bad input is asked again; then always the first choice.
    let mut input = String::from("x\n999\n");
    input.push_str(&"0\n".repeat(400));
    bastide()
        .args(["play", "--bots", "human,greedy", "--seed", "4", "--out"])
        .arg(&out)
        .write_stdin(input)
        .assert()
        .success()
        .stderr(
            predicate::str::contains("your tile")
                .and(predicate::str::contains("is not one of the numbers"))
                .and(predicate::str::contains("game over")),
        )
        .stdout(predicate::str::contains("written to"));
    let state = bastide().arg("replay").arg(&out).output().unwrap();
    assert!(state.status.success());
}

#[test]
fn a_person_may_quit_or_run_out_of_input() {
    // Quitting asks first; the input ending at that question is an error.
    bastide()
        .args(["play", "--bots", "random,human"])
        .write_stdin("q\n")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("Quit and save").and(predicate::str::contains("input ended")),
        );
    bastide()
        .args(["play", "--bots", "human,random"])
        .write_stdin("")
        .assert()
        .failure()
        .stderr(predicate::str::contains("input ended"));
}

#[test]
fn a_tiny_ladder_fits_ratings_and_writes_the_servers_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ladder.json");
    bastide()
        .args([
            "ladder",
            "--bots",
            "greedy,random,mcts:3",
            "--games",
            "4",
            "--max-iterations",
            "300",
            "--reach",
            "1",
            "--seed",
            "5",
            "--out",
        ])
        .arg(&file)
        .assert()
        .stdout(
            predicate::str::contains("random vs greedy")
                .and(predicate::str::contains("greedy vs mcts:3"))
                .and(predicate::str::contains("ratings (greedy fixed at 1500)")),
        );
    let ladder: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(ladder["seed"], 5);
    assert!(
        ladder["command"]
            .as_str()
            .unwrap()
            .starts_with("bastide ladder --bots greedy,random,mcts:3 --games 4"),
        "{ladder}"
    );
    let entries = ladder["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    let ratings: Vec<f64> = entries
        .iter()
        .map(|e| e["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
    let greedy = entries.iter().find(|e| e["spec"] == "greedy").unwrap();
    assert_eq!(greedy["rating"], 1500.0);
    // random never beats greedy: far below it, by the virtual draw alone.
    assert_eq!(entries[0]["spec"], "random");
    // 3 iterations a move, 35 moves a game: 300 pays for two games, one
    // deal played both ways.
    let pairs = ladder["pairs"].as_array().unwrap();
    assert_eq!(pairs[0]["games"], 4);
    assert_eq!(pairs[1]["games"], 2);
}

#[test]
fn a_ladder_refuses_what_it_cannot_rate() {
    for (args, message) in [
        (&["--games", "7"][..], "6 or 8"),
        (&["--games", "1"][..], "from 2 to 100000"),
        (&["--bots", "greedy,mcts:500ms"][..], "time budget"),
        (&["--bots", "greedy,mcts:20:width=1"][..], "ladder"),
        (
            &["--bots", "greedy,random", "--anchor", "mcts"][..],
            "not one of --bots",
        ),
        (&["--bots", "greedy"][..], "2 to 12"),
    ] {
        bastide()
            .arg("ladder")
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
    }
}
