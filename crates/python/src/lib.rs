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
use bastide_engine::openspiel::{follower_kind_index, ActionCodec, ObservationTensor, State};
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::rng::Rng;
use bastide_engine::Catalog;
use bastide_engine::{Action, Figure, Game, GameConfig, Phase, Seat, TileIdx};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyByteArray, PyDict, PyString, PyTuple};

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

fn illegal(msg: impl Into<String>) -> PyErr {
    IllegalAction::new_err(msg.into())
}

fn config_err(msg: impl Into<String>) -> PyErr {
    ConfigError::new_err(msg.into())
}

/// Python's `json` module, imported once.
fn json_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static JSON: GILOnceCell<Py<PyModule>> = GILOnceCell::new();
    Ok(JSON
        .get_or_try_init(py, || py.import("json").map(Bound::unbind))?
        .bind(py))
}

/// NumPy's `frombuffer`, imported once.
fn frombuffer(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static F: GILOnceCell<Py<PyAny>> = GILOnceCell::new();
    Ok(F.get_or_try_init(py, || {
        py.import("numpy")?.getattr("frombuffer").map(Bound::unbind)
    })?
    .bind(py))
}

/// NumPy's `ndarray` type and the dtypes the environments' observations
/// use, looked up once: `ndarray(shape, dtype, buffer, offset)` is the
/// cheapest way to wrap a buffer (a third of `frombuffer` and `reshape`).
struct Numpy {
    ndarray: Py<PyAny>,
    float32: Py<PyAny>,
    int16: Py<PyAny>,
    int8: Py<PyAny>,
}

fn numpy(py: Python<'_>) -> PyResult<&Numpy> {
    static NP: GILOnceCell<Numpy> = GILOnceCell::new();
    NP.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        let dtype = |name: &str| -> PyResult<Py<PyAny>> {
            Ok(np.getattr("dtype")?.call1((name,))?.unbind())
        };
        Ok(Numpy {
            ndarray: np.getattr("ndarray")?.unbind(),
            float32: dtype("float32")?,
            int16: dtype("int16")?,
            int8: dtype("int8")?,
        })
    })
}

/// An array of `dtype` and `shape` over `buf` from byte `offset`.
fn view<'py>(
    buf: &Bound<'py, PyByteArray>,
    dtype: &Py<PyAny>,
    shape: &[usize],
    offset: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let py = buf.py();
    numpy(py)?
        .ndarray
        .bind(py)
        .call1((PyTuple::new(py, shape)?, dtype.bind(py), buf, offset))
}

/// Which action mask [`PyGame::_env_observation`] builds (any other
/// value: all zero): the codec indices of the legal actions.
const MASK_CODEC: u8 = 1;
/// Or the first `k` entries, `k` the number of legal actions (legal mode).
const MASK_FIRST: u8 = 2;

/// Columns of a row of the compact observation's `pieces`: x, y, tile
/// index, rotation (quarter turns), half-tile corner (−1 for a whole
/// tile, else NW NE SE SW as 0–3), placed this turn (0/1).
pub const PIECE_COLUMNS: usize = 6;
/// Columns of a row of `followers`: relative seat, piece row, feature of
/// the piece, kind (road, city, monastery, field or other as 0–3), large
/// follower (0/1), and the x, y of the cell that names the feature (as
/// the planes show it).
pub const FOLLOWER_COLUMNS: usize = 7;

/// Rows of the compact observation's `pieces` for a configuration: the
/// pieces the set-up places plus the bound on moves, each move placing at
/// most one piece (a fixed number, so the observation has a fixed shape).
fn piece_rows(config: &GameConfig) -> usize {
    Game::new(config.clone()).map_or(0, |g| game_piece_rows(&g))
}

/// [`piece_rows`] of a game at its start.
fn game_piece_rows(game: &Game) -> usize {
    game.board().pieces().len() + bastide_engine::openspiel::max_game_length(game)
}

/// Rows of `followers`: every follower of every seat, the large one too.
fn follower_rows(game: &Game) -> usize {
    game.player_count() * (usize::from(game.options().followers) + 1)
}

/// JSON text of a Python value: a `str` is taken as JSON text, anything
/// else is serialised with `json.dumps`. Refused over the record size limit.
fn json_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let text: String = if let Ok(s) = obj.downcast::<PyString>() {
        s.extract::<String>()?
    } else {
        json_module(obj.py())?
            .call_method1("dumps", (obj,))?
            .extract()?
    };
    if text.len() > MAX_RECORD_BYTES {
        return Err(PyValueError::new_err(format!(
            "the JSON text is {} bytes; at most {MAX_RECORD_BYTES} are taken",
            text.len()
        )));
    }
    Ok(text)
}

/// A Python value from JSON text made by the engine.
fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    json_module(py)?.call_method1("loads", (text,))
}

/// A NumPy array of `data` with `shape`, in a fresh writable buffer.
///
/// The buffer is made by copying the bytes (`PyByteArray::new`), never by
/// zero-filling first: a zeroed allocation of this size comes fresh from
/// the kernel, and faulting its pages in cost 50 times the copy (1 ms for
/// a 0.5 MB observation).
fn f32_array<'py>(py: Python<'py>, data: &[f32], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "float32", shape)
}

/// A NumPy array of `i64` values with `shape`.
fn i64_array<'py>(py: Python<'py>, data: &[i64], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "int64", shape)
}

/// A NumPy array of `f64` values with `shape`.
fn f64_array<'py>(py: Python<'py>, data: &[f64], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "float64", shape)
}

/// A NumPy array of bytes (`int8` or `bool`) with `shape`.
fn u8_array<'py>(
    py: Python<'py>,
    data: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, data, dtype, shape)
}

/// A NumPy array of `dtype` over a copy of `bytes` (native byte order).
fn typed_array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    frombuffer(py)?
        .call1((PyByteArray::new(py, bytes), dtype))?
        .call_method1("reshape", (shape.to_vec(),))
}

/// An integer argument in `lo..=hi`, with the range in the message (Python
/// ints are unbounded; a negative seed must not wrap silently).
fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let v: i128 = obj.extract().map_err(|_| {
        PyValueError::new_err(format!("{what} must be an integer from {lo} to {hi}"))
    })?;
    if !(lo..=hi).contains(&v) {
        return Err(PyValueError::new_err(format!(
            "{what} must be from {lo} to {hi}, not {v}"
        )));
    }
    Ok(v)
}

