//! What the server's examples share: figures and a game to play.

use std::time::Duration;

use serde_json::Value;

/// Resident memory of process `pid` (`self` for this one) in KiB (Linux;
/// 0 elsewhere).
pub fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// The `p` quantile of sorted durations (zero for none).
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Creates a game from a `POST /api/games` body; the server's answer.
#[allow(dead_code)]
pub async fn create_game(http: &reqwest::Client, base: &str, body: &Value) -> Value {
    http.post(format!("{base}/api/games"))
        .json(body)
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("created")
}

/// A game's summary (`GET /api/games/ID`; `null` if it cannot be read).
#[allow(dead_code)]
pub async fn summary(http: &reqwest::Client, base: &str, id: &str) -> Value {
    match http.get(format!("{base}/api/games/{id}")).send().await {
        Ok(r) => r.json().await.unwrap_or_default(),
        Err(_) => Value::Null,
    }
}
