//! `bastide play`: a whole game between bots and people at the terminal.
//!
//! The record goes to standard output (or `--out`); everything meant for the
//! person at the keyboard — the board, the scores, the choices, the prompts
//! and what the other players did — goes to standard error, so that
//! `bastide play --bots human,greedy > game.json` leaves a clean JSON file.

use std::fs::OpenOptions;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bastide_bots::{Bot, BotSpec, View};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::{
    Action, Corner, FeatureKind, Figure, Game, Phase, Place, Pos, TileAt, TileIdx,
};
use bastide_engine::{Event, Reason};
use bastide_engine::{TagSet, NO_FEATURE, PLACE_COUNT};
use clap::Args;

/// Arguments of `bastide play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Number of players (2–6; default: one per `--bots` entry, else 2).
    // The range is checked here, not only by the engine, so that a huge
    // number fails at once instead of first building a huge configuration.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// Seed of the shuffle and of the bots.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::parse_seed)]
    pub seed: u64,
    /// One player per seat, comma-separated: `human`, `random`, `greedy`,
    /// `mcts`, `mcts:2000`, `mcts:500ms` (default: a random bot per seat).
    #[arg(long, value_delimiter = ',')]
    pub bots: Option<Vec<String>>,
    /// Base game and expansions, comma-separated (`base`, `winter`, …).
    #[arg(long, value_delimiter = ',', default_value = "base", long_help = crate::sets_help())]
    pub sets: Vec<String>,
    /// Where to write the record (default: print it on standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the game saved in this record (with `q`, or any record);
    /// `--bots` names the seats again.
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["players", "seed", "sets"])]
    pub resume: Option<PathBuf>,
}

/// Who sits in a seat.
enum Seat {
    Human,
    Bot(Box<dyn Bot>),
}

/// How a game run stopped without an error.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    /// The game is over.
    Finished,
    /// A person quit; the record so far is to be saved.
    Quit,
}

/// What a person typed at a prompt, once understood.
#[derive(Debug, PartialEq, Eq)]
enum Choice {
    Act(Action),
    Undo,
    Quit,
}

/// Plays a game (new, or continued from `--resume`) and writes its record.
pub fn play(args: PlayArgs) -> Result<()> {
    let (config, rec_so_far, specs) = match &args.resume {
        Some(path) => {
            let rec = crate::read_record(path)?;
            let n = rec.config.players.len();
            let Some(bots) = args.bots.clone() else {
                bail!(
                    "--resume: name the {n} seats again with --bots, e.g. --bots {}",
                    example_bots(n)
                );
            };
            check_count(n, &bots)?;
            (rec.config.clone(), Some(rec), bots)
        }
        None => {
            let players = match (args.players, &args.bots) {
                (Some(p), _) => usize::from(p),
                (None, Some(b)) => b.len(),
                (None, None) => 2,
            };
            let config = crate::config_for(players, args.seed, &args.sets)?;
            let bots = args
                .bots
                .clone()
                .unwrap_or_else(|| vec!["random".to_string(); players]);
            check_count(players, &bots)?;
            (config, None, bots)
        }
    };
    let seed = config.seed;
    let mut seats = Vec::new();
    for (i, b) in specs.iter().enumerate() {
        if b.trim() == "human" {
            seats.push(Seat::Human);
        } else {
            let spec = BotSpec::parse(b).map_err(|e| anyhow::anyhow!("{e}, or human"))?;
            seats.push(Seat::Bot(
                spec.build(seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64)),
            ));
        }
    }
    // Check before playing: a game can take an hour, the path a second.
    if let Some(path) = &args.out {
        check_writable(path)?;
    }
    let (game, rec) = match rec_so_far {
        Some(rec) => {
            let game = rec.replay().context("cannot continue the saved game")?;
            (game, rec)
        }
        None => (Game::new(config.clone())?, Record::new(config)),
    };
    let stdin = std::io::stdin();
    let mut table = Table {
        seats,
        specs,
        game,
        rec,
        input: stdin.lock(),
        term: std::io::stderr(),
        seen_events: 0,
        undo: None,
        out: args.out.clone(),
    };
    let humans = table.has_humans();
    let result = table.run();
    match result {
        Ok(Ending::Finished) => table.finish(),
        Ok(Ending::Quit) => table.save_for_later(),
        Err(e) => {
            // Keep what was played, so that it can be continued.
            if let (Some(path), true) = (&args.out, humans && !table.rec.actions.is_empty()) {
                if write_record(path, &table.rec).is_ok() {
                    return Err(e.context(format!(
                        "the record so far is in {}; continue with {}",
                        path.display(),
                        table.resume_command(path)
                    )));
                }
            }
            Err(e)
        }
    }
}

/// Fails unless there is one bot spec per seat.
fn check_count(players: usize, bots: &[String]) -> Result<()> {
    if bots.len() != players {
        bail!(
            "--bots names {} but the game has {}: give one bot per seat",
            count(bots.len(), "player"),
            count(players, "seat")
        );
    }
    Ok(())
}

/// `1 player`, `3 players`.
fn count(n: usize, noun: &str) -> String {
    count_irregular(n, noun, &format!("{noun}s"))
}

