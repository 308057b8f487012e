//! The turn state machine: one [`Action`] type, [`Game::legal_actions`] and
//! [`Game::try_apply`] as the only way the state changes.

use std::sync::Arc;

use thiserror::Error;

use crate::board::{Board, PlacementError};
use crate::catalog::{Catalog, FeatureKind, Shape, TileIdx, NO_FEATURE};
use crate::config::{ConfigError, GameConfig, Options};
use crate::deck;
use crate::expansions::gingerbread::Gingerbread;
use crate::expansions::halfsies::Halves;
use crate::expansions::map_chips::{Chips, Colour};
use crate::expansions::plague::{FeatureAt, Plague, TileAt};
use crate::expansions::registry;
use crate::expansions::river::{self, River};
use crate::expansions::{ExpansionId, Expansions, Family};
use crate::features::NodeId;
use crate::geometry::{Corner, Place, Pos, Rotation};
use crate::map::MapDef;
use crate::scoring::Event;

/// Everything a player can do; the vocabulary of `notation.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the drawn tile (or, with halves, a half from the hand).
    Place {
        /// The tile being placed.
        tile: TileIdx,
        /// Its anchor cell.
        pos: Pos,
        /// Its rotation.
        rot: Rotation,
    },
    /// Put a follower on a feature of the tile just placed.
    Follower {
        /// The cell.
        pos: Pos,
        /// For a cell with half tiles: which half.
        corner: Option<Corner>,
        /// Any place of the feature.
        place: Place,
    },
    /// Decline the current optional step.
    Pass,
    /// Draw the next tile where drawing is a choice (a Half-and-half player
    /// who holds a half may play it instead). Elsewhere a placement of the
    /// drawn tile implies the draw.
    Draw,
    /// Trade chips from the hand onto a chip space of a Chumak square.
    Trade {
        /// The Chumak square.
        pos: Pos,
        /// The chips' colour.
        colour: Colour,
        /// Chips worth 1 traded.
        ones: u8,
        /// Chips worth 2 traded.
        twos: u8,
    },
    /// Take a half tile in the Half-and-half draft.
    Draft {
        /// The half taken.
        tile: TileIdx,
    },
    /// Move the gingerbread man into the city at that place.
    Gingerbread {
        /// The cell.
        pos: Pos,
        /// For a cell with half tiles: which half.
        corner: Option<Corner>,
        /// Any place of the city.
        place: Place,
    },
    /// The Plague: spread a flea onto a tile, from the supply or (`from`)
    /// moved from the tile it lies on.
    Flea {
        /// The tile that gets the flea.
        to: TileAt,
        /// The tile the flea comes from, when it moves on the board.
        from: Option<TileAt>,
    },
    /// The Plague: one of the current player's followers takes flight along
    /// its road, city or field.
    Flee {
        /// A place of the segment it stands on.
        from: FeatureAt,
        /// A place of the segment it flees to.
        to: FeatureAt,
    },
}

/// How [`Game::transition`] treats an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Check every rule; refuse with the rule broken.
    Checked,
    /// The action comes from `legal_actions`: skip the checks.
    Trusted,
}

/// What the game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current player must place the drawn tile.
    Place,
    /// The current player may put a follower on the tile just placed.
    Follower,
    /// The current player moves the gingerbread man.
    Gingerbread,
    /// Before the first turn: players draft half tiles.
    Draft,
    /// The Plague, after the follower step: the current player may still
    /// spread (and must, while a spread is owed) and flee, then passes.
    Plague,
    /// The game is over and final scoring is done.
    Over,
}

/// An action that breaks a rule; the state is left unchanged.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{rule}: {message}")]
pub struct IllegalAction {
    /// The rule broken, as a short tag (`placement`, `follower`, `turn` …).
    pub rule: &'static str,
    /// What is wrong, in words that say what to do instead.
    pub message: String,
}

pub(crate) fn illegal(rule: &'static str, message: impl Into<String>) -> IllegalAction {
    IllegalAction {
        rule,
        message: message.into(),
    }
}

/// A follower on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follower {
    /// Owner (seat index).
    pub player: u8,
    /// The piece it stands on.
    pub piece: u16,
    /// The feature of that piece.
    pub feature: u8,
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
}

