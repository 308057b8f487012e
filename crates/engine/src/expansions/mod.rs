//! Expansions, one module each; each reads top to bottom like its rules page.
//!
//! Every expansion implements [`Expansion`], a trait of hooks with default
//! no-op bodies, and keeps its per-game state in one field of
//! [`ExpansionState`]. The turn machine (`game.rs`) and the shared scoring,
//! view and determinization code call only the dispatch functions below,
//! never an expansion by name. Dispatch is static: each dispatch function
//! tests, in a fixed order, whether an expansion is in play (one `Option`
//! test on its state) and calls its hook, which the compiler inlines; a hook
//! an expansion leaves at its default disappears entirely, and an expansion
//! that is off costs that one test. `docs/architecture.md` shows where each
//! hook is called in the turn; `docs/adding-an-expansion.md` walks through
//! adding one.
//!
//! The order in [`each_active`] is part of the rules where two expansions
//! act at one call point: Map Chips score a placement before the Plague
//! reacts to it, the Plague's follower ban is reported before the river's,
//! and the hidden hands are resampled halves first, then chips (both draw
//! from the same random stream).

pub mod abbey_mayor;
pub mod gingerbread;
pub mod halfsies;
pub mod inns_cathedrals;
pub mod map_chips;
pub mod plague;
pub mod princess_dragon;
pub mod registry;
pub mod river;
pub mod tower;
pub mod traders_builders;

pub use crate::catalog::KNOWN_TAGS;
pub use registry::{ExpansionId, Expansions, Family};

// Every tag an expansion reads is numbered by the catalog (the ground knows
// no expansion): a name missing from `KNOWN_TAGS` fails the build here
// rather than panicking in a game.
const _: [crate::catalog::Tag; 16] = [
    crate::catalog::Tag::known(river::SOURCE),
    crate::catalog::Tag::known(river::LAKE),
    crate::catalog::Tag::known(river::FORK),
    crate::catalog::Tag::known(river::VOLCANO),
    crate::catalog::Tag::known(plague::SOURCE_TAG),
    crate::catalog::Tag::known(gingerbread::TAG),
    crate::catalog::Tag::known(inns_cathedrals::INN),
    crate::catalog::Tag::known(inns_cathedrals::CATHEDRAL),
    crate::catalog::Tag::known(traders_builders::WINE),
    crate::catalog::Tag::known(traders_builders::GRAIN),
    crate::catalog::Tag::known(traders_builders::CLOTH),
    crate::catalog::Tag::known(traders_builders::PIGHERD),
    crate::catalog::Tag::known(princess_dragon::DRAGON),
    crate::catalog::Tag::known(princess_dragon::PORTAL),
    crate::catalog::Tag::known(princess_dragon::PRINCESS),
    crate::catalog::Tag::known(tower::FOUNDATION),
];

use crate::catalog::{Catalog, TileIdx};
use crate::codec::{ActionCodec, TensorPart};
use crate::config::{ConfigError, GameConfig};
use crate::features::NodeId;
use crate::game::{Action, Figure, Follower, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Pos, Rotation};
use crate::map::MapDef;
use crate::options::Options;
use crate::rng::Rng;
use crate::seat::Seat;
use crate::view::{ExpansionsJson, Viewer};

/// The per-game state of every expansion: `None` (or empty) for those not
/// in play. One field per expansion, owned by its module.
#[derive(Debug, Default, PartialEq)]
pub struct ExpansionState {
    /// Half-and-half: hands and draft.
    pub(crate) halves: Option<halfsies::Halves>,
    /// Half-and-half: tiles above the drawn one that fit nowhere, discarded
    /// once the drawn tile is placed, put back if a half is played instead.
    pub(crate) skipped: Vec<TileIdx>,
    /// Map Chips.
    pub(crate) chips: Option<map_chips::Chips>,
    /// The Plague's tokens.
    pub(crate) plague: Option<plague::Plague>,
    /// The river, while river sets are in play.
    pub(crate) river: Option<river::River>,
    /// The gingerbread man.
    pub(crate) gingerbread: Option<gingerbread::Gingerbread>,
    /// Inns & Cathedrals: the large followers.
    pub(crate) big_followers: Option<inns_cathedrals::BigFollowers>,
    /// Traders & Builders: goods, builders and pigs.
    pub(crate) traders: Option<traders_builders::Traders>,
    /// The Princess & the Dragon: the dragon, the fairy, set-aside tiles.
    pub(crate) dragon: Option<princess_dragon::DragonState>,
    /// The Tower: floors, towers, prisoners.
    pub(crate) tower: Option<tower::TowerState>,
    /// Abbey & Mayor: the abbeys, the barns (and the box's other components).
    pub(crate) abbey_mayor: Option<abbey_mayor::AbbeyMayorState>,
}

// By hand: `clone_from` field by field, so that tree search copying into a
// reused scratch game reuses each expansion's memory (an `Option`'s
// `clone_from` copies into the value it holds).
impl Clone for ExpansionState {
    fn clone(&self) -> ExpansionState {
        ExpansionState {
            halves: self.halves.clone(),
            skipped: self.skipped.clone(),
            chips: self.chips.clone(),
            plague: self.plague.clone(),
            river: self.river.clone(),
            gingerbread: self.gingerbread.clone(),
            big_followers: self.big_followers.clone(),
            traders: self.traders.clone(),
            dragon: self.dragon.clone(),
            tower: self.tower.clone(),
            abbey_mayor: self.abbey_mayor.clone(),
        }
    }

    fn clone_from(&mut self, src: &ExpansionState) {
        let ExpansionState {
            halves,
            skipped,
            chips,
            plague,
            river,
            gingerbread,
            big_followers,
            traders,
            dragon,
            tower,
            abbey_mayor,
        } = src;
        self.halves.clone_from(halves);
        self.skipped.clone_from(skipped);
        self.chips.clone_from(chips);
        self.plague.clone_from(plague);
        self.river.clone_from(river);
        self.gingerbread.clone_from(gingerbread);
        self.big_followers.clone_from(big_followers);
        self.traders.clone_from(traders);
        self.dragon.clone_from(dragon);
        self.tower.clone_from(tower);
        self.abbey_mayor.clone_from(abbey_mayor);
    }
}

/// What set-up knows before the board exists.
pub(crate) struct SetupCtx<'a> {
    /// The catalog.
    pub catalog: &'a Catalog,
    /// The configuration.
    pub config: &'a GameConfig,
    /// The parsed options.
    pub options: &'a Options,
    /// The expansions in play.
    pub on: Expansions,
    /// The map, if any.
    pub map: Option<&'a MapDef>,
    /// Tiles in the pile to draw.
    pub tiles: usize,
    /// Explicit chance: a deal is chance outcomes the caller chooses, not
    /// the seed's ([`Expansion::chance_deal`]).
    pub explicit_chance: bool,
}

/// What an expansion adds to the longest possible game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveBound {
    /// Moves it may add to every turn.
    pub per_turn: usize,
    /// Moves outside the turns (draft picks).
    pub once: usize,
    /// Turns it adds (tiles placed from outside the pile).
    pub turns: usize,
}

/// What the deck builder knows: the configuration and the expansions in
/// play (the board does not exist yet).
pub(crate) struct DeckCtx<'a> {
    /// The catalog.
    pub catalog: &'a Catalog,
    /// The parsed options.
    pub options: &'a Options,
    /// The expansions in play.
    pub on: Expansions,
}

