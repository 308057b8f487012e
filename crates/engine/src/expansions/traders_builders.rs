//! Traders & Builders (second edition), `traders-builders.md`.
//!
//! Twenty-four land tiles join the pile (`catalog/traders-builders.toml`),
//! twenty of them with a trade goods symbol in a city: the feature tags
//! `wine` (9), `grain` (6) and `cloth` (5). Whoever places the tile that
//! completes a city takes one token per symbol in it, whether or not anyone
//! scored the city; at the end of the game the players holding the most
//! tokens of a kind score 10 each (a player with none never wins a kind).
//!
//! Each player also has a builder and a pig, special figures placed
//! instead of a follower on the tile just placed: the builder on a road or
//! city where the player already has a follower (never one this tile
//! completes), the pig in a field where the player has a farmer. Neither
//! counts for a majority; each goes home as soon as its owner has no
//! follower left in its feature (`Game::send_lonely_figures_home`). A
//! field's winner with a pig in it scores 1 more per completed city.
//!
//! A tile that extends the road or city of the player's builder in a
//! turn's first part gives a builder step after that part (`Phase::Builder`):
//! `draw` takes a second tile, played as a full second part, `pass`
//! declines it.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end.

use crate::action::Figure;
use crate::catalog::{FeatureKind, Tag, TileIdx};
use crate::codec::{ActionCodec, FOLLOWER_CODES};
use crate::expansions::{Expansion, Family};
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::scoring::{Event, Goods, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

/// The feature tag of a city segment with a wine symbol.
pub const WINE: &str = "wine";
/// The feature tag of a city segment with a grain symbol.
pub const GRAIN: &str = "grain";
/// The feature tag of a city segment with a cloth symbol.
pub const CLOTH: &str = "cloth";
/// The feature tag of River II's pig herd (a field).
pub const PIGHERD: &str = "pigherd";
/// Points for the majority of one kind of goods at the end.
pub const GOODS_MAJORITY: u32 = 10;

/// The tags of the three kinds, in [`Goods::ALL`] order.
const GOODS_TAGS: [Tag; 3] = [Tag::known(WINE), Tag::known(GRAIN), Tag::known(CLOTH)];

/// The special figures of this expansion, in the order of
/// [`Traders::in_supply`]'s pairs.
const FIGURES: [Figure; 2] = [Figure::Builder, Figure::Pig];

/// `draw`'s index in this set's codec segment, after the figures' codes.
const DRAW_INDEX: usize = 2 * FOLLOWER_CODES;

/// The state of Traders & Builders in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traders {
    /// Per seat: tokens held of each kind, in [`Goods::ALL`] order.
    goods: Vec<[u8; 3]>,
    /// Per seat: whether the builder and the pig are in the supply.
    figures: Vec<[bool; 2]>,
    /// The builder trigger of this turn's first part: the tile placed
    /// extended the road or city of the active player's builder.
    trigger: bool,
    /// The turn is in its second part (no further trigger).
    second: bool,
}

impl Traders {
    /// Whether seat `seat`'s `figure` (builder or pig) is in the supply.
    pub fn in_supply(&self, seat: Seat, figure: Figure) -> bool {
        let Some(k) = FIGURES.iter().position(|f| *f == figure) else {
            return false;
        };
        self.figures.get(seat.index()).is_some_and(|s| s[k])
    }

    /// Puts seat `seat`'s `figure` in the supply (`true`) or on the board.
    fn set_supply(&mut self, seat: Seat, figure: Figure, there: bool) {
        if let (Some(k), Some(s)) = (
            FIGURES.iter().position(|f| *f == figure),
            self.figures.get_mut(seat.index()),
        ) {
            s[k] = there;
        }
    }

    /// How many tokens of `kind` seat `seat` holds.
    pub fn goods(&self, seat: Seat, kind: Goods) -> u8 {
        self.goods.get(seat.index()).map_or(0, |g| g[kind as usize])
    }
}

impl Game {
    /// Traders & Builders' state, when it is in play.
    pub fn traders(&self) -> Option<&Traders> {
        self.ext.traders.as_ref()
    }

    /// The goods symbols of each kind in the city rooted at `root`, one per
    /// tagged segment.
    fn goods_in(&self, root: NodeId) -> [u8; 3] {
        let mut n = [0u8; 3];
        for tags in self.feature_tags(root) {
            for (k, tag) in GOODS_TAGS.iter().enumerate() {
                if tags.contains(*tag) {
                    n[k] = n[k].saturating_add(1);
                }
            }
        }
        n
    }

