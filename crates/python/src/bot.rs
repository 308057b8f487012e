//! The `Bot` class: the engine's bots (random, greedy, MCTS) for Python.

use super::*;

/// A Bastide bot (`random`, `greedy`, `mcts`, `mcts:N`, `mcts:500ms`, …)
/// that chooses for the player to act; the GIL is released while it thinks.
#[pyclass(module = "bastide._bastide", name = "Bot")]
pub struct PyBot {
    pub(crate) spec: String,
    // A bot keeps its random state between moves; the lock makes the class
    // shareable between Python threads.
    pub(crate) bot: Mutex<Box<dyn Bot>>,
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
