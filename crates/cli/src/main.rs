//! `bastide`: replay and validate game records, list legal actions, play and
//! simulate games, benchmark the engine.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use bastide_engine::limits::MAX_RECORD_BYTES;
use bastide_engine::record::Record;
use bastide_engine::rng::Rng;
use bastide_engine::sim::play_random;
use bastide_engine::{Game, GameConfig};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

mod bench;
mod human;
mod render_cmd;
mod tournament;

#[derive(Parser)]
#[command(
    name = "bastide",
    version,
    about = "Carcassonne rules engine, simulator and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a game record and print the final state as JSON.
    Replay {
        /// The record file (`-` for standard input).
        record: PathBuf,
        /// Stop after this many actions.
        #[arg(long)]
        at: Option<usize>,
        /// One line instead of indented JSON.
        #[arg(long)]
        compact: bool,
        /// Print what the player in this seat (0-based) may see: no draw
        /// order, no other player's halves or chips.
        #[arg(long = "as", value_name = "SEAT")]
        seat: Option<usize>,
    },
    /// List the legal actions at the end of a record, as JSON.
    Legal {
        /// The record file (`-` for standard input).
        record: PathBuf,
    },
    /// Play a whole game with bots and people at the terminal and write
    /// its record; or continue a saved one.
    Play(human::PlayArgs),
    /// Play many random games and report speed and mean scores.
    Simulate {
        /// Number of games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Players per game (2–6).
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// First seed; game `i` uses seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Base game and expansions, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "base")]
        sets: Vec<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Measure engine speed on one core.
    Bench {
        /// Seconds to spend on each measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Base game and expansions, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "base")]
        sets: Vec<String>,
    },
    /// Bots play each other round-robin, seats rotated; win rates and
    /// mean scores with 95% confidence intervals.
    Tournament(tournament::TournamentArgs),
    /// Draw a board (SVG or PNG) after some actions of a record, or one tile.
    Render(render_cmd::RenderArgs),
    /// Draw a contact sheet of every tile of a set (default: all sets).
    Catalog(render_cmd::CatalogArgs),
    /// Run the game server: people and bots play over the network; games
    /// are kept in a database (default: the SQLite file bastide.db).
    Serve(bastide_server::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Replay {
            record,
            at,
            compact,
            seat,
        } => {
            let rec = read_record(&record)?;
            let game = rec.replay_to(at.unwrap_or(rec.actions.len()))?;
            let state = match seat {
                Some(s) if s >= game.player_count() => {
                    bail!(
                        "--as {s}: the game has seats 0 to {}",
                        game.player_count() - 1
                    )
                }
                Some(s) => game.view_json(s),
                None => serde_json::to_value(game.state_json())?,
            };
            let text = if compact {
                serde_json::to_string(&state)?
            } else {
                serde_json::to_string_pretty(&state)?
            };
            println!("{text}");
        }
        Command::Legal { record } => {
            let rec = read_record(&record)?;
            let game = rec.replay()?;
            println!(
                "{}",
                serde_json::to_string_pretty(&game.legal_actions_json())?
            );
        }
        Command::Play(args) => human::play(args)?,
        Command::Simulate {
            games,
            players,
            seed,
            sets,
            threads,
        } => simulate(games, players, seed, &sets, threads)?,
        Command::Bench { seconds, sets } => bench::run(seconds, &sets)?,
        Command::Tournament(args) => tournament::run(args)?,
        Command::Render(args) => render_cmd::render(args)?,
        Command::Catalog(args) => render_cmd::catalog(args)?,
        Command::Serve(args) => bastide_server::serve(args)?,
    }
    Ok(())
}

/// A configuration from `--sets` (the base game first, then expansions),
/// checked now so a bad flag fails before any work starts.
pub fn config_for(players: usize, seed: u64, sets: &[String]) -> Result<GameConfig> {
    let config = GameConfig::from_sets(players, seed, sets)?;
    Game::new(config.clone())?;
    Ok(config)
}

/// Reads a record file (`-`: standard input) with bounded memory: at most
/// [`MAX_RECORD_BYTES`] are read, and a file that does not start like a
/// JSON text object is refused after its first few kilobytes.
fn read_record(path: &Path) -> Result<Record> {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let mut reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot read record file {name}"))?,
        )
    };
    let limit = MAX_RECORD_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    (&mut reader)
        .take(4096)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if let Err(e) = std::str::from_utf8(&bytes) {
        // A character cut at the chunk's end is fine; a bad byte is not.
        if e.error_len().is_some() {
            bail!(
                "{name} is not a record: it is not UTF-8 text (byte {} is not valid UTF-8)",
                e.valid_up_to()
            );
        }
    }
    let body = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') | None => {}
        Some(_) => bail!("{name} is not a record: a record is a JSON object, starting with {{"),
    }
    reader
        .take(limit - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    Record::parse_bytes(&bytes).with_context(|| format!("in {name}"))
}

fn simulate(
    games: u64,
    players: usize,
    seed: u64,
    sets: &[String],
    threads: Option<usize>,
) -> Result<()> {
    let config = config_for(players, seed, sets)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if std::env::var_os("CI").is_some() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let start = Instant::now();
    let totals = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let mut c = config.clone();
                c.seed = seed.wrapping_add(i);
                let mut game = Game::new(c).expect("configuration checked above");
                let mut rng = Rng::for_stream(seed.wrapping_add(i), 0xB07);
                let actions = play_random(&mut game, &mut rng, |_| {});
                bar.inc(1);
                let scores = game.scores();
                (scores, actions as u64, game.board().pieces().len() as u64)
            })
            .fold(
                || (vec![0u64; players], 0u64, 0u64),
                |mut acc, (s, a, t)| {
                    for (x, y) in acc.0.iter_mut().zip(s) {
                        *x += y as u64;
                    }
                    acc.1 += a;
                    acc.2 += t;
                    acc
                },
            )
            .reduce(
                || (vec![0u64; players], 0u64, 0u64),
                |mut a, b| {
                    for (x, y) in a.0.iter_mut().zip(b.0) {
                        *x += y;
                    }
                    (a.0, a.1 + b.1, a.2 + b.2)
                },
            )
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let g = games.max(1) as f64;
    println!(
        "games: {games} in {secs:.2} s = {:.0} games/s ({} threads)",
        games as f64 / secs,
        pool.current_num_threads()
    );
    let means: Vec<String> = config
        .players
        .iter()
        .zip(&totals.0)
        .map(|(n, s)| format!("{n} {:.1}", *s as f64 / g))
        .collect();
    println!("mean scores: {}", means.join(", "));
    println!(
        "mean actions per game: {:.1}; mean tiles on the board: {:.1}",
        totals.1 as f64 / g,
        totals.2 as f64 / g
    );
    Ok(())
}