/// A game in progress: every `Game` is a legal position.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) followers: Vec<Follower>,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    pub(crate) drawn: Option<TileIdx>,
    /// Tiles still to draw, next draw last.
    pub(crate) pile: Vec<TileIdx>,
    pub(crate) last: Option<u16>,
    pub(crate) events: Vec<Event>,
    /// The river, while river sets are in play.
    pub(crate) river: Option<River>,
    /// The gingerbread man, with the Winter Edition's Gingerbread Man.
    pub(crate) gingerbread: Option<Gingerbread>,
    /// Half-and-half hands.
    pub(crate) halves: Option<Halves>,
    /// Tiles above the drawn one that fit nowhere: discarded once the drawn
    /// tile is placed, put back if a half is played instead (Half-and-half).
    pub(crate) skipped: Vec<TileIdx>,
    /// Map Chips.
    pub(crate) chips: Option<Chips>,
    /// The Plague's tokens, when it is in play.
    pub(crate) plague: Option<Plague>,
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
            && self.river == other.river
            && self.gingerbread == other.gingerbread
            && self.halves == other.halves
            && self.skipped == other.skipped
            && self.chips == other.chips
            && self.plague == other.plague
    }
}

impl Game {
    /// Sets up a game with the built-in catalog.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        Game::with_catalog(config, Catalog::builtin())
    }

    /// Sets up a game with a given catalog (tests, user tile sets).
    pub fn with_catalog(config: GameConfig, catalog: Arc<Catalog>) -> Result<Game, ConfigError> {
        config.check_shape()?;
        let n = config.players.len();
        let options = Options::parse(&config.options)?;
        let setup = deck::build(&catalog, &config)?;
        // Checked by `deck::build` already; parsed once here for the rules.
        let on = registry::parse_config(&config)?;
        let half_sets: Vec<&str> = on.of_family(Family::Halves).map(ExpansionId::key).collect();
        let halves = if half_sets.is_empty() {
            None
        } else {
            Some(Halves::setup(
                &catalog,
                &half_sets,
                n,
                &options.halves,
                config.hands.as_ref(),
                config.seed,
            )?)
        };
        let in_hands = halves.as_ref().map_or(0, |h| {
            h.pool.len() + h.hands.iter().map(Vec::len).sum::<usize>()
        });
        let cells: usize = setup
            .pile
            .iter()
            .chain(std::iter::once(&setup.start))
            .map(|t| catalog.tile(*t).cell_count())
            .sum::<usize>()
            + in_hands;
        let map = match &config.map {
            None => None,
            Some(name) => {
                Some(MapDef::builtin(name).ok_or_else(|| ConfigError::UnknownMap(name.clone()))?)
            }
        };
        let mut pile = setup.pile;
        // On a map: the start tile on the first chosen start space, the
        // first normal tile drawn on the second.
        let mut starts = vec![(setup.start, Pos::new(0, 0))];
        if let Some(m) = &map {
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
            let [a, b] = options.start_spaces;
            starts[0].1 = pick(a)?;
            if let Some(i) = pile
                .iter()
                .position(|t| !river::is_river_tile(&catalog, *t))
            {
                starts.push((pile.remove(i), pick(b)?));
            }
        }
        let chips = match (&map, on.has(ExpansionId::MapChips)) {
            (Some(m), true) => Some(Chips::setup(m, n, config.seed, config.chips.as_ref())?),
            // A chip order without map-chips was refused by `check_shape`.
            _ => None,
        };
        let board = Board::new(cells, map.as_ref().map(|m| m.bounds.clone()));
        let rules = Arc::new(Rules {
            catalog,
            config,
            options,
            map,
            expansions: on,
        });
        pile.reverse();
        let mut game = Game {
            board,
            players: vec![
                PlayerState {
                    score: 0,
                    supply: rules.options.followers,
                };
                n
            ],
            followers: Vec::with_capacity(n * rules.options.followers as usize),
            current: 0,
            phase: Phase::Place,
            drawn: None,
            pile,
            last: None,
            events: Vec::new(),
            river: None,
            gingerbread: None,
            halves,
            skipped: Vec::new(),
            chips,
            plague: None,
            rules,
        };
        let cat = game.rules.catalog.clone();
        for (tile, at) in starts {
            game.board.place(&cat, tile, at, Rotation::default());
        }
        if on.has_family(Family::River) {
            let opts = game.rules.options.river.clone();
            game.river = Some(River::new(&game.rules.catalog, setup.start, opts));
        }
        if on.has(ExpansionId::Gingerbread) {
            // He starts in the start tile's city.
            let city = game
                .catalog()
                .tile(setup.start)
                .features
                .iter()
                .position(|f| f.kind == FeatureKind::City)
                .map(|fi| game.node(0, fi as u8));
            game.gingerbread = Some(Gingerbread::new(city));
        }
        if on.has(ExpansionId::Plague) {
            game.plague = Some(Plague::new());
        }
        game.draw();
        if let Some(first) = game.halves.as_ref().and_then(|h| h.drafter()) {
            if game.phase == Phase::Place {
                game.phase = Phase::Draft;
                game.current = first;
            }
        }
        Ok(game)
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
    pub fn current_player(&self) -> usize {
        self.current as usize
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

    /// The tile the current player must place (also while a Half-and-half
    /// player has yet to choose between a half and drawing it: see
    /// [`Game::visible_drawn_tile`] for what players may see).
    pub fn drawn_tile(&self) -> Option<TileIdx> {
        self.drawn
    }

    /// The drawn tile as the players see it: none while a Half-and-half
    /// player has not yet chosen to draw.
    pub fn visible_drawn_tile(&self) -> Option<TileIdx> {
        let pending = self.halves.is_some() && self.draw_pending();
        self.drawn
            .filter(|_| self.phase == Phase::Place && !pending)
    }

    /// Tiles left to draw (the drawn tile excluded).
    pub fn tiles_left(&self) -> usize {
        self.pile.len()
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
                // With a half to play, the player chooses before seeing the
                // drawn tile: the halves' placements and `draw`, never the
                // unseen tile's placements.
                let pending = self.halves.is_some() && self.draw_pending();
                if let Some(t) = self.drawn.filter(|_| !pending) {
                    self.placements(t, |a| {
                        out.push(a);
                        true
                    });
                }
                if self.halves.is_some() && (pending || self.drawn.is_none()) {
                    for h in self.playable_halves() {
                        self.placements(h, |a| {
                            out.push(a);
                            true
                        });
                    }
                }
                if pending {
                    out.push(Action::Draw);
                }
            }
            Phase::Draft => self.draft_actions(out),
            Phase::Follower => {
                self.follower_options(|a| out.push(a));
                if self.chips.is_some() {
                    self.trade_actions(out);
                }
                out.push(Action::Pass);
                if self.plague.is_some() {
                    self.plague_actions(out);
                }
            }
            Phase::Gingerbread => self.gingerbread_actions(out),
            Phase::Plague => self.plague_step_actions(out),
        }
    }

    /// Calls `f` with each legal placement of `tile` until it returns false.
    fn placements(&self, tile: TileIdx, f: impl FnMut(Action) -> bool) {
        match &self.river {
            Some(r) if self.rules.catalog.tile(tile).is_river => self.river_placements(r, tile, f),
            _ => self.edge_placements(tile, f),
        }
    }

    /// Placements where every touching edge matches.
    pub(crate) fn edge_placements(&self, tile: TileIdx, mut f: impl FnMut(Action) -> bool) {
        let cat = &*self.rules.catalog;
        let def = cat.tile(tile);
        if def.shape == Shape::Square {
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
        // Halves and multi-cell tiles: try every anchor that puts one of the
        // tile's cells on a candidate cell, then check in full.
        let mut cands: Vec<Pos> = self.board.frontier().iter().map(|c| c.pos).collect();
        cands.extend_from_slice(self.board.half_cells());
        let mut tried: Vec<(Pos, Rotation)> = Vec::new();
        for c in cands {
            for r in Rotation::ALL {
                for &(dx, dy) in &def.oriented(r).cells {
                    let anchor = c.offset(-dx, -dy);
                    if tried.contains(&(anchor, r)) {
                        continue;
                    }
                    tried.push((anchor, r));
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

    fn has_placement(&self, tile: TileIdx) -> bool {
        let mut any = false;
        self.placements(tile, |_| {
            any = true;
            false
        });
        any
    }

    /// Where a follower may go on the piece just placed.
    fn follower_options(&self, mut f: impl FnMut(Action)) {
        let (Some(pi), true) = (self.last, self.players[self.current as usize].supply > 0) else {
            return;
        };
        if self.follower_ban().is_some() {
            return;
        }
        let cat = &*self.rules.catalog;
        let piece = self.board.pieces()[pi as usize];
        let def = cat.tile(piece.tile);
        for (fi, feat) in def.features.iter().enumerate() {
            if !feat.kind.can_hold_follower() {
                continue;
            }
            let node = piece.node_base + fi as NodeId;
            if self.board.features().followers(node) > 0 {
                continue;
            }
            let (pos, place) = self.feature_anchor(pi, fi as u8);
            f(Action::Follower {
                pos,
                corner: piece.corner,
                place,
            });
        }
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
    /// matching, river and half rules, the gingerbread pass), so the two
    /// can never disagree on what an action does.
    fn transition(&mut self, action: &Action, mode: Mode) -> Result<(), IllegalAction> {
        let checked = mode == Mode::Checked;
        if checked {
            self.check_vocabulary(action)?;
        }
        match (*action, self.phase) {
            (_, Phase::Over) => Err(illegal("turn", "the game is over; no more actions")),
            (Action::Draft { tile }, Phase::Draft) => self.draft(tile),
            (Action::Gingerbread { pos, corner, place }, Phase::Gingerbread) => {
                let node = self.gingerbread_check(pos, corner, place)?;
                self.gingerbread_move(node);
                self.finish_turn();
                Ok(())
            }
            (Action::Pass, Phase::Gingerbread) => {
                let mut v = Vec::new();
                if checked {
                    self.gingerbread_actions(&mut v);
                }
                if checked && v != [Action::Pass] {
                    return Err(illegal(
                        "gingerbread",
                        "the gingerbread man must move to a different, unfinished city",
                    ));
                }
                self.gingerbread_stay();
                self.finish_turn();
                Ok(())
            }
            (_, Phase::Gingerbread) => Err(illegal(
                "turn",
                "move the gingerbread man first (a gingerbread action)",
            )),
            (_, Phase::Draft) => Err(illegal(
                "draft",
                "the halves are being drafted: take one with a draft action",
            )),
            (Action::Draft { .. }, _) => Err(illegal("draft", "the draft is over")),
            (Action::Place { tile, pos, rot }, Phase::Place) => {
                if !checked {
                    // From the legal list: a half from the hand, or the
                    // drawn tile (after `draw` when that was a choice).
                    if Some(tile) != self.drawn && self.in_hand(tile) {
                        self.take_from_hand(tile);
                    }
                    self.do_place(tile, pos, rot);
                    return Ok(());
                }
                let cat = self.rules.catalog.clone();
                let pending = self.halves.is_some() && self.draw_pending();
                if Some(tile) != self.drawn && self.in_hand(tile) {
                    if let Some(why) = self.half_ban() {
                        return Err(illegal("halves", why));
                    }
                    if !pending && self.drawn.is_some() {
                        return Err(illegal(
                            "halves",
                            "you drew a tile this turn: place it (a half is played instead of drawing, not after)",
                        ));
                    }
                    self.board
                        .check(&cat, tile, pos, rot)
                        .map_err(|e| placement_error(&e))?;
                    self.take_from_hand(tile);
                    self.do_place(tile, pos, rot);
                    return Ok(());
                }
                let drawn = self
                    .drawn
                    .ok_or_else(|| illegal("draw", "no tile fits anywhere: play a half tile from your hand"))?;
                if tile != drawn && pending {
                    // The tile to draw is unseen: say nothing about it.
                    return Err(illegal(
                        "draw",
                        format!(
                            "{} is not in your hand: play a half from your hand or draw",
                            cat.tile(tile).id
                        ),
                    ));
                }
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
                self.check_river_place(tile, pos, rot)?;
                // A placement of the drawn tile implies the draw (records
                // written before the `draw` step existed).
                if pending {
                    self.take_draw()?;
                }
                self.do_place(tile, pos, rot);
                Ok(())
            }
            (Action::Draw, _) => self.take_draw(),
            (Action::Place { .. }, _) => Err(illegal(
                "turn",
                "a tile is already placed this turn: place a follower or pass",
            )),
            (Action::Follower { pos, corner, place }, Phase::Follower) => {
                let (pi, fi) = self.check_follower(pos, corner, place)?;
                self.do_follower(pi, fi);
                self.end_follower_step();
                Ok(())
            }
            (Action::Pass, Phase::Follower) => {
                self.end_follower_step();
                Ok(())
            }
            (
                Action::Trade {
                    pos,
                    colour,
                    ones,
                    twos,
                },
                Phase::Follower,
            ) => {
                self.trade(pos, colour, ones, twos)?;
                self.end_follower_step();
                Ok(())
            }
            (Action::Trade { .. }, _) => Err(illegal(
                "trade",
                "chips are traded in the follower step, instead of placing a follower",
            )),
            (Action::Gingerbread { .. }, _) => Err(illegal(
                "gingerbread",
                "the gingerbread man moves only after a gingerbread tile's turn or when his city is completed",
            )),
            (Action::Flea { .. } | Action::Flee { .. }, _) => self.try_plague(action),
            (Action::Pass, Phase::Plague) if !checked => {
                self.end_turn();
                Ok(())
            }
            (Action::Pass, Phase::Plague) => self.plague_pass(),
            (Action::Follower { .. }, Phase::Plague) => Err(illegal(
                "turn",
                "the follower step is over: spread the plague, flee or pass",
            )),
            (Action::Follower { .. } | Action::Pass, Phase::Place) => {
                let cat = &self.rules.catalog;
                Err(illegal(
                    "turn",
                    match self.visible_drawn_tile() {
                        Some(t) => format!("the drawn tile {} must be placed first", cat.tile(t).id),
                        None => "play a half from your hand or draw first".to_string(),
                    },
                ))
            }
        }
    }

    /// Refuses, before any rule is looked at, an action whose cell lies
    /// beyond [`crate::geometry::COORD_LIMIT`] (where neighbour arithmetic
    /// could overflow) or that belongs to an expansion not in play.
    fn check_vocabulary(&self, action: &Action) -> Result<(), IllegalAction> {
        let pos = match *action {
            Action::Place { pos, .. }
            | Action::Follower { pos, .. }
            | Action::Trade { pos, .. }
            | Action::Gingerbread { pos, .. } => Some(pos),
            _ => None,
        };
        if let Some(p) = pos.filter(|p| !p.in_range()) {
            return Err(illegal(
                "coordinates",
                format!(
                    "cell {p} is off the board: coordinates run from -{0} to {0}",
                    crate::geometry::COORD_LIMIT
                ),
            ));
        }
        let absent = match action {
            Action::Trade { .. } if self.chips.is_none() => Some(("trade", "Map Chips")),
            Action::Gingerbread { .. } if self.gingerbread.is_none() => {
                Some(("gingerbread", "the Gingerbread Man"))
            }
            Action::Flea { .. } | Action::Flee { .. } if self.plague.is_none() => {
                Some(("plague", "the Plague"))
            }
            Action::Draft { .. } if self.halves.is_none() => Some(("draft", "Half-and-half")),
            _ => None,
        };
        match absent {
            Some((rule, name)) => Err(illegal(
                rule,
                format!("{name} is not in play in this game, so this action does not exist here"),
            )),
            None => Ok(()),
        }
    }

    /// Why no follower may be placed this turn, if an expansion forbids it.
    fn follower_ban(&self) -> Option<&'static str> {
        if let Some(why) = self.plague_follower_ban() {
            return Some(why);
        }
        let r = self.river.as_ref()?;
        let cat = &*self.rules.catalog;
        let piece = self.board.pieces()[self.last? as usize];
        if cat.tile(piece.tile).has_tag("volcano") {
            return Some("no follower may be placed on the lake with the volcano");
        }
        if r.options.no_followers_until_complete
            && (river::is_river_tile(cat, piece.tile)
                || self.pile.iter().any(|t| river::is_river_tile(cat, *t)))
        {
            return Some("house rule: no followers until the river is complete");
        }
        None
    }

    fn check_follower(
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
        let o = cat.tile(piece.tile).oriented(piece.rot);
        let part = o
            .cells
            .iter()
            .position(|&(dx, dy)| piece.pos.offset(dx, dy) == pos)
            .filter(|_| piece.corner == corner)
            .ok_or_else(|| {
                illegal(
                    "follower",
                    format!("a follower goes on the tile just placed, at {}", piece.pos),
                )
            })?;
        let fi = o.place_feature[part][place.index()];
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
        if self.players[self.current as usize].supply == 0 {
            return Err(illegal(
                "follower",
                "you have no follower left in your supply",
            ));
        }
        if self
            .board
            .features()
            .followers(piece.node_base + fi as NodeId)
            > 0
        {
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

    fn do_place(&mut self, tile: TileIdx, pos: Pos, rot: Rotation) {
        let cat = self.rules.catalog.clone();
        if let Some(r) = &mut self.river {
            if cat.tile(tile).is_river {
                let ends = r
                    .check(&self.board, &cat, tile, pos, rot)
                    .unwrap_or_default();
                r.placed(&cat, tile, pos, rot, ends);
            }
        }
        if Some(tile) == self.drawn {
            for t in std::mem::take(&mut self.skipped) {
                self.events.push(Event::discard(t, self.players.len()));
            }
        }
        let pi = self.board.place(&cat, tile, pos, rot);
        self.last = Some(pi);
        self.drawn = None;
        self.phase = Phase::Follower;
        if self.chips.is_some() {
            self.chips_after_place(pi);
        }
        if self.plague.is_some() {
            self.plague_placed(pi);
        }
    }

    fn do_follower(&mut self, pi: u16, fi: u8) {
        let node = self.board.pieces()[pi as usize].node_base + fi as NodeId;
        self.board.features_mut().add_followers(node, 1);
        self.players[self.current as usize].supply -= 1;
        self.followers.push(Follower {
            player: self.current,
            piece: pi,
            feature: fi,
        });
    }

    /// The follower step is over: an expansion may keep the turn going
    /// (the plague step), else the turn ends.
    fn end_follower_step(&mut self) {
        if self.plague.is_some() && self.enter_plague_step() {
            return;
        }
        self.end_turn();
    }

    /// After the follower step: score what the tile completed, then any
    /// step an expansion still owes, then the next turn.
    pub(crate) fn end_turn(&mut self) {
        if let Some(pi) = self.last {
            self.score_completed(pi);
            if self.gingerbread.is_some() && self.gingerbread_step_owed(pi) {
                self.phase = Phase::Gingerbread;
                return;
            }
        }
        self.finish_turn();
    }

    /// Passes the turn on and draws.
    fn finish_turn(&mut self) {
        let mut again = false;
        if let Some(pi) = self.last {
            // River II: after the volcano lake the same player draws again.
            again = self.river.is_some()
                && self
                    .rules
                    .catalog
                    .tile(self.board.pieces()[pi as usize].tile)
                    .has_tag("volcano");
        }
        self.last = None;
        if !again {
            self.current = (self.current + 1) % self.players.len() as u8;
        }
        if self.plague.is_some() && !self.pile.is_empty() {
            self.plague_turn_start();
        }
        self.draw();
    }

    /// Draws the next tile that fits somewhere, discarding those that fit
    /// nowhere; ends the game when the pile runs out.
    pub(crate) fn draw(&mut self) {
        if self.halves.is_some() {
            return self.draw_or_half();
        }
        while let Some(t) = self.pile.pop() {
            if self.has_placement(t) {
                self.drawn = Some(t);
                self.phase = Phase::Place;
                return;
            }
            self.events.push(Event::discard(t, self.players.len()));
        }
        self.drawn = None;
        self.final_scoring();
        self.phase = Phase::Over;
    }

    /// With half tiles a player may play a half instead of drawing, so tiles
    /// that fit nowhere are only set aside once the player draws: the tile
    /// offered is the first that fits, and those above it wait in
    /// `skipped`, to be discarded when it is placed or put back when a half
    /// is played.
    fn draw_or_half(&mut self) {
        if let Some(h) = &mut self.halves {
            h.drew = false;
        }
        while let Some(t) = self.pile.pop() {
            if self.has_placement(t) {
                self.drawn = Some(t);
                self.phase = Phase::Place;
                return;
            }
            self.skipped.push(t);
        }
        self.drawn = None;
        // Normal tiles remain but none fits: a half may still make room. With
        // no normal tile left the game is over.
        let can_play_half = !self.skipped.is_empty()
            && self
                .playable_halves()
                .into_iter()
                .any(|h| self.has_placement(h));
        if can_play_half {
            self.phase = Phase::Place;
            return;
        }
        for t in std::mem::take(&mut self.skipped) {
            self.events.push(Event::discard(t, self.players.len()));
        }
        self.final_scoring();
        self.phase = Phase::Over;
    }

    /// The node of feature `fi` of piece `pi`.
    pub fn node(&self, pi: u16, fi: u8) -> NodeId {
        self.board.pieces()[pi as usize].node_base + fi as NodeId
    }

    /// Kind of the feature a follower stands on.
    pub fn follower_kind(&self, f: &Follower) -> FeatureKind {
        let piece = self.board.pieces()[f.piece as usize];
        self.rules.catalog.tile(piece.tile).features[f.feature as usize].kind
    }
}

fn placement_error(e: &PlacementError) -> IllegalAction {
    illegal("placement", e.to_string())
}
