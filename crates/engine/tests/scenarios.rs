//! Scenario tests: game records with fixed decks and the results the rules
//! demand.
//!
//! Every `*.json` file below `tests/scenarios/` (any depth, so each
//! expansion can add its own folder) is one scenario:
//!
//! ```json
//! {
//!   "description": "what rule this shows and why the numbers are right",
//!   "record": { "format": 1, "config": { ... }, "actions": [ ... ] },
//!   "expect": { ... }
//! }
//! ```
//!
//! `expect` holds any of these checks (at least one):
//!
//! - `scores`: points per player, in seat order (exact);
//! - `finished`: whether the game is over (exact);
//! - `supply`: followers in each player's supply (exact);
//! - `events`: the game's events (scoring and discards) in order, each given
//!   as a partial object: only the keys written are compared, e.g.
//!   `{"reason": "completed", "feature": "city", "points": [4, 0]}`. The
//!   number of events must match too;
//! - `events_any_order`: `true` to match `events` in any order (for several
//!   final scorings of the same kind, whose order the rules leave open);
//! - `state`: a partial state object compared like an event (objects: only
//!   the keys given; arrays: same length, element by element);
//! - `legal_includes` / `legal_excludes`: actions in record form that must /
//!   must not be legal at the end of the record. They are checked against
//!   `legal_actions_json()` and, as a cross-check, by trying them;
//! - `error`: `{"index": N, "contains": "text"}`: the replay must stop at
//!   action `N` with a message containing the text; the other checks then
//!   apply to the game after the first `N` actions;
//! - `steps`: a list of `{"after": N, ...checks}` applied to the game after
//!   the first `N` actions (any checks above except `error` and `steps`).
//!
//! Scenarios in a folder named `pending` are skipped: they hold expectations
//! the engine does not meet yet (each one describes the suspected bug).
//! Every failing scenario is reported with a diff, then the test panics.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bastide_engine::record::{ActionJson, Record, RecordError};
use bastide_engine::Game;
use serde_json::{Map, Value};

/// Checks that may appear in `expect` and in each step.
const CHECKS: &[&str] = &[
    "scores",
    "finished",
    "supply",
    "events",
    "events_any_order",
    "state",
    "legal_includes",
    "legal_excludes",
];

fn scenario_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

/// Every scenario file under `dir`, sorted; folders named `pending` are
/// collected only when `pending` is true (and then only those).
fn collect(dir: &Path, in_pending: bool, want_pending: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            let pending = in_pending || p.file_name().is_some_and(|n| n == "pending");
            collect(&p, pending, want_pending, out);
        } else if p.extension().is_some_and(|e| e == "json") && in_pending == want_pending {
            out.push(p);
        }
    }
}

fn show(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "?".into())
}

/// Compares `expected` with `actual`: objects by the expected keys only,
/// arrays element by element (same length), anything else by equality.
fn partial_match(expected: &Value, actual: &Value, path: &str, problems: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => partial_match(ev, av, &p, problems),
                    None => problems.push(format!("{p}: expected {}, key missing", show(ev))),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                partial_match(ev, av, &format!("{path}[{i}]"), problems);
            }
        }
        (Value::Array(e), Value::Array(a)) => problems.push(format!(
            "{path}: expected {} items, got {}\n      expected: {}\n      got:      {}",
            e.len(),
            a.len(),
            show(expected),
            show(actual)
        )),
        _ if expected == actual => {}
        _ => problems.push(format!(
            "{path}: expected {}, got {}",
            show(expected),
            show(actual)
        )),
    }
}

fn matches(expected: &Value, actual: &Value) -> bool {
    let mut p = Vec::new();
    partial_match(expected, actual, "", &mut p);
    p.is_empty()
}

fn exact(name: &str, expected: &Value, actual: &Value, problems: &mut Vec<String>) {
    if expected != actual {
        problems.push(format!(
            "{name}: expected {}, got {}",
            show(expected),
            show(actual)
        ));
    }
}

