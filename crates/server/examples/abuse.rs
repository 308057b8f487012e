//! What one anonymous client can do to the server, measured on loopback,
//! bounded in count and time (docs/performance.md, "The server under
//! abuse"):
//!
//! 1. **Creates**: one address creates games as fast as it can for a few
//!    seconds: how many are accepted, how many refused (429), and the
//!    memory it cost.
//! 2. **Bots**: one address runs many expensive bot games
//!    (`mcts:10000ms`, bots only) while another plays a person against a
//!    greedy bot: the greedy bot's reply time, p50 and p99, with the
//!    searching bots on a pool of the cores minus one (now) and with
//!    every bot thinking at once (before).
//! 3. **Idle sockets**: memory per idle WebSocket, with the server in its
//!    own process (`--server-bin`, default `target/release/bastide-server`).
//! 4. **Catch-up** (issue 50): a stranger's 6,000-tile free deck (refused
//!    now), then `--catch-up-sockets` hellos with `"since": 0` that never
//!    read, on the longest game the operator may make
//!    (`--catch-up-tiles`): the memory they cost and a greedy bot's reply
//!    meanwhile.
//! 5. **Sign-in crowd** (issue 50): `--sign-ins` sign-ins at once, each
//!    within its allowance: how many are hashed, how many refused (503),
//!    the memory, and a greedy bot's reply meanwhile.
//! 6. **Reconnect storm and log pages** (issue 50), on the same long
//!    game: `--reconnects` clients that reconnect over and over
//!    [`CATCH_UP_MOVES`] behind, then `--log-readers` clients that fetch
//!    the last page of its move log over and over: the actions replayed
//!    per answer, the memory, and a greedy bot's reply meanwhile.
//! 7. **Slow bodies** (issue 50): `--slow-bodies` requests whose body
//!    comes a byte a second: how many the server cut, and when.
//! 8. **A person's search beside strangers'** (issue 50): twenty
//!    bots-only `mcts:2000ms` games from ten addresses, and a person
//!    playing `mcts:500ms`: that bot's reply, p50 and p99 (target ≤ 2 s).
//! 9. **Many addresses fill the games cap** (issue 50): `--cap-hosts`
//!    addresses in each of `--cap-networks` /24s of loopback (127.0.x.y,
//!    standing for an IPv6 /52's /64s or many IPv4 /24s), each creating
//!    games until refused: how many got in, whether a newcomer still
//!    can, the peak memory and a greedy bot's reply meanwhile.
//! 10. **Started correspondence games** (issue 50):
//!     `--correspondence-addresses` addresses of one /24, each starting
//!     `--correspondence-tries` correspondence games: how many started,
//!     the peak memory and a greedy bot's reply meanwhile.
//!
//! ```sh
//! cargo build --release -p bastide-server
//! cargo run --release -p bastide-server --example abuse
//! ```

mod support;

use std::time::{Duration, Instant};

