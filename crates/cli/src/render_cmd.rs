//! `bastide render` and `bastide catalog`: pictures of boards and tiles.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bastide_engine::COORD_LIMIT;
use bastide_engine::{Catalog, Rotation};
use bastide_render::{BoardOptions, RenderError};
use clap::Args;

/// Arguments of `bastide render`.
#[derive(Args)]
pub struct RenderArgs {
    /// The record file (`-` for standard input); not with --tile.
    #[arg(required_unless_present = "tile")]
    record: Option<PathBuf>,
    /// Draw the board after this many actions (default: all of them).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::parse_at)]
    at: Option<usize>,
    /// Output file: `.svg` or `.png` (default: SVG on standard output).
    #[arg(short = 'o', long)]
    out: Option<PathBuf>,
    /// Show cell coordinates and dashed cell lines.
    #[arg(long)]
    grid: bool,
    /// Highlight the cells where the drawn tile may be placed.
    #[arg(long)]
    legal: bool,
    /// Leave out the players' legend under the board.
    #[arg(long)]
    no_legend: bool,
    /// Highlight one feature, named by a place of a placed tile:
    /// `X,Y,PLACE` or `X,Y,PLACE,HALF` (e.g. `0,0,N`; `2,-1,E,NW`); X and Y
    /// from -16000 to 16000.
    #[arg(long, value_name = "X,Y,PLACE[,HALF]", allow_hyphen_values = true)]
    highlight: Option<String>,
    /// Draw one tile instead of a board, by id (`base/D`).
    #[arg(long, conflicts_with_all = ["record", "at", "grid", "legal", "no_legend", "highlight"])]
    tile: Option<String>,
    /// The tile's rotation with --tile: 0, 90, 180 or 270 (clockwise;
    /// default 0).
    // `requires` alone lets `render g.json --rotation 90` through (clap
    // excuses a missing required argument that conflicts with one given:
    // --tile conflicts with RECORD), and the rotation was silently ignored;
    // hence also `conflicts_with`.
    #[arg(
        long,
        requires = "tile",
        conflicts_with = "record",
        allow_negative_numbers = true
    )]
    rotation: Option<i64>,
    /// Scale factor for PNG output (more than 0, at most 16).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    zoom: f32,
}

/// Arguments of `bastide catalog`.
#[derive(Args)]
pub struct CatalogArgs {
    /// The tile set (`base`, `winter`, …); default: every set.
    set: Option<String>,
    /// Output file: `.svg` or `.png` (default: SVG on standard output).
    #[arg(short = 'o', long)]
    out: Option<PathBuf>,
    /// Scale factor for PNG output (more than 0, at most 16).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    zoom: f32,
}

/// Largest `--zoom`: 16 times the SVG's size is poster size already; the
/// renderer refuses pictures past its pixel budget anyway, but this says so
/// in terms of the flag.
pub const MAX_ZOOM: f32 = 16.0;

enum Format {
    Svg,
    Png,
}

fn format_of(out: Option<&Path>) -> Result<Format> {
    let Some(path) = out else {
        return Ok(Format::Svg);
    };
    if path.as_os_str() == "-" {
        return Ok(Format::Svg);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => bail!(
            "cannot tell the picture format of {}: name the output file *.svg or *.png",
            path.display()
        ),
    }
}

