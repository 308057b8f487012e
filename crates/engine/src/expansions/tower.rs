//! The Tower (second edition), `tower.md`.
//!
//! Eighteen land tiles join the pile (`catalog/tower.toml`), each with a
//! tower foundation (the tile tag `tower`). Each player gets floors by the
//! number of players. In the follower step, instead of a figure on the tile
//! just placed, a player may put one of their floors on any open foundation
//! or open tower of the board, or one of their normal or large followers on
//! top of any open tower, which closes it. After every floor, the capture
//! step (`Phase::Capture`): the player may take one follower standing in the
//! tower's reach (its own tile and, along its row and column, every tile at
//! most its height away, over gaps and other towers) off the board. An own
//! follower goes home; another player's becomes the capturer's prisoner,
//! unless its owner holds one of the capturer's, when the two are exchanged
//! at once. Once a turn, in the tile or follower step, a player with at least
//! 3 points may pay 3 to the holder of one of their prisoners to take it back.
//!
//! A follower on top of a tower is in no feature: it is kept here, in the
//! tower, never in `Game::followers`, so no scoring, flight or majority ever
//! sees it; prisoners are kept here too. The dragon eats a tower-top
//! follower ([`Expansion::clear_tile`]).
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

use crate::action::{Figure, TileAt};
use crate::catalog::{Tag, TileIdx};
use crate::codec::ActionCodec;
use crate::config::ConfigError;
use crate::expansions::{set_tiles, DeckCtx, Expansion, ExpansionId, Family, MoveBound};
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Place, Pos, Side};
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson, Viewer};

/// The tile tag of a tower foundation.
pub const FOUNDATION: &str = "tower";
/// What a ransom costs the payer and gives the holder.
pub const RANSOM: u32 = 3;

const FOUNDATION_TAG: Tag = Tag::known(FOUNDATION);

/// The figures that may stand on top of a tower or be held as prisoners
/// (Decision W1; mayor and wagon join when Abbey & Mayor brings them).
const TOWER_FIGURES: [Figure; 2] = [Figure::Normal, Figure::Big];

/// Floors each player gets at set-up for `players` players (WC-AGR, JCZ).
pub fn floors_per_player(players: usize) -> u8 {
    match players {
        0..=2 => 10,
        3 => 9,
        4 => 7,
        5 => 6,
        _ => 5,
    }
}

/// One tower foundation on the board, with its floors and its top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tower {
    /// The piece (tile) with the foundation.
    pub piece: u16,
    /// Floors on it (0: a foundation, not yet a tower).
    pub height: u8,
    /// The follower on top (its owner and figure), which closes it.
    pub top: Option<(Seat, Figure)>,
}

impl Tower {
    /// Whether a floor may still go on it.
    pub fn is_open(&self) -> bool {
        self.top.is_none()
    }
}

/// A follower held by another player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prisoner {
    /// The player holding it (its capturer).
    pub holder: Seat,
    /// Its owner.
    pub owner: Seat,
    /// Which figure it is.
    pub figure: Figure,
}

/// The state of the Tower in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TowerState {
    /// Floors in each seat's supply.
    floors: Vec<u8>,
    /// Every foundation on the board, in the order its tile was placed.
    towers: Vec<Tower>,
    /// Prisoners, in the order they were taken.
    prisoners: Vec<Prisoner>,
    /// Whether a ransom was paid this turn (once a turn, both parts).
    ransom_paid: bool,
    /// In the capture step: the index in `towers` of the tower just raised.
    capturing: Option<usize>,
}

impl TowerState {
    /// Floors left in `seat`'s supply.
    pub fn floors(&self, seat: Seat) -> u8 {
        self.floors.get(seat.index()).copied().unwrap_or(0)
    }

    /// Every foundation on the board, towers and empty ones.
    pub fn towers(&self) -> &[Tower] {
        &self.towers
    }

    /// The prisoners held.
    pub fn prisoners(&self) -> &[Prisoner] {
        &self.prisoners
    }

    /// Whether a ransom was paid this turn.
    pub fn ransom_paid(&self) -> bool {
        self.ransom_paid
    }
}

impl Game {
    /// The Tower's state, if it is in play.
    pub fn tower(&self) -> Option<&TowerState> {
        self.ext.tower.as_ref()
    }
}

/// Which follower a capture takes: one on a feature (its index in
/// `Game::followers`) or the one on top of a tower (its index in `towers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    OnFeature(usize),
    OnTop(usize),
}

impl Game {
    fn tower_state(&self) -> Option<&TowerState> {
        self.ext.tower.as_ref()
    }

    /// The tile of piece `pi` as actions name it.
    fn named_tile(&self, pi: u16) -> Option<TileAt> {
        let p = self.board.pieces()[pi as usize];
        TileAt::new(p.pos, p.corner)
    }

