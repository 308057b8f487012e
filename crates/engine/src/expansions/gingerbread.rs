//! The Gingerbread Man (Winter Edition), `gingerbread.md`.
//!
//! He starts in the start tile's city. After a gingerbread tile's turn its
//! player moves him to a different unfinished city; the city he leaves is
//! scored for every knight in it (1 point a tile, per knight). When his city
//! is completed he is scored the same way first, then the city is scored as
//! usual, then the completing player moves him. With no other unfinished
//! city he stays; if his city is finished he is set aside until the next
//! gingerbread tile brings him back.

use crate::catalog::{FeatureKind, Tag, TileIdx};
use crate::codec::ActionCodec;
use crate::expansions::{Expansion, Family};
use crate::features::NodeId;
use crate::game::{illegal, Action, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Corner, Place, Pos};
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

/// Tag of the tiles that move him.
pub const TAG: &str = "gingerbread";

/// Where the gingerbread man is and what he still has to do this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gingerbread {
    /// A segment of his city; `None` while he is set aside.
    at: Option<NodeId>,
    /// A move is owed at the end of this turn.
    owed: bool,
}

impl Gingerbread {
    /// He stands in the city `at` of the start tile (if it has one).
    pub(crate) fn new(at: Option<NodeId>) -> Gingerbread {
        Gingerbread { at, owed: false }
    }

    /// The city he stands in; `None` while he is set aside.
    pub fn city(&self) -> Option<crate::FeatureRef> {
        self.at.map(crate::FeatureRef)
    }
}

impl Game {
    /// Before a completed city is scored: if he stands in it, every knight
    /// there scores 1 point a tile, and he must move at the end of the turn.
    pub(crate) fn gingerbread_before_completion(&mut self, root: NodeId) {
        let Some(g) = &self.ext.gingerbread else {
            return;
        };
        let Some(at) = g.at else { return };
        if self.board.features().root(at) != root {
            return;
        }
        self.gingerbread_score(root);
        if let Some(g) = &mut self.ext.gingerbread {
            g.owed = true;
        }
    }

    /// After the turn's scoring: a gingerbread tile owes a move too. Returns
    /// whether the move step comes next.
    pub(crate) fn gingerbread_step_owed(&mut self, pi: u16) -> bool {
        let tile = self.board.pieces()[pi as usize].tile;
        let played = self.rules.catalog.tile(tile).has_tag(Tag::known(TAG));
        match &mut self.ext.gingerbread {
            Some(g) => {
                g.owed |= played;
                g.owed
            }
            None => false,
        }
    }

    /// Scores his city for its knights: per knight, 1 point a tile.
    fn gingerbread_score(&mut self, root: NodeId) {
        // Each knight is paid once, whatever figure it is.
        let counts = self.figures_on(root);
        if counts.iter().all(|c| *c == 0) {
            return;
        }
        let tiles = self
            .board
            .feature_tiles(&self.rules.catalog, root, self.count_per_cell());
        let mut points = [0u32; 6];
        for (seat, c) in counts.iter().enumerate().take(self.players.len()) {
            points[seat] = *c as u32 * tiles;
            self.players[seat].score += points[seat];
        }
        let (pos, corner, place) = self.feature_spot(root);
        self.events.push(Event {
            reason: Reason::Gingerbread,
            feature: Some(FeatureKind::City),
            at: Some((pos, corner, place)),
            tiles,
            extra: 0,
            points,
            followers: counts,
            tile: None,
        });
    }

    /// The root of the city he stands in, if on the board.
    fn gingerbread_city(&self) -> Option<NodeId> {
        let feats = self.board.features();
        self.ext
            .gingerbread
            .as_ref()
            .and_then(|g| g.at)
            .map(|n| feats.root(n))
    }

