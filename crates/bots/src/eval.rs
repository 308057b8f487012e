//! A static evaluation of a position from public information only: each
//! player's score plus what their followers are expected to bring, plus the
//! worth of followers kept in supply.
//!
//! - A road is worth its tiles (complete or not).
//! - A city is worth its tiles and coats of arms, doubled if it will be
//!   completed; the chance of completion falls with every open edge and with
//!   the tiles left.
//! - A monastery is worth 1 plus its neighbours, plus a share of the empty
//!   cells around it that later tiles may fill.
//! - A farm is worth 3 for each completed city it borders, and 3 times the
//!   completion chance for each unfinished one.
//! - Followers in supply are worth a little while many tiles remain (the
//!   last ones more: a player with none left cannot react).
//!
//! A feature counts for the players with the most followers on it, as in
//! scoring. At the end of the game the evaluation is the score.

use bastide_engine::FeatureRef;
use bastide_engine::{FeatureKind, Game, Seat};

/// Tunable weights of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Chance that a city with one open edge is completed (early on); each
    /// further open edge multiplies by it again.
    pub city_close: f64,
    /// Share of a monastery's empty neighbours expected to fill (early on).
    pub monastery_fill: f64,
    /// Worth of a follower in supply, early in the game.
    pub supply: f64,
    /// Extra worth of each of the last two followers in supply.
    pub last_followers: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            city_close: 0.7,
            monastery_fill: 0.75,
            supply: 1.0,
            last_followers: 1.5,
        }
    }
}

/// Scratch space for [`Evaluator::potentials`], so evaluation does not
/// allocate per call.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    /// The weights used.
    pub weights: Weights,
    groups: Vec<(FeatureRef, [u8; 6], FeatureKind)>,
    seen: Vec<FeatureRef>,
}

impl Evaluator {
    /// An evaluator with the given weights.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            ..Evaluator::default()
        }
    }

    /// Expected final points of each seat (first `player_count` entries).
    pub fn potentials(&mut self, game: &Game) -> [f64; 6] {
        let mut out = [0f64; 6];
        let n = game.player_count();
        for (seat, p) in game.players().iter().enumerate() {
            out[seat] = p.score as f64;
        }
        if game.is_finished() {
            return out;
        }
        let left = game.tiles_left() as f64 + game.drawn_tile().map_or(0.0, |_| 1.0);
        // Time factors: how much of the game remains for features to grow.
        let close_time = (left / 8.0).min(1.0);
        let fill_time = (left / 24.0).min(1.0);
        let supply_time = (left / (6.0 * n as f64)).min(1.0);
        let w = self.weights;
        self.groups.clear();
        for f in game.followers() {
            let feature = game.feature(game.follower_feature(f));
            let root = feature.id();
            match self.groups.iter_mut().find(|g| g.0 == root) {
                Some(g) => g.1[f.player.index()] += 1,
                None => {
                    let mut c = [0u8; 6];
                    c[f.player.index()] = 1;
                    self.groups.push((root, c, feature.kind()));
                }
            }
        }
        let close_p = |open: u16| -> f64 {
            if open == 0 {
                1.0
            } else {
                close_time * w.city_close.powi(open as i32)
            }
        };
        for gi in 0..self.groups.len() {
            let (root, counts, kind) = self.groups[gi];
            let feature = game.feature(root);
            let value = match kind {
                FeatureKind::Road => feature.value().0 as f64,
                FeatureKind::City => {
                    let (pts, _, _) = feature.value();
                    pts as f64 * (1.0 + close_p(feature.open_edges()))
                }
                FeatureKind::Monastery => {
                    let (pts, _, _) = feature.value();
                    pts as f64 + (9.0 - pts as f64) * w.monastery_fill * fill_time
                }
                FeatureKind::Field => self.farm_value(game, root, &close_p),
                FeatureKind::River => 0.0,
            };
            let best = counts.iter().copied().max().unwrap_or(0);
            for seat in 0..n {
                if counts[seat] == best {
                    out[seat] += value;
                }
            }
        }
        for (seat, p) in game.players().iter().enumerate() {
            let s = p.supply as f64;
            out[seat] += supply_time * (w.supply * s + w.last_followers * s.min(2.0));
        }
        out
    }

    fn farm_value(&mut self, game: &Game, root: FeatureRef, close_p: &dyn Fn(u16) -> f64) -> f64 {
        self.seen.clear();
        let mut v = 0.0;
        for c in game.feature(root).bordering_cities() {
            let city = game.feature(c);
            if !self.seen.contains(&city.id()) {
                self.seen.push(city.id());
                v += 3.0 * close_p(city.open_edges());
            }
        }
        v
    }

    /// The evaluation of `seat`: its potential minus the best other
    /// player's.
    pub fn margin(&mut self, game: &Game, seat: Seat) -> f64 {
        let p = self.potentials(game);
        margin_of(&p, game.player_count(), seat)
    }
}

/// `p[seat]` minus the best of the other seats' values.
pub fn margin_of(p: &[f64; 6], n: usize, seat: Seat) -> f64 {
    let me = seat.index();
    // A seat is below `Seat::MAX`, the length of `p`.
    let best_other = (0..n)
        .filter(|s| *s != me)
        .map(|s| p[s])
        .fold(f64::NEG_INFINITY, f64::max);
    p[me] - best_other
}