/// The configuration of a new game from the Python arguments: a record's
/// `config` (dict or JSON text), or a set list (`"base,river1"` or a list of
/// ids) with players and seed; `options` and `seed` override.
fn make_config(
    config: Option<&Bound<'_, PyAny>>,
    sets: Option<&Bound<'_, PyAny>>,
    players: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameConfig> {
    let seed = seed
        .map(|s| int_in(s, "seed", 0, u64::MAX as i128).map(|v| v as u64))
        .transpose()?;
    let mut c = match config {
        Some(cfg) => {
            if sets.is_some() || players.is_some() {
                return Err(config_err("give either a config or sets/players, not both"));
            }
            let text = json_text(cfg)?;
            serde_json::from_str::<GameConfig>(&text)
                .map_err(|e| config_err(format!("bad configuration: {e}")))?
        }
        None => {
            let n = match players {
                Some(p) => int_in(p, "players", 2, 6)? as usize,
                None => 2,
            };
            let list: Vec<String> = match sets {
                None => vec!["base".to_string()],
                Some(s) => {
                    // Bounded before anything is copied out of Python.
                    if s.len().is_ok_and(|n| n > MAX_SETS_TEXT) {
                        return Err(config_err(format!(
                            "sets is too long: at most {MAX_SETS_TEXT} characters or ids"
                        )));
                    }
                    if let Ok(text) = s.downcast::<PyString>() {
                        text.extract::<String>()?
                            .split(',')
                            .map(str::to_string)
                            .collect()
                    } else {
                        s.extract::<Vec<String>>().map_err(|_| {
                            config_err("sets must be a string such as \"base,river1\" or a list of set ids")
                        })?
                    }
                }
            };
            if list.len() > 64 {
                return Err(config_err(format!(
                    "sets names {} entries; at most 64 are taken",
                    list.len()
                )));
            }
            GameConfig::from_sets(n, seed.unwrap_or(0), &list)
                .map_err(|e| config_err(e.to_string()))?
        }
    };
    if let Some(s) = seed {
        c.seed = s;
    }
    if let Some(o) = options {
        let text = json_text(o)?;
        let extra: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)
            .map_err(|e| {
                config_err(format!("options must be a mapping of names to values: {e}"))
            })?;
        for (k, v) in extra {
            c.options.insert(k, v);
        }
    }
    // Checked here, once, so every later `Game::new` of this config succeeds.
    Game::new(c.clone()).map_err(|e| config_err(e.to_string()))?;
    Ok(c)
}

/// The codec of a game: the drawn-tile slot only, unless Half-and-half
/// puts halves in hands (then the two hand slots too), so the action space
/// of a game without halves is a third as large.
fn codec_for(game: &Game, radius: i32) -> PyResult<ActionCodec> {
    if !(MIN_RADIUS..=MAX_RADIUS).contains(&radius) {
        return Err(config_err(format!(
            "radius must be from {MIN_RADIUS} to {MAX_RADIUS}, not {radius}"
        )));
    }
    let slots = if game.expansions().has_family(Family::Halves) {
        3
    } else {
        1
    };
    Ok(ActionCodec { radius, slots })
}

/// A game, with chance nodes either resolved by the seeded pile (`Plain`)
/// or explicit (`Explicit`, OpenSpiel style).
#[derive(Clone)]
enum Core {
    Plain(Game),
    Explicit(State),
}

impl Core {
    fn game(&self) -> &Game {
        match self {
            Core::Plain(g) => g,
            Core::Explicit(s) => s.game(),
        }
    }

    fn is_chance(&self) -> bool {
        matches!(self, Core::Explicit(s) if s.is_chance())
    }

    fn current_player(&self) -> i64 {
        if self.game().is_finished() {
            TERMINAL_PLAYER
        } else if self.is_chance() {
            CHANCE_PLAYER
        } else {
            self.game().current_player().index() as i64
        }
    }

    fn apply(&mut self, a: &Action) -> Result<(), bastide_engine::IllegalAction> {
        match self {
            Core::Plain(g) => g.try_apply(a),
            Core::Explicit(s) => s.apply(a),
        }
    }

    fn tensor(&self, codec: &ActionCodec, seat: Seat) -> ObservationTensor {
        match self {
            Core::Plain(g) => codec.observation_tensor(g, seat),
            Core::Explicit(s) => codec.state_tensor(s, seat),
        }
    }

    /// `seat`'s observation as NumPy `float32` arrays `(cells, globals)`,
    /// the cell planes written straight into the memory their array owns
    /// (no second 0.5 MB copy: that copy was most of an observation's cost).
    fn tensor_arrays<'py>(
        &self,
        py: Python<'py>,
        codec: &ActionCodec,
        seat: Seat,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let w = codec.width();
        let planes = codec.tensor_shape(self.game()).0;
        let mut globals = None;
        let buf = PyByteArray::new_with(py, codec.tensor_cells(self.game()) * 4, |bytes| {
            // A bytearray's memory comes from Python's allocator, aligned
            // for `f32` in practice; a misaligned one takes the copy.
            match bytemuck::try_cast_slice_mut::<u8, f32>(bytes) {
                Ok(cells) => {
                    globals = match self {
                        Core::Plain(g) => codec.observation_tensor_into(g, seat, cells),
                        Core::Explicit(s) => codec.state_tensor_into(s, seat, cells),
                    };
                }
                Err(_) => {
                    let t = self.tensor(codec, seat);
                    bytes.copy_from_slice(bytemuck::cast_slice(&t.cells));
                    globals = Some(t.globals);
                }
            }
            Ok(())
        })?;
        let globals =
            globals.ok_or_else(|| PyValueError::new_err("the observation's size did not match"))?;
        Ok((
            view(&buf, &numpy(py)?.float32, &[planes, w, w], 0)?,
            f32_array(py, &globals, &[globals.len()])?,
        ))
    }
}

/// What `Game._restore` takes: the configuration and the player actions as
/// record JSON (the deck as configured, not fixed by the draws), explicit
/// chance, radius, and the chance outcomes as (player actions before it,
/// tile id).
type RestoreArgs = (String, bool, i32, Vec<(usize, String)>);

/// One Bastide game: legal actions as the engine codec's integers (or as
/// record JSON), apply, chance nodes, returns, observation tensors, records.
#[pyclass(module = "bastide._bastide", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    core: Core,
    codec: ActionCodec,
    /// See [`action_space`].
    space: usize,
    config: GameConfig,
    /// Player actions taken, in order (for records).
    history: Vec<Action>,
    /// Explicit mode: the tiles placed from the pile, in order (the
    /// record's deck).
    draws: Vec<TileIdx>,
    /// Explicit mode: the chance outcomes applied, each with the number of
    /// player actions before it (pickling replays both exactly).
    chances: Vec<(usize, TileIdx)>,
    /// Rows of the compact observation's `pieces` ([`piece_rows`]).
    piece_rows: usize,
    /// The legal codec indices here, once `_legal_actions_cached` asked
    /// (the environments' masks reuse them); cleared by every action.
    legal_cache: Option<Vec<usize>>,
}

impl PyGame {
    fn new_from(config: GameConfig, explicit: bool, radius: i32) -> PyResult<PyGame> {
        let game = Game::new(config.clone()).map_err(|e| config_err(e.to_string()))?;
        let codec = codec_for(&game, radius)?;
        // On a map the set-up takes the second start tile from the pile:
        // with explicit chance, it is the record deck's first tile.
        let draws = if explicit && config.map.is_some() {
            game.board()
                .pieces()
                .iter()
                .skip(1)
                .map(|p| p.tile)
                .collect()
        } else {
            Vec::new()
        };
        let core = if explicit {
            Core::Explicit(State::at_draw(game))
        } else {
            Core::Plain(game)
        };
        let space = codec.num_distinct_actions(core.game());
        let piece_rows = game_piece_rows(core.game());
        Ok(PyGame {
            core,
            codec,
            space,
            config,
            history: Vec::new(),
            draws,
            chances: Vec::new(),
            piece_rows,
            legal_cache: None,
        })
    }

