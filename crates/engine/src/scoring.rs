//! Scoring of completed features during play and of everything left at the
//! end, with an event for every point given.

use crate::catalog::{FeatureKind, TileIdx};
use crate::features::NodeId;
use crate::game::{Follower, Game};
use crate::geometry::{Corner, Place, Pos};

/// Why points were given (or a tile was set aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A road, city or monastery was completed during play.
    Completed,
    /// Final scoring of an unfinished feature or a farm.
    GameEnd,
    /// A drawn tile fit nowhere and left the game (no points).
    Discarded,
    /// The gingerbread man left (or saw completed) a city: 1 point a tile
    /// per knight.
    Gingerbread,
    /// A tile was built on a Chumak square: the chips lying there.
    Chips,
    /// Chips traded onto a Chumak square.
    Trade,
    /// The Plague: a follower on a tile that got a flea went home unscored.
    Plague,
    /// The Plague: an outbreak token was put on a source tile (`extra`: its
    /// number).
    Outbreak,
    /// The Plague: an outbreak token was flipped to its field side (`extra`:
    /// its number).
    Eradicated,
    /// Traders & Builders: the player who completed a city took its trade
    /// goods (no points; `extra`: the kind, `followers`: tokens per seat).
    GoodsTaken,
    /// Traders & Builders, final scoring: the majority of one kind of
    /// goods (`extra`: the kind, `followers`: tokens held per seat).
    Goods,
    /// Princess & Dragon: a dragon tile drawn before the dragon is in play
    /// was set aside (no points; `tile`: the tile).
    SetAside,
    /// Princess & Dragon: the dragon ate a figure (no points; `followers`:
    /// the figure's owner).
    Eaten,
    /// Princess & Dragon: the fairy's point at the start of a turn, or her
    /// 3 points with a scoring.
    Fairy,
    /// Princess & Dragon: the princess sent a knight home (no points;
    /// `followers`: the knight's owner).
    Princess,
    /// The Tower: a follower was captured (no points; `followers`: its
    /// owner; `extra`: the capturer's seat).
    Capture,
    /// The Tower: two prisoners were exchanged and went home (no points;
    /// `followers`: one for each of the two owners).
    Exchange,
    /// The Tower: a prisoner was ransomed (−3 for the payer is not a
    /// point given: `points` holds the holder's 3, `extra` the payer's seat).
    Ransom,
    /// Abbey & Mayor: a field scored because of a barn (`extra`: completed
    /// cities): the farmers' when a barn joins their field, the barns'
    /// owners' at the end (`followers`: barns per seat).
    Barn,
}

/// A kind of trade goods (Traders & Builders), as events carry it in
/// `extra`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goods {
    /// Wine.
    Wine,
    /// Grain.
    Grain,
    /// Cloth.
    Cloth,
}

impl Goods {
    /// The three kinds, in the order of their numbers.
    pub const ALL: [Goods; 3] = [Goods::Wine, Goods::Grain, Goods::Cloth];

    /// The word used in JSON (and the catalog's tag).
    pub fn name(self) -> &'static str {
        match self {
            Goods::Wine => "wine",
            Goods::Grain => "grain",
            Goods::Cloth => "cloth",
        }
    }

    /// The kind numbered `i` (an event's `extra`).
    pub fn of(i: u32) -> Option<Goods> {
        Goods::ALL.get(i as usize).copied()
    }
}

impl Reason {
    /// Whether an event of this reason (besides feature scoring) counts a
    /// feature's tiles: the gingerbread man's payment.
    pub(crate) fn counts_tiles(self) -> bool {
        self == Reason::Gingerbread
    }

    /// Whether it is about a numbered token (the Plague's outbreaks).
    pub(crate) fn is_token(self) -> bool {
        matches!(self, Reason::Outbreak | Reason::Eradicated)
    }

    /// Whether it is about trade goods (`extra`: the kind, `followers`:
    /// tokens per seat).
    pub fn is_goods(self) -> bool {
        matches!(self, Reason::GoodsTaken | Reason::Goods)
    }

    /// Whether it is about figures leaving the board or coming back
    /// (`followers`: their owners), also when they stood on no feature.
    pub fn about_a_figure(self) -> bool {
        matches!(
            self,
            Reason::Eaten | Reason::Plague | Reason::Capture | Reason::Exchange | Reason::Ransom
        )
    }