/// An expansion's rules, as hooks into the turn. Every hook but
/// [`Expansion::FAMILY`] and [`Expansion::active`] has a default that does
/// nothing, so an expansion implements only the call points its rules need.
/// Hooks are associated functions on the whole [`Game`]: an expansion reads
/// the shared state and changes its own (and scores, events, followers as
/// its rules say).
pub(crate) trait Expansion {
    /// The registry family whose ids switch it on.
    const FAMILY: Family;

    /// Whether it is in play in `g` (a test of its state; inlined).
    fn active(g: &Game) -> bool;

    // -- Vocabulary -------------------------------------------------------

    /// For an action of its own vocabulary: the rule tag and its name in
    /// words, to refuse the action in games without it.
    fn vocabulary(_a: &Action) -> Option<(&'static str, &'static str)> {
        None
    }

    /// Whether the tile is played before the land tiles (the river): a map's
    /// second start space takes the first tile that is not.
    fn is_prelude_tile(_cat: &Catalog, _t: TileIdx) -> bool {
        false
    }

    // -- Configuration ------------------------------------------------------

    /// For messages about its configuration: its name in words and what to
    /// add to `"expansions"` to switch it on.
    const SWITCH_ON: (&'static str, &'static str) = ("", "");

    /// Its options: name and what it takes.
    const OPTIONS: &'static [(&'static str, &'static str)] = &[];