    /// The globals of `seat`'s observation, without its planes.
    fn globals_of(&self, seat: Seat) -> Vec<f32> {
        match &self.core {
            Core::Plain(g) => self.codec.observation_globals(g, seat),
            Core::Explicit(s) => self.codec.state_globals(s, seat),
        }
    }

    /// Refuses a position whose pieces or followers overflow the compact
    /// observation's rows (never seen: [`piece_rows`] bounds the moves).
    fn check_rows(&self) -> PyResult<()> {
        let g = self.core.game();
        let (pieces, followers) = (g.board().pieces().len(), g.followers().len());
        let (prows, frows) = (self.piece_rows, follower_rows(g));
        if pieces > prows || followers > frows {
            return Err(PyRuntimeError::new_err(format!(
                "{pieces} pieces and {followers} followers overflow the compact observation's {prows} and {frows} rows"
            )));
        }
        Ok(())
    }

    /// Writes the compact observation's `pieces` then `followers` rows of
    /// `seat` (`i16`, native order; see [`PIECE_COLUMNS`] and
    /// [`FOLLOWER_COLUMNS`]) into `out`, which holds exactly them.
    fn compact_rows(&self, seat: Seat, out: &mut [u8]) {
        let g = self.core.game();
        out.fill(0xFF); // every value -1
        let (p, f) = out.split_at_mut(2 * self.piece_rows * PIECE_COLUMNS);
        let put = |row: &mut [u8], vals: &[i16]| {
            for (b, v) in row.chunks_exact_mut(2).zip(vals) {
                b.copy_from_slice(&v.to_ne_bytes());
            }
        };
        let coord = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        let last = g.last_piece();
        let pieces = g.board().pieces().iter().enumerate();
        for ((i, pc), r) in pieces.zip(p.chunks_exact_mut(2 * PIECE_COLUMNS)) {
            let corner = pc.corner.map_or(-1, |c| c as i16);
            let rows = [
                coord(pc.pos.x),
                coord(pc.pos.y),
                pc.tile.0 as i16,
                pc.rot.quarters() as i16,
                corner,
                i16::from(last == Some(i as u16)),
            ];
            put(r, &rows);
        }
        let n = g.player_count();
        for (fo, r) in g
            .followers()
            .iter()
            .zip(f.chunks_exact_mut(2 * FOLLOWER_COLUMNS))
        {
            let kind = follower_kind_index(g.follower_kind(fo)) as i16;
            let (pos, _) = g.feature_anchor(fo.piece, fo.feature);
            let row = [
                fo.player.after(seat, n) as i16,
                fo.piece as i16,
                i16::from(fo.feature),
                kind,
                i16::from(fo.figure == Figure::Big),
                coord(pos.x),
                coord(pos.y),
            ];
            put(r, &row);
        }
    }

    /// The compact observation of `seat` and a mask of `mask_len` entries
    /// ([`PyGame::mask_into`]) in one fresh buffer, as arrays: `pieces`,
    /// `followers`, `globals`, `action_mask`.
    #[allow(clippy::type_complexity)]
    fn compact_arrays<'py>(
        &mut self,
        py: Python<'py>,
        seat: Seat,
        mask_mode: u8,
        mask_len: usize,
    ) -> PyResult<[Bound<'py, PyAny>; 4]> {
        self.check_rows()?;
        let globals = self.globals_of(seat);
        let (p, f) = (self.piece_rows, follower_rows(self.core.game()));
        let gb = 4 * globals.len();
        let f_at = gb + 2 * p * PIECE_COLUMNS;
        let m_at = f_at + 2 * f * FOLLOWER_COLUMNS;
        if mask_mode == MASK_CODEC || mask_mode == MASK_FIRST {
            self.cache_legal();
        }
        let buf = PyByteArray::new_with(py, m_at + mask_len, |b| {
            b[..gb].copy_from_slice(bytemuck::cast_slice(&globals));
            self.compact_rows(seat, &mut b[gb..m_at]);
            self.mask_into(mask_mode, &mut b[m_at..]);
            Ok(())
        })?;
        let np = numpy(py)?;
        Ok([
            view(&buf, &np.int16, &[p, PIECE_COLUMNS], gb)?,
            view(&buf, &np.int16, &[f, FOLLOWER_COLUMNS], f_at)?,
            view(&buf, &np.float32, &[globals.len()], 0)?,
            view(&buf, &np.int8, &[mask_len], m_at)?,
        ])
    }

    /// Fills [`PyGame::legal_cache`].
    fn cache_legal(&mut self) {
        if self.legal_cache.is_none() {
            self.legal_cache = Some(self.legal_actions());
        }
    }

    /// The action mask of `mode` ([`MASK_CODEC`], [`MASK_FIRST`] or none)
    /// into `m` (zeroed, its length the mask's), from the legal actions
    /// cached by [`PyGame::cache_legal`].
    fn mask_into(&self, mode: u8, m: &mut [u8]) {
        let legal = match &self.legal_cache {
            Some(l) if mode == MASK_CODEC || mode == MASK_FIRST => l,
            _ => return,
        };
        if self.core.game().is_finished() {
            return;
        }
        if mode == MASK_CODEC {
            for &i in legal {
                if let Some(x) = m.get_mut(i) {
                    *x = 1;
                }
            }
        } else {
            let k = legal.len().min(m.len());
            m[..k].fill(1);
        }
    }

    fn catalog(&self) -> &Catalog {
        self.core.game().catalog()
    }

    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let g = self.core.game();
        let n = g.player_count();
        usize::try_from(seat)
            .ok()
            .and_then(|s| g.seat(s))
            .ok_or_else(|| {
                PyIndexError::new_err(format!("seat must be 0 to {}, not {seat}", n - 1))
            })
    }

    /// The engine action named by a Python action: a codec index or a
    /// record-form dict / JSON text.
    fn action_of(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if self.core.is_chance() {
            return Err(illegal(
                "turn: this is a chance node: apply a chance outcome (the draw) first",
            ));
        }
        if let Ok(i) = action.extract::<i128>() {
            let n = self.space;
            let idx = usize::try_from(i)
                .ok()
                .filter(|i| *i < n)
                .ok_or_else(|| illegal(format!("action index {i} is outside 0..{n}")))?;
            return self.codec.decode(self.core.game(), idx).ok_or_else(|| {
                illegal(format!(
                    "action index {idx} names no action in this position"
                ))
            });
        }
        let text = json_text(action)?;
        let written: ActionJson = serde_json::from_str(&text)
            .map_err(|e| illegal(format!("not an action of the record format: {e}")))?;
        written
            .to_action(self.catalog())
            .map_err(|e| illegal(e.to_string()))
    }

    fn apply_action(&mut self, a: Action) -> PyResult<()> {
        // A placement of the drawn tile consumes a draw; a half played from
        // the hand instead puts the drawn tile back (Half-and-half), so only
        // the first kind goes into the record's deck.
        let drawn = match (&self.core, a) {
            (Core::Explicit(s), Action::Place { tile, .. })
                if s.game().drawn_tile() == Some(tile) =>
            {
                Some(tile)
            }
            _ => None,
        };
        self.core.apply(&a).map_err(|e| illegal(e.to_string()))?;
        self.legal_cache = None;
        self.history.push(a);
        self.draws.extend(drawn);
        Ok(())
    }

    fn record(&self) -> Record {
        let mut config = self.config.clone();
        let game = self.core.game();
        // The tile chance gave for the placement now due, if any.
        let decided = match self.core {
            Core::Explicit(_) if !self.core.is_chance() && game.phase() == Phase::Place => {
                game.drawn_tile()
            }
            _ => None,
        };
        if matches!(self.core, Core::Explicit(_)) && (!self.draws.is_empty() || decided.is_some()) {
            // Chance chose the draws: the record fixes the tiles placed from
            // the pile, then the one drawn for the placement now due, as the
            // deck's first tiles, so it replays the same game. A `deck_only`
            // pile keeps its other tiles after them.
            let cat = self.catalog();
            let mut deck: Vec<String> = self
                .draws
                .iter()
                .chain(decided.iter())
                .map(|t| cat.tile(*t).id.clone())
                .collect();
            if config.deck_only {
                if decided.is_none() {
                    deck.extend(game.drawn_tile().map(|t| cat.tile(t).id.clone()));
                }
                deck.extend(game.pile_in_order().map(|t| cat.tile(t).id.clone()));
            }
            config.deck = Some(deck);
        }
        let cat = self.catalog();
        Record {
            format: bastide_engine::record::FORMAT,
            config,
            actions: self
                .history
                .iter()
                .map(|a| ActionJson::from_action(a, cat))
                .collect(),
        }
    }

    /// Applies action `i` of a record being replayed; errors name it.
    fn apply_record_action(&mut self, i: usize, aj: &ActionJson) -> PyResult<()> {
        let at = |e: String| RecordError::new_err(format!("action {i}: {e}"));
        let a = aj
            .to_action(self.catalog())
            .map_err(|e| at(e.to_string()))?;
        self.apply_action(a).map_err(|e| at(e.to_string()))
    }

    /// Applies the chance outcome `t` and remembers it for pickling.
    fn chance_to(&mut self, t: TileIdx) -> PyResult<()> {
        match &mut self.core {
            Core::Explicit(s) => {
                s.apply_chance(t)
                    .map_err(|e| illegal(format!("chance: {e}")))?;
                self.legal_cache = None;
                self.chances.push((self.history.len(), t));
                Ok(())
            }
            Core::Plain(_) => Err(illegal(
                "chance: this game draws by itself; make it with explicit_chance=True",
            )),
        }
    }

    fn tile_index(&self, tile: &Bound<'_, PyAny>) -> PyResult<TileIdx> {
        let kinds = self.catalog().tiles().len();
        if let Ok(i) = tile.extract::<i128>() {
            return usize::try_from(i)
                .ok()
                .filter(|i| *i < kinds)
                .map(|i| TileIdx(i as u16))
                .ok_or_else(|| illegal(format!("tile index {i} is outside 0..{kinds}")));
        }
        let id: String = tile
            .extract()
            .map_err(|_| illegal("a tile is a catalog index or an id such as \"base/U\""))?;
        self.catalog().find(&id).ok_or_else(|| {
            illegal(format!(
                "unknown tile id {}",
                bastide_engine::limits::cut(&id)
            ))
        })
    }
}

