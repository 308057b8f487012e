//! The rating changes of a rated game that ended, as the end of game
//! panel reads them (`GET /api/games/ID/ratings`), against both stores.

mod common;

use bastide_engine::GameConfig;
use common::{session, token, TestDb, TestServer};
use serde_json::{json, Value};

async fn a_rated_game_says_each_players_rating_change(db: &TestDb) {
    let server = TestServer::start(db).await;
    let base = server.base.clone();
    let anna = session(&base, "anna").await;
    let http = reqwest::Client::new();
    let post = |path: String, body: Value| {
        http.post(format!("{base}{path}"))
            .header("cookie", &anna)
            .json(&body)
            .send()
    };
    let mut config =
        serde_json::to_value(GameConfig::from_sets(2, 0, &["base"]).expect("a configuration"))
            .expect("JSON");
    config.as_object_mut().expect("an object").remove("seed");
    let r = post(
        "/api/games".into(),
        json!({"config": config, "seats": ["human", "greedy"], "rated": true}),
    )
    .await
    .expect("create");
    assert_eq!(r.status().as_u16(), 201);
    let created: Value = r.json().await.expect("JSON");
    let id = created["id"].as_str().expect("an id").to_string();
    let t = token(&created, 0);
    let ratings = || async {
        reqwest::get(format!("{base}/api/games/{id}/ratings"))
            .await
            .expect("GET")
            .json::<Value>()
            .await
            .expect("JSON")
    };
    // Not over: nothing to say yet.
    assert_eq!(ratings().await, json!({"rated": true, "changes": []}));
    let r = post(format!("/api/games/{id}/start"), json!({"token": t}))
        .await
        .expect("start");
    assert_eq!(r.status().as_u16(), 200, "start");
    // Both move first: a game resigned before that is not rated.
    common::play_until_everyone_moved(&server.ws_base, &id, &anna, &t, 2).await;
    let r = post(format!("/api/games/{id}/resign"), json!({"token": t}))
        .await
        .expect("resign");
    assert_eq!(r.status().as_u16(), 200, "resign");
    let said = ratings().await;
    let change = &said["changes"][0];
    assert_eq!(
        (change["seat"].clone(), change["player"].clone()),
        (json!(0), json!("anna")),
        "{said}"
    );
    let (before, after) = (change["before"].as_f64(), change["after"].as_f64());
    assert_eq!(before, Some(1500.0), "{said}");
    assert!(
        after.is_some_and(|a| a < 1500.0),
        "a resign loses rating: {said}"
    );
    assert_eq!(
        said["changes"].as_array().map(Vec::len),
        Some(1),
        "the bot has no account: {said}"
    );
    server.stop().await;
}
both_stores!(a_rated_game_says_each_players_rating_change);
