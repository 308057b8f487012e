//! The server against a crowd and against cheaters (issue 50), tried over
//! real sockets as an attacker would: what one message may cost, the
//! global bounds on expensive work, and rated play that means what it
//! says.

mod common;

use std::time::{Duration, Instant};

use bastide_engine::GameConfig;
use bastide_server::hub::{CreateGame, CATCH_UP_MOVES, CATCH_UP_PIECES, LOG_PAGE};
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

    // The board is large: the most missed moves sent as such is what
    // their views may hold in all; one more is a snapshot.
    let pieces = welcome["view"]["board"].as_array().map_or(0, Vec::len) as u64;
    let behind = u64::from(CATCH_UP_PIECES) / pieces;
    assert!(behind < u64::from(CATCH_UP_MOVES), "{pieces} pieces");
    let (got, _) = catch_up(&server, &created.id, version - behind - 1).await;
    assert_eq!(got.len(), 1, "a snapshot: {} messages", got.len());
    assert!(got[0]["welcome"].get("view").is_some());

    // What a reconnect cost: the replay starts at the move log's last
    // snapshot before the missed moves, not at the start of an
    // 800-version game.
    let replayed = || server.running.hub.metrics().replayed.get();
    let before = replayed();
    let (got, _) = catch_up(&server, &created.id, version - behind).await;
    let versions: Vec<u64> = got[1..]
        .iter()
        .map(|m| m["played"]["version"].as_u64().expect("a played message"))
        .collect();
    assert_eq!(
        versions,
        (version - behind + 1..=version).collect::<Vec<_>>()
    );
    // Counted when the replay ends, just after its last message.
    let deadline = Instant::now() + WAIT;
    while replayed() == before {
        assert!(Instant::now() < deadline, "the catch-up was not counted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cost = replayed() - before;
    let bound = (LOG_PAGE as u64) + behind;
    assert!(
        (behind..=bound).contains(&cost),
        "{behind} missed moves of {version} cost {cost} actions replayed (at most {bound})"
    );
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

/// A page of another origin (another port of the same host shares the
/// site, and so the visitor's cookie) can change nothing: a join, a
/// create or a WebSocket from it is refused; the server's own pages and
/// programs (no `Origin`) pass; a body that is not JSON is refused.
async fn a_cross_origin_join_is_refused(db: &TestDb) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(
            &serde_json::to_value(GameConfig::from_sets(2, 3, &["base"]).expect("a config"))
                .expect("JSON"),
            &["human", "human"],
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let join = format!("{}/api/games/{id}/join", server.base);
    let body = json!({"token": common::token(&created, 1)});
    let host = server.base.trim_start_matches("http://").to_string();
    let port = host
        .rsplit(':')
        .next()
        .expect("a port")
        .parse::<u16>()
        .expect("a port");
    let elsewhere = format!("http://127.0.0.1:{}", port.wrapping_add(1));
    let http = reqwest::Client::new();
    let r = http
        .post(&join)
        .header("origin", &elsewhere)
        .json(&body)
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status().as_u16(), 403);
    let refusal: Value = r.json().await.expect("JSON");
    assert_eq!(refusal["error"]["code"], json!("forbidden"), "{refusal}");
    // A form's body, or a plain-text one, is not JSON.
    let r = http
        .post(&join)
        .header("content-type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status().as_u16(), 400);
    // Nothing was joined.
    let summary = api.summary(&id).await;
    assert_eq!(summary["seats"][1]["joined"], json!(false), "{summary}");
    // The WebSocket of a page elsewhere is refused at the upgrade.
    let mut request = format!("{}/api/games/{id}/ws", server.ws_base)
        .into_client_request()
        .expect("a request");
    request
        .headers_mut()
        .insert("origin", elsewhere.parse().expect("a header"));
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    // The server's own page, and a program, join.
    let r = http
        .post(&join)
        .header("origin", format!("http://{host}"))
        .json(&body)
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status().as_u16(), 200, "{:?}", r.text().await);
    let (status, answer) = api.post(&format!("/api/games/{id}/join"), &body).await;
    assert_eq!(status, 200, "{answer}");
    server.stop().await;
}
both_stores!(a_cross_origin_join_is_refused);

/// Signs up and in; the session's cookie (`name=value`).
async fn session(base: &str, name: &str) -> String {
    let who = json!({"name": name, "password": "pass-word-1"});
    let (status, _, body) = post(base, "/api/accounts", &who).await;
    assert_eq!(status, 201, "{body}");
    let r = reqwest::Client::new()
        .post(format!("{base}/api/sessions"))
        .json(&who)
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status().as_u16(), 200);
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie");
    cookie.split(';').next().expect("name=value").to_string()
}

