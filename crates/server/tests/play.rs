//! Games over real sockets against both stores: a full game between two
//! people and a bot, hidden information, refusals, reconnects, races.

mod common;

use std::collections::BTreeMap;

use bastide_engine::record::Record;
use bastide_engine::GameConfig;
use bastide_server::store::{GameId, StoreError};
use common::{
    assert_contiguous, body_of, drain, legal_of, play_seat, played, token, version_of, watch, Api,
    Client, TestDb, TestServer,
};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

fn config(players: usize, seed: u64, sets: &[&str]) -> Value {
    serde_json::to_value(GameConfig::from_sets(players, seed, sets).expect("a configuration"))
        .expect("JSON")
}

async fn full_game(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (status, health) = api.get("/api/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["ok"], json!(true));

    // No seed: the server draws one, and keeps it from the players.
    let mut cfg = config(3, 0, &["base"]);
    cfg.as_object_mut().expect("an object").remove("seed");
    let created = api.create(&cfg, &["human", "greedy", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    assert_eq!(created["status"], json!("open"));
    assert!(
        created["seats"][1].get("token").is_none(),
        "bots have no token"
    );
    let invite = created["seats"][0]["invite"].as_str().expect("an invite");
    assert!(invite.contains(&id) && invite.contains(&token(&created, 0)));
    // The link leads somewhere (the token after `#` stays in the browser).
    let page = reqwest::get(invite.split('#').next().expect("a link"))
        .await
        .expect("GET the invite");
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.expect("a page");
    assert!(html.contains("<title>Bastide"), "the client's page: {html}");

    let (_, open) = api.get("/api/games").await;
    assert!(
        open["games"]
            .as_array()
            .expect("a list")
            .iter()
            .any(|g| g["id"] == json!(id)),
        "the new game is listed as open: {open}"
    );
    let (status, joined) = api
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"token": token(&created, 2)}),
        )
        .await;
    assert_eq!((status, joined), (200, json!({"seat": 2})));

    let (a, wa) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let (b, wb) = Client::hello(&server.ws_base, &id, Some(&token(&created, 2)), None).await;
    let (spectator, _) = Client::hello(&server.ws_base, &id, None, None).await;
    assert_eq!(wa["welcome"]["seat"], json!(0));
    assert_eq!(wb["welcome"]["seat"], json!(2));
    assert_eq!(wa["welcome"]["status"], json!("open"));
    assert!(wa["welcome"]["config"].get("seed").is_none());
    let partial = api.record(&id).await;
    assert!(partial["config"].get("seed").is_none(), "{partial}");

    api.start(&id, &token(&created, 2)).await;
    let pa = tokio::spawn(play_seat(a, wa, 1));
    let pb = tokio::spawn(play_seat(b, wb, 2));
    let ps = tokio::spawn(watch(spectator));
    let (ma, mb, ms) = (
        pa.await.expect("seat 0"),
        pb.await.expect("seat 2"),
        ps.await.expect("spectator"),
    );

    // The finished record has its seed and replays to the same end.
    let record = api.record(&id).await;
    assert!(record["config"].get("seed").is_some());
    let rec = Record::parse(&record.to_string()).expect("a record");
    let game = rec.replay().expect("the record replays");
    assert!(game.is_finished());
    let n = rec.actions.len() as u64;
    assert!(n > 100, "a whole game has many actions, not {n}");
    let summary = api.summary(&id).await;
    assert_eq!(summary["status"], json!("finished"));
    assert_eq!(summary["version"], json!(n));
    // Over: nobody is to move.
    assert_eq!(summary["to_move"], Value::Null);
    assert_eq!(summary["scores"], json!(game.scores()));
    // The pictures of the finished board, each tile kind and rotation
    // once, in one answer (what a game page asks for while it loads).
    let (status, art) = api.get(&format!("/api/games/{id}/tiles")).await;
    assert_eq!(status, 200);
    let mut on_board: Vec<String> = serde_json::to_value(game.state_json().board)
        .expect("JSON")
        .as_array()
        .expect("a board")
        .iter()
        .map(|p| format!("{}@{}", p["tile"].as_str().expect("a tile"), p["rotation"]))
        .collect();
    on_board.sort();
    on_board.dedup();
    let mut sent: Vec<String> = art["tiles"]
        .as_array()
        .expect("tiles")
        .iter()
        .map(|t| t["key"].as_str().expect("a key").to_string())
        .collect();
    sent.sort();
    assert_eq!(sent, on_board);
    assert!(art["head"]
        .as_str()
        .is_some_and(|h| h.starts_with("<style>")));

    let final_events = serde_json::to_value(game.state_json().events).expect("JSON");
    for msgs in [&ma, &mb, &ms] {
        // Every version once, in order, and each action as recorded.
        assert_eq!(assert_contiguous(msgs, 1), n);
        let p = played(msgs);
        for body in &p {
            let v = body["version"].as_u64().expect("a version") as usize;
            assert_eq!(
                body["action"],
                serde_json::to_value(&rec.actions[v - 1]).expect("JSON")
            );
        }
        // Every scoring event reached every client, with reason and points.
        let events: Vec<Value> = p
            .iter()
            .flat_map(|b| b["events"].as_array().cloned().unwrap_or_default())
            .collect();
        assert_eq!(Value::Array(events), final_events);
        assert_eq!(
            p.last().expect("played")["view"]["scores"],
            json!(game.scores())
        );
    }
    assert!(
        played(&ms).iter().any(|b| b["seat"] == json!(1)),
        "the bot played"
    );
    assert!(final_events
        .as_array()
        .expect("events")
        .iter()
        .any(|e| e["reason"] == json!("completed") && e["points"].as_array().is_some()));
    server.stop().await;
}
both_stores!(full_game);