/// `1 half`, `2 halves`: for nouns whose plural is not just an `s` more.
fn count_irregular(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `human,random,random` for `n` seats: an example for error messages.
fn example_bots(n: usize) -> String {
    let mut v = vec!["human"];
    v.extend(std::iter::repeat_n("random", n.saturating_sub(1)));
    v.join(",")
}

/// Fails now if `path` cannot be written, leaving the file system as it was.
fn check_writable(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("--out {}: is a directory, name a file", path.display());
    }
    let existed = path.exists();
    // Append mode: an existing file (perhaps the game being resumed) is not
    // truncated by the check.
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("--out {}: cannot write there", path.display()))?;
    if !existed {
        // Best effort: a leftover empty file would only be untidy.
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

fn write_record(path: &Path, rec: &Record) -> Result<()> {
    std::fs::write(path, rec.to_json() + "\n")
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A game in progress with its seats, record and terminal.
struct Table<R: BufRead, W: Write> {
    seats: Vec<Seat>,
    /// The `--bots` entries, to tell the person how to resume.
    specs: Vec<String>,
    game: Game,
    rec: Record,
    input: R,
    term: W,
    /// Events already announced.
    seen_events: usize,
    /// The game and record length at the start of the person's turn.
    undo: Option<(Game, usize)>,
    out: Option<PathBuf>,
}

impl<R: BufRead, W: Write> Table<R, W> {
    fn has_humans(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Human))
    }

    /// Plays until the game is over or a person quits.
    fn run(&mut self) -> Result<Ending> {
        let humans = self.has_humans();
        if humans {
            self.introduce()?;
        }
        // Events of a resumed game happened before; only new ones are news.
        self.seen_events = self.game.events().len();
        while !self.game.is_finished() {
            if humans {
                self.announce_events()?;
            }
            let seat = self.game.current_player().index();
            let legal = self.game.legal_actions();
            let action = match &mut self.seats[seat] {
                Seat::Human => {
                    if self.undo.is_none() {
                        self.undo = Some((self.game.clone(), self.rec.actions.len()));
                    }
                    match self.ask(&legal)? {
                        Choice::Act(a) => a,
                        Choice::Quit => return Ok(Ending::Quit),
                        Choice::Undo => {
                            self.take_back()?;
                            continue;
                        }
                    }
                }
                Seat::Bot(bot) => {
                    let a = if legal.len() == 1 {
                        legal[0]
                    } else {
                        bot.choose(&View::new(&self.game))
                    };
                    if humans && a != Action::Pass {
                        let who = seat_label(&self.game, seat);
                        let name = bot.name();
                        let what = match a {
                            Action::Place { tile, .. } => format!(
                                "places {} at {}",
                                self.game.catalog().tile(tile).id,
                                describe(&self.game, &a)
                            ),
                            _ => describe(&self.game, &a),
                        };
                        writeln!(self.term, "{who} ({name}): {what}")?;
                    }
                    a
                }
            };
            self.rec
                .actions
                .push(ActionJson::from_action(&action, self.game.catalog()));
            self.game
                .try_apply(&action)
                .with_context(|| format!("seat {seat} chose an illegal action"))?;
            // The turn is over (and can no longer be taken back) once another
            // player is to act or a new tile is to be placed.
            if self.game.current_player().index() != seat
                || matches!(self.game.phase(), Phase::Place | Phase::Draft | Phase::Over)
            {
                self.undo = None;
            }
        }
        if humans {
            self.announce_events()?;
        }
        Ok(Ending::Finished)
    }

    /// Who plays where, and how to get help.
    fn introduce(&mut self) -> Result<()> {
        let seats: Vec<String> = (0..self.seats.len())
            .map(|i| format!("{}: {}", seat_label(&self.game, i), self.specs[i].trim()))
            .collect();
        writeln!(self.term, "Players: {}.", seats.join(", "))?;
        if !self.rec.actions.is_empty() {
            writeln!(
                self.term,
                "Continuing after {} actions.",
                self.rec.actions.len()
            )?;
        }
        writeln!(self.term, "Type ? and Enter for help.")?;
        Ok(())
    }

    /// Tells what scored (or was discarded) since the last announcement.
    fn announce_events(&mut self) -> Result<()> {
        let events = self.game.events();
        for e in events.iter().skip(self.seen_events) {
            if let Some(text) = event_text(&self.game, e) {
                writeln!(self.term, "  * {text}")?;
            }
        }
        self.seen_events = events.len();
        Ok(())
    }

    /// Restores the game as it was when the person's turn began.
    fn take_back(&mut self) -> Result<()> {
        match &self.undo {
            Some((game, len)) if *len < self.rec.actions.len() => {
                self.game = game.clone();
                self.rec.actions.truncate(*len);
                self.seen_events = self.game.events().len();
                writeln!(self.term, "Taken back: your turn starts again.")?;
            }
            _ => writeln!(self.term, "Nothing to take back in this turn.")?,
        }
        Ok(())
    }

    /// Shows the position and asks until the person chooses something.
    fn ask(&mut self, legal: &[Action]) -> Result<Choice> {
        let game = &self.game;
        let seat = game.current_player().index();
        let who = seat_label(game, seat);
        let choices = distinct_placements(game, legal);
        let screen = position_text(game, &choices);
        write!(self.term, "\n{screen}")?;
        let last = choices.len().saturating_sub(1);
        let range = if last == 0 {
            "0".to_string()
        } else {
            format!("0–{last}")
        };
        loop {
            write!(
                self.term,
                "{who}, your choice ({range}; ? help, u undo, q quit): "
            )?;
            self.term.flush()?;
            let line = self.read_line()?;
            let t = line.trim();
            match t {
                "?" | "h" | "help" => write!(self.term, "{}", help_text())?,
                "b" | "board" => write!(self.term, "\n{screen}")?,
                "u" | "undo" => return Ok(Choice::Undo),
                "q" | "quit" => {
                    write!(
                        self.term,
                        "Quit and save the game so far, to continue later with --resume? (y/n) "
                    )?;
                    self.term.flush()?;
                    let answer = self.read_line()?;
                    if matches!(answer.trim(), "y" | "yes") {
                        return Ok(Choice::Quit);
                    }
                    writeln!(self.term, "Playing on.")?;
                }
                _ => match t.parse::<usize>() {
                    Ok(i) if i < choices.len() => return Ok(Choice::Act(choices[i])),
                    _ => writeln!(
                        self.term,
                        "{t:?} is not one of the numbers 0 to {last}; ? shows the commands"
                    )?,
                },
            }
        }
    }

    fn read_line(&mut self) -> Result<String> {
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            bail!("the input ended before the game did");
        }
        Ok(line)
    }

    /// The end: final board and scores for people, the record for the file.
    fn finish(&mut self) -> Result<()> {
        let line = scores_line(&self.game);
        if self.has_humans() {
            write!(self.term, "\n{}", board_text(&self.game, &[]))?;
            writeln!(self.term, "game over: {line}")?;
        }
        match &self.out {
            Some(path) => {
                write_record(path, &self.rec)?;
                writeln!(
                    crate::stdout(),
                    "{line} ({} actions) written to {}",
                    self.rec.actions.len(),
                    path.display()
                )?;
            }
            None => writeln!(crate::stdout(), "{}", self.rec.to_json())?,
        }
        Ok(())
    }

    /// After `q`: the record so far, and how to go on with it.
    fn save_for_later(&mut self) -> Result<()> {
        let n = self.rec.actions.len();
        match self.out.clone() {
            Some(path) => {
                write_record(&path, &self.rec)?;
                writeln!(
                    self.term,
                    "Saved {} to {}. Continue with: {}",
                    count(n, "action"),
                    path.display(),
                    self.resume_command(&path)
                )?;
            }
            None => {
                writeln!(crate::stdout(), "{}", self.rec.to_json())?;
                writeln!(
                    self.term,
                    "The record so far ({}) is on standard output. Save it as FILE and continue with: {}",
                    count(n, "action"),
                    self.resume_command(Path::new("FILE"))
                )?;
            }
        }
        Ok(())
    }

    fn resume_command(&self, path: &Path) -> String {
        format!(
            "bastide play --resume {} --bots {} --out {}",
            path.display(),
            self.specs
                .iter()
                .map(|s| s.trim())
                .collect::<Vec<_>>()
                .join(","),
            path.display()
        )
    }
}