#[pymethods]
impl PyGame {
    /// A new game. Give a record's `config` (dict or JSON text), or `sets`
    /// (`"base,river1"` or a list), `players` (2–6) and `seed`; `options`
    /// adds rule options. `explicit_chance=True` makes the draws chance
    /// nodes (OpenSpiel style); otherwise the seeded pile draws by itself.
    /// `radius` sets the action/observation window (1–64, default 30).
    #[new]
    #[pyo3(signature = (config=None, *, sets=None, players=None, seed=None, options=None, explicit_chance=false, radius=ActionCodec::DEFAULT_RADIUS))]
    fn py_new(
        config: Option<&Bound<'_, PyAny>>,
        sets: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        explicit_chance: bool,
        radius: i32,
    ) -> PyResult<PyGame> {
        let c = make_config(config, sets, players, seed, options)?;
        PyGame::new_from(c, explicit_chance, radius)
    }

    /// A game replayed from a record (dict or JSON text).
    #[staticmethod]
    #[pyo3(signature = (record, *, explicit_chance=false, radius=ActionCodec::DEFAULT_RADIUS))]
    fn from_record(
        record: &Bound<'_, PyAny>,
        explicit_chance: bool,
        radius: i32,
    ) -> PyResult<PyGame> {
        let text = json_text(record)?;
        let rec = Record::parse(&text).map_err(|e| RecordError::new_err(e.to_string()))?;
        // The engine's replay first: its errors name the action's index.
        rec.replay()
            .map_err(|e| RecordError::new_err(e.to_string()))?;
        let mut g = PyGame::new_from(rec.config.clone(), explicit_chance, radius)?;
        for (i, aj) in rec.actions.iter().enumerate() {
            if let Core::Explicit(s) = &mut g.core {
                if s.is_chance() {
                    // The record's draw is the one the pile gives.
                    if let Some(d) = s.game().drawn_tile() {
                        s.apply_chance(d)
                            .map_err(|e| RecordError::new_err(format!("action {i}: {e}")))?;
                    }
                }
            }
            g.apply_record_action(i, aj)?;
        }
        Ok(g)
    }

