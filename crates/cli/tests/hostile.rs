//! Issue 12, "Hostile input": every flag out of range gets a clear error
//! naming the flag and the allowed values, never a panic, a wrapped number
//! or a flag silently ignored; a reader closing the pipe early ends the
//! command quietly.

use assert_cmd::Command;
use predicates::prelude::*;
use std::process::Stdio;

const RECORD: &str = "../render/tests/data/base-small.json";

fn bastide() -> Command {
    Command::cargo_bin("bastide").expect("binary built")
}

/// Runs `bastide args` with standard output a pipe whose read end is
/// already closed, as after `| head` has read its fill: every write fails
/// with a broken pipe, however little the command prints. Returns the exit
/// code and standard error.
fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bastide"))
        .args(args)
        .env("CI", "1")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("bastide runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn every_printing_command_ends_quietly_on_a_closed_pipe() {
    let commands: &[&[&str]] = &[
        &["replay", RECORD],
        &["replay", RECORD, "--compact"],
        &["legal", RECORD],
        &["render", RECORD],
        &["render", "--tile", "base/D"],
        &["catalog", "base"],
        &["simulate", "--games", "2", "--threads", "1"],
        &[
            "tournament",
            "--bots",
            "random",
            "--games",
            "1",
            "--threads",
            "1",
        ],
        &["bench", "--seconds", "0.01"],
        &["play", "--bots", "random,random", "--seed", "3"],
    ];
    for args in commands {
        let (code, stderr) = into_closed_pipe(args);
        assert_eq!(code, Some(0), "bastide {}: {stderr}", args.join(" "));
        assert!(
            !stderr.contains("panicked") && !stderr.contains("error"),
            "bastide {}: {stderr}",
            args.join(" ")
        );
    }
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `bastide catalog | head -c 100`: the reader takes a little, then goes.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bastide"))
        .arg("catalog")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bastide runs");
    let mut stdout = child.stdout.take().expect("piped");
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("some output");
    assert!(first.starts_with(b"<svg"));
    drop(stdout);
    let out = child.wait_with_output().expect("bastide ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bench_seconds_must_be_finite_positive_and_at_most_an_hour() {
    for bad in ["inf", "1e300", "NaN", "0", "-1", "3601"] {
        bastide()
            .args(["bench", "--seconds", bad])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("--seconds"))
            .stderr(predicate::str::contains("at most 3600"))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn bench_reports_rates_even_for_a_tiny_budget() {
    bastide()
        .args(["bench", "--seconds", "0.000001"])
        .assert()
        .success()
        .stdout(predicate::str::contains("games/s"))
        .stdout(predicate::str::contains("NaN").not())
        .stdout(predicate::str::contains("inf").not());
}

#[test]
fn counts_are_bounded_with_the_range_in_the_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--games", "0"], "from 1 to 1000000000"),
        (&["simulate", "--games", "-5"], "from 1 to 1000000000"),
        (&["simulate", "--players", "7"], "from 2 to 6"),
        (&["simulate", "--players", "-2"], "from 2 to 6"),
        (&["simulate", "--threads", "0"], "from 1 to 256"),
        (&["simulate", "--threads", "100000"], "from 1 to 256"),
        (
            &["tournament", "--bots", "random", "--games", "100000000"],
            "from 1 to 1000000",
        ),
        (
            &["tournament", "--bots", "random", "--players", "9"],
            "from 2 to 6",
        ),
        (
            &["tournament", "--bots", "random", "--threads", "-1"],
            "from 1 to 256",
        ),
    ];
    for (args, range) in cases {
        let flag = args[args.len() - 2];
        bastide()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("for '{flag} <")))
            .stderr(predicate::str::contains(*range));
    }
    let thirteen = ["random"; 13].join(",");
    bastide()
        .args(["tournament", "--bots", &thirteen])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("at most 12"));
}