    /// Whether `extra` names the seat that acted (The Tower's capture and
    /// ransom).
    pub fn names_seat(self) -> bool {
        matches!(self, Reason::Capture | Reason::Ransom)
    }

    /// The word used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Completed => "completed",
            Reason::GameEnd => "game end",
            Reason::Discarded => "discarded",
            Reason::Gingerbread => "gingerbread",
            Reason::Chips => "chips",
            Reason::Trade => "trade",
            Reason::Plague => "plague",
            Reason::Outbreak => "outbreak",
            Reason::Eradicated => "eradicated",
            Reason::GoodsTaken => "goods taken",
            Reason::Goods => "goods",
            Reason::SetAside => "set aside",
            Reason::Eaten => "eaten",
            Reason::Fairy => "fairy",
            Reason::Princess => "princess",
            Reason::Capture => "capture",
            Reason::Exchange => "exchange",
            Reason::Ransom => "ransom",
            Reason::Barn => "barn",
        }
    }
}

/// Something that happened inside `apply`, with the points it gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Why.
    pub reason: Reason,
    /// The feature scored, if any.
    pub feature: Option<FeatureKind>,
    /// A place naming the feature: cell, half corner, place.
    pub at: Option<(Pos, Option<Corner>, Place)>,
    /// Tiles counted.
    pub tiles: u32,
    /// Coats of arms counted (cities), or completed cities (farms).
    pub extra: u32,
    /// Points given, per seat (unused seats zero).
    pub points: [u32; 6],
    /// Followers each seat had on the feature.
    pub followers: [u8; 6],
    /// The tile concerned (discards).
    pub tile: Option<TileIdx>,
}

impl Event {
    pub(crate) fn discard(tile: TileIdx, _players: usize) -> Event {
        Event::of_tile(Reason::Discarded, tile)
    }

    /// An event about one tile alone (a discard, a tile set aside): no
    /// feature, no points.
    pub(crate) fn of_tile(reason: Reason, tile: TileIdx) -> Event {
        Event {
            reason,
            feature: None,
            at: None,
            tiles: 0,
            extra: 0,
            points: [0; 6],
            followers: [0; 6],
            tile: Some(tile),
        }
    }
}

impl Game {
    /// Scores every road, city and monastery the piece `pi` completed.
    pub(crate) fn score_completed(&mut self, pi: u16) {
        // At most a handful of features complete at once: no allocation.
        let mut done = SmallList::<NodeId, 24>::new();
        let monasteries = self.completed_by(pi, &mut done);
        for &root in done.as_mut_slice().iter() {
            crate::expansions::before_completion(self, root);
            // With no expansion in play every figure is a normal follower,
            // counted on its feature: an empty feature (most are) needs no
            // walk over the followers to score it or send them home.
            let empty =
                self.rules.expansions.is_empty() && self.board.features().followers(root) == 0;
            if !empty {
                self.score_feature(root, Reason::Completed);
            }
            self.board.features_mut().close(root);
            if !empty {
                self.return_followers(root);
            }
            crate::expansions::followers_left(self);
            crate::expansions::after_completion(self, root);
        }
        if monasteries {
            self.board.drop_complete_monasteries(&self.rules.catalog);
        }
        // The scorings an expansion's rule triggers in the same step (a
        // field a barn joined).
        crate::expansions::part_scoring(self, pi);
    }

