//! The game state as JSON, as `bastide replay` prints it: scores, events,
//! board, followers. Names follow `notation.md`.

use serde::Serialize;

use crate::game::Game;
use crate::record::ActionJson;
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
pub use crate::view::{ExpansionsJson, Seen, Viewer};

/// A snapshot of a game in the notation's names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateJson {
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Points per player, in seat order.
    pub scores: Vec<u32>,
    /// Whether the game is over (final scoring done).
    pub finished: bool,
    /// Seat of the player to act (`null` when finished).
    pub current_player: Option<usize>,
    /// `place`, `follower`, `plague` (the Plague, after the follower step) or `over`.
    pub phase: &'static str,
    /// The tile to place now.
    pub drawn: Option<String>,
    /// Tiles still in the draw pile.
    pub tiles_left: usize,
    /// Followers in each player's supply.
    pub supply: Vec<u8>,
    /// Every scoring and set-aside event.
    pub events: Vec<EventJson>,
    /// Placed tiles in placement order (the start tile first).
    pub board: Vec<PieceJson>,
    /// Followers on the board.
    pub followers: Vec<FollowerJson>,
    /// The map: name and the start spaces used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<serde_json::Value>,
    /// Each expansion's part, under the notation's names (`hands`,
    /// `draft_pool`, `chips`, `gingerbread`, `plague`, `big_followers`, …),
    /// written by the expansion's own `state_json` hook as the viewer may
    /// see it; empty without expansions.
    #[serde(flatten)]
    pub expansions: ExpansionsJson,
}

/// A placed tile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceJson {
    /// Tile id.
    pub tile: String,
    /// Column of the anchor cell.
    pub x: i32,
    /// Row of the anchor cell.
    pub y: i32,
    /// Rotation in degrees.
    pub rotation: u16,
    /// A half tile's corner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half: Option<&'static str>,
}

/// A follower on the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FollowerJson {
    /// Owner's name.
    pub player: String,
    /// Owner's seat.
    pub seat: usize,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Canonical place of the feature.
    pub place: &'static str,
    /// Half corner, for a half tile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half: Option<&'static str>,
    /// `road`, `city`, `monastery` or `field`.
    pub feature: &'static str,
    /// A figure other than a normal follower (`"big"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub figure: Option<&'static str>,
}

/// One event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventJson {
    /// `completed`, `game end`, `discarded`, …
    pub reason: &'static str,
    /// Points per player in seat order (zeros for events without points).
    pub points: Vec<u32>,
    /// The feature scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature: Option<&'static str>,
    /// Column of a place naming the feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i32>,
    /// Row of a place naming the feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i32>,
    /// Place naming the feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<&'static str>,
    /// Half corner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half: Option<&'static str>,
    /// Tiles counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<u32>,
    /// Coats of arms counted (cities).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arms: Option<u32>,
    /// Completed cities counted (farms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cities: Option<u32>,
    /// Followers per player on the feature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub followers: Option<Vec<u8>>,
    /// The tile concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// The number of the outbreak token placed or flipped (the Plague).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbreak: Option<u32>,
    /// The seat that acted, for an event between two players (The Tower:
    /// the capturer of `capture`, the payer of `ransom`, who loses 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
    /// The kind of trade goods taken or scored (Traders & Builders).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goods: Option<&'static str>,
    /// Trade goods tokens per player: taken (`goods taken`) or held
    /// (`goods`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<u8>>,
}

impl Game {
    /// The full state in JSON form: every hand shown (a referee's view, as
    /// `bastide replay` prints it); never the pile's order.
    pub fn state_json(&self) -> StateJson {
        self.state_json_as(Viewer::Referee)
    }

    /// The events after the first `before`, as [`Game::state_json`] lists
    /// them, without building the rest of the state (a server tells each
    /// action's events; the whole state per action costs the board's
    /// size every time).
    pub fn events_json_from(&self, before: usize) -> Vec<EventJson> {
        let n = self.player_count();
        self.events()
            .get(before..)
            .unwrap_or_default()
            .iter()
            .map(|e| self.event_json(e, n))
            .collect()
    }

    /// The state as `viewer` may see it: the expansions list each secret
    /// hand only if [`Viewer::sees_hand_of`] allows, else its size
    /// ([`Seen`]). The one place a view's secrets are decided: nothing is
    /// removed afterwards.
    pub fn state_json_as(&self, viewer: Viewer) -> StateJson {
        let cat = self.catalog();
        let n = self.player_count();
        let names = &self.config().players;
        let mut s = StateJson {
            players: names.clone(),
            scores: self.scores(),
            finished: self.is_finished(),
            current_player: (!self.is_finished()).then_some(self.current_player().index()),
            phase: self.phase().name(),
            drawn: self.visible_drawn_tile().map(|t| cat.tile(t).id.clone()),
            tiles_left: self.tiles_left(),
            supply: self.players().iter().map(|p| p.supply).collect(),
            events: self
                .events()
                .iter()
                .map(|e| self.event_json(e, n))
                .collect(),
            board: self
                .board()
                .pieces()
                .iter()
                .map(|p| PieceJson {
                    tile: cat.tile(p.tile).id.clone(),
                    x: p.pos.x,
                    y: p.pos.y,
                    rotation: p.rot.degrees(),
                    half: p.corner.map(|c| c.name()),
                })
                .collect(),
            followers: self
                .followers()
                .iter()
                .map(|f| {
                    let (pos, place) = self.feature_anchor(f.piece, f.feature);
                    FollowerJson {
                        player: names[f.player.index()].clone(),
                        seat: f.player.index(),
                        x: pos.x,
                        y: pos.y,
                        place: place.name(),
                        half: self.board().pieces()[f.piece as usize]
                            .corner
                            .map(|c| c.name()),
                        feature: self.follower_kind(f).name(),
                        figure: f.figure.name(),
                    }
                })
                .collect(),
            map: self.rules.map.as_ref().map(|m| {
                serde_json::json!({
                    "name": m.name,
                    "title": m.title,
                    "reconstructed": m.reconstructed,
                    "start_spaces": self.rules.options.start_spaces,
                })
            }),
            expansions: ExpansionsJson::new(),
        };
        crate::expansions::state_json(self, viewer, &mut s.expansions);
        s
    }

