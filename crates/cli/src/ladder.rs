//! `bastide ladder`: the bots the server seats play each other, seats
//! rotated, and fixed ratings are fitted from the results (Bradley–Terry
//! on Glicko's scale, `bastide_server::rating::fit`); `--out` writes the
//! file the server rates bots by (crates/server/data/bot-ladder.json).

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use bastide_bots::{BotSpec, Budget};
use bastide_engine::Game;
use bastide_server::rating::{fit, Ladder, LadderEntry, LadderPair, Level, PairResult};
use clap::Args;
use rayon::prelude::*;

use crate::tournament::{
    job, play_job, progress_bar, win_cell, win_share, DealArgs, Tally, MAX_BOTS,
};

/// The bots the server offers, weakest first: the lobby's four
/// (web/src/sets.ts), a small budget below them, and the largest budget
/// a public game may have (`--public-mcts-iterations`).
pub const DEFAULT_BOTS: &str = "random,greedy,mcts:20,mcts:200,mcts:2000,mcts:20000";

/// Most games a pairing plays.
pub const MAX_GAMES: u64 = 100_000;

/// Most MCTS iterations a pairing may spend: about a day of one core.
pub const MAX_PAIR_ITERATIONS: u64 = 3_000_000_000;

/// Arguments of `bastide ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    /// Bot specs, comma-separated (2 to 12): `random`, `greedy`, `mcts:N`
    /// with the default settings (a time budget's strength depends on the
    /// machine, so only iteration budgets are laddered).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_BOTS)]
    pub bots: Vec<String>,
    /// Games per pairing, 2 to 100000 (an even number: each deal is
    /// played twice, seats swapped), fewer where `--max-iterations` says.
    #[arg(long, default_value_t = 200, allow_negative_numbers = true,
          value_parser = parse_games)]
    pub games: u64,
    /// MCTS iterations a pairing may spend, 1 to 3000000000: a pairing of
    /// searching bots plays as many games as fit (two at least).
    #[arg(long, default_value_t = 10_000_000, allow_negative_numbers = true,
          value_parser = parse_iterations)]
    pub max_iterations: u64,
    /// Each bot plays the bots up to this many places above it in
    /// strength order (1 to 11): 2 pairs every bot with two others, so
    /// one odd result cannot carry the whole chain.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true,
          value_parser = parse_reach)]
    pub reach: usize,
    /// The bot whose rating is fixed.
    #[arg(long, default_value = "greedy")]
    pub anchor: String,
    /// The anchor's rating, 0 to 3000 (see docs/bots.md, "The ladder").
    #[arg(long, default_value_t = 1500.0, allow_negative_numbers = true,
          value_parser = parse_rating)]
    pub anchor_rating: f64,
    /// Write the ladder (JSON, as the server embeds it) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The sets, the seed, the threads.
    #[command(flatten)]
    pub deal: DealArgs,
}

fn parse_games(text: &str) -> Result<u64, String> {
    let n = crate::count_in(text, 2, MAX_GAMES)?;
    if n % 2 == 1 {
        return Err(format!(
            "give an even number ({} or {}): each deal is played twice, seats swapped",
            n - 1,
            n + 1
        ));
    }
    Ok(n)
}

fn parse_iterations(text: &str) -> Result<u64, String> {
    crate::count_in(text, 1, MAX_PAIR_ITERATIONS)
}

fn parse_reach(text: &str) -> Result<usize, String> {
    crate::count_in(text, 1, MAX_BOTS as u64 - 1)
        .and_then(|n| usize::try_from(n).map_err(|e| e.to_string()))
}

fn parse_rating(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=3000.0).contains(&r) => Ok(r),
        _ => Err("give a rating from 0 to 3000".into()),
    }
}

/// One bot of the ladder.
struct Entry {
    spec: BotSpec,
    label: String,
    level: Level,
}

/// The bots of `--bots`, weakest first by budget, each laddered.
fn entries(bots: &[String]) -> Result<Vec<Entry>> {
    if !(2..=MAX_BOTS).contains(&bots.len()) {
        bail!(
            "--bots names {} bots: a ladder has 2 to {MAX_BOTS}",
            bots.len()
        );
    }
    let mut out = Vec::with_capacity(bots.len());
    for b in bots {
        let spec = BotSpec::parse(b)?;
        let level = Level::of_text(b).map_err(|e| anyhow::anyhow!("--bots {b}: {e}"))?;
        out.push(Entry {
            label: spec.to_string(),
            spec,
            level,
        });
    }
    out.sort_by_key(|e| e.level);
    if let Some(w) = out.windows(2).find(|w| w[0].level == w[1].level) {
        bail!(
            "--bots names {} and {} , the same bot: name each once",
            w[0].label,
            w[1].label
        );
    }
    Ok(out)
}

/// MCTS iterations a move of `spec` costs.
fn iterations(spec: &BotSpec) -> u64 {
    match spec {
        BotSpec::Mcts(c) => match c.budget {
            Budget::Iterations(n) => u64::from(n),
            // Refused by `entries`; counted as free if it ever comes.
            Budget::Time(_) => 0,
        },
        // About what `mcts:2000` costs a move (docs/bots.md, "Speed").
        BotSpec::Strong(_) => 2000,
        BotSpec::Random | BotSpec::Greedy => 0,
    }
}

