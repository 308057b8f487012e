//! Test support: a fresh database per test (a SQLite file in a temporary
//! folder, or a PostgreSQL schema of its own), a server over real sockets,
//! and WebSocket and HTTP clients. No mocks: the real store, the real
//! server, the real protocol.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bastide_server::{Settings, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Connection;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Generous: a loaded 2-core machine may be slow, never this slow.
pub const WAIT: Duration = Duration::from_secs(120);

/// The PostgreSQL server the tests use (`BASTIDE_TEST_POSTGRES` overrides).
pub fn postgres_base() -> String {
    std::env::var("BASTIDE_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

/// A database of one test's own.
pub enum TestDb {
    /// A SQLite file in a temporary folder.
    Sqlite(tempfile::TempDir),
    /// A schema of its own in the test PostgreSQL database.
    Postgres {
        /// The schema's name.
        schema: String,
    },
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl TestDb {
    /// A new SQLite database.
    pub async fn sqlite() -> TestDb {
        TestDb::Sqlite(tempfile::tempdir().expect("a temporary folder"))
    }

    /// A new, empty PostgreSQL schema.
    pub async fn postgres() -> TestDb {
        let schema = format!(
            "bastide_test_{}_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
            bastide_server::token::random_hex::<4>()
        );
        let mut conn = sqlx::PgConnection::connect(&postgres_base())
            .await
            .expect("PostgreSQL must be running for the tests (see .ci/run)");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut conn)
            .await
            .expect("create a schema");
        conn.close().await.ok();
        TestDb::Postgres { schema }
    }

    /// A name of the test's own (the schema's, or the folder's).
    pub fn name(&self) -> String {
        match self {
            TestDb::Sqlite(dir) => dir
                .path()
                .file_name()
                .map(|n| n.to_string_lossy().replace(['.', '-'], "_"))
                .unwrap_or_default(),
            TestDb::Postgres { schema } => schema.clone(),
        }
    }

    /// The `--database` URL.
    pub fn url(&self) -> String {
        match self {
            TestDb::Sqlite(dir) => dir.path().join("bastide.db").display().to_string(),
            TestDb::Postgres { schema } => {
                let base = postgres_base();
                let sep = if base.contains('?') { '&' } else { '?' };
                format!("{base}{sep}options=-c%20search_path%3D{schema}")
            }
        }
    }

    /// Opens the store (running the migrations).
    pub async fn open(&self) -> Arc<dyn Store> {
        bastide_server::store::open(&self.url())
            .await
            .expect("open the store")
    }

    /// Drops the PostgreSQL schema.
    pub async fn cleanup(self) {
        if let TestDb::Postgres { schema } = &self {
            if let Ok(mut conn) = sqlx::PgConnection::connect(&postgres_base()).await {
                let _ = sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                    .execute(&mut conn)
                    .await;
                conn.close().await.ok();
            }
        }
    }
}

/// Runs a test body, then drops its database whether it passed or not
/// (a failed test leaves no schema behind), then reports the failure.
pub async fn run_and_clean<F>(db: TestDb, body: F)
where
    F: for<'a> AsyncFnOnce(&'a TestDb),
{
    use futures_util::FutureExt;
    let outcome = std::panic::AssertUnwindSafe(body(&db)).catch_unwind().await;
    db.cleanup().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// One test function running `body` on a database of `kind` (`sqlite`
/// or `postgres`, also the function's name).
#[macro_export]
macro_rules! store_test {
    ($kind:ident, $body:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $kind() {
            let db = $crate::common::TestDb::$kind().await;
            $crate::common::run_and_clean(db, super::$body).await;
        }
    };
}

/// Runs a test body once against SQLite and once against PostgreSQL.
#[macro_export]
macro_rules! both_stores {
    ($body:ident) => {
        mod $body {
            $crate::store_test!(sqlite, $body);
            $crate::store_test!(postgres, $body);
        }
    };
}

/// Runs a test body against PostgreSQL only (shared mode needs it).
#[macro_export]
macro_rules! postgres_only {
    ($body:ident) => {
        mod $body {
            $crate::store_test!(postgres, $body);
        }
    };
}

/// A server in this process, on a free loopback port.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// `ws://127.0.0.1:PORT`.
    pub ws_base: String,
    /// The running server.
    pub running: bastide_server::Running,
    /// An HTTP client.
    pub http: reqwest::Client,
}

impl TestServer {
    /// Starts a server over the test's database.
    pub async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, Settings::unlimited()).await
    }

    /// Starts a server with settings of the test's choosing.
    pub async fn start_with(db: &TestDb, settings: Settings) -> TestServer {
        let store = db.open().await;
        let running = bastide_server::start(
            "127.0.0.1:0".parse().expect("an address"),
            store,
            Settings {
                public_url: String::new(),
                ..settings
            },
        )
        .await
        .expect("start the server");
        TestServer::at(&format!("127.0.0.1:{}", running.addr.port()), Some(running))
    }

    fn at(addr: &str, running: Option<bastide_server::Running>) -> TestServer {
        TestServer {
            base: format!("http://{addr}"),
            ws_base: format!("ws://{addr}"),
            running: running.expect("a running server"),
            http: reqwest::Client::new(),
        }
    }

    /// Stops the server.
    pub async fn stop(self) {
        self.running.shutdown().await;
    }
}

