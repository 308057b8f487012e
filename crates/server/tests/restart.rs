//! The server process killed with SIGKILL in the middle of games and
//! started again on the same database: every game resumes, bots included,
//! and no action is lost or doubled.

mod common;

use bastide_engine::record::Record;
use bastide_engine::GameConfig;
use common::{
    drain, legal_of, play_seat, play_some, token, Client, ServerProcess as Server, TestDb, WAIT,
};
use serde_json::{json, Value};

fn config(players: usize, seed: u64) -> Value {
    serde_json::to_value(GameConfig::new(players, seed)).expect("JSON")
}

/// The actions a client saw committed, by version.
fn seen_actions(msgs: &[Value]) -> Vec<Value> {
    msgs.iter()
        .filter_map(|m| m.get("played"))
        .map(|p| p["action"].clone())
        .collect()
}

async fn killed_and_restarted(db: &TestDb) {
    let dir = tempfile::tempdir().expect("a folder");
    let log = dir.path().join("server.log");
    let server = Server::start(db, &log);
    let api = server.api();

    // Game A: two people, some turns played.
    let a = api.create(&config(2, 41), &["human", "human"]).await;
    let a_id = a["id"].as_str().expect("an id").to_string();
    let mut a_clients = Vec::new();
    for seat in 0..2 {
        let (c, w) = Client::hello(&server.ws(), &a_id, Some(&token(&a, seat)), None).await;
        a_clients.push((c, w));
    }
    api.start(&a_id, &token(&a, 0)).await;
    for (c, l) in a_clients.iter_mut() {
        drain(c, 0, l).await;
        while l.get("status").is_none() {
            *l = c.next().await;
        }
    }
    let a_version = play_some(&mut a_clients, 0, 9).await;
    let a_seen = seen_actions(&a_clients[0].0.received);

    // Game B: bots only, thinking for real; watched until it is well on.
    let b = api
        .create(&config(2, 42), &["mcts:20ms", "mcts:20ms"])
        .await;
    let b_id = b["id"].as_str().expect("an id").to_string();
    assert_eq!(b["status"], json!("playing"), "bot games start at once");
    let (mut watcher, w0) = Client::hello(&server.ws(), &b_id, None, None).await;
    // The bots may have moved before the watcher joined (a loaded machine):
    // what it saw starts after its welcome's version.
    let b_from = w0["welcome"]["version"].as_u64().expect("a version") as usize;
    let mut b_seen_version = 0;
    while b_seen_version < 8 {
        if let Some(p) = watcher.next().await.get("played") {
            b_seen_version = p["version"].as_u64().expect("a version");
        }
    }
    let b_seen = seen_actions(&watcher.received);

    // Game C: a person and a bot; the bot has answered, the person is to act.
    let c = api.create(&config(2, 43), &["human", "greedy"]).await;
    let c_id = c["id"].as_str().expect("an id").to_string();
    let (cc, cw) = Client::hello(&server.ws(), &c_id, Some(&token(&c, 0)), None).await;
    let mut c_clients = vec![(cc, cw)];
    api.start(&c_id, &token(&c, 0)).await;
    {
        let (cl, l) = &mut c_clients[0];
        while l.get("status").is_none() {
            *l = cl.next().await;
        }
    }
    let mut c_version = 0;
    for _ in 0..3 {
        // Two actions of the person's turn, then wait for the bot's turn.
        let after_person = play_some(&mut c_clients, c_version, 2).await;
        let (cl, l) = &mut c_clients[0];
        while legal_of(l).is_none() {
            *l = cl.next().await;
        }
        c_version = common::version_of(l).expect("a version");
        assert!(c_version > after_person, "the bot has moved");
    }

    server.kill();
    drop(watcher);
    drop(a_clients);
    drop(c_clients);

    let server = Server::start(db, &log);
    let api = server.api();

    // A: exactly the acknowledged actions, no more, no fewer.
    let rec_a = api.record(&a_id).await;
    assert_eq!(rec_a["actions"].as_array().expect("actions"), &a_seen);
    assert_eq!(a_seen.len() as u64, a_version);
    assert_eq!(api.summary(&a_id).await["status"], json!("playing"));
    // C: where it was, the person to act.
    assert_eq!(api.summary(&c_id).await["version"], json!(c_version));

    // B resumes by itself: a spectator asks for what it missed and
    // watches it to the end.
    let (mut watcher, w) =
        Client::hello(&server.ws(), &b_id, None, Some(b_seen_version as u32)).await;
    assert!(w["welcome"]["version"].as_u64() >= Some(b_seen_version));
    loop {
        let m = watcher.next().await;
        if m["status"]["status"] == json!("finished") {
            break;
        }
    }
    let after = seen_actions(&watcher.received);
    let versions: Vec<u64> = watcher
        .received
        .iter()
        .filter_map(|m| m.get("played"))
        .map(|p| p["version"].as_u64().expect("a version"))
        .collect();
    let expected: Vec<u64> =
        (b_seen_version + 1..=b_seen_version + versions.len() as u64).collect();
    assert_eq!(versions, expected, "every version once, in order");
    let rec_b = Record::parse(&api.record(&b_id).await.to_string()).expect("a record");
    let game_b = rec_b.replay().expect("the log replays: nothing doubled");
    assert!(game_b.is_finished());
    let logged: Vec<Value> = rec_b
        .actions
        .iter()
        .map(|a| serde_json::to_value(a).expect("JSON"))
        .collect();
    assert_eq!(b_from + b_seen.len(), b_seen_version as usize);
    assert_eq!(
        &logged[b_from..b_seen_version as usize],
        &b_seen[..],
        "nothing seen was lost"
    );
    assert_eq!(&logged[b_seen_version as usize..], &after[..]);
    assert_eq!(
        api.summary(&b_id).await["version"],
        json!(logged.len()),
        "version = actions logged"
    );

    // A and C play on to the end after the restart.
    let mut players = Vec::new();
    for seat in 0..2 {
        let (cl, w) = Client::hello(&server.ws(), &a_id, Some(&token(&a, seat)), None).await;
        players.push(tokio::spawn(play_seat(cl, w, seat as u64)));
    }
    let (cl, w) = Client::hello(&server.ws(), &c_id, Some(&token(&c, 0)), None).await;
    players.push(tokio::spawn(play_seat(cl, w, 7)));
    for p in players {
        tokio::time::timeout(WAIT, p)
            .await
            .expect("in time")
            .expect("a player");
    }
    for id in [&a_id, &c_id] {
        let rec = Record::parse(&api.record(id).await.to_string()).expect("a record");
        assert!(rec.replay().expect("replays").is_finished());
    }
    let rec_a = Record::parse(&api.record(&a_id).await.to_string()).expect("a record");
    let prefix: Vec<Value> = rec_a.actions[..a_seen.len()]
        .iter()
        .map(|a| serde_json::to_value(a).expect("JSON"))
        .collect();
    assert_eq!(prefix, a_seen);
    server.kill();
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!log.contains("panicked"), "the server panicked: {log}");
}
both_stores!(killed_and_restarted);