/// The parts of a view that every audience must see alike.
fn public_part(view: &Value) -> Value {
    let mut v = view.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("seat");
        o.remove("hands");
        if let Some(c) = o.get_mut("chips").and_then(Value::as_object_mut) {
            c.remove("hands");
        }
    }
    v
}

/// What [`assert_nothing_hidden_leaks`] checked, so a test can tell that
/// its checks ran.
#[derive(Default)]
struct Checked {
    /// Views in which the seat's own non-empty hand of halves showed.
    own_halves: usize,
    /// Turns where drawing was a choice, checked to show no drawn tile.
    draw_choices: usize,
}

/// Checks one audience's messages for hidden information it must not see.
fn assert_nothing_hidden_leaks(msgs: &[Value], seat: Option<usize>) -> Checked {
    let mut checked = Checked::default();
    for m in msgs {
        let text = m.to_string();
        assert!(!text.contains("\"pile\""), "the draw order leaked: {text}");
        if let Some(w) = m.get("welcome") {
            for hidden in ["seed", "deck", "hands", "chips"] {
                assert!(
                    w["config"].get(hidden).is_none(),
                    "the configuration's {hidden} leaked"
                );
            }
        }
        let Some(body) = body_of(m) else { continue };
        let view = &body["view"];
        assert_eq!(view["seat"], json!(seat));
        for path in [&["hands"][..], &["chips", "hands"][..]] {
            let mut hands = view;
            for p in path {
                hands = &hands[*p];
            }
            let Some(hands) = hands.as_array() else {
                continue;
            };
            for (i, h) in hands.iter().enumerate() {
                if Some(i) == seat {
                    assert!(h.is_array(), "a seat sees its own {path:?}");
                    if path.len() == 1 && h.as_array().is_some_and(|a| !a.is_empty()) {
                        checked.own_halves += 1;
                    }
                } else {
                    assert!(
                        h.get("hidden").is_some() && !h.is_array(),
                        "seat {seat:?} saw seat {i}'s {path:?}: {h}"
                    );
                }
            }
        }
        if let Some(legal) = body.get("legal").and_then(Value::as_array) {
            assert_eq!(
                view["current_player"],
                json!(seat),
                "legal actions only on your turn"
            );
            if legal.iter().any(|a| a.get("draw").is_some()) {
                assert_eq!(
                    view["drawn"],
                    Value::Null,
                    "nobody sees the tile before it is drawn"
                );
                checked.draw_choices += 1;
            }
        }
    }
    checked
}

