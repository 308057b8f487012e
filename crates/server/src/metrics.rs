//! What an operator watches, in Prometheus' text format (`GET /metrics`,
//! behind the operator token): games by status, connections, the bot
//! queue and its wait, move latency, refusals. Counters are atomics
//! updated where things happen; the page is written when asked for.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds: from a fast commit
/// (a millisecond) to a bot search queued behind many (a minute).
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 15.0, 60.0,
];

/// A latency histogram with fixed buckets.
#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    /// The sum in microseconds (whole, so that it can be atomic).
    sum_us: AtomicU64,
}

impl Histogram {
    /// Counts one observation.
    pub fn observe(&self, d: Duration) {
        let s = d.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|&b| s <= b) {
            self.counts[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (b, c) in BUCKETS.iter().zip(&self.counts) {
            cumulative += c.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{b}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// A counter that work on the blocking pool can take along (a clone
/// counts into the same total).
#[derive(Clone, Default)]
pub struct Counter(Arc<AtomicU64>);

impl Counter {
    /// Adds `n`.
    pub fn inc_by(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// The total.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The server's running counts.
#[derive(Default)]
pub struct Metrics {
    /// Time from a person's action received to its commit.
    pub move_latency: Histogram,
    /// Time a bot's move waited for a worker of its pool (searches and
    /// quick bots have one each).
    pub bot_wait: Histogram,
    /// Bots' moves waiting for a worker now.
    pub bots_waiting: AtomicUsize,
    /// Bots thinking now.
    pub bots_thinking: AtomicUsize,
    /// WebSockets open now.
    pub websockets: AtomicUsize,
    /// Actions replayed from a snapshot or the start to answer a
    /// reconnect's catch-up or a page of the move log: the work those
    /// cost, bounded per answer (docs/performance.md).
    pub replayed: Counter,
}

/// One more on a gauge for as long as it is held (given back however the
/// holder ends, a panic included).
pub struct Gauge<'a>(&'a AtomicUsize);

impl<'a> Gauge<'a> {
    /// Raises `gauge` by one until dropped.
    pub fn up(gauge: &'a AtomicUsize) -> Gauge<'a> {
        gauge.fetch_add(1, Ordering::Relaxed);
        Gauge(gauge)
    }
}

impl Drop for Gauge<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One line of a gauge or counter with its help and type.
pub fn scalar(out: &mut String, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
    );
}

impl Metrics {
    /// Appends the histograms and gauges kept here.
    pub fn write(&self, out: &mut String) {
        self.move_latency.write(
            out,
            "bastide_move_seconds",
            "Time from a person's action received to its commit.",
        );
        self.bot_wait.write(
            out,
            "bastide_bot_wait_seconds",
            "Time a bot's move waited for a worker of its pool.",
        );
        scalar(
            out,
            "bastide_bots_waiting",
            "gauge",
            "Bots' moves waiting for a worker.",
            self.bots_waiting.load(Ordering::Relaxed),
        );
        scalar(
            out,
            "bastide_bots_thinking",
            "gauge",
            "Bots thinking now.",
            self.bots_thinking.load(Ordering::Relaxed),
        );
        scalar(
            out,
            "bastide_websockets",
            "gauge",
            "WebSockets open.",
            self.websockets.load(Ordering::Relaxed),
        );
        scalar(
            out,
            "bastide_replayed_actions_total",
            "counter",
            "Actions replayed to answer catch-ups and move log pages.",
            self.replayed.get(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let h = Histogram::default();
        h.observe(Duration::from_micros(500));
        h.observe(Duration::from_millis(20));
        h.observe(Duration::from_secs(100));
        let mut out = String::new();
        h.write(&mut out, "x", "help");
        assert!(out.contains("x_bucket{le=\"0.001\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"0.025\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"60\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count 3\n"), "{out}");
        assert!(out.contains("x_sum 100.0205\n"), "{out}");
    }
}
