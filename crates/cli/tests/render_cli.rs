//! `bastide render` and `bastide catalog` end to end.

use assert_cmd::Command;
use predicates::prelude::*;

const RECORD: &str = "../render/tests/data/base-small.json";
const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";

fn bastide() -> Command {
    Command::cargo_bin("bastide").expect("binary built")
}

#[test]
fn render_prints_svg_by_default() {
    bastide()
        .args(["render", RECORD, "--grid"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("<svg "))
        .stdout(predicate::str::contains("after 12 of 12 actions"))
        .stdout(predicate::str::contains("class=\"coord\""));
}

#[test]
fn render_at_writes_png_and_svg_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("board.png");
    bastide()
        .args(["render", RECORD, "--at", "4", "--legal", "-o"])
        .arg(&png)
        .assert()
        .success();
    let bytes = std::fs::read(&png).expect("png written");
    assert!(bytes.starts_with(PNG_MAGIC));
    let svg = dir.path().join("board.SVG");
    bastide()
        .args(["render", RECORD, "--at", "0", "-o"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.contains("after 0 of 12 actions"));
}

#[test]
fn render_one_tile_and_catalog_sheets() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tile = dir.path().join("tile.svg");
    bastide()
        .args(["render", "--tile", "base/O", "--rotation", "270", "-o"])
        .arg(&tile)
        .assert()
        .success();
    let text = std::fs::read_to_string(&tile).expect("tile written");
    assert!(text.contains("rotate(270 50 50)"));
    bastide()
        .args(["catalog", "winter"])
        .assert()
        .success()
        .stdout(predicate::str::contains("data-tile=\"winter/animal12\""));
    let sheet = dir.path().join("sheet.png");
    bastide()
        .args(["catalog", "-o"])
        .arg(&sheet)
        .assert()
        .success();
    assert!(std::fs::read(&sheet)
        .expect("sheet written")
        .starts_with(PNG_MAGIC));
}

#[test]
fn bad_render_requests_fail_with_advice() {
    bastide()
        .args(["render", RECORD, "--at", "99"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("at most 12"));
    bastide()
        .args(["render", RECORD, "-o", "board.jpg"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(".svg or *.png"));
    bastide()
        .args(["render", "--tile", "base/D", "--rotation", "45"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("0, 90, 180 or 270"));
    bastide()
        .args(["render", "--tile", "base/ZZ"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown tile"));
    bastide()
        .args(["catalog", "nosuchset"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown tile set"));
    bastide()
        .args(["render", "no-such-record.json"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read record file"));
    bastide()
        .arg("render")
        .assert()
        .failure()
        .stderr(predicate::str::contains("<RECORD>"));
}

#[test]
fn render_a_map_chips_game_and_new_sets() {
    let map = "../render/tests/data/ukraine-chips.json";
    bastide()
        .args(["render", map])
        .assert()
        .success()
        .stdout(predicate::str::contains("data-map=\"ukraine\""))
        .stdout(predicate::str::contains("data-chumak=\"Kyiv\""))
        .stdout(predicate::str::contains("chips in the supply"));
    let dir = tempfile::tempdir().expect("temp dir");
    for record in [map, "../render/tests/data/halfsies1.json"] {
        let png = dir.path().join("board.png");
        bastide()
            .args(["render", record, "--grid", "-o"])
            .arg(&png)
            .assert()
            .success();
        assert!(std::fs::read(&png)
            .expect("png written")
            .starts_with(PNG_MAGIC));
    }
    bastide()
        .args(["render", "../render/tests/data/river20.json", "--at", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("data-tile=\"river20/Q\""));
    for set in ["halfsies1", "river20"] {
        bastide()
            .args(["catalog", set])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("data-tile=\"{set}/A\"")));
    }
}

#[test]
fn render_a_plague_game() {
    let record = "../render/tests/data/plague.json";
    bastide()
        .args(["render", record, "--at", "100"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "data-outbreak=\"2\" data-side=\"active\"",
        ))
        .stdout(predicate::str::contains("data-flea=\"active\""))
        .stdout(predicate::str::contains(
            "Plague: 15 fleas in the supply, 2 outbreaks active",
        ));
    bastide()
        .args(["render", record])
        .assert()
        .success()
        .stdout(predicate::str::contains("game over"))
        .stdout(predicate::str::contains(
            "data-outbreak=\"1\" data-side=\"eradicated\"",
        ))
        .stdout(predicate::str::contains("data-flea=\"latent\""))
        .stdout(predicate::str::contains("2 eradicated"));
    bastide()
        .args(["catalog", "plague"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "plague source (the plague doctor)",
        ));
}

#[test]
fn render_highlights_a_feature_and_explains_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hl.svg");
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/board-midgame.json");
    let ok = std::process::Command::new(env!("CARGO_BIN_EXE_bastide"))
        .args(["render", record, "--highlight", "0,0,ENE", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("class=\"highlight\""));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_bastide"))
        .args(["render", record, "--highlight", "0,0"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("X,Y,PLACE"));
}

#[test]
fn a_highlight_far_off_the_board_is_refused_not_wrapped() {
    // 32768 used to wrap to 0 and highlight the start tile.
    for spec in [
        "32768,0,N",
        "0,-16001,N",
        "99999999999,0,N",
        "-9223372036854775808,0,N",
    ] {
        bastide()
            .args(["render", RECORD, "--highlight", spec])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("--highlight"))
            .stderr(predicate::str::contains("-16000 to 16000"));
    }
    // The edge of the range is a coordinate like any other: no tile there.
    bastide()
        .args(["render", RECORD, "--highlight", "-16000,16000,N"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no feature to highlight"));
}

#[test]
fn rotation_goes_only_with_tile_and_negative_numbers_get_the_range() {
    bastide()
        .args(["render", RECORD, "--rotation", "90"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--rotation"))
        .stderr(predicate::str::contains("cannot be used with"));
    bastide()
        .args(["render", "--tile", "base/D", "--rotation", "-90"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--rotation -90"))
        .stderr(predicate::str::contains("0, 90, 180 or 270"));
    bastide()
        .args(["render", "--tile", "base/D", "--rotation", "90"])
        .assert()
        .success()
        .stdout(predicate::str::contains("rotate(90 50 50)"));
    for zoom in ["-1", "0", "17", "inf", "NaN"] {
        bastide()
            .args(["render", RECORD, "--zoom", zoom, "-o", "never-written.png"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("--zoom"))
            .stderr(predicate::str::contains("at most 16"));
    }
    assert!(!std::path::Path::new("never-written.png").exists());
}

#[test]
fn the_last_placed_tile_is_outlined_at_every_index() {
    // base-small.json: 12 actions; before the first, only the start tile.
    let at = |n: usize| {
        let out = bastide()
            .args(["render", RECORD, "--at", &n.to_string()])
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("SVG is UTF-8")
    };
    assert!(!at(0).contains("class=\"last\""));
    for n in 1..=12 {
        let svg = at(n);
        assert_eq!(
            svg.matches("class=\"last\"").count(),
            1,
            "--at {n}: one outline, around the newest tile"
        );
    }
}

#[test]
fn a_png_too_big_for_memory_is_refused_before_drawing() {
    // The whole catalog at zoom 10 is 10300 × 38380 pixels: 1.6 GB of
    // pixmap, past the renderer's 100-million-pixel budget.
    bastide()
        .args(["catalog", "--zoom", "10", "-o", "never-written-sheet.png"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("use a smaller zoom"));
    assert!(!std::path::Path::new("never-written-sheet.png").exists());
}