    /// The index in `towers` of the foundation on the tile named `to`.
    fn tower_index(&self, to: TileAt) -> Option<usize> {
        let pos = to.pos();
        let (pi, _) = self
            .board
            .pieces_at(pos)
            .find(|(q, _)| self.board.pieces()[*q as usize].corner == to.half)?;
        self.tower_state()?
            .towers
            .iter()
            .position(|t| t.piece == pi)
    }

    // -- The follower step: floors and tower tops ---------------------------

    /// Floors and followers on top the current player may place now.
    fn tower_moves(&self, out: &mut Vec<Action>) {
        let Some(s) = self.tower_state() else { return };
        // Room for the most this step can list (every foundation of the
        // game, three actions each, and the ransoms after `pass`), so that
        // a playout's buffer stops growing early (`tests/allocations.rs`).
        out.reserve(3 * s.towers.capacity().max(s.towers.len()) + 2 * 6 + 8);
        let seat = self.current;
        let has_floor = s.floors(seat) > 0;
        for t in s.towers.iter().filter(|t| t.is_open()) {
            let Some(to) = self.named_tile(t.piece) else {
                continue;
            };
            if has_floor {
                out.push(Action::Tower { to });
            }
            if t.height == 0 || crate::expansions::figure_ban_on(self, t.piece).is_some() {
                continue;
            }
            for figure in TOWER_FIGURES {
                if crate::expansions::figure_in_supply(self, seat, figure) {
                    out.push(Action::TowerTop { to, figure });
                }
            }
        }
    }

    /// The open tower or foundation at `to`, or why a floor or a follower
    /// may not go there.
    fn open_tower(&self, to: TileAt) -> Result<usize, IllegalAction> {
        let k = self.tower_index(to).ok_or_else(|| {
            illegal(
                "tower",
                format!(
                    "there is no tower foundation on a tile at {}: name a tower tile of the board",
                    to.pos()
                ),
            )
        })?;
        let t = self.tower_state().map(|s| s.towers[k]);
        if let Some((owner, _)) = t.and_then(|t| t.top) {
            return Err(illegal(
                "tower",
                format!(
                    "the tower at {} is closed: seat {}'s follower stands on top, so no floor or follower goes on it; choose an open tower",
                    to.pos(),
                    owner.index()
                ),
            ));
        }
        Ok(k)
    }

    /// A floor onto the tower `to`; the capture step follows.
    fn raise_tower(&mut self, to: TileAt) -> Result<(), IllegalAction> {
        let k = self.open_tower(to)?;
        let seat = self.current;
        let Some(s) = self.ext.tower.as_mut() else {
            return Err(illegal("tower", "the Tower is not in play in this game"));
        };
        if s.floors(seat) == 0 {
            return Err(illegal(
                "tower",
                "you have no tower floor left: put a follower on a tower or on your tile, or pass",
            ));
        }
        s.floors[seat.index()] -= 1;
        s.towers[k].height = s.towers[k].height.saturating_add(1);
        s.capturing = Some(k);
        self.phase = Phase::Capture;
        Ok(())
    }

    /// The current player's `figure` on top of the open tower `to`.
    fn crown_tower(&mut self, to: TileAt, figure: Figure) -> Result<(), IllegalAction> {
        let k = self.open_tower(to)?;
        if !TOWER_FIGURES.contains(&figure) {
            return Err(illegal(
                "tower",
                "only a normal or a large follower stands on top of a tower (Decision W1)",
            ));
        }
        let piece = self.tower_state().map_or(0, |s| s.towers[k].piece);
        if self.tower_state().is_some_and(|s| s.towers[k].height == 0) {
            return Err(illegal(
                "tower",
                format!(
                    "the foundation at {} has no floor yet: a follower goes only on top of a tower; place a floor first",
                    to.pos()
                ),
            ));
        }
        if let Some(why) = crate::expansions::figure_ban_on(self, piece) {
            return Err(illegal("tower", why));
        }
        let seat = self.current;
        if !crate::expansions::figure_in_supply(self, seat, figure) {
            return Err(illegal(
                "tower",
                "that follower is not in your supply: choose another or pass",
            ));
        }
        crate::expansions::take_from_supply(self, seat, figure);
        if let Some(s) = self.ext.tower.as_mut() {
            s.towers[k].top = Some((seat, figure));
        }
        self.end_follower_step();
        Ok(())
    }

    // -- The capture step ----------------------------------------------------