/// The games a pairing plays: `games`, or as many as `max_iterations`
/// pay for at `moves` moves a seat, at least one deal (two games), an
/// even number so every deal is played with the seats both ways.
fn pair_games(games: u64, max_iterations: u64, per_move: u64, moves: u64) -> u64 {
    let per_game = per_move.saturating_mul(moves);
    if per_game == 0 {
        return games;
    }
    let fit = (max_iterations / per_game).min(games);
    (fit - fit % 2).max(2)
}

/// Runs the ladder, prints the pairings and the ratings, and writes the
/// file.
pub fn run(args: LadderArgs) -> Result<()> {
    let entries = entries(&args.bots)?;
    let anchor_spec = BotSpec::parse(&args.anchor)?.to_string();
    let Some(anchor) = entries.iter().position(|e| e.label == anchor_spec) else {
        bail!("--anchor {anchor_spec} is not one of --bots: anchor one of the bots laddered");
    };
    let config = crate::config_for(2, args.deal.seed, &args.deal.sets)?;
    // Each seat's moves in a game: the tiles to draw, one each in turn.
    let moves = Game::new(config.clone())?.tiles_left() as u64 / 2;
    let specs: Vec<BotSpec> = entries.iter().map(|e| e.spec.clone()).collect();
    let mut pairs: Vec<(usize, usize, u64)> = Vec::new();
    for a in 0..entries.len() {
        for b in a + 1..entries.len().min(a + 1 + args.reach) {
            let cost = iterations(&specs[a]) + iterations(&specs[b]);
            pairs.push((
                a,
                b,
                pair_games(args.games, args.max_iterations, cost, moves),
            ));
        }
    }
    let total: u64 = pairs.iter().map(|p| p.2).sum();
    // Game k of the run: its pairing and its number in the pairing.
    let mut games: Vec<(usize, u64)> = Vec::new();
    for (t, p) in pairs.iter().enumerate() {
        games.extend((0..p.2).map(|i| (t, i)));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.deal.threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let threads = pool.current_num_threads();
    let labels: Vec<String> = entries.iter().map(|e| e.label.clone()).collect();
    // Not `eprintln!`: it panics if standard error is closed.
    let _ = writeln!(
        std::io::stderr(),
        "{} in {} pairings on {}: {} ({})",
        crate::plural(total, "game"),
        pairs.len(),
        crate::plural(threads as u64, "thread"),
        labels.join(", "),
        args.deal.sets.join("+")
    );
    let bar = progress_bar(total);
    let start = Instant::now();
    // Per pairing, each side's tally.
    let tally = Mutex::new(vec![[Tally::default(); 2]; pairs.len()]);
    pool.install(|| {
        // Expensive pairings first, so the cheap ones fill the last gaps.
        games.par_iter().rev().for_each(|&(t, i)| {
            let (a, b, _) = pairs[t];
            let j = job(t, &[a, b], i, args.deal.seed);
            let o = play_job(&j, &specs, &config, false);
            let mut tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
            for (seat, e) in o.job.seats.iter().enumerate() {
                let side = usize::from(*e == b);
                tally[t][side].add(win_share(&o.scores, seat), f64::from(o.scores[seat]));
            }
            bar.inc(1);
        })
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let tally = tally.into_inner().unwrap_or_else(PoisonError::into_inner);
    let results: Vec<PairResult> = pairs
        .iter()
        .zip(&tally)
        .map(|(&(a, b, _), t)| PairResult {
            a,
            b,
            games: t[0].games,
            a_wins: t[0].wins,
        })
        .collect();
    let fitted = fit(entries.len(), &results, anchor, args.anchor_rating)?;
    let ladder = Ladder {
        command: command(&args, &anchor_spec),
        seed: args.deal.seed,
        sets: args.deal.sets.clone(),
        fit: format!(
            "Bradley-Terry maximum likelihood on Glicko's logistic scale (173.7178), {} virtual draw per pairing; deviation: standard error relative to the anchor",
            bastide_server::rating::VIRTUAL_DRAWS
        ),
        anchor: anchor_spec,
        anchor_rating: args.anchor_rating,
        seconds: (seconds * 10.0).round() / 10.0,
        threads,
        entries: entries
            .iter()
            .zip(&fitted)
            .enumerate()
            .map(|(i, (e, f))| LadderEntry {
                spec: e.label.clone(),
                rating: (f.rating * 10.0).round() / 10.0,
                deviation: (f.deviation * 10.0).round() / 10.0,
                games: tally
                    .iter()
                    .zip(&pairs)
                    .filter(|(_, p)| p.0 == i || p.1 == i)
                    .map(|(t, _)| t[0].games)
                    .sum(),
            })
            .collect(),
        pairs: pairs
            .iter()
            .zip(&tally)
            .map(|(&(a, b, _), t)| LadderPair {
                a: labels[a].clone(),
                b: labels[b].clone(),
                games: t[0].games,
                a_wins: t[0].wins,
                a_score: mean(&t[0]),
                b_score: mean(&t[1]),
            })
            .collect(),
    };
    // Weakest first by rating, as the server reads them: a small search
    // may well rate below `greedy` (the ladder finds mcts:20 does).
    let mut ladder = ladder;
    ladder.entries.sort_by(|x, y| x.rating.total_cmp(&y.rating));
    let mut out = crate::stdout();
    print_ladder(&mut out, &ladder, &tally)?;
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&ladder)? + "\n";
        std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "ladder written to {}", path.display())?;
        // What the server checks when it embeds the file: say now, not
        // when its tests run.
        if let Err(e) = Ladder::parse(&text) {
            bail!("{e}: the server would not take this ladder (written to {} for a look); play more games or drop a bot", path.display());
        }
    }
    out.flush()?;
    Ok(())
}