    /// The game's configuration as a dict (a record's `config`).
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.config)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        from_json(py, &text)
    }

    /// Number of players.
    #[getter]
    fn num_players(&self) -> usize {
        self.core.game().player_count()
    }

    /// Size of the action space: codec indices are `0..num_actions`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.space
    }

    /// Radius of the action and observation window.
    #[getter]
    fn radius(&self) -> i32 {
        self.codec.radius
    }

    /// Whether the draws are explicit chance nodes.
    #[getter]
    fn explicit_chance(&self) -> bool {
        matches!(self.core, Core::Explicit(_))
    }

    /// The seat to act; -1 at a chance node, -4 when the game is over
    /// (OpenSpiel's values).
    #[getter]
    fn current_player(&self) -> i64 {
        self.core.current_player()
    }

    /// Whether chance (the draw) acts now.
    #[getter]
    fn is_chance(&self) -> bool {
        self.core.is_chance()
    }

    /// Whether the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.core.game().is_finished()
    }

    /// The step the game waits for: `place`, `follower`, `gingerbread`,
    /// `draft`, `plague` or `over`.
    #[getter]
    fn phase(&self) -> String {
        format!("{:?}", self.core.game().phase()).to_lowercase()
    }

    /// Tiles still to draw (the drawn tile not included).
    #[getter]
    fn tiles_left(&self) -> usize {
        self.core.game().tiles_left()
    }

    /// An upper bound on the moves left, draws included (OpenSpiel's
    /// `max_game_length` when asked at the start; docs/openspiel.md).
    #[getter]
    fn max_game_length(&self) -> usize {
        bastide_engine::openspiel::max_game_length(self.core.game())
    }

    /// Number of player actions taken so far.
    #[getter]
    fn move_number(&self) -> usize {
        self.history.len()
    }

    /// Tile ids in catalog order: a chance outcome's index names one, and
    /// the observation's tile one-hots follow this order.
    #[getter]
    fn tile_ids(&self) -> Vec<String> {
        self.catalog()
            .tiles()
            .iter()
            .map(|t| t.id.clone())
            .collect()
    }

    /// The legal actions as codec indices, ascending (none at a chance or
    /// terminal node).
    fn legal_actions(&self) -> Vec<usize> {
        match &self.core {
            Core::Explicit(s) if s.is_chance() => Vec::new(),
            c => self.codec.legal_indices(c.game()),
        }
    }

    /// The legal actions as `int8` 0/1 over `0..num_actions`.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.space;
        if n > MAX_MASK {
            return Err(PyValueError::new_err(format!(
                "the action space has {n} indices (the Plague's flights), too many for a mask (at most {MAX_MASK}); use legal_actions()"
            )));
        }
        let mut m = vec![0u8; n];
        for i in self.legal_actions() {
            m[i] = 1;
        }
        u8_array(py, &m, "int8", &[n])
    }

    /// The legal actions in the record format (dicts), in engine order.
    fn legal_actions_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let acts = match &self.core {
            Core::Explicit(s) if s.is_chance() => Vec::new(),
            c => c.game().legal_actions(),
        };
        let cat = self.catalog();
        let written: Vec<ActionJson> = acts
            .iter()
            .map(|a| ActionJson::from_action(a, cat))
            .collect();
        let text =
            serde_json::to_string(&written).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        from_json(py, &text)
    }

    /// The record-format dict of codec index `index` here.
    fn action_to_json<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = self.action_of(index)?;
        let text = serde_json::to_string(&ActionJson::from_action(&a, self.catalog()))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        from_json(py, &text)
    }

    /// The codec index of a record-format action (dict or JSON text) here.
    fn json_to_action(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let a = self.action_of(action)?;
        self.codec.encode(self.core.game(), &a).ok_or_else(|| {
            illegal("this action has no index here: it lies outside the window (a larger radius) or names another tile")
        })
    }

    /// Applies a player's action: a codec index or a record-format dict.
    /// Raises `IllegalAction` (game unchanged) if the rules forbid it.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        // An index from the cached legal list (the environments' steps):
        // its action is legal here, so the engine need not check it again.
        if let (Some(legal), Core::Plain(g), Ok(i)) =
            (&self.legal_cache, &mut self.core, action.extract::<usize>())
        {
            if legal.binary_search(&i).is_ok() {
                if let Some(a) = self.codec.decode(g, i) {
                    g.apply_legal(&a);
                    self.legal_cache = None;
                    self.history.push(a);
                    return Ok(());
                }
            }
        }
        let a = self.action_of(action)?;
        self.apply_action(a)
    }

    /// At a chance node: the tiles that may be drawn, as `(tile index,
    /// probability)` (see `tile_ids`). Empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        match &self.core {
            Core::Explicit(s) => s
                .chance_outcomes()
                .into_iter()
                .map(|(t, p)| (t.0 as usize, p))
                .collect(),
            Core::Plain(_) => Vec::new(),
        }
    }

    /// Applies a chance outcome: the tile (index or id) drawn now.
    fn apply_chance(&mut self, tile: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = self.tile_index(tile)?;
        self.chance_to(t)
    }

    /// Zero-sum win/loss returns (zeros while the game runs).
    fn returns(&self) -> Vec<f64> {
        self.core.game().returns()
    }

    /// Points per seat.
    fn scores(&self) -> Vec<u32> {
        self.core.game().scores()
    }

    /// What `seat` sees as NumPy `float32` arrays `(cells, globals)`:
    /// `cells` is `planes × W × W` (`planes = 26 + 4·players` plus the
    /// expansions' planes), `globals` a
    /// vector (layout in docs/openspiel.md; seats relative to `seat`).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let seat = self.seat(seat)?;
        self.core.tensor_arrays(py, &self.codec, seat)
    }

    /// Shapes of `observation`: `((planes, W, W), (globals,))`.
    #[getter]
    fn observation_shape(&self) -> ((usize, usize, usize), (usize,)) {
        let w = self.codec.width();
        let (planes, globals) = self.codec.tensor_shape(self.core.game());
        ((planes, w, w), (globals,))
    }

    /// What `seat` sees, compactly: `(pieces, followers, globals)`.
    /// `pieces` is `int16[P, 6]`, a row per piece placed, in placement
    /// order (x, y, tile index, rotation in quarter turns, half-tile corner
    /// or −1, placed this turn), then rows of −1; `followers` is
    /// `int16[F, 7]`, a row per follower on the board (relative seat, piece
    /// row, feature, kind: road city monastery field as 0–3, large, x, y
    /// of the cell naming the feature), then rows of −1; `globals` is
    /// `observation`'s globals. Shapes in `compact_shape`.
    fn compact_observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let seat = self.seat(seat)?;
        let [p, f, g, _] = self.compact_arrays(py, seat, 0, 0)?;
        Ok((p, f, g))
    }

    /// Shapes of `compact_observation`: `((P, 6), (F, 7), (globals,))`.
    #[getter]
    fn compact_shape(&self) -> ((usize, usize), (usize, usize), (usize,)) {
        let game = self.core.game();
        (
            (self.piece_rows, PIECE_COLUMNS),
            (follower_rows(game), FOLLOWER_COLUMNS),
            (self.codec.tensor_shape(game).1,),
        )
    }

    /// The environments' observation of `seat` in one call: a dict of
    /// `compact_observation`'s arrays (`pieces`, `followers`, `globals`) or
    /// of `observation`'s (`observation`, `globals`), and `action_mask`,
    /// `int8[mask_len]`: none (`mask_mode` 0), the legal codec indices (1)
    /// or the first as many entries as there are legal actions (2).
    fn _env_observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        compact: bool,
        mask_len: usize,
        mask_mode: u8,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat(seat)?;
        if mask_len > MAX_MASK {
            return Err(PyValueError::new_err(format!(
                "a mask of {mask_len} entries; at most {MAX_MASK}"
            )));
        }
        let d = PyDict::new(py);
        if compact {
            let [p, f, g, m] = self.compact_arrays(py, seat, mask_mode, mask_len)?;
            d.set_item("pieces", p)?;
            d.set_item("followers", f)?;
            d.set_item("globals", g)?;
            d.set_item("action_mask", m)?;
            return Ok(d);
        }
        let (cells, globals) = self.core.tensor_arrays(py, &self.codec, seat)?;
        d.set_item("observation", cells)?;
        d.set_item("globals", globals)?;
        if mask_mode == MASK_CODEC || mask_mode == MASK_FIRST {
            self.cache_legal();
        }
        let buf = PyByteArray::new_with(py, mask_len, |b| {
            self.mask_into(mask_mode, b);
            Ok(())
        })?;
        d.set_item("action_mask", view(&buf, &numpy(py)?.int8, &[mask_len], 0)?)?;
        Ok(d)
    }

    /// For the environments' steps: `apply(action)`, then
    /// `(current_player, legal)`, `legal` the legal actions of the seat to
    /// act as `_legal_actions_cached()` gives them (empty at a chance or
    /// terminal node): one call instead of four.
    fn _apply_turn(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(i64, Vec<usize>)> {
        self.apply(action)?;
        let seat = self.core.current_player();
        Ok((seat, self._legal_actions_cached()))
    }

    /// `legal_actions()`, kept for the masks of `_env_observation` until
    /// the next action.
    fn _legal_actions_cached(&mut self) -> Vec<usize> {
        self.cache_legal();
        self.legal_cache.clone().unwrap_or_default()
    }

    /// The game record (dict): config plus the actions taken. With explicit
    /// chance, the draws chosen are fixed in the config's `deck`.
    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.record().to_json())
    }

    /// The game record as JSON text.
    fn to_record_json(&self) -> String {
        self.record().to_json()
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// Pickling (Ray, multiprocessing): a game travels as its
    /// configuration, its player actions and, with explicit chance, the
    /// chance outcomes between them, and is replayed step by step: the copy
    /// is the same game exactly in both modes (tiles discarded unseen
    /// included, which a record's deck would not fix).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, RestoreArgs)> {
        let restore = py.get_type::<PyGame>().getattr("_restore")?;
        let cat = self.catalog();
        let steps = Record {
            format: bastide_engine::record::FORMAT,
            config: self.config.clone(),
            actions: self
                .history
                .iter()
                .map(|a| ActionJson::from_action(a, cat))
                .collect(),
        };
        let chances = self
            .chances
            .iter()
            .map(|(at, t)| (*at, cat.tile(*t).id.clone()))
            .collect();
        Ok((
            restore,
            (
                steps.to_json(),
                self.explicit_chance(),
                self.codec.radius,
                chances,
            ),
        ))
    }

    /// The inverse of `__reduce__`: the same steps in the same order.
    #[staticmethod]
    fn _restore(
        steps: &str,
        explicit_chance: bool,
        radius: i32,
        chances: Vec<(usize, String)>,
    ) -> PyResult<PyGame> {
        let rec = Record::parse(steps).map_err(|e| RecordError::new_err(e.to_string()))?;
        let mut g = PyGame::new_from(rec.config.clone(), explicit_chance, radius)?;
        let mut chances = chances.into_iter().peekable();
        for i in 0..=rec.actions.len() {
            while let Some((_, id)) = chances.next_if(|(at, _)| *at == i) {
                let t = g.catalog().find(&id).ok_or_else(|| {
                    RecordError::new_err(format!(
                        "unknown tile id {}",
                        bastide_engine::limits::cut(&id)
                    ))
                })?;
                g.chance_to(t)?;
            }
            let Some(aj) = rec.actions.get(i) else { break };
            g.apply_record_action(i, aj)?;
        }
        Ok(g)
    }

    fn __repr__(&self) -> String {
        let g = self.core.game();
        format!(
            "Game(base={:?}, expansions={:?}, players={}, seed={}, moves={}, phase={}, scores={:?})",
            self.config.base,
            self.config.expansions,
            g.player_count(),
            self.config.seed,
            self.history.len(),
            format!("{:?}", g.phase()).to_lowercase(),
            g.scores()
        )
    }
}

