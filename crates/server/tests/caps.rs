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
