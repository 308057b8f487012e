//! Conversions between Python and the engine: errors, JSON, NumPy arrays,
//! bounded integers, and the configuration a `Game` is made from.

use super::*;

pub(crate) fn illegal(msg: impl Into<String>) -> PyErr {
    IllegalAction::new_err(msg.into())
}

pub(crate) fn config_err(msg: impl Into<String>) -> PyErr {
    ConfigError::new_err(msg.into())
}

/// Python's `json` module, imported once.
pub(crate) fn json_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static JSON: GILOnceCell<Py<PyModule>> = GILOnceCell::new();
    Ok(JSON
        .get_or_try_init(py, || py.import("json").map(Bound::unbind))?
        .bind(py))
}

/// NumPy's `frombuffer`, imported once.
pub(crate) fn frombuffer(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static F: GILOnceCell<Py<PyAny>> = GILOnceCell::new();
    Ok(F.get_or_try_init(py, || {
        py.import("numpy")?.getattr("frombuffer").map(Bound::unbind)
    })?
    .bind(py))
}

/// NumPy's `ndarray` type and the dtypes the environments' observations
/// use, looked up once: `ndarray(shape, dtype, buffer, offset)` is the
/// cheapest way to wrap a buffer (a third of `frombuffer` and `reshape`).
pub(crate) struct Numpy {
    pub(crate) ndarray: Py<PyAny>,
    pub(crate) float32: Py<PyAny>,
    pub(crate) int16: Py<PyAny>,
    pub(crate) int8: Py<PyAny>,
}

pub(crate) fn numpy(py: Python<'_>) -> PyResult<&Numpy> {
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
pub(crate) fn view<'py>(
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
pub(crate) const MASK_CODEC: u8 = 1;
/// Or the first `k` entries, `k` the number of legal actions (legal mode).
pub(crate) const MASK_FIRST: u8 = 2;

/// Columns of a row of the compact observation's `pieces`: x, y, tile
/// index, rotation (quarter turns), half-tile corner (−1 for a whole
/// tile, else NW NE SE SW as 0–3), placed this turn (0/1).
pub const PIECE_COLUMNS: usize = 6;
/// Columns of a row of `followers`: relative seat, piece row, feature of
/// the piece, kind (road, city, monastery, field or other as 0–3), figure
/// (0 a normal follower, 1 the large one, 2 the builder, 3 the pig, 4 the
/// mayor, 5 the wagon: the order of `Figure::ALL`), and the x, y of the cell that names the feature (as
/// the planes show it).
pub const FOLLOWER_COLUMNS: usize = 7;

/// Rows of the compact observation's `pieces` for a configuration: the
/// pieces the set-up places plus the bound on moves, each move placing at
/// most one piece (a fixed number, so the observation has a fixed shape).
pub(crate) fn piece_rows(config: &GameConfig) -> usize {
    Game::new(config.clone()).map_or(0, |g| game_piece_rows(&g))
}

/// [`piece_rows`] of a game at its start.
pub(crate) fn game_piece_rows(game: &Game) -> usize {
    game.board().pieces().len() + bastide_engine::openspiel::max_game_length(game)
}

/// Rows of `followers`: every follower of every seat, the large one too.
pub(crate) fn follower_rows(game: &Game) -> usize {
    // The followers, the large follower, with Traders & Builders the
    // builder and the pig, with Abbey & Mayor the mayor and the wagon.
    let specials = if game.traders().is_some() { 2 } else { 0 }
        + if game.abbey_mayor_figures().is_some() {
            2
        } else {
            0
        };
    game.player_count() * (usize::from(game.options().followers) + 1 + specials)
}

/// JSON text of a Python value: a `str` is taken as JSON text, anything
/// else is serialised with `json.dumps`. Refused over the record size limit.
pub(crate) fn json_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
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
pub(crate) fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    json_module(py)?.call_method1("loads", (text,))
}