/// `seat 0 RED`: the seat number as `replay --as` takes it, and the colour.
pub fn seat_label(game: &Game, seat: usize) -> String {
    let name = game.config().players.get(seat).map_or("?", String::as_str);
    format!("seat {seat} {name}")
}

fn scores_line(game: &Game) -> String {
    game.scores()
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} {s}", seat_label(game, i)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The legal actions with placements that give the same board kept once:
/// the same tile on the same cell turned so that it looks the same (a
/// monastery with fields all round fits one way, not four). The first of
/// each group is kept, in the order of `legal`.
pub fn distinct_placements(game: &Game, legal: &[Action]) -> Vec<Action> {
    let mut seen: Vec<(TileIdx, Pos, OrientedShape)> = Vec::new();
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        if let Action::Place { tile, pos, rot } = *a {
            let shape = oriented_shape(game, tile, rot);
            if seen
                .iter()
                .any(|(t, p, s)| *t == tile && *p == pos && *s == shape)
            {
                continue;
            }
            seen.push((tile, pos, shape));
        }
        out.push(*a);
    }
    out
}

/// What a turned tile puts on the board, independent of how its features
/// happen to be numbered in the catalog: cells, half corner, and per place
/// the kind, coats of arms and tags of the feature there, with features
/// renumbered in order of first appearance (so that, say, two city caps on
/// opposite sides compare equal after a half turn).
#[derive(Debug, PartialEq, Eq)]
struct OrientedShape {
    cells: Vec<(i32, i32)>,
    half: Option<Corner>,
    places: Vec<[u8; PLACE_COUNT]>,
    features: Vec<(FeatureKind, u8, TagSet, Vec<u8>)>,
}

fn oriented_shape(game: &Game, tile: TileIdx, rot: bastide_engine::Rotation) -> OrientedShape {
    let def = game.catalog().tile(tile);
    let o = def.oriented(rot);
    let mut order: Vec<u8> = Vec::new();
    let places: Vec<[u8; PLACE_COUNT]> = o
        .place_feature
        .iter()
        .map(|cell| {
            cell.map(|f| {
                if f == NO_FEATURE {
                    return NO_FEATURE;
                }
                let i = order.iter().position(|&g| g == f).unwrap_or_else(|| {
                    order.push(f);
                    order.len() - 1
                });
                // A tile has far fewer than 255 features.
                u8::try_from(i).unwrap_or(NO_FEATURE)
            })
        })
        .collect();
    let renumber = |f: u8| {
        order
            .iter()
            .position(|&g| g == f)
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(NO_FEATURE)
    };
    let features = order
        .iter()
        .filter_map(|&f| def.features.get(usize::from(f)))
        .map(|d| {
            let mut cities: Vec<u8> = d.cities.iter().map(|&c| renumber(c)).collect();
            cities.sort_unstable();
            (d.kind, d.arms, d.tags, cities)
        })
        .collect();
    OrientedShape {
        cells: o.cells.clone(),
        half: o.half.map(|(c, _)| c),
        places,
        features,
    }
}

/// Traders & Builders' part of a player's line: the goods tokens held
/// (public) and where the builder and the pig are; empty without it.
fn traders_text(game: &Game, i: usize) -> String {
    let (Some(t), Some(seat)) = (game.traders(), game.seat(i)) else {
        return String::new();
    };
    let [wine, grain, cloth] = bastide_engine::Goods::ALL.map(|k| t.goods(seat, k));
    let at = |figure| {
        if t.in_supply(seat, figure) {
            "in supply"
        } else {
            "on the board"
        }
    };
    format!(
        ", goods {wine} wine {grain} grain {cloth} cloth, builder {}, pig {}",
        at(Figure::Builder),
        at(Figure::Pig)
    )
}

/// What the player to act is asked in a step with no tile to show.
fn step_prompt(phase: Phase) -> &'static str {
    match phase {
        Phase::Gingerbread => "move the gingerbread man:",
        Phase::Draft => "take a half tile:",
        Phase::Plague => "the Plague: spread, flee, or end your turn:",
        Phase::Dragon => "move the dragon one tile:",
        Phase::Capture => "your tower may capture one follower in its reach, or not:",
        Phase::Builder => "your builder's road or city grew: draw a second tile, or not:",
        Phase::Abbey => "the final abbey round: place your abbey, or pass:",
        Phase::Wagon => "your wagon's feature was scored: move the wagon, or take it home:",
        _ => "choose:",
    }
}