    /// How far piece `pi` lies from the cell `from` along its row or
    /// column, the tower's reach counting (Decision W5): an empty cell or a
    /// cell with one tile or half counts 1; a cell with two halves counts
    /// 2, the half whose short side faces the tower lying at the first of
    /// them. `None`: not on the row or column. A tile of several cells is
    /// as near as its nearest cell.
    fn reach_distance(&self, from: Pos, pi: u16) -> Option<u32> {
        let piece = self.board.pieces()[pi as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        o.cells
            .iter()
            .filter_map(|&(dx, dy)| {
                self.cell_distance(from, piece.pos.offset(dx, dy), piece.corner)
            })
            .min()
    }

    /// [`Game::reach_distance`] for one cell `to` of a piece (`half`: its
    /// corner if it is a half).
    fn cell_distance(
        &self,
        from: Pos,
        to: Pos,
        half: Option<crate::geometry::Corner>,
    ) -> Option<u32> {
        let side = match (to.x - from.x, to.y - from.y) {
            (0, 0) => return Some(0),
            (0, dy) if dy < 0 => Side::N,
            (0, _) => Side::S,
            (dx, 0) if dx > 0 => Side::E,
            (_, 0) => Side::W,
            _ => return None,
        };
        let facing = side.opposite();
        let mut d = 0u32;
        let mut c = from;
        loop {
            c = c.step(side);
            let two = self.board.pieces_in_cell(c) >= 2;
            if c == to {
                let far = two && !half.is_some_and(|k| k.touches(facing));
                return Some(d + 1 + u32::from(far));
            }
            d += if two { 2 } else { 1 };
        }
    }

    /// The tower of the capture step: its piece, cell and height.
    fn capturing_tower(&self) -> Option<(u16, Pos, u32)> {
        let s = self.tower_state()?;
        let t = s.towers.get(s.capturing?)?;
        let pos = self.board.pieces()[t.piece as usize].pos;
        Some((t.piece, pos, u32::from(t.height)))
    }

    /// Whether piece `pi` is in reach of the tower being raised.
    fn in_reach(&self, pi: u16) -> bool {
        let Some((_, from, h)) = self.capturing_tower() else {
            return false;
        };
        // Every cell the reach crosses counts at least one: a piece whose
        // cells all lie farther than the height (counted in cells) is out
        // of reach without walking the row to it, as most are.
        let piece = self.board.pieces()[pi as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let near = o.cells.iter().any(|&(dx, dy)| {
            let c = piece.pos.offset(dx, dy);
            (c.x - from.x).unsigned_abs() + (c.y - from.y).unsigned_abs() <= h
        });
        near && self.reach_distance(from, pi).is_some_and(|d| d <= h)
    }

    /// The kinds of `owner`'s followers that `holder` holds: bit `k` for
    /// `TOWER_FIGURES[k]` (a mask, so listing captures allocates nothing).
    fn held_kinds(&self, holder: Seat, owner: Seat) -> u8 {
        let mut kinds = 0u8;
        for p in self.tower_state().map_or(&[][..], |s| &s.prisoners) {
            if p.holder == holder && p.owner == owner {
                if let Some(k) = TOWER_FIGURES.iter().position(|f| *f == p.figure) {
                    kinds |= 1 << k;
                }
            }
        }
        kinds
    }

    /// The capture actions for the follower of `seat` named by `at` and
    /// `place`: one, or one per kind when the exchange is a choice.
    fn push_capture(
        &self,
        at: TileAt,
        place: Option<Place>,
        seat: Seat,
        figure: Figure,
        out: &mut Vec<Action>,
    ) {
        let kinds = if seat == self.current {
            0
        } else {
            self.held_kinds(seat, self.current)
        };
        let mut push = |exchange: Option<Figure>| {
            let a = Action::Capture {
                at,
                place,
                seat: seat.index() as u8,
                figure,
                exchange,
            };
            if !out.contains(&a) {
                out.push(a);
            }
        };
        if kinds.count_ones() > 1 {
            for (k, f) in TOWER_FIGURES.iter().enumerate() {
                if kinds & (1 << k) != 0 {
                    push(Some(*f));
                }
            }
        } else {
            push(None);
        }
    }

    /// The capture step's actions: every follower in reach, then `pass`.
    fn capture_moves(&self, out: &mut Vec<Action>) {
        let Some((own, _, _)) = self.capturing_tower() else {
            out.push(Action::Pass);
            return;
        };
        // Room for every follower of the game, each with an exchange
        // choice, so that a playout's buffer stops growing early.
        let most = self.players.len() * (usize::from(self.rules.options.followers) + 1);
        out.reserve(TOWER_FIGURES.len() * most + 1);
        for f in self.followers.iter().filter(|f| f.figure.is_follower()) {
            if !self.in_reach(f.piece) {
                continue;
            }
            let (pos, place) = self.feature_anchor(f.piece, f.feature);
            let corner = self.board.pieces()[f.piece as usize].corner;
            if let Some(at) = TileAt::new(pos, corner) {
                self.push_capture(at, Some(place), f.player, f.figure, out);
            }
        }
        let towers = self.tower_state().map_or(&[][..], |s| &s.towers);
        for t in towers {
            let Some((seat, figure)) = t.top else {
                continue;
            };
            if t.piece == own || !self.in_reach(t.piece) {
                continue;
            }
            if let Some(at) = self.named_tile(t.piece) {
                self.push_capture(at, None, seat, figure, out);
            }
        }
        out.push(Action::Pass);
    }

    /// The follower a capture names, or why there is none there.
    fn capture_target(
        &self,
        at: TileAt,
        place: Option<Place>,
        seat: u8,
        figure: Figure,
    ) -> Result<(Target, u16), IllegalAction> {
        let none = || {
            illegal(
                "capture",
                format!(
                    "seat {seat} has no such follower at {} {}: name a follower standing there",
                    at.pos(),
                    place.map_or("tower", Place::name)
                ),
            )
        };
        match place {
            None => {
                let k = self.tower_index(at).ok_or_else(none)?;
                let t = self.tower_state().map(|s| s.towers[k]).ok_or_else(none)?;
                match t.top {
                    Some((s, f)) if s.index() == usize::from(seat) && f == figure => {
                        Ok((Target::OnTop(k), t.piece))
                    }
                    _ => Err(none()),
                }
            }
            Some(p) => {
                let node = self
                    .board
                    .node_at(&self.rules.catalog, at.pos(), at.half, p)
                    .ok_or_else(none)?;
                let (pi, fi) = self.board.features().origin(node);
                let i = self
                    .followers
                    .iter()
                    .position(|f| {
                        f.piece == pi
                            && f.feature == fi
                            && f.player.index() == usize::from(seat)
                            && f.figure == figure
                    })
                    .ok_or_else(none)?;
                if !figure.is_follower() {
                    return Err(illegal(
                        "capture",
                        "a tower captures followers only: builders, pigs and other special figures cannot be taken",
                    ));
                }
                Ok((Target::OnFeature(i), pi))
            }
        }
    }

    /// Applies (or refuses) a capture in the capture step.
    fn capture(
        &mut self,
        at: TileAt,
        place: Option<Place>,
        seat: u8,
        figure: Figure,
        exchange: Option<Figure>,
    ) -> Result<(), IllegalAction> {
        let (target, pi) = self.capture_target(at, place, seat, figure)?;
        if !self.in_reach(pi) {
            let h = self.capturing_tower().map_or(0, |t| t.2);
            return Err(illegal(
                "capture",
                format!(
                    "the follower at {} is out of the tower's reach: a tower of height {h} reaches its own tile and {h} tiles along its row and column; capture within reach or pass",
                    at.pos()
                ),
            ));
        }
        let owner = self
            .seat(usize::from(seat))
            .ok_or_else(|| illegal("capture", format!("there is no seat {seat}")))?;
        let kinds = if owner == self.current {
            0
        } else {
            self.held_kinds(owner, self.current)
        };
        let held = |k: Figure| {
            TOWER_FIGURES
                .iter()
                .position(|f| *f == k)
                .is_some_and(|i| kinds & (1 << i) != 0)
        };
        let only = TOWER_FIGURES.iter().copied().find(|k| held(*k));
        let back = match (kinds.count_ones(), exchange) {
            (0, None) => None,
            (1, None) => only,
            (n, Some(k)) if n > 1 && held(k) => Some(k),
            (n, _) if n > 1 => {
                return Err(illegal(
                    "capture",
                    "the captured player holds more than one kind of your followers: name the one that comes back with \"exchange\"",
                ))
            }
            _ => {
                return Err(illegal(
                    "capture",
                    "\"exchange\" is only named when the prisoner exchange leaves a choice: leave it out",
                ))
            }
        };
        self.take_captured(target, owner);
        self.settle_prisoner(owner, figure, back);
        self.end_capture_step();
        Ok(())
    }

    /// Takes the captured follower off the board (event `capture`).
    fn take_captured(&mut self, target: Target, owner: Seat) {
        let (at, kind) = match target {
            Target::OnFeature(i) => {
                let f = self.followers.remove(i);
                let node = self.node(f.piece, f.feature);
                self.board.features_mut().add_followers(node, -1);
                let (pos, place) = self.feature_anchor(f.piece, f.feature);
                let corner = self.board.pieces()[f.piece as usize].corner;
                let kind = self.follower_kind(&f);
                // Builders and pigs left alone go home; the fairy stays.
                crate::expansions::followers_left(self);
                (Some((pos, corner, place)), Some(kind))
            }
            Target::OnTop(k) => {
                let mut pi = 0;
                if let Some(s) = self.ext.tower.as_mut() {
                    s.towers[k].top = None;
                    pi = s.towers[k].piece;
                }
                // The fairy beside it is with nobody now (Decision W7).
                crate::expansions::followers_left(self);
                (Some(self.top_at(pi)), None)
            }
        };
        if self.log_events {
            let mut who = [0u8; 6];
            who[owner.index()] = 1;
            self.events.push(Event {
                reason: Reason::Capture,
                feature: kind,
                at,
                tiles: 0,
                extra: self.current.index() as u32,
                points: [0; 6],
                followers: who,
                tile: None,
            });
        }
    }

    /// Where an event names the top of the tower on piece `pi`: its cell,
    /// with the centre as the place (the state JSON writes `tower`).
    fn top_at(&self, pi: u16) -> (Pos, Option<crate::geometry::Corner>, Place) {
        let p = self.board.pieces()[pi as usize];
        (p.pos, p.corner, Place::C)
    }

    /// The captured follower's fate: home if the capturer's own, else a
    /// prisoner, or exchanged at once for the capturer's follower of kind
    /// `back` that its owner holds.
    fn settle_prisoner(&mut self, owner: Seat, figure: Figure, back: Option<Figure>) {
        let capturer = self.current;
        let home = |player: Seat, figure: Figure| Follower {
            player,
            piece: 0,
            feature: 0,
            figure,
        };
        if owner == capturer {
            self.follower_home(home(owner, figure));
            return;
        }
        let Some(kind) = back else {
            if let Some(s) = self.ext.tower.as_mut() {
                s.prisoners.push(Prisoner {
                    holder: capturer,
                    owner,
                    figure,
                });
            }
            return;
        };
        if let Some(s) = self.ext.tower.as_mut() {
            if let Some(i) = s
                .prisoners
                .iter()
                .position(|p| p.holder == owner && p.owner == capturer && p.figure == kind)
            {
                s.prisoners.remove(i);
            }
        }
        self.follower_home(home(owner, figure));
        self.follower_home(home(capturer, kind));
        if self.log_events {
            let mut who = [0u8; 6];
            who[owner.index()] = 1;
            who[capturer.index()] = 1;
            self.events.push(Event {
                reason: Reason::Exchange,
                feature: None,
                at: None,
                tiles: 0,
                extra: 0,
                points: [0; 6],
                followers: who,
                tile: None,
            });
        }
    }

    /// The capture step is over: the follower step ends (scoring, the
    /// dragon and the other expansions' steps follow).
    fn end_capture_step(&mut self) {
        if let Some(s) = self.ext.tower.as_mut() {
            s.capturing = None;
        }
        self.phase = Phase::Follower;
        self.end_follower_step();
    }

    // -- Ransom -------------------------------------------------------------

    /// The prisoners the current player may ransom now.
    fn ransomable(&self) -> impl Iterator<Item = &Prisoner> + '_ {
        let seat = self.current;
        let open = |s: &&TowerState| !s.ransom_paid && self.players[seat.index()].score >= RANSOM;
        self.tower_state()
            .filter(open)
            .map_or(&[][..], |s| &s.prisoners)
            .iter()
            .filter(move |p| p.owner == seat)
    }

    /// The ransoms the current player may pay now.
    fn ransom_moves(&self, out: &mut Vec<Action>) {
        for p in self.ransomable() {
            let a = Action::Ransom {
                seat: p.holder.index() as u8,
                figure: p.figure,
            };
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }

    /// Whether the current player may pay a ransom now.
    fn can_ransom(&self) -> bool {
        self.ransomable().next().is_some()
    }

    /// The current player pays 3 points to `holder` for their `figure`.
    fn pay_ransom(&mut self, holder: u8, figure: Figure) -> Result<(), IllegalAction> {
        if !matches!(self.phase, Phase::Place | Phase::Follower) {
            return Err(illegal(
                "ransom",
                "a ransom is paid in your tile step or follower step, before the step's action",
            ));
        }
        let payer = self.current;
        let Some(s) = self.tower_state() else {
            return Err(illegal("ransom", "the Tower is not in play in this game"));
        };
        if s.ransom_paid {
            return Err(illegal(
                "ransom",
                "a ransom is paid at most once a turn: take your other prisoners back on a later turn",
            ));
        }
        let i = s
            .prisoners
            .iter()
            .position(|p| {
                p.owner == payer && p.holder.index() == usize::from(holder) && p.figure == figure
            })
            .ok_or_else(|| {
                illegal(
                    "ransom",
                    format!("seat {holder} holds no such follower of yours as a prisoner"),
                )
            })?;
        if self.players[payer.index()].score < RANSOM {
            return Err(illegal(
                "ransom",
                format!(
                    "a ransom costs {RANSOM} points and you have {}: score first (Decision W4)",
                    self.players[payer.index()].score
                ),
            ));
        }
        let Some(s) = self.ext.tower.as_mut() else {
            return Ok(());
        };
        let p = s.prisoners.remove(i);
        s.ransom_paid = true;
        self.players[payer.index()].score -= RANSOM;
        let h = &mut self.players[p.holder.index()].score;
        *h = h.saturating_add(RANSOM);
        self.follower_home(Follower {
            player: payer,
            piece: 0,
            feature: 0,
            figure,
        });
        if self.log_events {
            let mut points = [0; 6];
            points[p.holder.index()] = RANSOM;
            let mut who = [0u8; 6];
            who[payer.index()] = 1;
            self.events.push(Event {
                reason: Reason::Ransom,
                feature: None,
                at: None,
                tiles: 0,
                extra: payer.index() as u32,
                points,
                followers: who,
                tile: None,
            });
        }
        Ok(())
    }

    // -- Figures leaving a tower top -----------------------------------------

    /// The follower on top of the tower on piece `pi`, if any, goes home
    /// (the dragon eats it, event `eaten`; a flea, event `plague`); the
    /// tower is open again
    /// (Decision W2).
    fn clear_tower_top(&mut self, pi: u16, reason: Reason) {
        let Some(s) = self.ext.tower.as_mut() else {
            return;
        };
        let Some(t) = s.towers.iter_mut().find(|t| t.piece == pi) else {
            return;
        };
        let Some((owner, figure)) = t.top.take() else {
            return;
        };
        self.follower_home(Follower {
            player: owner,
            piece: pi,
            feature: 0,
            figure,
        });
        crate::expansions::followers_left(self);
        if self.log_events {
            let mut who = [0u8; 6];
            who[owner.index()] = 1;
            let at = self.top_at(pi);
            self.events.push(Event {
                reason,
                feature: None,
                at: Some(at),
                tiles: 0,
                extra: 0,
                points: [0; 6],
                followers: who,
                tile: None,
            });
        }
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// The Tower's hooks into the turn.
pub(crate) struct TowerRules;

impl Expansion for TowerRules {
    const FAMILY: Family = Family::Tower;
    const SWITCH_ON: (&'static str, &'static str) = ("The Tower", "tower to \"expansions\"");

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.tower.is_some()
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        match a {
            Action::Tower { .. } | Action::TowerTop { .. } => Some(("tower", "The Tower")),
            Action::Capture { .. } => Some(("capture", "The Tower")),
            Action::Ransom { .. } => Some(("ransom", "The Tower")),
            _ => None,
        }
    }

    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        TowerRules::layout(codec).iter().sum()
    }

    fn encode(codec: &ActionCodec, _g: &Game, a: &Action) -> Option<usize> {
        TowerRules::encode_action(codec, a)
    }

    fn decode(codec: &ActionCodec, _g: &Game, i: usize) -> Option<Action> {
        TowerRules::decode_action(codec, i)
    }

    /// Planes: tower heights, then one per relative player for its
    /// follower on top; globals per relative player: floors left,
    /// prisoners held, its own followers held by others.
    fn tensor_size(g: &Game) -> (usize, usize) {
        let n = g.player_count();
        (1 + n, 3 * n)
    }

    /// Everything here is public.
    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        let Some(s) = g.tower() else {
            for _ in 0..3 * n {
                t.push(0.0);
            }
            return;
        };
        for w in &s.towers {
            // Heights / 10: a tower rarely grows past ten floors.
            t.set_piece(g, 0, w.piece, (f32::from(w.height) / 10.0).min(1.0));
            if let Some((seat, _)) = w.top {
                t.set_piece(g, 1 + seat.after(player, n), w.piece, 1.0);
            }
        }
        for r in 0..n {
            let seat = player.ahead(r, n);
            let held = s.prisoners.iter().filter(|p| p.holder == seat).count();
            let lost = s.prisoners.iter().filter(|p| p.owner == seat).count();
            t.push(f32::from(s.floors(seat)) / 10.0);
            t.push(held as f32 / 8.0);
            t.push(lost as f32 / 8.0);
        }
    }

    /// A floor and its capture in each part, and a ransom once a turn.
    fn max_moves(_g: &Game) -> MoveBound {
        MoveBound {
            per_turn: 3,
            ..MoveBound::default()
        }
    }

    fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        set_tiles(ctx, ExpansionId::Tower, bag)
    }