    /// Configuration fields besides `options` that only it reads.
    const FIELDS: &'static [&'static str] = &[];

    // -- The game's size, for learning agents ------------------------------

    /// The size of its segment of the action codec in `g`'s configuration
    /// (0: its actions have no index). Segments follow the shared ones
    /// (pass, followers, placements) in the order of [`each_active`], only
    /// for the expansions in play, so every configuration's space is dense.
    fn codec_size(_codec: &ActionCodec, _g: &Game) -> usize {
        0
    }

    /// The index of `a` in its segment, if `a` is one of its actions (and
    /// inside the codec's window); below [`Expansion::codec_size`].
    fn encode(_codec: &ActionCodec, _g: &Game, _a: &Action) -> Option<usize> {
        None
    }

    /// The action of index `i` of its segment, if `i` names one here.
    fn decode(_codec: &ActionCodec, _g: &Game, _i: usize) -> Option<Action> {
        None
    }

    /// Tiles the player to act holds besides the drawn one (halves in
    /// hand): the codec numbers their placements by hand slot.
    fn hand(_g: &Game, _out: &mut Vec<TileIdx>) {}

    /// The most moves it adds: to one turn, and to the game besides its
    /// turns (a draft); and the turns it adds (halves held in hands).
    fn max_moves(_g: &Game) -> MoveBound {
        MoveBound::default()
    }

    // -- The deck ---------------------------------------------------------

    /// Adds its tiles to the bag before it is shuffled (in the registry's
    /// order: the shuffle's outcome depends on the bag's order).
    fn deck_tiles(_ctx: &DeckCtx<'_>, _bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Tiles played before the bag, in a public order, written into `out`
    /// (first drawn first; empty when called), and the start tile that
    /// replaces the base game's (which then joins the bag): the river.
    fn opening_pile(
        _ctx: &DeckCtx<'_>,
        _rng: &mut Rng,
        _out: &mut Vec<TileIdx>,
    ) -> Option<Result<TileIdx, ConfigError>> {
        None
    }

    /// Rearranges the shuffled bag (the Plague's sources below the first
    /// tiles).
    fn after_shuffle(_ctx: &DeckCtx<'_>, _bag: &mut Vec<TileIdx>, _rng: &mut Rng) {}

    // -- Set-up -----------------------------------------------------------

    /// Set-up before the board exists (hands, chip supply).
    fn setup(_ctx: &SetupCtx<'_>, _ext: &mut ExpansionState) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Board cells its components may still fill (halves in hands).
    fn extra_cells(_ext: &ExpansionState) -> usize {
        0
    }

    /// Set-up once the start tile `start` lies on the board, before the
    /// first draw.
    fn start(_g: &mut Game, _start: TileIdx) {}

    /// After the first draw: an opening step (the draft).
    fn opening(_g: &mut Game) {}

    // -- Drawing ----------------------------------------------------------

    /// Before each draw.
    fn before_draw(_g: &mut Game) {}

    /// A drawn tile fits nowhere: return true to hold it (it is then the
    /// expansion's to discard or put back) instead of discarding it now.
    fn hold_unplaceable(_g: &mut Game, _t: TileIdx) -> bool {
        false
    }

    /// Tile `t` comes off the pile: return true to set it aside (it is then
    /// the expansion's, and another tile is drawn) before anyone looks at
    /// where it fits.
    fn set_aside(_g: &mut Game, _t: TileIdx) -> bool {
        false
    }

    /// The pile is empty and no drawn tile fits: return true if the player
    /// may still place something (the game then goes on).
    fn play_without_draw(_g: &mut Game) -> bool {
        false
    }

    /// Whether drawing is a choice the current player has yet to make (the
    /// drawn tile is then unseen).
    fn draw_pending(_g: &Game) -> bool {
        false
    }

    /// Tiles that left the pile but nobody has seen (`out` holds those of
    /// the expansions before this one).
    fn undisclosed_draws(_g: &Game, _out: &mut Vec<TileIdx>) {}

    /// The current player chose to draw where drawing was a choice: no
    /// tile held may be played instead this part.
    fn draw_taken(_g: &mut Game) {}

    // -- Placing ----------------------------------------------------------

    /// Whether the expansion implements [`Expansion::placements`],
    /// [`Expansion::other_placements`] or [`Expansion::draw_pending`]: the
    /// random player may count edge-matching placements instead of listing
    /// them only while no expansion in play says so (a test plays every set
    /// both ways).
    const LISTS_PLACEMENTS: bool = false;

    /// [`Expansion::LISTS_PLACEMENTS`] for one drawn tile: an expansion
    /// whose own placements concern some tiles only (the river's) says
    /// which, so the random player counts the others' placements.
    #[inline]
    fn lists_placements_of(_g: &Game, _tile: TileIdx) -> bool {
        Self::LISTS_PLACEMENTS
    }

    /// Generates the placements of `tile` itself when its rules replace edge
    /// matching (river tiles); returns whether it did.
    fn placements<F: FnMut(Action) -> bool>(_g: &Game, _tile: TileIdx, _f: &mut F) -> bool {
        false
    }

    /// Placements of tiles other than the drawn one (halves in hand);
    /// `pending`: the draw is still a choice.
    fn other_placements(_g: &Game, _pending: bool, _out: &mut Vec<Action>) {}

    /// Whether `tile` is one the expansion places from outside the pile
    /// (the abbey): the others leave its placement, and its refusal, to it.
    fn places_tile(_g: &Game, _tile: TileIdx) -> bool {
        false
    }

    /// Places a tile that is not the drawn one, if it is the expansion's
    /// (a half from the hand), or refuses it; `None`: not its tile.
    fn play_other_tile(
        _g: &mut Game,
        _tile: TileIdx,
        _pos: Pos,
        _rot: Rotation,
        _mode: Mode,
    ) -> Option<Result<(), IllegalAction>> {
        None
    }

    /// Refuses a placement of the drawn tile that fits by its edges.
    fn placement_veto(
        _g: &Game,
        _tile: TileIdx,
        _pos: Pos,
        _rot: Rotation,
    ) -> Result<(), IllegalAction> {
        Ok(())
    }

    /// The drawn tile is placed while the draw was still a choice: the
    /// placement implies the draw.
    fn implied_draw(_g: &mut Game) -> Result<(), IllegalAction> {
        Ok(())
    }

    /// Just before `tile` goes down (the drawn tile is still `g.drawn`).
    fn before_place(_g: &mut Game, _tile: TileIdx, _pos: Pos, _rot: Rotation) {}

    /// Just after piece `pi` went down, before the follower step.
    fn after_place(_g: &mut Game, _pi: u16) {}

    // -- The follower step ------------------------------------------------

    /// Why no follower may be placed this turn.
    fn follower_ban(_g: &Game) -> Option<&'static str> {
        None
    }

    /// A follower named on a tile other than the one just placed: the
    /// piece and feature it goes on, if the expansion's rules allow one
    /// there this step (or why not); `None`: not its rule.
    fn follower_elsewhere(
        _g: &Game,
        _pos: Pos,
        _corner: Option<crate::geometry::Corner>,
        _place: crate::geometry::Place,
    ) -> Option<Result<(u16, u8), IllegalAction>> {
        None
    }

    /// Why no figure may be placed on piece `pi` by any means, whichever
    /// tile was just placed (a flea, an active outbreak, the dragon): the
    /// rules that place a figure on another tile than the one just placed
    /// (the magic portal) ask this.
    fn figure_ban_on(_g: &Game, _pi: u16) -> Option<&'static str> {
        None
    }

    /// Why no neutral figure (the gingerbread man) may be moved onto piece
    /// `pi`, if this expansion forbids it (the dragon's tile; a flea's does
    /// not count: the plague never touches neutral figures).
    fn neutral_ban_on(_g: &Game, _pi: u16) -> Option<&'static str> {
        None
    }

    /// Why no figure may go into the feature of segment `node` by any
    /// means (placement, portal): a field holding a barn.
    fn figure_ban_in(_g: &Game, _node: NodeId) -> Option<&'static str> {
        None
    }

    /// Whether `seat` has its `figure` (one of the expansion's) in the
    /// supply; `None`: not its figure.
    fn figure_in_supply(_g: &Game, _seat: Seat, _figure: Figure) -> Option<bool> {
        None
    }

    /// Whether its follower `figure` may stand on a feature of `kind`
    /// (`None`: not its figure, or no rule of its own).
    fn figure_fits(_figure: Figure, _kind: crate::catalog::FeatureKind) -> Option<bool> {
        None
    }

    /// Takes its `figure` out of `seat`'s supply (a figure placed other
    /// than by the follower step's own placement: on a tower). Returns
    /// whether `figure` was its figure.
    fn take_from_supply(_g: &mut Game, _seat: Seat, _figure: Figure) -> bool {
        false
    }

    /// Actions taken instead of a follower (listed before `pass`).
    fn follower_alternatives(_g: &Game, _out: &mut Vec<Action>) {}

    /// Actions open during the follower step besides it (listed after
    /// `pass`).
    fn extra_actions(_g: &Game, _out: &mut Vec<Action>) {}

    /// The follower step ended: return true if the expansion's own step
    /// comes next (it then ends the turn itself).
    fn after_follower_step(_g: &mut Game) -> bool {
        false
    }

    // -- Own steps and actions ---------------------------------------------

    /// Whether `p` is one of its steps.
    fn owns_phase(_p: Phase) -> bool {
        false
    }

    /// The legal actions of its own step.
    fn step_actions(_g: &Game, _out: &mut Vec<Action>) {}

    /// A pick in the current step without listing every action, when the
    /// expansion can make it: `pick(n, pass)` is told how many legal actions
    /// there are and where `pass` stands among them (`None`: not legal),
    /// returns an index below `n`, and gets exactly
    /// `legal_actions()[index]` (`buf` is scratch). `None` leaves the pick
    /// to the list, and then `pick` must not have been called.
    fn pick_step_action(_g: &Game, _buf: &mut Vec<Action>, _pick: &mut Pick<'_>) -> Option<Action> {
        None
    }

    /// Applies (or refuses) any action in its own step; `None` leaves it to
    /// the rest of the turn machine.
    fn apply_in_step(_g: &mut Game, _a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        None
    }

    /// Applies (or refuses) one of its own actions outside its step. Asked
    /// only about actions outside the shared vocabulary (`place`,
    /// `follower`, `pass`, `draw`), or while an expansion's step runs.
    fn apply_action(_g: &mut Game, _a: &Action, _mode: Mode) -> Option<Result<(), IllegalAction>> {
        None
    }

    // -- Scoring ------------------------------------------------------------

    /// Whether two halves of one cell count as one tile.
    fn count_per_cell(_g: &Game) -> bool {
        false
    }

    /// A completed feature is about to be scored.
    fn before_completion(_g: &mut Game, _root: NodeId) {}

    /// The part's completed features are scored (piece `pi` was placed):
    /// the scorings its rules trigger in the same step (a field a barn
    /// joined).
    fn part_scoring(_g: &mut Game, _pi: u16) {}

    /// Final scoring, after the farms and before every expansion's
    /// [`Expansion::final_scoring`]: the features it scores itself (barns).
    fn final_features(_g: &mut Game) {}

    /// Everything standing on piece `pi` is taken off the board (a neutral
    /// figure's doing: the dragon eats): the expansion's own neutral figures
    /// standing there go as its rules say. The seats' figures are the
    /// caller's.
    fn clear_tile(_g: &mut Game, _pi: u16) {}

    /// Every seat's figure on piece `pi` goes home unscored (a flea's
    /// tile): the expansion's own figures there that stand on no feature
    /// (a follower on top of a tower) go too, with an event of `reason`.
    /// The figures of `Game::followers` are the caller's.
    fn figures_home_on(_g: &mut Game, _pi: u16, _reason: crate::scoring::Reason) {}

    /// Calls `f` with the seat and the piece of each of its followers that
    /// stands on a tile in no feature (on top of a tower): they are in no
    /// `Game::followers`, yet a neutral figure may stand beside them.
    fn followers_off_features(_g: &Game, _f: &mut dyn FnMut(Seat, u16)) {}

    /// The feature `root` was just scored (completed or at the end), its
    /// followers still on it.
    fn feature_scored(_g: &mut Game, _root: NodeId) {}

    /// A completed feature was scored and closed; its followers are home.
    fn after_completion(_g: &mut Game, _root: NodeId) {}

    /// How many followers its figure `f` counts as when the majority of
    /// its feature is decided (`None`: not its figure); the feature may
    /// matter (the mayor counts its city's coats of arms).
    fn majority_weight(_g: &Game, _f: &Follower) -> Option<u8> {
        None
    }

    /// Changes the points each seat gets from scoring the feature `root`
    /// (`points`: its value for each winner, 0 for the others; `extra`:
    /// coats of arms or completed cities, as the event counts them).
    fn winners_bonus(_g: &Game, _root: NodeId, _extra: u32, _points: &mut [u32; 6]) {}

    /// Followers left the board (a scored feature's, or a flea's tile's):
    /// figures that depend on them may go home too.
    fn followers_left(_g: &mut Game) {}

    /// Its figure `f` left the board: back to the supply it keeps. Returns
    /// whether `f` was its figure.
    fn figure_home(_g: &mut Game, _f: Follower) -> bool {
        false
    }

    /// Changes the value (points, tiles, extra) of the feature `root`. A
    /// field's tiles are 0 when no event will report them (playouts
    /// without the event log): a field's points must not depend on them.
    fn feature_value(_g: &Game, _root: NodeId, _complete: bool, _value: &mut (u32, u32, u32)) {}

    /// After the turn's scoring: return true if its own step comes next
    /// (having set the phase).
    fn after_scoring(_g: &mut Game, _pi: u16) -> bool {
        false
    }

    /// At the end of the game, after the shared final scoring.
    fn final_scoring(_g: &mut Game) {}

    // -- Turn order ---------------------------------------------------------

    /// The part's steps are over, before the turn passes on: return true
    /// to hold the turn in its own step (having set the phase); that step
    /// then passes the turn on ([`Game::pass_turn`]) or starts another
    /// part ([`Game::second_part`]).
    fn hold_turn(_g: &mut Game) -> bool {
        false
    }

    /// Whether another part of this turn may still follow the current
    /// one: a step that offers it is held now or will be once this part's
    /// steps are over (the builder's second tile).
    fn more_parts(_g: &Game) -> bool {
        false
    }

    /// Whether the current step is one held between two parts of a turn
    /// (the builder step): actions open at any time of a turn once its
    /// tile is down (the Plague's) stay open in it.
    fn between_parts(_g: &Game) -> bool {
        false
    }

    /// How many special figures (never followers) each seat has on top of
    /// its followers: the builder and the pig.
    fn special_figures(_g: &Game) -> usize {
        0
    }

    /// Why the turn may not end now, if something is still owed in it:
    /// the rule and what to do instead (the Plague's spread). A step that
    /// ends the turn by a choice of the player (declining the builder's
    /// second tile) asks this.
    fn turn_end_veto(_g: &Game) -> Option<(&'static str, &'static str)> {
        None
    }

    /// Whether the player who placed `pi` plays again.
    fn extra_turn(_g: &Game, _pi: u16) -> bool {
        false
    }

    /// The next turn begins (the seat has moved on), before its draw.
    fn turn_start(_g: &mut Game) {}

    // -- Views and determinization --------------------------------------

    /// Its part of the state as `viewer` may see it, under its keys of the
    /// notation: a secret hand goes in only through [`Viewer::see`]. The
    /// one statement of what it shows: the JSON views and a seat's
    /// [`crate::codec::Observation`] are both this.
    fn state_json(_g: &Game, _viewer: Viewer, _out: &mut ExpansionsJson) {}

    /// Puts back tiles nobody has seen yet before the pile is reshuffled;
    /// returns true if the draw must then be made again.
    fn unsee_draws(_g: &mut Game) -> bool {
        false
    }

    /// The public part of the pile `t` belongs to, if it splits the pile.
    fn draw_part(_g: &Game, _t: TileIdx) -> Option<u8> {
        None
    }

    /// Explicit chance: what chance deals from while a deal before the
    /// first draw lasts (Half-and-half's halves), each outcome one item.
    fn chance_deal(_g: &Game) -> Option<&[TileIdx]> {
        None
    }

    /// Explicit chance: the item at `at` of [`Expansion::chance_deal`]'s
    /// supply is dealt.
    fn deal_chance(_g: &mut Game, _at: usize) {}

    /// A configuration field that fixes random events (a chip order, …)
    /// named something the game could not give when its turn came: why,
    /// so that a replay stops there instead of going on with another game.
    fn misfixed(_g: &Game) -> Option<String> {
        None
    }

    /// Explicit chance: whether a token draw is due now (Map Chips' chips
    /// owed after a placement), before anything else.
    fn token_due(_g: &Game) -> bool {
        false
    }

    /// Explicit chance: the token kinds chance may draw now, each with how
    /// many are left to draw from.
    fn token_draw(_g: &Game) -> Option<Vec<(u8, u32)>> {
        None
    }

    /// Explicit chance: a token of `kind` is drawn; false if none is due or
    /// none of that kind is left.
    fn take_token(_g: &mut Game, _kind: u8) -> bool {
        false
    }

    /// How many token kinds it draws at chance nodes (codes `0..`).
    const TOKEN_KINDS: u8 = 0;

    /// The name of token kind `kind`, as records write it.
    fn token_name(_kind: u8) -> Option<String> {
        None
    }

    /// The token kinds drawn so far, in order.
    fn tokens_drawn(_g: &Game, _out: &mut Vec<u8>) {}

    /// Fixes `tokens` (names, in the order drawn) as the tokens drawn in
    /// `config`, if it draws tokens.
    fn fix_tokens(_config: &mut GameConfig, _tokens: &mut Option<Vec<String>>) {}

    /// Whether `t`, though in the part of the pile drawn now, cannot be the
    /// next draw under an order rule that parts do not express (the
    /// Plague's sources while the first 17 land tiles are drawn): chance
    /// outcomes leave it out.
    fn holds_back(_g: &Game, _t: TileIdx) -> bool {
        false
    }

    /// Puts the pile, just shuffled inside its parts for a determinization,
    /// in an order its rule allows (the Plague's: no source among the safe
    /// tiles still to draw), keeping the shuffle uniform over such orders.
    fn arrange_hidden(_g: &mut Game, _rng: &mut Rng) {}

    /// Resamples what the players other than `player` hold in secret.
    fn resample(_g: &mut Game, _player: Seat, _rng: &mut Rng) {}

    /// Its share of the observation tensor: how many cell planes and
    /// globals it adds after the shared ones (fixed for a game).
    fn tensor_size(_g: &Game) -> (usize, usize) {
        (0, 0)
    }

    /// Writes its planes and globals of what `player` may know: its public
    /// state and `player`'s own hidden items, never another seat's.
    fn tensor(_g: &Game, _player: Seat, _t: &mut TensorPart<'_>) {}
}

