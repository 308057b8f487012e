//! Time controls over real sockets against both stores: a person out of
//! time loses, or a bot takes the seat over; clocks survive a restart.

mod common;

use bastide_engine::record::Record;
use common::{drain, legal_of, token, Api, Client, TestDb, TestServer};
use serde_json::{json, Value};

fn base_config(seed: u64) -> Value {
    json!({"players": ["RED", "BLUE"], "seed": seed})
}

/// Reads until a `status` message, returning its body.
async fn next_status(c: &mut Client) -> Value {
    loop {
        let m = c.next().await;
        if let Some(s) = m.get("status") {
            return s.clone();
        }
    }
}

async fn out_of_time_loses(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (status, created) = api
        .post(
            "/api/games",
            &json!({"config": base_config(1), "seats": ["human", "human"],
                    "clock": {"initial_ms": 300, "increment_ms": 100}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let (mut c, w) = Client::hello(&server.ws_base, &id, Some(&token(&created, 1)), None).await;
    assert_eq!(w["welcome"]["clock"]["spec"]["initial_ms"], json!(300));
    api.start(&id, &token(&created, 0)).await;
    let started = next_status(&mut c).await;
    assert_eq!(started["status"], json!("playing"));
    assert_eq!(started["clock"]["remaining_ms"], json!([300, 300]));
    assert_eq!(started["clock"]["running"], json!(0));
    // Seat 0 never plays: its time runs out and it loses.
    let ended = next_status(&mut c).await;
    assert_eq!(ended["status"], json!("resigned"), "{ended}");
    assert_eq!(
        (ended["resigned"].clone(), ended["timeout"].clone()),
        (json!(0), json!(0))
    );
    let summary = api.summary(&id).await;
    assert_eq!(summary["status"], json!("resigned"));
    assert_eq!(summary["version"], json!(0));
    server.stop().await;
}
both_stores!(out_of_time_loses);

async fn out_of_time_bot_takes_over(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (status, created) = api
        .post(
            "/api/games",
            &json!({"config": base_config(2), "seats": ["human", "greedy"],
                    "clock": {"turn_ms": 200, "on_timeout": "bot"}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let t0 = token(&created, 0);
    let (mut c, _) = Client::hello(&server.ws_base, &id, Some(&t0), None).await;
    api.start(&id, &t0).await;
    assert_eq!(next_status(&mut c).await["status"], json!("playing"));
    // Seat 0 sleeps through its turn: a bot plays it from then on.
    let taken = next_status(&mut c).await;
    assert_eq!(taken["timeout"], json!(0), "{taken}");
    assert_eq!(taken["status"], json!("playing"));
    assert_eq!(taken["seats"][0]["kind"], json!("greedy"));
    assert!(taken.get("legal").is_none());
    // The person's token no longer plays the seat.
    c.send(&json!({"action": {"pass": {}}})).await;
    let e = c.next_error().await;
    assert_eq!(e["code"], json!("bad_token"), "{e}");
    // The bots finish the game; the person is never offered a move again.
    let end = loop {
        let m = c.next().await;
        assert!(m["played"].get("legal").is_none(), "{m}");
        if let Some(s) = m.get("status") {
            break s.clone();
        }
    };
    assert_eq!(end["status"], json!("finished"));
    let rec = Record::parse(&api.record(&id).await.to_string()).expect("a record");
    assert!(rec.replay().expect("replays").is_finished());
    server.stop().await;
}
both_stores!(out_of_time_bot_takes_over);

async fn clocks_survive_a_restart(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let (_, created) = api
        .post(
            "/api/games",
            &json!({"config": base_config(3), "seats": ["human", "human"],
                    "clock": {"initial_ms": 600000, "increment_ms": 1000}}),
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut clients = Vec::new();
    for seat in 0..2 {
        clients.push(Client::hello(&server.ws_base, &id, Some(&token(&created, seat)), None).await);
    }
    api.start(&id, &token(&created, 0)).await;
    for (c, l) in clients.iter_mut() {
        // The start (a seat claimed before it is told with an `open` status).
        while l["status"]["status"] != json!("playing") {
            *l = c.next().await;
        }
    }
    let mut version = 0;
    while version < 6 {
        let actor = clients
            .iter()
            .position(|(_, l)| legal_of(l).is_some())
            .expect("someone is to act");
        let legal = legal_of(&clients[actor].1).expect("legal actions");
        clients[actor]
            .0
            .send(&json!({"action": legal[0], "version": version}))
            .await;
        version += 1;
        for (c, l) in clients.iter_mut() {
            assert!(drain(c, version, l).await.is_empty());
        }
    }
    let before = clients[0].1["played"]["clock"].clone();
    assert!(
        before["remaining_ms"][0].as_i64() > Some(600_000),
        "increments: {before}"
    );
    drop(clients);
    server.stop().await;

    // The clocks are rebuilt from the commit times: the same as before.
    let server = TestServer::start(db).await;
    let (_, w) = Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let after = &w["welcome"]["clock"];
    assert_eq!(after["remaining_ms"], before["remaining_ms"]);
    assert_eq!(after["since"], before["since"]);
    assert_eq!(after["deadline"], before["deadline"]);
    server.stop().await;
}
both_stores!(clocks_survive_a_restart);

async fn bad_clocks_are_refused(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    for clock in [
        json!({}),
        json!({"initial_ms": 1}),
        json!({"turn_ms": 99999999999u64}),
        json!({"initial_ms": 1000, "on_timeout": "shrug"}),
        json!({"initial_ms": -5}),
    ] {
        let (status, e) = api
            .post(
                "/api/games",
                &json!({"config": base_config(4), "seats": ["human", "human"], "clock": clock}),
            )
            .await;
        assert!(status == 400, "{clock}: {status} {e}");
    }
    server.stop().await;
}
both_stores!(bad_clocks_are_refused);