/// HTTP calls against any server address.
#[derive(Clone)]
pub struct Api {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    http: reqwest::Client,
}

impl Api {
    /// Calls to `base`.
    pub fn new(base: &str) -> Api {
        Api {
            base: base.to_string(),
            http: reqwest::Client::builder()
                .timeout(WAIT)
                .build()
                .expect("an HTTP client"),
        }
    }

    /// GET, returning the status and the JSON body.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// POST JSON, returning the status and the JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .expect("POST");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Creates a game; panics unless it is created.
    pub async fn create(&self, config: &Value, seats: &[&str]) -> Value {
        let (status, body) = self
            .post("/api/games", &json!({"config": config, "seats": seats}))
            .await;
        assert_eq!(status, 201, "create: {body}");
        body
    }

    /// Starts a game with a seat's token.
    pub async fn start(&self, id: &str, token: &str) {
        let (status, body) = self
            .post(&format!("/api/games/{id}/start"), &json!({"token": token}))
            .await;
        assert_eq!(status, 200, "start: {body}");
    }

    /// The game's summary.
    pub async fn summary(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "summary: {body}");
        body
    }

    /// The game's record.
    pub async fn record(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(status, 200, "record: {body}");
        body
    }
}

/// The token of a seat in a `create` answer.
pub fn token(created: &Value, seat: usize) -> String {
    created["seats"][seat]["token"]
        .as_str()
        .expect("a person's seat has a token")
        .to_string()
}

/// A WebSocket client of one game.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order.
    pub received: Vec<Value>,
}

impl Client {
    /// Connects to a game's socket (without saying hello).
    pub async fn connect(ws_base: &str, game: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async_with_config(
            format!("{ws_base}/api/games/{game}/ws"),
            None,
            true,
        )
        .await
        .expect("connect the WebSocket");
        Client {
            ws,
            received: Vec::new(),
        }
    }

    /// Connects with a session's cookie (`name=value`) on the upgrade
    /// request, as a signed-in player's browser does.
    pub async fn connect_as(ws_base: &str, game: &str, cookie: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("{ws_base}/api/games/{game}/ws")
            .into_client_request()
            .expect("a request");
        request
            .headers_mut()
            .insert("cookie", cookie.parse().expect("a cookie header"));
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("connect the WebSocket");
        Client {
            ws,
            received: Vec::new(),
        }
    }

