//! Inns & Cathedrals (second edition), `inns-cathedrals.md`: the worked
//! example of `docs/adding-an-expansion.md`.
//!
//! Eighteen land tiles join the pile (`catalog/inns-cathedrals.toml`): six
//! with an inn beside a road segment (the feature tag `inn`), two with a
//! cathedral in a four-sided city (the tag `cathedral`). A completed road
//! with an inn scores 2 points a tile instead of 1; a completed city with a
//! cathedral 3 a tile and 3 a pennant instead of 2; unfinished at the end of
//! the game, either scores nothing. More inns or cathedrals in one feature
//! do not add up. Each player also has one large follower (`"figure":
//! "big"`), placed like a follower, which counts as two followers when a
//! majority is decided and earns one share. Any inn-tagged road counts, so
//! the River II inn bridge works as an inn when both are in play.
//!
//! Everything here is reached through the [`Expansion`] hooks at the end:
//! the value of roads and cities, the large follower's placements, its
//! weight and its way home.

use crate::action::Figure;
use crate::catalog::{FeatureKind, Tag, TileIdx};
use crate::codec::{ActionCodec, FOLLOWER_CODES};
use crate::expansions::{Expansion, Family};
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

/// The feature tag of a road with an inn beside it.
pub const INN: &str = "inn";
/// The feature tag of a city with a cathedral.
pub const CATHEDRAL: &str = "cathedral";
/// How many followers the large follower counts as in a majority.
pub const BIG_WEIGHT: u8 = 2;

/// The large followers: one per player, on the board or in the supply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigFollowers {
    /// Per seat: whether the large follower is in the supply.
    in_supply: Vec<bool>,
}

impl BigFollowers {
    /// Whether seat `seat`'s large follower is in the supply.
    pub fn in_supply(&self, seat: Seat) -> bool {
        self.in_supply.get(seat.index()).copied().unwrap_or(false)
    }
}

impl Game {
    /// The large followers, when Inns & Cathedrals is in play.
    pub fn big_followers(&self) -> Option<&BigFollowers> {
        self.ext.big_followers.as_ref()
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// Inns & Cathedrals' hooks into the turn.
pub(crate) struct InnsCathedrals;

impl Expansion for InnsCathedrals {
    const FAMILY: Family = Family::InnsCathedrals;

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.big_followers.is_some()
    }

    /// Its codec segment: the large follower, by the same 32 follower codes
    /// as a follower.
    fn codec_size(_codec: &ActionCodec, _g: &Game) -> usize {
        FOLLOWER_CODES
    }

    fn encode(_codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        match *a {
            Action::Follower {
                pos,
                place,
                figure: Figure::Big,
                ..
            } => ActionCodec::follower_code(g, pos, place),
            _ => None,
        }
    }

    fn decode(_codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        ActionCodec::follower_of(g, i, Figure::Big)
    }

    /// Its 18 tiles.
    fn deck_tiles(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
    ) -> Result<(), crate::config::ConfigError> {
        crate::expansions::set_tiles(ctx, crate::expansions::ExpansionId::InnsCathedrals, bag)
    }

    /// One plane per seat (relative to the observer): its large follower
    /// stands on a feature named by this cell. One global per seat: its
    /// large follower is in the supply.
    fn tensor_size(g: &Game) -> (usize, usize) {
        (g.player_count(), g.player_count())
    }

    fn tensor(g: &Game, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = g.player_count();
        for f in g.followers().iter().filter(|f| f.figure == Figure::Big) {
            let rel = f.player.after(player, n);
            t.set(rel, g.feature_anchor(f.piece, f.feature).0, 1.0);
        }
        let big = g.big_followers();
        for r in 0..n {
            let seat = player.ahead(r, n);
            t.push(f32::from(u8::from(big.is_some_and(|b| b.in_supply(seat)))));
        }
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(
            a,
            Action::Follower {
                figure: Figure::Big,
                ..
            }
        )
        .then_some(("follower", "Inns & Cathedrals (the large follower)"))
    }

    /// Every player starts with the large follower in the supply.
    fn start(g: &mut Game, _start: TileIdx) {
        let n = g.players.len();
        let b = g.ext.big_followers.get_or_insert_with(|| BigFollowers {
            in_supply: Vec::with_capacity(n),
        });
        // An earlier deal's vector is reused.
        b.in_supply.clear();
        b.in_supply.resize(n, true);
    }

    /// The large follower may go wherever a follower may.
    fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
        let seat = g.current;
        if g.big_followers().is_some_and(|b| b.in_supply(seat)) {
            g.follower_spots(Figure::Big, |a| out.push(a));
        }
    }

    fn apply_action(g: &mut Game, a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        let Action::Follower {
            pos,
            corner,
            place,
            figure: Figure::Big,
        } = *a
        else {
            return None;
        };
        // Outside the follower step the turn machine says what comes first.
        if g.phase != Phase::Follower {
            return None;
        }
        let seat = g.current;
        Some(g.check_follower(pos, corner, place).and_then(|(pi, fi)| {
            if !g.big_followers().is_some_and(|b| b.in_supply(seat)) {
                return Err(illegal(
                    "follower",
                    "your large follower is already on the board: place a normal follower or pass",
                ));
            }
            if let Some(b) = &mut g.ext.big_followers {
                b.in_supply[seat.index()] = false;
            }
            g.do_follower(pi, fi, Figure::Big);
            g.end_follower_step();
            Ok(())
        }))
    }

    fn state_json(g: &Game, _viewer: crate::view::Viewer, out: &mut ExpansionsJson) {
        if let Some(b) = g.big_followers() {
            put(out, "big_followers", &b.in_supply);
        }
    }

    fn majority_weight(_g: &Game, f: &Follower) -> Option<u8> {
        (f.figure == Figure::Big).then_some(BIG_WEIGHT)
    }

    fn figure_in_supply(g: &Game, seat: Seat, figure: Figure) -> Option<bool> {
        (figure == Figure::Big).then(|| g.big_followers().is_some_and(|b| b.in_supply(seat)))
    }

    fn take_from_supply(g: &mut Game, seat: Seat, figure: Figure) -> bool {
        if figure != Figure::Big {
            return false;
        }
        if let Some(s) = g
            .ext
            .big_followers
            .as_mut()
            .and_then(|b| b.in_supply.get_mut(seat.index()))
        {
            *s = false;
        }
        true
    }

    fn figure_home(g: &mut Game, f: Follower) -> bool {
        if f.figure != Figure::Big {
            return false;
        }
        if let Some(b) = &mut g.ext.big_followers {
            if let Some(s) = b.in_supply.get_mut(f.player.index()) {
                *s = true;
            }
        }
        true
    }

    /// An inn doubles a completed road and zeroes an unfinished one; a
    /// cathedral makes a completed city 3 a tile and a pennant and zeroes an
    /// unfinished one. Several in one feature count once.
    fn feature_value(g: &Game, root: NodeId, complete: bool, value: &mut (u32, u32, u32)) {
        let (points, tiles, arms) = value;
        match g.board.features().kind(root) {
            FeatureKind::Road if g.feature_has_tag(root, Tag::known(INN)) => {
                *points = if complete { 2 * *tiles } else { 0 };
            }
            FeatureKind::City if g.feature_has_tag(root, Tag::known(CATHEDRAL)) => {
                *points = if complete { 3 * (*tiles + *arms) } else { 0 };
            }
            _ => {}
        }
    }
}