    /// Floors for every seat; the earlier deal's vectors are reused.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        let s = g.ext.tower.get_or_insert_with(|| TowerState {
            floors: Vec::with_capacity(n),
            towers: Vec::new(),
            prisoners: Vec::new(),
            ransom_paid: false,
            capturing: None,
        });
        s.floors.clear();
        s.floors.resize(n, floors_per_player(n));
        s.towers.clear();
        s.prisoners.clear();
        // Room for every foundation of the pile and every follower held, so
        // that no playout grows them (`tests/allocations.rs`).
        let cat = &g.rules.catalog;
        let foundations = g
            .pile
            .iter()
            .filter(|t| cat.tile(**t).tags.contains(FOUNDATION_TAG))
            .count();
        s.towers.reserve(foundations);
        s.prisoners
            .reserve(n * (usize::from(g.rules.options.followers) + 1));
        // And for this expansion's events: a capture and an exchange in
        // each of a turn's two parts and a ransom, beyond the turn
        // machine's room.
        let room = g.rules.event_room + 5 * g.pile.len();
        g.events.reserve(room);
        s.ransom_paid = false;
        s.capturing = None;
    }

    /// A tile with a foundation adds it to the board's towers.
    fn after_place(g: &mut Game, pi: u16) {
        let tile = g.board.pieces()[pi as usize].tile;
        if !g.rules.catalog.tile(tile).tags.contains(FOUNDATION_TAG) {
            return;
        }
        if let Some(s) = g.ext.tower.as_mut() {
            s.towers.push(Tower {
                piece: pi,
                height: 0,
                top: None,
            });
        }
    }

    /// Whether the place step lists more than the drawn tile's edge
    /// placements: a ransom is open.
    fn lists_placements_of(g: &Game, _tile: TileIdx) -> bool {
        g.phase == Phase::Place && g.can_ransom()
    }

    /// The ransom, open in the tile step once there is a tile to place
    /// (or a draw to choose): never where the turn waits for a chance
    /// draw, and not in the builder step, which lists these too.
    fn other_placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
        if g.phase == Phase::Place && (g.drawn.is_some() || pending) {
            g.ransom_moves(out);
        }
    }

    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        g.tower_moves(out);
    }

    /// The ransom, open in the follower step without ending it.
    fn extra_actions(g: &Game, out: &mut Vec<Action>) {
        if g.phase == Phase::Follower {
            g.ransom_moves(out);
        }
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Capture
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.capture_moves(out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match *a {
            Action::Capture {
                at,
                place,
                seat,
                figure,
                exchange,
            } => g.capture(at, place, seat, figure, exchange),
            Action::Pass => {
                g.end_capture_step();
                Ok(())
            }
            _ => Err(illegal(
                "capture",
                "the capture step: capture a follower in the tower's reach or pass",
            )),
        })
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let in_step = g.phase == Phase::Follower;
        let outside = || {
            Err(illegal(
                "tower",
                "floors and followers go on towers in your follower step, after placing your tile",
            ))
        };
        Some(match *a {
            Action::Tower { to } if in_step => g.raise_tower(to),
            Action::TowerTop { to, figure } if in_step => g.crown_tower(to, figure),
            Action::Tower { .. } | Action::TowerTop { .. } => outside(),
            Action::Ransom { seat, figure } => g.pay_ransom(seat, figure),
            Action::Capture { .. } => Err(illegal(
                "capture",
                "a capture follows a floor placed this turn: place a floor first",
            )),
            _ => return None,
        })
    }

    /// The dragon eats a follower on top of a tower on the tile it enters;
    /// the floors stay.
    fn clear_tile(g: &mut Game, pi: u16) {
        g.clear_tower_top(pi, Reason::Eaten);
    }

    /// The followers on top of towers stand on their tile in no feature
    /// (the fairy may be with one, Decision W7).
    fn followers_off_features(g: &Game, f: &mut dyn FnMut(Seat, u16)) {
        let Some(s) = g.tower_state() else { return };
        for t in &s.towers {
            if let Some((seat, _)) = t.top {
                f(seat, t.piece);
            }
        }
    }

    /// A flea's tile sends a tower-top follower home (Decision W6).
    fn figures_home_on(g: &mut Game, pi: u16, reason: Reason) {
        g.clear_tower_top(pi, reason);
    }

    /// A new turn: the ransom may be paid again.
    fn turn_start(g: &mut Game) {
        if let Some(s) = g.ext.tower.as_mut() {
            s.ransom_paid = false;
        }
    }

    fn state_json(g: &Game, _viewer: Viewer, out: &mut ExpansionsJson) {
        let Some(s) = g.tower() else { return };
        let towers: Vec<serde_json::Value> = s
            .towers
            .iter()
            .map(|t| {
                let p = g.board.pieces()[t.piece as usize];
                let mut v = serde_json::json!({"x": p.pos.x, "y": p.pos.y, "height": t.height});
                if let Some((seat, figure)) = t.top {
                    let mut top = serde_json::json!({"seat": seat.index()});
                    if let Some(name) = figure.name() {
                        top["figure"] = name.into();
                    }
                    v["top"] = top;
                }
                v
            })
            .collect();
        let prisoners: Vec<serde_json::Value> = s
            .prisoners
            .iter()
            .map(|p| {
                let mut v =
                    serde_json::json!({"holder": p.holder.index(), "seat": p.owner.index()});
                if let Some(name) = p.figure.name() {
                    v["figure"] = name.into();
                }
                v
            })
            .collect();
        let mut v = serde_json::json!({
            "floors": s.floors,
            "towers": towers,
            "prisoners": prisoners,
            "ransom_paid": s.ransom_paid,
        });
        // In the capture step: the tiles in the new tower's reach, its own
        // included, in placement order (what a table draws as the reach).
        if g.capturing_tower().is_some() {
            let reach: Vec<serde_json::Value> = (0..g.board.pieces().len() as u16)
                .filter(|&pi| g.in_reach(pi))
                .map(|pi| {
                    let p = g.board.pieces()[pi as usize];
                    let mut c = serde_json::json!({"x": p.pos.x, "y": p.pos.y});
                    if let Some(h) = p.corner {
                        c["half"] = h.name().into();
                    }
                    c
                })
                .collect();
            v["reach"] = reach.into();
        }
        put(out, "tower", v);
    }
}