#[test]
fn a_negative_seed_gets_the_range_not_unexpected_argument() {
    for command in [
        &["simulate"][..],
        &["tournament", "--bots", "random"],
        &["play"],
    ] {
        bastide()
            .args(command)
            .args(["--seed", "-1"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("'--seed <SEED>'"))
            .stderr(predicate::str::contains("0 to 18446744073709551615"))
            .stderr(predicate::str::contains("unexpected argument").not());
    }
    bastide()
        .args(["simulate", "--games", "1", "--seed", "18446744073709551615"])
        .assert()
        .success();
}

#[test]
fn replay_at_and_as_are_checked() {
    bastide()
        .args(["replay", RECORD, "--at", "13"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("at most 12"));
    bastide()
        .args(["replay", RECORD, "--at", "-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("0 or more"));
    bastide()
        .args(["replay", RECORD, "--as", "-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seat"));
}

#[test]
fn tournament_tables_and_record_files_are_numbered_alike() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = bastide()
        .args([
            "tournament",
            "--bots",
            "greedy,random",
            "--games",
            "1",
            "--threads",
            "1",
            "--out",
        ])
        .arg(dir.path())
        .env("CI", "1")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("1 game in "), "{text}");
    assert!(
        text.contains("table 1: greedy vs random (1 game)"),
        "{text}"
    );
    assert!(!text.contains("1 games"), "{text}");
    // One game is no evidence: the Wilson interval of 1 win in 1 is
    // 20.7%–100%, never "100.0% ± 0.0%".
    assert!(text.contains("100.0% ( 20.7–100.0%)"), "{text}");
    assert!(text.contains("  0.0% (  0.0– 79.3%)"), "{text}");
    assert!(!text.contains("± 0.0%"), "{text}");
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("records written")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["t1-g0000-greedy-vs-random.json"]);
}

#[test]
fn the_sets_help_lists_every_set_and_map() {
    let ids = [
        "base",
        "winter",
        "river1",
        "river2",
        "river20",
        "cutcassonne",
        "halfsies1",
        "halfsies2",
        "plague",
        "gingerbread",
        "map-chips",
        "ukraine",
    ];
    for command in ["simulate", "bench", "tournament", "play"] {
        let out = bastide().args([command, "--help"]).output().expect("help");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        for id in ids {
            assert!(
                text.contains(id),
                "bastide {command} --help lacks {id}:\n{text}"
            );
        }
    }
}

#[test]
fn every_id_of_the_sets_help_plays() {
    for sets in [
        "base",
        "winter",
        "base,river1",
        "base,river2",
        "base,river20",
        "base,river1,cutcassonne",
        "base,halfsies1",
        "base,halfsies2",
        "base,plague",
        "winter,gingerbread",
        "base,map-chips",
        "base,ukraine",
    ] {
        bastide()
            .args(["simulate", "--games", "1", "--threads", "1", "--sets", sets])
            .env("CI", "1")
            .assert()
            .success()
            .stdout(predicate::str::contains("1 game in"));
    }
}

/// Resident memory of a running process, from `/proc` (Linux only).
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn a_huge_tournament_starts_playing_in_flat_memory() {
    // 12 bots, 2 players: 66 tables of a million games. Listing every game
    // up front (as before) takes gigabytes before the first one is played;
    // streamed, the process stays small while it plays.
    let bots = ["random"; 12].join(",");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bastide"))
        .args([
            "tournament",
            "--bots",
            &bots,
            "--games",
            "1000000",
            "--threads",
            "1",
        ])
        .env("CI", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("bastide runs");
    let mut peak = 0;
    for _ in 0..10 {
        std::thread::sleep(std::time::Duration::from_millis(150));
        if let Some(kib) = resident_kib(child.id()) {
            peak = peak.max(kib);
        }
    }
    let still_running = child.try_wait().expect("status").is_none();
    child.kill().expect("stop the tournament");
    child.wait().expect("reaped");
    assert!(still_running, "the tournament ended or failed early");
    assert!(peak > 0, "no memory reading");
    assert!(peak < 64 * 1024, "resident memory {peak} KiB");
}

#[test]
fn help_and_version_end_quietly_on_a_closed_pipe() {
    for args in [&["--help"][..], &["--version"], &["render", "--help"]] {
        let (code, stderr) = into_closed_pipe(args);
        assert_eq!(code, Some(0), "bastide {}: {stderr}", args.join(" "));
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn records_that_are_not_text_or_too_big_are_refused_early() {
    // An endless binary stream: refused after its first bytes, not after
    // reading until memory runs out.
    bastide()
        .args(["replay", "/dev/urandom"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "not a record: it is not UTF-8 text",
        ));
    // An endless stream that is not JSON: refused at its first bytes.
    bastide()
        .args(["replay", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "not a record: a record is a JSON object",
        ));
    let dir = tempfile::tempdir().expect("temp dir");
    let spaces = dir.path().join("spaces.json");
    std::fs::write(&spaces, " ".repeat(17 << 20)).expect("write");
    bastide()
        .arg("replay")
        .arg(&spaces)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "records may be at most 16777216 bytes",
        ));
    // A byte-order mark is fine.
    let text = std::fs::read_to_string(RECORD).expect("record");
    let bom = dir.path().join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{text}")).expect("write");
    bastide().arg("replay").arg(&bom).assert().success();
    // An error names the problem once, however long the bad name.
    let long = dir.path().join("long.json");
    let name = "x".repeat(10 << 20);
    std::fs::write(
        &long,
        format!(r#"{{"format": 1, "config": {{"players": ["A", "B"], "expansions": ["{name}"]}}, "actions": []}}"#),
    )
    .expect("write");
    let out = bastide().arg("replay").arg(&long).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.len() < 1000, "{} bytes of stderr", err.len());
    assert_eq!(err.matches("unknown expansion").count(), 1, "{err}");
}