/// One game of a [`PyVectorGame`].
struct Slot {
    game: Game,
    rng: Rng,
    history: Vec<Action>,
    seed: u64,
    /// Returns of the game that ended at the last step (auto-reset).
    last_returns: Vec<f64>,
    buf: Vec<Action>,
}

impl Slot {
    /// A new game of `config` with `seed`. The configuration was checked
    /// when the vector was made and only the seed differs, so this fails
    /// only if a seed could break a configuration; the error is kept, never
    /// a panic.
    fn new(config: &GameConfig, seed: u64) -> Result<Slot, String> {
        let mut c = config.clone();
        c.seed = seed;
        let game = Game::new(c).map_err(|e| format!("seed {seed}: {e}"))?;
        Ok(Slot {
            rng: Rng::for_stream(seed, 0x5EC7),
            history: Vec::new(),
            seed,
            last_returns: Vec::new(),
            buf: Vec::with_capacity(256),
            game,
        })
    }

    /// One uniformly random legal action; false when the game is over.
    fn random_step(&mut self) -> bool {
        self.game.legal_actions_into(&mut self.buf);
        if self.buf.is_empty() {
            return false;
        }
        let a = self.buf[self.rng.below(self.buf.len() as u64) as usize];
        self.game.apply_legal(&a);
        self.history.push(a);
        true
    }
}

/// Runs `f` on every slot, on up to `threads` threads.
fn for_each_slot(slots: &mut [Slot], threads: usize, f: impl Fn(usize, &mut Slot) + Sync) {
    if threads <= 1 || slots.len() < 2 {
        for (i, s) in slots.iter_mut().enumerate() {
            f(i, s);
        }
        return;
    }
    let chunk = slots.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (c, part) in slots.chunks_mut(chunk).enumerate() {
            let f = &f;
            scope.spawn(move || {
                for (j, s) in part.iter_mut().enumerate() {
                    f(c * chunk + j, s);
                }
            });
        }
    });
}

/// N games stepped together, with the GIL released: random or given
/// actions, results as NumPy arrays. Game `i` starts from seed `seed + i`;
/// with `auto_reset`, a finished game starts again with the next unused
/// seed. At most 65,536 games and 256 threads.
#[pyclass(module = "bastide._bastide", name = "VectorGame")]
pub struct PyVectorGame {
    slots: Vec<Slot>,
    config: GameConfig,
    codec: ActionCodec,
    space: usize,
    next_seed: u64,
    auto_reset: bool,
    threads: usize,
}

impl PyVectorGame {
    fn reset_finished(&mut self) -> PyResult<()> {
        for s in &mut self.slots {
            if s.game.is_finished() {
                s.last_returns = s.game.returns();
                if self.auto_reset {
                    let seed = self.next_seed;
                    self.next_seed = self.next_seed.wrapping_add(1);
                    let last = std::mem::take(&mut s.last_returns);
                    *s = Slot::new(&self.config, seed).map_err(config_err)?;
                    s.last_returns = last;
                }
            }
        }
        Ok(())
    }

    fn players(&self) -> usize {
        self.config.players.len()
    }
}