use bastide_server::guard::Limits;
use bastide_server::hub::CATCH_UP_MOVES;
use bastide_server::{Caps, Settings};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use support::{create_game, percentile, rss_kib};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// Abuse test settings.
#[derive(Parser)]
struct Args {
    /// Seconds of creates from one address.
    #[arg(long, default_value_t = 5)]
    create_seconds: u64,
    /// Expensive bot games from one address.
    #[arg(long, default_value_t = 20)]
    bot_games: usize,
    /// The expensive bot.
    #[arg(long, default_value = "mcts:10000ms")]
    bot: String,
    /// Moves of the person against the greedy bot, per setting.
    #[arg(long, default_value_t = 40)]
    moves: usize,
    /// Idle WebSockets opened against the server process.
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// The server binary for the idle sockets (skipped if missing).
    #[arg(long, default_value = "target/release/bastide-server")]
    server_bin: String,
    /// Bursts of idle sockets, each opened then closed: whether memory
    /// comes back after each.
    #[arg(long, default_value_t = 1)]
    bursts: usize,
    /// `NAME=VALUE` in the server process's environment (repeatable):
    /// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libmimalloc.so.2` tries
    /// another allocator without building again.
    #[arg(long)]
    server_env: Vec<String>,
    /// Only the idle sockets (no creates, no bots).
    #[arg(long)]
    only_sockets: bool,
    /// Only the attacks of issue 50 (catch-up, sign-in crowd).
    #[arg(long)]
    only_crowd: bool,
    /// Tiles of the operator's long game for the catch-up.
    #[arg(long, default_value_t = 3000)]
    catch_up_tiles: usize,
    /// Sockets that say hello with since 0 and never read.
    #[arg(long, default_value_t = 60)]
    catch_up_sockets: usize,
    /// Sign-ins at once.
    #[arg(long, default_value_t = 600)]
    sign_ins: usize,
    /// Clients reconnecting over and over a few moves behind.
    #[arg(long, default_value_t = 60)]
    reconnects: usize,
    /// Clients fetching the last page of the move log over and over.
    #[arg(long, default_value_t = 30)]
    log_readers: usize,
    /// Requests whose body comes a byte a second.
    #[arg(long, default_value_t = 20)]
    slow_bodies: usize,
    /// Moves of the person against `mcts:500ms` beside strangers'
    /// searches.
    #[arg(long, default_value_t = 12)]
    search_moves: usize,
    /// Only the caps by address and network (many addresses,
    /// correspondence games).
    #[arg(long)]
    only_caps: bool,
    /// /24 networks of loopback (127.0.1.0/24 on) filling the games cap.
    #[arg(long, default_value_t = 20)]
    cap_networks: u8,
    /// Addresses in each of those networks.
    #[arg(long, default_value_t = 250)]
    cap_hosts: u8,
    /// Seconds the crowd may go on.
    #[arg(long, default_value_t = 60)]
    cap_seconds: u64,
    /// Addresses of one /24 starting correspondence games.
    #[arg(long, default_value_t = 10)]
    correspondence_addresses: u8,
    /// Correspondence games each of them tries to start.
    #[arg(long, default_value_t = 60)]
    correspondence_tries: usize,
}

/// This process's resident memory sampled every 20 ms until
/// [`PeakRss::stop`]: a burst between two reads is seen too.
struct PeakRss {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    task: tokio::task::JoinHandle<u64>,
}

impl PeakRss {
    fn start() -> PeakRss {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let task = tokio::spawn(async move {
            let mut peak = 0;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss_kib("self"));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            peak.max(rss_kib("self"))
        });
        PeakRss { stop, task }
    }

    /// The highest RSS seen, in KiB.
    async fn stop(self) -> u64 {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.task.await.unwrap_or(0)
    }
}

/// Answers counted by kind: a status, and for a refusal which cap.
type Tally = std::collections::BTreeMap<String, u32>;

/// What kind of answer a status and body are: `201`, `429 network` (a
/// cap of the network, whose message says "your network"), `429
/// correspondence`, `429` (another cap or a rate), `0` (no answer).
async fn answer_kind(r: Result<reqwest::Response, reqwest::Error>) -> (String, Value) {
    let Ok(r) = r else {
        return ("0".into(), Value::Null);
    };
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap_or_default();
    let message = body["error"]["message"].as_str().unwrap_or_default();
    let cap = ["network", "correspondence"]
        .into_iter()
        .find(|w| message.contains(w));
    let kind = match cap {
        Some(cap) if status == 429 => format!("{status} {cap}"),
        _ => status.to_string(),
    };
    (kind, body)
}

/// Runs `job` for each address on `workers` tasks at once, until
/// `deadline`; the statuses of every answer, counted.
async fn from_addresses<F, Fut>(addresses: Vec<std::net::IpAddr>, workers: usize, job: F) -> Tally
where
    F: Fn(reqwest::Client) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Tally> + Send,
{
    let queue = std::sync::Arc::new(std::sync::Mutex::new(addresses));
    let job = std::sync::Arc::new(job);
    let tasks: Vec<_> = (0..workers)
        .map(|_| {
            let (queue, job) = (queue.clone(), job.clone());
            tokio::spawn(async move {
                let mut tally = Tally::new();
                loop {
                    let next = queue.lock().map(|mut q| q.pop()).unwrap_or(None);
                    let Some(address) = next else { break };
                    // A client of its own per address: its connections
                    // come from that address, as another machine's would.
                    let Ok(http) = reqwest::Client::builder().local_address(address).build() else {
                        *tally.entry("0".into()).or_default() += 1;
                        continue;
                    };
                    for (kind, n) in job(http).await {
                        *tally.entry(kind).or_default() += n;
                    }
                }
                tally
            })
        })
        .collect();
    let mut tally = Tally::new();
    for t in tasks {
        for (kind, n) in t.await.unwrap_or_default() {
            *tally.entry(kind).or_default() += n;
        }
    }
    tally
}

