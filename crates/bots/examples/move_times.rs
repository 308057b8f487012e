//! Times a bot's moves over whole games against another bot, one core:
//! `cargo run --release -p bastide-bots --example move_times -- strong greedy base 4`
//! (bot timed, opponent, sets comma-separated, games). Prints the mean,
//! the 95th percentile and the largest time of the timed bot's decisions
//! (forced moves, with one legal action, are not asked and not counted).

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
                let a = bots[0].choose(&View::new(&game));
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                a
            } else {
                bots[1].choose(&View::new(&game))
            };
            game.apply_legal(&a);
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len().max(1);
    let mean = times.iter().sum::<f64>() / n as f64;
    let p95 = times.get(n * 95 / 100).copied().unwrap_or(0.0);
    let max = times.last().copied().unwrap_or(0.0);
    println!(
        "{timed} vs {other} on {sets_text}, {games} games: {} decisions, mean {mean:.1} ms, p95 {p95:.1} ms, max {max:.1} ms",
        times.len()
    );
}
