//! Half-and-half (first edition), `halfsies.md`.
//!
//! Each player holds two triangular half tiles, dealt at random or drafted.
//! On their turn a player may play a half from the hand instead of drawing;
//! the rest of the turn is normal. The board's geometry already knows halves:
//! a half touches along a full short side or along the long side of the other
//! half of its cell, and a triangular gap leaves edges open. The game ends
//! after the turn in which the last normal tile is placed; halves still in
//! hand are lost. A half replaces the draw of a *normal* tile: while river
//! tiles are drawn no half may be played. Scoring counts each half as a tile
//! (10/2015 rules), or two halves of a cell as one tile with
//! `halfsies_scoring = "2014"`.

use std::collections::BTreeMap;

use crate::catalog::{Catalog, TileIdx};
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{Expansion, ExpansionId, ExpansionState, Family, SetupCtx};
use crate::game::{illegal, placement_error, Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation};
use crate::rng::Rng;
use crate::scoring::Event;
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// Half-tile set ids.
pub const HALF_SETS: [&str; 2] = ["halfsies1", "halfsies2"];

/// Stream number of the deal (see [`Rng::for_stream`]).
pub const DEAL_STREAM: u64 = 2;

/// The message of a half refused while the river is drawn.
pub const HALF_DURING_RIVER: &str =
    "a river tile is drawn and must be placed: no half may be played until the river is finished";

/// Halves in each hand at the start.
pub const HAND_SIZE: usize = 2;

/// Options of Half-and-half.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HalfOptions {
    /// `draft`: halves are drafted face up instead of dealt.
    pub draft: bool,
    /// `halfsies_scoring = "2014"`: two halves in one cell count one tile.
    pub scoring_2014: bool,
}

impl HalfOptions {
    /// Option names and descriptions.
    pub const KNOWN: &'static [(&'static str, &'static str)] = &[
        (
            "draft",
            "true: halves are drafted face up, last player first",
        ),
        (
            "halfsies_scoring",
            "\"2015\" (default: each half is a tile) or \"2014\" (two halves of a cell count one)",
        ),
    ];

    /// Takes the Half-and-half options out of the options map.
    pub fn parse(map: &BTreeMap<String, serde_json::Value>) -> Result<HalfOptions, ConfigError> {
        let draft = match map.get("draft") {
            None => false,
            Some(v) => v.as_bool().ok_or_else(|| ConfigError::BadOption {
                name: "draft".into(),
                problem: format!("{v} is not true or false"),
            })?,
        };
        let scoring_2014 = match map.get("halfsies_scoring").map(|v| v.as_str()) {
            None | Some(Some("2015")) => false,
            Some(Some("2014")) => true,
            Some(_) => {
                return Err(ConfigError::BadOption {
                    name: "halfsies_scoring".into(),
                    problem: "use \"2015\" or \"2014\"".into(),
                })
            }
        };
        Ok(HalfOptions {
            draft,
            scoring_2014,
        })
    }
}

/// Hands of half tiles, and the draft while it lasts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halves {
    /// Each seat's halves (hidden from the others).
    pub hands: Vec<Vec<TileIdx>>,
    /// Face-up halves still to draft.
    pub pool: Vec<TileIdx>,
    /// Seats in drafting order (empty once the draft is over).
    pub draft_order: Vec<Seat>,
    /// Picks made so far.
    pub picks: usize,
    /// Whether the current player has drawn this turn (the `draw` step of
    /// `notation.md`): then the drawn tile must be placed, no half.
    pub drew: bool,
    /// Explicit chance: the halves chance deals from while the deal lasts
    /// (`to_deal` left; the k-th dealt goes to seat k mod players, as the
    /// seed deals them round the table).
    pub(crate) supply: Vec<TileIdx>,
    /// Explicit chance: halves still to deal.
    pub(crate) to_deal: usize,
}

/// Who deals the hands.
#[derive(Clone, Copy, Debug)]
enum Dealer<'a> {
    /// The configuration fixes them.
    Fixed(&'a Vec<Vec<String>>),
    /// The seed's shuffle.
    Seed(u64),
    /// Explicit chance: one chance node per half.
    Chance,
}

impl Halves {
    /// No hands yet: [`Halves::deal`] deals them.
    fn empty() -> Halves {
        Halves {
            hands: Vec::new(),
            pool: Vec::new(),
            draft_order: Vec::new(),
            picks: 0,
            drew: false,
            supply: Vec::new(),
            to_deal: 0,
        }
    }

