//! Load test of the game server, on loopback only, bounded in count and
//! time: idle games held open, bot-vs-bot games played as fast as the
//! server commits, and games between scripted remote players whose every
//! action is timed from sending to the moment every client of the game has
//! it.
//!
//! ```sh
//! cargo run --release -p bastide-server --example load -- --seconds 20
//! cargo run --release -p bastide-server --example load -- \
//!     --database postgres://postgres@127.0.0.1:5432/test --seconds 20
//! ```
//!
//! With PostgreSQL the tables go into a fresh schema, dropped at the end.
//!
//! Shared mode (docs/scaling.md): `--nats nats://127.0.0.1:4222
//! --instances 3` starts three instances in this process on one
//! PostgreSQL schema; each remote game's two players connect to two
//! different instances (so every action crosses NATS once to reach one of
//! them), and games are created round-robin.
//!
//! ```sh
//! cargo run --release -p bastide-server --example load -- \
//!     --database postgres://postgres@127.0.0.1:5432/test \
//!     --nats nats://127.0.0.1:4222 --instances 3 --seconds 20
//! ```

mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Connection;
use support::{percentile, rss_kib};
use tokio_tungstenite::tungstenite::Message;

/// Load test settings.
#[derive(Parser)]
struct Args {
    /// Database URL (default: a SQLite file in a temporary folder).
    #[arg(long)]
    database: Option<String>,
    /// Games held open and idle (people who have not started yet).
    #[arg(long, default_value_t = 1000)]
    idle_games: usize,
    /// Bot-vs-bot games kept running (random bots), replaced as they end.
    #[arg(long, default_value_t = 20)]
    bot_games: usize,
    /// Games between two scripted remote players.
    #[arg(long, default_value_t = 20)]
    remote_games: usize,
    /// How long the load runs.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Shared mode: the NATS server the instances tell each other through
    /// (needs a PostgreSQL database).
    #[arg(long)]
    nats: Option<String>,
    /// Shared mode: how many instances to start (with --nats).
    #[arg(long, default_value_t = 1)]
    instances: usize,
}

/// When each (game, version) was sent and when each client received it.
#[derive(Default)]
struct Timings {
    sent: HashMap<(usize, u64), Instant>,
    received: HashMap<(usize, u64), Vec<Instant>>,
}

async fn create(http: &reqwest::Client, base: &str, seats: &[&str], seed: u64) -> Value {
    let config = json!({"players": ["RED", "BLUE"], "seed": seed});
    let r = http
        .post(format!("{base}/api/games"))
        .json(&json!({"config": config, "seats": seats}))
        .send()
        .await
        .expect("create");
    r.json().await.expect("created")
}

