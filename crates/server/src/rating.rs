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

/// A deviation above this marks a rating as provisional (lichess's
/// threshold): a new account is 1500 ± 350 and stays provisional for its
/// first dozen or so rated games. Profiles and the leaderboard say so,
/// and the leaderboard ranks established ratings first, so that a new
/// account's lucky run (or a farmed one) does not top it.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Whether a rating is still provisional ([`PROVISIONAL_DEVIATION`]).
pub fn is_provisional(g: &Glicko) -> bool {
    g.deviation > PROVISIONAL_DEVIATION
}

/// How many rated games a day one pair of accounts, or accounts seen at
/// one address, may have counted against each other: lichess's answer to
/// rating farmed from sock accounts. Past it a pair's result in a game
/// moves neither rating (a game's other pairs still count).
pub const RATED_PAIRS_PER_DAY: i64 = 3;

/// The window of [`RATED_PAIRS_PER_DAY`]: a day, sliding.
pub const RATED_PAIR_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// How long an address an account was seen at ties it to the other
/// accounts seen there: a session's lifetime, 30 days.
pub const SHARED_ADDRESS_MS: i64 = 30 * 24 * 60 * 60 * 1000;

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

/// The least deviation a bot's fixed rating is taken with: the ladder
/// measures bots against bots, so however many games it plays, where
/// the bots sit among people is known less well than that.
pub const BOT_DEVIATION: f64 = 50.0;

/// The bot ladder the server's bot ratings come from: written by
/// `bastide ladder --out`, checked into the repository (docs/bots.md,
/// "The ladder").
const LADDER_JSON: &str = include_str!("../data/bot-ladder.json");

/// The embedded ladder, read once.
static LADDER: std::sync::LazyLock<Ladder> = std::sync::LazyLock::new(|| {
    // A unit test reads the same text: a broken file fails the build's
    // tests, never a running server.
    Ladder::parse(LADDER_JSON).expect("crates/server/data/bot-ladder.json is checked by its tests")
});

/// The ladder the server rates bots by.
pub fn ladder() -> &'static Ladder {
    &LADDER
}

/// The published rating of a bot, by its spec (`random`, `greedy`,
/// `mcts…`): its entry of the ladder ([`Ladder::entry_for`]), with at
/// least [`BOT_DEVIATION`]. A bot's rating never moves.
pub fn bot_rating(spec: &str) -> Glicko {
    let entry = ladder().entry_for_text(spec);
    Glicko {
        rating: entry.rating,
        deviation: entry.deviation.max(BOT_DEVIATION),
        volatility: 0.0,
    }
}

/// Iterations a time budget is taken to buy, per millisecond, when a
/// bot with a time per move is matched to a ladder entry: a sixth of
/// what one core of the development machine does (`bastide bench`,
/// about 30 a millisecond), since a server's cores are shared by every
/// game's bots. Too low a figure underrates the bot, which only makes
/// beating it worth less: never a way to gain rating cheaply.
pub const ITERATIONS_PER_MS: u64 = 5;

/// A bot ladder: fixed ratings for bot specs, fitted from games of the
/// bots against each other (`bastide ladder`), and how they were made.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// The command that played the games.
    pub command: String,
    /// Its first seed.
    pub seed: u64,
    /// The sets played (the base game).
    pub sets: Vec<String>,
    /// How the ratings were fitted.
    pub fit: String,
    /// The entry whose rating is fixed, and that rating.
    pub anchor: String,
    /// The anchor's rating.
    pub anchor_rating: f64,
    /// Seconds the games took, wall clock.
    pub seconds: f64,
    /// Worker threads that played them.
    pub threads: usize,
    /// Every entry, weakest first.
    pub entries: Vec<LadderEntry>,
    /// Every pairing played.
    pub pairs: Vec<LadderPair>,
}

