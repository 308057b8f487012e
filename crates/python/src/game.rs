//! The `Game` class: one engine game, with its chance mode, codec,
//! observations, records and every call a Python agent makes.

use super::*;

/// A game, with chance nodes either resolved by the seeded pile (`Plain`)
/// or explicit (`Explicit`, OpenSpiel style).
#[derive(Clone)]
pub(crate) enum Core {
    Plain(Game),
    Explicit(State),
}

impl Core {
    pub(crate) fn game(&self) -> &Game {
        match self {
            Core::Plain(g) => g,
            Core::Explicit(s) => s.game(),
        }
    }

    pub(crate) fn is_chance(&self) -> bool {
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

    /// The observation of `seat` in one `float32` buffer: the cell planes
    /// (`planes × W × W`) then the globals, written in place (no copy);
    /// with the shape `(planes, W, globals)`.
    fn tensor_buffer<'py>(
        &self,
        py: Python<'py>,
        codec: &ActionCodec,
        seat: Seat,
        public: bool,
        extra: usize,
    ) -> PyResult<(Bound<'py, PyByteArray>, (usize, usize, usize))> {
        let w = codec.width();
        let (planes, n_globals) = codec.tensor_shape(self.game());
        let n_cells = codec.tensor_cells(self.game());
        let mut written = false;
        // `extra` zeros after the globals: room a caller fills in place.
        let len = (n_cells + n_globals)
            .checked_add(extra)
            .and_then(|n| n.checked_mul(4))
            .ok_or_else(|| PyValueError::new_err("extra is too large"))?;
        let buf = PyByteArray::new_with(py, len, |bytes| {
            let (cell_bytes, rest) = bytes.split_at_mut(n_cells * 4);
            let global_bytes = &mut rest[..n_globals * 4];
            // A bytearray's memory comes from Python's allocator, aligned
            // for `f32` in practice; a misaligned one takes the copy.
            // The public observer: the same cell planes (nothing hidden
            // there), the globals without the seat's own halves and chips.
            let globals = match bytemuck::try_cast_slice_mut::<u8, f32>(cell_bytes) {
                Ok(cells) => match (self, public) {
                    (Core::Plain(g), false) => codec.observation_tensor_into(g, seat, cells),
                    (Core::Plain(g), true) => codec.public_observation_tensor_into(g, seat, cells),
                    (Core::Explicit(s), false) => codec.state_tensor_into(s, seat, cells),
                    (Core::Explicit(s), true) => codec.public_state_tensor_into(s, seat, cells),
                },
                Err(_) => {
                    let t = self.tensor(codec, seat);
                    cell_bytes.copy_from_slice(bytemuck::cast_slice(&t.cells));
                    Some(match (self, public) {
                        (_, false) => t.globals,
                        (Core::Plain(g), true) => codec.public_observation_globals(g, seat),
                        (Core::Explicit(s), true) => codec.public_state_globals(s, seat),
                    })
                }
            };
            if let Some(g) = globals.filter(|g| g.len() == n_globals) {
                global_bytes.copy_from_slice(bytemuck::cast_slice(&g));
                written = true;
            }
            Ok(())
        })?;
        if !written {
            return Err(PyValueError::new_err(
                "the observation's size did not match",
            ));
        }
        Ok((buf, (planes, w, n_globals)))
    }

    /// The observation as NumPy views of one buffer: `(cells, globals)`.
    fn tensor_arrays<'py>(
        &self,
        py: Python<'py>,
        codec: &ActionCodec,
        seat: Seat,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (buf, (planes, w, n_globals)) = self.tensor_buffer(py, codec, seat, false, 0)?;
        let f32 = &numpy(py)?.float32;
        Ok((
            view(&buf, f32, &[planes, w, w], 0)?,
            view(&buf, f32, &[n_globals], planes * w * w * 4)?,
        ))
    }

    /// The observation as one flat NumPy `float32` array, cells then
    /// globals: OpenSpiel's observation tensor, without a copy (`public`:
    /// the public observer's, see `observation_flat`).
    fn tensor_flat<'py>(
        &self,
        py: Python<'py>,
        codec: &ActionCodec,
        seat: Seat,
        public: bool,
        extra: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (buf, (planes, w, n_globals)) = self.tensor_buffer(py, codec, seat, public, extra)?;
        view(
            &buf,
            &numpy(py)?.float32,
            &[planes * w * w + n_globals + extra],
            0,
        )
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
    pub(crate) core: Core,
    pub(crate) codec: ActionCodec,
    /// See [`action_space`].
    pub(crate) space: usize,
    pub(crate) config: GameConfig,
    /// Player actions taken, in order (for records).
    pub(crate) history: Vec<Action>,
    /// Explicit mode: the chance outcomes applied, each with the number of
    /// player actions before it (pickling replays both exactly).
    pub(crate) chances: Vec<(usize, Outcome)>,
    /// Why this game cannot be pickled, if it cannot: a determinized copy
    /// whose resampled secrets no configuration can fix (Map Chips').
    pub(crate) unpicklable: Option<&'static str>,
    /// Rows of the compact observation's `pieces` ([`piece_rows`]).
    pub(crate) piece_rows: usize,
    /// The legal codec indices here, once `_legal_actions_cached` asked
    /// (the environments' masks reuse them); cleared by every action.
    pub(crate) legal_cache: Option<Vec<usize>>,
}