    /// Connects with a session's cookie and says hello with a seat's
    /// token (a rated game's seat answers its holder's session alone).
    pub async fn hello_as(ws_base: &str, game: &str, cookie: &str, token: &str) -> (Client, Value) {
        let mut c = Client::connect_as(ws_base, game, cookie).await;
        c.send(&json!({"hello": {"token": token, "since": null}}))
            .await;
        let w = c.next().await;
        assert!(w.get("welcome").is_some(), "expected a welcome, got {w}");
        (c, w)
    }

    /// Connects and says hello; returns the client and the welcome.
    pub async fn hello(
        ws_base: &str,
        game: &str,
        token: Option<&str>,
        since: Option<u32>,
    ) -> (Client, Value) {
        let mut c = Client::connect(ws_base, game).await;
        c.send(&json!({"hello": {"token": token, "since": since}}))
            .await;
        let w = c.next().await;
        assert!(w.get("welcome").is_some(), "expected a welcome, got {w}");
        (c, w)
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: &Value) {
        self.send_text(&v.to_string()).await;
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .expect("send");
    }

    /// Sends a JSON message to a server that may already have cut the
    /// connection (a flood): whether the send went through.
    pub async fn try_send(&mut self, v: &Value) -> bool {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .is_ok()
    }

    /// Sends a raw frame.
    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.expect("send");
    }

    /// The next JSON message; panics after [`WAIT`] or if the socket closes.
    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a message");
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(&t).expect("JSON from the server");
                self.received.push(v.clone());
                return v;
            }
        }
    }

    /// The next message that is an error, skipping updates.
    pub async fn next_error(&mut self) -> Value {
        loop {
            let m = self.next().await;
            if let Some(e) = m.get("error") {
                return e.clone();
            }
        }
    }

    /// Waits for whether the server closes the socket.
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await {
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(Message::Text(t)))) => {
                    if let Ok(v) = serde_json::from_str::<Value>(&t) {
                        self.received.push(v);
                    }
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => return false,
            }
        }
    }

    /// Waits for the server's close frame; its code (`None`: the socket
    /// ended without one, or nothing came in time).
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await {
                Ok(Some(Ok(Message::Close(frame)))) => return frame.map(|f| u16::from(f.code)),
                Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The version a message brings the client to, if it carries one.
pub fn version_of(m: &Value) -> Option<u64> {
    ["welcome", "played", "status"]
        .iter()
        .find_map(|k| m.get(*k))
        .and_then(|b| b["version"].as_u64())
}

/// The body of a message that carries a view (`welcome`, `played`,
/// `status`).
pub fn body_of(m: &Value) -> Option<&Value> {
    ["welcome", "played", "status"]
        .iter()
        .find_map(|k| m.get(*k))
        .filter(|b| b.get("view").is_some())
}

/// A small deterministic generator for choosing among legal actions.
pub struct Pick(u64);

impl Pick {
    /// Seeded.
    pub fn new(seed: u64) -> Pick {
        Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// An index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays a seat to the end of the game: acts whenever the latest message
/// offers legal actions, choosing among them with `pick`. Stops when the
/// game is over; returns every message received, the welcome first.
pub async fn play_seat(mut c: Client, welcome: Value, seed: u64) -> Vec<Value> {
    let mut pick = Pick::new(seed);
    let mut latest = welcome["welcome"].clone();
    let mut acted_at = None;
    loop {
        // `welcome` and `status` bodies carry the status; `played` not.
        if matches!(
            latest.get("status").and_then(Value::as_str),
            Some("finished" | "resigned")
        ) {
            break;
        }
        let version = latest["version"].as_u64();
        if let Some(legal) = latest.get("legal").and_then(Value::as_array) {
            if !legal.is_empty() && acted_at != Some(version) {
                let action = legal[pick.below(legal.len())].clone();
                c.send(&json!({"action": action, "version": version})).await;
                acted_at = Some(version);
            }
        }
        let m = c.next().await;
        if let Some(e) = m.get("error") {
            // Against a bot that answers in a millisecond this seat acts
            // faster than the server's sustained message rate; the server
            // ignored the message, so wait as a client should and send the
            // same action again.
            if e["code"] == json!("rate_limited") {
                tokio::time::sleep(Duration::from_millis(100)).await;
                acted_at = None;
                continue;
            }
            panic!("the server refused a legal action: {e}");
        }
        if let Some(b) = m.get("played").or_else(|| m.get("status")) {
            latest = b.clone();
        }
    }
    // Everything, the welcome first (`hello` kept it).
    let received = std::mem::take(&mut c.received);
    c.close().await;
    received
}

/// Reads until `pong` and until the game is at `version` at least;
/// returns the error codes seen, and keeps in `last` the last message
/// with a view.
pub async fn drain(c: &mut Client, version: u64, last: &mut Value) -> Vec<String> {
    c.send(&json!({"ping": {}})).await;
    let mut errors = Vec::new();
    let mut ponged = false;
    while !ponged || version_of(last).unwrap_or(0) < version {
        let m = c.next().await;
        if m.get("pong").is_some() {
            ponged = true;
        } else if let Some(e) = m.get("error") {
            errors.push(e["code"].as_str().unwrap_or("").to_string());
        } else if body_of(&m).is_some() {
            *last = m;
        }
    }
    errors
}

/// The legal actions a message offers.
pub fn legal_of(m: &Value) -> Option<Vec<Value>> {
    body_of(m)?.get("legal")?.as_array().cloned()
}

/// The real server binary, running on a free port.
pub struct ServerProcess {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

/// Flags that lift the per-address limits for tests that play many games.
pub const ROOMY: &[&str] = &[
    "--create-rate=1000000/1000000",
    "--join-rate=1000000/1000000",
    "--connect-rate=1000000/1000000",
    "--message-rate=1000000/1000000",
    "--request-rate=1000000/1000000",
    "--max-connections-per-address=100000",
    "--max-open-games-per-address=100000",
    "--max-bot-seats-per-address=100000",
    "--max-bot-games-per-address=100000",
];

impl ServerProcess {
    /// Starts the binary over the test's database, logging to `log`.
    pub fn start(db: &TestDb, log: &std::path::Path) -> ServerProcess {
        ServerProcess::start_with(db, log, &[])
    }

    /// Starts the binary with more options (`--nats …`).
    pub fn start_with(db: &TestDb, log: &std::path::Path, extra: &[&str]) -> ServerProcess {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("a log file");
        let mut child = Command::new(env!("CARGO_BIN_EXE_bastide-server"))
            .args(["--addr", "127.0.0.1:0", "--database", &db.url()])
            // The tests play many games from one address; the limits
            // have tests of their own (tests/limits.rs).
            .args(ROOMY)
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start bastide-server");
        let stdout = child.stdout.take().expect("its standard output");
        // The first line names the address; read it on a thread so that a
        // server that never prints fails the test instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(WAIT).expect("the server starts");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        ServerProcess { child, addr }
    }

    /// HTTP calls to it.
    pub fn api(&self) -> Api {
        Api::new(&format!("http://{}", self.addr))
    }

    /// `ws://127.0.0.1:PORT`.
    pub fn ws(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// SIGKILL: no shutdown, no flush, nothing.
    pub fn kill(mut self) {
        self.child.kill().expect("kill the server");
        self.child.wait().expect("reap the server");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads a spectator's messages until the game is over.
pub async fn watch(mut c: Client) -> Vec<Value> {
    loop {
        let m = c.next().await;
        if m["status"]["status"]
            .as_str()
            .is_some_and(|s| s == "finished" || s == "resigned")
        {
            break;
        }
    }
    let received = std::mem::take(&mut c.received);
    c.close().await;
    received
}

/// The `played` bodies in a client's messages.
pub fn played(msgs: &[Value]) -> Vec<&Value> {
    msgs.iter().filter_map(|m| m.get("played")).collect()
}

/// Checks that a client saw every version from `from` on exactly once, in
/// order, and returns the last.
pub fn assert_contiguous(msgs: &[Value], from: u64) -> u64 {
    let versions: Vec<u64> = played(msgs)
        .iter()
        .map(|p| p["version"].as_u64().expect("a version"))
        .collect();
    let expected: Vec<u64> = (from..from + versions.len() as u64).collect();
    assert_eq!(versions, expected, "versions must follow each other");
    versions.last().copied().unwrap_or(from - 1)
}

/// Plays `n` actions of a game between the given seats' clients, each
/// acting when offered legal actions.
pub async fn play_some(clients: &mut [(Client, Value)], from: u64, n: u64) -> u64 {
    let mut version = from;
    while version < from + n {
        let actor = clients
            .iter()
            .position(|(_, l)| legal_of(l).is_some())
            .expect("someone is to act");
        let legal = legal_of(&clients[actor].1).expect("legal actions");
        let (c, _) = &mut clients[actor];
        c.send(&json!({"action": legal[legal.len() / 2], "version": version}))
            .await;
        version += 1;
        for (c, l) in clients.iter_mut() {
            let errors = drain(c, version, l).await;
            assert!(errors.is_empty(), "{errors:?}");
        }
    }
    version
}

/// The rows of a running game with one random bot seat and an empty
/// configuration: for tests of the store's rows, not of play.
pub fn bot_game_row(id: &bastide_server::store::GameId) -> bastide_server::store::NewGame {
    use bastide_server::store::{NewGame, SeatRow, Status};
    NewGame {
        id: id.clone(),
        config: "{}".into(),
        status: Status::Playing,
        created_ms: 0,
        clock: None,
        rated: false,
        private: false,
        creator: None,
        network: None,
        seats: vec![SeatRow {
            seat: 0,
            kind: "random".into(),
            token_hash: None,
            joined: false,
            player: None,
        }],
    }
}

/// Signs up and in as `name`: the session cookie.
pub async fn session(base: &str, name: &str) -> String {
    let http = reqwest::Client::new();
    let body = json!({"name": name, "password": "a long password"});
    let r = http
        .post(format!("{base}/api/accounts"))
        .json(&body)
        .send()
        .await
        .expect("sign up");
    assert_eq!(r.status().as_u16(), 201);
    let r = http
        .post(format!("{base}/api/sessions"))
        .json(&body)
        .send()
        .await
        .expect("sign in");
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a session cookie");
    cookie.split(';').next().unwrap_or_default().to_string()
}

/// Plays a seat from its own session (`cookie`) until every one of the
/// game's `seats` has made a move, the bots' replies included; returns
/// then, whoever is to act (a rated game resigned after that is rated).
/// Each seat of people runs it at once (`tokio::join!`).
pub async fn play_until_everyone_moved(
    ws_base: &str,
    game: &str,
    cookie: &str,
    token: &str,
    seats: usize,
) {
    // Since version 0: every move already made is told too (a first
    // round is far shorter than a catch-up's limit).
    let mut c = Client::connect_as(ws_base, game, cookie).await;
    c.send(&json!({"hello": {"token": token, "since": 0}}))
        .await;
    let welcome = c.next().await;
    assert!(
        welcome.get("welcome").is_some(),
        "expected a welcome, got {welcome}"
    );
    let mut latest = welcome["welcome"].clone();
    let mut moved = vec![false; seats];
    let mut acted_at = None;
    while !moved.iter().all(|m| *m) {
        let version = latest["version"].as_u64();
        if let Some(legal) = latest
            .get("legal")
            .and_then(Value::as_array)
            .filter(|l| !l.is_empty())
        {
            if acted_at != Some(version) {
                c.send(&json!({"action": legal[0], "version": version}))
                    .await;
                acted_at = Some(version);
            }
        }
        let m = c.next().await;
        assert!(m.get("error").is_none(), "refused: {m}");
        if let Some(p) = m.get("played") {
            let seat = p["seat"].as_u64().expect("a seat") as usize;
            moved[seat] = true;
            latest = p.clone();
        } else if let Some(s) = m.get("status") {
            latest = s.clone();
        }
    }
    c.close().await;
}