    /// Pushes onto `done` the roots of the features the piece `pi`
    /// completed, in scoring order (its roads and cities by feature index,
    /// then the monasteries around it); returns whether a surrounded
    /// monastery is near. Read-only, so the catalog is borrowed, not shared
    /// anew, on every placement.
    fn completed_by(&self, pi: u16, done: &mut SmallList<NodeId, 24>) -> bool {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        let piece = self.board.pieces()[pi as usize];
        let def = cat.tile(piece.tile);
        let mut complete = |fi: usize| {
            if let Some(root) = feats.newly_complete(piece.node_base + fi as NodeId) {
                if !done.contains(root) {
                    done.push(root);
                }
            }
        };
        let mut mask = def.roads_cities;
        while mask != 0 {
            complete(mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
        // Features past the mask's 64 (no tile of a real set has them).
        for (fi, f) in def.features.iter().enumerate().skip(64) {
            if matches!(f.kind, FeatureKind::Road | FeatureKind::City) {
                complete(fi);
            }
        }
        if def.closing_sides {
            self.closed_across(piece.pos, done);
        }
        // Monasteries on this piece or around any of its cells, taken from
        // the short list of open ones, in the order a scan of the 3×3 cells
        // around each cell of the piece would meet them (events keep that
        // order).
        let o = def.oriented(piece.rot);
        let mut near = [(0u32, 0u16); 24];
        let mut m = 0;
        for (i, &q) in self.board.open_monasteries().iter().enumerate() {
            // Only a surrounded monastery can complete: the others need
            // no closer look.
            if !self.board.open_monastery_surrounded(i) {
                continue;
            }
            let qpos = self.board.pieces()[q as usize].pos;
            let key = o.cells.iter().enumerate().find_map(|(k, &(cx, cy))| {
                let c = piece.pos.offset(cx, cy);
                let (dx, dy) = (qpos.x - c.x, qpos.y - c.y);
                ((-1..=1).contains(&dx) && (-1..=1).contains(&dy)).then(|| {
                    (k as u32 * 9 + (dy + 1) as u32 * 3 + (dx + 1) as u32) << 16 | q as u32
                })
            });
            if let (Some(key), true) = (key, m < near.len()) {
                near[m] = (key, q);
                m += 1;
            }
        }
        near[..m].sort_unstable();
        for &(_, q) in &near[..m] {
            let Some(node) = self.monastery_node(q) else {
                continue;
            };
            let root = feats.root(node);
            if !done.contains(root) && !feats.is_closed(root) {
                done.push(root);
            }
        }
        m > 0
    }

    /// For a tile with closing sides at `pos` (it continues nothing): the
    /// roads and cities of the neighbours that its sides completed, side
    /// by side clockwise from north, pushed onto `done`.
    fn closed_across(&self, pos: Pos, done: &mut SmallList<NodeId, 24>) {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        for side in crate::geometry::Side::ALL {
            let theirs = side.opposite();
            let Some((q, part)) = self.board.piece_facing(pos.step(side), theirs) else {
                continue;
            };
            let qp = self.board.pieces()[q as usize];
            let def = cat.tile(qp.tile);
            let Some(fs) = def.oriented(qp.rot).side_features.get(part as usize) else {
                continue;
            };
            for fi in fs[theirs.index()] {
                let road_city = def
                    .features
                    .get(fi as usize)
                    .is_some_and(|f| matches!(f.kind, FeatureKind::Road | FeatureKind::City));
                if !road_city {
                    continue;
                }
                if let Some(root) = feats.newly_complete(qp.node_base + fi as NodeId) {
                    if !done.contains(root) {
                        done.push(root);
                    }
                }
            }
        }
    }

    /// The monastery node of piece `q`, if it has one.
    pub(crate) fn monastery_node(&self, q: u16) -> Option<NodeId> {
        let piece = self.board.pieces()[q as usize];
        self.rules
            .catalog
            .tile(piece.tile)
            .monastery
            .map(|fi| piece.node_base + fi as NodeId)
    }

    /// Followers per seat on the feature rooted at `root`, as they count
    /// when its majority is decided (a figure other than a normal follower
    /// counts as its expansion says).
    #[inline]
    pub(crate) fn followers_on(&self, root: NodeId) -> [u8; 6] {
        let mut counts = [0u8; 6];
        for f in &self.followers {
            let node = self.node(f.piece, f.feature);
            if self.board.features().root(node) == root {
                // Saturating: a mayor counts a city's coats of arms.
                let c = &mut counts[f.player.index()];
                *c = c.saturating_add(self.majority_count(f));
            }
        }
        counts
    }

    /// How much follower `f` counts for its seat's majority.
    fn majority_count(&self, f: &Follower) -> u8 {
        match f.figure {
            crate::action::Figure::Normal => 1,
            _ => crate::expansions::majority_weight(self, f),
        }
    }

    /// Followers per seat on the feature rooted at `root`, each counted
    /// once whatever its weight (special figures never count).
    pub(crate) fn figures_on(&self, root: NodeId) -> [u8; 6] {
        let mut counts = [0u8; 6];
        for f in &self.followers {
            let node = self.node(f.piece, f.feature);
            if f.figure.is_follower() && self.board.features().root(node) == root {
                counts[f.player.index()] += 1;
            }
        }
        counts
    }

    /// The points a feature is worth now (complete or not) and what was
    /// counted: (points, tiles, extra).
    pub(crate) fn feature_value(&self, root: NodeId) -> (u32, u32, u32) {
        self.value_counting(root, true)
    }

    /// [`Game::feature_value`]; without `farm_tiles` a field's tiles, which
    /// only its event reports, are not counted (0): a walk of the largest
    /// features saved at the end of every playout that logs no events.
    fn value_counting(&self, root: NodeId, farm_tiles: bool) -> (u32, u32, u32) {
        let complete = self.board.features().open(root) == 0;
        let mut value = self.base_value(root, complete, farm_tiles);
        crate::expansions::feature_value(self, root, complete, &mut value);
        value
    }

    /// Whether two halves of one cell count as one tile (an expansion's
    /// scoring rule).
    pub(crate) fn count_per_cell(&self) -> bool {
        crate::expansions::count_per_cell(self)
    }

    /// The base game's value of a feature: (points, tiles, extra).
    fn base_value(&self, root: NodeId, complete: bool, farm_tiles: bool) -> (u32, u32, u32) {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        match feats.kind(root) {
            FeatureKind::Road => {
                let t = self.board.feature_tiles(cat, root, self.count_per_cell());
                (t, t, 0)
            }
            FeatureKind::City => {
                let t = self.board.feature_tiles(cat, root, self.count_per_cell());
                let a = feats.arms(root) as u32;
                let per = if complete { 2 } else { 1 };
                (per * (t + a), t, a)
            }
            FeatureKind::Monastery => {
                let (pi, _) = feats.origin(root);
                let (around, _) = self.board.monastery_surroundings(pi, self.count_per_cell());
                (1 + around, 1 + around, 0)
            }
            FeatureKind::Field => {
                let cities = self.farm_cities(root);
                let tiles = if farm_tiles {
                    self.board.feature_tiles(cat, root, self.count_per_cell())
                } else {
                    0
                };
                (3 * cities, tiles, cities)
            }
            FeatureKind::River => (0, 0, 0),
        }
    }

    /// Completed cities bordering the farm rooted at `root`.
    #[inline]
    pub(crate) fn farm_cities(&self, root: NodeId) -> u32 {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        // On the stack for any farm of a real game; a vector beyond that.
        let mut cities = SmallList::<NodeId, 32>::new();
        for m in feats.members(root) {
            let (pi, fi) = feats.origin(m);
            let piece = self.board.pieces()[pi as usize];
            for &c in &cat.tile(piece.tile).features[fi as usize].cities {
                let r = feats.root(piece.node_base + c as NodeId);
                if feats.open(r) == 0 && !cities.contains(r) {
                    cities.push(r);
                }
            }
        }
        cities.len() as u32
    }

    /// Gives the feature's value to the players with the most followers on
    /// it and records the event.
    fn score_feature(&mut self, root: NodeId, reason: Reason) {
        let counts = self.followers_on(root);
        self.score_counted(root, counts, reason);
    }

    /// [`Game::score_feature`] with the followers per seat counted already.
    fn score_counted(&mut self, root: NodeId, counts: [u8; 6], reason: Reason) {
        if counts.iter().all(|c| *c == 0) {
            return;
        }
        let value = self.value_counting(root, self.log_events);
        self.give_value(root, counts, reason, value);
    }

    /// Scores the field rooted at `root` during play, as an expansion's
    /// rule says (a barn joining it): its farmer majority gets `per_city`
    /// points a completed city (and the expansions' bonuses for the
    /// winners), recorded under `reason`; then every figure in it goes home.
    pub(crate) fn score_field_now(&mut self, root: NodeId, per_city: u32, reason: Reason) {
        let counts = self.followers_on(root);
        if counts.iter().any(|c| *c > 0) {
            let cities = self.farm_cities(root);
            let tiles = if self.log_events {
                let cat = &*self.rules.catalog;
                self.board.feature_tiles(cat, root, self.count_per_cell())
            } else {
                0
            };
            self.give_value(root, counts, reason, (per_city * cities, tiles, cities));
        }
        self.return_followers(root);
        crate::expansions::followers_left(self);
    }

    /// Gives `value` (points, tiles, extra) to the seats with the most
    /// followers in `counts` and records the event.
    // Always inlined: with two callers (the barn's field scoring the
    // second) it had become a call on every completed feature.
    #[inline(always)]
    fn give_value(
        &mut self,
        root: NodeId,
        counts: [u8; 6],
        reason: Reason,
        (value, tiles, extra): (u32, u32, u32),
    ) {
        let best = *counts.iter().max().unwrap_or(&0);
        if best == 0 {
            return;
        }
        let mut points = [0u32; 6];
        for (seat, c) in counts.iter().enumerate().take(self.players.len()) {
            if *c == best {
                points[seat] = value;
            }
        }
        crate::expansions::winners_bonus(self, root, extra, &mut points);
        for (p, add) in self.players.iter_mut().zip(points) {
            p.score += add;
        }
        if self.log_events {
            let (pos, corner, place) = self.feature_spot(root);
            self.events.push(Event {
                reason,
                feature: Some(self.board.features().kind(root)),
                at: Some((pos, corner, place)),
                tiles,
                extra,
                points,
                followers: counts,
                tile: None,
            });
        }
        // Bonuses that follow a scoring (the fairy's), right after it.
        crate::expansions::feature_scored(self, root);
    }

    /// Sends every follower on the feature rooted at `root` home.
    #[inline]
    fn return_followers(&mut self, root: NodeId) {
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            let node = self.node(f.piece, f.feature);
            if self.board.features().root(node) == root {
                if f.figure.is_follower() {
                    self.board.features_mut().add_followers(node, -1);
                }
                self.followers.remove(i);
                self.follower_home(f);
            } else {
                i += 1;
            }
        }
    }

    /// End of game: unfinished roads, cities and monasteries, then farms.
    pub(crate) fn final_scoring(&mut self) {
        self.score_unfinished();
        // Features an expansion scores itself (barns), right after the
        // farms, before the expansions' other final scorings (goods).
        crate::expansions::final_features(self);
        crate::expansions::final_scoring(self);
    }

    /// Unfinished roads, cities and monasteries, then farms, in that order.
    fn score_unfinished(&mut self) {
        // Each feature with its followers per seat, counted in one pass
        // over the followers (nothing moves them during this scoring).
        let mut roots = SmallList::<(u8, NodeId, [u8; 6]), 64>::new();
        for f in &self.followers {
            let root = self.board.features().root(self.node(f.piece, f.feature));
            let order = match self.board.features().kind(root) {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Monastery => 2,
                FeatureKind::Field => 3,
                FeatureKind::River => continue,
            };
            let (seat, weight) = (f.player.index(), self.majority_count(f));
            if let Some(e) = roots.as_mut_slice().iter_mut().find(|e| e.1 == root) {
                e.2[seat] = e.2[seat].saturating_add(weight);
            } else {
                let mut counts = [0u8; 6];
                counts[seat] = weight;
                roots.push((order, root, counts));
            }
        }
        let roots = roots.as_mut_slice();
        // By kind, then root (the roots are distinct, so the counts never
        // decide the order).
        roots.sort_unstable();
        for &(_, root, counts) in roots.iter() {
            if !self.board.features().is_closed(root) {
                self.score_counted(root, counts, Reason::GameEnd);
            }
        }
    }
}

/// A short list kept on the stack, spilling into a vector past `N` items:
/// scoring's scratch lists stay allocation-free in every real game.
struct SmallList<T: Copy + Default + PartialEq, const N: usize> {
    inline: [T; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default + PartialEq, const N: usize> SmallList<T, N> {
    fn new() -> Self {
        SmallList {
            inline: [T::default(); N],
            len: 0,
            spill: Vec::new(),
        }
    }

    fn push(&mut self, x: T) {
        if !self.spill.is_empty() {
            self.spill.push(x);
        } else if self.len < N {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spill.reserve(2 * N);
            self.spill.extend_from_slice(&self.inline);
            self.spill.push(x);
        }
    }

    fn as_mut_slice(&mut self) -> &mut [T] {
        if self.spill.is_empty() {
            &mut self.inline[..self.len]
        } else {
            &mut self.spill
        }
    }

    fn contains(&self, x: T) -> bool {
        if self.spill.is_empty() {
            self.inline[..self.len].contains(&x)
        } else {
            self.spill.contains(&x)
        }
    }

    fn len(&self) -> usize {
        if self.spill.is_empty() {
            self.len
        } else {
            self.spill.len()
        }
    }
}