impl PyGame {
    fn new_from(config: GameConfig, explicit: bool, radius: i32) -> PyResult<PyGame> {
        let core = if explicit {
            Core::Explicit(State::new(config.clone()).map_err(|e| config_err(e.to_string()))?)
        } else {
            Core::Plain(Game::new(config.clone()).map_err(|e| config_err(e.to_string()))?)
        };
        let game = core.game();
        let codec = codec_for(game, radius)?;
        let space = codec.num_distinct_actions(core.game());
        let piece_rows = game_piece_rows(core.game());
        Ok(PyGame {
            core,
            codec,
            space,
            config,
            history: Vec::new(),
            chances: Vec::new(),
            unpicklable: None,
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
                Figure::ALL
                    .iter()
                    .position(|k| *k == fo.figure)
                    .map_or(0, |k| k as i16),
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

    pub(crate) fn catalog(&self) -> &Catalog {
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
        if let Some(i) = index_of(action)? {
            let n = self.space;
            let idx = usize::try_from(i).ok().filter(|i| *i < n).ok_or_else(|| {
                illegal(format!(
                    "action index {i} is outside 0 to {} (the last index)",
                    n.saturating_sub(1)
                ))
            })?;
            let g = self.core.game();
            // Exactly the legal list (the mask): another spelling of a
            // legal action is refused too.
            return self.codec.decode_legal(g, idx).ok_or_else(|| {
                let why = match self.codec.decode(g, idx) {
                    Some(_) => "is not among the legal actions here",
                    None => "names no action in this position",
                };
                illegal(format!("action index {idx} {why}"))
            });
        }
        if !(action.is_instance_of::<PyString>() || action.is_instance_of::<PyDict>()) {
            return Err(PyTypeError::new_err(format!(
                "an action is an int (codec index), a dict or JSON text of the record format, not {}",
                action.get_type().name()?
            )));
        }
        let text = json_text(action)?;
        let written: ActionJson = serde_json::from_str(&text)
            .map_err(|e| illegal(format!("not an action of the record format: {e}")))?;
        written
            .to_action(self.catalog())
            .map_err(|e| illegal(e.to_string()))
    }

    fn apply_action(&mut self, a: Action) -> PyResult<()> {
        self.core.apply(&a).map_err(|e| illegal(e.to_string()))?;
        self.legal_cache = None;
        self.history.push(a);
        Ok(())
    }

    fn record(&self) -> Record {
        let game = self.core.game();
        if matches!(self.core, Core::Explicit(_)) && !self.chances.is_empty() {
            // Chance chose the deal, the draws and the chips: the record
            // fixes them, so it replays the same game.
            let draws: Vec<Outcome> = self.chances.iter().map(|c| c.1).collect();
            return explicit_record(self.config.clone(), game, &draws, &self.history);
        }
        let cat = self.catalog();
        Record {
            format: bastide_engine::record::FORMAT,
            config: self.config.clone(),
            actions: self
                .history
                .iter()
                .map(|a| ActionJson::from_action(a, cat))
                .collect(),
        }
    }

    /// A determinized copy's halves as a deal: each seat was dealt the
    /// halves it has played and the hand it holds now (`after`, where it
    /// held `before`), fixed in the configuration's hands; the deal's
    /// chance outcomes leave the history, so a replay (pickling, records)
    /// gives the copy's hands.
    fn deal_again(&mut self, before: &[Vec<TileIdx>], after: &[Vec<TileIdx>]) {
        // The builtin catalog, every Python game's, not borrowed from self.
        let cat = Catalog::builtin();
        let mut dealt: Vec<Vec<TileIdx>> = match &self.config.hands {
            Some(h) => h
                .iter()
                .map(|hand| hand.iter().filter_map(|id| cat.find(id)).collect())
                .collect(),
            None => {
                let draws: Vec<Outcome> = self.chances.iter().map(|c| c.1).collect();
                halves_dealt(self.core.game(), &draws)
            }
        };
        for (seat, hand) in dealt.iter_mut().enumerate() {
            for t in before.get(seat).into_iter().flatten() {
                if let Some(i) = hand.iter().position(|h| h == t) {
                    hand.remove(i);
                }
            }
            hand.extend(after.get(seat).into_iter().flatten().copied());
        }
        let ids = dealt
            .iter()
            .map(|hand| hand.iter().map(|t| cat.tile(*t).id.clone()).collect())
            .collect();
        self.config.hands = Some(ids);
        self.chances
            .retain(|c| !matches!(c.1, Outcome::Tile(t) if cat.tile(t).shape == Shape::Half));
    }

    /// Applies action `i` of a record being replayed; errors name it.
    fn apply_record_action(&mut self, i: usize, aj: &ActionJson) -> PyResult<()> {
        let at = |e: String| RecordError::new_err(format!("action {i}: {e}"));
        let a = aj
            .to_action(self.catalog())
            .map_err(|e| at(e.to_string()))?;
        self.apply_action(a).map_err(|e| at(e.to_string()))
    }

    /// An outcome's name: a tile id, or a chip's (`purple:1`).
    fn outcome_name(&self, o: Outcome) -> String {
        o.name(self.core.game())
    }

    /// Applies the chance outcome `t` and remembers it for pickling.
    fn chance_to(&mut self, t: Outcome) -> PyResult<()> {
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

    /// The chance outcome an index (`chance_ids`) or a name (a tile id
    /// such as `base/U`, a chip such as `purple:1`) gives.
    fn outcome_of(&self, x: &Bound<'_, PyAny>) -> PyResult<Outcome> {
        let Core::Explicit(s) = &self.core else {
            return Err(illegal(
                "chance: this game draws by itself; make it with explicit_chance=True",
            ));
        };
        let kinds = s.num_chance_outcomes();
        // `index_of` refuses bools and floats with a TypeError, as `apply`
        // does: `True` is not outcome 1.
        if let Some(i) = index_of(x)? {
            return usize::try_from(i)
                .ok()
                .and_then(|i| Outcome::from_index(i, s.game()))
                .ok_or_else(|| illegal(format!("outcome index {i} is outside 0..{kinds}")));
        }
        let id: String =
            x.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                "an outcome is an int index or a name such as \"base/U\" or \"purple:1\", not {}",
                x.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
            })?;
        s.outcome_named(&id).ok_or_else(|| {
            illegal(format!(
                "unknown tile id or chip {}",
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
        let replayed = rec
            .replay()
            .map_err(|e| RecordError::new_err(e.to_string()))?;
        let mut g = PyGame::new_from(rec.config.clone(), explicit_chance, radius)?;
        // The chips come in the order the plain replay took them.
        let mut chips = tokens_drawn(&replayed).into_iter();
        // The draws come in the order the record's own pile gives them
        // (its deck first, then its seeded pile): the order a plain replay
        // takes them off the pile, a map's second start tile first.
        let order: Vec<TileIdx> = if explicit_chance {
            let plain = Game::new(rec.config.clone()).map_err(|e| config_err(e.to_string()))?;
            let start = rec
                .config
                .map
                .as_ref()
                .and_then(|_| plain.board().pieces().get(1));
            let first = plain.drawn_tile();
            start
                .map(|p| p.tile)
                .into_iter()
                .chain(first)
                .chain(plain.pile_in_order())
                .collect()
        } else {
            Vec::new()
        };
        // After the last action, only the draws and chips the record fixes
        // (those the live game had made): the rest are still to be decided.
        let fixed = rec.config.deck.as_ref().map_or(0, Vec::len)
            + rec.config.chips.as_ref().map_or(0, Vec::len)
            + rec.config.chip_draws.as_ref().map_or(0, Vec::len);
        let mut order = order.into_iter();
        for i in 0..=rec.actions.len() {
            while g.core.is_chance() {
                if i == rec.actions.len() && g.chances.len() >= fixed {
                    break;
                }
                let next = match &g.core {
                    Core::Explicit(s) => {
                        let chip_due = s
                            .chance_outcomes()
                            .first()
                            .is_some_and(|o| matches!(o.0, Outcome::Token(_)));
                        if chip_due {
                            chips.next()
                        } else {
                            order.next().map(Outcome::Tile)
                        }
                    }
                    Core::Plain(_) => None,
                };
                let Some(t) = next else { break };
                g.chance_to(t)
                    .map_err(|e| RecordError::new_err(format!("action {i}: {e}")))?;
            }
            let Some(aj) = rec.actions.get(i) else { break };
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

    /// Chance outcome names by index: the tile ids, then (with Map Chips)
    /// the chips, `purple:1` … `orange:2`.
    #[getter]
    fn chance_ids(&self) -> Vec<String> {
        match &self.core {
            Core::Explicit(s) => (0..s.num_chance_outcomes())
                .filter_map(|i| Outcome::from_index(i, s.game()).map(|o| s.outcome_name(o)))
                .collect(),
            Core::Plain(_) => self.tile_ids(),
        }
    }

    /// How many chance outcome ids there are (`chance_ids`).
    #[getter]
    fn num_chance_outcomes(&self) -> usize {
        match &self.core {
            Core::Explicit(s) => s.num_chance_outcomes(),
            Core::Plain(g) => g.catalog().tiles().len(),
        }
    }

    /// Tile ids in catalog order: a tile's chance outcome index names one,
    /// and the observation's tile one-hots follow this order.
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
        let index = index_of(action)?.and_then(|i| usize::try_from(i).ok());
        if let (Some(legal), Core::Plain(g), Some(i)) = (&self.legal_cache, &mut self.core, index) {
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

    /// At a chance node: what chance may give, as `(index, probability)`
    /// (`chance_ids` names an index: a tile's is its catalog index, a
    /// chip's comes after the tiles). Empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        match &self.core {
            Core::Explicit(s) => s
                .chance_outcomes()
                .into_iter()
                .map(|(o, p)| (o.index(s.game()), p))
                .collect(),
            Core::Plain(_) => Vec::new(),
        }
    }

    /// Applies a chance outcome: its index, or its name (the tile id
    /// drawn, such as `"base/U"`, or the chip taken, such as `"purple:1"`).
    fn apply_chance(&mut self, outcome: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = self.outcome_of(outcome)?;
        self.chance_to(o)
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

    /// `observation(seat)` as one flat `float32` array, the cells (in
    /// `observation`'s order) then the globals: OpenSpiel's observation
    /// tensor, filled in place, no copy. With `public=True` only what every
    /// seat sees (OpenSpiel's public observer): `seat`'s own face-down
    /// halves and chips are left at zero, every public count (hand sizes,
    /// the halves' pool, the chip supply, the other expansions' state) kept;
    /// the cell planes are public already.
    ///
    /// `extra` zeros follow the globals (at most 2²⁴): room the caller
    /// fills in place (OpenSpiel's information-state tensor writes its
    /// history rows there, with no second copy of the observation).
    #[pyo3(signature = (seat, *, public=false, extra=0))]
    fn observation_flat<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        public: bool,
        extra: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        if extra > 1 << 24 {
            return Err(PyValueError::new_err(format!(
                "extra must be from 0 to 16777216, not {extra}"
            )));
        }
        self.core.tensor_flat(py, &self.codec, seat, public, extra)
    }

    /// What `seat` sees as the engine's JSON view (a dict): the state with
    /// the hands `seat` may not see hidden (their sizes kept), the tiles
    /// remaining by kind and `tiles_left`; never the pile's order.
    fn view<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        let text = serde_json::to_string(&self.core.game().view_json(seat))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        from_json(py, &text)
    }

    /// Explicit chance only: a game consistent with everything `seat`
    /// knows, the hidden part resampled from `seed` (the engine's
    /// determinization: the pile's order, the other seats' face-down
    /// halves and chips). OpenSpiel's `resample_from_infostate`. The copy
    /// keeps this game's history; pickled, it travels with its resampled
    /// halves as the configuration's dealt hands. With Map Chips it cannot
    /// be pickled (no configuration fixes resampled chips): pickling it
    /// raises `TypeError`.
    fn determinize(&self, seat: i64, seed: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let seat = self.seat(seat)?;
        // Checked here, so a negative seed is a ValueError naming the range
        // rather than PyO3's bare OverflowError.
        let seed = int_in(seed, "seed", 0, u64::MAX as i128)? as u64;
        let Core::Explicit(s) = &self.core else {
            return Err(PyValueError::new_err(
                "determinize needs a game made with explicit_chance=True",
            ));
        };
        let mut g = Clone::clone(self);
        let d = s.determinize(seat, &mut Rng::new(seed));
        if let (Some(before), Some(after)) = (s.game().halves(), d.game().halves()) {
            if before.hands != after.hands {
                g.deal_again(&before.hands, &after.hands);
            }
        }
        if d.game().chips().is_some() {
            g.unpicklable = Some(
                "a determinized copy with Map Chips cannot be pickled: its resampled chips \
                 are in no configuration; pickle the game it was made from",
            );
        }
        g.core = Core::Explicit(d);
        g.legal_cache = None;
        Ok(g)
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
        if let Some(why) = self.unpicklable {
            return Err(PyTypeError::new_err(why));
        }
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
            .map(|(at, o)| (*at, self.outcome_name(*o)))
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
                let named = match &g.core {
                    Core::Explicit(s) => s.outcome_named(&id),
                    Core::Plain(_) => None,
                };
                let t = named.ok_or_else(|| {
                    RecordError::new_err(format!(
                        "unknown tile id or chip {}",
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
