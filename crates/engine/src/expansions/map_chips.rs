//! Maps of Carcassonne: Ukraine with Map Chips, `map-chips-ukraine.md`.
//!
//! Thirty chips (purple, blue, orange; each six 1s and four 2s) lie face down
//! as a supply. A tile placed beside an unbuilt Chumak square collects 2 chips
//! if its side towards the square has a road, else 1, per Chumak square it
//! touches. A tile built on a Chumak square scores the chips lying there, which
//! go back into the supply, reshuffled. Instead of placing a follower a player
//! may trade 1–4 chips of one colour onto a free chip space of an unbuilt
//! Chumak square for 1, 3, 6 or 10 points. Unused chips score nothing.

use crate::catalog::{FeatureKind, NO_FEATURE};
use crate::codec::ActionCodec;
use crate::config::{ConfigError, GameConfig};
use crate::expansions::{Expansion, ExpansionState, Family, SetupCtx};
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Side};
use crate::map::MapDef;
use crate::rng::Rng;
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// Stream number of the chip supply shuffles (see [`Rng::for_stream`]).
pub const CHIP_STREAM: u64 = 3;

/// Chip spaces on a Chumak square.
pub const SPACES: usize = 4;

/// Points for trading 1, 2, 3 or 4 chips at once.
pub const TRADE_POINTS: [u32; 5] = [0, 1, 3, 6, 10];

/// A chip colour: the vocabulary holds it, since a `trade` action names one.
pub use crate::action::Colour;

/// A map chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chip {
    /// Its colour.
    pub colour: Colour,
    /// 1 or 2.
    pub value: u8,
}

impl Chip {
    /// Parses `colour:value`, e.g. `purple:2`.
    pub fn parse(s: &str) -> Result<Chip, String> {
        let (c, v) = s
            .split_once(':')
            .ok_or_else(|| format!("chip {s:?}: write colour:value, e.g. \"purple:2\""))?;
        let value = match v {
            "1" => 1,
            "2" => 2,
            _ => return Err(format!("chip {s:?}: a chip is worth 1 or 2")),
        };
        Ok(Chip {
            colour: c.parse()?,
            value,
        })
    }

    /// `colour:value`.
    pub fn label(self) -> String {
        format!("{}:{}", self.colour, self.value)
    }
}

/// The 30 chips of the game.
pub fn all_chips() -> Vec<Chip> {
    let mut v = Vec::with_capacity(30);
    push_all_chips(&mut v);
    v
}

/// Pushes every chip onto `v`, in the order of [`all_chips`].
fn push_all_chips(v: &mut Vec<Chip>) {
    for colour in Colour::ALL {
        for value in [1u8, 1, 1, 1, 1, 1, 2, 2, 2, 2] {
            v.push(Chip { colour, value });
        }
    }
}

/// Chips one trade puts on a chip space, at most.
const SPACE_CHIPS: usize = 4;

/// The chips one trade put on a chip space: 1 to 4, of one colour. Read
/// it as a slice of chips. (Fixed size, so that a trade allocates nothing.)
#[derive(Clone, Copy, Debug)]
pub struct Space {
    chips: [Chip; SPACE_CHIPS],
    len: u8,
}

impl Space {
    const EMPTY: Space = Space {
        chips: [Chip {
            colour: Colour::Purple,
            value: 0,
        }; SPACE_CHIPS],
        len: 0,
    };

    /// Adds a chip; a full space keeps its chips (a trade is checked to
    /// put at most [`SPACE_CHIPS`]).
    fn push(&mut self, c: Chip) {
        if let Some(slot) = self.chips.get_mut(self.len as usize) {
            *slot = c;
            self.len += 1;
        }
    }
}

// Equal by the chips it holds, whatever the unused slots hold.
impl PartialEq for Space {
    fn eq(&self, other: &Space) -> bool {
        **self == **other
    }
}

impl Eq for Space {}

impl std::ops::Deref for Space {
    type Target = [Chip];
    fn deref(&self) -> &[Chip] {
        &self.chips[..self.len as usize]
    }
}