    /// A completed city's goods go to the player who placed the tile that
    /// completed it (the current player), one event per kind.
    fn take_goods(&mut self, root: NodeId) {
        if self.board.features().kind(root) != FeatureKind::City {
            return;
        }
        let found = self.goods_in(root);
        if found == [0; 3] {
            return;
        }
        let seat = self.current.index();
        if let Some(t) = &mut self.ext.traders {
            for (held, n) in t.goods[seat].iter_mut().zip(found) {
                *held = held.saturating_add(n);
            }
        }
        if !self.log_events {
            return;
        }
        let (pos, corner, place) = self.feature_spot(root);
        for (k, n) in found.into_iter().enumerate().filter(|(_, n)| *n > 0) {
            let mut tokens = [0u8; 6];
            tokens[seat] = n;
            self.events.push(Event {
                reason: Reason::GoodsTaken,
                feature: None,
                at: Some((pos, corner, place)),
                tiles: 0,
                extra: k as u32,
                points: [0; 6],
                followers: tokens,
                tile: None,
            });
        }
    }

    /// Whether `figure` (builder or pig) may stand on a feature of `kind`
    /// rooted at `root` once the tile just placed lies: the builder on a
    /// road or city this placement did not complete (Decision T1), the pig
    /// in a field. Company is checked apart.
    fn figure_fits(&self, figure: Figure, kind: FeatureKind, root: NodeId) -> bool {
        match figure {
            Figure::Builder => {
                matches!(kind, FeatureKind::Road | FeatureKind::City)
                    && self.board.features().open(root) > 0
            }
            Figure::Pig => kind == FeatureKind::Field,
            _ => false,
        }
    }

    /// Places the current player's builder or pig, checking every rule.
    fn place_special(
        &mut self,
        pos: crate::geometry::Pos,
        corner: Option<crate::geometry::Corner>,
        place: crate::geometry::Place,
        figure: Figure,
    ) -> Result<(), IllegalAction> {
        let (rule, word, feature) = match figure {
            Figure::Builder => ("builder", "builder", "road or city"),
            _ => ("pig", "pig", "field"),
        };
        let (pi, fi) = self.check_spot(pos, corner, place)?;
        let seat = self.current;
        let node = self.node(pi, fi);
        let root = self.board.features().root(node);
        let kind = self.board.features().kind(node);
        if !self.traders().is_some_and(|t| t.in_supply(seat, figure)) {
            return Err(illegal(
                rule,
                format!("your {word} is already on the board: place a follower or pass"),
            ));
        }
        if figure == Figure::Builder && !matches!(kind, FeatureKind::Road | FeatureKind::City) {
            return Err(illegal(
                rule,
                "a builder stands on a road or a city, never on a field or a monastery",
            ));
        }
        if figure == Figure::Pig && kind != FeatureKind::Field {
            return Err(illegal(rule, "a pig stands in a field"));
        }
        if !self.has_follower_in(seat, root) {
            return Err(illegal(
                rule,
                format!(
                    "you have no follower in this {feature}: a {word} joins one of your followers"
                ),
            ));
        }
        if !self.figure_fits(figure, kind, root) {
            return Err(illegal(
                rule,
                format!("this tile completes the {}: a builder never goes on a road or city it completes", kind.name()),
            ));
        }
        if let Some(t) = &mut self.ext.traders {
            t.set_supply(seat, figure, false);
        }
        self.do_follower(pi, fi, figure);
        self.end_follower_step();
        Ok(())
    }

    /// Whether piece `pi`, just placed, has a road or city segment in the
    /// feature of the current player's builder.
    fn builder_extended(&self, pi: u16) -> bool {
        let Some(b) = self
            .followers
            .iter()
            .find(|f| f.figure == Figure::Builder && f.player == self.current)
        else {
            return false;
        };
        let feats = self.board.features();
        let broot = feats.root(self.node(b.piece, b.feature));
        let def = self
            .rules
            .catalog
            .tile(self.board.pieces()[pi as usize].tile);
        def.features.iter().enumerate().any(|(fi, f)| {
            matches!(f.kind, FeatureKind::Road | FeatureKind::City)
                && feats.root(self.node(pi, fi as u8)) == broot
        })
    }

