//! What an operator watches, in the OpenMetrics text format (`GET
//! /metrics`, behind the operator token), written by the
//! `prometheus-client` crate: games by status, connections, the bot
//! queue and its wait, move latency, refusals, replay work. The metrics
//! kept here are updated where things happen; those read from elsewhere
//! (the store's counts, the guard's refusals) are added when the page is
//! asked for.

use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::{ConstCounter, Counter as PromCounter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge as PromGauge;
use prometheus_client::metrics::histogram::Histogram as PromHistogram;
use prometheus_client::registry::{Registry, Unit};

/// Upper bounds of the latency buckets, in seconds: from a fast commit
/// (a millisecond) to a bot search queued behind many (a minute).
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 15.0, 60.0,
];

/// A latency histogram with the server's buckets.
#[derive(Clone, Debug)]
pub struct Histogram(PromHistogram);

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram(PromHistogram::new(BUCKETS))
    }
}

impl Histogram {
    /// Counts one observation.
    pub fn observe(&self, d: Duration) {
        self.0.observe(d.as_secs_f64());
    }
}

/// A counter that work on the blocking pool can take along (a clone
/// counts into the same total).
pub type Counter = PromCounter;

/// The server's running counts.
#[derive(Default)]
pub struct Metrics {
    /// Time from a person's action received to its commit.
    pub move_latency: Histogram,
    /// Time a bot's move waited for a worker of its pool (searches and
    /// quick bots have one each).
    pub bot_wait: Histogram,
    /// Bots' moves waiting for a worker now.
    pub bots_waiting: PromGauge,
    /// Bots thinking now.
    pub bots_thinking: PromGauge,
    /// WebSockets open now.
    pub websockets: PromGauge,
    /// Actions replayed from a snapshot or the start to answer a
    /// reconnect's catch-up or a page of the move log: the work those
    /// cost, bounded per answer (docs/performance.md).
    pub replayed: Counter,
}

/// One more on a gauge for as long as it is held (given back however the
/// holder ends, a panic included).
pub struct Gauge<'a>(&'a PromGauge);

impl<'a> Gauge<'a> {
    /// Raises `gauge` by one until dropped.
    pub fn up(gauge: &'a PromGauge) -> Gauge<'a> {
        gauge.inc();
        Gauge(gauge)
    }
}

impl Drop for Gauge<'_> {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// What the page shows besides the metrics kept in [`Metrics`]: values
/// read when it is asked for.
pub struct Snapshot {
    /// Games in the store by status (`open`, `playing`, …).
    pub games: Vec<(&'static str, u64)>,
    /// Games held in memory.
    pub in_memory: usize,
    /// TCP connections open.
    pub connections: usize,
    /// Actions committed since start.
    pub committed: u64,
    /// Refusals by kind (`rate`, `connection`) since start.
    pub refusals: Vec<(&'static str, u64)>,
}

/// A count as a gauge's value (saturated: no gauge comes near).
fn gauge_value(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Metrics {
    /// The page: the metrics kept here and `now`'s, in the OpenMetrics
    /// text format.
    pub fn encode(&self, now: &Snapshot) -> String {
        let mut r = Registry::default();
        let games = Family::<Vec<(&'static str, &'static str)>, PromGauge>::default();
        for (status, n) in &now.games {
            games
                .get_or_create(&vec![("status", *status)])
                .set(gauge_value(*n));
        }
        r.register("bastide_games", "Games in the store by status", games);
        let in_memory: PromGauge = PromGauge::default();
        in_memory.set(gauge_value(now.in_memory as u64));
        r.register("bastide_games_in_memory", "Games held in memory", in_memory);
        let connections: PromGauge = PromGauge::default();
        connections.set(gauge_value(now.connections as u64));
        r.register(
            "bastide_connections",
            "TCP connections open (WebSockets included)",
            connections,
        );
        r.register(
            "bastide_actions_committed",
            "Actions committed since start",
            ConstCounter::new(now.committed),
        );
        let refusals = Family::<Vec<(&'static str, &'static str)>, Counter>::default();
        for (kind, n) in &now.refusals {
            refusals.get_or_create(&vec![("kind", *kind)]).inc_by(*n);
        }
        r.register(
            "bastide_refusals",
            "Requests, messages and connections refused for a limit",
            refusals,
        );
        r.register_with_unit(
            "bastide_move",
            "Time from a person's action received to its commit",
            Unit::Seconds,
            self.move_latency.0.clone(),
        );
        r.register_with_unit(
            "bastide_bot_wait",
            "Time a bot's move waited for a worker of its pool",
            Unit::Seconds,
            self.bot_wait.0.clone(),
        );
        r.register(
            "bastide_bots_waiting",
            "Bots' moves waiting for a worker",
            self.bots_waiting.clone(),
        );
        r.register(
            "bastide_bots_thinking",
            "Bots thinking now",
            self.bots_thinking.clone(),
        );
        r.register(
            "bastide_websockets",
            "WebSockets open",
            self.websockets.clone(),
        );
        r.register(
            "bastide_replayed_actions",
            "Actions replayed to answer catch-ups and move log pages",
            self.replayed.clone(),
        );
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &r);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_keeps_the_metric_names_and_buckets_are_cumulative() {
        let m = Metrics::default();
        m.move_latency.observe(Duration::from_micros(500));
        m.move_latency.observe(Duration::from_millis(20));
        m.move_latency.observe(Duration::from_secs(100));
        m.replayed.inc_by(7);
        let _held = Gauge::up(&m.websockets);
        let out = m.encode(&Snapshot {
            games: vec![("open", 2), ("playing", 1)],
            in_memory: 3,
            connections: 4,
            committed: 5,
            refusals: vec![("rate", 6), ("connection", 0)],
        });
        for line in [
            "bastide_move_seconds_bucket{le=\"0.001\"} 1\n",
            "bastide_move_seconds_bucket{le=\"0.025\"} 2\n",
            "bastide_move_seconds_bucket{le=\"60.0\"} 2\n",
            "bastide_move_seconds_bucket{le=\"+Inf\"} 3\n",
            "bastide_move_seconds_count 3\n",
            "bastide_move_seconds_sum 100.0205\n",
            "# TYPE bastide_bot_wait_seconds histogram\n",
            "bastide_games{status=\"open\"} 2\n",
            "bastide_games_in_memory 3\n",
            "bastide_connections 4\n",
            "bastide_actions_committed_total 5\n",
            "bastide_refusals_total{kind=\"rate\"} 6\n",
            "bastide_refusals_total{kind=\"connection\"} 0\n",
            "bastide_websockets 1\n",
            "bastide_replayed_actions_total 7\n",
            "# EOF\n",
        ] {
            assert!(out.contains(line), "{line:?} in\n{out}");
        }
    }
}