fn check_events(expect: &Map<String, Value>, state: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(expected) = expect.get("events") else {
        return;
    };
    let Some(expected) = expected.as_array() else {
        problems.push(format!("{at}events: must be a list"));
        return;
    };
    let actual = state["events"].as_array().cloned().unwrap_or_default();
    let any_order = expect
        .get("events_any_order")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut mine = Vec::new();
    if expected.len() != actual.len() {
        mine.push(format!(
            "{at}events: expected {} events, got {}",
            expected.len(),
            actual.len()
        ));
    } else if any_order {
        let mut used = vec![false; actual.len()];
        for (i, e) in expected.iter().enumerate() {
            match (0..actual.len()).find(|&j| !used[j] && matches(e, &actual[j])) {
                Some(j) => used[j] = true,
                None => mine.push(format!(
                    "{at}events: no event matches expected [{i}] {}",
                    show(e)
                )),
            }
        }
    } else {
        for (i, (e, a)) in expected.iter().zip(&actual).enumerate() {
            partial_match(e, a, &format!("{at}events[{i}]"), &mut mine);
        }
    }
    if !mine.is_empty() {
        let mut listing = format!("{at}events: the game's events were:");
        for a in &actual {
            let _ = write!(listing, "\n      {}", show(a));
        }
        mine.push(listing);
        problems.extend(mine);
    }
}

/// Whether `action` is legal now: listed by `legal_actions_json` and
/// accepted by `try_apply`. A disagreement between the two is a problem.
fn legality(game: &Game, action: &Value, at: &str, problems: &mut Vec<String>) -> Option<bool> {
    let parsed: ActionJson = match serde_json::from_value(action.clone()) {
        Ok(a) => a,
        Err(e) => {
            problems.push(format!("{at}: {} is not an action: {e}", show(action)));
            return None;
        }
    };
    let listed = game.legal_actions_json().contains(&parsed);
    let accepted = parsed
        .to_action(game.catalog())
        .ok()
        .is_some_and(|a| game.clone().try_apply(&a).is_ok());
    if listed != accepted {
        problems.push(format!(
            "{at}: {} is {} by legal_actions_json but {} by try_apply",
            show(action),
            if listed { "listed" } else { "not listed" },
            if accepted { "accepted" } else { "refused" }
        ));
    }
    Some(listed)
}

fn check_legal(game: &Game, expect: &Map<String, Value>, at: &str, problems: &mut Vec<String>) {
    for (key, want) in [("legal_includes", true), ("legal_excludes", false)] {
        let Some(list) = expect.get(key) else {
            continue;
        };
        let Some(list) = list.as_array() else {
            problems.push(format!("{at}{key}: must be a list of actions"));
            continue;
        };
        let mut bad = false;
        for (i, action) in list.iter().enumerate() {
            let label = format!("{at}{key}[{i}]");
            if let Some(legal) = legality(game, action, &label, problems) {
                if legal != want {
                    bad = true;
                    problems.push(format!(
                        "{label}: {} should {}be legal",
                        show(action),
                        if want { "" } else { "not " }
                    ));
                }
            }
        }
        if bad {
            let listed: Vec<String> = game
                .legal_actions_json()
                .iter()
                .map(|a| serde_json::to_string(a).unwrap_or_default())
                .collect();
            let listed = if listed.is_empty() {
                "(none)".to_string()
            } else {
                listed.join("\n      ")
            };
            problems.push(format!(
                "{at}{key}: the legal actions were:\n      {listed}"
            ));
        }
    }
}

/// Runs the checks of `expect` (minus `error` and `steps`) on `game`.
fn check_game(game: &Game, expect: &Map<String, Value>, at: &str, problems: &mut Vec<String>) {
    let state = match serde_json::to_value(game.state_json()) {
        Ok(s) => s,
        Err(e) => {
            problems.push(format!("{at}state_json does not serialise: {e}"));
            return;
        }
    };
    for key in ["scores", "finished", "supply"] {
        if let Some(v) = expect.get(key) {
            exact(&format!("{at}{key}"), v, &state[key], problems);
        }
    }
    check_events(expect, &state, at, problems);
    if let Some(partial) = expect.get("state") {
        partial_match(partial, &state, &format!("{at}state"), problems);
    }
    check_legal(game, expect, at, problems);
}

fn error_index(e: &RecordError) -> Option<usize> {
    match e {
        RecordError::BadAction { index, .. } | RecordError::Illegal { index, .. } => Some(*index),
        _ => None,
    }
}