/// One Chumak square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chumak {
    /// Where it is.
    pub pos: Pos,
    /// Its town.
    pub name: String,
    /// Whether a tile lies on it.
    pub built: bool,
    /// Filled chip spaces (at most four), each with the chips traded there.
    pub spaces: Vec<Space>,
}

/// Trade codes per Chumak square: 3 colours × 0–4 chips worth 1 × 0–4
/// chips worth 2.
pub const TRADE_CODES: usize = 3 * 5 * 5;

/// Trades one square can offer at most: 3 colours × the 14 mixes of
/// one to four chips worth 1 or 2.
const MOST_TRADES_PER_SQUARE: usize = 3 * 14;

/// Chips in the supply, the hands and on the Chumak squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chips {
    /// Face-down supply; the next chip taken is the last.
    pub supply: Vec<Chip>,
    /// Each seat's chips (hidden from the others).
    pub hands: Vec<Vec<Chip>>,
    /// The map's Chumak squares.
    pub squares: Vec<Chumak>,
    /// Every chip taken from the supply so far, in order: what a record's
    /// `chips` fixes to replay the game.
    pub taken: Vec<Chip>,
    /// Explicit chance: the chips taken are chance outcomes.
    explicit: bool,
    /// Explicit chance: chips the current player is owed from the supply,
    /// each a chance node before their follower step.
    owed: u8,
    /// The configuration's `chip_draws` still to come, the next last.
    fixed: Vec<Chip>,
    /// How many chips `chip_draws` named in all.
    fixed_len: usize,
    /// The first of `chip_draws` that could not be drawn (not in the
    /// supply when its turn came), for a replay to stop at.
    misdrawn: Option<String>,
    rng: Rng,
}

impl Chips {
    /// No chips yet: [`Chips::deal`] deals them.
    fn empty() -> Chips {
        Chips {
            supply: Vec::new(),
            hands: Vec::new(),
            squares: Vec::new(),
            taken: Vec::new(),
            explicit: false,
            owed: 0,
            fixed: Vec::new(),
            fixed_len: 0,
            misdrawn: None,
            rng: Rng::for_stream(0, CHIP_STREAM),
        }
    }

    /// Shuffles the supply, empties the hands and the Chumak squares, into
    /// these vectors and keeping their memory (a new deal on the same map
    /// allocates nothing unless `top` is given); `top` (from the
    /// configuration) fixes the first chips taken (on top of the supply,
    /// so a reshuffle mixes those not yet taken, as the notation's records
    /// expect); `draws` (the configuration's `chip_draws`) fixes every
    /// chip drawn instead, across reshuffles; `explicit`: chance gives
    /// every chip taken.
    fn deal(
        &mut self,
        map: &MapDef,
        players: usize,
        seed: u64,
        (top, draws): (Option<&Vec<String>>, Option<&Vec<String>>),
        explicit: bool,
    ) -> Result<(), ConfigError> {
        self.rng = Rng::for_stream(seed, CHIP_STREAM);
        self.taken.clear();
        self.explicit = explicit;
        self.owed = 0;
        self.misdrawn = None;
        self.fixed.clear();
        if top.is_some() && draws.is_some() {
            return Err(ConfigError::BadOption {
                name: "chip_draws".into(),
                problem: "give either chips (the top of the supply) or chip_draws (every chip drawn), not both".into(),
            });
        }
        for (i, s) in draws.into_iter().flatten().enumerate() {
            let chip = parse_chip("chip_draws", i, s)?;
            self.fixed.push(chip);
        }
        self.fixed_len = self.fixed.len();
        // Drawn from the back, as the supply is.
        self.fixed.reverse();
        let rest = &mut self.supply;
        rest.clear();
        push_all_chips(rest);
        let mut first = Vec::new();
        for (i, s) in top.into_iter().flatten().enumerate() {
            let chip = parse_chip("chips", i, s)?;
            let at =
                rest.iter()
                    .position(|c| *c == chip)
                    .ok_or_else(|| ConfigError::BadOption {
                        name: "chips".into(),
                        problem: format!(
                        "position {i}: no {s} chip is left (each colour has six 1s and four 2s)"
                    ),
                    })?;
            rest.remove(at);
            first.push(chip);
        }
        self.rng.shuffle(rest);
        // The supply is taken from the back.
        first.reverse();
        rest.extend(first);
        super::empty_hands(&mut self.hands, players);
        // Room in each hand for every chip: a hand never grows in play.
        let all = self.supply.len();
        for hand in &mut self.hands {
            hand.reserve(all);
        }
        // Chips taken come back when a Chumak square is built and may be
        // taken again: room for four rounds of the supply, so that a long
        // game's log does not grow in a search's playouts.
        self.taken.reserve(4 * all);
        let same_squares = self.squares.len() == map.chumak.len()
            && self
                .squares
                .iter()
                .zip(&map.chumak)
                .all(|(s, (pos, name))| s.pos == *pos && s.name == *name);
        if same_squares {
            for s in &mut self.squares {
                s.built = false;
                s.spaces.clear();
            }
        } else {
            self.squares.clear();
            self.squares
                .extend(map.chumak.iter().map(|(pos, name)| Chumak {
                    pos: *pos,
                    name: name.clone(),
                    built: false,
                    spaces: Vec::with_capacity(SPACES),
                }));
        }
        Ok(())
    }

