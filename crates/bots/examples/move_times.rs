//! Times a bot's moves over whole games against another bot, one core:
//! `cargo run --release -p bastide-bots --example move_times -- strong greedy base 4`
//! (bot timed, opponent, sets comma-separated, games). Prints the mean,
//! the 95th percentile and the largest time of the timed bot's decisions
//! (forced moves, with one legal action, are not asked and not counted),
//! and on Linux the same for the CPU time the deciding thread used.

use std::time::Instant;

use bastide_bots::{make_bot, View};
use bastide_engine::{Game, GameConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (timed, other) = (arg(0, "strong"), arg(1, "greedy"));
    let sets_text = arg(2, "base");
    let sets: Vec<&str> = sets_text.split(',').collect();
    let games: u64 = arg(3, "4").parse().unwrap_or(4);
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    for seed in 0..games {
        let config = GameConfig::from_sets(2, seed, &sets).expect("a valid set list");
        let mut game = Game::new(config).expect("config");
        let mut bots = [
            make_bot(&timed, seed).expect("spec"),
            make_bot(&other, seed + 100).expect("spec"),
        ];
        let me = (seed % 2) as usize;
        while !game.is_finished() {
            let seat = game.current_player().index();
            let legal = game.legal_actions();
            let a = if legal.len() == 1 {
                legal[0]
            } else if seat == me {
                let start = Instant::now();
                let cpu_start = thread_cpu_ns();
                let a = bots[0].choose(&View::new(&game));
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                if let (Some(b), Some(e)) = (cpu_start, thread_cpu_ns()) {
                    cpu.push(e.saturating_sub(b) as f64 / 1e6);
                }
                a
            } else {
                bots[1].choose(&View::new(&game))
            };
            game.apply_legal(&a);
        }
    }
    let (mean, p95, max) = summary(&mut times);
    println!(
        "{timed} vs {other} on {sets_text}, {games} games: {} decisions, mean {mean:.1} ms, p95 {p95:.1} ms, max {max:.1} ms",
        times.len()
    );
    if cpu.len() == times.len() {
        let (mean, p95, max) = summary(&mut cpu);
        println!("  CPU time of the deciding thread: mean {mean:.1} ms, p95 {p95:.1} ms, max {max:.1} ms");
    }
}

/// Mean, 95th percentile and largest of `v` (sorted in place).
fn summary(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let n = v.len().max(1);
    let mean = v.iter().sum::<f64>() / n as f64;
    let p95 = v.get(n * 95 / 100).copied().unwrap_or(0.0);
    (mean, p95, v.last().copied().unwrap_or(0.0))
}

/// CPU time of this thread in nanoseconds, from Linux's
/// `/proc/thread-self/schedstat` (its first field); `None` elsewhere. On a
/// shared machine the wall clock measures the load as much as the bot.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
