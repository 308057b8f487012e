//! `bastide tournament`: bots play each other round-robin with seats
//! rotated, in parallel on every core; a table of win rates and mean scores
//! with 95% confidence intervals; optionally every game record.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use bastide_bots::{play_game, BotSpec, Mcts, MctsConfig, View};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig, Phase};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Arguments of `bastide tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Bot specs, comma-separated: `random`, `greedy`, `mcts`, `mcts:2000`,
    /// `mcts:500ms`, …
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<String>,
    /// Games per table (each pair of bots, or each group of `--players`
    /// bots); seats rotate from game to game, each deal played once per
    /// rotation.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Players per game (2–6).
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Base game and expansions, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "base")]
    pub sets: Vec<String>,
    /// First seed of the deals (and of the bots' own randomness).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game record into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// One game of the tournament.
#[derive(Clone, Debug)]
struct Job {
    table: usize,
    index: u64,
    /// Bot entry (index into the list) per seat.
    seats: Vec<usize>,
    seed: u64,
}

/// The result of one game.
#[derive(Clone, Debug)]
struct Outcome {
    job: Job,
    scores: Vec<u32>,
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
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let config = crate::config_for(args.players, args.seed, &args.sets)?;
    let labels = labels(&args.bots);
    // Tables: every group of `players` entries; with fewer entries than
    // seats, one table with the entries repeated in turn.
    let tables: Vec<Vec<usize>> = if specs.len() >= args.players {
        combinations(specs.len(), args.players)
    } else {
        vec![(0..args.players).map(|s| s % specs.len()).collect()]
    };
    let n = args.players;
    let mut jobs = Vec::new();
    for (t, lineup) in tables.iter().enumerate() {
        for g in 0..args.games {
            let rot = (g % n as u64) as usize;
            jobs.push(Job {
                table: t,
                index: g,
                seats: (0..n).map(|s| lineup[(s + rot) % n]).collect(),
                seed: args.seed.wrapping_add(g / n as u64),
            });
        }
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  eta {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if std::env::var_os("CI").is_some() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    eprintln!(
        "{} games on {} threads: {} ({})",
        jobs.len(),
        pool.current_num_threads(),
        labels.join(", "),
        args.sets.join("+")
    );
    let start = Instant::now();
    let keep = args.out.is_some();
    let outcomes: Vec<Outcome> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let o = play_job(job, &specs, &config, keep);
                bar.inc(1);
                o
            })
            .collect()
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if let Some(dir) = &args.out {
        for o in &outcomes {
            let Some(rec) = &o.record else { continue };
            let names: Vec<&str> = o.job.seats.iter().map(|s| labels[*s].as_str()).collect();
            let file = dir.join(format!(
                "t{}-g{:04}-{}.json",
                o.job.table,
                o.job.index,
                sanitize(&names.join("-vs-"))
            ));
            std::fs::write(&file, rec.to_json() + "\n")
                .with_context(|| format!("cannot write {}", file.display()))?;
        }
    }
    println!(
        "{} games in {:.1} s ({}; {} players; seeds from {})",
        outcomes.len(),
        secs,
        args.sets.join("+"),
        n,
        args.seed
    );
    print_tables(&labels, &tables, &outcomes, n);
    if let Some(dir) = &args.out {
        println!("records written to {}", dir.display());
    }
    Ok(())
}