/// The mean score of a tally, to a tenth.
fn mean(t: &Tally) -> f64 {
    if t.games == 0 {
        return 0.0;
    }
    (t.scores / t.games as f64 * 10.0).round() / 10.0
}

/// The command line that reproduces a run, every setting spelled out.
fn command(args: &LadderArgs, anchor: &str) -> String {
    let bots: Vec<String> = args
        .bots
        .iter()
        .map(|b| BotSpec::parse(b).map_or_else(|_| b.clone(), |s| s.to_string()))
        .collect();
    format!(
        "bastide ladder --bots {} --games {} --max-iterations {} --reach {} --anchor {anchor} --anchor-rating {} --sets {} --seed {}",
        bots.join(","),
        args.games,
        args.max_iterations,
        args.reach,
        args.anchor_rating,
        args.deal.sets.join(","),
        args.deal.seed
    )
}

fn print_ladder(out: &mut impl Write, ladder: &Ladder, tally: &[[Tally; 2]]) -> Result<()> {
    let total: u64 = ladder.pairs.iter().map(|p| p.games).sum();
    writeln!(
        out,
        "{} in {:.1} s ({}; seeds from {})",
        crate::plural(total, "game"),
        ladder.seconds,
        ladder.sets.join("+"),
        ladder.seed
    )?;
    writeln!(out)?;
    let w = ladder
        .entries
        .iter()
        .map(|e| e.spec.len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "  {:>w2$}  {:>6}  {:>22}  {:>13}",
        "pairing",
        "games",
        "first's win rate",
        "mean scores",
        w2 = 2 * w + 4
    )?;
    for (p, t) in ladder.pairs.iter().zip(tally) {
        writeln!(
            out,
            "  {:>w2$}  {:>6}  {:>22}  {:>5.1} – {:<5.1}",
            format!("{} vs {}", p.a, p.b),
            p.games,
            win_cell(&t[0]),
            p.a_score,
            p.b_score,
            w2 = 2 * w + 4
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "ratings ({} fixed at {})",
        ladder.anchor, ladder.anchor_rating
    )?;
    writeln!(
        out,
        "  {:w$}  {:>7}  {:>9}  {:>6}",
        "bot", "rating", "deviation", "games"
    )?;
    for e in &ladder.entries {
        writeln!(
            out,
            "  {:w$}  {:>7.1}  {:>9.1}  {:>6}",
            e.spec, e.rating, e.deviation, e.games
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searching_pairings_play_what_their_iterations_pay_for() {
        // Free bots play every game asked for.
        assert_eq!(pair_games(200, 1_000, 0, 35), 200);
        // 1000 iterations a move, 35 moves: 35000 a game, 10 games in
        // 350000, 11 in 385000 rounded down to an even 10.
        assert_eq!(pair_games(200, 350_000, 1_000, 35), 10);
        assert_eq!(pair_games(200, 385_000, 1_000, 35), 10);
        // One deal at least, however small the budget.
        assert_eq!(pair_games(200, 1, 1_000, 35), 2);
        assert_eq!(pair_games(4, u64::MAX, 1, 35), 4);
    }

    #[test]
    fn bots_are_sorted_by_strength_and_must_be_laddered() {
        let bots = |s: &str| s.split(',').map(String::from).collect::<Vec<_>>();
        let e = entries(&bots("mcts:200,random,greedy,mcts:20")).expect("laddered");
        let labels: Vec<&str> = e.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(labels, ["random", "greedy", "mcts:20", "mcts:200"]);
        let time = entries(&bots("greedy,mcts:500ms"))
            .err()
            .map(|e| e.to_string());
        assert!(
            time.as_deref().is_some_and(|m| m.contains("time budget")),
            "{time:?}"
        );
        let twice = entries(&bots("greedy,mcts:2000,mcts"))
            .err()
            .map(|e| e.to_string());
        assert!(
            twice.as_deref().is_some_and(|m| m.contains("same bot")),
            "{twice:?}"
        );
        assert!(entries(&bots("greedy")).is_err());
    }

    #[test]
    fn games_are_even() {
        assert_eq!(parse_games("200"), Ok(200));
        let e = parse_games("7").expect_err("odd");
        assert!(e.contains("6 or 8"), "{e}");
        assert!(parse_games("0").is_err());
    }
}