    fn square_at(&self, p: Pos) -> Option<usize> {
        self.squares.iter().position(|s| s.pos == p)
    }

    /// `seat` takes the top chip of the supply, or the next of
    /// `chip_draws`; with explicit chance, one more chip is owed, for
    /// chance to give.
    fn take(&mut self, seat: usize) {
        if self.explicit {
            if usize::from(self.owed) < self.supply.len() {
                self.owed += 1;
            }
            return;
        }
        let next = match self.fixed.pop() {
            Some(want) => match self.supply.iter().rposition(|c| *c == want) {
                Some(i) => Some(self.supply.remove(i)),
                None => {
                    if self.misdrawn.is_none() {
                        let at = self.fixed_len - self.fixed.len() - 1;
                        self.misdrawn = Some(format!(
                            "chip_draws position {at} names {}:{}, but no such chip is in the supply now ({} chips are): name a chip that is there",
                            want.colour.name(),
                            want.value,
                            self.supply.len()
                        ));
                    }
                    self.supply.pop()
                }
            },
            None => self.supply.pop(),
        };
        if let Some(c) = next {
            self.hands[seat].push(c);
            self.taken.push(c);
        }
    }
}

/// Chip `i` of the configuration's list `field`.
fn parse_chip(field: &str, i: usize, s: &str) -> Result<Chip, ConfigError> {
    Chip::parse(s).map_err(|problem| ConfigError::BadOption {
        name: field.into(),
        problem: format!("position {i}: {problem}"),
    })
}

/// Chance outcome codes of the chips: colour (purple, blue, orange) × 2 +
/// value − 1.
const CHIP_KINDS: u8 = 6;

fn chip_of_kind(kind: u8) -> Option<Chip> {
    let colour = *Colour::ALL.get(usize::from(kind / 2))?;
    (kind < CHIP_KINDS).then_some(Chip {
        colour,
        value: kind % 2 + 1,
    })
}

fn kind_of_chip(c: Chip) -> u8 {
    let colour = Colour::ALL.iter().position(|k| *k == c.colour).unwrap_or(0) as u8;
    colour * 2 + (c.value - 1)
}

impl Game {
    /// The chips, when Map Chips are in play.
    pub fn chips(&self) -> Option<&Chips> {
        self.ext.chips.as_ref()
    }