/// Everything a person needs to choose: board, scores, hands, the tile and
/// the numbered choices.
fn position_text(game: &Game, choices: &[Action]) -> String {
    let seat = game.current_player().index();
    let mut s = board_text(game, choices);
    s.push_str("  (? for the symbols and commands)\n");
    for (i, p) in game.players().iter().enumerate() {
        let mark = if i == seat { ">" } else { " " };
        let mut line = format!(
            "{mark} {}: {} points, {} in supply",
            seat_label(game, i),
            p.score,
            count(usize::from(p.supply), "follower")
        );
        if let Some(h) = game.halves() {
            let n = h.hands.get(i).map_or(0, Vec::len);
            line.push_str(&format!(", {}", count_irregular(n, "half", "halves")));
        }
        if let Some(c) = game.chips() {
            let n = c.hands.get(i).map_or(0, Vec::len);
            line.push_str(&format!(", {}", count(n, "chip")));
        }
        line.push_str(&traders_text(game, i));
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&format!(
        "  {} left to draw\n",
        count(game.tiles_left(), "tile")
    ));
    if let Some(h) = game.halves() {
        let mine: Vec<String> = h
            .hands
            .get(seat)
            .into_iter()
            .flatten()
            .map(|&t| format!("{} ({})", game.catalog().tile(t).id, tile_summary(game, t)))
            .collect();
        if !mine.is_empty() {
            s.push_str(&format!("  your halves: {}\n", mine.join("; ")));
        }
    }
    if let Some(c) = game.chips() {
        let mine: Vec<String> = c
            .hands
            .get(seat)
            .into_iter()
            .flatten()
            .map(|ch| ch.label())
            .collect();
        if !mine.is_empty() {
            s.push_str(&format!("  your chips: {}\n", mine.join(", ")));
        }
    }
    if let Some(g) = game.gingerbread() {
        match g.city() {
            Some(city) => {
                let (pos, place) = game.feature(city).anchor();
                s.push_str(&format!(
                    "  the gingerbread man is in the city at ({}, {}) {place}\n",
                    pos.x, pos.y
                ));
            }
            None => s.push_str("  the gingerbread man is set aside\n"),
        }
    }
    if let Some(pl) = game.plague() {
        let fleas: Vec<String> = pl
            .fleas()
            .iter()
            .filter_map(|f| game.board().pieces().get(usize::from(f.piece)))
            .map(|p| format!("({}, {})", p.pos.x, p.pos.y))
            .collect();
        if !fleas.is_empty() {
            s.push_str(&format!(
                "  fleas on {}; {} in the supply\n",
                fleas.join(", "),
                pl.supply()
            ));
        }
    }
    let who = seat_label(game, seat);
    match (game.phase(), game.visible_drawn_tile()) {
        (Phase::Place, Some(t)) => s.push_str(&format!(
            "{who}, your tile is {} ({}):\n{}",
            game.catalog().tile(t).id,
            tile_summary(game, t),
            tile_picture(game, t)
        )),
        (Phase::Place, None) => s.push_str(&format!(
            "{who}, play a half from your hand, or draw a tile (unseen until you draw):\n"
        )),
        (Phase::Follower, _) => {
            let at = game
                .last_piece()
                .and_then(|pi| game.board().pieces().get(usize::from(pi)))
                .map_or(String::new(), |p| {
                    format!(" (your tile at ({}, {}))", p.pos.x, p.pos.y)
                });
            s.push_str(&format!(
                "{who}, put a follower on the tile just placed{at}, or not:\n"
            ));
        }
        (phase, _) => s.push_str(&format!("{who}, {}\n", step_prompt(phase))),
    }
    let cells = legal_cells(game);
    for (i, a) in choices.iter().enumerate() {
        // A placement starts with the letter of its cell on the board, and
        // names its tile when it is a half from the hand.
        let letter = match a {
            Action::Place { pos, tile, .. } => {
                let letter = cells
                    .iter()
                    .position(|c| c == pos)
                    .map_or(String::new(), |k| format!("{} ", cell_letter(k)));
                if Some(*tile) == game.visible_drawn_tile() {
                    letter
                } else {
                    format!("{letter}half {} at ", game.catalog().tile(*tile).id)
                }
            }
            _ => String::new(),
        };
        s.push_str(&format!("  {i:>3}) {letter}{}\n", describe(game, a)));
    }
    s
}

/// The symbols of the board and the commands.
pub fn help_text() -> String {
    "\
Board: each tile is 3 by 3 characters, north up; x grows east, y grows south.
  C city   r road   . field   ~ river   M monastery
  0-5      a follower of that seat (seat numbers as in `replay --as`)
  a-z      a cell where your tile can go (the letter is in the choices)
  ·        an empty square of the map     $  a Chumak square (Map Chips)
Commands (then Enter):
  a number  take that choice
  ?         this help
  b         show the board and the choices again
  u         undo: take back what you did this turn (until the next player moves)
  q         quit: save the game so far (to --out, else standard output);
            continue it later with `bastide play --resume FILE --bots ...`
"
    .to_string()
}

