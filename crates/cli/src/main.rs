//! `bastide`: replay and validate game records, list legal actions, play and
//! simulate games, benchmark the engine.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use bastide_engine::limits::MAX_RECORD_BYTES;
use bastide_engine::record::Record;
use bastide_engine::rng::Rng;
use bastide_engine::{play_random_with, Action, Game, GameConfig};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

mod bench;
mod human;
mod ladder;
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
        #[arg(long, allow_negative_numbers = true, value_parser = parse_at)]
        at: Option<usize>,
        /// One line instead of indented JSON.
        #[arg(long)]
        compact: bool,
        /// Print what the player in this seat (0-based) may see: no draw
        /// order, no other player's halves or chips.
        #[arg(long = "as", value_name = "SEAT", allow_negative_numbers = true,
              value_parser = parse_seat)]
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
        /// Number of games (1 to 1000000000).
        #[arg(long, default_value_t = 1000, allow_negative_numbers = true,
              value_parser = parse_simulated_games)]
        games: u64,
        /// Players per game (2–6).
        #[arg(long, default_value_t = 2, allow_negative_numbers = true,
              value_parser = parse_players)]
        players: usize,
        /// First seed; game `i` uses seed + i (wrapping past the largest).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_seed)]
        seed: u64,
        /// Base game and expansions, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "base", long_help = sets_help())]
        sets: Vec<String>,
        /// Worker threads, 1 to 256 (default: all cores).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
        threads: Option<usize>,
    },
    /// Measure engine speed on one core.
    Bench {
        /// Seconds to spend on each measurement (more than 0, at most 3600).
        #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
        seconds: f64,
        /// Base game and expansions, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "base", long_help = sets_help())]
        sets: Vec<String>,
    },
    /// Bots play each other round-robin, seats rotated; win rates and
    /// mean scores with 95% confidence intervals.
    Tournament(tournament::TournamentArgs),
    /// Rate the server's bots: they play each other, seats rotated, and
    /// fixed ratings are fitted (the file the server rates bots by).
    Ladder(ladder::LadderArgs),
    /// Draw a board (SVG or PNG) after some actions of a record, or one tile.
    Render(render_cmd::RenderArgs),
    /// Draw a contact sheet of every tile of a set (default: all sets).
    Catalog(render_cmd::CatalogArgs),
    /// Run the game server: people and bots play over the network; games
    /// are kept in a database (default: the SQLite file bastide.db).
    Serve(Box<bastide_server::ServeArgs>),
}

/// Every set id `--sets` takes, for the help of each command that has the
/// flag: generated from the engine's expansion registry, so a new expansion
/// appears here by itself.
pub fn sets_help() -> String {
    format!(
        "Base game and expansions, comma-separated.\n\n{}\n\nExample: --sets winter,gingerbread,river1",
        bastide_engine::expansions::registry::sets_help()
    )
}

/// Most games `simulate` plays in one run: hours of work on every core,
/// and far from the `u64` sums of scores overflowing.
pub const MAX_SIMULATED_GAMES: u64 = 1_000_000_000;

/// Most worker threads a command starts; more than any machine it runs on
/// has cores, few enough that a typo cannot exhaust the system's threads.
pub const MAX_THREADS: u64 = 256;

/// A whole number from `lo` to `hi`, for a count flag. Parsed by hand so
/// that `-3` or `1e9` get the allowed range in the message, not clap's
/// "unexpected argument" or a bare "invalid digit".
pub(crate) fn count_in(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if (i128::from(lo)..=i128::from(hi)).contains(&n) => {
            u64::try_from(n).map_err(|e| e.to_string())
        }
        _ => Err(format!("give a whole number from {lo} to {hi}")),
    }
}

/// `--players`: the engine's 2 to 6, checked while reading the flags so the
/// message names the flag.
pub fn parse_players(text: &str) -> Result<usize, String> {
    count_in(text, 2, 6).and_then(|n| usize::try_from(n).map_err(|e| e.to_string()))
}

/// `--threads`: 1 to [`MAX_THREADS`] (absent: every core).
pub fn parse_threads(text: &str) -> Result<usize, String> {
    count_in(text, 1, MAX_THREADS).and_then(|n| usize::try_from(n).map_err(|e| e.to_string()))
}