    /// After a tile is placed: building on a Chumak square scores its chips;
    /// then the tile collects chips for each unbuilt Chumak square it touches.
    pub(crate) fn chips_after_place(&mut self, pi: u16) {
        let piece = self.board.pieces()[pi as usize];
        let def = self.rules.catalog.tile(piece.tile);
        let o = def.oriented(piece.rot);
        let seat = self.current.index();
        let Some(chips) = &mut self.ext.chips else {
            return;
        };
        // Most placements are nowhere near an unbuilt Chumak square: one
        // pass over the squares settles that before any per-side search.
        let near = |s: &Chumak| {
            !s.built
                && o.cells.iter().any(|&(dx, dy)| {
                    let c = piece.pos.offset(dx, dy);
                    (s.pos.x.abs_diff(c.x) + s.pos.y.abs_diff(c.y)) <= 1
                })
        };
        if !chips.squares.iter().any(near) {
            return;
        }
        // Points per cell of the piece built on a Chumak square (a tile
        // has at most two cells).
        let mut gains = [0u32; 2];
        for (k, &(dx, dy)) in o.cells.iter().enumerate() {
            let cell = piece.pos.offset(dx, dy);
            if let Some(i) = chips.square_at(cell) {
                if !chips.squares[i].built {
                    chips.squares[i].built = true;
                    let mut points = 0u32;
                    for sp in chips.squares[i].spaces.drain(..) {
                        for &c in sp.iter() {
                            points += c.value as u32;
                            chips.supply.push(c);
                        }
                    }
                    chips.rng.shuffle(&mut chips.supply);
                    if let Some(g) = gains.get_mut(k) {
                        *g = points;
                    }
                }
            }
            for side in Side::ALL {
                if !o.sides[k][side.index()].present {
                    continue;
                }
                if piece.corner.is_some_and(|c| !c.touches(side)) {
                    continue;
                }
                let next = cell.step(side);
                let Some(i) = chips.square_at(next) else {
                    continue;
                };
                if chips.squares[i].built {
                    continue;
                }
                let f = o.place_feature[k][side.middle().index()];
                let road = f != NO_FEATURE && def.features[f as usize].kind == FeatureKind::Road;
                for _ in 0..if road { 2 } else { 1 } {
                    chips.take(seat);
                }
            }
        }
        for points in gains.into_iter().filter(|&p| p > 0) {
            let mut p = [0u32; 6];
            p[seat] = points;
            self.players[seat].score += points;
            self.events.push(Event {
                reason: Reason::Chips,
                feature: None,
                at: Some((piece.pos, piece.corner, crate::geometry::Place::C)),
                tiles: 0,
                extra: 0,
                points: p,
                followers: [0; 6],
                tile: None,
            });
        }
    }