    /// Unfinished cities he may move to (one segment each), excluding his own.
    fn gingerbread_targets(&self) -> impl Iterator<Item = NodeId> + '_ {
        let feats = self.board.features();
        let here = self.gingerbread_city();
        (0..feats.len() as NodeId).filter(move |&n| {
            feats.kind(n) == FeatureKind::City
                && feats.root(n) == n
                && feats.open(n) > 0
                && Some(n) != here
        })
    }

    /// A segment of the city of `root` he may be put on: the first whose
    /// tile no expansion bars to neutral figures (Decision P10: never the
    /// dragon's tile), if any.
    fn gingerbread_segment(&self, root: NodeId) -> Option<NodeId> {
        let feats = self.board.features();
        feats
            .members(root)
            .find(|&n| crate::expansions::neutral_ban_on(self, feats.origin(n).0).is_none())
    }

    /// The legal actions of the move step: one per target city, or `pass`
    /// when there is none.
    pub(crate) fn gingerbread_actions(&self, out: &mut Vec<Action>) {
        for root in self.gingerbread_targets() {
            let Some(seg) = self.gingerbread_segment(root) else {
                continue;
            };
            let (pi, fi) = self.board.features().origin(seg);
            let (pos, place) = self.feature_anchor(pi, fi);
            out.push(Action::Gingerbread {
                pos,
                corner: self.board.pieces()[pi as usize].corner,
                place,
            });
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// Checks a move: the city named must be unfinished and not his own.
    pub(crate) fn gingerbread_check(
        &self,
        pos: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Result<NodeId, IllegalAction> {
        let cat = &*self.rules.catalog;
        let node = self
            .board
            .node_at(cat, pos, corner, place)
            .filter(|n| self.board.features().kind(*n) == FeatureKind::City)
            .ok_or_else(|| IllegalAction {
                rule: "gingerbread",
                message: format!("there is no city at {place} of the tile at {pos}"),
            })?;
        let feats = self.board.features();
        let root = feats.root(node);
        // What `gingerbread_targets` lists, asked of this one city.
        let here = self.gingerbread_city();
        if feats.open(root) == 0 || Some(root) == here {
            return Err(IllegalAction {
                rule: "gingerbread",
                message: "the gingerbread man must move to a different, unfinished city".into(),
            });
        }
        if let Some(why) = crate::expansions::neutral_ban_on(self, feats.origin(node).0) {
            return Err(IllegalAction {
                rule: "gingerbread",
                message: format!("{why}; name a segment of that city on another tile"),
            });
        }
        Ok(node)
    }

    /// Moves him into the city of `node`; leaving an unfinished city scores it.
    pub(crate) fn gingerbread_move(&mut self, node: NodeId) {
        let from = self.ext.gingerbread.as_ref().and_then(|g| g.at);
        if let Some(f) = from {
            let root = self.board.features().root(f);
            if self.board.features().open(root) > 0 {
                self.gingerbread_score(root);
            }
        }
        if let Some(g) = &mut self.ext.gingerbread {
            g.at = Some(node);
            g.owed = false;
        }
    }

    /// The move step ends without a move (no other unfinished city): he stays,
    /// or is set aside if his city is finished.
    pub(crate) fn gingerbread_stay(&mut self) {
        let finished = self
            .ext
            .gingerbread
            .as_ref()
            .and_then(|g| g.at)
            .is_some_and(|n| self.board.features().open(n) == 0);
        if let Some(g) = &mut self.ext.gingerbread {
            if finished {
                g.at = None;
            }
            g.owed = false;
        }
    }

    /// The gingerbread man, when his expansion is in play.
    pub fn gingerbread(&self) -> Option<&Gingerbread> {
        self.ext.gingerbread.as_ref()
    }

    /// Whether the game waits for the gingerbread move.
    pub fn in_gingerbread_step(&self) -> bool {
        self.phase == Phase::Gingerbread
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// The Gingerbread Man's hooks into the turn.
pub(crate) struct GingerbreadRules;

impl Expansion for GingerbreadRules {
    const FAMILY: Family = Family::Gingerbread;
    const SWITCH_ON: (&'static str, &'static str) = (
        "the Gingerbread Man",
        "gingerbread to \"expansions\" (with \"base\": \"winter\")",
    );
    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "gingerbread_misprint",
        "true: the Gingerbread Man's first print run (no D, two C)",
    )];

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.gingerbread.is_some()
    }

    /// Its codec segment: his moves, by the place code of the city's
    /// place he moves to.
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        codec.feature_codes()
    }

    fn encode(codec: &ActionCodec, _g: &Game, a: &Action) -> Option<usize> {
        match *a {
            Action::Gingerbread { pos, corner, place } => codec.feature_code(pos, corner, place),
            _ => None,
        }
    }

    fn decode(codec: &ActionCodec, _g: &Game, i: usize) -> Option<Action> {
        let (pos, corner, place) = codec.feature_of(i)?;
        Some(Action::Gingerbread { pos, corner, place })
    }

    /// A turn may add his move (or its `pass`).
    fn max_moves(_g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: 1,
            ..Default::default()
        }
    }

    /// Its six tiles; the first print run had a second C instead of D
    /// (option `gingerbread_misprint`).
    fn deck_tiles(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
    ) -> Result<(), crate::config::ConfigError> {
        let cat = ctx.catalog;
        let key = crate::expansions::ExpansionId::Gingerbread.key();
        let set = cat
            .set(key)
            .ok_or_else(|| crate::config::ConfigError::NotImplemented(key.into()))?;
        for &t in &set.tiles {
            let copies = match (ctx.options.gingerbread_misprint, cat.tile(t).id.as_str()) {
                (true, "gingerbread/D") => 0,
                (true, "gingerbread/C") => 2,
                _ => cat.tile(t).count,
            };
            bag.extend(std::iter::repeat_n(t, copies as usize));
        }
        Ok(())
    }

    /// One plane: the cell that names the gingerbread man's segment.
    fn tensor_size(_g: &Game) -> (usize, usize) {
        (1, 0)
    }

    fn tensor(g: &Game, _player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        if let Some(n) = g.gingerbread().and_then(|m| m.at) {
            let (pi, fi) = g.board().features().origin(n);
            t.set(0, g.feature_anchor(pi, fi).0, 1.0);
        }
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Gingerbread { .. }).then_some(("gingerbread", "the Gingerbread Man"))
    }

    /// He starts in the start tile's city.
    fn start(g: &mut Game, start: TileIdx) {
        let city = g
            .catalog()
            .tile(start)
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::City)
            .map(|fi| g.node(0, fi as u8));
        g.ext.gingerbread = Some(Gingerbread::new(city));
    }

    fn before_completion(g: &mut Game, root: NodeId) {
        g.gingerbread_before_completion(root);
    }

    /// Eaten by the dragon (`princess-dragon.md`, Decision P4): his tile is
    /// the one named when he was put in his city (at set-up, the start
    /// tile). He is set beside the board with no scoring (event `eaten`,
    /// no owner) and comes back with the next gingerbread tile as when set
    /// aside.
    fn clear_tile(g: &mut Game, pi: u16) {
        let Some(at) = g.gingerbread().and_then(|gb| gb.at) else {
            return;
        };
        let (here, fi) = g.board.features().origin(at);
        if here != pi {
            return;
        }
        if let Some(gb) = &mut g.ext.gingerbread {
            gb.at = None;
        }
        if g.log_events {
            let (pos, place) = g.feature_anchor(here, fi);
            let corner = g.board.pieces()[here as usize].corner;
            g.events.push(Event {
                reason: Reason::Eaten,
                feature: Some(FeatureKind::City),
                at: Some((pos, corner, place)),
                tiles: 0,
                extra: 0,
                points: [0; 6],
                followers: [0; 6],
                tile: None,
            });
        }
    }

    fn after_scoring(g: &mut Game, pi: u16) -> bool {
        if g.gingerbread_step_owed(pi) {
            g.phase = Phase::Gingerbread;
            return true;
        }
        false
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Gingerbread
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.gingerbread_actions(out);
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        Some(match *a {
            Action::Gingerbread { pos, corner, place } => {
                g.gingerbread_check(pos, corner, place).map(|node| {
                    g.gingerbread_move(node);
                    g.finish_turn();
                })
            }
            Action::Pass => {
                if mode == Mode::Checked {
                    let mut v = Vec::new();
                    g.gingerbread_actions(&mut v);
                    if v != [Action::Pass] {
                        return Some(Err(illegal(
                            "gingerbread",
                            "the gingerbread man must move to a different, unfinished city",
                        )));
                    }
                }
                g.gingerbread_stay();
                g.finish_turn();
                Ok(())
            }
            _ => Err(illegal(
                "turn",
                "move the gingerbread man first (a gingerbread action)",
            )),
        })
    }

    fn apply_action(_g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        matches!(a, Action::Gingerbread { .. }).then(|| {
            Err(illegal(
                "gingerbread",
                "the gingerbread man moves only after a gingerbread tile's turn or when his city is completed",
            ))
        })
    }

    fn state_json(g: &Game, _viewer: crate::view::Viewer, out: &mut ExpansionsJson) {
        let Some(gb) = g.gingerbread() else { return };
        put(
            out,
            "gingerbread",
            match gb.at {
                Some(node) => {
                    let root = g.board().features().root(node);
                    let (pi, fi) = g.board().features().origin(root);
                    let (pos, place) = g.feature_anchor(pi, fi);
                    serde_json::json!({
                        "x": pos.x,
                        "y": pos.y,
                        "place": place.name(),
                        "tiles": g.board().feature_tiles(g.catalog(), root, g.count_per_cell()),
                    })
                }
                None => serde_json::json!({"set_aside": true}),
            },
        );
    }
}