async fn hidden_information(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let cfg = config(3, 5, &["base", "halfsies1", "map-chips"]);
    let created = api.create(&cfg, &["human", "human", "greedy"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (a, wa) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let (b, wb) = Client::hello(&server.ws_base, &id, Some(&token(&created, 1)), None).await;
    let (spectator, _) = Client::hello(&server.ws_base, &id, None, None).await;
    api.start(&id, &token(&created, 0)).await;
    let pa = tokio::spawn(play_seat(a, wa, 3));
    let pb = tokio::spawn(play_seat(b, wb, 4));
    let ps = tokio::spawn(watch(spectator));
    let (ma, mb, ms) = (
        pa.await.expect("seat 0"),
        pb.await.expect("seat 1"),
        ps.await.expect("spectator"),
    );
    for (msgs, seat) in [(&ma, 0), (&mb, 1)] {
        let checked = assert_nothing_hidden_leaks(msgs, Some(seat));
        assert!(checked.own_halves > 0, "seat {seat} saw its halves");
        // A seat holding halves chooses to draw before seeing the tile:
        // those turns were offered and checked above.
        assert!(
            checked.draw_choices > 0,
            "seat {seat} was offered the draw step"
        );
    }
    assert_eq!(assert_nothing_hidden_leaks(&ms, None).own_halves, 0);

    // Apart from a seat's own hand, every audience sees the same thing at
    // every version: nobody is told more than a spectator.
    let public: BTreeMap<u64, Value> = played(&ms)
        .iter()
        .map(|b| {
            (
                b["version"].as_u64().expect("a version"),
                public_part(&b["view"]),
            )
        })
        .collect();
    assert!(!public.is_empty());
    for msgs in [&ma, &mb] {
        for b in played(msgs) {
            let v = b["version"].as_u64().expect("a version");
            assert_eq!(public_part(&b["view"]), public[&v], "version {v}");
        }
    }
    // The game used both expansions' actions.
    let rec = Record::parse(&api.record(&id).await.to_string()).expect("a record");
    assert!(rec.replay().expect("replays").is_finished());
    let texts: Vec<String> = rec
        .actions
        .iter()
        .map(|a| serde_json::to_string(a).expect("JSON"))
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("halfsies1/")),
        "halves were played"
    );
    server.stop().await;
}
both_stores!(hidden_information);