/// One scoring (or discard) in words, or nothing for a silent event.
fn event_text(game: &Game, e: &Event) -> Option<String> {
    let n = game.player_count();
    let who: Vec<String> = e
        .points
        .iter()
        .take(n)
        .enumerate()
        .filter(|(_, p)| **p > 0)
        .map(|(i, p)| format!("{} +{p}", seat_label(game, i)))
        .collect();
    let at = e.at.map_or(String::new(), |(p, c, pl)| {
        let half = c.map_or(String::new(), |c| format!(" half {c}"));
        format!(" at ({}, {}){half} {pl}", p.x, p.y)
    });
    let kind = e.feature.map_or("feature", FeatureKind::name);
    let what = match e.reason {
        Reason::Discarded => {
            let id = e
                .tile
                .map_or("a tile", |t| game.catalog().tile(t).id.as_str());
            return Some(format!("{id} fits nowhere and is discarded"));
        }
        Reason::Plague => {
            let owner = e
                .followers
                .iter()
                .take(n)
                .position(|&f| f > 0)
                .map_or("a".to_string(), |i| format!("{}'s", seat_label(game, i)));
            return Some(format!("a flea sends {owner} follower{at} home"));
        }
        Reason::Outbreak => return Some(format!("plague outbreak {}{at}", e.extra)),
        Reason::Eradicated => return Some(format!("outbreak {} eradicated{at}", e.extra)),
        Reason::Completed => format!("completed {kind}{at}, {}", count_tiles(e)),
        Reason::GameEnd if e.feature == Some(FeatureKind::Field) => {
            format!(
                "farm{at} at game end, {}",
                count_irregular(e.extra as usize, "completed city", "completed cities")
            )
        }
        Reason::GameEnd => format!("unfinished {kind}{at} at game end, {}", count_tiles(e)),
        Reason::Barn => format!(
            "barn scoring of the field{at}, {}",
            count_irregular(e.extra as usize, "completed city", "completed cities")
        ),
        Reason::Gingerbread => format!("the gingerbread man's city{at}"),
        Reason::Chips => "chips of a Chumak square built on".to_string(),
        Reason::Trade => "chips traded onto a Chumak square".to_string(),
        Reason::GoodsTaken => {
            let goods = bastide_engine::Goods::of(e.extra).map_or("goods", |g| g.name());
            let taker = e.followers.iter().take(n).position(|&t| t > 0);
            return taker.map(|i| {
                let k = e.followers[i];
                format!(
                    "{} takes {k} {goods} token{}{at}",
                    seat_label(game, i),
                    if k == 1 { "" } else { "s" }
                )
            });
        }
        Reason::Goods => {
            let goods = bastide_engine::Goods::of(e.extra).map_or("goods", |g| g.name());
            format!("most {goods} at game end")
        }
        Reason::SetAside => {
            let id = e
                .tile
                .map_or("a dragon tile", |t| game.catalog().tile(t).id.as_str());
            return Some(format!("{id} is set aside until the dragon is in play"));
        }
        Reason::Eaten | Reason::Princess => {
            let owner = e
                .followers
                .iter()
                .take(n)
                .position(|&f| f > 0)
                .map_or("a".to_string(), |i| format!("{}'s", seat_label(game, i)));
            let by = if e.reason == Reason::Eaten {
                "the dragon eats"
            } else {
                "the princess sends home"
            };
            return Some(format!("{by} {owner} figure{at}"));
        }
        Reason::Fairy => format!("the fairy{at}"),
        Reason::Capture | Reason::Exchange | Reason::Ransom => {
            let owner = e
                .followers
                .iter()
                .take(n)
                .position(|&f| f > 0)
                .map_or("a".to_string(), |i| format!("{}'s", seat_label(game, i)));
            let actor = seat_label(game, e.extra as usize);
            return Some(match e.reason {
                Reason::Capture => format!("{actor}'s tower captures {owner} follower{at}"),
                Reason::Exchange => "two prisoners are exchanged and go home".to_string(),
                _ => format!("{actor} pays a ransom of 3 points and takes a prisoner back"),
            });
        }
    };
    if who.is_empty() {
        return None;
    }
    Some(format!("{}: {what}", who.join(", ")))
}

fn count_tiles(e: &Event) -> String {
    let mut s = count(e.tiles as usize, "tile");
    if e.feature == Some(FeatureKind::City) && e.extra > 0 {
        s.push_str(&format!(
            ", {}",
            count_irregular(e.extra as usize, "coat of arms", "coats of arms")
        ));
    }
    s
}

/// The features of a tile in its catalog orientation, briefly.
fn tile_summary(game: &Game, t: TileIdx) -> String {
    let def = game.catalog().tile(t);
    let parts: Vec<String> = def
        .features
        .iter()
        .filter(|f| f.kind != FeatureKind::Field)
        .map(|f| {
            let places: Vec<&str> = f
                .places
                .iter()
                .filter(|(_, p)| matches!(p, Place::N | Place::E | Place::S | Place::W))
                .map(|(_, p)| p.name())
                .collect();
            let arms = if f.arms > 0 { " with coat of arms" } else { "" };
            if places.is_empty() {
                format!("{}{arms}", f.kind.name())
            } else {
                format!("{} {}{arms}", f.kind.name(), places.join("-"))
            }
        })
        .collect();
    if parts.is_empty() {
        "fields only".into()
    } else {
        parts.join(", ")
    }
}

/// `(x, y)`, with the half's corner where there is one.
fn at_text(pos: Pos, half: Option<Corner>) -> String {
    match half {
        Some(c) => format!("({}, {}) half {c}", pos.x, pos.y),
        None => format!("({}, {})", pos.x, pos.y),
    }
}

/// A figure as a player names it ("large follower", "mayor", ...): one
/// wording for every action that names a figure, so that a captured
/// mayor or wagon is never called a follower.
fn figure_noun(figure: Figure) -> &'static str {
    match figure {
        Figure::Normal => "follower",
        Figure::Big => "large follower",
        Figure::Builder => "builder",
        Figure::Pig => "pig",
        Figure::Mayor => "mayor",
        Figure::Wagon => "wagon",
    }
}

fn tile_at_text(t: TileAt) -> String {
    at_text(t.pos(), t.half)
}

/// The kind of the feature at a place of the board, in a word.
fn kind_at(game: &Game, pos: Pos, corner: Option<Corner>, place: Place) -> &'static str {
    game.feature_at(pos, corner, place)
        .map_or("feature", |f| game.feature(f).kind().name())
}