/// Runs `$body` once for each expansion in play, with `$m` naming its type,
/// in the fixed order of the rules (see the module documentation).
macro_rules! each_active {
    ($g:expr, $m:ident => $body:block) => {{
        // An expansion is in play only when set-up switched it on (its state
        // exists only then), so with none on, no hook needs asking: one test
        // instead of one per expansion, on every hook of every turn.
        if !$g.rules.expansions.is_empty() {
        {
            type $m = halfsies::Halfsies;
            if $m::active($g) $body
        }
        {
            type $m = map_chips::MapChips;
            if $m::active($g) $body
        }
        {
            type $m = princess_dragon::PrincessDragon;
            if $m::active($g) $body
        }
        // Abbey & Mayor after the dragon and before the Plague and the
        // gingerbread man: its wagon step follows the dragon step and the
        // scoring and comes before their steps (`notation.md`, turn order).
        {
            type $m = abbey_mayor::AbbeyMayor;
            if $m::active($g) $body
        }
        {
            type $m = plague::PlagueRules;
            if $m::active($g) $body
        }
        {
            type $m = river::RiverRules;
            if $m::active($g) $body
        }
        {
            type $m = gingerbread::GingerbreadRules;
            if $m::active($g) $body
        }
        {
            type $m = inns_cathedrals::InnsCathedrals;
            if $m::active($g) $body
        }
        {
            type $m = traders_builders::TradersBuilders;
            if $m::active($g) $body
        }
        {
            type $m = tower::TowerRules;
            if $m::active($g) $body
        }
        }
    }};
}