async fn refusals_change_nothing(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 9, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));

    // Before hello, and with forged tokens.
    let mut c = Client::connect(&server.ws_base, &id).await;
    c.send(&json!({"action": {"pass": {}}})).await;
    assert_eq!(c.next_error().await["code"], json!("hello_required"));
    c.send(&json!({"hello": {"token": "0123456789abcdef0123456789abcdef"}}))
        .await;
    assert_eq!(c.next_error().await["code"], json!("bad_token"));
    c.send(&json!({"hello": {"token": t1.to_uppercase()}}))
        .await;
    assert_eq!(c.next_error().await["code"], json!("bad_token"));
    c.send(&json!({"hello": {"token": ""}})).await;
    assert_eq!(c.next_error().await["code"], json!("bad_token"));
    assert!(c.closed().await, "three forged tokens close the connection");
    // A real token of another game plays nothing here.
    let other = api
        .create(&config(2, 10, &["base"]), &["human", "human"])
        .await;
    let mut c = Client::connect(&server.ws_base, &id).await;
    c.send(&json!({"hello": {"token": token(&other, 0)}})).await;
    assert_eq!(c.next_error().await["code"], json!("bad_token"));
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/start"),
            &json!({"token": token(&other, 0)}),
        )
        .await;
    assert_eq!(status, 403);

    let (mut p0, w0) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (mut p1, _) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    let (mut sp, _) = Client::hello(&server.ws_base, &id, None, None).await;
    assert!(
        w0["welcome"].get("legal").is_none(),
        "nothing to do before the start"
    );
    p0.send(&json!({"action": {"pass": {}}})).await;
    assert_eq!(p0.next_error().await["code"], json!("not_started"));

    api.start(&id, &t0).await;
    let start = p0.next().await;
    let legal = start["status"]["legal"]
        .as_array()
        .expect("seat 0 acts first")
        .clone();
    let place = legal
        .iter()
        .find(|a| a.get("place").is_some())
        .expect("a placement")
        .clone();

    let refused = |code: &'static str, msg: Value| (code, msg);
    let cases = vec![
        refused("not_your_turn", json!({"action": place.clone()})),
        refused("spectator", json!({"action": place.clone()})),
        refused("malformed", json!("{\"action\": ")),
        refused("malformed", json!("[]")),
        refused("unknown_type", json!({"teleport": {}})),
        refused("malformed", json!({"action": {"teleport": {}}})),
        refused("hello_twice", json!({"hello": {"token": null}})),
        refused(
            "stale_version",
            json!({"action": place.clone(), "version": 3}),
        ),
        refused(
            "bad_action",
            json!({"action": {"place": {"tile": "base/ZZ", "x": 1, "y": 0, "rotation": 0}}}),
        ),
        refused(
            "bad_action",
            json!({"action": {"place": {"tile": "base/D", "x": 1, "y": 0, "rotation": 45}}}),
        ),
        refused(
            "bad_action",
            json!({"action": {"place": {"tile": "base/D", "x": 99999999, "y": 0, "rotation": 0}}}),
        ),
        refused(
            "illegal",
            json!({"action": {"place": {"tile": place["place"]["tile"], "x": 40, "y": 40, "rotation": 0}}}),
        ),
        refused(
            "illegal",
            json!({"action": {"follower": {"x": 0, "y": 0, "place": "C"}}}),
        ),
    ];
    for (i, (code, msg)) in cases.into_iter().enumerate() {
        let client = match i {
            0 => &mut p1,
            1 => &mut sp,
            _ => &mut p0,
        };
        match msg.as_str() {
            Some(raw) => client.send_text(raw).await,
            None => client.send(&msg).await,
        }
        let e = client.next_error().await;
        assert_eq!(e["code"], json!(code), "case {i}: {msg} gave {e}");
        assert!(!e["message"].as_str().unwrap_or("").is_empty());
    }
    p0.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(p0.next_error().await["code"], json!("binary"));
    let huge = format!(r#"{{"ping": {{}}, "pad": "{}"}}"#, "x".repeat(70 * 1024));
    p0.send_text(&huge).await;
    assert_eq!(p0.next_error().await["code"], json!("too_large"));

    // HTTP refusals.
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({"token": "forged"}),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = api
        .post(&format!("/api/games/{id}/join"), &json!({"tokn": t0}))
        .await;
    assert_eq!(status, 400);
    let (status, _) = api.get("/api/games/0123456789abcdef").await;
    assert_eq!(status, 404);
    let (status, _) = api.get("/api/games/not-an-id/record").await;
    assert_eq!(status, 404);
    for (body, why) in [
        (
            json!({"config": config(2, 1, &["base"]), "seats": ["human"]}),
            "seat count",
        ),
        (
            json!({"config": config(2, 1, &["base"]), "seats": ["human", "alphazero"]}),
            "bot",
        ),
        (
            json!({"config": config(2, 1, &["base"]), "seats": ["human", "mcts:99999999"]}),
            "budget",
        ),
        (
            json!({"config": {"players": ["A"]}, "seats": ["human"]}),
            "one player",
        ),
        (
            json!({"config": {"players": ["A", "B"], "expansions": ["nope"]}, "seats": ["human", "human"]}),
            "expansion",
        ),
        (json!({"config": 7, "seats": []}), "config type"),
        (json!({"seats": []}), "no config"),
    ] {
        let (status, e) = api.post("/api/games", &body).await;
        assert_eq!(status, 400, "{why}: {e}");
        assert!(e["error"]["message"].as_str().is_some(), "{why}: {e}");
    }

    // Nothing changed: still version 0, an empty record, the first seat to move.
    assert_eq!(api.summary(&id).await["version"], json!(0));
    assert_eq!(api.summary(&id).await["to_move"], json!(0));
    assert_eq!(api.record(&id).await["actions"], json!([]));
    // And the game goes on: the legal action is taken.
    p0.send(&json!({"action": place, "version": 0})).await;
    let m = p0.next().await;
    assert_eq!(m["played"]["version"], json!(1), "{m}");
    assert_eq!(m["played"]["action"], place);
    assert_eq!(api.summary(&id).await["version"], json!(1));
    server.stop().await;
}
both_stores!(refusals_change_nothing);

