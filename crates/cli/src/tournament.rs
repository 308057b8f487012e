//! `bastide tournament`: bots play each other round-robin with seats
//! rotated, in parallel on every core; a table of win rates and mean scores
//! with 95% confidence intervals; optionally every game record.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use bastide_bots::{play_game, BotSpec, Mcts, MctsConfig, View};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig, Phase};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Most bot entries in one tournament: with six players a game that is
/// already 924 tables, and the tally keeps one line per entry and table.
pub const MAX_BOTS: usize = 12;

/// Most games per table: days of MCTS games on a small machine; the
/// results are streamed, so memory does not grow with it.
pub const MAX_GAMES: u64 = 1_000_000;

/// `--games`: 1 to [`MAX_GAMES`].
fn parse_games(text: &str) -> Result<u64, String> {
    crate::count_in(text, 1, MAX_GAMES)
}

/// Arguments of `bastide tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Bot specs, comma-separated (at most 12): `random`, `greedy`, `mcts`,
    /// `mcts:2000`, `mcts:500ms`, …
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<String>,
    /// Games per table, 1 to 1000000 (each pair of bots, or each group of
    /// `--players` bots); seats rotate from game to game, each deal played
    /// once per rotation.
    #[arg(long, default_value_t = 100, allow_negative_numbers = true,
          value_parser = parse_games)]
    pub games: u64,
    /// Players per game (2–6).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true,
          value_parser = crate::parse_players)]
    pub players: usize,
    /// The sets, the seed, the threads.
    #[command(flatten)]
    pub deal: DealArgs,
    /// Write every game record into this directory, as
    /// `t<table>-g<game>-<bots>.json` (tables numbered as in the output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The flags of every bot match (`tournament`, `ladder`): what is
/// played, from which seed, on how many threads.
#[derive(Args, Debug)]
pub struct DealArgs {
    /// Base game and expansions, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "base", long_help = crate::sets_help())]
    pub sets: Vec<String>,
    /// First seed of the deals (and of the bots' own randomness).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = crate::parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: all cores).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::parse_threads)]
    pub threads: Option<usize>,
}

/// One game of the tournament (or of the ladder).
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// Table, counted from 0 (printed from 1).
    pub(crate) table: usize,
    /// Game of the table, counted from 0.
    pub(crate) index: u64,
    /// Bot entry (index into the list) per seat.
    pub(crate) seats: Vec<usize>,
    pub(crate) seed: u64,
}

/// The result of one game.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub(crate) job: Job,
    pub(crate) scores: Vec<u32>,
    record: Option<Record>,
}

/// Every group of `k` entries out of `n` (in order).
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut cur, &mut out);
    out
}

/// Game `index` of table `table`: seats rotated by one each game, each deal
/// played once per rotation.
pub(crate) fn job(table: usize, lineup: &[usize], index: u64, seed: u64) -> Job {
    let n = lineup.len();
    let rot = (index % n as u64) as usize;
    Job {
        table,
        index,
        seats: (0..n).map(|s| lineup[(s + rot) % n]).collect(),
        seed: seed.wrapping_add(index / n as u64),
    }
}