/// Runs `$body` once for every expansion, in play or not.
macro_rules! each {
    ($m:ident => $body:block) => {{
        {
            type $m = halfsies::Halfsies;
            $body
        }
        {
            type $m = map_chips::MapChips;
            $body
        }
        {
            type $m = princess_dragon::PrincessDragon;
            $body
        }
        {
            type $m = plague::PlagueRules;
            $body
        }
        {
            type $m = river::RiverRules;
            $body
        }
        {
            type $m = gingerbread::GingerbreadRules;
            $body
        }
        {
            type $m = inns_cathedrals::InnsCathedrals;
            $body
        }
        {
            type $m = traders_builders::TradersBuilders;
            $body
        }
        {
            type $m = abbey_mayor::AbbeyMayor;
            $body
        }
        {
            type $m = tower::TowerRules;
            $body
        }
    }};
}

// ---------------------------------------------------------------------------
// Dispatch, in the order of the turn.

/// Refuses an action of an expansion not in play.
pub(crate) fn check_vocabulary(g: &Game, a: &Action) -> Result<(), IllegalAction> {
    each!(M => {
        if let Some((rule, name)) = M::vocabulary(a) {
            if !M::active(g) {
                return Err(crate::game::illegal(
                    rule,
                    format!("{name} is not in play in this game, so this action does not exist here"),
                ));
            }
        }
    });
    Ok(())
}

/// Whether `t` is played before the land tiles (a map's second start space
/// takes the first tile that is not).
pub(crate) fn is_prelude_tile(cat: &Catalog, t: TileIdx) -> bool {
    each!(M => {
        if M::is_prelude_tile(cat, t) {
            return true;
        }
    });
    false
}

/// The expansion a configuration field or option belongs to: its family,
/// its name in words and what to add to switch it on.
pub(crate) fn owner_of(name: &str) -> Option<(Family, &'static str, &'static str)> {
    each!(M => {
        if M::OPTIONS.iter().any(|(n, _)| *n == name) || M::FIELDS.contains(&name) {
            return Some((M::FAMILY, M::SWITCH_ON.0, M::SWITCH_ON.1));
        }
    });
    None
}

/// Every expansion's options: name and what it takes.
pub(crate) fn options() -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    each!(M => { v.extend_from_slice(M::OPTIONS); });
    v
}

/// The codec indices of the expansions in play: their segments' sizes
/// added up.
pub(crate) fn codec_size(codec: &ActionCodec, g: &Game) -> usize {
    let mut n = 0;
    each_active!(g, M => { n += M::codec_size(codec, g); });
    n
}

/// The segments of the expansions in play: `(expansion, first index,
/// size)`, empty ones left out.
// The last expansion's `base +=` is never read.
#[allow(unused_assignments)]
pub(crate) fn codec_segments(codec: &ActionCodec, g: &Game) -> Vec<(Family, usize, usize)> {
    let mut v = Vec::new();
    let mut base = codec.shared_end();
    each_active!(g, M => {
        let n = M::codec_size(codec, g);
        if n > 0 {
            v.push((M::FAMILY, base, n));
        }
        base += n;
    });
    v
}

/// The index of an expansion's action `a`: its segment's base plus its
/// index there.
// The last expansion's `base +=` is never read.
#[allow(unused_assignments)]
pub(crate) fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
    let mut base = codec.shared_end();
    each_active!(g, M => {
        if let Some(i) = M::encode(codec, g, a) {
            debug_assert!(i < M::codec_size(codec, g));
            return Some(base + i);
        }
        base += M::codec_size(codec, g);
    });
    None
}

/// The expansion's action of `index` (at or after the shared segments).
// The last expansion's `base +=` is never read.
#[allow(unused_assignments)]
pub(crate) fn decode(codec: &ActionCodec, g: &Game, index: usize) -> Option<Action> {
    let mut base = codec.shared_end();
    each_active!(g, M => {
        let n = M::codec_size(codec, g);
        if index < base + n {
            return M::decode(codec, g, index - base);
        }
        base += n;
    });
    None
}

/// Whether offset `i` of `family`'s segment is `draw`'s index: several
/// segments may hold a `draw` (Half-and-half's, the builder's, the
/// abbey's), the first in the order numbers it, and only that index
/// decodes to it (a mask must name each action once).
pub(crate) fn numbers_draw(codec: &ActionCodec, g: &Game, family: Family, i: usize) -> bool {
    let Some(at) = encode(codec, g, &Action::Draw) else {
        return false;
    };
    codec_segments(codec, g)
        .iter()
        .any(|&(f, base, _)| f == family && base + i == at)
}

/// The tiles the player to act holds besides the drawn one.
pub(crate) fn hand(g: &Game) -> Vec<TileIdx> {
    let mut v = Vec::new();
    each_active!(g, M => { M::hand(g, &mut v); });
    v
}

/// The expansions' additions to the longest game.
pub(crate) fn max_moves(g: &Game) -> MoveBound {
    let mut b = MoveBound::default();
    each_active!(g, M => {
        let m = M::max_moves(g);
        b.per_turn += m.per_turn;
        b.once += m.once;
        b.turns += m.turns;
    });
    b
}

/// The expansions' tiles for the bag.
pub(crate) fn deck_tiles(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>) -> Result<(), ConfigError> {
    each!(M => {
        if ctx.on.has_family(M::FAMILY) {
            M::deck_tiles(ctx, bag)?;
        }
    });
    Ok(())
}

/// The start tile and opening pile an expansion puts in place of the base
/// game's start tile, if one does.
pub(crate) fn opening_pile(
    ctx: &DeckCtx<'_>,
    rng: &mut Rng,
    out: &mut Vec<TileIdx>,
) -> Option<Result<TileIdx, ConfigError>> {
    each!(M => {
        if ctx.on.has_family(M::FAMILY) {
            if let Some(r) = M::opening_pile(ctx, rng, out) {
                return Some(r);
            }
        }
    });
    None
}

/// The expansions rearrange the shuffled bag.
pub(crate) fn after_shuffle(ctx: &DeckCtx<'_>, bag: &mut Vec<TileIdx>, rng: &mut Rng) {
    each!(M => {
        if ctx.on.has_family(M::FAMILY) {
            M::after_shuffle(ctx, bag, rng);
        }
    });
}

/// Set-up of every expansion switched on, before the board exists.
///
/// `ext` is the state of an earlier deal of the same configuration, or
/// the default: each part is made again by its expansion's `setup` or
/// `start` hook, which reuse the memory of the part they replace (a reset
/// for a new deal allocates nothing once the parts have grown), so that
/// the game equals one set up anew (`reset_deals_the_game_new_deals`).
pub(crate) fn setup_into(ctx: &SetupCtx<'_>, ext: &mut ExpansionState) -> Result<(), ConfigError> {
    ext.skipped.clear();
    // Every tile of the pile may be passed over: room for all of them.
    ext.skipped.reserve(ctx.tiles);
    each!(M => {
        if ctx.on.has_family(M::FAMILY) {
            M::setup(ctx, ext)?;
        }
    });
    Ok(())
}

/// Empties every hand and makes one per seat, keeping the hands' memory
/// (the halves' and the map chips' hands, dealt again at a reset).
pub(crate) fn empty_hands<T>(hands: &mut Vec<Vec<T>>, players: usize) {
    hands.truncate(players);
    for hand in hands.iter_mut() {
        hand.clear();
    }
    hands.resize_with(players, Vec::new);
}

/// Board cells the expansions' components may still fill.
pub(crate) fn extra_cells(ext: &ExpansionState) -> usize {
    let mut n = 0;
    each!(M => {
        n += M::extra_cells(ext);
    });
    n
}