/// Runs one scenario file; returns its problems (empty when it passes).
fn run(path: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read: {e}")],
    };
    let doc: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return vec![format!("not JSON: {e}")],
    };
    let Some(doc) = doc.as_object() else {
        return vec!["a scenario must be a JSON object".into()];
    };
    for k in doc.keys() {
        if !["description", "record", "expect"].contains(&k.as_str()) {
            problems.push(format!(
                "unknown key {k:?} (use description, record, expect)"
            ));
        }
    }
    if doc
        .get("description")
        .and_then(Value::as_str)
        .is_none_or(|d| d.trim().is_empty())
    {
        problems.push("a scenario needs a description".into());
    }
    let record = match doc.get("record").map(|r| Record::parse(&r.to_string())) {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            problems.push(format!("record does not parse: {e}"));
            return problems;
        }
        None => {
            problems.push("a scenario needs a record".into());
            return problems;
        }
    };
    let Some(expect) = doc.get("expect").and_then(Value::as_object) else {
        problems.push("a scenario needs an expect object".into());
        return problems;
    };
    if expect.is_empty() {
        problems.push("expect is empty: a scenario must assert something".into());
    }
    for k in expect.keys() {
        if !CHECKS.contains(&k.as_str()) && k != "error" && k != "steps" {
            problems.push(format!("unknown check {k:?} in expect"));
        }
    }

    // The game the top-level checks look at.
    let game = if let Some(err) = expect.get("error") {
        let index = err.get("index").and_then(Value::as_u64).map(|i| i as usize);
        let contains = err.get("contains").and_then(Value::as_str);
        let (Some(index), Some(contains)) = (index, contains) else {
            problems.push("error: needs \"index\" (number) and \"contains\" (text)".into());
            return problems;
        };
        match record.replay() {
            Ok(_) => problems.push(format!(
                "error: expected the replay to stop at action {index}, but it succeeded"
            )),
            Err(e) => {
                let msg = e.to_string();
                if error_index(&e) != Some(index) {
                    problems.push(format!(
                        "error: expected a stop at action {index}, got: {msg}"
                    ));
                } else if !msg.contains(contains) {
                    problems.push(format!(
                        "error: message should contain {contains:?}, got: {msg}"
                    ));
                } else if !msg.contains(&format!("action {index}")) {
                    problems.push(format!(
                        "error: message should name the action's index {index}: {msg}"
                    ));
                }
            }
        }
        record.replay_to(index.min(record.actions.len()))
    } else {
        record.replay()
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            problems.push(format!("replay failed: {e}"));
            return problems;
        }
    };
    check_game(&game, expect, "", &mut problems);

    if let Some(steps) = expect.get("steps") {
        let Some(steps) = steps.as_array() else {
            problems.push("steps: must be a list".into());
            return problems;
        };
        for (i, step) in steps.iter().enumerate() {
            let Some(step) = step.as_object() else {
                problems.push(format!("steps[{i}]: must be an object"));
                continue;
            };
            let Some(after) = step.get("after").and_then(Value::as_u64) else {
                problems.push(format!("steps[{i}]: needs \"after\": N"));
                continue;
            };
            for k in step.keys() {
                if !CHECKS.contains(&k.as_str()) && k != "after" {
                    problems.push(format!("steps[{i}]: unknown check {k:?}"));
                }
            }
            let at = format!("steps[{i}] (after {after} actions) ");
            match record.replay_to(after as usize) {
                Ok(g) => check_game(&g, step, &at, &mut problems),
                Err(e) => problems.push(format!("{at}replay failed: {e}")),
            }
        }
    }
    problems
}

fn relative(path: &Path) -> String {
    path.strip_prefix(scenario_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn scenarios() {
    let mut files = Vec::new();
    collect(&scenario_root(), false, false, &mut files);
    assert!(
        !files.is_empty(),
        "no scenario found under {}",
        scenario_root().display()
    );
    let mut report = String::new();
    let mut failed = 0;
    for f in &files {
        let problems = run(f);
        if !problems.is_empty() {
            failed += 1;
            let _ = writeln!(report, "\nFAILED {}", relative(f));
            for p in problems {
                let _ = writeln!(report, "  - {p}");
            }
        }
    }
    if failed > 0 {
        panic!("{failed} of {} scenarios failed:\n{report}", files.len());
    }
    println!("{} scenarios passed", files.len());
}

/// Pending scenarios are not run as tests, but they must stay well formed,
/// and one that passes now is pointed out so that it can move back.
#[test]
fn pending_scenarios_are_well_formed() {
    let mut files = Vec::new();
    collect(&scenario_root(), false, true, &mut files);
    let mut report = String::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Err(e) = Record::parse(&doc["record"].to_string()) {
            let _ = writeln!(report, "{}: record does not parse: {e}", relative(f));
        }
        if run(f).is_empty() {
            println!(
                "pending scenario {} passes now: move it out of pending/",
                relative(f)
            );
        }
    }
    assert!(report.is_empty(), "malformed pending scenarios:\n{report}");
}
