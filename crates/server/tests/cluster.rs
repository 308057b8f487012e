//! Shared mode: three instances of the server binary on one PostgreSQL
//! database, told of each other's changes through NATS (docs/scaling.md).
//! Players, spectators and bots spread over the instances; an instance
//! killed with SIGKILL; NATS itself killed and started again.
//!
//! NATS with JetStream runs at 127.0.0.1:4222 on this kind of machine
//! (`.ci/run` starts it; `BASTIDE_TEST_NATS` names another). The test that
//! restarts NATS starts a nats-server of its own (`BASTIDE_NATS_SERVER`,
//! default `/usr/sbin/nats-server`) on a free port instead.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bastide_engine::record::Record;
use bastide_engine::GameConfig;
use common::{
    assert_contiguous, body_of, drain, legal_of, play_seat, play_some, played, token, version_of,
    watch, Api, Client, ServerProcess, TestDb, WAIT,
};
use futures_util::StreamExt;
use serde_json::{json, Value};

/// The NATS server shared by the tests.
fn nats_url() -> String {
    std::env::var("BASTIDE_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".into())
}

fn config(players: usize, seed: u64) -> Value {
    serde_json::to_value(GameConfig::new(players, seed)).expect("JSON")
}

/// Three instances on the test's database and a NATS server, with the
/// test's own subject prefix (tests share NATS, not news).
struct Instances {
    servers: Vec<Option<ServerProcess>>,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Instances {
    /// `n` instances. `news_only`: the instances compare their games with
    /// the log only every ten minutes, so that clients learn of other
    /// instances' actions in time only through NATS.
    fn start(db: &TestDb, nats: &str, n: usize, news_only: bool) -> Instances {
        let dir = tempfile::tempdir().expect("a folder");
        let log = dir.path().join("servers.log");
        let prefix = db.name();
        let servers = (0..n)
            .map(|_| {
                Some(ServerProcess::start_with(
                    db,
                    &log,
                    &[
                        "--nats",
                        nats,
                        "--nats-prefix",
                        &prefix,
                        // Short leases: a dead instance's games are taken
                        // over within seconds.
                        "--lease-ms",
                        "1500",
                        "--sync-ms",
                        if news_only { "600000" } else { "500" },
                    ],
                ))
            })
            .collect();
        Instances {
            servers,
            log,
            _dir: dir,
        }
    }

    fn get(&self, i: usize) -> &ServerProcess {
        self.servers[i].as_ref().expect("a running instance")
    }

    fn kill(&mut self, i: usize) {
        self.servers[i].take().expect("a running instance").kill();
    }

    /// Stops every instance and checks that none panicked.
    fn finish(mut self) {
        for s in self.servers.iter_mut().filter_map(Option::take) {
            s.kill();
        }
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        assert!(!log.contains("panicked"), "an instance panicked: {log}");
    }
}

impl Drop for Instances {
    /// A failed test shows what the instances logged: a stalled game's
    /// cause is there, and the folder holding the log goes with the test.
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(200).collect();
            eprintln!("--- the instances' log, last {} lines ---", tail.len());
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
    }
}

/// The game's version as an instance sees it.
async fn version(api: &Api, id: &str) -> u64 {
    api.summary(id).await["version"]
        .as_u64()
        .expect("a version")
}

/// Checks a finished game's record against what a client saw: the
/// record replays to the end, and the client saw each of its actions
/// after its first welcome once, in order.
async fn assert_record_matches(api: &Api, id: &str, msgs: &[Value]) {
    let rec = Record::parse(&api.record(id).await.to_string()).expect("a record");
    let game = rec.replay().expect("the log replays: nothing doubled");
    assert!(game.is_finished(), "game {id} finished");
    let n = rec.actions.len() as u64;
    // Bot games start as they are created: a spectator may come later.
    let from = msgs
        .iter()
        .find_map(|m| m["welcome"]["version"].as_u64())
        .expect("a welcome")
        + 1;
    assert_eq!(
        assert_contiguous(msgs, from),
        n,
        "every version of {id} seen"
    );
    let skipped = usize::try_from(from - 1).expect("a small version");
    for (p, a) in played(msgs).iter().zip(&rec.actions[skipped..]) {
        assert_eq!(p["action"], serde_json::to_value(a).expect("JSON"));
    }
}