/// One scripted remote player: acts (randomly) whenever offered legal
/// actions, until the deadline or the end of the game.
async fn remote_player(
    ws_base: String,
    game: usize,
    id: String,
    token: String,
    timings: Arc<Mutex<Timings>>,
    deadline: Instant,
    ready: tokio::sync::mpsc::Sender<()>,
) {
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("{ws_base}/api/games/{id}/ws"),
        None,
        true,
    )
    .await
    .expect("connect");
    let hello = json!({"hello": {"token": token, "since": null}}).to_string();
    ws.send(Message::Text(hello.into())).await.expect("hello");
    let _ = ready.send(()).await;
    let mut rng = game as u64 * 7919 + 1;
    while Instant::now() < deadline {
        let Ok(Some(Ok(Message::Text(t)))) =
            tokio::time::timeout(deadline - Instant::now(), ws.next()).await
        else {
            break;
        };
        let now = Instant::now();
        let m: Value = serde_json::from_str(&t).unwrap_or_default();
        let body = ["welcome", "played", "status"]
            .iter()
            .find_map(|k| m.get(*k))
            .cloned()
            .unwrap_or_default();
        let Some(version) = body["version"].as_u64() else {
            continue;
        };
        if m.get("played").is_some() {
            timings
                .lock()
                .expect("timings")
                .received
                .entry((game, version))
                .or_default()
                .push(now);
        }
        if matches!(body["status"].as_str(), Some("finished" | "resigned")) {
            break;
        }
        if let Some(legal) = body["legal"].as_array().filter(|l| !l.is_empty()) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = &legal[(rng % legal.len() as u64) as usize];
            let msg = json!({"action": action, "version": version}).to_string();
            timings
                .lock()
                .expect("timings")
                .sent
                .insert((game, version + 1), Instant::now());
            if ws.send(Message::Text(msg.into())).await.is_err() {
                break;
            }
        }
    }
    let _ = ws.close(None).await;
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    // The servers' own log, on standard error (RUST_LOG=debug for more).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut schema = None;
    let url = match &args.database {
        Some(u) if u.starts_with("postgres") => {
            let name = format!("bastide_load_{}", std::process::id());
            let mut conn = sqlx::PgConnection::connect(u).await.expect("PostgreSQL");
            sqlx::query(&format!("CREATE SCHEMA {name}"))
                .execute(&mut conn)
                .await
                .expect("a schema");
            let sep = if u.contains('?') { '&' } else { '?' };
            let url = format!("{u}{sep}options=-c%20search_path%3D{name}");
            schema = Some((u.clone(), name));
            url
        }
        Some(u) => u.clone(),
        None => dir.path().join("load.db").display().to_string(),
    };
    let mut servers = Vec::new();
    let mut backend = "";
    let count = if args.nats.is_some() {
        args.instances.max(1)
    } else {
        1
    };
    for _ in 0..count {
        let (store, cluster) = match &args.nats {
            None => (
                bastide_server::store::open(&url).await.expect("the store"),
                None,
            ),
            Some(nats) => {
                assert!(
                    bastide_server::store::is_postgres_url(&url),
                    "--nats needs --database postgres://…"
                );
                let pg = bastide_server::store::postgres::PgStore::open(&url)
                    .await
                    .expect("PostgreSQL");
                let config = bastide_server::cluster::ClusterConfig {
                    nats_url: nats.clone(),
                    prefix: format!("bastide_load_{}", std::process::id()),
                    lease: Duration::from_secs(5),
                    sync: Duration::from_secs(1),
                };
                let cluster = bastide_server::cluster::Cluster::connect(&config, pg.pool().clone())
                    .await
                    .expect("NATS");
                (
                    Arc::new(pg) as Arc<dyn bastide_server::Store>,
                    Some(cluster),
                )
            }
        };
        backend = store.backend();
        let running = bastide_server::start_shared(
            "127.0.0.1:0".parse().expect("an address"),
            store,
            bastide_server::Settings {
                public_url: String::new(),
                // Every client of the benchmark comes from loopback.
                ..bastide_server::Settings::unlimited()
            },
            cluster,
        )
        .await
        .expect("the server");
        servers.push(running);
    }
    let bases: Vec<String> = servers
        .iter()
        .map(|r| format!("http://{}", r.addr))
        .collect();
    let ws_bases: Vec<String> = servers.iter().map(|r| format!("ws://{}", r.addr)).collect();
    let base = &bases[0];
    let n = servers.len();
    let committed_now = || {
        servers
            .iter()
            .map(|r| r.hub.committed_actions())
            .sum::<u64>()
    };
    let http = reqwest::Client::new();

    // Idle games: memory per live game.
    let rss_before = rss_kib("self");
    for i in 0..args.idle_games {
        create(&http, &bases[i % n], &["human", "human"], i as u64).await;
    }
    let rss_after = rss_kib("self");
    let per_game_kib =
        (rss_after.saturating_sub(rss_before)) as f64 / args.idle_games.max(1) as f64;

    // Remote games: two scripted players each.
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let timings = Arc::new(Mutex::new(Timings::default()));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel(4 * args.remote_games + 1);
    let mut players = Vec::new();
    let mut remote = Vec::new();
    for g in 0..args.remote_games {
        let created = create(&http, &bases[g % n], &["human", "human"], 10_000 + g as u64).await;
        let id = created["id"].as_str().expect("an id").to_string();
        for seat in 0..2 {
            let token = created["seats"][seat]["token"]
                .as_str()
                .expect("a token")
                .to_string();
            players.push(tokio::spawn(remote_player(
                // The two players of a game on two instances.
                ws_bases[(g + seat) % n].clone(),
                g,
                id.clone(),
                token,
                timings.clone(),
                deadline,
                ready_tx.clone(),
            )));
        }
        remote.push((id, created["seats"][0]["token"].clone()));
    }
    for _ in 0..2 * args.remote_games {
        ready_rx.recv().await;
    }
    let committed_before = committed_now();
    let started = Instant::now();
    for (id, token) in &remote {
        let _ = http
            .post(format!("{base}/api/games/{id}/start"))
            .json(&json!({"token": token}))
            .send()
            .await;
    }

    // Bot games, replaced as they finish.
    let mut bot_games: Vec<String> = Vec::new();
    let mut seed = 1_000_000u64;
    let mut bot_games_done = 0;
    while Instant::now() < deadline {
        let mut live = Vec::new();
        for id in bot_games.drain(..) {
            let s = support::summary(&http, base, &id).await;
            if s["status"] == json!("playing") {
                live.push(id);
            } else {
                bot_games_done += 1;
            }
        }
        bot_games = live;
        while bot_games.len() < args.bot_games {
            seed += 1;
            let c = create(
                &http,
                &bases[seed as usize % n],
                &["random", "random"],
                seed,
            )
            .await;
            bot_games.push(c["id"].as_str().expect("an id").to_string());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let elapsed = started.elapsed();
    let committed = committed_now() - committed_before;
    let live_games: usize = servers.iter().map(|r| r.hub.live_games()).sum();
    for p in players {
        let _ = p.await;
    }

    let mut latencies: Vec<Duration> = {
        let t = timings.lock().expect("timings");
        t.sent
            .iter()
            .filter_map(|(k, sent)| {
                let r = t.received.get(k)?;
                // Both seats' clients have it.
                (r.len() == 2).then(|| r.iter().max().map(|last| *last - *sent))?
            })
            .collect()
    };
    latencies.sort();
    let remote_actions = latencies.len();
    println!("database: {backend}");
    match &args.nats {
        Some(nats) => println!("shared mode: {n} instances, NATS at {nats}"),
        None => println!("one server, alone on its database"),
    }
    println!("games live in memory at the end: {live_games}");
    println!(
        "idle games: {}; resident memory {} MiB -> {} MiB: {per_game_kib:.1} KiB per live game",
        args.idle_games,
        rss_before / 1024,
        rss_after / 1024
    );
    println!(
        "load: {} bot games kept running ({bot_games_done} finished), {} remote games of two players, {:.1} s",
        args.bot_games,
        args.remote_games,
        elapsed.as_secs_f64()
    );
    println!(
        "committed actions: {committed} = {:.0} actions/s",
        committed as f64 / elapsed.as_secs_f64()
    );
    println!(
        "remote actions timed (sent -> both players notified): {remote_actions}; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    for running in servers {
        running.shutdown().await;
    }
    if let Some((u, name)) = schema {
        if let Ok(mut conn) = sqlx::PgConnection::connect(&u).await {
            let _ = sqlx::query(&format!("DROP SCHEMA {name} CASCADE"))
                .execute(&mut conn)
                .await;
        }
    }
}