async fn reconnect_with_since(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 21, &["base"]), &["human", "greedy"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let t0 = token(&created, 0);
    let (mut c, _) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    api.start(&id, &t0).await;

    // Play until a few turns have gone by, then act and drop the socket
    // at once, without reading the answer.
    let mut latest = c.next().await["status"].clone();
    let mut seen = 0;
    let sent = loop {
        if let Some(legal) = latest.get("legal").and_then(Value::as_array) {
            let action = legal[0].clone();
            c.send(&json!({"action": action, "version": seen})).await;
            // After the follower step the bot is to move.
            if seen >= 6 && action.get("place").is_none() {
                break action;
            }
        }
        let m = c.next().await;
        assert!(m.get("error").is_none(), "{m}");
        if let Some(p) = m.get("played") {
            seen = p["version"].as_u64().expect("a version");
            latest = p.clone();
        }
    };
    drop(c);

    // Back with the last version seen: exactly what was missed, in order,
    // starting with the action sent before the drop.
    let (mut c, w) = Client::hello(&server.ws_base, &id, Some(&t0), Some(seen as u32)).await;
    assert!(
        w["welcome"].get("view").is_none(),
        "no full view with since"
    );
    let mut last = loop {
        let m = c.next().await;
        let p = m.get("played").expect("played messages").clone();
        if p["version"].as_u64() == Some(seen + 1) {
            assert_eq!(p["seat"], json!(0));
            assert_eq!(p["action"], sent);
        }
        if p.get("legal").is_some() && p["version"].as_u64() >= w["welcome"]["version"].as_u64() {
            break p;
        }
    };
    assert_eq!(
        assert_contiguous(&c.received, seen + 1),
        last["version"].as_u64().expect("v")
    );
    let v = last["version"].as_u64().expect("a version");
    assert!(v > seen + 1, "the bot moved while we were away");

    // A fresh hello gives the same state as the last update.
    let (mut fresh, w2) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    assert_eq!(w2["welcome"]["version"], json!(v));
    assert_eq!(w2["welcome"]["view"], last["view"]);
    assert_eq!(w2["welcome"]["legal"], last["legal"]);
    // Up to date: nothing follows a hello at the current version.
    let (mut same, _) = Client::hello(&server.ws_base, &id, Some(&t0), Some(v as u32)).await;
    same.send(&json!({"ping": {}})).await;
    assert_eq!(same.next().await, json!({"pong": {}}));
    // Ahead of the game: refused.
    let mut ahead = Client::connect(&server.ws_base, &id).await;
    ahead
        .send(&json!({"hello": {"token": null, "since": v + 100}}))
        .await;
    assert_eq!(ahead.next_error().await["code"], json!("bad_since"));

    // Both connections of the seat get the next update.
    let action = last["legal"][0].clone();
    c.send(&json!({"action": action, "version": v})).await;
    last = c.next().await["played"].clone();
    assert_eq!(last["version"], json!(v + 1));
    assert_eq!(fresh.next().await["played"]["version"], json!(v + 1));
    server.stop().await;
}
both_stores!(reconnect_with_since);

/// A seat that reconnects with `since` at the game's version (nothing
/// missed, e.g. its own action never reached the server) is offered its
/// legal actions in the welcome: nothing else would bring them.
async fn reconnect_at_the_current_version_restores_legal_actions(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 8, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (_a, _) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (_b, _) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    api.start(&id, &t0).await;

    // Seat 0 is to act at version 0.
    let (_f, full) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let legal = full["welcome"]["legal"].clone();
    assert!(legal.as_array().is_some_and(|l| !l.is_empty()), "{full}");
    let (mut back, w) = Client::hello(&server.ws_base, &id, Some(&t0), Some(0)).await;
    assert!(
        w["welcome"].get("view").is_none(),
        "the client has this view"
    );
    assert_eq!(w["welcome"]["legal"], legal);
    // Nothing else follows it.
    back.send(&json!({"ping": {}})).await;
    assert_eq!(back.next().await, json!({"pong": {}}));
    // Not to act, or a spectator: no legal actions.
    let (_c, w1) = Client::hello(&server.ws_base, &id, Some(&t1), Some(0)).await;
    assert!(w1["welcome"].get("legal").is_none(), "{w1}");
    let (_s, ws) = Client::hello(&server.ws_base, &id, None, Some(0)).await;
    assert!(ws["welcome"].get("legal").is_none(), "{ws}");

    // The reconnected socket plays on: its first action, then (the
    // follower step) a reconnect at version 1 offers that step's actions.
    back.send(&json!({"action": legal[0], "version": 0})).await;
    let p = back.next().await;
    assert_eq!(p["played"]["version"], json!(1), "{p}");
    drop(back);
    let (_g, fresh) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (_d, w2) = Client::hello(&server.ws_base, &id, Some(&t0), Some(1)).await;
    assert!(fresh["welcome"]["legal"]
        .as_array()
        .is_some_and(|l| !l.is_empty()));
    assert_eq!(w2["welcome"]["legal"], fresh["welcome"]["legal"]);
    assert_eq!(w2["welcome"]["legal"], p["played"]["legal"]);
    server.stop().await;
}
both_stores!(reconnect_at_the_current_version_restores_legal_actions);