/// An action in a few words.
pub fn describe(game: &Game, a: &Action) -> String {
    let cat = game.catalog();
    match *a {
        Action::Draw if game.phase() == Phase::Builder => "draw a second tile (the builder)".into(),
        Action::Draw => "draw a tile instead of playing a tile you hold".into(),
        Action::Pass => match game.phase() {
            Phase::Follower => "no follower".into(),
            Phase::Plague => "end the turn".into(),
            Phase::Builder => "no second tile".into(),
            Phase::Abbey => "keep the abbey: no abbey turn".into(),
            Phase::Dragon => "the dragon cannot move: end its movement".into(),
            Phase::Capture => "capture nobody".into(),
            Phase::Wagon => "take the wagon home".into(),
            _ => "pass".into(),
        },
        Action::Place { tile, pos, .. } if cat.tile(tile).closing_sides => {
            format!(
                "({}, {}) your abbey, instead of drawing (it closes every side it touches)",
                pos.x, pos.y
            )
        }
        Action::Place { tile, pos, rot } => {
            let def = cat.tile(tile);
            let o = def.oriented(rot);
            let sides: Vec<String> = [Place::N, Place::E, Place::S, Place::W]
                .iter()
                .map(|p| {
                    let k = o
                        .place_feature
                        .first()
                        .and_then(|c| def.features.get(usize::from(c[p.index()])))
                        .map(|d| d.kind);
                    format!("{}:{}", p.name(), k.map_or("-", |k| k.name()))
                })
                .collect();
            let half = o
                .half
                .map_or(String::new(), |(c, _)| format!(" right angle {c}"));
            format!(
                "({}, {}) turned {:>3}°{half}  [{}]",
                pos.x,
                pos.y,
                rot.degrees(),
                sides.join(" ")
            )
        }
        Action::Follower {
            pos,
            corner,
            place,
            figure,
        } => format!(
            "{} on the {} at {} {place}",
            figure_noun(figure),
            kind_at(game, pos, corner, place),
            at_text(pos, corner)
        ),
        Action::Trade {
            pos,
            colour,
            ones,
            twos,
        } => {
            let mut chips = Vec::new();
            if ones > 0 {
                chips.push(format!("{ones} {colour} worth 1"));
            }
            if twos > 0 {
                chips.push(format!("{twos} {colour} worth 2"));
            }
            let square = game
                .chips()
                .and_then(|c| c.squares.iter().find(|s| s.pos == pos))
                .map_or("the Chumak square", |s| s.name.as_str());
            format!(
                "trade {} onto {square} at {}",
                chips.join(" and "),
                at_text(pos, None)
            )
        }
        Action::Draft { tile } => format!(
            "take the half {} ({})",
            cat.tile(tile).id,
            tile_summary(game, tile)
        ),
        Action::Gingerbread { pos, corner, place } => format!(
            "move the gingerbread man into the city at {} {place}",
            at_text(pos, corner)
        ),
        Action::Flea { to, from: None } => {
            format!("spread a flea from the supply onto {}", tile_at_text(to))
        }
        Action::Flea { to, from: Some(f) } => format!(
            "move the flea on {} to {}",
            tile_at_text(f),
            tile_at_text(to)
        ),
        Action::Dragon { to } => format!("move the dragon to {}", tile_at_text(to)),
        Action::Barn { at, corner } => format!(
            "put your barn on the {corner} corner of {}",
            tile_at_text(at)
        ),
        Action::Fairy {
            at,
            place: Some(place),
        } => format!(
            "move the fairy next to your follower on the {} at {} {}",
            kind_at(game, at.pos(), at.half, place),
            at_text(at.pos(), at.half),
            place
        ),
        Action::Fairy { at, place: None } => format!(
            "move the fairy next to your follower on the tower at {}",
            tile_at_text(at)
        ),
        Action::Princess { at, seat, figure } => format!(
            "the princess sends home {}'s {} at {} {}",
            seat_label(game, usize::from(seat)),
            match figure {
                Figure::Normal => "knight",
                other => figure_noun(other),
            },
            at_text(at.pos(), at.half),
            at.place
        ),
        Action::Tower { to } => format!("a tower floor onto {}", tile_at_text(to)),
        Action::TowerTop { to, figure } => format!(
            "{} on top of the tower at {}",
            figure_noun(figure),
            tile_at_text(to)
        ),
        Action::Capture {
            at,
            place,
            seat,
            figure,
            exchange,
        } => format!(
            "capture {}'s {} at {} {}{}",
            seat_label(game, usize::from(seat)),
            figure_noun(figure),
            tile_at_text(at),
            place.map_or("on the tower", Place::name),
            exchange.map_or(String::new(), |k| format!(
                " (your {} comes back)",
                figure_noun(k)
            ))
        ),
        Action::Ransom { seat, figure } => format!(
            "pay 3 points to {} for your {}",
            seat_label(game, usize::from(seat)),
            figure_noun(figure)
        ),
        Action::Wagon { to } => format!(
            "move the wagon onto the {} at {} {}",
            kind_at(game, to.pos(), to.half, to.place),
            at_text(to.pos(), to.half),
            to.place
        ),
        Action::Flee { from, to } => format!(
            "the follower on the {} at {} {} flees to {} {}",
            kind_at(game, from.pos(), from.half, from.place),
            at_text(from.pos(), from.half),
            from.place,
            at_text(to.pos(), to.half),
            to.place
        ),
    }
}

/// Cells where the drawn tile can go, in the order of the legal actions.
fn legal_cells(game: &Game) -> Vec<Pos> {
    let mut cells = Vec::new();
    // The tile step, and the steps that offer a tile held (the builder
    // step, the final abbey round).
    if matches!(game.phase(), Phase::Follower | Phase::Over) {
        return cells;
    }
    for a in game.legal_actions() {
        if let Action::Place { pos, .. } = a {
            if !cells.contains(&pos) {
                cells.push(pos);
            }
        }
    }
    cells
}

/// `a` … `z`, then `+` for the rare cell beyond.
fn cell_letter(i: usize) -> char {
    u8::try_from(i)
        .ok()
        .filter(|&i| i < 26)
        .map_or('+', |i| char::from(b'a' + i))
}

fn glyph(k: Option<FeatureKind>) -> char {
    match k {
        Some(FeatureKind::City) => 'C',
        Some(FeatureKind::Road) => 'r',
        Some(FeatureKind::River) => '~',
        Some(FeatureKind::Monastery) => 'M',
        Some(FeatureKind::Field) => '.',
        None => ' ',
    }
}

/// Nine characters for one cell of a turned tile (`part`: which of its
/// cells), row by row.
fn tile_glyphs(
    game: &Game,
    tile: TileIdx,
    rot: bastide_engine::Rotation,
    part: u8,
) -> [[char; 3]; 3] {
    let def = game.catalog().tile(tile);
    let o = def.oriented(rot);
    let at = |pl: Place| {
        o.place_feature
            .get(usize::from(part))
            .and_then(|c| def.features.get(usize::from(c[pl.index()])))
            .map(|d| d.kind)
    };
    let row = |places: [Place; 3]| places.map(|p| glyph(at(p)));
    let mut g = [
        row([Place::Nnw, Place::N, Place::Nne]),
        row([Place::W, Place::C, Place::E]),
        row([Place::Ssw, Place::S, Place::Sse]),
    ];
    if at(Place::C).is_none() {
        // A road, river or city that reaches two sides passes through the
        // middle; two separate city caps or road ends do not. A half tile
        // shows its long side's feature in the middle.
        let cell = o.place_feature.get(usize::from(part));
        let sides = [Place::N, Place::E, Place::S, Place::W];
        let through = cell.and_then(|c| {
            sides.iter().find_map(|p| {
                let f = c[p.index()];
                let kind = def.features.get(usize::from(f))?.kind;
                let reach = sides.iter().filter(|q| c[q.index()] == f).count();
                (reach >= 2 && kind != FeatureKind::Field).then_some(kind)
            })
        });
        g[1][1] = glyph(
            through
                .or_else(|| at(Place::H))
                .or(Some(FeatureKind::Field)),
        );
    }
    g
}

