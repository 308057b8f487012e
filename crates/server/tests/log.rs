//! The move log over HTTP (`GET /api/games/ID/log`, docs/server.md, "The
//! move log") over real sockets: what a spectator's `played` messages
//! carry (seat, action, events), paged, refusals in the API's JSON form,
//! and nothing of a hand still held.

mod common;

use bastide_engine::GameConfig;
use bastide_server::hub::LOG_PAGE;
use common::{
    body_of, drain, play_seat, play_some, played, token, Api, Client, TestDb, TestServer,
};
use serde_json::{json, Value};

fn config(players: usize, seed: u64, sets: &[&str]) -> Value {
    serde_json::to_value(GameConfig::from_sets(players, seed, sets).expect("a configuration"))
        .expect("JSON")
}

/// Every page of a game's log from `since` on, following `next`.
async fn whole_log(api: &Api, id: &str, since: u64) -> (Vec<Value>, usize) {
    let mut moves = Vec::new();
    let mut pages = 0;
    let mut since = Some(since);
    while let Some(s) = since {
        let (status, page) = api.get(&format!("/api/games/{id}/log?since={s}")).await;
        assert_eq!(status, 200, "log: {page}");
        assert_eq!(page["since"], json!(s));
        let got = page["moves"].as_array().expect("moves");
        assert!(
            got.len() <= LOG_PAGE,
            "a page holds at most {LOG_PAGE} moves"
        );
        moves.extend(got.iter().cloned());
        pages += 1;
        since = page["next"].as_u64();
        if let Some(n) = since {
            assert_eq!(
                n,
                s + got.len() as u64,
                "the next page starts after this one"
            );
        }
    }
    (moves, pages)
}

/// The move as a spectator's `played` message gives it.
fn move_of(played: &Value) -> Value {
    json!({
        "version": played["version"],
        "seat": played["seat"],
        "action": played["action"],
        "events": played["events"],
    })
}

