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
//!
//! ```sh
//! cargo build --release -p bastide-server
//! cargo run --release -p bastide-server --example abuse
//! ```

mod support;

use std::time::{Duration, Instant};

use bastide_server::guard::Limits;
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

/// Plays a person (random legal actions) against a greedy bot; the time
/// from each action sent to the moment it is this seat's turn again.
async fn greedy_replies(base: &str, ws_base: &str, moves: usize) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let created = create_game(&http, base, &body(&["human", "greedy"], 7)).await;
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
    let mut replies = greedy_replies(&base, &ws_base, args.moves).await;
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
    creates(args.create_seconds).await;
    let before = std::thread::available_parallelism().map_or(2, |n| n.get()) * 8;
    bots(&args, Some(before), "before (every bot thinks at once)").await;
    bots(&args, None, "now (searches queue for a pool)").await;
    idle_sockets(&args).await;
}
