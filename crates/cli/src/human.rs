//! `bastide play`: a whole game between bots and people at the terminal.
//! A person sees the board as text, the scores and the tile to place, and
//! picks one of the numbered legal actions.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use bastide_bots::{Bot, BotSpec, View};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::{Action, FeatureKind, Game, Phase, Place, Pos};

/// Who sits in a seat.
enum Seat {
    Human,
    Bot(Box<dyn Bot>),
}

/// Plays a game with `bots` (one spec per seat, `human` for a person) and
/// writes or prints its record.
pub fn play(
    players: usize,
    seed: u64,
    bots: &[String],
    sets: &[String],
    out: Option<PathBuf>,
) -> Result<()> {
    if bots.len() != players {
        bail!(
            "--bots names {} players but --players is {players}: give one bot per seat",
            bots.len()
        );
    }
    let mut seats = Vec::new();
    for (i, b) in bots.iter().enumerate() {
        if b.trim() == "human" {
            seats.push(Seat::Human);
        } else {
            let spec = BotSpec::parse(b).map_err(|e| anyhow::anyhow!("{e}, or human"))?;
            seats.push(Seat::Bot(
                spec.build(seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64)),
            ));
        }
    }
    let humans = seats.iter().any(|s| matches!(s, Seat::Human));
    let config = crate::config_for(players, seed, sets)?;
    let mut game = Game::new(config.clone())?;
    let mut rec = Record::new(config);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    while !game.is_finished() {
        let seat = game.current_player();
        let legal = game.legal_actions();
        let action = match &mut seats[seat] {
            Seat::Human => ask(&game, &legal, &mut input)?,
            Seat::Bot(bot) => {
                let a = if legal.len() == 1 {
                    legal[0]
                } else {
                    bot.choose(&View::new(&game))
                };
                if humans && a != Action::Pass {
                    println!(
                        "{} ({}) plays: {}",
                        game.config().players[seat],
                        bot.name(),
                        describe(&game, &a)
                    );
                }
                a
            }
        };
        rec.actions
            .push(ActionJson::from_action(&action, game.catalog()));
        game.try_apply(&action)
            .with_context(|| format!("seat {seat} chose an illegal action"))?;
    }
    let names = &rec.config.players;
    let line: Vec<String> = names
        .iter()
        .zip(game.scores())
        .map(|(n, s)| format!("{n} {s}"))
        .collect();
    if humans {
        println!("{}", board_text(&game));
        println!("game over: {}", line.join(", "));
    }
    let json = rec.to_json();
    match out {
        Some(path) => {
            std::fs::write(&path, json + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!(
                "{} ({} actions) written to {}",
                line.join(", "),
                rec.actions.len(),
                path.display()
            );
        }
        None => println!("{json}"),
    }
    Ok(())
}

/// Shows the position and asks for an action number until one is valid.
fn ask(game: &Game, legal: &[Action], input: &mut impl BufRead) -> Result<Action> {
    let seat = game.current_player();
    let name = &game.config().players[seat];
    let mut out = std::io::stdout().lock();
    if game.phase() == Phase::Place {
        writeln!(out, "\n{}", board_text(game))?;
    }
    let scores: Vec<String> = game
        .config()
        .players
        .iter()
        .zip(game.players())
        .enumerate()
        .map(|(i, (n, p))| {
            format!(
                "{}{n} {} pts, {} followers",
                if i == seat { "*" } else { "" },
                p.score,
                p.supply
            )
        })
        .collect();
    writeln!(
        out,
        "{}  |  {} tiles left",
        scores.join("; "),
        game.tiles_left()
    )?;
    if let Some(t) = game.drawn_tile() {
        let def = game.catalog().tile(t);
        writeln!(
            out,
            "{name}, your tile: {} ({})",
            def.id,
            tile_summary(game, t)
        )?;
    } else {
        writeln!(
            out,
            "{name}, place a follower on the tile just placed, or pass:"
        )?;
    }
    for (i, a) in legal.iter().enumerate() {
        writeln!(out, "  {i:>3}) {}", describe(game, a))?;
    }
    loop {
        write!(
            out,
            "{name}, your choice (0–{}, q to quit): ",
            legal.len() - 1
        )?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            bail!("the input ended before the game did");
        }
        let t = line.trim();
        if t == "q" || t == "quit" {
            bail!("game abandoned by {name}");
        }
        match t.parse::<usize>() {
            Ok(i) if i < legal.len() => return Ok(legal[i]),
            _ => writeln!(
                out,
                "{t:?} is not one of the numbers 0 to {}",
                legal.len() - 1
            )?,
        }
    }
}

fn kind_word(k: FeatureKind) -> &'static str {
    k.name()
}

/// The features of a tile in its catalog orientation, briefly.
fn tile_summary(game: &Game, t: bastide_engine::TileIdx) -> String {
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
                format!("{}{arms}", kind_word(f.kind))
            } else {
                format!("{} {}{arms}", kind_word(f.kind), places.join("-"))
            }
        })
        .collect();
    if parts.is_empty() {
        "fields only".into()
    } else {
        parts.join(", ")
    }
}