// ---------------------------------------------------------------------------
// The action codec

/// The capture variants of one place: seat (6) × figure × exchange (none,
/// or the kind that comes back).
const CAPTURE_VARIANTS: usize = 6 * TOWER_FIGURES.len() * (1 + TOWER_FIGURES.len());

/// The position of a capture's seat, figure and exchange among
/// [`CAPTURE_VARIANTS`].
fn capture_variant(seat: u8, figure: Figure, exchange: Option<Figure>) -> Option<usize> {
    let n = TOWER_FIGURES.len();
    let seat = usize::from(seat);
    (seat < 6).then_some(())?;
    let f = TOWER_FIGURES.iter().position(|x| *x == figure)?;
    let e = match exchange {
        None => 0,
        Some(k) => 1 + TOWER_FIGURES.iter().position(|x| *x == k)?,
    };
    Some((seat * n + f) * (1 + n) + e)
}

/// The seat, figure and exchange of variant `v`.
fn variant_of(v: usize) -> Option<(u8, Figure, Option<Figure>)> {
    let n = TOWER_FIGURES.len();
    let e = v % (1 + n);
    let f = (v / (1 + n)) % n;
    let seat = u8::try_from(v / ((1 + n) * n)).ok().filter(|s| *s < 6)?;
    let exchange = if e == 0 {
        None
    } else {
        Some(TOWER_FIGURES[e - 1])
    };
    Some((seat, TOWER_FIGURES[f], exchange))
}