/// `--cap-hosts` addresses in each of `--cap-networks` /24s, each
/// creating games of two people until refused (default settings, as
/// deployed): what got in, whether a newcomer from another network still
/// gets a game, the peak memory and a greedy bot's replies meanwhile.
async fn crowd_fills_the_cap(args: &Args) {
    let (running, _dir) = start(Settings::default()).await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let idle = rss_kib("self");
    let peak = PeakRss::start();
    let began = Instant::now();
    let deadline = began + Duration::from_secs(args.cap_seconds);
    let addresses: Vec<std::net::IpAddr> = (1..=args.cap_networks.min(254))
        .flat_map(|net| {
            (1..=args.cap_hosts.min(254))
                .map(move |host| std::net::Ipv4Addr::new(127, 0, net, host).into())
        })
        .collect();
    let count = addresses.len();
    let url = format!("{base}/api/games");
    let crowd = tokio::spawn(from_addresses(addresses, 64, move |http| {
        let url = url.clone();
        async move {
            let mut tally = Tally::new();
            let mut seed = 0;
            // Until this address is refused, or time is up.
            while Instant::now() < deadline {
                seed += 1;
                let sent = http
                    .post(&url)
                    .json(&body(&["human", "human"], seed))
                    .send()
                    .await;
                let (kind, _) = answer_kind(sent).await;
                let refused = kind != "201";
                *tally.entry(kind).or_default() += 1;
                if refused {
                    break;
                }
            }
            tally
        }
    }));
    let (p50, p99) = replies_beside(&base, &ws_base, args.moves).await;
    let tally = crowd.await.unwrap_or_default();
    let took = began.elapsed().as_secs_f64();
    let newcomer = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .json(&body(&["human", "human"], 1))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    let peak = peak.stop().await;
    println!(
        "many addresses: {count} in {} /24s create games until refused: {tally:?} (answers by kind) in {took:.1} s; {} live games (cap {}); a newcomer then gets {newcomer}; peak RSS +{} KiB over {idle} KiB; greedy reply p50 {p50:.1} ms, p99 {p99:.1} ms",
        args.cap_networks,
        running.hub.live_games(),
        Settings::default().max_live_games,
        peak.saturating_sub(idle),
    );
    running.shutdown().await;
}

/// `--correspondence-addresses` addresses of one /24, each creating and
/// starting `--correspondence-tries` correspondence games of two people
/// (default settings): how many started, the peak memory and a greedy
/// bot's replies meanwhile.
async fn correspondence_games(args: &Args) {
    let (running, _dir) = start(Settings::default()).await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let idle = rss_kib("self");
    let peak = PeakRss::start();
    let began = Instant::now();
    let addresses: Vec<std::net::IpAddr> = (1..=args.correspondence_addresses.min(254))
        .map(|host| std::net::Ipv4Addr::new(127, 0, 255, host).into())
        .collect();
    let tries = args.correspondence_tries;
    let root = base.clone();
    let attack = tokio::spawn(from_addresses(addresses, 16, move |http| {
        let base = root.clone();
        async move {
            let mut tally = Tally::new();
            for seed in 0..tries as u64 {
                let mut game = body(&["human", "human"], seed);
                game["clock"] = json!({"days_per_move": 7});
                let sent = http
                    .post(format!("{base}/api/games"))
                    .json(&game)
                    .send()
                    .await;
                let (kind, created) = answer_kind(sent).await;
                let (Some(id), Some(token)) = (
                    created["id"].as_str(),
                    created["seats"][0]["token"].as_str(),
                ) else {
                    // Refused: the kind says why.
                    *tally.entry(kind).or_default() += 1;
                    continue;
                };
                let started = http
                    .post(format!("{base}/api/games/{id}/start"))
                    .json(&json!({"token": token}))
                    .send()
                    .await;
                // 200: one more correspondence game running for weeks.
                let (kind, _) = answer_kind(started).await;
                *tally.entry(kind).or_default() += 1;
            }
            tally
        }
    }));
    let (p50, p99) = replies_beside(&base, &ws_base, args.moves).await;
    let tally = attack.await.unwrap_or_default();
    let peak = peak.stop().await;
    println!(
        "correspondence: {} addresses of one /24 each start {tries} games of 7 days a move: {tally:?} (answers by kind; 200: started) in {:.1} s; peak RSS +{} KiB over {idle} KiB; greedy reply p50 {p50:.1} ms, p99 {p99:.1} ms",
        args.correspondence_addresses,
        began.elapsed().as_secs_f64(),
        peak.saturating_sub(idle),
    );
    running.shutdown().await;
}

