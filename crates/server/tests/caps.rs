//! Fair caps over real sockets, against both stores: a signed-in
//! player's games are charged to their account, not to the address they
//! share with others; a guest at the cap frees a share by resigning.

mod common;

use bastide_engine::GameConfig;
use bastide_server::{Caps, Settings};
use common::{session, token, Api, TestDb, TestServer};
use serde_json::{json, Value};

fn config(seed: u64) -> Value {
    serde_json::to_value(GameConfig::from_sets(2, seed, &["base"]).expect("a configuration"))
        .expect("JSON")
}

/// A server with these caps and the default rates.
async fn with_caps(db: &TestDb, caps: Caps) -> TestServer {
    TestServer::start_with(
        db,
        Settings {
            caps,
            ..Settings::default()
        },
    )
    .await
}

/// Creates a game of a person and a bot with `cookie` (none: a guest): the status and body.
async fn create(base: &str, cookie: Option<&str>, seed: u64) -> (u16, Value) {
    let mut r = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .json(&json!({"config": config(seed), "seats": ["human", "greedy"]}));
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    let r = r.send().await.expect("create");
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn accounts_are_capped_apart_from_their_address(db: &TestDb) {
    let server = with_caps(
        db,
        Caps {
            bot_seats: 1,
            ..Caps::unlimited()
        },
    )
    .await;
    let base = server.base.clone();
    let api = Api::new(&base);
    // A guest fills the address's share.
    let (status, guest) = create(&base, None, 1).await;
    assert_eq!(status, 201, "{guest}");
    let (status, refused) = create(&base, None, 2).await;
    assert_eq!(status, 429, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("resign"),
        "the refusal says the way out: {message}"
    );
    // Two players signed in behind the same address each have their own.
    let anna = session(&base, "anna").await;
    let bert = session(&base, "bert").await;
    assert_eq!(create(&base, Some(&anna), 3).await.0, 201);
    assert_eq!(create(&base, Some(&bert), 4).await.0, 201);
    // And the account's own share holds.
    let (status, refused) = create(&base, Some(&anna), 5).await;
    assert_eq!(status, 429, "{refused}");
    // The guest resigns (as from the lobby's list): the share is back.
    let id = guest["id"].as_str().expect("an id");
    api.start(id, &token(&guest, 0)).await;
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({"token": token(&guest, 0)}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(create(&base, None, 6).await.0, 201);
    server.stop().await;
}
both_stores!(accounts_are_capped_apart_from_their_address);

async fn a_cancelled_open_game_frees_its_share(db: &TestDb) {
    let server = with_caps(
        db,
        Caps {
            open_games: 1,
            ..Caps::unlimited()
        },
    )
    .await;
    let api = Api::new(&server.base);
    let two = json!({"config": config(7), "seats": ["human", "human"]});
    let (status, room) = api.post("/api/games", &two).await;
    assert_eq!(status, 201, "{room}");
    let (status, refused) = api.post("/api/games", &two).await;
    assert_eq!(status, 429, "{refused}");
    let id = room["id"].as_str().expect("an id");
    // Only its creator may cancel it.
    let (status, no) = api
        .post(
            &format!("/api/games/{id}/cancel"),
            &json!({"token": token(&room, 1)}),
        )
        .await;
    assert_eq!(
        (status, no["error"]["code"].clone()),
        (403, json!("forbidden")),
        "{no}"
    );
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/cancel"),
            &json!({"token": token(&room, 0)}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        api.get(&format!("/api/games/{id}")).await.0,
        404,
        "the game is gone"
    );
    let (status, again) = api.post("/api/games", &two).await;
    assert_eq!(status, 201, "the share is back: {again}");
    server.stop().await;
}
both_stores!(a_cancelled_open_game_frees_its_share);

/// Creates a game from a client a trusted proxy names: the status and body.
async fn create_from(base: &str, from: &str, game: &Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .header("x-forwarded-for", from)
        .json(game)
        .send()
        .await
        .expect("create");
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// Settings believing loopback's `X-Forwarded-For`, with `caps`.
fn behind_proxy(caps: Caps) -> Settings {
    Settings {
        caps,
        limits: bastide_server::guard::Limits {
            trust_proxy: vec!["127.0.0.0/8".parse().expect("a network")],
            ..bastide_server::guard::Limits::unlimited()
        },
        ..Settings::default()
    }
}

/// Many addresses of one network share its caps (an IPv6 /48's /64s,
/// an IPv4 /24's addresses), across a restart; another network does not.
async fn a_network_shares_its_caps(db: &TestDb) {
    let caps = Caps {
        open_games: 2,
        network_factor: 2,
        ..Caps::unlimited()
    };
    let server = TestServer::start_with(db, behind_proxy(caps)).await;
    let base = server.base.clone();
    let open = json!({"config": config(1), "seats": ["human", "human"]});
    for n in 1..=4 {
        let (status, body) = create_from(&base, &format!("2001:db8:7:{n}::1"), &open).await;
        assert_eq!(status, 201, "address {n}: {body}");
    }
    let refused = |body: &Value| {
        let m = body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(m.contains("your network"), "{m}");
    };
    let (status, body) = create_from(&base, "2001:db8:7:5::1", &open).await;
    assert_eq!(status, 429, "a fifth /64 of the /48: {body}");
    refused(&body);
    let (status, body) = create_from(&base, "2001:db8:8:1::1", &open).await;
    assert_eq!(status, 201, "another /48: {body}");
    for host in 1..=4 {
        let (status, body) = create_from(&base, &format!("203.0.113.{host}"), &open).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = create_from(&base, "203.0.113.77", &open).await;
    assert_eq!(status, 429, "the /24 is full: {body}");
    server.stop().await;
    // The games are read back charged to their network again.
    let server = TestServer::start_with(db, behind_proxy(caps)).await;
    let (status, body) = create_from(&server.base, "2001:db8:7:9::1", &open).await;
    assert_eq!(status, 429, "after a restart: {body}");
    refused(&body);
    server.stop().await;
}
both_stores!(a_network_shares_its_caps);

/// A correspondence game counts until it ends, started or not.
async fn correspondence_games_are_capped(db: &TestDb) {
    let caps = Caps {
        correspondence_games: 1,
        ..Caps::unlimited()
    };
    let server = TestServer::start_with(db, behind_proxy(caps)).await;
    let base = server.base.clone();
    let api = Api::new(&base);
    let game = json!({"config": config(3), "seats": ["human", "greedy"],
                      "clock": {"days_per_move": 3}});
    let (status, first) = create_from(&base, "198.51.100.1", &game).await;
    assert_eq!(status, 201, "{first}");
    let id = first["id"].as_str().expect("an id");
    api.start(id, &token(&first, 0)).await;
    let (status, body) = create_from(&base, "198.51.100.1", &game).await;
    assert_eq!(status, 429, "{body}");
    let m = body["error"]["message"].as_str().unwrap_or_default();
    assert!(m.contains("correspondence"), "{m}");
    // An untimed game is not a correspondence game.
    let untimed = json!({"config": config(4), "seats": ["human", "greedy"]});
    assert_eq!(create_from(&base, "198.51.100.1", &untimed).await.0, 201);
    // Resigned: the share is free again.
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({"token": token(&first, 0)}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(create_from(&base, "198.51.100.1", &game).await.0, 201);
    server.stop().await;
}
both_stores!(correspondence_games_are_capped);

/// Near the games cap, games with people still come in after games of
/// bots only are refused.
async fn people_come_before_bots_near_the_cap(db: &TestDb) {
    let server = TestServer::start_with(
        db,
        Settings {
            max_live_games: 10,
            ..Settings::unlimited()
        },
    )
    .await;
    let api = Api::new(&server.base);
    let people = json!({"config": config(5), "seats": ["human", "human"]});
    for _ in 0..9 {
        let (status, body) = api.post("/api/games", &people).await;
        assert_eq!(status, 201, "{body}");
    }
    // The last tenth is kept for people.
    let bots = json!({"config": config(6), "seats": ["random", "random"]});
    let (status, body) = api.post("/api/games", &bots).await;
    assert_eq!(status, 503, "{body}");
    let m = body["error"]["message"].as_str().unwrap_or_default();
    assert!(m.contains("kept for games with people"), "{m}");
    let (status, body) = api.post("/api/games", &people).await;
    assert_eq!(status, 201, "a person's game still comes in: {body}");
    let (status, _) = api.post("/api/games", &people).await;
    assert_eq!(status, 503, "now full");
    server.stop().await;
}
both_stores!(people_come_before_bots_near_the_cap);