impl TowerRules {
    /// The segment's layout: floors by tile, tower tops by figure and
    /// tile, captures on tower tops by variant and tile, captures on
    /// features by variant and place, ransoms by seat and figure.
    fn layout(codec: &ActionCodec) -> [usize; 5] {
        let (t, f) = (codec.tile_codes(), codec.feature_codes());
        [
            t,
            TOWER_FIGURES.len() * t,
            CAPTURE_VARIANTS * t,
            CAPTURE_VARIANTS * f,
            6 * TOWER_FIGURES.len(),
        ]
    }

    fn encode_action(codec: &ActionCodec, a: &Action) -> Option<usize> {
        let [floors, tops, top_caps, feature_caps, _] = Self::layout(codec);
        let t = codec.tile_codes();
        match *a {
            Action::Tower { to } => codec.tile_code(to.pos(), to.half),
            Action::TowerTop { to, figure } => {
                let k = TOWER_FIGURES.iter().position(|x| *x == figure)?;
                Some(floors + k * t + codec.tile_code(to.pos(), to.half)?)
            }
            Action::Capture {
                at,
                place: None,
                seat,
                figure,
                exchange,
            } => {
                let v = capture_variant(seat, figure, exchange)?;
                Some(floors + tops + v * t + codec.tile_code(at.pos(), at.half)?)
            }
            Action::Capture {
                at,
                place: Some(place),
                seat,
                figure,
                exchange,
            } => {
                let v = capture_variant(seat, figure, exchange)?;
                let code = codec.feature_code(at.pos(), at.half, place)?;
                Some(floors + tops + top_caps + v * codec.feature_codes() + code)
            }
            Action::Ransom { seat, figure } => {
                let k = TOWER_FIGURES.iter().position(|x| *x == figure)?;
                let seat = usize::from(seat);
                (seat < 6).then_some(())?;
                Some(floors + tops + top_caps + feature_caps + seat * TOWER_FIGURES.len() + k)
            }
            _ => None,
        }
    }

