//! Table chat over real sockets against both stores (docs/server.md,
//! "Table chat"): the players' channel reaches every seat and the
//! spectators, the spectators' channel only spectators; lines are cleaned
//! and bounded, kept for the welcome, and rate-limited per connection and
//! per address.

mod common;

use bastide_engine::GameConfig;
use bastide_server::guard::{Limits, Rate};
use bastide_server::Settings;
use common::{token, Api, Client, TestDb, TestServer};
use serde_json::{json, Value};

fn config(seed: u64) -> Value {
    serde_json::to_value(GameConfig::from_sets(2, seed, &["base"]).expect("a configuration"))
        .expect("JSON")
}

/// A started game of two people, and their connections and a spectator's.
async fn table(server: &TestServer, seed: u64) -> (String, Client, Client, Client) {
    let api = Api::new(&server.base);
    let created = api.create(&config(seed), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    api.start(&id, &token(&created, 0)).await;
    let (red, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let (blue, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, 1)), None).await;
    let (watcher, _) = Client::hello(&server.ws_base, &id, None, None).await;
    (id, red, blue, watcher)
}

/// The next chat line, skipping game updates; panics on an error.
async fn next_chat(c: &mut Client) -> Value {
    loop {
        let m = c.next().await;
        assert!(m.get("error").is_none(), "expected a chat line, got {m}");
        if let Some(line) = m.get("chat") {
            return line.clone();
        }
    }
}

/// Reads the next error: its code, and a message that says `why`.
async fn refused(c: &mut Client, code: &str, why: &str) {
    let e = c.next_error().await;
    assert_eq!(e["code"], json!(code), "{e}");
    let message = e["message"].as_str().unwrap_or_default();
    assert!(message.contains(why), "{e}");
}

fn say(text: &str) -> Value {
    json!({"chat": {"text": text}})
}

async fn channels(db: &TestDb) {
    let server = TestServer::start(db).await;
    let (id, mut red, mut blue, mut watcher) = table(&server, 1).await;
    // A seat's line reaches the other seat, the spectator and itself,
    // named by the guest seat's colour, cleaned.
    red.send(&say("  good\nluck ")).await;
    for c in [&mut red, &mut blue, &mut watcher] {
        let line = next_chat(c).await;
        assert_eq!(line["channel"], json!("players"));
        assert_eq!(line["from"], json!("RED"));
        assert_eq!(line["seat"], json!(0));
        assert_eq!(line["text"], json!("good luck"));
    }
    // A spectator's line reaches spectators only: the next line a seat
    // reads is the seat's own, said after it.
    watcher.send(&say("blue should close that city")).await;
    let heard = next_chat(&mut watcher).await;
    assert_eq!(heard["channel"], json!("spectators"));
    assert_eq!(heard["from"], json!("spectator"));
    assert_eq!(heard["seat"], Value::Null);
    blue.send(&say("thanks")).await;
    for c in [&mut red, &mut blue] {
        let line = next_chat(c).await;
        assert_eq!(
            line["text"],
            json!("thanks"),
            "a seat read the spectators' line"
        );
    }
    assert_eq!(next_chat(&mut watcher).await["text"], json!("thanks"));
    // A reload: the welcome has the lines its audience reads.
    let (_, w) = Client::hello(&server.ws_base, &id, None, None).await;
    let texts = |w: &Value| -> Vec<Value> {
        w["welcome"]["chat"]
            .as_array()
            .expect("the welcome's chat")
            .iter()
            .map(|l| l["text"].clone())
            .collect()
    };
    assert_eq!(
        texts(&w),
        vec![
            json!("good luck"),
            json!("blue should close that city"),
            json!("thanks")
        ]
    );
    // The game's page, which the players open too, has only theirs.
    let html = reqwest::get(format!("{}/play/{id}", server.base))
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    assert!(html.contains("good luck") && html.contains("thanks"));
    assert!(
        !html.contains("close that city"),
        "a spectator's line on the page"
    );
    for c in [red, blue, watcher] {
        c.close().await;
    }
    server.stop().await;
}
both_stores!(channels);

async fn seats_welcome_has_players_lines_only(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api.create(&config(2), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    api.start(&id, &token(&created, 0)).await;
    let (mut red, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let (mut watcher, _) = Client::hello(&server.ws_base, &id, None, None).await;
    red.send(&say("hi")).await;
    next_chat(&mut red).await;
    watcher.send(&say("psst")).await;
    next_chat(&mut watcher).await;
    let (_, w) = Client::hello(&server.ws_base, &id, Some(&token(&created, 1)), None).await;
    let chat = w["welcome"]["chat"].as_array().expect("chat").clone();
    assert_eq!(chat.len(), 1, "{chat:?}");
    assert_eq!(chat[0]["text"], json!("hi"));
    server.stop().await;
}
both_stores!(seats_welcome_has_players_lines_only);

async fn bad_lines_are_refused(db: &TestDb) {
    let server = TestServer::start(db).await;
    let (_, mut red, _blue, _watcher) = table(&server, 3).await;
    red.send(&say(&"x".repeat(301))).await;
    refused(&mut red, "bad_chat", "at most 300 characters, not 301").await;
    red.send(&say(" \u{7}\n ")).await;
    assert_eq!(red.next_error().await["code"], json!("bad_chat"));
    red.send(&json!({"chat": {"text": "hi", "to": "BLUE"}}))
        .await;
    assert_eq!(red.next_error().await["code"], json!("malformed"));
    // 300 characters are fine, and a refused line cost no allowance.
    red.send(&say(&"é".repeat(300))).await;
    assert_eq!(
        next_chat(&mut red).await["text"]
            .as_str()
            .map(|t| t.chars().count()),
        Some(300)
    );
    server.stop().await;
}
both_stores!(bad_lines_are_refused);

async fn floods_are_rate_limited(db: &TestDb) {
    // Per connection: five lines at once, then the sixth is refused.
    let server = TestServer::start(db).await;
    let (_, mut red, _blue, _watcher) = table(&server, 4).await;
    for i in 0..5 {
        red.send(&say(&format!("line {i}"))).await;
        assert_eq!(
            next_chat(&mut red).await["text"],
            json!(format!("line {i}"))
        );
    }
    red.send(&say("one too many")).await;
    let e = red.next_error().await;
    assert_eq!(e["code"], json!("rate_limited"), "{e}");
    server.stop().await;

    // Per address, over all its connections: three lines from the address
    // in all, whichever connection says them.
    let server = TestServer::start_with(
        db,
        Settings {
            limits: Limits {
                chats: Rate::new(1, 3),
                ..Limits::unlimited()
            },
            ..Settings::unlimited()
        },
    )
    .await;
    let (_, mut red, mut blue, _watcher) = table(&server, 5).await;
    // Each line is heard back before the next is said: the order is the
    // test's, not the sockets' race.
    for (seat, text) in [(0, "a"), (1, "b"), (0, "c")] {
        let c = if seat == 0 { &mut red } else { &mut blue };
        c.send(&say(text)).await;
        while next_chat(c).await["text"] != json!(text) {}
    }
    blue.send(&say("d")).await;
    refused(&mut blue, "rate_limited", "chat lines from your address").await;
    server.stop().await;
}
both_stores!(floods_are_rate_limited);