#[pymethods]
impl PyVectorGame {
    /// `n` games (1–65,536) of one configuration (as for `Game`), seeds
    /// `seed, seed+1, …`; `threads` (1–256) splits each call over threads.
    #[new]
    #[pyo3(signature = (n, config=None, *, sets=None, players=None, seed=None, options=None, auto_reset=true, threads=None, radius=ActionCodec::DEFAULT_RADIUS))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        n: &Bound<'_, PyAny>,
        config: Option<&Bound<'_, PyAny>>,
        sets: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        auto_reset: bool,
        threads: Option<&Bound<'_, PyAny>>,
        radius: i32,
    ) -> PyResult<PyVectorGame> {
        let n = int_in(n, "n", 1, MAX_VECTOR_GAMES as i128)? as usize;
        let threads = match threads {
            Some(t) => int_in(t, "threads", 1, MAX_THREADS as i128)? as usize,
            None => 1,
        };
        let c = make_config(config, sets, players, seed, options)?;
        let probe = Game::new(c.clone()).map_err(|e| config_err(e.to_string()))?;
        let codec = codec_for(&probe, radius)?;
        let space = codec.num_distinct_actions(&probe);
        let base = c.seed;
        let slots = (0..n as u64)
            .map(|i| Slot::new(&c, base.wrapping_add(i)))
            .collect::<Result<Vec<Slot>, String>>()
            .map_err(config_err)?;
        Ok(PyVectorGame {
            slots,
            next_seed: base.wrapping_add(n as u64),
            config: c,
            codec,
            space,
            auto_reset,
            threads,
        })
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Size of the action space (as `Game.num_actions`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.space
    }

    /// Restarts every game; seeds `seed, seed+1, …` (default: the next
    /// unused seeds).
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        if let Some(s) = seed {
            self.next_seed = int_in(s, "seed", 0, u64::MAX as i128)? as u64;
        }
        for s in &mut self.slots {
            *s = Slot::new(&self.config, self.next_seed).map_err(config_err)?;
            self.next_seed = self.next_seed.wrapping_add(1);
        }
        Ok(())
    }

    /// Every game takes `steps` (1 to 2²⁰) uniformly random legal actions;
    /// finished games restart (with `auto_reset`) or stay over. Returns
    /// `(actions taken, games finished)`.
    #[pyo3(signature = (steps=None))]
    fn step_random(
        &mut self,
        py: Python<'_>,
        steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, u64)> {
        let steps = match steps {
            Some(s) => int_in(s, "steps", 1, MAX_STEPS as i128)? as u64,
            None => 1,
        };
        let (threads, auto, config) = (self.threads, self.auto_reset, &self.config);
        let seeds: Vec<u64> = (0..self.slots.len() as u64)
            .map(|i| self.next_seed.wrapping_add(i.wrapping_mul(steps)))
            .collect();
        let slots = &mut self.slots;
        let failed: Mutex<Option<String>> = Mutex::new(None);
        let (acted, finished) = py.allow_threads(|| {
            let acted = std::sync::atomic::AtomicU64::new(0);
            let finished = std::sync::atomic::AtomicU64::new(0);
            for_each_slot(slots, threads, |i, s| {
                let (mut a, mut f, mut k) = (0u64, 0u64, 0u64);
                for _ in 0..steps {
                    if s.random_step() {
                        a += 1;
                        if s.game.is_finished() {
                            f += 1;
                            if auto {
                                // Each slot draws fresh seeds from its own
                                // range, so threads never share a seed.
                                let seed = seeds[i].wrapping_add(k) ^ (1 << 63);
                                k += 1;
                                let r = s.game.returns();
                                match Slot::new(config, seed) {
                                    Ok(fresh) => *s = fresh,
                                    Err(e) => {
                                        // The finished game stays; the
                                        // error is raised after the call.
                                        if let Ok(mut f) = failed.lock() {
                                            f.get_or_insert(e);
                                        }
                                        break;
                                    }
                                }
                                s.last_returns = r;
                            }
                        }
                    } else {
                        break;
                    }
                }
                acted.fetch_add(a, std::sync::atomic::Ordering::Relaxed);
                finished.fetch_add(f, std::sync::atomic::Ordering::Relaxed);
            });
            (acted.into_inner(), finished.into_inner())
        });
        self.next_seed = self
            .next_seed
            .wrapping_add((self.slots.len() as u64).wrapping_mul(steps));
        if let Some(e) = failed.into_inner().ok().flatten() {
            return Err(config_err(e));
        }
        Ok((acted, finished))
    }

    /// Plays every game to its end with random actions (no reset). Returns
    /// the number of actions taken.
    fn rollout(&mut self, py: Python<'_>) -> u64 {
        let threads = self.threads;
        let slots = &mut self.slots;
        py.allow_threads(|| {
            let acted = std::sync::atomic::AtomicU64::new(0);
            for_each_slot(slots, threads, |_, s| {
                let mut a = 0;
                while s.random_step() {
                    a += 1;
                }
                acted.fetch_add(a, std::sync::atomic::Ordering::Relaxed);
            });
            acted.into_inner()
        })
    }

    /// Applies one codec action per game (`actions[i]` to game `i`; games
    /// already over are skipped, their entry ignored). Games whose action
    /// is illegal are left unchanged and named in the `IllegalAction`
    /// raised after the others have moved. Returns `(returns, done)`:
    /// `float64[n, players]` (non-zero only for a game that just ended) and
    /// `bool[n]` (the game ended at this step; with `auto_reset` it has
    /// restarted already).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Vec<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        if actions.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!(
                "give one action per game: {} games, {} actions",
                self.slots.len(),
                actions.len()
            )));
        }
        let (codec, space, threads) = (self.codec, self.space, self.threads);
        let errors: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
        let slots = &mut self.slots;
        py.allow_threads(|| {
            for_each_slot(slots, threads, |i, s| {
                s.last_returns.clear();
                if s.game.is_finished() {
                    return;
                }
                let a = usize::try_from(actions[i])
                    .ok()
                    .and_then(|x| (x < space).then_some(x))
                    .and_then(|x| codec.decode(&s.game, x));
                let r = match a {
                    Some(a) => s.game.try_apply(&a).map(|()| a).map_err(|e| e.to_string()),
                    None => Err(format!("action index {} names no action here", actions[i])),
                };
                match r {
                    Ok(a) => s.history.push(a),
                    Err(m) => {
                        if let Ok(mut e) = errors.lock() {
                            e.push((i, m));
                        }
                    }
                }
            });
        });
        let n = self.slots.len();
        let p = self.players();
        let mut done = vec![0u8; n];
        for (i, s) in self.slots.iter().enumerate() {
            done[i] = s.game.is_finished() as u8;
        }
        self.reset_finished()?;
        let mut rets = vec![0f64; n * p];
        for (i, s) in self.slots.iter().enumerate() {
            if done[i] == 1 {
                rets[i * p..(i + 1) * p].copy_from_slice(&s.last_returns[..p]);
            }
        }
        let mut errors = errors.into_inner().unwrap_or_default();
        if !errors.is_empty() {
            errors.sort();
            let (i, m) = &errors[0];
            return Err(illegal(format!(
                "{} game(s) refused their action (left unchanged), first game {i}: {m}",
                errors.len()
            )));
        }
        Ok((
            f64_array(py, &rets, &[n, p])?,
            u8_array(py, &done, "bool", &[n])?,
        ))
    }

    /// The seat to act in each game (-4 when over), `int64[n]`.
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<i64> = self
            .slots
            .iter()
            .map(|s| {
                if s.game.is_finished() {
                    TERMINAL_PLAYER
                } else {
                    s.game.current_player().index() as i64
                }
            })
            .collect();
        i64_array(py, &v, &[v.len()])
    }

    /// Whether each game is over, `bool[n]`.
    fn terminated<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<u8> = self
            .slots
            .iter()
            .map(|s| s.game.is_finished() as u8)
            .collect();
        u8_array(py, &v, "bool", &[v.len()])
    }

    /// Points, `int64[n, players]`.
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let p = self.players();
        let v: Vec<i64> = self
            .slots
            .iter()
            .flat_map(|s| s.game.scores().into_iter().map(i64::from))
            .collect();
        i64_array(py, &v, &[self.slots.len(), p])
    }

    /// Returns, `float64[n, players]` (zeros for games still running).
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let p = self.players();
        let v: Vec<f64> = self.slots.iter().flat_map(|s| s.game.returns()).collect();
        f64_array(py, &v, &[self.slots.len(), p])
    }

    /// Legal codec indices of each game.
    fn legal_actions(&self, py: Python<'_>) -> Vec<Vec<usize>> {
        let codec = self.codec;
        let slots = &self.slots;
        py.allow_threads(|| slots.iter().map(|s| codec.legal_indices(&s.game)).collect())
    }

    /// Legal-action masks, `int8[n, num_actions]`.
    fn legal_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (n, k) = (self.slots.len(), self.space);
        if k > MAX_MASK || n.saturating_mul(k) > MAX_BATCH_ENTRIES {
            return Err(PyValueError::new_err(format!(
                "{n} masks of {k} entries are too many (at most {MAX_BATCH_ENTRIES} entries); use legal_actions()"
            )));
        }
        let legal = self.legal_actions(py);
        let mut m = vec![0u8; n * k];
        for (i, l) in legal.iter().enumerate() {
            for &a in l {
                m[i * k + a] = 1;
            }
        }
        u8_array(py, &m, "int8", &[n, k])
    }

    /// Observations of the player to act in each game (seat 0 for a game
    /// that is over): `(cells float32[n, planes, W, W], globals
    /// float32[n, G])`.
    fn observations<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let codec = self.codec;
        let slots = &self.slots;
        let Some(first) = slots.first() else {
            return Err(PyValueError::new_err("no games"));
        };
        let w = codec.width();
        let (planes, g) = codec.tensor_shape(&first.game);
        let per = codec.tensor_cells(&first.game);
        let n = slots.len();
        if n.saturating_mul(per) > MAX_BATCH_ENTRIES {
            return Err(PyValueError::new_err(
                "too many observation entries at once: use fewer games or a smaller radius",
            ));
        }
        let seat_of = |game: &Game| {
            if game.is_finished() {
                Seat::default()
            } else {
                game.current_player()
            }
        };
        let mut globals: Vec<f32> = Vec::with_capacity(n * g);
        // Every game's planes written straight into the one array's memory
        // (zeros to start with), without the GIL.
        let buf = PyByteArray::new_with(py, n * per * 4, |bytes| {
            py.allow_threads(|| {
                let mut fallback = Vec::new();
                let cells: &mut [f32] = match bytemuck::try_cast_slice_mut(bytes) {
                    Ok(c) => c,
                    Err(_) => {
                        fallback = vec![0f32; n * per];
                        &mut fallback
                    }
                };
                for (s, out) in slots.iter().zip(cells.chunks_exact_mut(per)) {
                    let gl = codec.observation_tensor_into(&s.game, seat_of(&s.game), out);
                    globals.extend(gl.unwrap_or_else(|| vec![0.0; g]));
                }
                if !fallback.is_empty() {
                    bytes.copy_from_slice(bytemuck::cast_slice(&fallback));
                }
            });
            Ok(())
        })?;
        Ok((
            view(&buf, &numpy(py)?.float32, &[n, planes, w, w], 0)?,
            f32_array(py, &globals, &[n, g])?,
        ))
    }

    /// Game `i` as a `Game` (a copy, with its actions, for records).
    fn game(&self, i: i64) -> PyResult<PyGame> {
        let s = usize::try_from(i)
            .ok()
            .and_then(|i| self.slots.get(i))
            .ok_or_else(|| {
                PyIndexError::new_err(format!("game index {i} is outside 0..{}", self.slots.len()))
            })?;
        let mut config = self.config.clone();
        config.seed = s.seed;
        let piece_rows = piece_rows(&config);
        Ok(PyGame {
            core: Core::Plain(s.game.clone()),
            codec: self.codec,
            space: self.space,
            config,
            history: s.history.clone(),
            draws: Vec::new(),
            chances: Vec::new(),
            piece_rows,
            legal_cache: None,
        })
    }
}