/// An action in a few words.
pub fn describe(game: &Game, a: &Action) -> String {
    let cat = game.catalog();
    match *a {
        Action::Pass => "pass".into(),
        Action::Place { tile, pos, rot } => {
            let o = cat.tile(tile).oriented(rot);
            let def = cat.tile(tile);
            let sides: Vec<String> = [Place::N, Place::E, Place::S, Place::W]
                .iter()
                .map(|p| {
                    let f = o.place_feature[0][p.index()];
                    let k = def.features.get(f as usize).map(|d| d.kind);
                    format!("{}:{}", p.name(), k.map_or("-", |k| short(k)))
                })
                .collect();
            format!(
                "place {} at ({}, {}) turned {:>3}°  [{}]",
                def.id,
                pos.x,
                pos.y,
                rot.degrees(),
                sides.join(" ")
            )
        }
        Action::Follower { pos, corner, place } => {
            let kind = game
                .board()
                .node_at(cat, pos, corner, place)
                .map(|n| game.board().kind(n));
            format!(
                "follower on the {} at ({}, {}) {}",
                kind.map_or("feature", kind_word),
                pos.x,
                pos.y,
                place
            )
        }
        // The other actions read well in the record's own words.
        _ => serde_json::to_string(&bastide_engine::record::ActionJson::from_action(a, cat))
            .unwrap_or_else(|_| format!("{a:?}")),
    }
}

fn short(k: FeatureKind) -> &'static str {
    match k {
        FeatureKind::City => "city",
        FeatureKind::Road => "road",
        FeatureKind::River => "river",
        FeatureKind::Monastery => "monastery",
        FeatureKind::Field => "field",
    }
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

/// The board as text: three by three characters a cell (`C` city, `r` road,
/// `.` field, `~` river, `M` monastery; a digit is the seat of a follower on
/// that cell), with column and row numbers.
pub fn board_text(game: &Game) -> String {
    let board = game.board();
    let cat = game.catalog();
    let mut cells: Vec<Pos> = Vec::new();
    for p in board.pieces() {
        for &(dx, dy) in &cat.tile(p.tile).oriented(p.rot).cells {
            cells.push(p.pos.offset(dx, dy));
        }
    }
    let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
        cells.iter().map(|p| p.x).min(),
        cells.iter().map(|p| p.x).max(),
        cells.iter().map(|p| p.y).min(),
        cells.iter().map(|p| p.y).max(),
    ) else {
        return String::new();
    };
    let mut s = String::from("     ");
    for x in x0..=x1 {
        s.push_str(&format!("{x:^4}"));
    }
    s.push('\n');
    for y in y0..=y1 {
        for row in 0..3 {
            if row == 1 {
                s.push_str(&format!("{y:>4} "));
            } else {
                s.push_str("     ");
            }
            for x in x0..=x1 {
                s.push_str(&cell_row(game, Pos::new(x, y), row));
                s.push(' ');
            }
            s.push('\n');
        }
    }
    s
}

fn cell_row(game: &Game, p: Pos, row: usize) -> String {
    let board = game.board();
    let cat = game.catalog();
    let Some((pi, part)) = board.pieces_at(p).next() else {
        return "   ".into();
    };
    let piece = board.pieces()[pi as usize];
    let def = cat.tile(piece.tile);
    let o = def.oriented(piece.rot);
    let at = |pl: Place| {
        let f = o.place_feature[part as usize][pl.index()];
        def.features.get(f as usize).map(|d| d.kind)
    };
    let places = match row {
        0 => [Place::Nnw, Place::N, Place::Nne],
        1 => [Place::W, Place::C, Place::E],
        _ => [Place::Ssw, Place::S, Place::Sse],
    };
    let mut out: String = places.iter().map(|pl| glyph(at(*pl))).collect();
    if row == 1 {
        let follower = game.followers().iter().find(|f| {
            let (fp, _) = game.feature_anchor(f.piece, f.feature);
            fp == p
        });
        let centre = match follower {
            Some(f) => char::from_digit(f.player as u32 + 1, 10).unwrap_or('?'),
            None => match at(Place::C) {
                Some(k) => glyph(Some(k)),
                None => {
                    // A road or river through the middle shows through.
                    let ns = (at(Place::N), at(Place::S));
                    let ew = (at(Place::E), at(Place::W));
                    match (ns, ew) {
                        ((Some(a), Some(b)), _) if a == b && a != FeatureKind::Field => {
                            glyph(Some(a))
                        }
                        (_, (Some(a), Some(b))) if a == b && a != FeatureKind::Field => {
                            glyph(Some(a))
                        }
                        _ => '.',
                    }
                }
            },
        };
        out = format!("{}{}{}", glyph(at(Place::W)), centre, glyph(at(Place::E)));
    }
    out
}