    /// The builder step's `draw`: the second part starts with the pile's
    /// next tile. Where drawing was a choice at the start of a part (a
    /// player holding halves), this `draw` has made it.
    fn take_second_tile(&mut self) {
        if let Some(t) = &mut self.ext.traders {
            t.second = true;
        }
        self.second_part();
        if crate::expansions::draw_pending(self) {
            let drew = crate::expansions::draw(self);
            debug_assert!(drew.is_ok(), "the second tile's draw: {drew:?}");
        }
    }

    /// The builder step's `place` of a tile held instead of drawing (a
    /// half, Decision T3): the second part starts with it and the pile is
    /// left as it is.
    fn play_second_tile_held(
        &mut self,
        a: &Action,
        tile: TileIdx,
        pos: crate::geometry::Pos,
        rot: crate::geometry::Rotation,
        mode: Mode,
    ) -> Result<(), IllegalAction> {
        const WHY: &str =
            "the builder step: draw the second tile, play a tile you hold instead (a half, where it fits), or pass";
        if mode == Mode::Checked {
            let mut held = Vec::new();
            crate::expansions::other_placements(self, true, &mut held);
            if !held.contains(a) {
                return Err(illegal("builder", WHY));
            }
        }
        if let Some(t) = &mut self.ext.traders {
            t.second = true;
        }
        self.last = None;
        self.phase = Phase::Place;
        crate::expansions::play_other_tile(self, tile, pos, rot, Mode::Trusted)
            .unwrap_or_else(|| Err(illegal("builder", WHY)))
    }

    /// Whether the field rooted at `root` holds a pig herd (River II).
    fn herd_in(&self, root: NodeId) -> bool {
        self.feature_has_tag(root, Tag::known(PIGHERD))
    }

    /// Whether `seat` has its pig in the field rooted at `root`.
    fn pig_in(&self, seat: Seat, root: NodeId) -> bool {
        self.has_figure_in(seat, root, |f| f == Figure::Pig)
    }