/// `simulate --games`: 1 to [`MAX_SIMULATED_GAMES`].
fn parse_simulated_games(text: &str) -> Result<u64, String> {
    count_in(text, 1, MAX_SIMULATED_GAMES)
}

/// `--at`: a number of actions, checked against the record later.
pub fn parse_at(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| "give a number of actions: a whole number, 0 or more".to_string())
}

/// `replay --as`: a seat, checked against the game later.
fn parse_seat(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| "give a seat: a whole number from 0".to_string())
}

/// `--seed`: any `u64`. Parsed by hand so that `-1` or `1.5` get the range
/// in the message rather than clap's "unexpected argument" or a bare
/// "invalid digit".
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("the seed must be a whole number from 0 to {}", u64::MAX))
}

/// Standard output, locked, for a command's results. `println!` panics
/// when the reader goes away (`bastide replay g.json | head -5`); writing
/// through this returns the error instead, and [`main`] ends quietly on a
/// broken pipe.
pub fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// Whether `e` comes from writing to a pipe whose reader has closed it:
/// the reader has seen all it wants, so this is not a failure.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` prints each context once, outermost first; the CLI adds
            // context only where the inner message lacks it (a file name,
            // a flag). Not `eprintln!`: it panics if standard error is closed.
            let _ = writeln!(io::stderr(), "error: {e:#}");
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
            let total = rec.actions.len();
            let at = at.unwrap_or(total);
            // `replay_to` stops at the end; say so rather than print the
            // final state as if it were the position asked for.
            if at > total {
                bail!("--at {at} is past the end: the record has {total} actions, so use at most {total}");
            }
            let game = rec.replay_to(at)?;
            let state = match seat {
                Some(s) => match game.seat(s) {
                    Some(seat) => game.view_json(seat),
                    None => bail!(
                        "--as {s}: the game has seats 0 to {}",
                        game.player_count() - 1
                    ),
                },
                None => serde_json::to_value(game.state_json())?,
            };
            let text = if compact {
                serde_json::to_string(&state)?
            } else {
                serde_json::to_string_pretty(&state)?
            };
            let mut out = stdout();
            writeln!(out, "{text}")?;
            out.flush()?;
        }
        Command::Legal { record } => {
            let rec = read_record(&record)?;
            let game = rec.replay()?;
            let text = serde_json::to_string_pretty(&game.legal_actions_json())?;
            let mut out = stdout();
            writeln!(out, "{text}")?;
            out.flush()?;
        }
        Command::Play(args) => human::play(args)?,
        Command::Simulate {
            games,
            players,
            seed,
            sets,
            threads,
        } => simulate(games, players, seed, &sets, threads)?,
        Command::Bench { seconds, sets } => bench::run(seconds, &sets, &mut stdout())?,
        Command::Tournament(args) => tournament::run(args)?,
        Command::Ladder(args) => ladder::run(args)?,
        Command::Render(args) => render_cmd::render(args)?,
        Command::Catalog(args) => render_cmd::catalog(args)?,
        Command::Serve(args) => bastide_server::serve(*args)?,
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
            // One game and one action buffer per worker, reset for each
            // game: after the first game the loop allocates nothing (with
            // the base game or Winter alone; see `Game::reset`).
            .map_init(
                || None::<(Game, Vec<Action>)>,
                |slot, i| {
                    let s = seed.wrapping_add(i);
                    let (game, buf) = match slot {
                        Some((game, buf)) => {
                            game.reset(s).expect("configuration checked above");
                            (game, buf)
                        }
                        None => {
                            let mut c = config.clone();
                            c.seed = s;
                            let mut game = Game::new(c).expect("configuration checked above");
                            // Only the scores are read: no scoring events
                            // to record (a reset keeps the setting).
                            game.set_event_log(false);
                            let (game, buf) = slot.insert((game, Vec::with_capacity(256)));
                            (game, buf)
                        }
                    };
                    let mut rng = Rng::for_stream(s, 0xB07);
                    let actions = play_random_with(game, &mut rng, buf, |_| {});
                    bar.inc(1);
                    let scores = game.scores();
                    (scores, actions as u64, game.board().pieces().len() as u64)
                },
            )
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
    let mut out = stdout();
    writeln!(
        out,
        "{} in {secs:.2} s = {:.0} games/s ({})",
        plural(games, "game"),
        games as f64 / secs,
        plural(pool.current_num_threads() as u64, "thread")
    )?;
    let means: Vec<String> = config
        .players
        .iter()
        .zip(&totals.0)
        .map(|(n, s)| format!("{n} {:.1}", *s as f64 / g))
        .collect();
    writeln!(out, "mean scores: {}", means.join(", "))?;
    writeln!(
        out,
        "mean actions per game: {:.1}; mean tiles on the board: {:.1}",
        totals.1 as f64 / g,
        totals.2 as f64 / g
    )?;
    out.flush()?;
    Ok(())
}