async fn players_on_different_instances(db: &TestDb) {
    let instances = Instances::start(db, &nats_url(), 3, true);
    let (a, b, c) = (instances.get(0), instances.get(1), instances.get(2));
    // Two people and a bot; the game is created on one instance, each
    // person plays on another, a spectator watches on the third.
    let created = a
        .api()
        .create(&config(3, 17), &["human", "greedy", "human"])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (p0, w0) = Client::hello(&a.ws(), &id, Some(&token(&created, 0)), None).await;
    let (p2, w2) = Client::hello(&b.ws(), &id, Some(&token(&created, 2)), None).await;
    let (spectator, _) = Client::hello(&c.ws(), &id, None, None).await;
    // Started on the spectator's instance: the start crosses to the others.
    c.api().start(&id, &token(&created, 2)).await;
    let players = [
        tokio::spawn(play_seat(p0, w0, 1)),
        tokio::spawn(play_seat(p2, w2, 2)),
    ];
    let seen = tokio::time::timeout(WAIT, tokio::spawn(watch(spectator)))
        .await
        .expect("the game ends in time")
        .expect("the spectator");
    for p in players {
        let msgs = tokio::time::timeout(WAIT, p)
            .await
            .expect("in time")
            .expect("a player");
        assert_record_matches(&b.api(), &id, &msgs).await;
    }
    assert_record_matches(&c.api(), &id, &seen).await;
    assert!(
        played(&seen).iter().any(|p| p["seat"] == json!(1)),
        "the bot played"
    );
    for s in [a, b, c] {
        assert_eq!(s.api().summary(&id).await["status"], json!("finished"));
    }
    instances.finish();
}
postgres_only!(players_on_different_instances);

