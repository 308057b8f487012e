//! The turn state machine: one [`Action`] type, [`Game::legal_actions`] and
//! [`Game::try_apply`] as the only way the state changes.

use std::sync::Arc;

use crate::board::{Board, FitTable, PlacementError};
use crate::catalog::{Catalog, FeatureKind, Shape, Tag, TagSet, TileIdx, NO_FEATURE};
use crate::config::{ConfigError, GameConfig};
use crate::deck;
use crate::expansions::{self as ext, ExpansionState, Expansions, SetupCtx};
use crate::features::NodeId;
use crate::geometry::{Corner, Place, Pos, Rotation};
use crate::map::MapDef;
use crate::options::Options;
use crate::scoring::Event;
use crate::seat::Seat;

pub(crate) use crate::action::illegal;
pub use crate::action::{Action, Figure, IllegalAction, Phase};

/// How [`Game::transition`] treats an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Check every rule; refuse with the rule broken.
    Checked,
    /// The action comes from `legal_actions`: skip the checks.
    Trusted,
}

/// A follower on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follower {
    /// Owner.
    pub player: Seat,
    /// The piece it stands on.
    pub piece: u16,
    /// The feature of that piece.
    pub feature: u8,
    /// Which figure it is.
    pub figure: Figure,
}

/// A player's supply and score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerState {
    /// Points so far.
    pub score: u32,
    /// Followers not on the board.
    pub supply: u8,
}

/// Set-up facts shared by every state of one game.
#[derive(Debug)]
pub(crate) struct Rules {
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) config: GameConfig,
    pub(crate) options: Options,
    pub(crate) map: Option<MapDef>,
    /// The expansions in play, parsed once.
    pub(crate) expansions: Expansions,
    /// Where the deck's square tiles fit a frontier cell, by its key.
    pub(crate) fit: Arc<FitTable>,
    /// Room for the events of one game, reserved by [`Game::reset`] so that
    /// a log longer than any before does not grow mid-playout
    /// ([`event_room`]).
    pub(crate) event_room: usize,
}

/// Events one game of `pile` (and its start tile) can log: each feature
/// is scored at most once and each tile discarded at most once, which
/// bounds the turn machine's own events, plus two a turn and eight a seat
/// for the expansions' (chips gained and traded, followers lost to the
/// Plague, the Gingerbread Man's payments).
fn event_room(catalog: &Catalog, pile: &[TileIdx], start: TileIdx, seats: usize) -> usize {
    pile.iter()
        .chain(std::iter::once(&start))
        .map(|t| catalog.tile(*t).features.len() + 3)
        .sum::<usize>()
        + 8 * seats
}

/// A game in progress: every `Game` is a legal position.
#[derive(Debug)]
pub struct Game {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) followers: Vec<Follower>,
    pub(crate) current: Seat,
    pub(crate) phase: Phase,
    pub(crate) drawn: Option<TileIdx>,
    /// Tiles still to draw, next draw last.
    pub(crate) pile: Vec<TileIdx>,
    pub(crate) last: Option<u16>,
    pub(crate) events: Vec<Event>,
    /// Whether the turn machine records scoring and discard events
    /// (playouts of a search switch it off; see [`Game::set_event_log`]).
    pub(crate) log_events: bool,
    /// The expansions' own state, each part owned by its module.
    pub(crate) ext: ExpansionState,
    /// Room for an expansion's opening pile while a new deal is built
    /// ([`Game::reset`]); empty otherwise, so not part of the position.
    deal_scratch: Vec<TileIdx>,
    /// Explicit chance: whether the caller chooses every draw.
    pub(crate) chance: ChanceDraws,
}

/// Explicit chance ([`crate::openspiel::State`]): the caller chooses every
/// draw as a chance outcome, so the turn machine never takes a tile from
/// the pile itself and the pile's order is never read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ChanceDraws {
    /// The draws are chance outcomes.
    pub(crate) on: bool,
    /// A draw waits for its chance outcome (placement step, no tile drawn).
    pub(crate) due: bool,
    /// Some tile left in the pile fits somewhere: what a draw would find,
    /// known from the pile as a multiset (public).
    pub(crate) drawable: bool,
    /// On a map: the second start space, while chance has not yet drawn
    /// the tile that goes there (the first land tile of the pile, in a
    /// seeded game). The game's first chance node.
    pub(crate) start: Option<Pos>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            rules: self.rules.clone(),
            board: self.board.clone(),
            players: self.players.clone(),
            followers: self.followers.clone(),
            current: self.current,
            phase: self.phase,
            drawn: self.drawn,
            pile: self.pile.clone(),
            last: self.last,
            events: self.events.clone(),
            log_events: self.log_events,
            ext: self.ext.clone(),
            deal_scratch: Vec::new(),
            chance: self.chance,
        }
    }

    /// Copies `src` into this game's buffers: a search that clones one
    /// position thousands of times into one scratch game allocates only
    /// when the scratch is smaller. The destructuring makes a new field a
    /// compile error here, so no copy can forget it.
    fn clone_from(&mut self, src: &Game) {
        let Game {
            rules,
            board,
            players,
            followers,
            current,
            phase,
            drawn,
            pile,
            last,
            events,
            log_events,
            ext,
            // Empty between deals: nothing to copy.
            deal_scratch: _,
            chance,
        } = src;
        if !Arc::ptr_eq(&self.rules, rules) {
            self.rules = rules.clone();
        }
        self.board.clone_from(board);
        self.players.clone_from(players);
        self.followers.clone_from(followers);
        self.current = *current;
        self.phase = *phase;
        self.drawn = *drawn;
        self.pile.clone_from(pile);
        self.last = *last;
        self.events.clone_from(events);
        self.log_events = *log_events;
        self.ext.clone_from(ext);
        self.chance = *chance;
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.rules.config == other.rules.config
            && self.board.pieces() == other.board.pieces()
            && self.players == other.players
            && self.followers == other.followers
            && self.current == other.current
            && self.phase == other.phase
            && self.drawn == other.drawn
            && self.pile == other.pile
            && self.last == other.last
            && self.events == other.events
            && self.ext == other.ext
            && self.chance == other.chance
    }
}

