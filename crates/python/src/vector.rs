//! The `VectorGame` class: many games stepped together, across threads,
//! writing their observations into one batch of NumPy arrays.

use super::*;

/// One game of a [`PyVectorGame`].
pub(crate) struct Slot {
    pub(crate) game: Game,
    pub(crate) rng: Rng,
    pub(crate) history: Vec<Action>,
    pub(crate) seed: u64,
    /// Returns of the game that ended at the last step (auto-reset).
    pub(crate) last_returns: Vec<f64>,
    pub(crate) buf: Vec<Action>,
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
pub(crate) fn for_each_slot(
    slots: &mut [Slot],
    threads: usize,
    f: impl Fn(usize, &mut Slot) + Sync,
) {
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
    pub(crate) slots: Vec<Slot>,
    pub(crate) config: GameConfig,
    pub(crate) codec: ActionCodec,
    pub(crate) space: usize,
    pub(crate) next_seed: u64,
    pub(crate) auto_reset: bool,
    pub(crate) threads: usize,
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
            chances: Vec::new(),
            unpicklable: None,
            piece_rows,
            legal_cache: None,
        })
    }
}
