//! Python bindings of Bastide: the `bastide._bastide` extension module
//! behind the `bastide` package (`python/bastide`).
//!
//! Everything here is a thin, checked layer over the engine's public API:
//! games step through [`Game::try_apply`] (so every position stays legal),
//! actions are numbered by the engine's [`ActionCodec`], observations are
//! its observation tensor, records are its [`Record`]. Inputs from Python
//! are bounded before they reach the engine (sizes named by the `MAX_*`
//! constants below) and every engine error becomes a Python exception with
//! the engine's message.

#![warn(missing_docs)]

use std::sync::Mutex;

use bastide_bots::{Bot, BotSpec, View};
use bastide_engine::expansions::Family;
use bastide_engine::limits::MAX_RECORD_BYTES;
use bastide_engine::openspiel::{
    explicit_record, follower_kind_index, halves_dealt, tokens_drawn, ActionCodec,
    ObservationTensor, Outcome, State,
};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::Catalog;
use bastide_engine::{Action, Figure, Game, GameConfig, Seat, Shape, TileIdx};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyByteArray, PyDict, PyFloat, PyString, PyTuple};

create_exception!(
    bastide,
    BastideError,
    PyValueError,
    "Base class of Bastide's errors (a ValueError)."
);
create_exception!(
    bastide,
    IllegalAction,
    BastideError,
    "An action the rules do not allow here; the game is unchanged. The message is the engine's."
);
create_exception!(
    bastide,
    ConfigError,
    BastideError,
    "A configuration that is not a playable game. The message is the engine's."
);
create_exception!(
    bastide,
    RecordError,
    BastideError,
    "A record that cannot be read or replayed. The message is the engine's."
);

/// The most games one [`PyVectorGame`] steps: 65,536 (about 2 GB of game
/// state in the worst case), so a typo cannot exhaust memory.
pub const MAX_VECTOR_GAMES: usize = 1 << 16;
/// The most threads a [`PyVectorGame`] uses.
pub const MAX_THREADS: usize = 256;
/// The largest dense action mask built (entries): 2²⁴. The codec's full
/// space with the Plague is about 9·10¹⁰ indices and cannot be a mask.
pub const MAX_MASK: usize = 1 << 24;
/// The largest batch of masks or observations returned at once (entries).
pub const MAX_BATCH_ENTRIES: usize = 1 << 28;
/// Radius bounds of the action window (cells with `|x|, |y| ≤ radius`).
pub const MIN_RADIUS: i32 = 1;
/// See [`MIN_RADIUS`].
pub const MAX_RADIUS: i32 = 64;
/// The longest `sets` argument taken (characters of a string, or ids).
pub const MAX_SETS_TEXT: usize = 4096;
/// The most random actions one `step_random` call takes per game.
pub const MAX_STEPS: u64 = 1 << 20;

/// `current_player` at a chance node (OpenSpiel's value).
pub const CHANCE_PLAYER: i64 = -1;
/// `current_player` when the game is over (OpenSpiel's value).
pub const TERMINAL_PLAYER: i64 = -4;

mod bot;
mod convert;
mod game;
mod vector;

use bot::*;
use convert::*;
use game::*;
use vector::*;

/// The set ids a game may name, for help texts.
#[pyfunction]
fn known_sets() -> Vec<&'static str> {
    let mut v = vec!["base", "winter"];
    v.extend(bastide_engine::expansions::registry::known_keys());
    v.push("ukraine");
    v
}

/// The extension module.
#[pymodule]
fn _bastide(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyGame>()?;
    m.add_class::<PyVectorGame>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(known_sets, m)?)?;
    m.add("BastideError", py.get_type::<BastideError>())?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("MAX_VECTOR_GAMES", MAX_VECTOR_GAMES)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("MAX_MASK", MAX_MASK)?;
    m.add("CHANCE_PLAYER", CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", TERMINAL_PLAYER)?;
    Ok(())
}