/// Writes an SVG picture where `out` says, converting it to PNG if asked.
fn emit(svg: String, out: Option<&Path>, zoom: f32) -> Result<()> {
    let format = format_of(out)?;
    // `!(…)`: NaN fails every comparison.
    if !(zoom.is_finite() && zoom > 0.0 && zoom <= MAX_ZOOM) {
        bail!("--zoom {zoom}: give a scale more than 0 and at most {MAX_ZOOM}");
    }
    let bytes = match format {
        Format::Svg => svg.into_bytes(),
        Format::Png => bastide_render::svg_to_png(&svg, zoom)?,
    };
    match out {
        Some(path) if path.as_os_str() != "-" => std::fs::write(path, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?,
        _ => {
            let mut stdout = crate::stdout();
            // The io::Error stays in the chain: `main` ends quietly when
            // it is a broken pipe.
            stdout
                .write_all(&bytes)
                .and_then(|_| stdout.flush())
                .context("cannot write the picture to standard output")?;
        }
    }
    Ok(())
}

/// `bastide render`.
pub fn render(args: RenderArgs) -> Result<()> {
    if let Some(id) = &args.tile {
        let degrees = args.rotation.unwrap_or(0);
        let rotation = Rotation::from_degrees(degrees).with_context(|| {
            format!("--rotation {degrees} is not a rotation: use 0, 90, 180 or 270")
        })?;
        let catalog = Catalog::builtin();
        let svg = bastide_render::tile_svg(&catalog, id, rotation)?;
        return emit(svg, args.out.as_deref(), args.zoom);
    }
    let Some(path) = &args.record else {
        bail!("give a record file to draw, or --tile ID for a single tile");
    };
    let rec = crate::read_record(path)?;
    let total = rec.actions.len();
    let at = args.at.unwrap_or(total);
    if at > total {
        bail!("--at {at} is past the end: the record has {total} actions, so use at most {total}");
    }
    let game = rec
        .replay_to(at)
        .with_context(|| format!("cannot replay {}", path.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "record".into());
    let state = if game.is_finished() {
        "game over".to_string()
    } else {
        match game.tiles_left() {
            1 => "1 tile left".to_string(),
            n => format!("{n} tiles left"),
        }
    };
    let opts = BoardOptions {
        grid: args.grid,
        legal: args.legal,
        legend: !args.no_legend,
        title: Some(format!("{name}: after {at} of {total} actions, {state}")),
        ..BoardOptions::default()
    };
    let mut scene = bastide_render::Scene::of_game(&game);
    if let Some(h) = &args.highlight {
        let (pos, corner, place) = parse_highlight(h)?;
        scene.highlight_feature(&game, pos, corner, place)?;
    }
    emit(
        bastide_render::scene_svg(&scene, &opts),
        args.out.as_deref(),
        args.zoom,
    )
}

/// Reads `X,Y,PLACE[,HALF]`.
fn parse_highlight(
    text: &str,
) -> Result<(
    bastide_engine::Pos,
    Option<bastide_engine::Corner>,
    bastide_engine::Place,
)> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let usage = || format!("--highlight {text:?}: write X,Y,PLACE or X,Y,PLACE,HALF, e.g. 0,0,N");
    if !(3..=4).contains(&parts.len()) {
        bail!(usage());
    }
    let x = coordinate(parts[0], "X", text)?;
    let y = coordinate(parts[1], "Y", text)?;
    let place = parts[2]
        .parse()
        .map_err(|e: String| anyhow::anyhow!("{}: {e}", usage()))?;
    let corner = match parts.get(3) {
        Some(c) => Some(
            c.parse()
                .map_err(|e: String| anyhow::anyhow!("{}: {e}", usage()))?,
        ),
        None => None,
    };
    Ok((bastide_engine::Pos::new(x, y), corner, place))
}

/// One coordinate of `--highlight`, within the engine's [`COORD_LIMIT`]:
/// further out the board's packed cell keys used to wrap, so `32768,0`
/// named the start tile. Checked here rather than with `Pos::checked` so
/// the message names the flag.
fn coordinate(part: &str, axis: &str, text: &str) -> Result<i32> {
    // Read wide, so `99999999999` gets the range too, not "too large".
    match part.parse::<i64>() {
        // Not `v.abs()`: it overflows on i64::MIN.
        Ok(v) if (-i64::from(COORD_LIMIT)..=i64::from(COORD_LIMIT)).contains(&v) => {
            i32::try_from(v).map_err(anyhow::Error::from)
        }
        _ => bail!(
            "--highlight {text:?}: {axis} must be a whole number from -{COORD_LIMIT} to {COORD_LIMIT}, not {part:?}"
        ),
    }
}

/// `bastide catalog`.
pub fn catalog(args: CatalogArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let svg = bastide_render::catalog_svg(&catalog, args.set.as_deref()).map_err(|e| match e {
        RenderError::UnknownSet { .. } => anyhow::anyhow!("{e}"),
        other => other.into(),
    })?;
    emit(svg, args.out.as_deref(), args.zoom)
}