async fn simultaneous_actions(db: &TestDb) {
    let instances = Instances::start(db, &nats_url(), 3, true);
    let (a, b, c) = (instances.get(0), instances.get(1), instances.get(2));
    let created = a.api().create(&config(2, 23), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    a.api().start(&id, &token(&created, 0)).await;
    // Each seat is connected to two instances at once.
    let mut on_a = Vec::new();
    let mut on_b = Vec::new();
    for seat in 0..2 {
        let t = token(&created, seat);
        on_a.push(Client::hello(&a.ws(), &id, Some(&t), None).await);
        on_b.push(Client::hello(&b.ws(), &id, Some(&t), None).await);
    }
    let (mut spectator, mut seen) = Client::hello(&c.ws(), &id, None, None).await;
    let rounds = 12u64;
    for v in 0..rounds {
        let seat = (0..2)
            .find(|s| legal_of(&on_a[*s].1).is_some())
            .expect("a seat to act");
        let legal = legal_of(&on_a[seat].1).expect("legal actions");
        assert_eq!(legal_of(&on_b[seat].1).as_ref(), Some(&legal), "same offer");
        let msg = json!({"action": legal[legal.len() / 2], "version": v});
        // The same seat acts on two instances at once.
        let ((), ()) = tokio::join!(on_a[seat].0.send(&msg), on_b[seat].0.send(&msg));
        let mut errors = Vec::new();
        for (cl, last) in on_a.iter_mut().chain(on_b.iter_mut()) {
            errors.extend(drain(cl, v + 1, last).await);
        }
        assert_eq!(errors, ["stale_version"], "one accepted, one refused");
        drain(&mut spectator, v + 1, &mut seen).await;
        assert_eq!(version(&c.api(), &id).await, v + 1, "the log has one");
    }
    let record = c.api().record(&id).await;
    assert_eq!(
        record["actions"].as_array().map(Vec::len),
        Some(rounds as usize)
    );
    // Every connection saw each version once, in order.
    for (cl, _) in on_a.iter().chain(on_b.iter()) {
        assert_eq!(assert_contiguous(&cl.received, 1), rounds);
    }
    assert_eq!(assert_contiguous(&spectator.received, 1), rounds);
    instances.finish();
}
postgres_only!(simultaneous_actions);

/// A spectator that keeps what it saw across reconnections.
struct Watcher {
    game: String,
    client: Option<Client>,
    seen: Vec<Value>,
    /// The last version, once a welcome said the game was over.
    ended_at: Option<u64>,
}

impl Watcher {
    async fn new(ws: &str, game: &str) -> Watcher {
        let (client, _) = Client::hello(ws, game, None, None).await;
        Watcher {
            game: game.to_string(),
            client: Some(client),
            seen: Vec::new(),
            ended_at: None,
        }
    }

    /// The last version seen.
    fn version(&self) -> u64 {
        self.seen
            .iter()
            .chain(self.client.iter().flat_map(|c| &c.received))
            .filter_map(version_of)
            .max()
            .unwrap_or(0)
    }

    /// Reads until version `v` or the end of the game.
    async fn until(&mut self, v: u64) {
        let c = self.client.as_mut().expect("connected");
        while c.received.iter().filter_map(version_of).max().unwrap_or(0) < v {
            let m = c.next().await;
            if m["status"]["status"] == json!("finished") {
                break;
            }
        }
    }

    /// Reads until its instance is gone, then reconnects to `ws` with the
    /// last version it has.
    async fn reconnect(&mut self, ws: &str) {
        let mut c = self.client.take().expect("connected");
        assert!(c.closed().await, "the killed instance's socket closes");
        self.seen.append(&mut c.received);
        let since = u32::try_from(self.version()).expect("a small version");
        let (c, w) = Client::hello(ws, &self.game, None, Some(since)).await;
        assert!(w["welcome"]["version"].as_u64() >= Some(u64::from(since)));
        if w["welcome"]["status"] == json!("finished") {
            // Over while it was away: no `status` message will come.
            self.ended_at = w["welcome"]["version"].as_u64();
        }
        self.client = Some(c);
    }

    /// Reads to the end of the game; everything it saw, in order.
    async fn watch_to_end(mut self) -> Vec<Value> {
        let mut c = self.client.take().expect("connected");
        match self.ended_at {
            Some(last) => {
                while c.received.iter().filter_map(version_of).max() < Some(last) {
                    c.next().await;
                }
                self.seen.append(&mut c.received);
            }
            None => self.seen.extend(watch(c).await),
        }
        self.seen
    }
}

async fn instance_killed_during_bot_games(db: &TestDb) {
    let mut instances = Instances::start(db, &nats_url(), 3, true);
    // Bot games created on instance 0 (which drives them) and on 1.
    let mut games = Vec::new();
    for (i, on) in [0, 0, 0, 1, 1].into_iter().enumerate() {
        let created = instances
            .get(on)
            .api()
            .create(&config(2, 100 + i as u64), &["mcts:20ms", "mcts:20ms"])
            .await;
        games.push(created["id"].as_str().expect("an id").to_string());
    }
    // Each game watched on the instance to be killed and on instance 2.
    let mut doomed = Vec::new();
    let mut steady = Vec::new();
    for id in &games {
        doomed.push(Watcher::new(&instances.get(0).ws(), id).await);
        steady.push(Watcher::new(&instances.get(2).ws(), id).await);
    }
    for w in doomed.iter_mut() {
        w.until(6).await;
    }
    for id in &games {
        assert_eq!(
            instances.get(2).api().summary(id).await["status"],
            json!("playing"),
            "every game is under way when its driver dies"
        );
    }
    instances.kill(0);
    // Its clients come back on instance 1, with the version they have.
    for w in doomed.iter_mut() {
        w.reconnect(&instances.get(1).ws()).await;
    }
    let api = instances.get(1).api();
    for (d, s) in doomed.into_iter().zip(steady) {
        let game = d.game.clone();
        let (d, s) = tokio::time::timeout(WAIT, async {
            (d.watch_to_end().await, s.watch_to_end().await)
        })
        .await
        .expect("every game finishes on the other instances");
        assert_record_matches(&api, &game, &d).await;
        assert_record_matches(&api, &game, &s).await;
    }
    for id in &games {
        assert_eq!(api.summary(id).await["status"], json!("finished"));
    }
    instances.finish();
}
postgres_only!(instance_killed_during_bot_games);

/// A nats-server of the test's own, on a free loopback port, with
/// JetStream and a store folder of its own: killed and started again.
struct OwnNats {
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
}

impl OwnNats {
    fn start() -> OwnNats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut n = OwnNats {
            child: None,
            port,
            dir: tempfile::tempdir().expect("a folder"),
        };
        n.run();
        n
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn run(&mut self) {
        let bin =
            std::env::var("BASTIDE_NATS_SERVER").unwrap_or_else(|_| "/usr/sbin/nats-server".into());
        let child = Command::new(bin)
            .args([
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-js",
                "-sd",
            ])
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server must be installed for the tests (see .ci/run)");
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(start.elapsed() < WAIT, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, and waits until the port is closed.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for OwnNats {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn nats_restarted(db: &TestDb) {
    let mut nats = OwnNats::start();
    let instances = Instances::start(db, &nats.url(), 3, false);
    let (a, b, c) = (instances.get(0), instances.get(1), instances.get(2));
    // A bot game driven by one instance, watched on the two others.
    let bots = a
        .api()
        .create(&config(2, 32), &["mcts:30ms", "mcts:30ms"])
        .await;
    let bots_id = bots["id"].as_str().expect("an id").to_string();
    let (bw1, _) = Client::hello(&b.ws(), &bots_id, None, None).await;
    let (bw2, _) = Client::hello(&c.ws(), &bots_id, None, None).await;
    let watchers = [tokio::spawn(watch(bw1)), tokio::spawn(watch(bw2))];
    // Two people on two instances, a spectator on the third.
    let created = a.api().create(&config(2, 31), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    a.api().start(&id, &token(&created, 0)).await;
    let mut clients = vec![
        Client::hello(&a.ws(), &id, Some(&token(&created, 0)), None).await,
        Client::hello(&b.ws(), &id, Some(&token(&created, 1)), None).await,
        Client::hello(&c.ws(), &id, None, None).await,
    ];
    let v = play_some(&mut clients, 0, 6).await;
    let api = c.api();
    assert_eq!(
        api.summary(&bots_id).await["status"],
        json!("playing"),
        "the bot game is under way when NATS goes"
    );
    nats.kill();
    // Play goes on without NATS: each instance finds the others' actions
    // in the log, and its clients get them in order.
    let v = play_some(&mut clients, v, 8).await;
    nats.run();
    let v = play_some(&mut clients, v, 4).await;
    assert_eq!(version(&api, &id).await, v);
    // The rest of the game at full speed, news through the new NATS.
    let mut tasks = Vec::new();
    for (i, (cl, last)) in clients.into_iter().enumerate() {
        let latest = json!({ "welcome": body_of(&last).cloned() });
        tasks.push((
            &id,
            if i < 2 {
                tokio::spawn(play_seat(cl, latest, i as u64))
            } else {
                tokio::spawn(watch(cl))
            },
        ));
    }
    tasks.extend(watchers.map(|w| (&bots_id, w)));
    for (game, t) in tasks {
        let msgs = tokio::time::timeout(WAIT, t)
            .await
            .expect("the games end in time")
            .expect("a client");
        assert_record_matches(&api, game, &msgs).await;
    }
    instances.finish();
}
postgres_only!(nats_restarted);

/// `--nats` with a SQLite database is refused with a message that says
/// what to do.
#[test]
fn nats_needs_postgres() {
    let dir = tempfile::tempdir().expect("a folder");
    let db = dir.path().join("x.db");
    let out = Command::new(env!("CARGO_BIN_EXE_bastide-server"))
        .args(["--addr", "127.0.0.1:0", "--database"])
        .arg(&db)
        .args(["--nats", &nats_url()])
        .output()
        .expect("run bastide-server");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--nats needs a PostgreSQL database"), "{err}");
}

async fn leases_pass_on(db: &TestDb) {
    use bastide_server::cluster::{Cluster, ClusterConfig};
    use bastide_server::store::postgres::PgStore;
    use bastide_server::store::GameId;
    let pg = PgStore::open(&db.url()).await.expect("PostgreSQL");
    let config = ClusterConfig {
        nats_url: nats_url(),
        prefix: db.name(),
        // Long enough that a loaded machine renews in time (1.5 s to
        // spare below), short enough to wait out.
        lease: Duration::from_secs(3),
        sync: Duration::from_secs(1),
    };
    let one = Cluster::connect(&config, pg.pool().clone())
        .await
        .expect("NATS");
    let two = Cluster::connect(&config, pg.pool().clone())
        .await
        .expect("NATS");
    let id = GameId::random();
    bastide_server::Store::create_game(&pg, &common::bot_game_row(&id))
        .await
        .expect("a game");
    // A running game with a bot and no lease: an orphan, taken by one.
    assert_eq!(
        two.orphans().await.expect("orphans"),
        std::slice::from_ref(&id)
    );
    assert!(one.acquire(&id).await.expect("acquire"));
    assert!(one.holds(&id));
    assert!(!two.acquire(&id).await.expect("acquire"), "held by one");
    assert!(!two.holds(&id));
    assert!(two.orphans().await.expect("orphans").is_empty());
    // Renewed, it stays; left to run out, the other takes it.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(one.renew().await.expect("renew").is_empty(), "in time");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(!two.acquire(&id).await.expect("acquire"), "renewed by one");
    let start = Instant::now();
    while !two.acquire(&id).await.expect("acquire") {
        assert!(start.elapsed() < WAIT, "the lease never ran out");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(two.holds(&id));
    assert!(!one.holds(&id), "one's hold ran out by its own clock too");
    assert!(one.renew().await.expect("renew").is_empty());
    assert!(!one.holds(&id), "a renewal does not take it back");
    // Given up, it is an orphan again.
    two.release(&id).await;
    assert!(!two.holds(&id));
    assert_eq!(
        one.orphans().await.expect("orphans"),
        std::slice::from_ref(&id)
    );
    // A renewal so late that one's own clock let the game go while the
    // database still held it for one (its end of the lease comes a little
    // later; here, much later): the renewal says so, for one to drive
    // the game's bots and timer again.
    assert!(one.acquire(&id).await.expect("acquire"));
    sqlx::query(
        "UPDATE leases SET until = clock_timestamp() + interval '60 seconds' WHERE game = $1",
    )
    .bind(id.as_str())
    .execute(pg.pool())
    .await
    .expect("a longer lease");
    tokio::time::sleep(config.lease + Duration::from_millis(200)).await;
    assert!(!one.holds(&id), "one's own clock let it go");
    assert_eq!(one.renew().await.expect("renew"), std::slice::from_ref(&id));
    assert!(one.holds(&id));
    assert!(
        one.renew().await.expect("renew").is_empty(),
        "renewed in time: nothing to set going again"
    );
    pg.pool().close().await;
}
postgres_only!(leases_pass_on);

async fn clock_outlives_its_driver(db: &TestDb) {
    let mut instances = Instances::start(db, &nats_url(), 3, true);
    // A timed game started on instance 0, which takes its lease (it calls
    // time), then dies before the turn runs out.
    let api = instances.get(0).api();
    let (status, created) = api
        .post(
            "/api/games",
            &json!({"config": config(2, 41), "seats": ["human", "human"],
                    "clock": {"turn_ms": 3000, "on_timeout": "lose"}}),
        )
        .await;
    assert_eq!(status, 201, "create: {created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let (mut p0, _) =
        Client::hello(&instances.get(1).ws(), &id, Some(&token(&created, 0)), None).await;
    api.start(&id, &token(&created, 0)).await;
    instances.kill(0);
    // Seat 0 does not move: an instance that took the lease over calls
    // time, and the person on instance 1 is told.
    let ended = loop {
        let m = p0.next().await;
        if m["status"]["status"] == json!("resigned") {
            break m;
        }
    };
    assert_eq!(ended["status"]["timeout"], json!(0), "{ended}");
    assert_eq!(ended["status"]["resigned"], json!(0), "{ended}");
    let summary = instances.get(2).api().summary(&id).await;
    assert_eq!(summary["status"], json!("resigned"));
    assert_eq!(summary["version"], json!(0));
    instances.finish();
}
postgres_only!(clock_outlives_its_driver);

async fn rematch_reaches_every_instance(db: &TestDb) {
    // Everything said on the test's subjects, to look for secrets in.
    let nats = async_nats::connect(nats_url()).await.expect("NATS");
    let mut heard = nats
        .subscribe(format!("{}.>", db.name()))
        .await
        .expect("a subscription");
    let instances = Instances::start(db, &nats_url(), 2, true);
    let (a, b) = (instances.get(0), instances.get(1));
    let created = a.api().create(&config(2, 51), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    a.api().start(&id, &token(&created, 0)).await;
    let (mut p1, _) = Client::hello(&b.ws(), &id, Some(&token(&created, 1)), None).await;
    // Seat 0 resigns on instance 0, then asks for a rematch there.
    let mut answers = Vec::new();
    for (what, expected) in [("resign", 200), ("rematch", 201)] {
        let (status, body) = a
            .api()
            .post(
                &format!("/api/games/{id}/{what}"),
                &json!({"token": token(&created, 0)}),
            )
            .await;
        assert_eq!(status, expected, "{what}: {body}");
        answers.push(body);
    }
    let rematch = answers.pop().expect("the rematch");
    // The person of seat 1, on instance 1, is told the game is over and
    // gets their seat in the rematch (seat 0: seats rotate) with its token.
    let mut over = false;
    let offer = loop {
        let m = p1.next().await;
        over |= m["status"]["status"] == json!("resigned");
        if let Some(r) = m.get("rematch") {
            break r.clone();
        }
    };
    assert!(over, "the resignation came first");
    assert_eq!(offer["game"], rematch["id"]);
    assert_eq!(offer["seat"], json!(0));
    assert_eq!(offer["token"], rematch["seats"][0]["token"]);
    // The token works on instance 1.
    let new_id = rematch["id"].as_str().expect("an id");
    let t = offer["token"].as_str().expect("a token");
    let (_, w) = Client::hello(&b.ws(), new_id, Some(t), None).await;
    assert_eq!(w["welcome"]["seat"], json!(0));
    instances.finish();

    // No token, nor a token's hash, travelled on NATS.
    let mut secrets = Vec::new();
    for c in [&created, &rematch] {
        for seat in 0..2 {
            let t = token(c, seat);
            secrets.push(bastide_server::token::hex(
                &bastide_server::token::hash_token(&t),
            ));
            secrets.push(t);
        }
    }
    let mut messages = 0;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_millis(300), heard.next()).await {
        messages += 1;
        let text = String::from_utf8_lossy(&m.payload).to_lowercase();
        for s in &secrets {
            assert!(
                !text.contains(s.as_str()),
                "a secret on {}: {text}",
                m.subject
            );
        }
    }
    assert!(messages > 0, "the instances spoke on NATS");
}
postgres_only!(rematch_reaches_every_instance);

async fn chat_reaches_every_instance(db: &TestDb) {
    let instances = Instances::start(db, &nats_url(), 2, true);
    let (a, b) = (instances.get(0), instances.get(1));
    let created = a.api().create(&config(2, 52), &["human", "human"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    a.api().start(&id, &token(&created, 0)).await;
    let (mut red, _) = Client::hello(&a.ws(), &id, Some(&token(&created, 0)), None).await;
    let (mut blue, _) = Client::hello(&b.ws(), &id, Some(&token(&created, 1)), None).await;
    let (mut watcher, _) = Client::hello(&b.ws(), &id, None, None).await;
    let chat = |m: Value| m.get("chat").cloned();
    red.send(&json!({"chat": {"text": "from instance 0"}}))
        .await;
    for c in [&mut blue, &mut watcher] {
        let line = loop {
            if let Some(l) = chat(c.next().await) {
                break l;
            }
        };
        assert_eq!(line["text"], json!("from instance 0"));
        assert_eq!(line["from"], json!("RED"));
    }
    // The other instance keeps the line for its welcomes too.
    let (_, w) = Client::hello(&b.ws(), &id, None, None).await;
    assert_eq!(w["welcome"]["chat"][0]["text"], json!("from instance 0"));
    instances.finish();
}
postgres_only!(chat_reaches_every_instance);

/// An instance in this process, in shared mode over the test's database,
/// with `settings` (adjournment in milliseconds, which the binary's flags
/// count in minutes).
async fn instance_here(db: &TestDb, settings: bastide_server::Settings) -> bastide_server::Running {
    use bastide_server::cluster::{Cluster, ClusterConfig};
    use bastide_server::store::postgres::PgStore;
    let pg = PgStore::open(&db.url()).await.expect("PostgreSQL");
    let config = ClusterConfig {
        nats_url: nats_url(),
        prefix: db.name(),
        lease: Duration::from_millis(1500),
        sync: Duration::from_millis(500),
    };
    let cluster = Cluster::connect(&config, pg.pool().clone())
        .await
        .expect("NATS");
    bastide_server::start_shared(
        "127.0.0.1:0".parse().expect("an address"),
        std::sync::Arc::new(pg),
        bastide_server::Settings {
            public_url: String::new(),
            ..settings
        },
        Some(cluster),
    )
    .await
    .expect("an instance")
}

/// Plays seat 0 (its first legal action whenever offered) until the bot
/// of seat 1 has moved and seat 0 is offered moves again; returns that
/// message.
async fn until_the_bot_answers(c: &mut Client, last: Value) -> Value {
    let mut last = last;
    let mut bot_moved = false;
    loop {
        if bot_moved && legal_of(&last).is_some_and(|l| !l.is_empty()) {
            return last;
        }
        if let Some(action) = legal_of(&last).and_then(|l| l.first().cloned()) {
            let version = version_of(&last).unwrap_or(0);
            c.send(&json!({"action": action, "version": version})).await;
        }
        let m = c.next().await;
        assert!(m.get("error").is_none(), "{m}");
        bot_moved |= m["played"]["seat"] == 1;
        if body_of(&m).is_some() {
            last = m;
        }
    }
}

/// The games adjourned, as the store has them.
async fn adjourned(running: &bastide_server::Running) -> Vec<String> {
    running
        .hub
        .store()
        .adjourned_before(i64::MAX, 100)
        .await
        .expect("the store answers")
        .iter()
        .map(ToString::to_string)
        .collect()
}

async fn adjourned_across_instances(db: &TestDb) {
    let quick = || bastide_server::Settings {
        adjourn_after: Some(Duration::from_millis(300)),
        end_adjourned_after: None,
        ..bastide_server::Settings::unlimited()
    };
    let a = instance_here(db, quick()).await;
    let b = instance_here(db, quick()).await;
    let (http_a, ws_a, ws_b) = (
        format!("http://{}", a.addr),
        format!("ws://{}", a.addr),
        format!("ws://{}", b.addr),
    );
    let api = Api::new(&http_a);
    let created = api.create(&config(2, 61), &["human", "greedy"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let seat0 = token(&created, 0);
    // Started on A: A holds the lease and drives the bot; the person
    // plays on B.
    api.start(&id, &seat0).await;
    let (mut c, welcome) = Client::hello(&ws_b, &id, Some(&seat0), None).await;
    let last = until_the_bot_answers(&mut c, welcome).await;

    // Nobody on A's copy: A adjourns it, B (not the driver) does not...
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(b.hub.adjourn_pass().await, 0, "only the driver adjourns");
    assert_eq!(a.hub.adjourn_pass().await, 1);
    // ...and B, whose person is still here, takes it up and drives it.
    let start = Instant::now();
    while !adjourned(&a).await.is_empty() {
        assert!(start.elapsed() < WAIT, "never taken up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let last = until_the_bot_answers(&mut c, last).await;
    let at = version_of(&last).unwrap_or(0);

    // The person leaves: the driver (B now) adjourns it, and no instance
    // takes it over while it waits, however long.
    c.close().await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(a.hub.adjourn_pass().await, 0, "A drives it no more");
    assert_eq!(b.hub.adjourn_pass().await, 1);
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(adjourned(&a).await, vec![id.clone()], "nobody took it over");
    assert_eq!(a.hub.live_games(), 0, "out of A's memory");
    assert_eq!(b.hub.live_games(), 0, "out of B's memory");

    // The person comes back on A: A takes it up, its bot plays again.
    let (mut c, welcome) = Client::hello(&ws_a, &id, Some(&seat0), None).await;
    assert_eq!(version_of(&welcome), Some(at), "{welcome}");
    until_the_bot_answers(&mut c, welcome).await;
    assert!(adjourned(&a).await.is_empty());
    c.close().await;
    a.shutdown().await;
    b.shutdown().await;
}
postgres_only!(adjourned_across_instances);

/// One address's games count against its caps over every instance: an
/// open game on A counts when the same address creates on B, and no more
/// once it has started (B reads it from the store).
async fn caps_count_across_instances(db: &TestDb) {
    let capped = || bastide_server::Settings {
        caps: bastide_server::Caps {
            open_games: 1,
            ..bastide_server::Caps::unlimited()
        },
        ..bastide_server::Settings::unlimited()
    };
    let a = instance_here(db, capped()).await;
    let b = instance_here(db, capped()).await;
    let (api_a, api_b) = (
        Api::new(&format!("http://{}", a.addr)),
        Api::new(&format!("http://{}", b.addr)),
    );
    let create = |seed| json!({"config": config(2, seed), "seats": ["human", "greedy"]});
    let (status, first) = api_a.post("/api/games", &create(71)).await;
    assert_eq!(status, 201, "{first}");
    let (status, refused) = api_b.post("/api/games", &create(72)).await;
    assert_eq!(status, 429, "B counts A's open game: {refused}");
    assert_eq!(refused["error"]["code"], "rate_limited", "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("1 open games"), "{message}");
    // A refused create on A too: its own memory says so.
    let (status, _) = api_a.post("/api/games", &create(73)).await;
    assert_eq!(status, 429);
    // Started on A: open no more, on B either.
    let id = first["id"].as_str().expect("an id").to_string();
    api_a.start(&id, &token(&first, 0)).await;
    let (status, second) = api_b.post("/api/games", &create(74)).await;
    assert_eq!(status, 201, "{second}");
    a.shutdown().await;
    b.shutdown().await;
}
postgres_only!(caps_count_across_instances);