    /// Deals the hands or prepares the draft, into these hands and
    /// keeping their memory (a new deal of the same configuration
    /// allocates nothing), as `dealer` says.
    fn deal<'a>(
        &mut self,
        cat: &Catalog,
        sets: impl IntoIterator<Item = &'a str>,
        players: usize,
        opts: &HalfOptions,
        dealer: Dealer<'_>,
    ) -> Result<(), ConfigError> {
        super::empty_hands(&mut self.hands, players);
        self.draft_order.clear();
        self.picks = 0;
        self.drew = false;
        self.supply.clear();
        self.to_deal = 0;
        // Every half in play, in the pool while the deal is made.
        let all = &mut self.pool;
        all.clear();
        for s in sets {
            let set = cat
                .set(s)
                .ok_or_else(|| ConfigError::NotImplemented(s.to_string()))?;
            for &t in &set.tiles {
                for _ in 0..cat.tile(t).count {
                    all.push(t);
                }
            }
        }
        if let Dealer::Fixed(hands) = dealer {
            if opts.draft {
                return Err(ConfigError::BadOption {
                    name: "hands".into(),
                    problem: "fixed hands and the draft exclude each other".into(),
                });
            }
            if hands.len() != players {
                return Err(ConfigError::BadOption {
                    name: "hands".into(),
                    problem: format!("give one hand per player ({players}), not {}", hands.len()),
                });
            }
            for (seat, hand) in hands.iter().enumerate() {
                for id in hand {
                    let t = cat.find(id).ok_or_else(|| ConfigError::BadOption {
                        name: "hands".into(),
                        problem: format!("seat {seat}: unknown tile id {id:?}"),
                    })?;
                    let i = all.iter().position(|a| *a == t).ok_or_else(|| ConfigError::BadOption {
                        name: "hands".into(),
                        problem: format!("seat {seat}: {id} is not a half of the sets in play, or is dealt twice"),
                    })?;
                    all.remove(i);
                    self.hands[seat].push(t);
                }
            }
            all.clear();
            return Ok(());
        }
        if all.len() < players * HAND_SIZE {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: format!(
                    "{} halves cannot give {players} players two each",
                    all.len()
                ),
            });
        }
        if opts.draft {
            // Last player first, then on in turn order; twice round. The
            // whole pool stays to draft.
            self.draft_order.extend((0..HAND_SIZE).flat_map(|_| {
                (0..players).filter_map(move |i| Seat::new((players - 1 + i) % players))
            }));
            return Ok(());
        }
        let Dealer::Seed(seed) = dealer else {
            // Chance deals them, one chance node per half.
            std::mem::swap(&mut self.supply, all);
            all.clear();
            self.to_deal = players * HAND_SIZE;
            return Ok(());
        };
        Rng::for_stream(seed, DEAL_STREAM).shuffle(all);
        for (i, &t) in all.iter().enumerate().take(players * HAND_SIZE) {
            self.hands[i % players].push(t);
        }
        all.clear();
        Ok(())
    }

    /// The seat to draft next, while the draft lasts.
    pub fn drafter(&self) -> Option<Seat> {
        self.draft_order.get(self.picks).copied()
    }
}

impl Game {
    /// The halves, when Half-and-half is in play.
    pub fn halves(&self) -> Option<&Halves> {
        self.ext.halves.as_ref()
    }

    /// Draft picks: one per kind still in the pool.
    pub(crate) fn draft_actions(&self, out: &mut Vec<Action>) {
        let Some(h) = &self.ext.halves else { return };
        let mut kinds: Vec<TileIdx> = h.pool.clone();
        kinds.sort();
        kinds.dedup();
        out.extend(kinds.into_iter().map(|tile| Action::Draft { tile }));
    }