/// The drawn tile as the board would show it unturned, indented.
fn tile_picture(game: &Game, t: TileIdx) -> String {
    let def = game.catalog().tile(t);
    let cells = &def.oriented(bastide_engine::Rotation::default()).cells;
    let mut s = String::new();
    for row in 0..3 {
        s.push_str("      ");
        for part in 0..cells.len() {
            let g = tile_glyphs(game, t, bastide_engine::Rotation::default(), part as u8);
            s.extend(g[row]);
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

/// The board as text: three by three characters a cell (see
/// [`help_text`]), with column and row numbers, one empty cell of margin
/// (the map's squares on a map), and the cells where `choices` place a tile
/// marked with letters.
pub fn board_text(game: &Game, choices: &[Action]) -> String {
    let board = game.board();
    let cat = game.catalog();
    let mut cells: Vec<Pos> = Vec::new();
    for p in board.pieces() {
        for &(dx, dy) in &cat.tile(p.tile).oriented(p.rot).cells {
            cells.push(p.pos.offset(dx, dy));
        }
    }
    let bounds = board.bounds();
    match bounds {
        Some(b) => cells.extend(b.cells()),
        None => {
            let margin: Vec<Pos> = cells
                .iter()
                .flat_map(|p| [p.offset(-1, -1), p.offset(1, 1)])
                .collect();
            cells.extend(margin);
        }
    }
    let targets: Vec<Pos> = if choices.iter().any(|a| matches!(a, Action::Place { .. })) {
        legal_cells(game)
    } else {
        Vec::new()
    };
    cells.extend(&targets);
    let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
        cells.iter().map(|p| p.x).min(),
        cells.iter().map(|p| p.x).max(),
        cells.iter().map(|p| p.y).min(),
        cells.iter().map(|p| p.y).max(),
    ) else {
        return String::new();
    };
    let chumak: Vec<Pos> = game
        .chips()
        .map(|c| c.squares.iter().map(|s| s.pos).collect())
        .unwrap_or_default();
    let mut s = String::from("     ");
    for x in x0..=x1 {
        s.push_str(&format!("{x:^4}"));
    }
    s.push('\n');
    for y in y0..=y1 {
        let mut rows = [String::new(), format!("{y:>4} "), String::new()];
        rows[0].push_str("     ");
        rows[2].push_str("     ");
        for x in x0..=x1 {
            let p = Pos::new(x, y);
            let g = cell_glyphs(game, p).unwrap_or_else(|| {
                let mut g = [[' '; 3]; 3];
                if let Some(i) = targets.iter().position(|c| *c == p) {
                    g[1][1] = cell_letter(i);
                } else if chumak.contains(&p) {
                    g[1][1] = '$';
                } else if bounds.is_some_and(|b| b.contains(p)) {
                    g[1][1] = '·';
                }
                g
            });
            for (r, row) in rows.iter_mut().enumerate() {
                row.extend(g[r]);
                row.push(' ');
            }
        }
        for row in rows {
            s.push_str(row.trim_end());
            s.push('\n');
        }
    }
    if let Some(c) = game.chips() {
        let squares: Vec<String> = c
            .squares
            .iter()
            .filter(|q| !q.built)
            .map(|q| {
                let chips: usize = q.spaces.iter().map(|sp| sp.len()).sum();
                format!(
                    "{} {} {}",
                    q.name,
                    at_text(q.pos, None),
                    count(chips, "chip")
                )
            })
            .collect();
        if !squares.is_empty() {
            s.push_str("  Chumak squares ($):");
            // Three a line, so that the list fits a terminal.
            for (i, q) in squares.iter().enumerate() {
                s.push_str(if i % 3 == 0 { "\n    " } else { "; " });
                s.push_str(q);
            }
            s.push('\n');
        }
    }
    s
}

/// The glyphs of an occupied cell (both halves of a cell of half tiles),
/// with a follower's seat in the middle; `None` for an empty cell.
fn cell_glyphs(game: &Game, p: Pos) -> Option<[[char; 3]; 3]> {
    let board = game.board();
    let mut out: Option<[[char; 3]; 3]> = None;
    for (pi, part) in board.pieces_at(p) {
        let Some(piece) = board.pieces().get(usize::from(pi)) else {
            continue;
        };
        let g = tile_glyphs(game, piece.tile, piece.rot, part);
        let o = out.get_or_insert([[' '; 3]; 3]);
        for r in 0..3 {
            for c in 0..3 {
                if o[r][c] == ' ' {
                    o[r][c] = g[r][c];
                }
            }
        }
    }
    let mut out = out?;
    for f in game.followers() {
        let (fp, place) = game.feature_anchor(f.piece, f.feature);
        if fp == p {
            let (r, c) = grid_spot(place);
            out[r][c] = char::from_digit(f.player.index() as u32, 10).unwrap_or('?');
        }
    }
    Some(out)
}

/// Where a place lies in a cell's 3 by 3 characters (row, column), so that
/// a follower is drawn where it stands.
fn grid_spot(place: Place) -> (usize, usize) {
    match place {
        Place::Nnw | Place::Wnw => (0, 0),
        Place::N => (0, 1),
        Place::Nne | Place::Ene => (0, 2),
        Place::W => (1, 0),
        Place::E => (1, 2),
        Place::Ssw | Place::Wsw => (2, 0),
        Place::S => (2, 1),
        Place::Sse | Place::Ese => (2, 2),
        Place::C | Place::H | Place::H1 | Place::H2 | Place::I1 | Place::I2 => (1, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastide_engine::GameConfig;

    fn game_with_deck(deck: &[&str]) -> Game {
        let mut c = GameConfig::new(2, 1);
        c.deck = Some(deck.iter().map(|s| s.to_string()).collect());
        c.deck_only = true;
        Game::new(c).expect("a valid test deck")
    }

    #[test]
    fn an_inner_field_is_offered_by_its_place_and_drawn_in_the_middle() {
        let mut c = GameConfig::from_sets(2, 1, &["base", "traders-builders"]).expect("sets");
        c.deck = Some(vec!["traders-builders/C".to_string()]);
        c.deck_only = true;
        let mut game = Game::new(c).expect("a valid test deck");
        let tile = game.drawn_tile().expect("a drawn tile");
        let pos = Pos::new(0, -1);
        game.try_apply(&Action::Place {
            tile,
            pos,
            rot: bastide_engine::Rotation::default(),
        })
        .expect("C closes the start tile's city");
        let inner = Action::Follower {
            pos,
            corner: None,
            place: Place::I1,
            figure: Figure::Normal,
        };
        assert!(game.legal_actions().contains(&inner));
        assert_eq!(
            describe(&game, &inner),
            "follower on the field at (0, -1) I1"
        );
        assert_eq!(grid_spot(Place::I1), (1, 1));
    }

    #[test]
    fn captures_and_ransoms_name_the_figure_taken() {
        let game = game_with_deck(&["base/D"]);
        let at = TileAt::new(Pos::new(0, 0), None).expect("a cell");
        let capture = Action::Capture {
            at,
            place: Some(Place::N),
            seat: 1,
            figure: Figure::Mayor,
            exchange: Some(Figure::Wagon),
        };
        let text = describe(&game, &capture);
        assert!(text.contains("'s mayor at"), "{text}");
        assert!(text.ends_with("(your wagon comes back)"), "{text}");
        let ransom = Action::Ransom {
            seat: 1,
            figure: Figure::Big,
        };
        assert!(describe(&game, &ransom).ends_with("for your large follower"));
    }

    #[test]
    fn a_monastery_in_fields_is_offered_once_per_cell() {
        let game = game_with_deck(&["base/B", "base/B"]);
        let legal = game.legal_actions();
        let distinct = distinct_placements(&game, &legal);
        let cells = legal_cells(&game);
        assert_eq!(legal.len(), 4 * cells.len());
        assert_eq!(distinct.len(), cells.len());
    }

    #[test]
    fn symmetric_tiles_are_offered_once_per_distinct_look() {
        // Two city caps on opposite sides look the same turned half round,
        // though the catalog numbers the caps differently; a crossroads
        // looks the same every way; a plain road bend never does.
        for (tile, ways) in [("base/H", 2), ("base/C", 1), ("base/V", 4)] {
            let game = game_with_deck(&[tile]);
            let t = game.drawn_tile().expect("a drawn tile");
            let pos = Pos::new(0, 7);
            let legal: Vec<Action> = bastide_engine::Rotation::ALL
                .iter()
                .map(|&rot| Action::Place { tile: t, pos, rot })
                .collect();
            assert_eq!(distinct_placements(&game, &legal).len(), ways, "{tile}");
        }
    }

    #[test]
    fn each_players_goods_and_special_figures_are_shown() {
        let mut c = GameConfig::new(2, 1);
        c.expansions = vec!["traders-builders".into()];
        let game = Game::new(c).expect("a Traders & Builders game");
        let text = position_text(&game, &game.legal_actions());
        assert_eq!(
            text.matches(", goods 0 wine 0 grain 0 cloth, builder in supply, pig in supply")
                .count(),
            2,
            "{text}"
        );
        let plain = game_with_deck(&["base/B"]);
        assert!(!position_text(&plain, &plain.legal_actions()).contains("goods"));
    }

    #[test]
    fn other_actions_are_all_kept() {
        let game = game_with_deck(&["base/B"]);
        let legal = vec![Action::Pass, Action::Pass];
        assert_eq!(distinct_placements(&game, &legal), legal);
    }

    #[test]
    fn features_pass_through_the_middle_only_when_they_join() {
        let game = game_with_deck(&["base/H", "base/U", "base/V"]);
        let glyphs = |id: &str| {
            let t = game.catalog().find(id).expect("a catalog tile");
            tile_glyphs(&game, t, bastide_engine::Rotation::default(), 0)
        };
        // Two city caps, north and south, with the field between them.
        assert_eq!(glyphs("base/H"), [['C'; 3], ['.'; 3], ['C'; 3]]);
        // A straight road and a bend both run through the middle.
        assert_eq!(glyphs("base/U")[1], ['r', 'r', 'r']);
        assert_eq!(glyphs("base/V")[1], ['r', 'r', '.']);
    }

    #[test]
    fn a_follower_shows_its_seat_number_where_it_stands() {
        let mut game = game_with_deck(&["base/E", "base/E"]);
        let t = game.drawn_tile().expect("a drawn tile");
        let rot = bastide_engine::Rotation::from_degrees(180).expect("a rotation");
        let pos = Pos::new(0, 1);
        game.try_apply(&Action::Place { tile: t, pos, rot })
            .expect("the cap's fields meet the start tile's");
        game.try_apply(&Action::Follower {
            pos,
            corner: None,
            place: Place::S,
            figure: Figure::Normal,
        })
        .expect("the city is free");
        // Seat 0's knight on the open city south of the start tile.
        let board = board_text(&game, &[]);
        let rows: Vec<&str> = board.lines().collect();
        let cap = rows
            .iter()
            .position(|r| r.starts_with("   1"))
            .expect("row 1");
        assert_eq!(rows.get(cap + 1).map(|r| r.trim()), Some("C0C"), "{board}");
    }

    #[test]
    fn scores_are_told_with_their_reason_and_silent_events_are_not() {
        let game = game_with_deck(&["base/B"]);
        let mut farm = Event {
            reason: Reason::GameEnd,
            feature: Some(FeatureKind::Field),
            at: Some((Pos::new(0, 0), None, Place::E)),
            tiles: 0,
            extra: 2,
            points: [0, 6, 0, 0, 0, 0],
            followers: [0, 1, 0, 0, 0, 0],
            tile: None,
        };
        assert_eq!(
            event_text(&game, &farm).as_deref(),
            Some("seat 1 BLUE +6: farm at (0, 0) E at game end, 2 completed cities")
        );
        farm.points = [0; 6];
        assert_eq!(event_text(&game, &farm), None);
    }

    #[test]
    fn counts_read_well() {
        assert_eq!(count(1, "player"), "1 player");
        assert_eq!(count(3, "player"), "3 players");
        assert_eq!(count_irregular(2, "half", "halves"), "2 halves");
        assert_eq!(example_bots(3), "human,random,random");
    }
}