impl Game {
    /// Sets up a game with the built-in catalog.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        Game::with_catalog(config, Catalog::builtin())
    }

    /// Sets up a game with a given catalog (tests, user tile sets).
    pub fn with_catalog(config: GameConfig, catalog: Arc<Catalog>) -> Result<Game, ConfigError> {
        Game::set_up(config, catalog, None, false)
    }

    /// A game whose draws are all chance outcomes the caller chooses
    /// ([`crate::openspiel::State`]): the pile is kept in a canonical order
    /// (never read), and at each draw the game waits.
    pub(crate) fn new_explicit_chance(config: GameConfig) -> Result<Game, ConfigError> {
        Game::set_up(config, Catalog::builtin(), None, true)
    }

    /// [`Game::with_catalog`], taking the fit table of an earlier game if
    /// it serves this deck (a new deal of the same configuration).
    fn set_up(
        config: GameConfig,
        catalog: Arc<Catalog>,
        earlier: Option<Arc<FitTable>>,
        explicit_chance: bool,
    ) -> Result<Game, ConfigError> {
        config.check_shape()?;
        let n = config.players.len();
        let options = Options::parse(&config.options)?;
        // With explicit chance no outcome may depend on the seed: its pile
        // is sorted and never read, and what else the seed would choose at
        // set-up (`river_shuffle_all`'s start tile) is seed 0's choice.
        let setup = if explicit_chance && config.seed != 0 {
            deck::build(
                &catalog,
                &GameConfig {
                    seed: 0,
                    ..config.clone()
                },
            )?
        } else {
            deck::build(&catalog, &config)?
        };
        // Checked by `deck::build` already; parsed once here for the rules.
        let on = crate::config::parse_config(&config)?;
        let map = match &config.map {
            None => None,
            Some(name) => {
                Some(MapDef::builtin(name).ok_or_else(|| ConfigError::UnknownMap(name.clone()))?)
            }
        };
        let fit = match earlier {
            Some(f) if f.serves(&catalog, &setup.pile) => f,
            _ => Arc::new(FitTable::new(&catalog, &setup.pile)),
        };
        let bounds = map.as_ref().map(|m| m.bounds.clone());
        let event_room = event_room(&catalog, &setup.pile, setup.start, n);
        let rules = Arc::new(Rules {
            catalog,
            config,
            options,
            map,
            expansions: on,
            fit,
            event_room,
        });
        let mut game = Game {
            board: Board::new(0, bounds),
            players: Vec::with_capacity(n),
            followers: Vec::with_capacity(n * rules.options.followers as usize),
            current: Seat::default(),
            phase: Phase::Place,
            drawn: None,
            pile: Vec::new(),
            last: None,
            events: Vec::new(),
            log_events: true,
            ext: ExpansionState::default(),
            deal_scratch: Vec::new(),
            chance: ChanceDraws {
                on: explicit_chance,
                ..ChanceDraws::default()
            },
            rules,
        };
        game.pile.extend_from_slice(&setup.pile);
        game.deal(setup.start, false)?;
        Ok(game)
    }

    /// Deals the game of the rules' configuration into this one: `self.pile`
    /// holds the tiles to draw, first drawn first, and `start` is the start
    /// tile. Everything else is set as [`Game::new`] sets it, in the
    /// buffers this game already has (a reset for a new deal allocates
    /// nothing once they have grown). `same_tiles`: the board was made for
    /// exactly these tiles (a new deal of the base game alone), so its size
    /// need not be counted again.
    fn deal(&mut self, start: TileIdx, same_tiles: bool) -> Result<(), ConfigError> {
        let rules = self.rules.clone();
        let catalog = &rules.catalog;
        ext::setup_into(
            &SetupCtx {
                catalog,
                config: &rules.config,
                options: &rules.options,
                on: rules.expansions,
                map: rules.map.as_ref(),
                tiles: self.pile.len(),
                explicit_chance: self.chance.on,
            },
            &mut self.ext,
        )?;
        if self.chance.on {
            self.sort_pile_canonically();
        }
        // On a map: the start tile on the first chosen start space, the
        // first normal tile drawn on the second.
        let mut starts = [(start, Pos::new(0, 0)); 2];
        let mut n_starts = 1;
        if let Some(m) = &rules.map {
            let pick = |k: u8| {
                m.starts
                    .get(k as usize - 1)
                    .copied()
                    .ok_or_else(|| ConfigError::BadOption {
                        name: "start_spaces".into(),
                        problem: format!(
                            "map {} has {} start spaces, not {k}",
                            m.name,
                            m.starts.len()
                        ),
                    })
            };
            let [a, b] = rules.options.start_spaces;
            starts[0].1 = pick(a)?;
            if let Some(i) = self
                .pile
                .iter()
                .position(|t| !ext::is_prelude_tile(catalog, *t))
            {
                if self.chance.on {
                    // Chance draws it: the first chance node.
                    self.chance.start = Some(pick(b)?);
                } else {
                    starts[1] = (self.pile.remove(i), pick(b)?);
                    n_starts = 2;
                }
            }
        }
        let cells = || {
            self.pile
                .iter()
                .chain(std::iter::once(&start))
                .chain(starts[1..n_starts].iter().map(|(t, _)| t))
                .map(|t| catalog.tile(*t).cell_count())
                .sum::<usize>()
                + ext::extra_cells(&self.ext)
        };
        if same_tiles {
            self.board.reset();
        } else {
            let cells = cells();
            if self.board.holds(cells) {
                self.board.reset();
            } else {
                self.board = Board::new(cells, rules.map.as_ref().map(|m| m.bounds.clone()));
            }
        }
        self.board.set_fit_keys(&rules.fit);
        self.pile.reverse();
        self.players.clear();
        self.players.resize(
            rules.config.players.len(),
            PlayerState {
                score: 0,
                supply: rules.options.followers,
            },
        );
        self.followers.clear();
        self.current = Seat::default();
        self.phase = Phase::Place;
        self.drawn = None;
        self.last = None;
        self.events.clear();
        for &(tile, at) in &starts[..n_starts] {
            self.board.place(catalog, tile, at, Rotation::default());
        }
        ext::start(self, start);
        self.draw();
        ext::opening(self);
        Ok(())
    }

    /// Starts this game over as [`Game::new`] would with the same
    /// configuration and seed `seed`, dealing into the buffers the game
    /// has: once they have grown (a game or two), a new deal allocates
    /// nothing, which keeps `simulate` allocation-free
    /// (`tests/allocations.rs`; a fixed `deck` prefix or chip order is
    /// built anew). The event log stays on or off. On an error (impossible
    /// for a configuration that set up once) the game is left half dealt:
    /// set it up anew.
    pub fn reset(&mut self, seed: u64) -> Result<(), ConfigError> {
        // The base game or Winter alone deals the same tiles every time:
        // the board need not be measured again.
        let same_tiles = self.rules.expansions == Expansions::NONE
            && self.rules.map.is_none()
            && self.rules.config.deck.is_none()
            && !self.rules.config.deck_only;
        let Some(rules) = Arc::get_mut(&mut self.rules) else {
            // Shared with another game (a clone): these rules stay its.
            let mut config = self.rules.config.clone();
            config.seed = seed;
            let fit = Some(self.rules.fit.clone());
            let log_events = self.log_events;
            let explicit = self.chance.on;
            *self = Game::set_up(config, self.rules.catalog.clone(), fit, explicit)?;
            self.log_events = log_events;
            return Ok(());
        };
        rules.config.seed = seed;
        let cat = rules.catalog.clone();
        let start = deck::build_into(
            &cat,
            &rules.config,
            rules.expansions,
            &rules.options,
            &mut self.pile,
            &mut self.deal_scratch,
        )?;
        if !same_tiles && !rules.fit.serves(&cat, &self.pile) {
            rules.fit = Arc::new(FitTable::new(&cat, &self.pile));
        }
        let room = rules.event_room;
        self.deal(start, same_tiles)?;
        // Once, for the games to come: a no-op when the log has the room.
        self.events.reserve(room);
        Ok(())
    }

    /// Switches the record of scoring and discard events on or off. Off,
    /// [`Game::events`] misses what the turn machine scores from then on
    /// (expansions may still record theirs): for playouts whose events
    /// nobody reads. Scores and rules are the same either way.
    pub fn set_event_log(&mut self, on: bool) {
        self.log_events = on;
    }

    /// The configuration this game was set up from.
    pub fn config(&self) -> &GameConfig {
        &self.rules.config
    }

    /// The tile catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.rules.catalog
    }

    /// The checked options.
    pub fn options(&self) -> &Options {
        &self.rules.options
    }

    /// The expansions in play.
    pub fn expansions(&self) -> Expansions {
        self.rules.expansions
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Seat of the player to act.
    pub fn current_player(&self) -> Seat {
        self.current
    }

    /// Seat `index` of this game, if it has that many players.
    pub fn seat(&self, index: usize) -> Option<Seat> {
        Seat::new(index).filter(|_| index < self.players.len())
    }

    /// Every seat of this game, in seat order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players.len()).filter_map(Seat::new)
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// Scores and supplies, in seat order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// Points per player, in seat order.
    pub fn scores(&self) -> Vec<u32> {
        self.players.iter().map(|p| p.score).collect()
    }

    /// Followers on the board.
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The tile the current player must place (also while the player has
    /// yet to choose between drawing it and a tile they hold: see
    /// [`Game::visible_drawn_tile`] for what players may see).
    pub fn drawn_tile(&self) -> Option<TileIdx> {
        self.drawn
    }

    /// The drawn tile as the players see it: none while the player has not
    /// yet chosen to draw, where drawing is a choice.
    pub fn visible_drawn_tile(&self) -> Option<TileIdx> {
        let pending = ext::draw_pending(self);
        self.drawn
            .filter(|_| self.phase == Phase::Place && !pending)
    }

    /// Tiles that have left the pile but nobody has seen (a draw that is
    /// still a choice), counted among the tiles that remain.
    pub(crate) fn undisclosed_draws(&self) -> Vec<TileIdx> {
        ext::undisclosed_draws(self)
    }

    /// Tiles left to draw (the drawn tile excluded).
    pub fn tiles_left(&self) -> usize {
        self.pile.len()
    }

    /// Tiles no player has seen: those left to draw and those a draw that
    /// is still a choice took from the pile. What a seat's views count as
    /// left.
    pub(crate) fn tiles_unseen(&self) -> usize {
        self.pile.len() + self.undisclosed_draws().len()
    }

    /// The remaining draw pile, next draw first. Hidden information: a
    /// player's view shows only which tiles remain, never their order.
    pub fn pile_in_order(&self) -> impl Iterator<Item = TileIdx> + '_ {
        self.pile.iter().rev().copied()
    }

    /// Reorders the hidden draw pile (tests of what a view reveals).
    #[doc(hidden)]
    pub fn shuffle_pile_for_tests(&mut self, seed: u64) {
        crate::rng::Rng::new(seed).shuffle(&mut self.pile);
    }

    /// Every event so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The piece placed this turn.
    pub fn last_piece(&self) -> Option<u16> {
        self.last
    }

    /// Every action the current player may take now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Like [`Game::legal_actions`], reusing a buffer.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Place => {
                // When drawing is a choice, the player
                // chooses before seeing the drawn tile: the other tiles'
                // placements and `draw`, never the unseen tile's placements.
                let pending = ext::draw_pending(self);
                if let Some(t) = self.drawn.filter(|_| !pending) {
                    self.placements(t, |a| {
                        out.push(a);
                        true
                    });
                }
                ext::other_placements(self, pending, out);
                if pending {
                    out.push(Action::Draw);
                }
            }
            Phase::Follower => {
                self.follower_options(|a| out.push(a));
                ext::follower_alternatives(self, out);
                out.push(Action::Pass);
                ext::extra_actions(self, out);
            }
            _ => ext::step_actions(self, out),
        }
    }

    /// A uniformly random legal action: `legal_actions()[k]` for
    /// `k = rng.below(len)`, the same draw from `rng` and so the same
    /// action, but in the place step of a square tile whose placements are
    /// plain edge matches it counts the fitting rotations of each frontier
    /// cell and builds only the chosen placement (pushing every placement
    /// into the list was most of the cost of listing). `buf` is scratch for
    /// the other steps, kept by the caller so playouts do not allocate.
    /// `None` when there is no legal action (the game is over).
    pub fn random_action(
        &self,
        rng: &mut crate::rng::Rng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        if let Some(a) = self.random_square_placement(rng) {
            return Some(a);
        }
        self.pick_action(buf, |n, _| rng.below(n as u64) as usize)
    }

    /// One of the legal actions, chosen by `pick(n, pass)`: told how many
    /// legal actions there are and where `pass` stands among them, it
    /// returns an index below `n` and gets `legal_actions()[index]`, listed
    /// only when no expansion can build that one action alone (the Plague
    /// counts its stored spreads and flights). For policies that treat
    /// `pass` apart (tree search's light playouts). `pick` is called once,
    /// unless there is no legal action (`None`). An index out of range is
    /// the chooser's error: it gets an action still (`pass` or the last one),
    /// never a panic.
    pub fn pick_action(
        &self,
        buf: &mut Vec<Action>,
        mut pick: impl FnMut(usize, Option<usize>) -> usize,
    ) -> Option<Action> {
        if let Some(a) = self.plain_follower_pick(&mut pick) {
            return Some(a);
        }
        if let Some(a) = ext::pick_step_action(self, buf, &mut pick) {
            return Some(a);
        }
        self.legal_actions_into(buf);
        let pass = buf.iter().position(|a| matches!(a, Action::Pass));
        let last = buf.len().checked_sub(1)?;
        Some(buf[pick(buf.len(), pass).min(last)])
    }

    /// The place-step case of [`Game::random_action`]; `None` when it does
    /// not apply (then nothing was drawn from `rng`).
    fn random_square_placement(&self, rng: &mut crate::rng::Rng) -> Option<Action> {
        let tile = self.drawn.filter(|_| self.phase == Phase::Place)?;
        let def = self.rules.catalog.tile(tile);
        if def.shape != Shape::Square || !ext::edge_placements_only(self, tile) {
            return None;
        }
        if let Some(row) = self.rules.fit.row(tile) {
            return self.sample_by_key(tile, row, rng);
        }
        let packed = Rotation::ALL.map(|r| def.oriented(r).packed);
        let frontier = self.board.frontier();
        // The fit masks of the first cells, kept for the second pass; a
        // longer frontier has the rest computed again.
        let mut masks = [0u8; 256];
        let n = self.board.fit_masks(&packed, &mut masks);
        if n == 0 {
            // A drawn tile always fits somewhere; if not, the list decides.
            return None;
        }
        let mut k = rng.below(u64::from(n)) as u32;
        // Whole groups of four cells first, the fits of four masks counted
        // at once, then cell by cell inside the group that holds the k-th.
        let mut start = 0;
        while let Some(&[b0, b1, b2, b3]) = masks
            .get(start..start + 4)
            .filter(|_| start + 4 <= frontier.len())
        {
            let c = bits4x4(u32::from_le_bytes([b0, b1, b2, b3]));
            if k < c {
                break;
            }
            k -= c;
            start += 4;
        }
        for (i, fc) in frontier.iter().enumerate().skip(start) {
            let mut m = match masks.get(i) {
                Some(m) => u32::from(*m),
                None => Board::fit_mask(fc, &packed),
            };
            let c = bits4(m);
            if k >= c {
                k -= c;
                continue;
            }
            for _ in 0..k {
                m &= m - 1;
            }
            return Some(Action::Place {
                tile,
                pos: fc.pos,
                rot: Rotation::ALL[m.trailing_zeros() as usize & 3],
            });
        }
        // Unreachable: `k` is below the total of the same masks.
        debug_assert!(false, "random_square_placement: k beyond the count");
        None
    }

    /// The follower-step case of [`Game::pick_action`] when no expansion is
    /// in play (the list is then the free features of the piece just placed,
    /// if the supply has a follower, then `pass`): counts the free features
    /// and builds only the chosen action. `None` when it does not apply
    /// (then `pick` was not called).
    fn plain_follower_pick(
        &self,
        pick: &mut impl FnMut(usize, Option<usize>) -> usize,
    ) -> Option<Action> {
        if self.phase != Phase::Follower || self.rules.expansions != Expansions::NONE {
            return None;
        }
        let mut free = [0u8; 32];
        let mut n = 0;
        let mut corner = None;
        if let (Some(pi), true) = (self.last, self.players[self.current.index()].supply > 0) {
            let piece = self.board.pieces()[pi as usize];
            corner = piece.corner;
            let def = self.rules.catalog.tile(piece.tile);
            for (fi, feat) in def.features.iter().enumerate() {
                if !feat.kind.can_hold_follower()
                    || self
                        .board
                        .features()
                        .followers(piece.node_base + fi as NodeId)
                        > 0
                {
                    continue;
                }
                // More free features than the array holds: list them.
                *free.get_mut(n)? = fi as u8;
                n += 1;
            }
        }
        // The free features, then `pass`.
        let k = pick(n + 1, Some(n));
        let (Some(pi), Some(&fi)) = (self.last, free[..n].get(k)) else {
            return Some(Action::Pass);
        };
        let (pos, place) = self.feature_anchor(pi, fi);
        Some(Action::Follower {
            pos,
            corner,
            place,
            figure: Figure::Normal,
        })
    }

    /// [`Game::random_square_placement`] for a tile of the fit table: the
    /// fits of each frontier cell are one load by its key, summed, then
    /// walked to the chosen one (the same (cell, rotation) order, so the
    /// same placement for the same draw).
    fn sample_by_key(
        &self,
        tile: TileIdx,
        row: &[u8],
        rng: &mut crate::rng::Rng,
    ) -> Option<Action> {
        let keys = self.board.frontier_keys();
        // Keys are below the row's length by construction (`FitTable`).
        let count = |key: u16| u32::from(row[usize::from(key)] >> 4);
        let quad = |q: &[u16]| count(q[0]) + count(q[1]) + count(q[2]) + count(q[3]);
        // Each group's count (at most 16) is kept for the walk below, so
        // that it steps over a group with one load instead of four lookups;
        // groups past the array's end are counted again there.
        let mut sums = [0u8; 128];
        let quads = keys.chunks_exact(4);
        let rest: u32 = quads.remainder().iter().map(|&k| count(k)).sum();
        let mut n = rest;
        for (q, s) in quads.zip(sums.iter_mut()) {
            let c = quad(q);
            *s = c as u8;
            n += c;
        }
        for q in keys.chunks_exact(4).skip(sums.len()) {
            n += quad(q);
        }
        if n == 0 {
            // A drawn tile always fits somewhere; if not, the list decides.
            return None;
        }
        let mut k = rng.below(u64::from(n)) as u32;
        // Whole groups of four cells first, then cell by cell.
        let mut start = 0;
        for (j, q) in keys.chunks_exact(4).enumerate() {
            let c = match sums.get(j) {
                Some(&s) => u32::from(s),
                None => quad(q),
            };
            if k < c {
                break;
            }
            k -= c;
            start += 4;
        }
        for (i, &key) in keys.iter().enumerate().skip(start) {
            let f = row[usize::from(key)];
            let c = u32::from(f >> 4);
            if k >= c {
                k -= c;
                continue;
            }
            let mut m = u32::from(f & 15);
            for _ in 0..k {
                m &= m - 1;
            }
            let pos = self.board.frontier().get(i)?.pos;
            return Some(Action::Place {
                tile,
                pos,
                rot: Rotation::ALL[m.trailing_zeros() as usize & 3],
            });
        }
        debug_assert!(false, "sample_by_key: k beyond the count");
        None
    }

    /// Calls `f` with each legal placement of `tile` until it returns false.
    pub(crate) fn placements(&self, tile: TileIdx, f: impl FnMut(Action) -> bool) {
        ext::placements(self, tile, f);
    }

    /// Placements where every touching edge matches.
    pub(crate) fn edge_placements(&self, tile: TileIdx, mut f: impl FnMut(Action) -> bool) {
        let cat = &*self.rules.catalog;
        let def = cat.tile(tile);
        if def.shape == Shape::Square {
            // Scalar compares: listing with the SSE2 mask and a loop over
            // its bits ran slower by the clock (docs/performance.md).
            let os = Rotation::ALL.map(|r| def.oriented(r));
            for fc in self.board.frontier() {
                for r in Rotation::ALL {
                    if Board::square_fits(fc, os[r.quarters() as usize])
                        && !f(Action::Place {
                            tile,
                            pos: fc.pos,
                            rot: r,
                        })
                    {
                        return;
                    }
                }
            }
            return;
        }
        // Half-cell and multi-cell shapes: try every anchor that puts one of the
        // tile's cells on a candidate cell, then check in full.
        // A one-cell shape (a half) has each candidate as its own anchor,
        // and the candidates are distinct (a cell holding a half is off the
        // frontier): no anchor comes twice, so none is recorded (the record
        // cost a vector and a quadratic search a call).
        let one_cell = Rotation::ALL
            .iter()
            .all(|&r| def.oriented(r).cells.len() == 1);
        let frontier = self.board.frontier().iter().map(|c| c.pos);
        let cands = frontier.chain(self.board.half_cells().iter().copied());
        let mut tried: Vec<(Pos, Rotation)> = Vec::new();
        for c in cands {
            for r in Rotation::ALL {
                for &(dx, dy) in &def.oriented(r).cells {
                    let anchor = c.offset(-dx, -dy);
                    if !one_cell {
                        if tried.contains(&(anchor, r)) {
                            continue;
                        }
                        tried.push((anchor, r));
                    }
                    if self.board.check(cat, tile, anchor, r).is_ok()
                        && !f(Action::Place {
                            tile,
                            pos: anchor,
                            rot: r,
                        })
                    {
                        return;
                    }
                }
            }
        }
    }

    pub(crate) fn has_placement(&self, tile: TileIdx) -> bool {
        // A tabled square tile placed by edge matching alone: one load a
        // frontier cell.
        if let Some(row) = self.rules.fit.row(tile) {
            if ext::edge_placements_only(self, tile) {
                let keys = self.board.frontier_keys();
                return keys.iter().any(|&k| row[usize::from(k)] != 0);
            }
        }
        let mut any = false;
        self.placements(tile, |_| {
            any = true;
            false
        });
        any
    }

    /// Where a follower may go on the piece just placed.
    pub(crate) fn follower_options(&self, f: impl FnMut(Action)) {
        if self.players[self.current.index()].supply > 0 {
            self.follower_spots(Figure::Normal, f);
        }
    }

    /// Where a figure may go on the piece just placed, whatever the
    /// supply holds: each free feature a follower may stand on, unless an
    /// expansion bans followers this turn.
    pub(crate) fn follower_spots(&self, figure: Figure, f: impl FnMut(Action)) {
        self.figure_spots(
            figure,
            |_, node| self.board.features().followers(node) == 0,
            f,
        );
    }

    /// Calls `f` with a `figure` action for each feature of the piece just
    /// placed that a follower may stand on and `keep(kind, node)` accepts,
    /// unless an expansion bans figures this turn.
    #[inline]
    pub(crate) fn figure_spots(
        &self,
        figure: Figure,
        keep: impl Fn(FeatureKind, NodeId) -> bool,
        mut f: impl FnMut(Action),
    ) {
        let Some(pi) = self.last else {
            return;
        };
        if self.follower_ban().is_some() {
            return;
        }
        let cat = &*self.rules.catalog;
        let piece = self.board.pieces()[pi as usize];
        let def = cat.tile(piece.tile);
        for (fi, feat) in def.features.iter().enumerate() {
            let node = piece.node_base + fi as NodeId;
            if !feat.kind.can_hold_follower()
                || !keep(feat.kind, node)
                || ext::figure_ban_in(self, node).is_some()
            {
                continue;
            }
            let (pos, place) = self.feature_anchor(pi, fi as u8);
            f(Action::Follower {
                pos,
                corner: piece.corner,
                place,
                figure,
            });
        }
    }

    /// Where an event names the feature of segment `node`: the cell, half
    /// and canonical place of its first segment ([`Game::feature_anchor`]).
    pub(crate) fn feature_spot(&self, node: NodeId) -> (Pos, Option<Corner>, Place) {
        let (pi, fi) = self.board.features().origin(node);
        let (pos, place) = self.feature_anchor(pi, fi);
        (pos, self.board.pieces()[pi as usize].corner, place)
    }

    /// The cell and canonical place naming feature `fi` of piece `pi`:
    /// the centre for a monastery, else the first side middle it touches
    /// (clockwise from north), else its first border place.
    pub fn feature_anchor(&self, pi: u16, fi: u8) -> (Pos, Place) {
        let piece = self.board.pieces()[pi as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let (k, place) = o.anchors[fi as usize];
        let (dx, dy) = o.cells[k as usize];
        (piece.pos.offset(dx, dy), place)
    }

    /// Applies an action if it is legal; otherwise says which rule it breaks
    /// and leaves the game unchanged.
    pub fn try_apply(&mut self, action: &Action) -> Result<(), IllegalAction> {
        self.transition(action, Mode::Checked)
    }

    /// Applies an action taken from [`Game::legal_actions`] without checking
    /// it again (simulations, bots, benchmarks). An action not from that
    /// list is a logic error: debug builds assert, release builds may leave
    /// the game in any legal-looking state.
    pub fn apply_legal(&mut self, action: &Action) {
        let r = self.transition(action, Mode::Trusted);
        debug_assert!(
            r.is_ok(),
            "apply_legal: {action:?} is not legal here: {r:?}"
        );
    }

    /// The one transition function. Both modes walk the same turn
    /// sequence; the trusted mode skips the checks that only refuse (board
    /// matching, the expansions' vetoes), so the two can never disagree on
    /// what an action does.
    fn transition(&mut self, action: &Action, mode: Mode) -> Result<(), IllegalAction> {
        let checked = mode == Mode::Checked;
        if checked {
            self.check_vocabulary(action)?;
        }
        if self.phase == Phase::Over {
            return Err(illegal("turn", "the game is over; no more actions"));
        }
        // An expansion's own step decides what may happen in it, and each
        // expansion applies its own actions; a shared action in a shared
        // step is the turn machine's alone (one test on the hot path).
        if !(self.phase.is_shared() && action.is_shared()) {
            if let Some(r) = ext::apply(self, action, mode) {
                return r;
            }
        }
        match (*action, self.phase) {
            (Action::Place { tile, pos, rot }, Phase::Place) => {
                // A tile other than the drawn one (one a player holds) is
                // an expansion's to check and take.
                if Some(tile) != self.drawn {
                    if let Some(r) = ext::play_other_tile(self, tile, pos, rot, mode) {
                        return r;
                    }
                }
                if !checked {
                    self.do_place(tile, pos, rot);
                    return Ok(());
                }
                let cat = self.rules.catalog.clone();
                let drawn = self
                    .drawn
                    .ok_or_else(|| illegal("draw", "there is no drawn tile to place"))?;
                if tile != drawn {
                    return Err(illegal(
                        "draw",
                        format!(
                            "the drawn tile is {}, not {}",
                            cat.tile(drawn).id,
                            cat.tile(tile).id
                        ),
                    ));
                }
                self.board
                    .check(&cat, tile, pos, rot)
                    .map_err(|e| placement_error(&e))?;
                ext::placement_veto(self, tile, pos, rot)?;
                // A placement of the drawn tile implies the draw where that
                // was a choice (records written before the `draw` step).
                ext::implied_draw(self)?;
                self.do_place(tile, pos, rot);
                Ok(())
            }
            (Action::Draw, _) => ext::draw(self),
            (Action::Place { .. }, _) => Err(illegal(
                "turn",
                "a tile is already placed this turn: place a follower or pass",
            )),
            (
                Action::Follower {
                    pos,
                    corner,
                    place,
                    figure: Figure::Normal,
                },
                Phase::Follower,
            ) => {
                let (pi, fi) = match self.spot_on_last(pos, corner, place).filter(|_| !checked) {
                    Some(spot) => spot,
                    None => self.check_follower(pos, corner, place)?,
                };
                if checked && self.players[self.current.index()].supply == 0 {
                    return Err(illegal(
                        "follower",
                        "you have no follower left in your supply",
                    ));
                }
                self.do_follower(pi, fi, Figure::Normal);
                self.end_follower_step();
                Ok(())
            }
            (Action::Pass, Phase::Follower) => {
                self.end_follower_step();
                Ok(())
            }
            (Action::Follower { .. } | Action::Pass, Phase::Place) => {
                let cat = &self.rules.catalog;
                Err(illegal(
                    "turn",
                    match self.visible_drawn_tile() {
                        Some(t) => {
                            format!("the drawn tile {} must be placed first", cat.tile(t).id)
                        }
                        None => "play a tile you hold or draw first".to_string(),
                    },
                ))
            }
            _ => Err(illegal(
                "turn",
                "this action does not belong to the current step: ask for the legal actions",
            )),
        }
    }

    /// Refuses, before any rule is looked at, an action whose cell lies
    /// beyond [`crate::geometry::COORD_LIMIT`] (where neighbour arithmetic
    /// could overflow) or that belongs to an expansion not in play.
    fn check_vocabulary(&self, action: &Action) -> Result<(), IllegalAction> {
        if let Some(p) = action.cell().filter(|p| !p.in_range()) {
            return Err(illegal(
                "coordinates",
                format!(
                    "cell {p} is off the board: coordinates run from -{0} to {0}",
                    crate::geometry::COORD_LIMIT
                ),
            ));
        }
        ext::check_vocabulary(self, action)
    }

    /// Why no follower may be placed this turn, if an expansion forbids it.
    fn follower_ban(&self) -> Option<&'static str> {
        ext::follower_ban(self)
    }

    /// Checks a spot for a figure on the piece just placed (the supply is
    /// the caller's to check): the feature of `place`, which must be free.
    pub(crate) fn check_follower(
        &self,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Result<(u16, u8), IllegalAction> {
        // A tile other than the one just placed takes a follower only by
        // an expansion's rule (the magic portal).
        let elsewhere = match self.last {
            Some(pi) if !self.on_piece(pi, pos, corner) => {
                ext::follower_elsewhere(self, pos, corner, place)
            }
            _ => None,
        };
        let (pi, fi) = match elsewhere {
            Some(r) => r?,
            None => self.check_spot(pos, corner, place)?,
        };
        if self.board.features().followers(self.node(pi, fi)) > 0 {
            let kind = self
                .rules
                .catalog
                .tile(self.board.pieces()[pi as usize].tile)
                .features[fi as usize]
                .kind;
            return Err(illegal(
                "follower",
                format!(
                    "the {} at {place} already holds a follower; a follower may only go on an unoccupied feature",
                    kind.name()
                ),
            ));
        }
        Ok((pi, fi))
    }

    /// The feature at `place` of cell `pos` (half `corner`) of the piece
    /// just placed; `None` for a spot off that piece (the magic portal's)
    /// or without a feature. For trusted actions: they come from the legal
    /// list, so [`Game::check_follower`]'s refusals cannot apply (walking
    /// them was about 1 % of a random base game).
    fn spot_on_last(&self, pos: Pos, corner: Option<Corner>, place: Place) -> Option<(u16, u8)> {
        let pi = self.last?;
        let fi = self.feature_at_place(pi, pos, corner, place)?;
        (fi != NO_FEATURE).then_some((pi, fi))
    }

    /// The feature index at `place` of piece `pi`'s cell `pos` (half
    /// `corner`), [`NO_FEATURE`] where the tile has none; `None` if the
    /// cell is not the piece's.
    fn feature_at_place(
        &self,
        pi: u16,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Option<u8> {
        let piece = self.board.pieces()[pi as usize];
        if piece.corner != corner {
            return None;
        }
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let part = o
            .cells
            .iter()
            .position(|&(dx, dy)| piece.pos.offset(dx, dy) == pos)?;
        Some(o.place_feature[part][place.index()])
    }

    /// Whether the cell `pos` (and half `corner`) is one of piece `pi`'s.
    pub(crate) fn on_piece(&self, pi: u16, pos: Pos, corner: Option<Corner>) -> bool {
        let piece = self.board.pieces()[pi as usize];
        piece.corner == corner
            && self
                .rules
                .catalog
                .tile(piece.tile)
                .oriented(piece.rot)
                .cells
                .iter()
                .any(|&(dx, dy)| piece.pos.offset(dx, dy) == pos)
    }

    /// Checks a spot for any figure on the piece just placed, occupied or
    /// not (a special figure joins its owner's followers): the feature of
    /// `place`, on which no expansion bans figures this turn.
    pub(crate) fn check_spot(
        &self,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Result<(u16, u8), IllegalAction> {
        let cat = &*self.rules.catalog;
        let pi = self
            .last
            .ok_or_else(|| illegal("turn", "no tile was placed this turn"))?;
        if let Some(why) = self.follower_ban() {
            return Err(illegal("follower", why));
        }
        let piece = self.board.pieces()[pi as usize];
        let fi = self
            .feature_at_place(pi, pos, corner, place)
            .ok_or_else(|| {
                illegal(
                    "follower",
                    format!("a follower goes on the tile just placed, at {}", piece.pos),
                )
            })?;
        if fi == NO_FEATURE {
            return Err(illegal(
                "follower",
                format!("the tile at {pos} has no feature at {place}"),
            ));
        }
        let kind = cat.tile(piece.tile).features[fi as usize].kind;
        if !kind.can_hold_follower() {
            return Err(illegal("follower", "followers may never stand on a river"));
        }
        if let Some(why) = ext::figure_ban_in(self, piece.node_base + fi as NodeId) {
            return Err(illegal("follower", why));
        }
        Ok((pi, fi))
    }

    /// Where a special `figure` may go on the piece just placed: each
    /// feature `allowed` to it (by its kind and root) in which the current
    /// player already has a follower, unless an expansion bans figures
    /// this turn.
    pub(crate) fn company_spots(
        &self,
        figure: Figure,
        allowed: impl Fn(FeatureKind, NodeId) -> bool,
        f: impl FnMut(Action),
    ) {
        self.figure_spots(
            figure,
            |kind, node| {
                let root = self.board.features().root(node);
                allowed(kind, root) && self.has_follower_in(self.current, root)
            },
            f,
        );
    }

    /// Whether `seat` has a follower (not a special figure) in the feature
    /// rooted at `root`.
    pub(crate) fn has_follower_in(&self, seat: Seat, root: NodeId) -> bool {
        self.has_figure_in(seat, root, Figure::is_follower)
    }

    /// Whether `seat` has a figure that `which` accepts in the feature
    /// rooted at `root`.
    pub(crate) fn has_figure_in(
        &self,
        seat: Seat,
        root: NodeId,
        which: impl Fn(Figure) -> bool,
    ) -> bool {
        self.followers.iter().any(|f| {
            f.player == seat
                && which(f.figure)
                && self.board.features().root(self.node(f.piece, f.feature)) == root
        })
    }

    /// The tags of each segment of the feature rooted at `root`, one item
    /// a segment (an expansion counts or looks for its own tags in them).
    pub(crate) fn feature_tags(&self, root: NodeId) -> impl Iterator<Item = TagSet> + '_ {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        feats.members(root).map(move |m| {
            let (pi, fi) = feats.origin(m);
            let tile = self.board.pieces()[pi as usize].tile;
            cat.tile(tile).features[fi as usize].tags
        })
    }

    /// Whether any segment of the feature rooted at `root` carries `tag`.
    pub(crate) fn feature_has_tag(&self, root: NodeId, tag: Tag) -> bool {
        self.feature_tags(root).any(|tags| tags.contains(tag))
    }

    /// Sends home every special figure whose owner has no follower left
    /// in its feature (the builder and the pig). Called when followers
    /// left the board.
    pub(crate) fn send_lonely_figures_home(&mut self) {
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            let root = self.board.features().root(self.node(f.piece, f.feature));
            if f.figure.needs_company() && !self.has_follower_in(f.player, root) {
                self.followers.remove(i);
                self.follower_home(f);
            } else {
                i += 1;
            }
        }
    }

    pub(crate) fn do_place(&mut self, tile: TileIdx, pos: Pos, rot: Rotation) {
        ext::before_place(self, tile, pos, rot);
        let pi = self.board.place(&self.rules.catalog, tile, pos, rot);
        self.last = Some(pi);
        self.drawn = None;
        self.phase = Phase::Follower;
        ext::after_place(self, pi);
    }

    /// Puts the current player's `figure` on feature `fi` of piece `pi`; a
    /// normal follower leaves the supply, another figure leaves the supply
    /// its expansion keeps. Only a follower occupies the feature.
    pub(crate) fn do_follower(&mut self, pi: u16, fi: u8, figure: Figure) {
        let node = self.board.pieces()[pi as usize].node_base + fi as NodeId;
        if figure.is_follower() {
            self.board.features_mut().add_followers(node, 1);
        }
        if figure == Figure::Normal {
            self.players[self.current.index()].supply -= 1;
        }
        self.followers.push(Follower {
            player: self.current,
            piece: pi,
            feature: fi,
            figure,
        });
    }

    /// A follower goes back to its owner: a normal one to the supply,
    /// another figure to its expansion.
    pub(crate) fn follower_home(&mut self, f: Follower) {
        if f.figure == Figure::Normal {
            self.players[f.player.index()].supply += 1;
        } else {
            ext::figure_home(self, f);
        }
    }

    /// The follower step is over: an expansion may keep the turn going
    /// with a step of its own, else the turn ends.
    pub(crate) fn end_follower_step(&mut self) {
        if ext::after_follower_step(self) {
            return;
        }
        self.end_turn();
    }

    /// After the follower step: score what the tile completed, then any
    /// step an expansion still owes, then the next turn.
    pub(crate) fn end_turn(&mut self) {
        if let Some(pi) = self.last {
            self.score_completed(pi);
        }
        self.end_turn_scored();
    }

    /// The rest of a turn whose completed features are scored: the
    /// expansions' steps after scoring (which may hold the turn), then the
    /// next turn. A step that comes after scoring (the Plague's) ends here,
    /// without scoring a second time.
    pub(crate) fn end_turn_scored(&mut self) {
        if let Some(pi) = self.last {
            if ext::after_scoring(self, pi) {
                return;
            }
        }
        self.finish_turn();
    }

    /// The part's steps are over: an expansion may hold the turn with a
    /// step of its own (the builder's second tile), else it passes on.
    pub(crate) fn finish_turn(&mut self) {
        if ext::hold_turn(self) {
            return;
        }
        self.pass_turn();
    }

    /// Starts another part of the same turn: a new tile is drawn for the
    /// current player, with no turn start (once-a-turn limits hold).
    pub(crate) fn second_part(&mut self) {
        self.last = None;
        self.draw();
    }

    /// Passes the turn on and draws.
    pub(crate) fn pass_turn(&mut self) {
        let again = self.last.is_some_and(|pi| ext::extra_turn(self, pi));
        self.last = None;
        if !again {
            self.current = self.current.next(self.players.len());
        }
        ext::turn_start(self);
        self.draw();
    }

    /// Draws the next tile that fits somewhere, discarding those that fit
    /// nowhere (unless an expansion holds them); ends the game when the
    /// pile runs out and no expansion lets play go on.
    pub(crate) fn draw(&mut self) {
        ext::before_draw(self);
        if self.chance.on {
            self.await_chance();
            return;
        }
        while let Some(t) = self.pile.pop() {
            if self.offer(t) {
                return;
            }
        }
        self.pile_out();
    }

    /// The tile `t` comes off the pile: drawn if it fits somewhere (true),
    /// else held by an expansion or discarded.
    #[inline]
    fn offer(&mut self, t: TileIdx) -> bool {
        if ext::set_aside(self, t) {
            return false;
        }
        if self.has_placement(t) {
            self.drawn = Some(t);
            self.phase = Phase::Place;
            return true;
        }
        if !ext::hold_unplaceable(self, t) && self.log_events {
            self.events.push(Event::discard(t, self.players.len()));
        }
        false
    }

    /// No tile left to draw: play goes on if an expansion lets it, else
    /// final scoring.
    fn pile_out(&mut self) {
        self.drawn = None;
        // Play goes on in the tile step, unless the expansion that lets it
        // go on names a step of its own (a final round).
        self.phase = Phase::Place;
        if ext::play_without_draw(self) {
            return;
        }
        self.final_scoring();
        self.phase = Phase::Over;
    }

    /// Explicit chance: the draw waits for its outcome (the placement step
    /// with no tile drawn), unless the pile is empty.
    #[cold]
    fn await_chance(&mut self) {
        self.drawn = None;
        self.chance.due = !self.pile.is_empty();
        if !self.chance.due {
            self.pile_out();
            return;
        }
        self.phase = Phase::Place;
        self.find_drawable();
    }

    /// Explicit chance: whether some tile left in the pile fits somewhere.
    fn find_drawable(&mut self) {
        let mut kinds = self.pile.clone();
        kinds.sort_unstable();
        kinds.dedup();
        self.chance.drawable = kinds.into_iter().any(|t| self.has_placement(t));
    }

    /// Explicit chance: whether chance acts now: a draw is due and no
    /// player chooses first (between a tile held and the draw).
    pub(crate) fn chance_due(&self) -> bool {
        if ext::token_due(self) || self.chance.start.is_some() || ext::chance_deal(self).is_some() {
            return true;
        }
        if !(self.chance.due && self.phase == Phase::Place && self.drawn.is_none()) {
            return false;
        }
        if ext::draw_pending(self) {
            return false;
        }
        let mut other = Vec::new();
        ext::other_placements(self, false, &mut other);
        other.is_empty()
    }

    /// Explicit chance: the outcome of the draw due, the tile at `at` in
    /// the pile, comes off the pile (drawn, held or discarded as the rules
    /// say); with the pile empty, play goes on or ends as after a draw.
    pub(crate) fn take_chance_draw(&mut self, at: usize) {
        if at >= self.pile.len() {
            return;
        }
        let t = self.pile.remove(at);
        if let Some(p) = self.chance.start.take() {
            // The map's second start tile, placed as a seeded deal places
            // it; then the first draw (or a draft before it) as dealt.
            self.board
                .place(&self.rules.catalog, t, p, Rotation::default());
            if self.phase == Phase::Place {
                self.await_chance();
            } else {
                self.find_drawable();
            }
            return;
        }
        if self.offer(t) {
            self.chance.due = false;
        } else if self.pile.is_empty() {
            self.chance.due = false;
            self.pile_out();
        }
    }

    /// Explicit chance: a tile of the kind the due draw will give (the
    /// lowest part of the pile holding a tile that fits), `None` when no
    /// draw is due or nothing fits. Parts are public, so this is too.
    pub(crate) fn next_draw_kind(&self) -> Option<TileIdx> {
        if !self.chance.due || !self.chance.drawable {
            return None;
        }
        self.pile
            .iter()
            .copied()
            .filter(|t| self.has_placement(*t))
            .min_by_key(|t| (ext::draw_part(self, *t).unwrap_or(0), *t))
    }

    /// Puts the pile in a canonical order (parts kept, the next part
    /// drawn last): explicit chance never reads the order, so no seed shows.
    fn sort_pile_canonically(&mut self) {
        let mut keyed: Vec<(u8, TileIdx)> = self
            .pile
            .iter()
            .map(|t| (ext::draw_part(self, *t).unwrap_or(0), *t))
            .collect();
        keyed.sort_unstable();
        self.pile.clear();
        self.pile.extend(keyed.into_iter().map(|k| k.1));
    }

    /// The node of feature `fi` of piece `pi`.
    pub(crate) fn node(&self, pi: u16, fi: u8) -> NodeId {
        self.board.pieces()[pi as usize].node_base + fi as NodeId
    }

    /// Kind of the feature a follower stands on.
    pub fn follower_kind(&self, f: &Follower) -> FeatureKind {
        let piece = self.board.pieces()[f.piece as usize];
        self.rules.catalog.tile(piece.tile).features[f.feature as usize].kind
    }
}

pub(crate) fn placement_error(e: &PlacementError) -> IllegalAction {
    illegal("placement", e.to_string())
}

/// The set bits of four masks of four bits each, one a byte of `w`
/// (a SWAR count: the default x86-64 target has no POPCNT instruction).
#[inline]
fn bits4x4(w: u32) -> u32 {
    let pairs = w - ((w >> 1) & 0x5555_5555);
    let nibbles = (pairs & 0x3333_3333) + ((pairs >> 2) & 0x3333_3333);
    nibbles.wrapping_mul(0x0101_0101) >> 24
}

/// Set bits of a 4-bit rotation mask, by table: the default x86-64 target
/// has no POPCNT instruction, and `count_ones` there costs about fifteen
/// instructions (docs/performance.md).
#[inline]
fn bits4(m: u32) -> u32 {
    const BITS: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    u32::from(BITS[m as usize & 15])
}