    /// Takes a half from the pool into the drafter's hand.
    pub(crate) fn draft(&mut self, tile: TileIdx) -> Result<(), IllegalAction> {
        let cat = self.rules.catalog.clone();
        let Some(h) = &mut self.ext.halves else {
            return Err(IllegalAction {
                rule: "draft",
                message: "there is no draft in this game".into(),
            });
        };
        let seat = h.drafter().ok_or_else(|| IllegalAction {
            rule: "draft",
            message: "the draft is over".into(),
        })?;
        let i = h
            .pool
            .iter()
            .position(|t| *t == tile)
            .ok_or_else(|| IllegalAction {
                rule: "draft",
                message: format!(
                    "{} is not among the halves left to draft",
                    cat.tile(tile).id
                ),
            })?;
        h.pool.remove(i);
        h.hands[seat.index()].push(tile);
        h.picks += 1;
        match h.drafter() {
            Some(next) => self.current = next,
            None => {
                // Unused halves leave the game; play starts with seat 0.
                h.pool.clear();
                self.current = Seat::default();
                self.phase = crate::game::Phase::Place;
            }
        }
        Ok(())
    }

    /// Why no half may be played now. A half is played instead of drawing a
    /// *normal* tile (the seed): while a river tile is the tile to draw, the
    /// player must draw and place it (issue 12). The river is over for
    /// halves once the tile to draw is a normal one, also when the river
    /// tiles left fit nowhere (they can never fit again).
    pub(crate) fn half_ban(&self) -> Option<&'static str> {
        // With explicit chance nothing is drawn yet: the kind the due draw
        // will give (its part of the pile is public) decides.
        let t = self.drawn.or_else(|| self.next_draw_kind())?;
        self.rules
            .catalog
            .tile(t)
            .is_river
            .then_some(HALF_DURING_RIVER)
    }

    /// Whether the current player still chooses between playing a half and
    /// drawing: they hold a half they may play now and have not drawn. Until
    /// they draw, nobody sees the tile they would get, so the views, the
    /// legal actions and error messages leave it out.
    pub(crate) fn draw_pending(&self) -> bool {
        self.phase == Phase::Place
            && (self.drawn.is_some() || (self.chance.due && self.chance.drawable))
            && self
                .ext
                .halves
                .as_ref()
                .is_some_and(|h| !h.drew && !h.hands[self.current.index()].is_empty())
            && self.half_ban().is_none()
    }

    /// The `draw` action: the player takes the tile instead of a half.
    pub(crate) fn take_draw(&mut self) -> Result<(), IllegalAction> {
        if !self.draw_pending() {
            let why = match (self.phase, self.drawn) {
                (Phase::Place, None) => {
                    "no tile in the pile fits anywhere: play a half tile from your hand"
                }
                (Phase::Place, Some(_)) => {
                    "drawing is not a choice now (no half to play instead): place the drawn tile"
                }
                _ => "a tile is drawn only at the start of a turn",
            };
            return Err(IllegalAction {
                rule: "draw",
                message: why.into(),
            });
        }
        if let Some(h) = &mut self.ext.halves {
            h.drew = true;
        }
        Ok(())
    }

    /// Distinct halves the current player may play now, in tile order.
    /// (A hand holds a few halves: picking each next one from the hand
    /// costs less than sorting a copy, and allocates nothing.)
    pub(crate) fn playable_halves(&self) -> impl Iterator<Item = TileIdx> + '_ {
        let hand: &[TileIdx] = match &self.ext.halves {
            Some(h) if self.half_ban().is_none() => &h.hands[self.current.index()],
            _ => &[],
        };
        let mut last: Option<TileIdx> = None;
        std::iter::from_fn(move || {
            let next = hand
                .iter()
                .copied()
                .filter(|t| last.is_none_or(|l| *t > l))
                .min()?;
            last = Some(next);
            Some(next)
        })
    }

    /// Whether `tile` is a half in the current player's hand.
    pub(crate) fn in_hand(&self, tile: TileIdx) -> bool {
        self.ext
            .halves
            .as_ref()
            .is_some_and(|h| h.hands[self.current.index()].contains(&tile))
    }

    /// Discards the tiles passed over before the drawn one, in the order
    /// they were passed over, keeping the list's memory.
    fn discard_skipped(&mut self) {
        let n = self.players.len();
        self.events
            .extend(self.ext.skipped.iter().map(|&t| Event::discard(t, n)));
        self.ext.skipped.clear();
    }

    /// Plays a half from the hand: the drawn tile goes back on top of the
    /// pile, since playing a half replaces drawing.
    pub(crate) fn take_from_hand(&mut self, tile: TileIdx) {
        let seat = self.current.index();
        if let Some(h) = &mut self.ext.halves {
            if let Some(i) = h.hands[seat].iter().position(|t| *t == tile) {
                h.hands[seat].remove(i);
            }
        }
        if let Some(d) = self.drawn.take() {
            self.pile.push(d);
        }
        // Playing a half replaces drawing: tiles that were passed over stay.
        while let Some(t) = self.ext.skipped.pop() {
            self.pile.push(t);
        }
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// Half-and-half's hooks into the turn: the deal or draft at set-up, the
/// choice between a half and the draw, tiles that fit nowhere held until the
/// player draws, the 2014 scoring, the hidden hands.
pub(crate) struct Halfsies;

impl Expansion for Halfsies {
    const LISTS_PLACEMENTS: bool = true;

    const FAMILY: Family = Family::Halves;
    const SWITCH_ON: (&'static str, &'static str) =
        ("Half-and-half", "halfsies1 or halfsies2 to \"expansions\"");
    const OPTIONS: &'static [(&'static str, &'static str)] = HalfOptions::KNOWN;
    const FIELDS: &'static [&'static str] = &["hands"];

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.halves.is_some()
    }

    /// Its codec segment: `draw`, then (when drafting) one draft pick per
    /// catalog tile kind, numbered by catalog index.
    fn codec_size(_codec: &ActionCodec, g: &Game) -> usize {
        1 + if g.options().halves.draft {
            g.catalog().tiles().len()
        } else {
            0
        }
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        match *a {
            Action::Draw => Some(0),
            Action::Draft { tile } => {
                let i = 1 + tile.0 as usize;
                (i < Self::codec_size(codec, g)).then_some(i)
            }
            _ => None,
        }
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        match i {
            0 => Some(Action::Draw),
            _ => (i < Self::codec_size(codec, g)).then(|| Action::Draft {
                tile: TileIdx((i - 1) as u16),
            }),
        }
    }

    /// The halves in the hand of the player to act.
    fn hand(g: &Game, out: &mut Vec<TileIdx>) {
        if let Some(h) = g.halves() {
            out.extend_from_slice(&h.hands[g.current_player().index()]);
        }
    }

    /// A turn may add `draw`; every half dealt or drafted is a turn of its
    /// own, and every draft pick a move.
    fn max_moves(g: &Game) -> crate::expansions::MoveBound {
        let Some(h) = g.halves() else {
            return crate::expansions::MoveBound::default();
        };
        // With explicit chance, the halves still to deal: a chance node
        // each, then a turn each.
        let halves = h.hands.iter().map(Vec::len).sum::<usize>() + h.pool.len() + h.to_deal;
        crate::expansions::MoveBound {
            per_turn: 1,
            once: h.pool.len() + h.to_deal,
            turns: halves,
        }
    }

    /// Globals: the observer's own halves by tile kind (copies / 2, catalog
    /// size); halves in each seat's hand (relative to the observer) / 4;
    /// the draft pool by tile kind (copies / 2); the draw is still a choice.
    fn tensor_size(g: &Game) -> (usize, usize) {
        let kinds = g.catalog().tiles().len();
        (0, 2 * kinds + g.player_count() + 1)
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let player = player.index();
        let kinds = g.catalog().tiles().len();
        let n = g.player_count();
        let Some(h) = g.halves() else { return };
        let count = |tiles: &[TileIdx], t: &mut crate::codec::TensorPart<'_>| {
            let mut c = vec![0u32; kinds];
            for x in tiles {
                if let Some(k) = c.get_mut(x.0 as usize) {
                    *k += 1;
                }
            }
            for k in c {
                t.push(k as f32 / 2.0);
            }
        };
        // The own hand is hidden from the public observer unless the
        // halves were drafted face up.
        let own = if t.private() || g.options().halves.draft {
            h.hands.get(player).map(Vec::as_slice).unwrap_or_default()
        } else {
            &[]
        };
        count(own, t);
        for rel in 0..n {
            t.push(h.hands.get((player + rel) % n).map_or(0, Vec::len) as f32 / 4.0);
        }
        count(&h.pool, t);
        t.push(f32::from(u8::from(g.draw_pending())));
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Draft { .. }).then_some(("draft", "Half-and-half"))
    }

    fn setup(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
        let sets = ctx.on.of_family(Family::Halves).map(ExpansionId::key);
        let (players, opts) = (ctx.config.players.len(), &ctx.options.halves);
        let dealer = match ctx.config.hands.as_ref() {
            Some(hands) => Dealer::Fixed(hands),
            None if ctx.explicit_chance => Dealer::Chance,
            None => Dealer::Seed(ctx.config.seed),
        };
        // An earlier deal's hands, if any, are dealt again in place.
        ext.halves
            .get_or_insert_with(Halves::empty)
            .deal(ctx.catalog, sets, players, opts, dealer)
    }

    fn extra_cells(ext: &ExpansionState) -> usize {
        ext.halves.as_ref().map_or(0, |h| {
            h.pool.len() + h.supply.len() + h.hands.iter().map(Vec::len).sum::<usize>()
        })
    }

    fn opening(g: &mut Game) {
        if let Some(first) = g.ext.halves.as_ref().and_then(|h| h.drafter()) {
            if g.phase == Phase::Place {
                g.phase = Phase::Draft;
                g.current = first;
            }
        }
    }

    fn before_draw(g: &mut Game) {
        if let Some(h) = &mut g.ext.halves {
            h.drew = false;
        }
    }

    /// A player may play a half instead of drawing, so tiles that fit
    /// nowhere are only set aside once the player draws: those above the
    /// tile offered wait, to be discarded when it is placed or put back when
    /// a half is played.
    fn hold_unplaceable(g: &mut Game, t: TileIdx) -> bool {
        g.ext.skipped.push(t);
        true
    }

    /// Normal tiles remain but none fits: a half may still make room. With
    /// no normal tile left the game is over.
    fn play_without_draw(g: &mut Game) -> bool {
        let can_play_half =
            !g.ext.skipped.is_empty() && g.playable_halves().any(|h| g.has_placement(h));
        if can_play_half {
            return true;
        }
        g.discard_skipped();
        false
    }

    #[inline]
    fn draw_pending(g: &Game) -> bool {
        g.draw_pending()
    }

    /// While the draw is pending, the tile that would be drawn and those
    /// passed over before it have left the pile unseen.
    fn undisclosed_draws(g: &Game, out: &mut Vec<TileIdx>) {
        if g.draw_pending() {
            out.extend(g.drawn);
            out.extend_from_slice(&g.ext.skipped);
        }
    }

    fn other_placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
        // With explicit chance, a player who chose to draw waits for the
        // draw with no tile drawn: no half then.
        let drew = g.halves().is_some_and(|h| h.drew);
        if pending || (g.drawn.is_none() && !drew) {
            for h in g.playable_halves() {
                g.placements(h, |a| {
                    out.push(a);
                    true
                });
            }
        }
    }

    fn play_other_tile(
        g: &mut Game,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
        mode: Mode,
    ) -> Option<Result<(), IllegalAction>> {
        let in_hand = g.in_hand(tile);
        if mode == Mode::Trusted {
            if !in_hand {
                return None;
            }
            g.take_from_hand(tile);
            g.do_place(tile, pos, rot);
            return Some(Ok(()));
        }
        let pending = g.draw_pending();
        if in_hand {
            if let Some(why) = g.half_ban() {
                return Some(Err(illegal("halves", why)));
            }
            let drew = g.halves().is_some_and(|h| h.drew);
            if !pending && (g.drawn.is_some() || drew) {
                return Some(Err(illegal(
                    "halves",
                    "you drew a tile this turn: place it (a half is played instead of drawing, not after)",
                )));
            }
            if let Err(e) = g.board.check(&g.rules.catalog, tile, pos, rot) {
                return Some(Err(placement_error(&e)));
            }
            g.take_from_hand(tile);
            g.do_place(tile, pos, rot);
            return Some(Ok(()));
        }
        if crate::expansions::places_tile(g, tile) {
            // Another expansion's tile (the abbey): its rules decide.
            return None;
        }
        if g.drawn.is_none() {
            return Some(Err(illegal(
                "draw",
                "no tile fits anywhere: play a half tile from your hand",
            )));
        }
        if pending {
            // The tile to draw is unseen: say nothing about it.
            return Some(Err(illegal(
                "draw",
                format!(
                    "{} is not in your hand: play a half from your hand or draw",
                    g.rules.catalog.tile(tile).id
                ),
            )));
        }
        None
    }

    fn implied_draw(g: &mut Game) -> Result<(), IllegalAction> {
        if g.draw_pending() {
            g.take_draw()?;
        }
        Ok(())
    }

    fn draw_taken(g: &mut Game) {
        if let Some(h) = &mut g.ext.halves {
            h.drew = true;
        }
    }

    /// The drawn tile is placed: the tiles passed over before it leave.
    fn before_place(g: &mut Game, tile: TileIdx, _pos: Pos, _rot: Rotation) {
        if Some(tile) == g.drawn {
            g.discard_skipped();
        }
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Draft
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.draft_actions(out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match *a {
            Action::Draft { tile } => g.draft(tile),
            _ => Err(illegal(
                "draft",
                "the halves are being drafted: take one with a draft action",
            )),
        })
    }

    fn apply_action(_g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        matches!(a, Action::Draft { .. }).then(|| Err(illegal("draft", "the draft is over")))
    }

    /// Two halves of a cell count as one tile under the 2014 rules.
    fn count_per_cell(g: &Game) -> bool {
        g.rules.options.halves.scoring_2014
    }

    fn state_json(g: &Game, viewer: Viewer, out: &mut ExpansionsJson) {
        let cat = g.catalog();
        let Some(h) = g.halves() else { return };
        let id = |t: &TileIdx| cat.tile(*t).id.as_str();
        let hands: Vec<_> = h
            .hands
            .iter()
            .zip(g.seats())
            .map(|(hand, seat)| viewer.see(seat, hand.iter().map(id)))
            .collect();
        put(out, "hands", hands);
        if !h.pool.is_empty() {
            put(out, "draft_pool", h.pool.iter().map(id).collect::<Vec<_>>());
        }
    }

    /// While the draw is pending, the tile the player would get (and any
    /// passed over before it) is as hidden as the pile: it goes back in.
    fn unsee_draws(g: &mut Game) -> bool {
        if !g.draw_pending() {
            return false;
        }
        let mut undisclosed = Vec::new();
        Self::undisclosed_draws(g, &mut undisclosed);
        g.drawn = None;
        g.ext.skipped.clear();
        g.pile.extend(undisclosed);
        true
    }

    /// Dealt face down, the other hands are some of the halves `player` has
    /// not seen (not in their hand, not on the board). A drafted hand was
    /// taken face up, so it is public.
    fn resample(game: &mut Game, player: Seat, rng: &mut Rng) {
        let player = player.index();
        let Some(h) = &game.ext.halves else { return };
        if game.rules.options.halves.draft {
            return;
        }
        let cat = &game.rules.catalog;
        let mut unseen: Vec<TileIdx> = Vec::new();
        for id in game.rules.expansions.of_family(Family::Halves) {
            if let Some(s) = cat.set(id.key()) {
                for &t in &s.tiles {
                    for _ in 0..cat.tile(t).count {
                        unseen.push(t);
                    }
                }
            }
        }
        let seen = h.hands[player].iter().copied().chain(
            game.board
                .pieces()
                .iter()
                .filter(|p| p.corner.is_some())
                .map(|p| p.tile),
        );
        for t in seen {
            if let Some(i) = unseen.iter().position(|u| *u == t) {
                unseen.swap_remove(i);
            }
        }
        unseen.sort_unstable();
        rng.shuffle(&mut unseen);
        let sizes: Vec<usize> = h.hands.iter().map(Vec::len).collect();
        let mut hands = h.hands.clone();
        for (seat, size) in sizes.into_iter().enumerate() {
            if seat != player {
                hands[seat] = unseen.drain(..size.min(unseen.len())).collect();
            }
        }
        if let Some(h) = &mut game.ext.halves {
            h.hands = hands;
            // Mid-deal (explicit chance): the rest is what chance deals on.
            if h.to_deal > 0 {
                h.supply = unseen;
            }
        }
    }

    /// Explicit chance: the halves not yet dealt, while the deal lasts.
    fn chance_deal(g: &Game) -> Option<&[TileIdx]> {
        g.ext
            .halves
            .as_ref()
            .filter(|h| h.to_deal > 0)
            .map(|h| h.supply.as_slice())
    }

    /// Explicit chance: the half at `at` goes to the next seat round the
    /// table; after the last, the halves left leave the game.
    fn deal_chance(g: &mut Game, at: usize) {
        let Some(h) = &mut g.ext.halves else { return };
        if at >= h.supply.len() || h.to_deal == 0 {
            return;
        }
        let players = h.hands.len().max(1);
        let seat = (players * HAND_SIZE - h.to_deal) % players;
        let t = h.supply.remove(at);
        h.hands[seat].push(t);
        h.to_deal -= 1;
        if h.to_deal == 0 {
            h.supply.clear();
        }
    }
}
