//! Taking a seat from the lobby over real sockets, against both stores:
//! a stranger sits in a public open game's free seat with a new token,
//! the waiting room hears of it, the game starts once full; a private
//! game is not listed and refuses strangers; a full game says so.

mod common;

use bastide_engine::GameConfig;
use common::{token, Api, Client, TestDb, TestServer};
use serde_json::{json, Value};

fn config(players: usize, seed: u64) -> Value {
    serde_json::to_value(GameConfig::from_sets(players, seed, &["base"]).expect("a configuration"))
        .expect("JSON")
}

fn listed(list: &Value, id: &str) -> bool {
    list["games"]
        .as_array()
        .expect("a list")
        .iter()
        .any(|g| g["id"] == json!(id))
}

async fn a_stranger_takes_a_free_seat(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let created = api
        .create(&config(3, 5), &["human", "human", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let t0 = token(&created, 0);
    let (mut host, _) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    let (_, open) = api.get("/api/games?status=open").await;
    assert!(listed(&open, &id), "a public game is listed: {open}");

    // The first stranger gets seat 1 and a new token; the host hears of it.
    let (status, sat) = api.post(&format!("/api/games/{id}/sit"), &json!({})).await;
    assert_eq!(status, 200, "{sat}");
    assert_eq!(
        (sat["seat"].clone(), sat["status"].clone()),
        (json!(1), json!("open"))
    );
    let t1 = sat["token"].as_str().expect("a token").to_string();
    assert_ne!(t1, token(&created, 1), "a new token, not the invite's");
    let m = host.next().await;
    assert_eq!(m["status"]["seats"][1]["joined"], json!(true), "{m}");
    // The new token plays the seat; the old invite of that seat no longer does.
    let (_b, w) = Client::hello(&server.ws_base, &id, Some(&t1), None).await;
    assert_eq!(w["welcome"]["seat"], json!(1), "{w}");
    let (status, refused) = api
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"token": token(&created, 1)}),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].clone()),
        (403, json!("bad_token"))
    );

    // The last free seat taken: the game starts by itself.
    let (status, sat) = api.post(&format!("/api/games/{id}/sit"), &json!({})).await;
    assert_eq!(status, 200, "{sat}");
    assert_eq!(
        (sat["seat"].clone(), sat["status"].clone()),
        (json!(2), json!("playing"))
    );
    assert_eq!(api.summary(&id).await["status"], json!("playing"));
    // No seat is left.
    let (status, full) = api.post(&format!("/api/games/{id}/sit"), &json!({})).await;
    assert_eq!(
        (status, full["error"]["code"].clone()),
        (409, json!("no_free_seat")),
        "{full}"
    );
    server.stop().await;
}
both_stores!(a_stranger_takes_a_free_seat);

async fn a_private_game_is_seated_by_link_only(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (status, created) = api
        .post(
            "/api/games",
            &json!({"config": config(2, 9), "seats": ["human", "human"], "private": true}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let (_, open) = api.get("/api/games?status=open").await;
    assert!(
        !listed(&open, &id),
        "a private game is not listed as open: {open}"
    );
    assert_eq!(api.summary(&id).await["private"], json!(true));
    let (status, refused) = api.post(&format!("/api/games/{id}/sit"), &json!({})).await;
    assert_eq!(
        (status, refused["error"]["code"].clone()),
        (403, json!("forbidden")),
        "{refused}"
    );
    // The invite link still seats its person.
    let (status, joined) = api
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"token": token(&created, 1)}),
        )
        .await;
    assert_eq!((status, joined), (200, json!({"seat": 1})));
    server.stop().await;
}
both_stores!(a_private_game_is_seated_by_link_only);