/// Set-up once the start tile is down.
pub(crate) fn start(g: &mut Game, start: TileIdx) {
    let on = g.rules.expansions;
    each!(M => {
        if on.has_family(M::FAMILY) {
            M::start(g, start);
        }
    });
}

/// After the first draw.
pub(crate) fn opening(g: &mut Game) {
    each_active!(g, M => { M::opening(g); });
}

/// Before each draw.
#[inline]
pub(crate) fn before_draw(g: &mut Game) {
    each_active!(g, M => { M::before_draw(g); });
}

/// Whether an expansion holds the unplaceable tile `t` instead of a discard.
#[inline]
pub(crate) fn hold_unplaceable(g: &mut Game, t: TileIdx) -> bool {
    each_active!(g, M => {
        if M::hold_unplaceable(g, t) {
            return true;
        }
    });
    false
}

/// Whether an expansion sets the tile `t` aside as it comes off the pile.
#[inline]
pub(crate) fn set_aside(g: &mut Game, t: TileIdx) -> bool {
    each_active!(g, M => {
        if M::set_aside(g, t) {
            return true;
        }
    });
    false
}

/// Whether the game goes on with an empty pile.
pub(crate) fn play_without_draw(g: &mut Game) -> bool {
    each_active!(g, M => {
        if M::play_without_draw(g) {
            return true;
        }
    });
    false
}

/// Whether the draw is still a choice (the drawn tile unseen).
#[inline]
pub(crate) fn draw_pending(g: &Game) -> bool {
    each_active!(g, M => {
        if M::draw_pending(g) {
            return true;
        }
    });
    false
}

/// Tiles that left the pile unseen.
pub(crate) fn undisclosed_draws(g: &Game) -> Vec<TileIdx> {
    let mut v = Vec::new();
    each_active!(g, M => { M::undisclosed_draws(g, &mut v); });
    v
}

/// Applies `draw`. It exists in every game (a record may say it); where
/// it is a choice, each expansion that holds tiles for the player notes
/// the draw; the words refusing it when not belong to Half-and-half, the
/// first expansion that made it one, which answers even when it is off.
pub(crate) fn draw(g: &mut Game) -> Result<(), IllegalAction> {
    if !draw_pending(g) {
        return g.take_draw();
    }
    each_active!(g, M => { M::draw_taken(g); });
    Ok(())
}

/// Whether an expansion in play places `tile` from outside the pile.
pub(crate) fn places_tile(g: &Game, tile: TileIdx) -> bool {
    each_active!(g, M => {
        if M::places_tile(g, tile) {
            return true;
        }
    });
    false
}

/// Calls `f` with each legal placement of `tile` until it returns false.
#[inline]
pub(crate) fn placements<F: FnMut(Action) -> bool>(g: &Game, tile: TileIdx, mut f: F) {
    each_active!(g, M => {
        if M::placements(g, tile, &mut f) {
            return;
        }
    });
    g.edge_placements(tile, f);
}

/// Whether the place step of the drawn `tile` lists exactly its
/// edge-matching placements (no expansion in play replaces or adds to them).
// Always inlined: in the base game its whole body is one test, asked on
// every random placement.
#[inline(always)]
pub(crate) fn edge_placements_only(g: &Game, tile: TileIdx) -> bool {
    each_active!(g, M => {
        if M::lists_placements_of(g, tile) {
            return false;
        }
    });
    true
}

/// Placements of tiles other than the drawn one.
#[inline]
pub(crate) fn other_placements(g: &Game, pending: bool, out: &mut Vec<Action>) {
    each_active!(g, M => { M::other_placements(g, pending, out); });
}

/// Places or refuses a tile that is not the drawn one; `None`: no
/// expansion owns it.
pub(crate) fn play_other_tile(
    g: &mut Game,
    tile: TileIdx,
    pos: Pos,
    rot: Rotation,
    mode: Mode,
) -> Option<Result<(), IllegalAction>> {
    each_active!(g, M => {
        if let Some(r) = M::play_other_tile(g, tile, pos, rot, mode) {
            return Some(r);
        }
    });
    None
}

/// Refuses a placement the expansions forbid.
pub(crate) fn placement_veto(
    g: &Game,
    tile: TileIdx,
    pos: Pos,
    rot: Rotation,
) -> Result<(), IllegalAction> {
    each_active!(g, M => { M::placement_veto(g, tile, pos, rot)?; });
    Ok(())
}

/// The drawn tile is placed: a pending draw is taken.
pub(crate) fn implied_draw(g: &mut Game) -> Result<(), IllegalAction> {
    each_active!(g, M => { M::implied_draw(g)?; });
    Ok(())
}

/// Just before a tile goes down.
#[inline]
pub(crate) fn before_place(g: &mut Game, tile: TileIdx, pos: Pos, rot: Rotation) {
    each_active!(g, M => { M::before_place(g, tile, pos, rot); });
}

/// Just after a tile went down.
#[inline]
pub(crate) fn after_place(g: &mut Game, pi: u16) {
    each_active!(g, M => { M::after_place(g, pi); });
}

/// Why no follower may be placed this turn, if an expansion forbids it.
#[inline]
pub(crate) fn follower_ban(g: &Game) -> Option<&'static str> {
    each_active!(g, M => {
        if let Some(why) = M::follower_ban(g) {
            return Some(why);
        }
    });
    None
}

/// Where a follower named on a tile other than the one just placed goes,
/// if an expansion allows one there (or why not).
pub(crate) fn follower_elsewhere(
    g: &Game,
    pos: Pos,
    corner: Option<crate::geometry::Corner>,
    place: crate::geometry::Place,
) -> Option<Result<(u16, u8), IllegalAction>> {
    each_active!(g, M => {
        if let Some(r) = M::follower_elsewhere(g, pos, corner, place) {
            return Some(r);
        }
    });
    None
}

/// Why no neutral figure may be moved onto piece `pi`, if an expansion
/// forbids it.
pub(crate) fn neutral_ban_on(g: &Game, pi: u16) -> Option<&'static str> {
    each_active!(g, M => {
        if let Some(why) = M::neutral_ban_on(g, pi) {
            return Some(why);
        }
    });
    None
}

/// Why no figure may be placed on piece `pi` by any means, if an
/// expansion forbids it.
pub(crate) fn figure_ban_on(g: &Game, pi: u16) -> Option<&'static str> {
    each_active!(g, M => {
        if let Some(why) = M::figure_ban_on(g, pi) {
            return Some(why);
        }
    });
    None
}

/// Why no figure may go into the feature of segment `node`, if an
/// expansion forbids it.
#[inline]
pub(crate) fn figure_ban_in(g: &Game, node: NodeId) -> Option<&'static str> {
    each_active!(g, M => {
        if let Some(why) = M::figure_ban_in(g, node) {
            return Some(why);
        }
    });
    None
}

/// Whether `seat` has `figure` in its supply: normal followers in the
/// player's own, other figures in their expansion's (false when no
/// expansion in play keeps it).
pub(crate) fn figure_in_supply(g: &Game, seat: Seat, figure: Figure) -> bool {
    if figure == Figure::Normal {
        return g.players[seat.index()].supply > 0;
    }
    each_active!(g, M => {
        if let Some(there) = M::figure_in_supply(g, seat, figure) {
            return there;
        }
    });
    false
}