fn play_job(job: &Job, specs: &[BotSpec], config: &GameConfig, keep: bool) -> Outcome {
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

/// Mean and 95% half-width of a sample.
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if n < 2.0 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Per bot entry: win shares (a tie shared), scores, margins.
#[derive(Default, Clone)]
struct Tally {
    wins: Vec<f64>,
    scores: Vec<f64>,
}

fn win_share(scores: &[u32], seat: usize) -> f64 {
    let best = scores.iter().copied().max().unwrap_or(0);
    if scores[seat] != best {
        return 0.0;
    }
    1.0 / scores.iter().filter(|s| **s == best).count() as f64
}

fn print_tables(labels: &[String], tables: &[Vec<usize>], outcomes: &[Outcome], n: usize) {
    let w = labels.iter().map(|l| l.len()).max().unwrap_or(4).max(4);
    // Per table.
    println!();
    for (t, lineup) in tables.iter().enumerate() {
        let mut tally: BTreeMap<usize, Tally> = BTreeMap::new();
        let mut games = 0;
        for o in outcomes.iter().filter(|o| o.job.table == t) {
            games += 1;
            for (seat, b) in o.job.seats.iter().enumerate() {
                let e = tally.entry(*b).or_default();
                e.wins.push(win_share(&o.scores, seat));
                e.scores.push(o.scores[seat] as f64);
            }
        }
        let names: Vec<&str> = lineup.iter().map(|b| labels[*b].as_str()).collect();
        println!("table {}: {} ({games} games)", t + 1, names.join(" vs "));
        println!(
            "  {:w$}  {:>17}  {:>17}",
            "bot", "win rate (95% CI)", "mean score (95%)"
        );
        let mut seen = Vec::new();
        for b in lineup {
            if seen.contains(b) {
                continue;
            }
            seen.push(*b);
            let e = &tally.get(b).cloned().unwrap_or_default();
            let (wr, wci) = mean_ci(&e.wins);
            let (ms, mci) = mean_ci(&e.scores);
            println!(
                "  {:w$}  {:>8.1}% ± {:>4.1}%  {:>8.1} ± {:>5.1}",
                labels[*b],
                wr * 100.0,
                wci * 100.0,
                ms,
                mci
            );
        }
        println!();
    }
    // Overall.
    if tables.len() > 1 {
        let mut tally: BTreeMap<usize, Tally> = BTreeMap::new();
        for o in outcomes {
            for (seat, b) in o.job.seats.iter().enumerate() {
                let e = tally.entry(*b).or_default();
                e.wins.push(win_share(&o.scores, seat));
                e.scores.push(o.scores[seat] as f64);
            }
        }
        println!("overall ({n} players a game)");
        println!(
            "  {:w$}  {:>6}  {:>17}  {:>17}",
            "bot", "games", "win rate (95% CI)", "mean score (95%)"
        );
        for (b, e) in &tally {
            let (wr, wci) = mean_ci(&e.wins);
            let (ms, mci) = mean_ci(&e.scores);
            println!(
                "  {:w$}  {:>6}  {:>8.1}% ± {:>4.1}%  {:>8.1} ± {:>5.1}",
                labels[*b],
                e.wins.len(),
                wr * 100.0,
                wci * 100.0,
                ms,
                mci
            );
        }
    }
}

/// `bastide bench` lines for the bots: MCTS iterations (determinization,
/// tree walk, playout, evaluation) per second, and moves per second of the
/// default `mcts`, of `greedy`, on one core.
pub fn bench(config: &GameConfig, budget: Duration) -> Result<()> {
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
    while start.elapsed() < budget {
        let g = &positions[searches as usize % positions.len()];
        mcts.search(&View::new(g));
        searches += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let playout = match d.rollout_turns {
        u32::MAX => "playout to the end".to_string(),
        n => format!("{n}-turn playout + evaluation"),
    };
    println!(
        "mcts iterations (determinize + tree walk + {playout}): {:.0} iterations/s",
        mcts.iterations as f64 / secs
    );
    for spec in [BotSpec::Mcts(d), BotSpec::Greedy] {
        let mut bot = spec.build(2);
        let start = Instant::now();
        let mut moves = 0u64;
        let mut rng = Rng::new(3);
        while start.elapsed() < budget {
            let g = &positions[rng.below(positions.len() as u64) as usize];
            std::hint::black_box(bot.choose(&View::new(g)));
            moves += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{spec} placements: {:.1} moves/s ({:.2} ms/move)",
            moves as f64 / secs,
            secs * 1e3 / moves as f64
        );
    }
    Ok(())
}