/// POSTs JSON as a session (`None`: a program without one); the status
/// and body.
async fn post_as(base: &str, cookie: Option<&str>, path: &str, body: &Value) -> (u16, Value) {
    let mut r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(body);
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    let r = r.send().await.expect("POST");
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// In a rated game the creator is handed its own seat's token only, and
/// a seat an account holds answers that account's session alone: Bob's
/// token, had Alice come by it, cannot resign, leave or play his seat,
/// from her session or none, over HTTP or the WebSocket; his own session
/// can.
async fn a_rated_seat_cannot_be_stolen_with_its_token(db: &TestDb) {
    let server = TestServer::start(db).await;
    let base = server.base.clone();
    let alice = session(&base, "alice").await;
    let bob = session(&base, "bob").await;
    let game =
        json!({"config": {"players": ["RED", "BLUE"]}, "seats": ["human", "human"], "rated": true});
    let (status, created) = post_as(&base, Some(&alice), "/api/games", &game).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    // Alice's seat's token; of Bob's seat, an invite without a token.
    let alices = common::token(&created, 0);
    assert!(created["seats"][1].get("token").is_none(), "{created}");
    let invite = created["seats"][1]["invite"].as_str().expect("an invite");
    assert!(
        invite.ends_with(&format!("/play/{id}")),
        "no token in the invite: {invite}"
    );
    // Bob takes his seat from the lobby: the game starts.
    let (status, sat) = post_as(
        &base,
        Some(&bob),
        &format!("/api/games/{id}/sit"),
        &json!({}),
    )
    .await;
    assert_eq!(status, 200, "{sat}");
    assert_eq!(
        (sat["seat"].clone(), sat["status"].clone()),
        (json!(1), json!("playing"))
    );
    let bobs = sat["token"].as_str().expect("a token").to_string();
    let seat = |t: &str| json!({ "token": t });
    let (status, body) = post_as(
        &base,
        Some(&alice),
        &format!("/api/games/{id}/start"),
        &seat(&alices),
    )
    .await;
    assert_eq!(status, 400, "already started: {body}");

    // Bob's seat, with Bob's token, from Alice's session or none: refused.
    for cookie in [Some(alice.as_str()), None] {
        for what in ["resign", "leave", "join"] {
            let (status, body) = post_as(
                &base,
                cookie,
                &format!("/api/games/{id}/{what}"),
                &seat(&bobs),
            )
            .await;
            assert_eq!(status, 403, "{what} as {cookie:?}: {body}");
            assert_eq!(body["error"]["code"], json!("forbidden"), "{body}");
        }
    }
    let mut ws = Client::connect_as(&server.ws_base, &id, &alice).await;
    ws.send(&json!({"hello": {"token": bobs, "since": null}}))
        .await;
    let answer = ws.next().await;
    assert_eq!(answer["error"]["code"], json!("forbidden"), "{answer}");
    assert_eq!(api_status(&base, &id).await, "playing");

    // Bob's own session resigns his seat.
    let (status, body) = post_as(
        &base,
        Some(&bob),
        &format!("/api/games/{id}/resign"),
        &seat(&bobs),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seat"], json!(1));
    server.stop().await;
}
both_stores!(a_rated_seat_cannot_be_stolen_with_its_token);

async fn api_status(base: &str, id: &str) -> String {
    Api::new(base).summary(id).await["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// POSTs JSON from a client a trusted proxy names; the status and body.
async fn post_from(base: &str, from: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("x-forwarded-for", from)
        .json(body)
        .send()
        .await
        .expect("POST");
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// Guesses at a name from one address use up that address's tries only:
/// the name's owner, elsewhere, still signs in (the allowance was the
/// name's over every address, and one address guessing every 6 s kept
/// its owner out).
async fn guesses_do_not_lock_the_owner_out(db: &TestDb) {
    let server = TestServer::start_with(
        db,
        bastide_server::Settings {
            limits: bastide_server::guard::Limits {
                sign_ins: bastide_server::guard::Rate::new(1, 3),
                trust_proxy: vec!["127.0.0.0/8".parse().expect("a network")],
                ..bastide_server::guard::Limits::unlimited()
            },
            ..bastide_server::Settings::unlimited()
        },
    )
    .await;
    let base = server.base.clone();
    let owner = json!({"name": "victim", "password": "pass-word-1"});
    let (status, body) = post_from(&base, "10.0.0.3", "/api/accounts", &owner).await;
    assert_eq!(status, 201, "{body}");
    let guess = json!({"name": "victim", "password": "a-guess-123"});
    let mut refused = false;
    for _ in 0..6 {
        let (status, body) = post_from(&base, "10.0.0.1", "/api/sessions", &guess).await;
        assert!(status == 401 || status == 429, "{status} {body}");
        refused |= status == 429;
    }
    assert!(refused, "the guesser is slowed down");
    let (status, body) = post_from(&base, "10.0.0.2", "/api/sessions", &owner).await;
    assert_eq!(status, 200, "the owner signs in: {body}");
    server.stop().await;
}
both_stores!(guesses_do_not_lock_the_owner_out);