/// Whether the follower `figure` may stand on a feature of `kind`: as
/// its expansion says, else wherever a follower may (false for the
/// special figures, which follow rules of their own).
// The macro repeats the body per expansion: the last copy's `return` is
// needless, the others' are not.
#[allow(clippy::needless_return)]
pub(crate) fn figure_fits(g: &Game, figure: Figure, kind: crate::catalog::FeatureKind) -> bool {
    each_active!(g, M => {
        if let Some(fits) = M::figure_fits(figure, kind) {
            return fits;
        }
    });
    figure.is_follower() && kind.can_hold_follower()
}

/// Takes `figure` out of `seat`'s supply: a normal follower from the
/// player's own, another figure from its expansion's (the caller has
/// checked [`figure_in_supply`]).
// The macro repeats the body per expansion: the last copy's `return` is
// needless, the others' are not.
#[allow(clippy::needless_return)]
pub(crate) fn take_from_supply(g: &mut Game, seat: Seat, figure: Figure) {
    if figure == Figure::Normal {
        let p = &mut g.players[seat.index()];
        p.supply = p.supply.saturating_sub(1);
        return;
    }
    each_active!(g, M => {
        if M::take_from_supply(g, seat, figure) {
            return;
        }
    });
}

/// Actions instead of a follower.
#[inline]
pub(crate) fn follower_alternatives(g: &Game, out: &mut Vec<Action>) {
    each_active!(g, M => { M::follower_alternatives(g, out); });
}

/// Actions besides the follower step's own.
#[inline]
pub(crate) fn extra_actions(g: &Game, out: &mut Vec<Action>) {
    each_active!(g, M => { M::extra_actions(g, out); });
}

/// Whether an expansion's step follows the follower step.
#[inline]
pub(crate) fn after_follower_step(g: &mut Game) -> bool {
    each_active!(g, M => {
        if M::after_follower_step(g) {
            return true;
        }
    });
    false
}

/// The legal actions of an expansion's own step.
// The macro repeats the body per expansion: the last copy's `return` is
// needless, the others' are not.
#[allow(clippy::needless_return)]
pub(crate) fn step_actions(g: &Game, out: &mut Vec<Action>) {
    let p = g.phase;
    each_active!(g, M => {
        if M::owns_phase(p) {
            M::step_actions(g, out);
            return;
        }
    });
}

/// Chooses among `n` legal actions, told where `pass` stands: an index below
/// `n` (see [`Expansion::pick_step_action`]).
pub(crate) type Pick<'a> = dyn FnMut(usize, Option<usize>) -> usize + 'a;

/// A pick without the full list, if an expansion in play makes it (see
/// [`Expansion::pick_step_action`]).
#[inline]
pub(crate) fn pick_step_action(
    g: &Game,
    buf: &mut Vec<Action>,
    pick: &mut Pick<'_>,
) -> Option<Action> {
    each_active!(g, M => {
        if let Some(a) = M::pick_step_action(g, buf, pick) {
            return Some(a);
        }
    });
    None
}

/// Applies an action that an expansion claims: any action in its own step
/// first (its step decides what else may happen), then its own actions.
#[inline]
pub(crate) fn apply(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
    let p = g.phase;
    each_active!(g, M => {
        if M::owns_phase(p) {
            if let Some(r) = M::apply_in_step(g, a, mode) {
                return Some(r);
            }
        }
    });
    each_active!(g, M => {
        if let Some(r) = M::apply_action(g, a, mode) {
            return Some(r);
        }
    });
    None
}

/// Whether two halves of one cell count as one tile.
#[inline]
pub(crate) fn count_per_cell(g: &Game) -> bool {
    each_active!(g, M => {
        if M::count_per_cell(g) {
            return true;
        }
    });
    false
}

/// A completed feature is about to be scored.
#[inline]
pub(crate) fn before_completion(g: &mut Game, root: NodeId) {
    each_active!(g, M => { M::before_completion(g, root); });
}

/// The scorings the expansions trigger after the part's completed
/// features.
#[inline]
pub(crate) fn part_scoring(g: &mut Game, pi: u16) {
    each_active!(g, M => { M::part_scoring(g, pi); });
}

/// The features the expansions score themselves at the end, after farms.
pub(crate) fn final_features(g: &mut Game) {
    each_active!(g, M => { M::final_features(g); });
}

/// Everything on piece `pi` is taken off the board: the expansions' own
/// neutral figures there.
pub(crate) fn clear_tile(g: &mut Game, pi: u16) {
    each_active!(g, M => { M::clear_tile(g, pi); });
}

/// Every seat's figure on piece `pi` goes home: those the expansions
/// keep outside `Game::followers`.
pub(crate) fn figures_home_on(g: &mut Game, pi: u16, reason: crate::scoring::Reason) {
    each_active!(g, M => { M::figures_home_on(g, pi, reason); });
}

/// Calls `f` with the seat and the piece of each follower standing on a
/// tile in no feature (kept by an expansion, not in `Game::followers`).
pub(crate) fn followers_off_features(g: &Game, f: &mut dyn FnMut(Seat, u16)) {
    each_active!(g, M => { M::followers_off_features(g, f); });
}

/// A feature was just scored.
#[inline]
pub(crate) fn feature_scored(g: &mut Game, root: NodeId) {
    each_active!(g, M => { M::feature_scored(g, root); });
}

/// A completed feature was scored.
#[inline]
pub(crate) fn after_completion(g: &mut Game, root: NodeId) {
    each_active!(g, M => { M::after_completion(g, root); });
}

/// How many followers a figure other than a normal follower counts as
/// when the majority of its feature is decided (1 if no expansion claims
/// it).
pub(crate) fn majority_weight(g: &Game, f: &Follower) -> u8 {
    each_active!(g, M => {
        if let Some(w) = M::majority_weight(g, f) {
            return w;
        }
    });
    // A follower no expansion weighs counts one; a special figure none.
    u8::from(f.figure.is_follower())
}

/// Adds every tile of the set `id` to the bag, each as many times as its
/// count: the deck contribution of a set of land tiles.
pub(crate) fn set_tiles(
    ctx: &DeckCtx<'_>,
    id: ExpansionId,
    bag: &mut Vec<TileIdx>,
) -> Result<(), ConfigError> {
    let key = id.key();
    let set = ctx
        .catalog
        .set(key)
        .ok_or_else(|| ConfigError::NotImplemented(key.into()))?;
    for &t in &set.tiles {
        bag.extend(std::iter::repeat_n(t, ctx.catalog.tile(t).count as usize));
    }
    Ok(())
}

/// Whether an expansion holds the turn before it passes on.
pub(crate) fn hold_turn(g: &mut Game) -> bool {
    each_active!(g, M => {
        if M::hold_turn(g) {
            return true;
        }
    });
    false
}

/// Whether another part of this turn may still follow the current one.
pub(crate) fn more_parts(g: &Game) -> bool {
    each_active!(g, M => {
        if M::more_parts(g) {
            return true;
        }
    });
    false
}

/// Whether the current step is held between two parts of a turn.
pub(crate) fn between_parts(g: &Game) -> bool {
    each_active!(g, M => {
        if M::between_parts(g) {
            return true;
        }
    });
    false
}

/// How many special figures each seat has on top of its followers.
pub(crate) fn special_figures(g: &Game) -> usize {
    let mut n = 0;
    each_active!(g, M => { n += M::special_figures(g); });
    n
}

