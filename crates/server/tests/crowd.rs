//! The server against a crowd and against cheaters (issue 50), tried over
//! real sockets as an attacker would: what one message may cost, the
//! global bounds on expensive work, and rated play that means what it
//! says.

mod common;

use std::time::{Duration, Instant};

use bastide_engine::GameConfig;
use bastide_server::hub::{CreateGame, CATCH_UP_MOVES};
use common::{Api, Client, TestDb, TestServer, WAIT};
use serde_json::{json, Value};

/// A free deck of `tiles` straight city-and-road tiles: one fits beside
/// any board, so random bots play every one of them.
fn free_deck(tiles: usize) -> Value {
    let mut config = GameConfig::from_sets(2, 7, &["base"]).expect("a configuration");
    config.deck = Some(vec!["base/D".to_string(); tiles]);
    config.deck_only = true;
    serde_json::to_value(config).expect("JSON")
}

/// Waits until a game is over; its version then.
async fn finished(api: &Api, id: &str) -> u64 {
    let deadline = Instant::now() + WAIT;
    loop {
        let s = api.summary(id).await;
        if matches!(s["status"].as_str(), Some("finished" | "resigned")) {
            return s["version"].as_u64().expect("a version");
        }
        assert!(Instant::now() < deadline, "the game did not end: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Says hello with `since`, then pings: every message before the pong's
/// answer, the welcome first, and how long it all took.
async fn catch_up(server: &TestServer, id: &str, since: u64) -> (Vec<Value>, Duration) {
    let began = Instant::now();
    let since = u32::try_from(since).expect("a version");
    let (mut c, welcome) = Client::hello(&server.ws_base, id, None, Some(since)).await;
    c.send(&json!({"ping": {}})).await;
    let mut got = vec![welcome];
    loop {
        let m = c.next().await;
        if m.get("pong").is_some() {
            return (got, began.elapsed());
        }
        got.push(m);
    }
}

/// A reconnect far behind a long game gets one welcome with today's view,
/// not a `played` message with the whole board per version; a reconnect
/// a few moves behind gets exactly those moves.
async fn a_long_games_catch_up_is_a_snapshot(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    // The operator's game: a free deck far longer than a stranger may ask.
    let created = server
        .running
        .hub
        .create(
            CreateGame {
                config: free_deck(400),
                seats: vec!["random".into(), "random".into()],
                clock: None,
                rated: false,
                private: false,
                creator: None,
            },
            None,
        )
        .await
        .expect("the operator's game");
    let version = finished(&api, &created.id).await;
    assert!(version >= 800, "a long game: {version} versions");

    let (got, took) = catch_up(&server, &created.id, 0).await;
    assert_eq!(
        got.len(),
        1,
        "one welcome, no played messages: {}",
        got.len()
    );
    let welcome = &got[0]["welcome"];
    assert_eq!(welcome["version"].as_u64(), Some(version));
    assert!(welcome["view"]["board"]
        .as_array()
        .is_some_and(|b| b.len() > 400));
    assert!(took < Duration::from_secs(10), "the catch-up took {took:?}");

    // Just past the bound: a snapshot still.
    let (got, _) = catch_up(
        &server,
        &created.id,
        version - u64::from(CATCH_UP_MOVES) - 1,
    )
    .await;
    assert_eq!(got.len(), 1, "a snapshot");
    assert!(got[0]["welcome"].get("view").is_some());

    // A few moves behind: those moves, in order, and no full view.
    let (got, _) = catch_up(&server, &created.id, version - 3).await;
    assert!(got[0]["welcome"].get("view").is_none());
    let versions: Vec<u64> = got[1..]
        .iter()
        .map(|m| m["played"]["version"].as_u64().expect("a played message"))
        .collect();
    assert_eq!(versions, vec![version - 2, version - 1, version]);
    server.stop().await;
}
both_stores!(a_long_games_catch_up_is_a_snapshot);

/// A stranger's free deck holds no more tiles than the sets in play: the
/// 6,000-tile deck that made a game of 12,000 actions is refused, and
/// says why; a deck the size of the sets is taken.
async fn a_strangers_deck_is_bounded_by_the_sets(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let create = |tiles: usize| {
        let body = json!({"config": free_deck(tiles), "seats": ["random", "random"]});
        let api = &api;
        async move { api.post("/api/games", &body).await }
    };
    let (status, body) = create(6000).await;
    assert_eq!(status, 400, "{body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("deck_only") && message.contains("6000"),
        "{body}"
    );
    // The base game holds 72 tiles.
    let (status, body) = create(72).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = create(73).await;
    assert_eq!(status, 400, "{body}");
    server.stop().await;
}
both_stores!(a_strangers_deck_is_bounded_by_the_sets);

/// POSTs JSON; the status, `Retry-After` and body.
async fn post(base: &str, path: &str, body: &Value) -> (u16, Option<String>, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(body)
        .send()
        .await
        .expect("POST");
    let status = r.status().as_u16();
    let retry = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, retry, r.json().await.unwrap_or(Value::Null))
}

/// Password hashes (19 MiB each) run a few at a time over the whole
/// server: a crowd of sign-ins, each within its address's allowance, is
/// answered `503` with `Retry-After` beyond the gate's queue instead of
/// taking a blocking thread and its 19 MiB each; the server signs people
/// in again once the crowd is gone.
async fn password_hashing_is_gated(db: &TestDb) {
    let server = TestServer::start_with(
        db,
        bastide_server::Settings {
            password_hashers: 1,
            password_queue: 2,
            ..bastide_server::Settings::unlimited()
        },
    )
    .await;
    let who = json!({"name": "crowded", "password": "pass-word-1"});
    let (status, _, body) = post(&server.base, "/api/accounts", &who).await;
    assert_eq!(status, 201, "{body}");
    let crowd = (0..24).map(|_| post(&server.base, "/api/sessions", &who));
    let answers = futures_util::future::join_all(crowd).await;
    let signed_in = answers.iter().filter(|a| a.0 == 200).count();
    let refused: Vec<_> = answers.iter().filter(|a| a.0 == 503).collect();
    assert!(signed_in >= 1, "someone signs in");
    // A hasher and its queue of two at once: the crowd arrives within
    // a hash's time, so most of it is refused.
    assert!(signed_in <= 8, "most are refused: {signed_in} signed in");
    assert_eq!(signed_in + refused.len(), answers.len(), "200 or 503 only");
    for (_, retry, body) in refused {
        assert_eq!(retry.as_deref(), Some("1"), "{body}");
        assert_eq!(body["error"]["code"], json!("unavailable"), "{body}");
    }
    assert_eq!(server.running.hub.hashing().admitted(), 0, "nothing left");
    let (status, _, body) = post(&server.base, "/api/sessions", &who).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}
both_stores!(password_hashing_is_gated);

/// A request body sent a byte at a time is cut once the headers' deadline
/// has passed again: the server answers and closes the connection, which
/// no longer holds one of the address's slots.
async fn a_slow_body_is_cut(db: &TestDb) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(
        db,
        bastide_server::Settings {
            limits: bastide_server::guard::Limits {
                header_timeout: Duration::from_secs(1),
                ..bastide_server::guard::Limits::unlimited()
            },
            ..bastide_server::Settings::unlimited()
        },
    )
    .await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut slow = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    let began = Instant::now();
    slow.write_all(
        b"POST /api/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n{",
    )
    .await
    .expect("the headers");
    // One byte every 200 ms, for at most 10 s: the server must cut first.
    let (mut answer, mut buf) = (Vec::new(), [0u8; 1024]);
    let closed = loop {
        if began.elapsed() > Duration::from_secs(10) {
            break false;
        }
        if slow.write_all(b" ").await.is_err() {
            break true;
        }
        match tokio::time::timeout(Duration::from_millis(200), slow.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break true,
            Ok(Ok(n)) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
    };
    let took = began.elapsed();
    assert!(closed, "the slow body was never cut");
    assert!(took < Duration::from_secs(5), "cut after {took:?}");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    server.stop().await;
}
both_stores!(a_slow_body_is_cut);