    /// Final scoring of the goods: for each kind, every player holding the
    /// most tokens (at least one) scores [`GOODS_MAJORITY`].
    fn score_goods(&mut self) {
        let Some(t) = &self.ext.traders else { return };
        let n = self.players.len();
        let mut results = [([0u8; 6], [0u32; 6]); 3];
        for (k, (held, points)) in results.iter_mut().enumerate() {
            for (seat, g) in t.goods.iter().enumerate().take(n) {
                held[seat] = g[k];
            }
            let best = held.iter().copied().max().unwrap_or(0);
            if best == 0 {
                continue;
            }
            for seat in 0..n {
                if held[seat] == best {
                    points[seat] = GOODS_MAJORITY;
                }
            }
        }
        for (k, (held, points)) in results.into_iter().enumerate() {
            if points == [0; 6] {
                continue;
            }
            for (p, add) in self.players.iter_mut().zip(points) {
                p.score += add;
            }
            if self.log_events {
                self.events.push(Event {
                    reason: Reason::Goods,
                    feature: None,
                    at: None,
                    tiles: 0,
                    extra: k as u32,
                    points,
                    followers: held,
                    tile: None,
                });
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// Traders & Builders' hooks into the turn.
pub(crate) struct TradersBuilders;

impl Expansion for TradersBuilders {
    const FAMILY: Family = Family::TradersBuilders;
    const SWITCH_ON: (&'static str, &'static str) =
        ("Traders & Builders", "traders-builders to \"expansions\"");
    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "pig_herd_bonus",
        "false: River II's pig herd gives nothing (house rule; default true)",
    )];

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.traders.is_some()
    }

    /// Its 24 tiles.
    fn deck_tiles(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
    ) -> Result<(), crate::config::ConfigError> {
        crate::expansions::set_tiles(ctx, crate::expansions::ExpansionId::TradersBuilders, bag)
    }

    /// Nobody holds goods at the start; builders and pigs are in the
    /// supply.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        let t = g.ext.traders.get_or_insert_with(|| Traders {
            goods: Vec::with_capacity(n),
            figures: Vec::with_capacity(n),
            trigger: false,
            second: false,
        });
        // An earlier deal's vectors are reused.
        t.goods.clear();
        t.goods.resize(n, [0; 3]);
        t.figures.clear();
        t.figures.resize(n, [true; 2]);
        t.trigger = false;
        t.second = false;
    }

    /// The builder trigger, in a turn's first part only: the active
    /// player's builder stood on the board before this placement, and the
    /// tile placed has a road or city segment in the builder's feature.
    fn after_place(g: &mut Game, pi: u16) {
        let Some(t) = g.traders() else { return };
        if t.second {
            return;
        }
        // A builder in the supply triggers nothing: no search.
        let trigger = !t.in_supply(g.current, Figure::Builder) && g.builder_extended(pi);
        if let Some(t) = &mut g.ext.traders {
            t.trigger = trigger;
        }
    }

    /// At the end of a first part whose tile triggered the builder, the
    /// builder step; at the end of a second part, the turn passes on.
    fn hold_turn(g: &mut Game) -> bool {
        let Some(t) = &mut g.ext.traders else {
            return false;
        };
        let hold = t.trigger && !t.second;
        t.trigger = false;
        t.second = false;
        if hold {
            g.phase = Phase::Builder;
        }
        hold
    }

    /// A second part may follow while the trigger of this first part
    /// holds, and while the builder step offers it.
    fn more_parts(g: &Game) -> bool {
        g.phase == Phase::Builder || g.traders().is_some_and(|t| t.trigger && !t.second)
    }

    fn between_parts(g: &Game) -> bool {
        g.phase == Phase::Builder
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Builder
    }

    /// The builder and the pig.
    fn special_figures(_g: &Game) -> usize {
        FIGURES.len()
    }

    /// `draw` while the pile holds a tile, the placements of tiles held
    /// instead of drawing (halves, Decision T3), the actions open at any
    /// time of the turn (the Plague's `flea` and `flee`), and `pass` unless
    /// the turn may not end yet (a spread owed).
    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        if !g.pile.is_empty() {
            out.push(Action::Draw);
        }
        crate::expansions::other_placements(g, true, out);
        crate::expansions::extra_actions(g, out);
        if crate::expansions::turn_end_veto(g).is_none() {
            out.push(Action::Pass);
        }
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match a {
            Action::Draw if g.pile.is_empty() => Err(illegal(
                "builder",
                "the draw pile is empty: there is no second tile, pass",
            )),
            Action::Draw => {
                g.take_second_tile();
                Ok(())
            }
            Action::Place { tile, pos, rot } => g.play_second_tile_held(a, *tile, *pos, *rot, mode),
            Action::Pass => {
                if mode == Mode::Checked {
                    if let Some((rule, why)) = crate::expansions::turn_end_veto(g) {
                        return Some(Err(illegal(rule, why)));
                    }
                }
                g.pass_turn();
                Ok(())
            }
            // Another expansion's action open in this step (the Plague's
            // spread and flight): its own rules decide.
            a if !a.is_shared() && !matches!(a, Action::Follower { .. }) => return None,
            _ => Err(illegal(
                "builder",
                "the builder step: draw the second tile, play a half you hold instead, or pass",
            )),
        })
    }

    /// A turn may add the builder step's `draw` or `pass` (the second
    /// tile is one of the pile's, counted as a turn already).
    fn max_moves(_g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: 1,
            ..Default::default()
        }
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(
            a,
            Action::Follower {
                figure: Figure::Builder | Figure::Pig,
                ..
            }
        )
        .then_some(("follower", "Traders & Builders (the builder and the pig)"))
    }

    /// Its codec segment: the builder, then the pig, each by the 32
    /// follower codes.
    /// Its codec segment: the builder's and the pig's follower codes, then
    /// `draw` (the builder step's second tile).
    fn codec_size(_codec: &ActionCodec, _g: &Game) -> usize {
        2 * FOLLOWER_CODES + 1
    }

    fn encode(_codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        let (pos, place, figure) = match *a {
            Action::Follower {
                pos, place, figure, ..
            } => (pos, place, figure),
            // With Half-and-half in play its segment may name `draw`
            // first: the lookup takes the first expansion that does.
            Action::Draw => return Some(DRAW_INDEX),
            _ => return None,
        };
        let k = FIGURES.iter().position(|f| *f == figure)?;
        ActionCodec::follower_code(g, pos, place).map(|c| k * FOLLOWER_CODES + c)
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        if i == DRAW_INDEX {
            // Only the index `draw` is encoded to (Half-and-half's first).
            return crate::expansions::numbers_draw(codec, g, Family::TradersBuilders, i)
                .then_some(Action::Draw);
        }
        let figure = *FIGURES.get(i / FOLLOWER_CODES)?;
        ActionCodec::follower_of(g, i % FOLLOWER_CODES, figure)
    }

    /// The builder on each road or city of the tile where the player has a
    /// follower (not one the tile completes), the pig in each such field.
    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        let Some(t) = g.traders() else { return };
        if !FIGURES.iter().any(|&f| t.in_supply(g.current, f)) {
            return;
        }
        // The features of the player's followers, found once: the company
        // test then searches only where one of them stands (a search per
        // feature of the tile was a tenth of a random game's cost).
        let mut roots = [0 as NodeId; 32];
        let mut n = 0usize;
        let feats = g.board.features();
        for f in g
            .followers
            .iter()
            .filter(|f| f.player == g.current && f.figure.is_follower())
        {
            let Some(r) = roots.get_mut(n) else {
                // More than the array holds: no filter, the search decides.
                n = usize::MAX;
                break;
            };
            *r = feats.root(g.node(f.piece, f.feature));
            n += 1;
        }
        if n == 0 {
            return;
        }
        let mine = roots.get(..n);
        for figure in FIGURES {
            if t.in_supply(g.current, figure) {
                g.company_spots(
                    figure,
                    |kind, root| {
                        g.figure_fits(figure, kind, root) && mine.is_none_or(|r| r.contains(&root))
                    },
                    |a| {
                        out.push(a);
                    },
                );
            }
        }
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let Action::Follower {
            pos,
            corner,
            place,
            figure: figure @ (Figure::Builder | Figure::Pig),
        } = *a
        else {
            return None;
        };
        // Outside the follower step the turn machine says what comes first.
        if g.phase != Phase::Follower {
            return None;
        }
        Some(g.place_special(pos, corner, place, figure))
    }

    fn figure_home(g: &mut Game, f: Follower) -> bool {
        if !FIGURES.contains(&f.figure) {
            return false;
        }
        if let Some(t) = &mut g.ext.traders {
            t.set_supply(f.player, f.figure, true);
        }
        true
    }

    fn followers_left(g: &mut Game) {
        // Most scorings happen with every builder and pig in the supply:
        // then nobody's figure can be left alone.
        if g.traders()
            .is_some_and(|t| t.figures.iter().all(|s| *s == [true; 2]))
        {
            return;
        }
        g.send_lonely_figures_home();
    }

    /// A field's winner with a pig in it scores 1 more per completed city;
    /// with River II's pig herd in the field, every winner 1 more again
    /// (once, however many herds).
    fn winners_bonus(g: &Game, root: NodeId, extra: u32, points: &mut [u32; 6]) {
        if g.board.features().kind(root) != FeatureKind::Field {
            return;
        }
        let herd = g.rules.options.pig_herd_bonus && g.herd_in(root);
        for (seat, p) in points.iter_mut().enumerate() {
            if *p > 0 {
                let pig = Seat::new(seat).is_some_and(|s| g.pig_in(s, root));
                *p += extra * (u32::from(pig) + u32::from(herd));
            }
        }
    }

    fn after_completion(g: &mut Game, root: NodeId) {
        g.take_goods(root);
    }

    fn final_scoring(g: &mut Game) {
        g.score_goods();
    }

    /// `goods`: per seat, the tokens held of each kind (public).
    fn state_json(g: &Game, _viewer: crate::view::Viewer, out: &mut ExpansionsJson) {
        let Some(t) = g.traders() else { return };
        let goods: Vec<serde_json::Value> = t
            .goods
            .iter()
            .map(|held| {
                serde_json::json!({
                    "wine": held[Goods::Wine as usize],
                    "grain": held[Goods::Grain as usize],
                    "cloth": held[Goods::Cloth as usize],
                })
            })
            .collect();
        put(out, "goods", &goods);
        let supply = |k: usize| -> Vec<bool> { t.figures.iter().map(|s| s[k]).collect() };
        put(out, "builders", supply(0));
        put(out, "pigs", supply(1));
    }

    /// Two planes per seat (relative to the observer): its builder, its
    /// pig on a feature named by this cell. Five globals per seat: its
    /// tokens of each kind, its builder and its pig in the supply.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (2 * g.player_count(), 5 * g.player_count())
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        for f in g.followers() {
            if let Some(k) = FIGURES.iter().position(|x| *x == f.figure) {
                let rel = f.player.after(player, n);
                t.set(2 * rel + k, g.feature_anchor(f.piece, f.feature).0, 1.0);
            }
        }
        let Some(tr) = g.traders() else { return };
        for r in 0..n {
            let seat = player.ahead(r, n);
            for kind in Goods::ALL {
                t.push(f32::from(tr.goods(seat, kind)));
            }
            for figure in FIGURES {
                t.push(f32::from(u8::from(tr.in_supply(seat, figure))));
            }
        }
    }
}