/// Why the turn may not end now, if an expansion still owes something in
/// it: the rule and what to do instead.
pub(crate) fn turn_end_veto(g: &Game) -> Option<(&'static str, &'static str)> {
    each_active!(g, M => {
        if let Some(v) = M::turn_end_veto(g) {
            return Some(v);
        }
    });
    None
}

/// Changes the points of a scoring per seat (`points`: the feature's
/// value for each winner, 0 for the others; `extra`: its coats of arms or
/// completed cities): the pig's and the pig herd's bonus.
pub(crate) fn winners_bonus(g: &Game, root: NodeId, extra: u32, points: &mut [u32; 6]) {
    each_active!(g, M => { M::winners_bonus(g, root, extra, points); });
}

/// Followers left the board other than by their feature's scoring
/// (fleas): figures that depend on them may follow.
pub(crate) fn followers_left(g: &mut Game) {
    each_active!(g, M => { M::followers_left(g); });
}

/// A figure other than a normal follower goes back to its expansion's
/// supply.
// The macro repeats the body per expansion: the last copy's `return` is
// needless, the others' are not.
#[allow(clippy::needless_return)]
pub(crate) fn figure_home(g: &mut Game, f: Follower) {
    each_active!(g, M => {
        if M::figure_home(g, f) {
            return;
        }
    });
}

/// The feature's value as the expansions change it.
#[inline]
pub(crate) fn feature_value(g: &Game, root: NodeId, complete: bool, value: &mut (u32, u32, u32)) {
    each_active!(g, M => { M::feature_value(g, root, complete, value); });
}

/// Whether an expansion's step follows the turn's scoring.
#[inline]
pub(crate) fn after_scoring(g: &mut Game, pi: u16) -> bool {
    each_active!(g, M => {
        if M::after_scoring(g, pi) {
            return true;
        }
    });
    false
}

/// The expansions' final scoring.
pub(crate) fn final_scoring(g: &mut Game) {
    each_active!(g, M => { M::final_scoring(g); });
}

/// Whether the player who placed `pi` plays again.
#[inline]
pub(crate) fn extra_turn(g: &Game, pi: u16) -> bool {
    each_active!(g, M => {
        if M::extra_turn(g, pi) {
            return true;
        }
    });
    false
}

/// The next turn begins.
#[inline]
pub(crate) fn turn_start(g: &mut Game) {
    each_active!(g, M => { M::turn_start(g); });
}

/// The expansions' parts of the state JSON, as `viewer` may see it.
pub(crate) fn state_json(g: &Game, viewer: Viewer, out: &mut ExpansionsJson) {
    each_active!(g, M => { M::state_json(g, viewer, out); });
}

/// Puts unseen draws back; true if the draw must be made again.
pub(crate) fn unsee_draws(g: &mut Game) -> bool {
    let mut again = false;
    each_active!(g, M => {
        again |= M::unsee_draws(g);
    });
    again
}

/// The public part of the pile `t` belongs to (0 when the pile is one part).
pub(crate) fn draw_part(g: &Game, t: TileIdx) -> Option<u8> {
    each_active!(g, M => {
        if let Some(p) = M::draw_part(g, t) {
            return Some(p);
        }
    });
    None
}

/// Explicit chance: the supply of the deal chance makes now, if one lasts.
pub(crate) fn chance_deal(g: &Game) -> Option<&[TileIdx]> {
    each_active!(g, M => {
        if let Some(s) = M::chance_deal(g) {
            return Some(s);
        }
    });
    None
}

/// Explicit chance: the item at `at` of the deal's supply is dealt.
pub(crate) fn deal_chance(g: &mut Game, at: usize) {
    let mut dealt = false;
    each_active!(g, M => {
        if !dealt && M::chance_deal(g).is_some() {
            M::deal_chance(g, at);
            dealt = true;
        }
    });
}

/// A fixed random event the game could not honour, if any.
pub(crate) fn misfixed(g: &Game) -> Option<String> {
    each_active!(g, M => {
        if let Some(why) = M::misfixed(g) {
            return Some(why);
        }
    });
    None
}

/// Explicit chance: whether a token draw is due.
pub(crate) fn token_due(g: &Game) -> bool {
    each_active!(g, M => {
        if M::token_due(g) {
            return true;
        }
    });
    false
}

/// Explicit chance: the token kinds chance may draw now, with counts.
pub(crate) fn token_draw(g: &Game) -> Option<Vec<(u8, u32)>> {
    each_active!(g, M => {
        if let Some(d) = M::token_draw(g) {
            return Some(d);
        }
    });
    None
}

/// Explicit chance: draws a token of `kind` for the expansion that owes one.
pub(crate) fn take_token(g: &mut Game, kind: u8) -> bool {
    let mut taken = false;
    each_active!(g, M => {
        if !taken && M::token_due(g) {
            taken = M::take_token(g, kind);
        }
    });
    taken
}

/// The token kinds the expansions in play draw at chance nodes.
pub(crate) fn token_kinds(g: &Game) -> u8 {
    let mut n = 0;
    each_active!(g, M => { n += M::TOKEN_KINDS; });
    n
}

/// The token kinds drawn so far in this game, in order.
pub(crate) fn tokens_drawn(g: &Game) -> Vec<u8> {
    let mut out = Vec::new();
    each_active!(g, M => { M::tokens_drawn(g, &mut out); });
    out
}

/// Fixes the tokens `g` drew (names, in order) in a configuration of it:
/// by the expansion in play that draws tokens, when some were drawn.
pub(crate) fn fix_tokens(g: &Game, config: &mut GameConfig, tokens: Vec<String>) {
    if tokens.is_empty() {
        return;
    }
    let mut tokens = Some(tokens);
    each_active!(g, M => { M::fix_tokens(config, &mut tokens); });
}

/// The name of token kind `kind` in this game.
pub(crate) fn token_name(g: &Game, kind: u8) -> Option<String> {
    // One expansion in play draws tokens at most (Map Chips).
    each_active!(g, M => {
        if let Some(name) = M::token_name(kind) {
            return Some(name);
        }
    });
    None
}

/// Whether an order rule keeps `t` from being the next draw.
pub(crate) fn holds_back(g: &Game, t: TileIdx) -> bool {
    each_active!(g, M => {
        if M::holds_back(g, t) {
            return true;
        }
    });
    false
}

/// The expansions put a determinization's shuffled pile in an order their
/// rules allow.
pub(crate) fn arrange_hidden(g: &mut Game, rng: &mut Rng) {
    each_active!(g, M => { M::arrange_hidden(g, rng); });
}

/// Resamples the other players' secrets.
pub(crate) fn resample(g: &mut Game, player: Seat, rng: &mut Rng) {
    each_active!(g, M => { M::resample(g, player, rng); });
}

/// The planes and globals the expansions in play add to the tensor.
pub(crate) fn tensor_size(g: &Game) -> (usize, usize) {
    let (mut planes, mut globals) = (0, 0);
    each_active!(g, M => {
        let (p, q) = M::tensor_size(g);
        planes += p;
        globals += q;
    });
    (planes, globals)
}

/// Each expansion in play writes its part of `player`'s tensor, in the
/// fixed order, each into its own planes.
pub(crate) fn tensor(g: &Game, player: Seat, t: &mut TensorPart<'_>) {
    each_active!(g, M => {
        let (planes, globals) = M::tensor_size(g);
        let start = t.globals_written();
        t.begin(planes);
        M::tensor(g, player, t);
        debug_assert_eq!(t.globals_written() - start, globals, "tensor globals of an expansion");
    });
}