/// Runs the tournament and prints the tables.
pub fn run(args: TournamentArgs) -> Result<()> {
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|s| BotSpec::parse(s))
        .collect::<Result<_, _>>()?;
    if specs.is_empty() {
        bail!("--bots needs at least one bot");
    }
    if specs.len() > MAX_BOTS {
        bail!(
            "--bots names {} bots: at most {MAX_BOTS} play in one tournament",
            specs.len()
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let config = crate::config_for(args.players, args.deal.seed, &args.deal.sets)?;
    let labels = labels(&args.bots);
    // Tables: every group of `players` entries; with fewer entries than
    // seats, one table with the entries repeated in turn.
    let tables: Vec<Vec<usize>> = if specs.len() >= args.players {
        combinations(specs.len(), args.players)
    } else {
        vec![(0..args.players).map(|s| s % specs.len()).collect()]
    };
    let n = args.players;
    let total = (tables.len() as u64)
        .checked_mul(args.games)
        .context("too many games: use fewer bots or fewer --games")?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.deal.threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let bar = progress_bar(total);
    // Not `eprintln!`: it panics if standard error is closed.
    let _ = writeln!(
        std::io::stderr(),
        "{} on {}: {} ({})",
        crate::plural(total, "game"),
        crate::plural(pool.current_num_threads() as u64, "thread"),
        labels.join(", "),
        args.deal.sets.join("+")
    );
    let start = Instant::now();
    let keep = args.out.is_some();
    // Games are made from their number as they are played and folded into
    // the tally at once (records written straight away), so memory stays
    // flat however many games are asked for.
    let tally = Mutex::new(vec![vec![Tally::default(); labels.len()]; tables.len()]);
    let games = args.games;
    pool.install(|| {
        (0..total).into_par_iter().try_for_each(|k| -> Result<()> {
            // `k / games` < tables.len(), a usize.
            let t = (k / games) as usize;
            let j = job(t, &tables[t], k % games, args.deal.seed);
            let o = play_job(&j, &specs, &config, keep);
            if let (Some(dir), Some(rec)) = (&args.out, &o.record) {
                write_record(dir, &o, rec, &labels)?;
            }
            {
                let mut tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
                for (seat, b) in o.job.seats.iter().enumerate() {
                    tally[t][*b].add(win_share(&o.scores, seat), o.scores[seat] as f64);
                }
            }
            bar.inc(1);
            Ok(())
        })
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let tally = tally.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut out = crate::stdout();
    writeln!(
        out,
        "{} in {:.1} s ({}; {} players; seeds from {})",
        crate::plural(total, "game"),
        secs,
        args.deal.sets.join("+"),
        n,
        args.deal.seed
    )?;
    print_tables(&mut out, &labels, &tables, &tally, n)?;
    if let Some(dir) = &args.out {
        writeln!(out, "records written to {}", dir.display())?;
    }
    out.flush()?;
    Ok(())
}

/// A progress bar of `total` games on standard error, hidden when `CI`
/// is set (test logs would fill with redraws).
pub(crate) fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  eta {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if std::env::var_os("CI").is_some() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// File name of a game's record: table numbered from 1 as in the output.
fn record_name(o: &Outcome, labels: &[String]) -> String {
    let names: Vec<&str> = o.job.seats.iter().map(|s| labels[*s].as_str()).collect();
    format!(
        "t{}-g{:04}-{}.json",
        o.job.table + 1,
        o.job.index,
        sanitize(&names.join("-vs-"))
    )
}

fn write_record(dir: &Path, o: &Outcome, rec: &Record, labels: &[String]) -> Result<()> {
    let file = dir.join(record_name(o, labels));
    std::fs::write(&file, rec.to_json() + "\n")
        .with_context(|| format!("cannot write {}", file.display()))
}

pub(crate) fn play_job(job: &Job, specs: &[BotSpec], config: &GameConfig, keep: bool) -> Outcome {
    let mut c = config.clone();
    c.seed = job.seed;
    let game = Game::new(c.clone()).expect("configuration checked before the tournament");
    let mut bots: Vec<_> = job
        .seats
        .iter()
        .enumerate()
        .map(|(seat, b)| {
            specs[*b].build(
                job.seed
                    .wrapping_mul(0x9E37_79B9)
                    .wrapping_add((job.table as u64) << 32)
                    .wrapping_add(seat as u64 * 7919 + job.index),
            )
        })
        .collect();
    let mut rec = keep.then(|| Record::new(c));
    let game = play_game(game, &mut bots, |g, a| {
        if let Some(r) = &mut rec {
            r.actions.push(ActionJson::from_action(a, g.catalog()));
        }
    });
    Outcome {
        job: job.clone(),
        scores: game.scores(),
        record: rec,
    }
}

/// Display names: the specs, numbered when one appears twice.
fn labels(specs: &[String]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if specs.iter().filter(|t| *t == s).count() > 1 {
                format!("{s}#{}", i + 1)
            } else {
                s.clone()
            }
        })
        .collect()
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Running sums of one bot entry's games (at one table, or overall): enough
/// for the means and intervals without keeping every game.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub(crate) struct Tally {
    pub(crate) games: u64,
    /// Wins, a tie shared between the tied players.
    pub(crate) wins: f64,
    pub(crate) scores: f64,
    squares: f64,
}

impl Tally {
    pub(crate) fn add(&mut self, win: f64, score: f64) {
        self.games += 1;
        self.wins += win;
        self.scores += score;
        self.squares += score * score;
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.scores += other.scores;
        self.squares += other.squares;
    }

    /// Win rate and its 95% Wilson score interval: unlike ± 1.96 standard
    /// errors it stays inside 0–100% and does not shrink to nothing after
    /// one game (one win out of one is 21%–100%, not 100% ± 0%).
    fn win_rate(&self) -> (f64, f64, f64) {
        if self.games == 0 {
            return (0.0, 0.0, 1.0);
        }
        let n = self.games as f64;
        let p = self.wins / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        (p, (centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// Mean score and the 95% half-width (normal approximation), none
    /// before two games.
    fn mean_score(&self) -> (f64, Option<f64>) {
        if self.games == 0 {
            return (0.0, None);
        }
        let n = self.games as f64;
        let mean = self.scores / n;
        if self.games < 2 {
            return (mean, None);
        }
        // Rounding can leave a tiny negative variance when all scores agree.
        let var = ((self.squares - n * mean * mean) / (n - 1.0)).max(0.0);
        (mean, Some(Z95 * (var / n).sqrt()))
    }
}

pub(crate) fn win_share(scores: &[u32], seat: usize) -> f64 {
    let best = scores.iter().copied().max().unwrap_or(0);
    if scores[seat] != best {
        return 0.0;
    }
    1.0 / scores.iter().filter(|s| **s == best).count() as f64
}

/// `  50.0% ( 21.4– 78.6%)`: win rate and Wilson interval.
pub(crate) fn win_cell(t: &Tally) -> String {
    let (p, lo, hi) = t.win_rate();
    format!(
        "{:5.1}% ({:5.1}–{:5.1}%)",
        p * 100.0,
        lo * 100.0,
        hi * 100.0
    )
}

/// `   80.2 ±   3.1`, or `   80.2 ±     ?` after a single game.
fn score_cell(t: &Tally) -> String {
    match t.mean_score() {
        (m, Some(ci)) => format!("{m:>8.1} ± {ci:>5.1}"),
        (m, None) => format!("{m:>8.1} ± {:>5}", "?"),
    }
}

fn print_tables(
    out: &mut impl Write,
    labels: &[String],
    tables: &[Vec<usize>],
    tally: &[Vec<Tally>],
    n: usize,
) -> Result<()> {
    let w = labels.iter().map(|l| l.len()).max().unwrap_or(4).max(4);
    // Per table.
    writeln!(out)?;
    for (t, lineup) in tables.iter().enumerate() {
        let names: Vec<&str> = lineup.iter().map(|b| labels[*b].as_str()).collect();
        // Every game seats each entry of the lineup: the first one's count
        // is the table's.
        let games = tally[t][lineup[0]].games;
        writeln!(
            out,
            "table {}: {} ({})",
            t + 1,
            names.join(" vs "),
            crate::plural(games, "game")
        )?;
        writeln!(
            out,
            "  {:w$}  {:>22}  {:>16}",
            "bot", "win rate (95% CI)", "mean score (95%)"
        )?;
        let mut seen = Vec::new();
        for b in lineup {
            if seen.contains(b) {
                continue;
            }
            seen.push(*b);
            let e = &tally[t][*b];
            writeln!(
                out,
                "  {:w$}  {:>22}  {:>16}",
                labels[*b],
                win_cell(e),
                score_cell(e)
            )?;
        }
        writeln!(out)?;
    }
    // Overall.
    if tables.len() > 1 {
        let mut overall = vec![Tally::default(); labels.len()];
        for row in tally {
            for (sum, e) in overall.iter_mut().zip(row) {
                sum.merge(e);
            }
        }
        writeln!(out, "overall ({n} players a game)")?;
        writeln!(
            out,
            "  {:w$}  {:>6}  {:>22}  {:>16}",
            "bot", "games", "win rate (95% CI)", "mean score (95%)"
        )?;
        for (b, e) in overall.iter().enumerate() {
            writeln!(
                out,
                "  {:w$}  {:>6}  {:>22}  {:>16}",
                labels[b],
                e.games,
                win_cell(e),
                score_cell(e)
            )?;
        }
    }
    Ok(())
}

/// `bastide bench` lines for the bots: MCTS iterations (determinization,
/// tree walk, playout, evaluation) per second, and moves per second of the
/// default `mcts`, of `greedy` and of `strong`, on one core.
pub fn bench(config: &GameConfig, budget: Duration, out: &mut impl Write) -> Result<()> {
    // Positions from the first half of greedy games.
    let mut positions = Vec::new();
    for seed in 0..4u64 {
        let mut c = config.clone();
        c.seed = seed;
        let mut game = Game::new(c)?;
        let mut bot = BotSpec::Greedy.build(seed);
        let mut turn = 0;
        while !game.is_finished() {
            if game.phase() == Phase::Place && turn % 6 == 0 && game.tiles_left() > 10 {
                positions.push(game.clone());
            }
            let a = bot.choose(&View::new(&game));
            game.apply_legal(&a);
            turn += 1;
        }
    }
    if positions.is_empty() {
        bail!("no positions to measure");
    }
    let d = MctsConfig::default();
    let mut mcts = Mcts::new(
        MctsConfig {
            budget: bastide_bots::Budget::Iterations(200),
            ..d
        },
        1,
    );
    let start = Instant::now();
    let mut searches = 0u64;
    // At least once each, however short the budget: the rates divide by it.
    while searches == 0 || start.elapsed() < budget {
        let g = &positions[searches as usize % positions.len()];
        mcts.search(&View::new(g));
        searches += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let playout = match d.rollout_turns {
        u32::MAX => "playout to the end".to_string(),
        n => format!("{n}-turn playout + evaluation"),
    };
    writeln!(
        out,
        "mcts iterations (determinize + tree walk + {playout}): {:.0} iterations/s",
        mcts.iterations as f64 / secs
    )?;
    let strong = BotSpec::Strong(bastide_bots::StrongConfig::default());
    for spec in [BotSpec::Mcts(d), BotSpec::Greedy, strong] {
        let mut bot = spec.build(2);
        let start = Instant::now();
        let mut moves = 0u64;
        let mut rng = Rng::new(3);
        while moves == 0 || start.elapsed() < budget {
            let g = &positions[rng.below(positions.len() as u64) as usize];
            std::hint::black_box(bot.choose(&View::new(g)));
            moves += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "{spec} placements: {:.1} moves/s ({:.2} ms/move)",
            moves as f64 / secs,
            secs * 1e3 / moves as f64
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: &[f64], scores: &[f64]) -> Tally {
        let mut t = Tally::default();
        for (w, s) in wins.iter().zip(scores) {
            t.add(*w, *s);
        }
        t
    }

    #[test]
    fn one_game_gives_a_wide_interval_not_zero() {
        let (p, lo, hi) = tally(&[1.0], &[80.0]).win_rate();
        assert_eq!(p, 1.0);
        assert!((lo - 0.2065).abs() < 1e-3, "{lo}");
        assert_eq!(hi, 1.0);
        assert_eq!(tally(&[1.0], &[80.0]).mean_score(), (80.0, None));
    }

    #[test]
    fn wilson_matches_the_textbook_and_stays_in_range() {
        // 7 wins in 10: 39.7%–89.2% (Wilson, z = 1.96).
        let t = tally(
            &[1.0; 7]
                .iter()
                .chain(&[0.0; 3])
                .copied()
                .collect::<Vec<_>>(),
            &[1.0; 10],
        );
        let (p, lo, hi) = t.win_rate();
        assert!((p - 0.7).abs() < 1e-12);
        assert!(
            (lo - 0.3968).abs() < 1e-3 && (hi - 0.8922).abs() < 1e-3,
            "{lo} {hi}"
        );
        let none = tally(&[0.0; 5], &[1.0; 5]).win_rate();
        assert_eq!(none.1, 0.0);
        assert!(none.2 > 0.0 && none.2 < 0.5);
    }

    #[test]
    fn score_sums_give_the_sample_mean_and_interval() {
        let t = tally(&[0.0; 4], &[10.0, 20.0, 30.0, 40.0]);
        let (m, ci) = t.mean_score();
        assert_eq!(m, 25.0);
        // Sample s.d. 12.91; 1.96 · 12.91 / 2 = 12.65.
        let ci = ci.expect("four games");
        assert!((ci - 12.65).abs() < 0.01, "{ci}");
        let mut merged = tally(&[0.0; 2], &[10.0, 20.0]);
        merged.merge(&tally(&[0.0; 2], &[30.0, 40.0]));
        assert_eq!(merged, t);
    }

    #[test]
    fn seats_rotate_and_each_deal_is_played_once_per_rotation() {
        let jobs: Vec<Job> = (0..4).map(|g| job(0, &[0, 1], g, 10)).collect();
        let seats: Vec<&[usize]> = jobs.iter().map(|j| j.seats.as_slice()).collect();
        assert_eq!(seats, [&[0, 1][..], &[1, 0], &[0, 1], &[1, 0]]);
        let seeds: Vec<u64> = jobs.iter().map(|j| j.seed).collect();
        assert_eq!(seeds, [10, 10, 11, 11]);
    }
}