async fn pages_and_refusals(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    // The Plague's flea steps make a game longer than one page.
    let created = api
        .create(
            &config(2, 7, &["base", "plague", "inns-cathedrals"]),
            &["human", "greedy"],
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let t0 = token(&created, 0);

    // Before the start: no moves, and nothing to follow.
    let (status, empty) = api.get(&format!("/api/games/{id}/log")).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty["moves"], json!([]));
    assert_eq!(empty["next"], Value::Null);
    assert_eq!(empty["version"], json!(0));

    let (c, w) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (spectator, _) = Client::hello(&server.ws_base, &id, None, None).await;
    api.start(&id, &t0).await;
    let seat = tokio::spawn(play_seat(c, w, 9));
    let watched = common::watch(spectator).await;
    seat.await.expect("seat 0");
    let version = api.summary(&id).await["version"]
        .as_u64()
        .expect("a version");
    assert!(
        version > LOG_PAGE as u64,
        "the game must be longer than a page to test paging: {version}"
    );

    // Every move once, in order, as the spectator was told of it.
    let (moves, pages) = whole_log(&api, &id, 0).await;
    assert!(pages >= 2, "{pages} pages");
    let told: Vec<Value> = played(&watched).into_iter().map(move_of).collect();
    assert_eq!(told.len() as u64, version);
    assert_eq!(moves, told);
    let record = api.record(&id).await;
    let actions: Vec<&Value> = moves.iter().map(|m| &m["action"]).collect();
    let recorded: Vec<&Value> = record["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .collect();
    assert_eq!(actions, recorded, "the log's actions are the record's");
    assert!(
        moves.iter().any(|m| m["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["reason"] == json!("game end")))),
        "the final scoring's events are in the last moves"
    );

    // From a version on: only what came after it; at the game's version, nothing.
    let (later, _) = whole_log(&api, &id, version - 3).await;
    assert_eq!(later, told[told.len() - 3..].to_vec());
    let (status, at_end) = api
        .get(&format!("/api/games/{id}/log?since={version}"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(at_end["moves"], json!([]));
    assert_eq!(at_end["next"], Value::Null);

    // Refusals: JSON errors with the API's codes.
    for (query, want, code) in [
        (format!("since={}", version + 1), 400, "bad_since"),
        ("since=-1".to_string(), 400, "bad_request"),
        ("since=two".to_string(), 400, "bad_request"),
        ("since=".to_string(), 400, "bad_request"),
        ("since=99999999999".to_string(), 400, "bad_request"),
    ] {
        let (status, body) = api.get(&format!("/api/games/{id}/log?{query}")).await;
        assert_eq!(status, want, "{query}: {body}");
        assert_eq!(body["error"]["code"], json!(code), "{query}: {body}");
        assert!(body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    let (status, body) = api.get("/api/games/0123456789abcdef/log").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], json!("not_found"));
    let (status, body) = api.get("/api/games/nonsense/log?since=0").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], json!("not_found"));
    server.stop().await;

    // Read back from the store, the game's snapshots are rebuilt: every
    // page (each replayed from the snapshot before it) says the same.
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (again, _) = whole_log(&api, &id, 0).await;
    assert_eq!(again, told, "after a restart");
    let (later, _) = whole_log(&api, &id, LOG_PAGE as u64 + 1).await;
    assert_eq!(later, told[LOG_PAGE + 1..].to_vec());
    server.stop().await;
}
mod pages_and_refusals {
    crate::store_test!(sqlite, pages_and_refusals);
}

/// Every tile id of a set named anywhere in a JSON value.
fn ids_of(v: &Value, set: &str, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.starts_with(set) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| ids_of(x, set, out)),
        Value::Object(o) => o.values().for_each(|x| ids_of(x, set, out)),
        _ => {}
    }
}

async fn no_hidden_hands(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(
            &config(2, 5, &["base", "halfsies1", "map-chips"]),
            &["human", "human"],
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut clients = Vec::new();
    for seat in 0..2 {
        let (c, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, seat)), None).await;
        clients.push(c);
    }
    let (mut spectator, _) = Client::hello(&server.ws_base, &id, None, None).await;
    api.start(&id, &token(&created, 0)).await;
    let mut seats = Vec::new();
    for mut c in clients {
        // Past the waiting room's news of who joined, to the start.
        let status = loop {
            let m = c.next().await;
            if m["status"]["status"] == json!("playing") {
                break m;
            }
        };
        seats.push((c, status));
    }
    // Two turns: each seat has played one half at most, and holds one.
    let version = play_some(&mut seats, 0, 4).await;
    let mut last = Value::Null;
    drain(&mut spectator, version, &mut last).await;

    let (moves, _) = whole_log(&api, &id, 0).await;
    let told: Vec<Value> = played(&spectator.received)
        .into_iter()
        .map(move_of)
        .collect();
    assert_eq!(moves, told, "the log is what a spectator was told");
    let text = serde_json::to_string(&moves).expect("JSON");
    for key in [
        "\"view\"",
        "\"hands\"",
        "\"legal\"",
        "\"pile\"",
        "\"seed\"",
        "\"drawn\"",
    ] {
        assert!(!text.contains(key), "the log has {key}: {text}");
    }

    // The halves held now, as each seat sees its own hand.
    let mut held = Vec::new();
    for (seat, (_, latest)) in seats.iter().enumerate() {
        let view = &body_of(latest).expect("a view")["view"];
        ids_of(&view["hands"][seat], "halfsies1/", &mut held);
    }
    assert!(!held.is_empty(), "halves are held at version {version}");
    // Halves named in the log are the ones on the board; each half is one
    // of a kind, so a held one named there would be a leak.
    let mut named = Vec::new();
    ids_of(&json!(moves), "halfsies1/", &mut named);
    assert!(!named.is_empty(), "halves were played, and are named");
    let mut board = Vec::new();
    ids_of(
        &body_of(&last).expect("a view")["view"]["board"],
        "halfsies1/",
        &mut board,
    );
    for h in &named {
        assert!(
            board.contains(h),
            "{h} is named in the log but not on the board"
        );
    }
    for h in &held {
        assert!(
            !text.contains(h.as_str()),
            "the held half {h} is in the log"
        );
    }
    for (c, _) in seats {
        c.close().await;
    }
    spectator.close().await;
    server.stop().await;
}
mod no_hidden_hands {
    crate::store_test!(sqlite, no_hidden_hands);
}
