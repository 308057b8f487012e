//! A quick two-bot match without the CLI, for tuning:
//! `cargo run --release -p bastide-bots --example duel -- strong mcts:2000 base 40 1`
//! (first bot, second bot, sets comma-separated, games, first seed). Each
//! deal is played twice with the seats swapped, as `bastide tournament`
//! does; prints the first bot's win rate (a tie counts half) with its 95%
//! Wilson interval and both mean scores. `bastide tournament` is the
//! reference for published figures.

use bastide_bots::{make_bot, play_game};
use bastide_engine::{Game, GameConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (a, b) = (arg(0, "strong"), arg(1, "greedy"));
    let sets_text = arg(2, "base");
    let sets: Vec<&str> = sets_text.split(',').collect();
    let games: u64 = arg(3, "20").parse().unwrap_or(20);
    let first: u64 = arg(4, "1").parse().unwrap_or(1);
    let (mut wins, mut sa, mut sb) = (0.0, 0.0, 0.0);
    for g in 0..games {
        let seed = first + g / 2;
        let swap = g % 2 == 1;
        let config = GameConfig::from_sets(2, seed, &sets).expect("a valid set list");
        let specs = if swap { [&b, &a] } else { [&a, &b] };
        let mut bots = vec![
            make_bot(specs[0], seed * 2 + g % 2).expect("spec"),
            make_bot(specs[1], seed * 2 + 1 - g % 2).expect("spec"),
        ];
        let end = play_game(Game::new(config).expect("config"), &mut bots, |_, _| {});
        let s = end.scores();
        let (x, y) = if swap { (s[1], s[0]) } else { (s[0], s[1]) };
        wins += match x.cmp(&y) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        sa += x as f64;
        sb += y as f64;
        eprintln!("game {g}: {a} {x} - {y} {b}");
    }
    let n = games as f64;
    let p = wins / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    println!(
        "{a} vs {b} on {sets_text}, {games} games from seed {first}: {a} wins {:.1}% ({:.1}-{:.1}%), mean scores {:.1} - {:.1}",
        100.0 * p,
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
        sa / n,
        sb / n
    );
}