/// A NumPy array of `data` with `shape`, in a fresh writable buffer.
///
/// The buffer is made by copying the bytes (`PyByteArray::new`), never by
/// zero-filling first: a zeroed allocation of this size comes fresh from
/// the kernel, and faulting its pages in cost 50 times the copy (1 ms for
/// a 0.5 MB observation).
pub(crate) fn f32_array<'py>(
    py: Python<'py>,
    data: &[f32],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "float32", shape)
}

/// A NumPy array of `i64` values with `shape`.
pub(crate) fn i64_array<'py>(
    py: Python<'py>,
    data: &[i64],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "int64", shape)
}

/// A NumPy array of `f64` values with `shape`.
pub(crate) fn f64_array<'py>(
    py: Python<'py>,
    data: &[f64],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, bytemuck::cast_slice(data), "float64", shape)
}

/// A NumPy array of bytes (`int8` or `bool`) with `shape`.
pub(crate) fn u8_array<'py>(
    py: Python<'py>,
    data: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    typed_array(py, data, dtype, shape)
}

/// A NumPy array of `dtype` over a copy of `bytes` (native byte order).
pub(crate) fn typed_array<'py>(
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
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
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
pub(crate) fn make_config(
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
                        // `+` beside the comma: OpenSpiel's game strings
                        // separate parameters by commas.
                        text.extract::<String>()?
                            .split([',', '+'])
                            .map(str::to_string)
                            .collect()
                    } else {
                        s.extract::<Vec<String>>().map_err(|_| {
                            config_err("sets must be a string such as \"base+river1\" (or \"base,river1\") or a list of set ids")
                        })?
                    }
                }
            };
            if list.iter().all(|s| s.trim().is_empty()) {
                return Err(config_err(
                    "sets names no set: give the base game first, e.g. \"base\" or \"base+river1\"",
                ));
            }
            if list.len() > 64 {
                return Err(config_err(format!(
                    "sets names {} entries; at most 64 are taken",
                    list.len()
                )));
            }
            let c = GameConfig::from_sets(n, seed.unwrap_or(0), &list)
                .map_err(|e| config_err(e.to_string()))?;
            warn_implied_base(sets, &list, &c)?;
            c
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

/// A set list naming no base game plays on the base game, as `bastide
/// play --sets plague` does; said aloud (a `UserWarning` naming the list to
/// write), since a researcher who meant an expansion alone should know.
fn warn_implied_base(
    sets: Option<&Bound<'_, PyAny>>,
    list: &[String],
    c: &GameConfig,
) -> PyResult<()> {
    let Some(s) = sets else { return Ok(()) };
    if list.iter().any(|x| matches!(x.trim(), "base" | "winter")) {
        return Ok(());
    }
    let named: Vec<&str> = list
        .iter()
        .map(|x| x.trim())
        .filter(|x| !x.is_empty())
        .collect();
    let full = format!("{}+{}", c.base, named.join("+"));
    let msg = format!(
        "sets names no base game: playing {full} (an expansion plays on a base game, as with \
         `bastide play --sets`); write sets=\"{full}\" to say so and silence this warning"
    );
    let msg = std::ffi::CString::new(msg).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let py = s.py();
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyUserWarning>(),
        &msg,
        1,
    )
}

/// The codec of a game: the drawn-tile slot only, unless Half-and-half
/// puts halves in hands (then the two hand slots too), so the action space
/// of a game without halves is a third as large.
pub(crate) fn codec_for(game: &Game, radius: i32) -> PyResult<ActionCodec> {
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

/// A Python action's codec index: `Some` for an int (a NumPy integer
/// too), `None` for what is not a number (a dict or JSON text, the
/// caller's to read); a bool or a float is a `TypeError`, never index 1 or
/// a rounded index.
pub(crate) fn index_of(action: &Bound<'_, PyAny>) -> PyResult<Option<i128>> {
    if action.is_instance_of::<PyBool>() || action.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "an action index is an int, not {}",
            action.get_type().name()?
        )));
    }
    Ok(action.extract::<i128>().ok())
}