/// Before the start, the game's connections hear of every seat that is
/// claimed or left (a `status` with the new `seats`): a waiting room shows
/// who has come.
async fn joins_and_leaves_are_told_before_the_start(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(3, 5, &["base"]), &["human", "human", "greedy"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    let (mut a, w) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let joined = |m: &Value| -> Vec<bool> {
        m["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["joined"] == json!(true))
            .collect()
    };
    assert_eq!(joined(&w["welcome"]), [true, false, true]);
    let (mut spectator, _) = Client::hello(&server.ws_base, &id, None, None).await;
    // Seat 1 comes through its WebSocket: both connections are told.
    let (_b, _) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    for c in [&mut a, &mut spectator] {
        let m = c.next().await;
        assert_eq!(m["status"]["status"], json!("open"), "{m}");
        assert_eq!(joined(&m["status"]), [true, true, true]);
    }
    // Joining again changes nothing and tells nobody; leaving is told.
    let (status, _) = api
        .post(&format!("/api/games/{id}/join"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = api
        .post(&format!("/api/games/{id}/leave"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 200);
    let m = a.next().await;
    assert_eq!(joined(&m["status"]), [true, false, true], "{m}");
    // The start comes next, nothing between.
    api.start(&id, &t0).await;
    let m = a.next().await;
    assert_eq!(m["status"]["status"], json!("playing"), "{m}");
    server.stop().await;
}
both_stores!(joins_and_leaves_are_told_before_the_start);

async fn racing_clients(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 33, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (t0, t1) = (token(&created, 0), token(&created, 1));
    // Seat 0 is open on two devices; both act on every one of its turns.
    let (mut c1, mut l1) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (mut c2, mut l2) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (mut d, mut ld) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    api.start(&id, &t0).await;
    for (c, l) in [(&mut c1, &mut l1), (&mut c2, &mut l2), (&mut d, &mut ld)] {
        while l.get("status").is_none() {
            *l = c.next().await;
        }
    }
    let mut version = 0u64;
    let mut races = 0;
    while races < 8 {
        for (c, l) in [(&mut c1, &mut l1), (&mut c2, &mut l2), (&mut d, &mut ld)] {
            let errors = drain(c, version, l).await;
            assert!(errors.is_empty(), "{errors:?}");
        }
        if let Some(legal) = legal_of(&l1) {
            // With a version half the time, without it the other half.
            let msg = if races % 2 == 0 {
                json!({"action": legal[0], "version": version})
            } else {
                json!({"action": legal[0]})
            };
            let ((), ()) = tokio::join!(c1.send(&msg), c2.send(&msg));
            let e1 = drain(&mut c1, version + 1, &mut l1).await;
            let e2 = drain(&mut c2, version + 1, &mut l2).await;
            assert_eq!(
                e1.len() + e2.len(),
                1,
                "exactly one of two racing actions is refused: {e1:?} {e2:?}"
            );
            let code = e1.first().or(e2.first()).expect("an error");
            assert!(
                ["stale_version", "illegal", "not_your_turn"].contains(&code.as_str()),
                "{code}"
            );
            races += 1;
        } else {
            let legal = legal_of(&ld).expect("seat 1 is to act");
            d.send(&json!({"action": legal[0], "version": version}))
                .await;
        }
        version += 1;
        for (c, l) in [(&mut c1, &mut l1), (&mut c2, &mut l2), (&mut d, &mut ld)] {
            drain(c, version, l).await;
            assert_eq!(version_of(l), Some(version));
        }
        assert_eq!(api.summary(&id).await["version"], json!(version));
        assert_eq!(
            api.record(&id).await["actions"].as_array().map(Vec::len),
            Some(version as usize)
        );
    }
    server.stop().await;
}
both_stores!(racing_clients);

async fn store_race(db: &TestDb) {
    let store = db.open().await;
    let id = GameId::random();
    store
        .create_game(&common::bot_game_row(&id))
        .await
        .expect("create");
    for i in 0..20u32 {
        let a = format!("{{\"pass\":{{\"by\":\"a{i}\"}}}}");
        let b = format!("{{\"pass\":{{\"by\":\"b{i}\"}}}}");
        let (ra, rb) = tokio::join!(
            store.append_action(&id, i, &a, 1),
            store.append_action(&id, i, &b, 2)
        );
        let won = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
        assert_eq!(won, 1, "round {i}: {ra:?} {rb:?}");
        for r in [ra, rb] {
            if let Err(e) = r {
                assert!(
                    matches!(e, StoreError::Conflict { index, .. } if index == i),
                    "{e}"
                );
            }
        }
    }
    // No gaps either.
    assert!(matches!(
        store.append_action(&id, 25, "{}", 3).await,
        Err(StoreError::Conflict { .. })
    ));
    let stored = store.load_game(&id).await.expect("load").expect("the game");
    assert_eq!(stored.actions.len(), 20);
    store.close().await;
}
both_stores!(store_race);

async fn rate_limited(db: &TestDb) {
    // Five messages at once, then almost nothing: the refill cannot blur
    // the count however slow the machine.
    let server = TestServer::start_with(
        db,
        bastide_server::Settings {
            messages_per_second: 0.01,
            message_burst: 5.0,
            ..Default::default()
        },
    )
    .await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 3, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (mut c, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    for _ in 0..30 {
        c.send(&json!({"ping": {}})).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    for _ in 0..30 {
        let m = c.next().await;
        if m.get("pong").is_some() {
            pongs += 1;
        } else if m["error"]["code"] == json!("rate_limited") {
            limited += 1;
        }
    }
    // The hello took one of the five.
    assert_eq!((pongs, limited), (4, 26));
    // A client that goes on regardless is cut off (possibly while it is
    // still sending: the reset then ends the flood early).
    for _ in 0..30 {
        if !c.try_send(&json!({"ping": {}})).await {
            break;
        }
    }
    assert!(c.closed().await, "a flood closes the connection");
    let codes: Vec<&Value> = c.received.iter().map(|m| &m["error"]["code"]).collect();
    assert!(codes
        .iter()
        .all(|c| **c == json!("rate_limited") || c.is_null()));
    server.stop().await;
}
both_stores!(rate_limited);

async fn rematch_rotates_seats(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let cfg = json!({
        "players": ["RED", "BLUE", "GREEN"],
        "seed": 5,
        "deck": ["base/U", "base/E", "base/V", "base/U", "base/E"],
        "deck_only": true
    });
    let created = api.create(&cfg, &["greedy", "human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (t1, t2) = (token(&created, 1), token(&created, 2));
    // Listeners stay connected through the end; players play.
    let (mut l1, _) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    let (mut l2, _) = Client::hello(&server.ws_base, &id, Some(&t2), None).await;
    let (mut ls, _) = Client::hello(&server.ws_base, &id, None, None).await;
    let (p1, w1) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    let (p2, w2) = Client::hello(&server.ws_base, &id, Some(&t2), None).await;
    let (status, e) = api
        .post(&format!("/api/games/{id}/rematch"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 400, "no rematch before the end: {e}");
    api.start(&id, &t1).await;
    let (a, b) = tokio::join!(
        tokio::spawn(play_seat(p1, w1, 1)),
        tokio::spawn(play_seat(p2, w2, 2))
    );
    a.expect("seat 1");
    b.expect("seat 2");

    let (status, rematch) = api
        .post(&format!("/api/games/{id}/rematch"), &json!({"token": t2}))
        .await;
    assert_eq!(status, 201, "{rematch}");
    let new_id = rematch["id"].as_str().expect("an id").to_string();
    let kinds: Vec<&Value> = rematch["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| &s["kind"])
        .collect();
    assert_eq!(kinds, [&json!("human"), &json!("human"), &json!("greedy")]);
    let summary = api.summary(&new_id).await;
    assert_eq!(summary["players"], json!(["BLUE", "GREEN", "RED"]));
    assert_eq!(api.summary(&id).await["rematch"], json!(new_id));
    // The second request is told which game the rematch is.
    let (status, e) = api
        .post(&format!("/api/games/{id}/rematch"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(e["error"]["code"], json!("rematch_exists"));
    assert!(e["error"]["message"]
        .as_str()
        .expect("a message")
        .contains(&new_id));

    // Each person connected to the old game gets their own new seat and
    // token; a spectator only the game.
    let r1 = next_rematch(&mut l1).await;
    let r2 = next_rematch(&mut l2).await;
    let rs = next_rematch(&mut ls).await;
    assert_eq!(r1["game"], json!(new_id));
    assert_eq!(
        (r1["seat"].clone(), r2["seat"].clone()),
        (json!(0), json!(1))
    );
    assert_eq!(r1["token"], rematch["seats"][0]["token"]);
    assert_eq!(r2["token"], rematch["seats"][1]["token"]);
    assert_eq!(rs, json!({"game": new_id}));
    let (_, w) = Client::hello(
        &server.ws_base,
        &new_id,
        Some(r2["token"].as_str().expect("a token")),
        None,
    )
    .await;
    assert_eq!(w["welcome"]["seat"], json!(1));
    server.stop().await;
}
both_stores!(rematch_rotates_seats);

/// The next `rematch` message a client receives.
async fn next_rematch(c: &mut Client) -> Value {
    loop {
        let m = c.next().await;
        if let Some(r) = m.get("rematch") {
            return r.clone();
        }
    }
}

async fn games_are_bounded(db: &TestDb) {
    let server = TestServer::start_with(
        db,
        bastide_server::Settings {
            max_live_games: 2,
            ..Default::default()
        },
    )
    .await;
    let api = Api::new(&server.base);
    let cfg = config(2, 1, &["base"]);
    api.create(&cfg, &["human", "human"]).await;
    api.create(&cfg, &["human", "human"]).await;
    let (status, e) = api
        .post(
            "/api/games",
            &json!({"config": cfg, "seats": ["human", "human"]}),
        )
        .await;
    assert_eq!(status, 503, "{e}");
    assert_eq!(e["error"]["code"], json!("unavailable"));
    assert_eq!(
        api.get("/api/games").await.1["games"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    server.stop().await;
}
both_stores!(games_are_bounded);

async fn leave_before_start(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(2, 8, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let t1 = token(&created, 1);
    let joined = |s: &Value| s["seats"][1]["joined"].clone();
    api.post(&format!("/api/games/{id}/join"), &json!({"token": t1}))
        .await;
    assert_eq!(joined(&api.summary(&id).await), json!(true));
    let (status, left) = api
        .post(&format!("/api/games/{id}/leave"), &json!({"token": t1}))
        .await;
    assert_eq!((status, left), (200, json!({"seat": 1, "joined": false})));
    assert_eq!(joined(&api.summary(&id).await), json!(false));
    // The open games list shows the seat free; the invite still works.
    let (_, open) = api.get("/api/games").await;
    assert_eq!(joined(&open["games"][0]), json!(false));
    let (status, _) = api
        .post(&format!("/api/games/{id}/join"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 200);
    // After the start, leaving is resigning.
    api.start(&id, &t1).await;
    let (status, e) = api
        .post(&format!("/api/games/{id}/leave"), &json!({"token": t1}))
        .await;
    assert_eq!(status, 400, "{e}");
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/leave"),
            &json!({"token": "forged"}),
        )
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}
both_stores!(leave_before_start);

/// Reads until `pong`: the error codes and the versions played, in order.
async fn until_pong(c: &mut Client) -> (Vec<String>, Vec<u64>) {
    c.send(&json!({"ping": {}})).await;
    let (mut errors, mut versions) = (Vec::new(), Vec::new());
    loop {
        let m = c.next().await;
        if m.get("pong").is_some() {
            return (errors, versions);
        }
        if let Some(e) = m.get("error") {
            errors.push(e["code"].as_str().unwrap_or("").to_string());
        }
        if let Some(v) = m["played"]["version"].as_u64() {
            versions.push(v);
        }
    }
}

async fn two_servers_one_database(db: &TestDb) {
    // Two server processes on one database, each with the game in memory:
    // the log's primary key decides a race neither server can see.
    let a = TestServer::start(db).await;
    let api = Api::new(&a.base);
    let created = api
        .create(&config(2, 77, &["base"]), &["human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let t0 = token(&created, 0);
    api.start(&id, &t0).await;
    let b = TestServer::start(db).await;
    let (mut ca, wa) = Client::hello(&a.ws_base, &id, Some(&t0), None).await;
    let (mut cb, wb) = Client::hello(&b.ws_base, &id, Some(&t0), None).await;
    let legal = wa["welcome"]["legal"]
        .as_array()
        .expect("seat 0 acts")
        .clone();
    assert_eq!(wb["welcome"]["legal"].as_array(), Some(&legal));
    let msg = json!({"action": legal[0], "version": 0});
    let ((), ()) = tokio::join!(ca.send(&msg), cb.send(&msg));
    let (ea, va) = until_pong(&mut ca).await;
    let (eb, vb) = until_pong(&mut cb).await;
    assert_eq!(ea.len() + eb.len(), 1, "exactly one wins: {ea:?} {eb:?}");
    assert_eq!(
        ea.iter().chain(&eb).next().map(String::as_str),
        Some("stale_version")
    );
    // Both connections learn of the one action, once: the loser's server
    // caught up from the log before refusing.
    assert_eq!(va, [1], "{va:?}");
    assert_eq!(vb, [1], "{vb:?}");
    let record = api.record(&id).await;
    assert_eq!(record["actions"].as_array().map(Vec::len), Some(1));
    // The loser rebuilt its game from the log and goes on from there.
    let (mut loser, server) = if ea.is_empty() { (cb, &b) } else { (ca, &a) };
    let (_, w) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    assert_eq!(w["welcome"]["version"], json!(1));
    let next = w["welcome"]["legal"][0].clone();
    loser.send(&json!({"action": next, "version": 1})).await;
    let (e, v) = until_pong(&mut loser).await;
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(v, [2]);
    // (The winner's memory is behind now: servers do not tell each other
    // yet. The loser's is current.)
    let current = Api::new(&server.base).record(&id).await;
    assert_eq!(current["actions"].as_array().map(Vec::len), Some(2));
    a.stop().await;
    b.stop().await;
}
both_stores!(two_servers_one_database);
