//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system",
//! 2012), and what a finished game does to its players' ratings.
//!
//! Every rated game is one rating period for each of its players: a
//! two-player game is one result against one opponent; a game of three to
//! six is read as a result against every other player (pairwise: ahead
//! wins, level draws, behind loses), all applied at once. Bots have fixed
//! ratings ([`bot_rating`]) that never move.

/// The scale between Glicko ratings and Glicko-2's internal one.
const SCALE: f64 = 173.7178;

/// The system constant τ: how fast volatility may change. Glickman
/// suggests 0.3 to 1.2; 0.5 is his example's.
pub const TAU: f64 = 0.5;

/// The convergence tolerance of the volatility iteration (the paper's).
const EPSILON: f64 = 0.000_001;

/// A player's rating, its deviation and its volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation (350 for a new player).
    pub deviation: f64,
    /// The volatility σ (0.06 for a new player).
    pub volatility: f64,
}

impl Glicko {
    /// A new player's rating: 1500 ± 350, σ 0.06 (the paper's defaults).
    pub const NEW: Glicko = Glicko {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

/// One result of a rating period: the opponent's rating and deviation,
/// and the score (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent's rating.
    pub rating: f64,
    /// The opponent's deviation.
    pub deviation: f64,
    /// 1, 0.5 or 0.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The player's rating after one period of `results` (step 1 to 8 of the
/// paper). No results: only the deviation grows (step 6 alone).
pub fn update(player: Glicko, results: &[Outcome], tau: f64) -> Glicko {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Glicko {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance and improvement.
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for o in results {
        let mu_j = (o.rating - 1500.0) / SCALE;
        let g_j = g(o.deviation / SCALE);
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        inv_v += g_j * g_j * e * (1.0 - e);
        sum += g_j * (o.score - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // Bounded: the iteration converges in a handful of steps; the bound
    // only keeps a pathological input from spinning.
    for _ in 0..1000 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6 to 8.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    Glicko {
        rating: SCALE * mu_new + 1500.0,
        deviation: SCALE * phi_new,
        volatility: sigma_new,
    }
}

/// The rating classes: two-player games, and games of three to six.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Two players.
    Duel,
    /// Three to six players, rated pairwise.
    Multi,
}

impl Class {
    /// The class of a game of `players` players.
    pub fn of(players: usize) -> Class {
        if players <= 2 {
            Class::Duel
        } else {
            Class::Multi
        }
    }

    /// The name in the database and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Duel => "duel",
            Class::Multi => "multi",
        }
    }

    /// Reads a name written by [`Class::as_str`].
    pub fn parse(s: &str) -> Option<Class> {
        match s {
            "duel" => Some(Class::Duel),
            "multi" => Some(Class::Multi),
            _ => None,
        }
    }
}

/// The deviation a bot's fixed rating is taken with: bots play the same
/// strength always, so their rating is well known once published.
pub const BOT_DEVIATION: f64 = 50.0;

/// The published rating of a bot, by its spec (`random`, `greedy`,
/// `mcts…`). Provisional: no `bastide tournament` ladder against rated
/// people exists yet (docs/server.md, "Players"), so these are estimates
/// spaced by the bots' tournament win rates against each other; a bot's
/// rating never moves.
pub fn bot_rating(spec: &str) -> Glicko {
    let rating = match spec.split(':').next().unwrap_or_default() {
        "random" => 800.0,
        "greedy" => 1300.0,
        // Every MCTS budget alike: the server caps public budgets.
        _ => 1700.0,
    };
    Glicko {
        rating,
        deviation: BOT_DEVIATION,
        volatility: 0.0,
    }
}

/// Each seat's place at the end (1 the best; level seats share a place):
/// by score, a seat that resigned (or ran out of time) behind everyone.
pub fn places(scores: &[u32], resigned: Option<usize>) -> Vec<u8> {
    let key = |s: usize| {
        (
            resigned != Some(s),
            scores.get(s).copied().unwrap_or_default(),
        )
    };
    (0..scores.len())
        .map(|s| {
            let ahead = (0..scores.len()).filter(|&o| key(o) > key(s)).count();
            // At most six seats.
            u8::try_from(ahead + 1).unwrap_or(u8::MAX)
        })
        .collect()
}

/// The pairwise results of seat `seat` given every seat's place and
/// rating: one [`Outcome`] against each other seat.
pub fn outcomes(seat: usize, places: &[u8], ratings: &[Glicko]) -> Vec<Outcome> {
    (0..places.len())
        .filter(|&o| o != seat)
        .filter_map(|o| {
            let r = ratings.get(o)?;
            let score = match places[seat].cmp(&places[o]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            Some(Outcome {
                rating: r.rating,
                deviation: r.deviation,
                score,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickmans_worked_example() {
        let player = Glicko {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let results = [
            Outcome {
                rating: 1400.0,
                deviation: 30.0,
                score: 1.0,
            },
            Outcome {
                rating: 1550.0,
                deviation: 100.0,
                score: 0.0,
            },
            Outcome {
                rating: 1700.0,
                deviation: 300.0,
                score: 0.0,
            },
        ];
        let after = update(player, &results, TAU);
        // The paper prints μ' = −0.2069, φ' = 0.8722, σ' = 0.05999 on
        // Glicko-2's scale, and from those rounded values r' = 1464.06
        // and RD' = 151.52. Unrounded, r' is 1464.0507: within the
        // rounding of μ' (0.00005 × 173.7178 = 0.0087) of the paper's.
        let mu = (after.rating - 1500.0) / SCALE;
        let phi = after.deviation / SCALE;
        assert_eq!(format!("{mu:.4}"), "-0.2069", "{after:?}");
        assert_eq!(format!("{phi:.4}"), "0.8722", "{after:?}");
        // σ' is 0.0599960, which the paper prints cut to 0.05999.
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        assert_eq!(format!("{:.2}", SCALE * -0.2069 + 1500.0), "1464.06");
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert_eq!(format!("{:.2}", after.deviation), "151.52", "{after:?}");
    }

    #[test]
    fn no_games_only_widen_the_deviation() {
        let after = update(Glicko::NEW, &[], TAU);
        assert_eq!(after.rating, 1500.0);
        assert!(after.deviation > 350.0);
    }

    #[test]
    fn places_put_a_resigner_last_and_share_ties() {
        assert_eq!(places(&[10, 30, 30], None), vec![3, 1, 1]);
        assert_eq!(places(&[50, 30, 20], Some(0)), vec![3, 1, 2]);
        let r = [Glicko::NEW; 3];
        let o = outcomes(1, &[3, 1, 1], &r);
        assert_eq!(
            o.iter().map(|o| o.score).collect::<Vec<_>>(),
            vec![1.0, 0.5]
        );
    }
}