/// One bot of a [`Ladder`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderEntry {
    /// The bot's spec, as `BotSpec` prints it.
    pub spec: String,
    /// Its fitted rating (Glicko scale).
    pub rating: f64,
    /// The fit's standard error of the rating, relative to the anchor.
    pub deviation: f64,
    /// Games it played in the ladder.
    pub games: u64,
}

/// One pairing of a [`Ladder`]: `a` against `b`, seats swapped each game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderPair {
    /// The first bot's spec.
    pub a: String,
    /// The second bot's spec.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// `a`'s wins, a tie counting half.
    pub a_wins: f64,
    /// `a`'s mean score.
    pub a_score: f64,
    /// `b`'s mean score.
    pub b_score: f64,
}

/// Why a ladder file is unfit.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// Not the JSON of a [`Ladder`].
    #[error("not a bot ladder: {0}")]
    Json(#[from] serde_json::Error),
    /// An entry's spec is not a bot.
    #[error("entry {spec:?} is not a bot spec: {problem}")]
    Spec {
        /// The entry's spec.
        spec: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `random` is not the first entry: every spec needs an entry at or
    /// below it.
    #[error("the ladder's first entry is not random: every bot needs an entry at or below it")]
    NoFloor,
    /// No `greedy` entry: the lobby's quick bot needs its own.
    #[error("the ladder has no greedy entry: ladder the lobby's greedy bot too")]
    NoGreedy,
    /// Entries not weakest first by rating, a larger MCTS budget rated
    /// below a smaller one, or one bot twice.
    #[error("entries must be weakest first by rating, MCTS rated higher the larger its budget, each bot once: {0} is out of order")]
    Order(String),
}

impl Ladder {
    /// Reads a ladder file and checks what [`Ladder::entry_for`] relies
    /// on: every entry a laddered bot, once; entries weakest first by
    /// rating, `random` the first; a `greedy` entry; MCTS entries rated
    /// higher the larger their budget.
    pub fn parse(text: &str) -> Result<Ladder, LadderError> {
        let ladder: Ladder = serde_json::from_str(text)?;
        let mut last_rating = f64::NEG_INFINITY;
        let mut last_mcts = None;
        let mut seen = Vec::with_capacity(ladder.entries.len());
        for e in &ladder.entries {
            let level = Level::of_text(&e.spec).map_err(|problem| LadderError::Spec {
                spec: e.spec.clone(),
                problem,
            })?;
            // Ties are out too: two entries of one strength say nothing
            // about which is stronger.
            let budget_down = matches!(level, Level::Mcts(n) if last_mcts.is_some_and(|m| m >= n));
            if e.rating <= last_rating || budget_down || seen.contains(&level) {
                return Err(LadderError::Order(e.spec.clone()));
            }
            if let Level::Mcts(n) = level {
                last_mcts = Some(n);
            }
            last_rating = e.rating;
            seen.push(level);
        }
        match ladder.entries.first() {
            Some(e) if e.spec == "random" => {}
            _ => return Err(LadderError::NoFloor),
        }
        if !seen.contains(&Level::Greedy) {
            return Err(LadderError::NoGreedy);
        }
        Ok(ladder)
    }

    /// The entry a bot is rated as: `random` and `greedy` their own;
    /// `mcts` the MCTS entry of the largest budget up to its own (a
    /// budget between two entries gets the one below), and `random` below
    /// the smallest: the ladder finds small searches weaker than `greedy`
    /// (their few playouts only blur greedy's choice), so nothing above
    /// the floor is known of them. A time per move counts
    /// [`ITERATIONS_PER_MS`] iterations a millisecond. MCTS settings
    /// other than the defaults are not laddered: such a bot is rated by
    /// its budget (a rated game refuses it, see [`rated_bot`]).
    pub fn entry_for(&self, spec: &bastide_bots::BotSpec) -> &LadderEntry {
        let level = Level::of(spec);
        let fits = |l: Level| match (l, level) {
            (Level::Mcts(m), Level::Mcts(n)) => m <= n,
            (l, level) => l == level,
        };
        self.entries
            .iter()
            // Weakest first, and MCTS ratings rise with the budget: the
            // last that fits is the largest budget.
            .rfind(|e| Level::of_text(&e.spec).is_ok_and(fits))
            // `parse` checked that the first entry is `random`, the floor.
            .unwrap_or(&self.entries[0])
    }

    /// [`Ladder::entry_for`] a spec in words; one that is not a bot (the
    /// server only seats bots it parsed) is rated as the weakest entry,
    /// which makes beating it worth nothing.
    pub fn entry_for_text(&self, spec: &str) -> &LadderEntry {
        match bastide_bots::BotSpec::parse(spec) {
            Ok(s) => self.entry_for(&s),
            Err(_) => &self.entries[0],
        }
    }
}

/// Whether a rated game may seat `spec`: every bot the server seats has a
/// ladder entry except MCTS with settings other than the defaults (`c=`,
/// `rollout=`, …), whose strength the ladder never measured; rated by
/// their budget alone, a weakened search would be a cheap win.
pub fn rated_bot(spec: &bastide_bots::BotSpec) -> Result<(), String> {
    use bastide_bots::{BotSpec, MctsConfig};
    match spec {
        BotSpec::Mcts(c)
            if *c
                != (MctsConfig {
                    budget: c.budget,
                    ..MctsConfig::default()
                }) =>
        {
            Err(format!(
                "{spec} has settings the bot ladder never rated: a rated game seats random, greedy or mcts with a budget alone (such as mcts:{})",
                c.budget
            ))
        }
        BotSpec::Strong(c) if *c != bastide_bots::StrongConfig::default() => Err(format!(
            "{spec}: the bot ladder rated `strong` with its default budget only"
        )),
        _ => Ok(()),
    }
}

/// Whether a rated game may seat `spec` on this server: [`rated_bot`],
/// and the embedded ladder holds the bot's own level. A bot the ladder
/// never measured (`strong` until a ladder run includes it) would be
/// rated as the floor, so losing to it would cost a person as much as
/// losing to `random`: such a bot plays unrated games only.
pub fn rated_seat(spec: &bastide_bots::BotSpec) -> Result<(), String> {
    rated_bot(spec)?;
    let level = Level::of(spec);
    let laddered = |l: Level| match (l, level) {
        (Level::Mcts(_), Level::Mcts(_)) => true,
        (l, level) => l == level,
    };
    if ladder()
        .entries
        .iter()
        .any(|e| Level::of_text(&e.spec).is_ok_and(laddered))
    {
        Ok(())
    } else {
        Err(format!(
            "the bot ladder has not rated {spec} yet: it plays unrated games; a rated game seats one of {}",
            ladder()
                .entries
                .iter()
                .map(|e| e.spec.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// A bot's place in the ladder's order: `random`, `greedy`, then MCTS by
/// iterations (a time per move at [`ITERATIONS_PER_MS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// MCTS with this many iterations a move.
    Mcts(u64),
    /// The `strong` bot (its default budget; others are not rated).
    Strong,
}

impl Level {
    /// The level of any bot.
    pub fn of(spec: &bastide_bots::BotSpec) -> Level {
        use bastide_bots::{BotSpec, Budget};
        match spec {
            BotSpec::Random => Level::Random,
            BotSpec::Greedy => Level::Greedy,
            BotSpec::Strong(_) => Level::Strong,
            BotSpec::Mcts(c) => Level::Mcts(match c.budget {
                Budget::Iterations(n) => u64::from(n),
                Budget::Time(t) => u64::try_from(t.as_millis())
                    .unwrap_or(u64::MAX)
                    .saturating_mul(ITERATIONS_PER_MS),
            }),
        }
    }

    /// A ladder entry's level: only default settings and iteration
    /// budgets are laddered (a time budget's strength depends on the
    /// machine); the error says why a spec is not.
    pub fn of_text(spec: &str) -> Result<Level, String> {
        use bastide_bots::{BotSpec, Budget};
        let s = BotSpec::parse(spec).map_err(|e| e.to_string())?;
        if let BotSpec::Mcts(c) = &s {
            if matches!(c.budget, Budget::Time(_)) {
                return Err(
                    "a time budget's strength depends on the machine: ladder iteration budgets such as mcts:2000".into(),
                );
            }
        }
        rated_bot(&s)?;
        Ok(Level::of(&s))
    }
}

/// One pairing's results, for [`fit`]: entries `a` and `b` (indices),
/// the games they played and `a`'s wins (a tie counting half).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// The first entry.
    pub a: usize,
    /// The second entry.
    pub b: usize,
    /// Games played.
    pub games: u64,
    /// `a`'s wins.
    pub a_wins: f64,
}

/// A fitted rating and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// The rating, on Glicko's scale.
    pub rating: f64,
    /// Its standard error relative to the anchor (0 for the anchor).
    pub deviation: f64,
}

/// Why ratings cannot be fitted.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// A pairing names an entry past the list, or itself.
    #[error("pairing {0} names entries that are not two of the list")]
    BadPair(usize),
    /// An entry has no chain of games to the anchor.
    #[error("entry {0} has no chain of games to the anchor: pair it with a bot that has one")]
    Unconnected(usize),
    /// The anchor is not an entry.
    #[error("the anchor is not one of the entries")]
    NoAnchor,
}

/// Virtual draws added to every pairing played, in [`fit`]: a weak prior
/// that keeps a pairing one side always wins (greedy against random) at
/// a large, finite gap instead of an infinite one (BayesElo's device).
pub const VIRTUAL_DRAWS: f64 = 1.0;

/// Fixed ratings for `n` entries from their games (Bradley–Terry by
/// maximum likelihood, on Glicko's logistic scale, with
/// [`VIRTUAL_DRAWS`] per pairing): entry `i` beats `j` with chance
/// `1 / (1 + exp(−(r_i − r_j) / 173.7178))`, Glicko-2's expected score
/// for well-known ratings. Entry `anchor` is fixed at `anchor_rating`;
/// the deviations are the standard errors from the observed information
/// (the inverse of the log-likelihood's curvature).
pub fn fit(
    n: usize,
    pairs: &[PairResult],
    anchor: usize,
    anchor_rating: f64,
) -> Result<Vec<Fitted>, FitError> {
    if anchor >= n {
        return Err(FitError::NoAnchor);
    }
    for (k, p) in pairs.iter().enumerate() {
        if p.a >= n || p.b >= n || p.a == p.b {
            return Err(FitError::BadPair(k));
        }
    }
    let played: Vec<&PairResult> = pairs.iter().filter(|p| p.games > 0).collect();
    // Connected to the anchor, or that entry's rating is unbounded.
    let mut reached = vec![false; n];
    reached[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for p in &played {
            if reached[p.a] != reached[p.b] {
                reached[p.a] = true;
                reached[p.b] = true;
                grew = true;
            }
        }
    }
    if let Some(i) = reached.iter().position(|r| !r) {
        return Err(FitError::Unconnected(i));
    }
    // The free entries: all but the anchor, whose strength is 0.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let slot = |i: usize| free.iter().position(|&f| f == i);
    let m = free.len();
    let mut theta = vec![0.0f64; n];
    let curvature = |theta: &[f64]| {
        let mut grad = vec![0.0; m];
        let mut hess = vec![vec![0.0; m]; m];
        for p in &played {
            let games = p.games as f64 + VIRTUAL_DRAWS;
            let wins = p.a_wins + VIRTUAL_DRAWS / 2.0;
            let e = 1.0 / (1.0 + (theta[p.b] - theta[p.a]).exp());
            let w = games * e * (1.0 - e);
            let (sa, sb) = (slot(p.a), slot(p.b));
            if let Some(a) = sa {
                grad[a] += wins - games * e;
                hess[a][a] += w;
            }
            if let Some(b) = sb {
                grad[b] -= wins - games * e;
                hess[b][b] += w;
            }
            if let (Some(a), Some(b)) = (sa, sb) {
                hess[a][b] -= w;
                hess[b][a] -= w;
            }
        }
        (grad, hess)
    };
    // Newton's method on a strictly concave likelihood (the virtual
    // draws make it so); steps are capped so a far start cannot
    // overshoot, and the bound only stops a pathological input.
    for _ in 0..200 {
        let (grad, hess) = curvature(&theta);
        let step = solve(hess, grad);
        let big = step.iter().fold(0.0f64, |a, s| a.max(s.abs()));
        let shrink = if big > 2.0 { 2.0 / big } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            theta[i] += step[k] * shrink;
        }
        if big < 1e-12 {
            break;
        }
    }
    let (_, hess) = curvature(&theta);
    let mut out = vec![
        Fitted {
            rating: anchor_rating,
            deviation: 0.0,
        };
        n
    ];
    for (k, &i) in free.iter().enumerate() {
        let mut unit = vec![0.0; m];
        unit[k] = 1.0;
        // The k-th diagonal term of the inverse curvature.
        let var = solve(hess.clone(), unit)[k];
        out[i] = Fitted {
            rating: anchor_rating + SCALE * theta[i],
            deviation: SCALE * var.max(0.0).sqrt(),
        };
    }
    Ok(out)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (a
/// dozen entries at most, so no library is worth it); a singular matrix
/// gives zeros where it has no pivot.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let Some(pivot) = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
        else {
            break;
        };
        if a[pivot][col].abs() < 1e-300 {
            continue;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (r, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            b[col + 1 + r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        if a[row][row].abs() < 1e-300 {
            continue;
        }
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
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
    outcomes_counted(seat, places, ratings, |_| true)
}

/// [`outcomes`] against the other seats `counts` keeps only: a pair past
/// the daily limit ([`RATED_PAIRS_PER_DAY`]) is left out of both sides.
pub fn outcomes_counted(
    seat: usize,
    places: &[u8],
    ratings: &[Glicko],
    counts: impl Fn(usize) -> bool,
) -> Vec<Outcome> {
    (0..places.len())
        .filter(|&o| o != seat && counts(o))
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

    fn close(a: f64, b: f64, what: &str) {
        assert!((a - b).abs() < 0.01, "{what}: {a} against {b}");
    }

    #[test]
    fn the_fit_reproduces_a_hand_computed_pairing() {
        // The anchor beats the other bot twice in two games; with the
        // virtual draw it has 2.5 of 3, odds of 5: the gap is
        // 173.7178 · ln 5 = 279.59. The information is
        // 3 · 5/6 · 1/6 = 5/12, so the standard error is
        // 173.7178 · √(12/5) = 269.12.
        let f = fit(
            2,
            &[PairResult {
                a: 0,
                b: 1,
                games: 2,
                a_wins: 2.0,
            }],
            0,
            1500.0,
        )
        .expect("connected");
        assert_eq!(f[0].rating, 1500.0);
        assert_eq!(f[0].deviation, 0.0);
        close(f[1].rating, 1220.41, "rating");
        close(f[1].deviation, 269.12, "deviation");
    }

    #[test]
    fn the_fit_of_a_consistent_triangle_is_its_chain() {
        // 0–1: 1 wins 2.5 of 3 (+ the virtual draw: 3 of 4, odds 3);
        // 1–2: 2 wins 1 of 1 (1.5 of 2, odds 3); 0–2: 2 wins 8.5 of 9
        // (9 of 10, odds 9 = 3 · 3). The three agree, so the fit is
        // 1500, 1500 + 173.7178 · ln 3 = 1690.85 and 1500 + 2 · 190.85.
        let pairs = [
            PairResult {
                a: 0,
                b: 1,
                games: 3,
                a_wins: 0.5,
            },
            PairResult {
                a: 1,
                b: 2,
                games: 1,
                a_wins: 0.0,
            },
            PairResult {
                a: 0,
                b: 2,
                games: 9,
                a_wins: 0.5,
            },
        ];
        let f = fit(3, &pairs, 0, 1500.0).expect("connected");
        close(f[1].rating, 1690.85, "entry 1");
        close(f[2].rating, 1881.70, "entry 2");
        // Without the third pairing the chain's errors add up: variances
        // 1 / (4 · 3/16) = 4/3 and 1 / (2 · 3/16) = 8/3, so entry 2's is
        // 4 and its standard error 2 · 173.7178.
        let chain = fit(3, &pairs[..2], 0, 1500.0).expect("connected");
        close(chain[2].rating, 1881.70, "chain");
        close(
            chain[1].deviation,
            173.7178 * (4.0f64 / 3.0).sqrt(),
            "chain 1",
        );
        close(chain[2].deviation, 347.44, "chain 2");
        assert!(f[2].deviation < chain[2].deviation, "{f:?}");
    }

    #[test]
    fn the_fit_refuses_what_it_cannot_rate() {
        let p = |a, b| PairResult {
            a,
            b,
            games: 2,
            a_wins: 1.0,
        };
        assert_eq!(fit(3, &[p(0, 1)], 0, 1500.0), Err(FitError::Unconnected(2)));
        assert_eq!(fit(2, &[p(0, 2)], 0, 1500.0), Err(FitError::BadPair(0)));
        assert_eq!(fit(2, &[p(0, 1)], 2, 1500.0), Err(FitError::NoAnchor));
    }

    /// The bot kinds the web lobby offers (web/src/sets.ts, `SEAT_KINDS`).
    fn lobby_bots() -> Vec<String> {
        let sets = include_str!("../../../web/src/sets.ts");
        let kinds: Vec<String> = sets
            .lines()
            .filter_map(|l| l.trim().strip_prefix("{ kind: '"))
            .filter_map(|l| l.split('\'').next())
            .filter(|k| *k != "human")
            .map(String::from)
            .collect();
        assert!(kinds.len() >= 4, "{kinds:?}");
        kinds
    }

    #[test]
    fn the_embedded_ladder_parses_weakest_first_with_the_lobbys_bots() {
        let l = Ladder::parse(LADDER_JSON).expect("the embedded ladder");
        assert_eq!(ladder(), &l);
        assert_eq!(l.entries[0].spec, "random");
        for w in l.entries.windows(2) {
            assert!(w[0].rating < w[1].rating, "{w:?}");
        }
        assert!(l.entries.iter().any(|e| e.spec == l.anchor));
        // Every lobby bot has an entry of its own, not a neighbour's.
        for kind in lobby_bots() {
            let spec = bastide_bots::BotSpec::parse(&kind).expect("a lobby bot");
            assert_eq!(l.entry_for(&spec).spec, spec.to_string(), "{kind}");
            assert_eq!(bot_rating(&kind).rating, l.entry_for(&spec).rating);
        }
    }

    #[test]
    fn a_rated_game_seats_only_bots_the_ladder_measured() {
        use bastide_bots::BotSpec;
        let seat = |s: &str| rated_seat(&BotSpec::parse(s).expect("a bot"));
        for ok in ["random", "greedy", "mcts:2000", "mcts:500"] {
            assert_eq!(seat(ok), Ok(()), "{ok}");
        }
        let laddered = ladder().entries.iter().any(|e| e.spec == "strong");
        let err = seat("strong");
        assert_eq!(err.is_ok(), laddered, "{err:?}");
        if !laddered {
            assert!(err.unwrap_err().contains("unrated"));
        }
    }

    #[test]
    fn every_bot_the_server_seats_gets_the_entry_at_or_below_it() {
        let l = ladder();
        let rating = |s: &str| bot_rating(s).rating;
        let entry = |s: &str| l.entry_for_text(s).spec.clone();
        // Every public budget (`--public-mcts-iterations`, 20000;
        // `--public-bot-move-ms`, 2000) and the operator's up to 100000:
        // an entry at or below the bot, and more never rated lower.
        let mut last = rating("random");
        let mut budgets: Vec<u32> = (1..=100_000).step_by(97).chain([20_000, 100_000]).collect();
        budgets.sort_unstable();
        for n in budgets {
            let spec = format!("mcts:{n}");
            match Level::of_text(&entry(&spec)).expect("an entry") {
                Level::Mcts(m) => assert!(m <= u64::from(n), "{spec}"),
                l => assert_eq!(l, Level::Random, "{spec}"),
            }
            assert!(rating(&spec) >= last, "{spec}");
            last = rating(&spec);
        }
        for ms in (1..=2_000u32).step_by(37) {
            let spec = format!("mcts:{ms}ms");
            match Level::of_text(&entry(&spec)).expect("an entry") {
                Level::Mcts(m) => assert!(m <= u64::from(ms) * ITERATIONS_PER_MS, "{spec}"),
                l => assert_eq!(l, Level::Random, "{spec}"),
            }
        }
        assert!(rating("random") < rating("greedy"));
        assert!(bot_rating("greedy").deviation >= BOT_DEVIATION);
        // Settings the ladder never measured are refused in rated games.
        let odd = bastide_bots::BotSpec::parse("mcts:2000:width=1").expect("a bot");
        assert!(rated_bot(&odd).is_err_and(|e| e.contains("mcts:2000")));
        let plain = bastide_bots::BotSpec::parse("mcts:2000ms").expect("a bot");
        assert_eq!(rated_bot(&plain), Ok(()));
    }

    #[test]
    fn a_ladder_out_of_order_or_without_random_is_refused() {
        let entry = |spec: &str, rating: f64| LadderEntry {
            spec: spec.into(),
            rating,
            deviation: 10.0,
            games: 2,
        };
        let refused = |l: &Ladder| Ladder::parse(&serde_json::to_string(l).expect("json"));
        let mut l = ladder().clone();
        // Ratings not rising down the list.
        l.entries = vec![
            entry("random", 100.0),
            entry("greedy", 800.0),
            entry("mcts:20", 700.0),
        ];
        assert!(matches!(refused(&l), Err(LadderError::Order(s)) if s == "mcts:20"));
        // A larger budget rated below a smaller one.
        l.entries = vec![
            entry("random", 100.0),
            entry("mcts:200", 500.0),
            entry("mcts:20", 600.0),
            entry("greedy", 800.0),
        ];
        assert!(matches!(refused(&l), Err(LadderError::Order(s)) if s == "mcts:20"));
        // Small searches below greedy are fine, as measured.
        l.entries = vec![
            entry("random", 100.0),
            entry("mcts:20", 700.0),
            entry("greedy", 800.0),
        ];
        let ok = refused(&l).expect("a ladder");
        let small = bastide_bots::BotSpec::parse("mcts:19").expect("a bot");
        assert_eq!(ok.entry_for(&small).spec, "random");
        let between = bastide_bots::BotSpec::parse("mcts:500").expect("a bot");
        assert_eq!(ok.entry_for(&between).spec, "mcts:20");
        l.entries = vec![entry("greedy", 800.0)];
        assert!(matches!(refused(&l), Err(LadderError::NoFloor)));
        l.entries = vec![entry("random", 100.0), entry("mcts:20", 800.0)];
        assert!(matches!(refused(&l), Err(LadderError::NoGreedy)));
        l.entries = vec![entry("random", 100.0), entry("mcts:1s", 800.0)];
        assert!(matches!(refused(&l), Err(LadderError::Spec { .. })));
    }

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