/// `1 game`, `2 games`.
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastide_engine::expansions::registry::known_keys;
    use bastide_engine::BUILTIN_MAPS;

    /// The ids [`sets_help`] lists: the words of its "Base games",
    /// "Expansions" and "Maps" lines, before any note in parentheses.
    fn listed(heading: &str) -> Vec<String> {
        let help = sets_help();
        let line = help
            .lines()
            .find_map(|l| l.strip_prefix(heading))
            .unwrap_or_else(|| panic!("no {heading} line in the sets help"));
        line.trim()
            .trim_end_matches('.')
            .split(',')
            .map(|w| w.split('(').next().unwrap_or("").trim().to_string())
            .collect()
    }

    #[test]
    fn the_sets_help_lists_every_id_and_each_plays() {
        let bases = listed("Base games:");
        let expansions = listed("Expansions:");
        let maps = listed("Maps:");
        assert_eq!(bases, ["base", "winter"]);
        let known = known_keys();
        for e in &known {
            assert!(
                expansions.iter().any(|x| x == e),
                "{e} missing from the sets help"
            );
        }
        assert_eq!(expansions.len(), known.len(), "{expansions:?}");
        for (_, text) in BUILTIN_MAPS {
            let name = text
                .lines()
                .find_map(|l| l.strip_prefix("name = "))
                .map(|n| n.trim().trim_matches('"').to_string())
                .expect("a map file names its map");
            assert!(
                maps.contains(&name),
                "map {name} missing from the sets help"
            );
        }
        assert_eq!(maps.len(), BUILTIN_MAPS.len(), "{maps:?}");
        // Each id is taken alone, or with the base game it needs.
        for id in bases.iter().chain(&expansions).chain(&maps) {
            let sets: Vec<&str> = match id.as_str() {
                "gingerbread" => vec!["winter", "gingerbread"],
                "cutcassonne" => vec!["river1", "cutcassonne"],
                other => vec![other],
            };
            let config = config_for(
                2,
                1,
                &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            );
            assert!(
                config.is_ok(),
                "--sets {}: {:?}",
                sets.join(","),
                config.err()
            );
        }
    }

    #[test]
    fn seeds_take_the_whole_u64_range_and_explain_the_rest() {
        assert_eq!(parse_seed("0"), Ok(0));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        for bad in ["-1", "18446744073709551616", "1.5", ""] {
            let e = parse_seed(bad).expect_err(bad);
            assert!(e.contains("0 to 18446744073709551615"), "{e}");
        }
    }

    #[test]
    fn counts_name_their_range() {
        assert_eq!(parse_players("6"), Ok(6));
        assert_eq!(parse_threads(" 1 "), Ok(1));
        for bad in [
            "1",
            "7",
            "-2",
            "2.5",
            "x",
            "99999999999999999999999999999999999999999",
        ] {
            let e = parse_players(bad).expect_err(bad);
            assert_eq!(e, "give a whole number from 2 to 6");
        }
        assert!(parse_threads("0").is_err());
        assert!(parse_simulated_games("1000000001").is_err());
        assert_eq!(parse_simulated_games("1000000000"), Ok(MAX_SIMULATED_GAMES));
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "game"), "1 game");
        assert_eq!(plural(0, "game"), "0 games");
        assert_eq!(plural(12, "thread"), "12 threads");
    }
}