/// A Bastide bot (`random`, `greedy`, `mcts`, `mcts:N`, `mcts:500ms`, …)
/// that chooses for the player to act; the GIL is released while it thinks.
#[pyclass(module = "bastide._bastide", name = "Bot")]
pub struct PyBot {
    spec: String,
    // A bot keeps its random state between moves; the lock makes the class
    // shareable between Python threads.
    bot: Mutex<Box<dyn Bot>>,
}

impl PyBot {
    fn choose_action(&self, py: Python<'_>, game: &PyGame) -> PyResult<Action> {
        if game.core.is_chance() || game.core.game().is_finished() {
            return Err(illegal(
                "turn: no player acts here (a chance node or the end)",
            ));
        }
        let g = game.core.game().clone();
        let bot = &self.bot;
        py.allow_threads(|| {
            let mut b = bot
                .lock()
                .map_err(|_| "a previous choice of this bot panicked".to_string())?;
            Ok::<Action, String>(b.choose(&View::new(&g)))
        })
        .map_err(PyRuntimeError::new_err)
    }
}

#[pymethods]
impl PyBot {
    /// A bot from a spec such as `"mcts:200"`; `seed` drives its choices.
    #[new]
    #[pyo3(signature = (spec, seed=None))]
    fn py_new(spec: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyBot> {
        let seed = match seed {
            Some(s) => int_in(s, "seed", 0, u64::MAX as i128)? as u64,
            None => 0,
        };
        let parsed = BotSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyBot {
            spec: parsed.to_string(),
            bot: Mutex::new(parsed.build(seed)),
        })
    }

    /// The bot's spec.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The bot's choice for the player to act in `game`, as a codec index.
    fn choose(&self, py: Python<'_>, game: &PyGame) -> PyResult<usize> {
        let a = self.choose_action(py, game)?;
        game.codec.encode(game.core.game(), &a).ok_or_else(|| {
            illegal("the bot chose a placement outside the window: use a larger radius")
        })
    }

    /// The bot's choice in the record format.
    fn choose_json<'py>(&self, py: Python<'py>, game: &PyGame) -> PyResult<Bound<'py, PyAny>> {
        let a = self.choose_action(py, game)?;
        let text = serde_json::to_string(&ActionJson::from_action(&a, game.catalog()))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        from_json(py, &text)
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec)
    }
}

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