    fn decode_action(codec: &ActionCodec, mut i: usize) -> Option<Action> {
        let [floors, tops, top_caps, feature_caps, _] = Self::layout(codec);
        let (t, f) = (codec.tile_codes(), codec.feature_codes());
        let tile = |code: usize| {
            let (pos, half) = codec.tile_of(code)?;
            TileAt::new(pos, half)
        };
        if i < floors {
            return Some(Action::Tower { to: tile(i)? });
        }
        i -= floors;
        if i < tops {
            return Some(Action::TowerTop {
                to: tile(i % t)?,
                figure: TOWER_FIGURES[i / t],
            });
        }
        i -= tops;
        if i < top_caps {
            let (seat, figure, exchange) = variant_of(i / t)?;
            return Some(Action::Capture {
                at: tile(i % t)?,
                place: None,
                seat,
                figure,
                exchange,
            });
        }
        i -= top_caps;
        if i < feature_caps {
            let (seat, figure, exchange) = variant_of(i / f)?;
            let (pos, half, place) = codec.feature_of(i % f)?;
            return Some(Action::Capture {
                at: TileAt::new(pos, half)?,
                place: Some(place),
                seat,
                figure,
                exchange,
            });
        }
        i -= feature_caps;
        let n = TOWER_FIGURES.len();
        Some(Action::Ransom {
            seat: u8::try_from(i / n).ok().filter(|s| *s < 6)?,
            figure: *TOWER_FIGURES.get(i % n)?,
        })
    }
}