    /// Trades the current player could make instead of placing a follower.
    pub(crate) fn trade_actions(&self, out: &mut Vec<Action>) {
        let Some(chips) = &self.ext.chips else { return };
        let hand = &chips.hands[self.current.index()];
        if hand.is_empty() {
            return;
        }
        // Room for the most trades the squares can ever offer at once, so
        // that a caller's reused list does not grow in a later playout.
        out.reserve(chips.squares.len() * MOST_TRADES_PER_SQUARE);
        // The hand's ones and twos per colour, counted once for every square.
        let mut counts = [[0u8; 2]; Colour::ALL.len()];
        for (colour, n) in Colour::ALL.iter().zip(counts.iter_mut()) {
            for c in hand.iter().filter(|c| c.colour == *colour) {
                if c.value == 1 {
                    n[0] = n[0].saturating_add(1);
                } else if c.value == 2 {
                    n[1] = n[1].saturating_add(1);
                }
            }
        }
        for sq in chips
            .squares
            .iter()
            .filter(|s| !s.built && s.spaces.len() < SPACES)
        {
            for (&colour, &[ones, twos]) in Colour::ALL.iter().zip(counts.iter()) {
                for o in 0..=ones.min(4) {
                    for t in 0..=twos.min(4 - o) {
                        if o + t > 0 {
                            out.push(Action::Trade {
                                pos: sq.pos,
                                colour,
                                ones: o,
                                twos: t,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Checks and makes a trade.
    pub(crate) fn trade(
        &mut self,
        pos: Pos,
        colour: Colour,
        ones: u8,
        twos: u8,
    ) -> Result<(), IllegalAction> {
        let err = |m: String| IllegalAction {
            rule: "trade",
            message: m,
        };
        let seat = self.current.index();
        let chips = self
            .ext
            .chips
            .as_mut()
            .ok_or_else(|| err("there are no map chips in this game".into()))?;
        // Outside callers may pass any counts: add them without overflow.
        let n = usize::from(ones) + usize::from(twos);
        if !(1..=4).contains(&n) {
            return Err(err(format!(
                "a trade puts 1 to 4 chips on one space, not {n}"
            )));
        }
        let i = chips
            .square_at(pos)
            .ok_or_else(|| err(format!("{pos} is not a Chumak square")))?;
        if chips.squares[i].built {
            return Err(err(format!(
                "a tile lies on the Chumak square at {pos}: trade only on unbuilt squares"
            )));
        }
        if chips.squares[i].spaces.len() >= SPACES {
            return Err(err(format!(
                "the Chumak square at {pos} has no free chip space"
            )));
        }
        let hand = &chips.hands[seat];
        let have = |v: u8| {
            hand.iter()
                .filter(|c| c.colour == colour && c.value == v)
                .count() as u8
        };
        if have(1) < ones || have(2) < twos {
            return Err(err(format!(
                "you hold {} {colour} 1s and {} {colour} 2s",
                have(1),
                have(2)
            )));
        }
        let mut space = Space::EMPTY;
        for (v, k) in [(1u8, ones), (2u8, twos)] {
            for _ in 0..k {
                let hand = &mut chips.hands[seat];
                if let Some(j) = hand.iter().position(|c| c.colour == colour && c.value == v) {
                    space.push(hand.remove(j));
                }
            }
        }
        chips.squares[i].spaces.push(space);
        let points = TRADE_POINTS[n];
        let mut p = [0u32; 6];
        p[seat] = points;
        self.players[seat].score += points;
        self.events.push(Event {
            reason: Reason::Trade,
            feature: None,
            at: Some((pos, None, crate::geometry::Place::C)),
            tiles: 0,
            extra: n as u32,
            points: p,
            followers: [0; 6],
            tile: None,
        });
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// Map Chips' hooks into the turn: the supply at set-up, chips won and
/// scored after each placement, trades instead of a follower, hidden hands.
pub(crate) struct MapChips;

impl Expansion for MapChips {
    const FAMILY: Family = Family::MapChips;
    const SWITCH_ON: (&'static str, &'static str) = ("Map Chips", "map-chips to \"expansions\"");
    const FIELDS: &'static [&'static str] = &["chips", "chip_draws"];

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.chips.is_some()
    }

    /// Its codec segment: trades, `((q·3 + c)·5 + ones)·5 + twos` for
    /// Chumak square `q` (its index in the map's list), colour `c`
    /// (purple, blue, orange) and 0–4 chips worth 1 and worth 2.
    fn codec_size(_codec: &ActionCodec, g: &Game) -> usize {
        g.chips().map_or(0, |c| c.squares.len() * TRADE_CODES)
    }

    fn encode(_codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        let Action::Trade {
            pos,
            colour,
            ones,
            twos,
        } = *a
        else {
            return None;
        };
        let q = g.chips()?.squares.iter().position(|s| s.pos == pos)?;
        let c = Colour::ALL.iter().position(|k| *k == colour)?;
        (ones < 5 && twos < 5)
            .then(|| q * TRADE_CODES + (c * 5 + ones as usize) * 5 + twos as usize)
    }

    fn decode(_codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        let pos = g.chips()?.squares.get(i / TRADE_CODES)?.pos;
        let i = i % TRADE_CODES;
        Some(Action::Trade {
            pos,
            colour: Colour::ALL[i / 25],
            ones: (i / 5 % 5) as u8,
            twos: (i % 5) as u8,
        })
    }

    /// Planes: the cell is off the map; an unbuilt Chumak square; chip
    /// spaces filled on a Chumak square / 4. Globals: the observer's own
    /// chips by colour (purple, blue, orange) worth 1 / 6 and worth 2 / 4;
    /// chips in each seat's hand (relative to the observer) / 30; chips in
    /// the supply / 30. Other seats' chips are counted, never shown.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (3, 6 + g.player_count() + 1)
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let player = player.index();
        let Some(c) = g.chips() else { return };
        let board = g.board();
        let r = t.radius();
        for y in -r..=r {
            for x in -r..=r {
                let p = Pos::new(x, y);
                if !board.allowed(p) {
                    t.set(0, p, 1.0);
                }
            }
        }
        for q in &c.squares {
            if !q.built {
                t.set(1, q.pos, 1.0);
            }
            t.set(2, q.pos, q.spaces.len() as f32 / 4.0);
        }
        // The public observer sees how many chips each seat holds, not which.
        let hand = match t.private() {
            true => c.hands.get(player).map(Vec::as_slice).unwrap_or_default(),
            false => &[],
        };
        for colour in Colour::ALL {
            for (value, of) in [(1u8, 6.0), (2, 4.0)] {
                let k = hand
                    .iter()
                    .filter(|h| h.colour == colour && h.value == value)
                    .count();
                t.push(k as f32 / of);
            }
        }
        let n = g.player_count();
        for rel in 0..n {
            t.push(c.hands.get((player + rel) % n).map_or(0, Vec::len) as f32 / 30.0);
        }
        t.push(c.supply.len() as f32 / 30.0);
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Trade { .. }).then_some(("trade", "Map Chips"))
    }

    /// With explicit chance, each chip a placement collects is a chance
    /// node: at most 2 per side of a two-cell tile (6 sides).
    fn max_moves(g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: if g.chips().is_some_and(|c| c.explicit) {
                12
            } else {
                0
            },
            ..Default::default()
        }
    }

    /// The registry makes Map Chips need a map; a chip order without
    /// map-chips was refused by `check_shape`.
    fn setup(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
        if let Some(m) = ctx.map {
            let (players, seed, fixed) = (
                ctx.config.players.len(),
                ctx.config.seed,
                (ctx.config.chips.as_ref(), ctx.config.chip_draws.as_ref()),
            );
            // An earlier deal's chips, if any, are dealt again in place.
            ext.chips.get_or_insert_with(Chips::empty).deal(
                m,
                players,
                seed,
                fixed,
                ctx.explicit_chance,
            )?;
        }
        Ok(())
    }

    fn after_place(g: &mut Game, pi: u16) {
        g.chips_after_place(pi);
    }

    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        g.trade_actions(out);
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let Action::Trade {
            pos,
            colour,
            ones,
            twos,
        } = *a
        else {
            return None;
        };
        if g.phase != Phase::Follower {
            return Some(Err(illegal(
                "trade",
                "chips are traded in the follower step, instead of placing a follower",
            )));
        }
        Some(
            g.trade(pos, colour, ones, twos)
                .map(|()| g.end_follower_step()),
        )
    }

    fn state_json(g: &Game, viewer: Viewer, out: &mut ExpansionsJson) {
        let Some(c) = g.chips() else { return };
        let chip = |c: &Chip| serde_json::json!({"colour": c.colour.name(), "value": c.value});
        put(
            out,
            "chips",
            serde_json::json!({
                "supply": c.supply.len(),
                "hands": c.hands.iter().zip(g.seats()).map(|(h, seat)| viewer.see(seat, h.iter().map(chip))).collect::<Vec<_>>(),
                "chumak": c.squares.iter().map(|s| serde_json::json!({
                    "x": s.pos.x,
                    "y": s.pos.y,
                    "name": s.name,
                    "built": s.built,
                    "spaces": s.spaces.iter().map(|sp| sp.iter().map(chip).collect::<Vec<_>>()).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }),
        );
    }

    /// A `chip_draws` chip that was not in the supply when drawn.
    fn misfixed(g: &Game) -> Option<String> {
        g.chips().and_then(|c| c.misdrawn.clone())
    }

    /// Explicit chance: chips are owed to the player who just placed.
    fn token_due(g: &Game) -> bool {
        g.chips().is_some_and(|c| c.owed > 0)
    }

    /// Explicit chance: the chips in the supply, by kind.
    fn token_draw(g: &Game) -> Option<Vec<(u8, u32)>> {
        let c = g.chips().filter(|c| c.owed > 0)?;
        let mut counts = [0u32; CHIP_KINDS as usize];
        for chip in &c.supply {
            counts[usize::from(kind_of_chip(*chip))] += 1;
        }
        Some(
            (0..CHIP_KINDS)
                .zip(counts)
                .filter(|(_, n)| *n > 0)
                .collect(),
        )
    }

    /// Explicit chance: a chip of `kind` leaves the supply for the hand of
    /// the player it is owed to.
    fn take_token(g: &mut Game, kind: u8) -> bool {
        let seat = g.current.index();
        let Some(c) = &mut g.ext.chips else {
            return false;
        };
        let Some(chip) = chip_of_kind(kind) else {
            return false;
        };
        let Some(i) = c.supply.iter().rposition(|x| *x == chip) else {
            return false;
        };
        if c.owed == 0 {
            return false;
        }
        c.supply.remove(i);
        c.hands[seat].push(chip);
        c.taken.push(chip);
        c.owed -= 1;
        true
    }

    const TOKEN_KINDS: u8 = CHIP_KINDS;

    /// A chip's name in records: `purple:1`.
    fn token_name(kind: u8) -> Option<String> {
        chip_of_kind(kind).map(|c| format!("{}:{}", c.colour.name(), c.value))
    }

    fn tokens_drawn(g: &Game, out: &mut Vec<u8>) {
        if let Some(c) = g.chips() {
            out.extend(c.taken.iter().map(|c| kind_of_chip(*c)));
        }
    }

    /// The chips drawn, across reshuffles: `chip_draws`.
    fn fix_tokens(config: &mut GameConfig, tokens: &mut Option<Vec<String>>) {
        config.chips = None;
        config.chip_draws = tokens.take();
    }

    /// The other hands and the supply order are hidden; their sizes are
    /// public.
    fn resample(game: &mut Game, player: Seat, rng: &mut Rng) {
        let player = player.index();
        let Some(c) = &mut game.ext.chips else { return };
        // The fixed draws are the hidden order too.
        c.fixed.clear();
        let mut pool: Vec<_> = c.supply.drain(..).collect();
        for (seat, hand) in c.hands.iter().enumerate() {
            if seat != player {
                pool.extend(hand.iter().copied());
            }
        }
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let supply_len = pool.len()
            - c.hands
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != player)
                .map(|(_, h)| h.len())
                .sum::<usize>();
        for seat in 0..c.hands.len() {
            if seat != player {
                let n = c.hands[seat].len();
                c.hands[seat] = pool.drain(..n).collect();
            }
        }
        debug_assert_eq!(pool.len(), supply_len);
        c.supply = pool;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(explicit: bool) -> Chips {
        let map = MapDef::builtin("ukraine").expect("the Ukraine map");
        let mut c = Chips::empty();
        c.deal(&map, 2, 7, (None, None), explicit).expect("a deal");
        c
    }

    #[test]
    fn explicit_chance_owes_no_more_chips_than_the_supply_holds() {
        let mut c = dealt(true);
        c.supply.truncate(1);
        c.take(0);
        c.take(0);
        c.take(0);
        // One chance node for the one chip left, none for the others.
        assert_eq!(c.owed, 1);
        assert!(c.hands[0].is_empty(), "chance gives the chips");
    }

    #[test]
    fn a_seeded_take_from_an_empty_supply_takes_nothing() {
        let mut c = dealt(false);
        c.supply.truncate(1);
        let last = c.supply[0];
        c.take(1);
        c.take(1);
        assert_eq!(c.hands[1], vec![last]);
        assert_eq!(c.taken, vec![last]);
    }
}