/// A free deck of `tiles` straight city-and-road tiles, played by two
/// random bots.
fn free_deck(tiles: usize) -> Value {
    let deck = vec!["base/D"; tiles];
    json!({"config": {"players": ["RED", "BLUE"], "seed": 7, "deck": deck, "deck_only": true},
           "seats": ["random", "random"]})
}

/// Greedy replies measured now; their p50 and p99 in ms.
async fn replies_beside(base: &str, ws_base: &str, moves: usize) -> (f64, f64) {
    let mut replies = bot_replies(base, ws_base, "greedy", &[], moves).await;
    replies.sort();
    (
        percentile(&replies, 0.5).as_secs_f64() * 1e3,
        percentile(&replies, 0.99).as_secs_f64() * 1e3,
    )
}

async fn catch_up(args: &Args) {
    let (running, _dir) = start(Settings {
        caps: Caps::unlimited(),
        limits: Limits::unlimited(),
        ..Settings::default()
    })
    .await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let http = reqwest::Client::new();
    let refused = http
        .post(format!("{base}/api/games"))
        .json(&free_deck(6000))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    // The operator's long game, played out by its bots.
    let req: bastide_server::hub::CreateGame =
        serde_json::from_value(free_deck(args.catch_up_tiles)).expect("a request");
    let id = running
        .hub
        .create(req, None)
        .await
        .expect("the operator's game")
        .id;
    let version = loop {
        let s = support::summary(&http, &base, &id).await;
        if s["status"] == json!("finished") {
            break s["version"].as_u64().unwrap_or(0);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let pid = std::process::id().to_string();
    let before = rss_kib(&pid);
    let began = Instant::now();
    let mut sockets = Vec::new();
    for _ in 0..args.catch_up_sockets {
        let Ok((mut ws, _)) =
            tokio_tungstenite::connect_async(format!("{ws_base}/api/games/{id}/ws")).await
        else {
            break;
        };
        let hello = json!({"hello": {"token": null, "since": 0}}).to_string();
        let _ = ws.send(Message::Text(hello.into())).await;
        // Never read.
        sockets.push(ws);
    }
    let (p50, p99) = replies_beside(&base, &ws_base, args.moves).await;
    let peak = rss_kib(&pid);
    println!(
        "catch-up: a stranger's 6,000-tile deck answered {refused}; {} sockets hello since 0 on a {version}-version game and never read: RSS +{} KiB in {:.1} s, greedy reply p50 {p50:.1} ms, p99 {p99:.1} ms",
        sockets.len(),
        peak.saturating_sub(before),
        began.elapsed().as_secs_f64()
    );
    drop(sockets);
    reconnect_storm(args, &running, &id, version).await;
    log_readers(args, &running, &id, version).await;
    running.shutdown().await;
}

/// `--reconnects` clients, each reconnecting over and over
/// [`CATCH_UP_MOVES`] behind the long game `id` (at `version`) and
/// reading its catch-up to the end, while a greedy bot's replies are
/// measured.
async fn reconnect_storm(args: &Args, running: &bastide_server::Running, id: &str, version: u64) {
    let ws_base = format!("ws://{}", running.addr);
    let base = format!("http://{}", running.addr);
    let since = version.saturating_sub(u64::from(CATCH_UP_MOVES));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let storm: Vec<_> = (0..args.reconnects)
        .map(|_| {
            let (url, stop, done) = (
                format!("{ws_base}/api/games/{id}/ws"),
                stop.clone(),
                done.clone(),
            );
            tokio::spawn(async move {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await else {
                        break;
                    };
                    let hello = json!({"hello": {"token": null, "since": since}}).to_string();
                    let _ = ws.send(Message::Text(hello.into())).await;
                    let mut last = 0;
                    while last < version {
                        let Ok(Some(Ok(Message::Text(t)))) =
                            tokio::time::timeout(Duration::from_secs(30), ws.next()).await
                        else {
                            break;
                        };
                        let m: Value = serde_json::from_str(&t).unwrap_or_default();
                        last = m["played"]["version"].as_u64().unwrap_or(last);
                        // A snapshot (a welcome with the view) is the whole answer.
                        if m["welcome"].get("view").is_some() {
                            last = version;
                        }
                    }
                    let _ = ws.close(None).await;
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            })
        })
        .collect();
    long_game_measure(args, running, &base, "reconnect storm", stop, storm, &done).await;
}

/// `--log-readers` clients fetching the last page of the long game's
/// move log over and over, while a greedy bot's replies are measured.
async fn log_readers(args: &Args, running: &bastide_server::Running, id: &str, version: u64) {
    let base = format!("http://{}", running.addr);
    let page = bastide_server::hub::LOG_PAGE as u64;
    let url = format!(
        "{base}/api/games/{id}/log?since={}",
        version.saturating_sub(page)
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let readers: Vec<_> = (0..args.log_readers)
        .map(|_| {
            let (url, stop, done) = (url.clone(), stop.clone(), done.clone());
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let ok = match http.get(&url).send().await {
                        Ok(r) => r.bytes().await.is_ok(),
                        Err(_) => false,
                    };
                    if !ok {
                        break;
                    }
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            })
        })
        .collect();
    long_game_measure(args, running, &base, "log pages", stop, readers, &done).await;
}

/// Measures a greedy bot's replies while `attackers` run, then stops
/// them: the answers they had (`done`), the actions replayed per answer,
/// the memory.
async fn long_game_measure(
    args: &Args,
    running: &bastide_server::Running,
    base: &str,
    label: &str,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    attackers: Vec<tokio::task::JoinHandle<()>>,
    done: &std::sync::atomic::AtomicU64,
) {
    let pid = std::process::id().to_string();
    let before = rss_kib(&pid);
    let replayed = running.hub.metrics().replayed.get();
    let began = Instant::now();
    let ws_base = base.replacen("http://", "ws://", 1);
    let (p50, p99) = replies_beside(base, &ws_base, args.moves).await;
    let peak = rss_kib(&pid);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for a in attackers {
        let _ = a.await;
    }
    let answers = done.load(std::sync::atomic::Ordering::Relaxed).max(1);
    let replayed = running.hub.metrics().replayed.get() - replayed;
    println!(
        "{label}: {} answers in {:.1} s, {} actions replayed each; RSS +{} KiB; greedy reply p50 {p50:.1} ms, p99 {p99:.1} ms",
        answers,
        began.elapsed().as_secs_f64(),
        replayed / answers,
        peak.saturating_sub(before)
    );
}

/// `--slow-bodies` requests whose headers promise a body that then comes
/// a byte a second: how many the server cut within 30 s, and when.
async fn slow_bodies(args: &Args) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (running, _dir) = start(Settings::default()).await;
    let addr = running.addr;
    let began = Instant::now();
    let slow: Vec<_> = (0..args.slow_bodies)
        .map(|_| {
            tokio::spawn(async move {
                let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
                let head = format!(
                    "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                );
                s.write_all(head.as_bytes()).await.ok()?;
                let mut buf = [0u8; 512];
                for _ in 0..30 {
                    if s.write_all(b" ").await.is_err() {
                        return Some(began.elapsed());
                    }
                    // The server's answer (an error) or its close ends it.
                    match tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf)).await {
                        Ok(Ok(0) | Err(_)) => return Some(began.elapsed()),
                        Ok(Ok(_)) => {
                            let _ = tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf))
                                .await;
                            return Some(began.elapsed());
                        }
                        Err(_) => {}
                    }
                }
                None
            })
        })
        .collect();
    let mut cut = Vec::new();
    for s in slow {
        if let Ok(Some(t)) = s.await {
            cut.push(t);
        }
    }
    cut.sort();
    println!(
        "slow bodies: {} of {} cut within 30 s, the last after {:.1} s",
        cut.len(),
        args.slow_bodies,
        cut.last().copied().unwrap_or_default().as_secs_f64()
    );
    running.shutdown().await;
}