    /// What the player in `seat` may see: [`Game::view`] for
    /// [`Viewer::Seat`].
    pub fn view_json(&self, seat: Seat) -> serde_json::Value {
        self.view(Viewer::Seat(seat))
    }

    /// What `viewer` may see: the state without the hands it may not see
    /// (halves, chips: their sizes stay), plus how many of each tile kind
    /// remain to be drawn — never their order — and the viewer's seat
    /// (`null` for a spectator). `tiles_left` counts the tiles not yet
    /// seen, as `remaining` does (a pending draw's included).
    pub fn view(&self, viewer: Viewer) -> serde_json::Value {
        let mut v = serde_json::to_value(self.state_json_as(viewer)).unwrap_or_default();
        let remaining: std::collections::BTreeMap<&str, u32> = self
            .remaining_tiles()
            .into_iter()
            .map(|(t, c)| (self.catalog().tile(t).id.as_str(), c))
            .collect();
        if let Some(o) = v.as_object_mut() {
            o.insert("seat".into(), viewer.seat().map(Seat::index).into());
            o.insert("remaining".into(), serde_json::json!(remaining));
            // While a draw is still a choice, the tiles it took from the
            // pile (the one offered, those passed over as unplaceable) are
            // unseen: they count as left, or the count would tell a seat
            // how many were passed over.
            o.insert("tiles_left".into(), self.tiles_unseen().into());
        }
        v
    }

    fn event_json(&self, e: &Event, n: usize) -> EventJson {
        let scored = matches!(e.reason, Reason::Completed | Reason::GameEnd | Reason::Barn);
        let counted = scored || e.reason.counts_tiles();
        let is_city = scored && e.feature == Some(crate::FeatureKind::City);
        let is_field = scored && e.feature == Some(crate::FeatureKind::Field);
        let token = e.reason.is_token();
        EventJson {
            reason: e.reason.name(),
            points: e.points[..n].to_vec(),
            feature: e.feature.map(|k| k.name()),
            x: e.at.map(|a| a.0.x),
            y: e.at.map(|a| a.0.y),
            // A figure on top of a tower is on no feature's place.
            place: e.at.map(|a| {
                if e.feature.is_none() && e.reason.about_a_figure() {
                    crate::record::TOWER_PLACE
                } else {
                    a.2.name()
                }
            }),
            half: e.at.and_then(|a| a.1).map(|c| c.name()),
            tiles: e.feature.filter(|_| counted).map(|_| e.tiles),
            arms: is_city.then_some(e.extra),
            cities: is_field.then_some(e.extra),
            followers: (e.feature.is_some() || e.reason.about_a_figure())
                .then(|| e.followers[..n].to_vec()),
            tile: e.tile.map(|t| self.catalog().tile(t).id.clone()),
            outbreak: token.then_some(e.extra),
            seat: e.reason.names_seat().then_some(e.extra),
            goods: e
                .reason
                .is_goods()
                .then(|| crate::scoring::Goods::of(e.extra).map(|g| g.name()))
                .flatten(),
            tokens: e.reason.is_goods().then(|| e.followers[..n].to_vec()),
        }
    }

    /// The legal actions in record form.
    pub fn legal_actions_json(&self) -> Vec<ActionJson> {
        self.legal_actions()
            .iter()
            .map(|a| ActionJson::from_action(a, self.catalog()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;
    use crate::{sim, Game, GameConfig};

    #[test]
    fn events_from_a_point_are_the_states_tail() {
        let config =
            GameConfig::from_sets(3, 5, &["base", "inns-cathedrals"]).expect("a configuration");
        let mut game = Game::new(config).expect("a game");
        sim::play_random(&mut game, &mut Rng::new(5), |_| {});
        let all = serde_json::to_value(game.state_json().events).expect("JSON");
        let n = game.events().len();
        assert!(n > 10, "a whole game's events: {n}");
        for before in [0, 1, n / 2, n - 1, n, n + 3] {
            let tail = serde_json::to_value(game.events_json_from(before)).expect("JSON");
            let expected = all
                .as_array()
                .expect("a list")
                .get(before..)
                .unwrap_or_default();
            assert_eq!(
                tail.as_array().expect("a list").as_slice(),
                expected,
                "from {before}"
            );
        }
    }
}