/// A person's `mcts:500ms` beside twenty strangers' bots-only
/// `mcts:2000ms` games from ten addresses (told by `X-Forwarded-For`
/// from loopback): that bot's replies, p50 and p99.
async fn searches_beside_strangers(args: &Args) {
    let (running, _dir) = start(Settings {
        limits: Limits {
            trust_proxy: vec!["127.0.0.0/8".parse().expect("a network")],
            ..Limits::unlimited()
        },
        ..Settings::default()
    })
    .await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let http = reqwest::Client::new();
    let mut started = 0;
    for i in 0..20u64 {
        let r = http
            .post(format!("{base}/api/games"))
            .header("x-forwarded-for", format!("10.9.{}.1", i / 2))
            .json(&body(&["mcts:2000ms", "mcts:2000ms"], 300 + i))
            .send()
            .await
            .map(|r| r.status().as_u16());
        if matches!(r, Ok(201)) {
            started += 1;
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut replies = bot_replies(
        &base,
        &ws_base,
        "mcts:500ms",
        &[("x-forwarded-for", "10.8.0.1")],
        args.search_moves,
    )
    .await;
    replies.sort();
    println!(
        "a person's mcts:500ms beside {started} strangers' mcts:2000ms games from ten addresses: reply p50 {:.0} ms, p99 {:.0} ms over {} replies",
        percentile(&replies, 0.5).as_secs_f64() * 1e3,
        percentile(&replies, 0.99).as_secs_f64() * 1e3,
        replies.len()
    );
    running.shutdown().await;
    // Let the searches under way end before the next measure.
    tokio::time::sleep(Duration::from_millis(3000)).await;
}

async fn sign_in_crowd(args: &Args) {
    let (running, _dir) = start(Settings {
        limits: Limits::unlimited(),
        ..Settings::default()
    })
    .await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let who = json!({"name": "crowded", "password": "pass-word-1"});
    let http = reqwest::Client::new();
    http.post(format!("{base}/api/accounts"))
        .json(&who)
        .send()
        .await
        .expect("an account");
    let pid = std::process::id().to_string();
    let before = rss_kib(&pid);
    let crowd = (0..args.sign_ins).map(|_| {
        let (http, base, who) = (http.clone(), base.clone(), who.clone());
        tokio::spawn(async move {
            http.post(format!("{base}/api/sessions"))
                .json(&who)
                .send()
                .await
                .map_or(0, |r| r.status().as_u16())
        })
    });
    let crowd: Vec<_> = crowd.collect();
    let (p50, p99) = replies_beside(&base, &ws_base, args.moves).await;
    let mut counts = std::collections::BTreeMap::new();
    for c in crowd {
        *counts.entry(c.await.unwrap_or(0)).or_insert(0u32) += 1;
    }
    println!(
        "sign-in crowd: {} at once: {counts:?} (status: count); RSS +{} KiB; greedy reply p50 {p50:.1} ms, p99 {p99:.1} ms",
        args.sign_ins,
        rss_kib(&pid).saturating_sub(before)
    );
    running.shutdown().await;
}

fn body(seats: &[&str], seed: u64) -> Value {
    let players: Vec<&str> = ["RED", "BLUE", "GREEN", "YELLOW"][..seats.len()].to_vec();
    json!({"config": {"players": players, "seed": seed}, "seats": seats})
}

async fn start(settings: Settings) -> (bastide_server::Running, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = bastide_server::store::open(&dir.path().join("abuse.db").display().to_string())
        .await
        .expect("the store");
    let running = bastide_server::start(
        "127.0.0.1:0".parse().expect("an address"),
        store,
        Settings {
            public_url: String::new(),
            ..settings
        },
    )
    .await
    .expect("the server");
    (running, dir)
}

async fn creates(seconds: u64) {
    let (running, _dir) = start(Settings::default()).await;
    let base = format!("http://{}", running.addr);
    let http = reqwest::Client::new();
    let pid = std::process::id().to_string();
    let before = rss_kib(&pid);
    let (mut accepted, mut refused, mut other) = (0u32, 0u32, 0u32);
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut seed = 0;
    while Instant::now() < end {
        seed += 1;
        let r = http
            .post(format!("{base}/api/games"))
            .json(&body(&["human", "human"], seed))
            .send()
            .await;
        match r.map(|r| r.status().as_u16()) {
            Ok(201) => accepted += 1,
            Ok(429) => refused += 1,
            _ => other += 1,
        }
    }
    println!(
        "creates from one address for {seconds} s: {accepted} accepted, {refused} refused (429), {other} other; \
         {} live games; RSS +{} KiB",
        running.hub.live_games(),
        rss_kib(&pid).saturating_sub(before)
    );
    running.shutdown().await;
}

/// Plays a person (random legal actions) against `bot`, with `headers`
/// on its requests; the time from each action sent to the moment it is
/// this seat's turn again.
async fn bot_replies(
    base: &str,
    ws_base: &str,
    bot: &str,
    headers: &[(&str, &str)],
    moves: usize,
) -> Vec<Duration> {
    let mut h = reqwest::header::HeaderMap::new();
    for (k, v) in headers {
        if let (Ok(k), Ok(v)) = (
            reqwest::header::HeaderName::from_bytes(k.as_bytes()),
            reqwest::header::HeaderValue::from_str(v),
        ) {
            h.insert(k, v);
        }
    }
    let http = reqwest::Client::builder()
        .default_headers(h)
        .build()
        .expect("an HTTP client");
    let created = create_game(&http, base, &body(&["human", bot], 7)).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let token = created["seats"][0]["token"]
        .as_str()
        .expect("a token")
        .to_string();
    http.post(format!("{base}/api/games/{id}/start"))
        .json(&json!({"token": token}))
        .send()
        .await
        .expect("start");
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{ws_base}/api/games/{id}/ws"))
        .await
        .expect("connect");
    let hello = json!({"hello": {"token": token, "since": null}}).to_string();
    ws.send(Message::Text(hello.into())).await.expect("hello");
    let mut replies = Vec::new();
    let mut sent: Option<Instant> = None;
    let mut bot_moved = false;
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let deadline = Instant::now() + Duration::from_secs(120);
    while replies.len() < moves && Instant::now() < deadline {
        let Ok(Some(Ok(Message::Text(t)))) =
            tokio::time::timeout(Duration::from_secs(60), ws.next()).await
        else {
            break;
        };
        let m: Value = serde_json::from_str(&t).unwrap_or_default();
        let Some(b) = ["welcome", "played", "status"]
            .iter()
            .find_map(|k| m.get(*k))
        else {
            continue;
        };
        if matches!(b["status"].as_str(), Some("finished" | "resigned")) {
            break;
        }
        if m.get("played").is_some() && b["seat"].as_u64() == Some(1) {
            bot_moved = true;
        }
        let (Some(version), Some(legal)) = (b["version"].as_u64(), b["legal"].as_array()) else {
            continue;
        };
        if legal.is_empty() {
            continue;
        }
        // Our turn again after the bot's moves: one reply measured. (Our
        // own follower step right after our placement is not the bot's.)
        if let Some(s) = sent.take() {
            if std::mem::take(&mut bot_moved) {
                replies.push(s.elapsed());
            }
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let action = &legal[(rng % legal.len() as u64) as usize];
        let msg = json!({"action": action, "version": version}).to_string();
        sent = Some(Instant::now());
        if ws.send(Message::Text(msg.into())).await.is_err() {
            break;
        }
    }
    replies
}

async fn bots(args: &Args, workers: Option<usize>, label: &str) {
    let mut settings = Settings {
        // The attacker is let through, to measure what its bots cost.
        caps: Caps::unlimited(),
        limits: Limits::unlimited(),
        ..Settings::default()
    };
    if let Some(w) = workers {
        settings.bot_workers = w;
    }
    let pool = settings.bot_workers;
    let (running, _dir) = start(settings).await;
    let base = format!("http://{}", running.addr);
    let ws_base = format!("ws://{}", running.addr);
    let http = reqwest::Client::new();
    for i in 0..args.bot_games {
        let r = http
            .post(format!("{base}/api/games"))
            .json(&body(&[&args.bot, &args.bot], 100 + i as u64))
            .send()
            .await
            .expect("create");
        assert_eq!(r.status().as_u16(), 201, "an expensive bot game");
    }
    // Let the searches start.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut replies = bot_replies(&base, &ws_base, "greedy", &[], args.moves).await;
    replies.sort();
    println!(
        "{label}: {} × {} running, searches on {pool} worker(s): greedy reply p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} replies",
        args.bot_games,
        args.bot,
        percentile(&replies, 0.5).as_secs_f64() * 1e3,
        percentile(&replies, 0.99).as_secs_f64() * 1e3,
        replies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        replies.len()
    );
    running.shutdown().await;
    // The searches under way go on in the blocking pool until their
    // budget ends: let them, so that the next measure starts idle.
    if let Some(ms) = args
        .bot
        .strip_prefix("mcts:")
        .and_then(|b| b.strip_suffix("ms"))
    {
        tokio::time::sleep(Duration::from_millis(ms.parse::<u64>().unwrap_or(0) + 1000)).await;
    }
}

async fn idle_sockets(args: &Args) {
    if !std::path::Path::new(&args.server_bin).exists() {
        println!(
            "idle sockets: skipped ({} missing: cargo build --release -p bastide-server)",
            args.server_bin
        );
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = tokio::process::Command::new(&args.server_bin)
        .args(["--addr", "127.0.0.1:0", "--database"])
        .arg(dir.path().join("idle.db"))
        .args([
            "--max-connections-per-address",
            "100000",
            "--connect-rate",
            "1000000/1000000",
            "--request-rate",
            "1000000/1000000",
        ])
        .envs(args.server_env.iter().filter_map(|e| e.split_once('=')))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the server process");
    let pid = child.id().expect("a pid").to_string();
    let mut out = tokio::io::BufReader::new(child.stdout.take().expect("its output"));
    let mut line = String::new();
    tokio::io::AsyncBufReadExt::read_line(&mut out, &mut line)
        .await
        .expect("its first line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .expect("an address")
        .to_string();
    let created = create_game(
        &reqwest::Client::new(),
        &format!("http://{addr}"),
        &body(&["human", "greedy"], 1),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let start = rss_kib(&pid);
    for burst in 1..=args.bursts.max(1) {
        let before = rss_kib(&pid);
        let mut sockets = Vec::with_capacity(args.sockets);
        let mut config = WebSocketConfig::default();
        config.read_buffer_size = 4096;
        config.write_buffer_size = 0;
        for _ in 0..args.sockets {
            let Ok((mut ws, _)) = tokio_tungstenite::connect_async_with_config(
                format!("ws://{addr}/api/games/{id}/ws"),
                Some(config),
                false,
            )
            .await
            else {
                break;
            };
            let hello = json!({"hello": {"token": null, "since": null}}).to_string();
            let _ = ws.send(Message::Text(hello.into())).await;
            let _ = ws.next().await;
            sockets.push(ws);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let held = rss_kib(&pid);
        let n = sockets.len().max(1) as u64;
        // Closed as a browser leaves: a close frame, then the TCP close.
        for mut ws in sockets {
            let _ = ws.close(None).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let after = rss_kib(&pid);
        println!(
            "idle sockets, burst {burst}: {n} spectators: server RSS {before} → {held} KiB ({:.1} KiB each); {after} KiB after all closed ({:+} KiB since the server started)",
            held.saturating_sub(before) as f64 / n as f64,
            after as i64 - start as i64
        );
    }
    let _ = child.kill().await;
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    if args.only_sockets {
        return idle_sockets(&args).await;
    }
    if args.only_caps {
        crowd_fills_the_cap(&args).await;
        return correspondence_games(&args).await;
    }
    if args.only_crowd {
        catch_up(&args).await;
        slow_bodies(&args).await;
        searches_beside_strangers(&args).await;
        return sign_in_crowd(&args).await;
    }
    creates(args.create_seconds).await;
    let before = std::thread::available_parallelism().map_or(2, |n| n.get()) * 8;
    bots(&args, Some(before), "before (every bot thinks at once)").await;
    bots(&args, None, "now (searches queue for a pool)").await;
    idle_sockets(&args).await;
    catch_up(&args).await;
    slow_bodies(&args).await;
    searches_beside_strangers(&args).await;
    sign_in_crowd(&args).await;
    crowd_fills_the_cap(&args).await;
    correspondence_games(&args).await;
}
