//! Random playouts make no heap allocation once warmed up: `simulate`
//! resets one game per worker ([`Game::reset`], which deals into the
//! buffers the game has) and reuses one action buffer, and nothing in a
//! turn allocates once its lists have grown. Counted with a
//! global allocator that counts the calls of the thread that makes them
//! (tests of this file run in parallel threads).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bastide_engine::play_random_with;
use bastide_engine::rng::Rng;
use bastide_engine::{Game, GameConfig};

struct Counting;

thread_local! {
    // `const`, without a destructor: reading it never allocates, so the
    // allocator may use it.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counter is a plain thread-local cell.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// The loop of `bastide simulate`: reset, play with a fresh stream, read
/// the scores.
fn play(game: &mut Game, buf: &mut Vec<bastide_engine::Action>, seed: u64) -> u32 {
    game.reset(seed).expect("a valid configuration");
    let mut rng = Rng::for_stream(seed, 0xB07);
    play_random_with(game, &mut rng, buf, |_| {});
    game.players().iter().map(|p| p.score).sum()
}

#[test]
fn random_games_allocate_nothing_after_warm_up() {
    // Every expansion; the event log and the list of trades on offer are
    // given their room up front (a longer one than any before would
    // otherwise grow now and then, long after warm-up).
    for sets in [
        &["base"][..],
        &["winter"],
        &["base", "river2"],
        &["base", "river20", "cutcassonne"],
        &["base", "halfsies1", "halfsies2"],
        &["base", "plague"],
        &["winter", "gingerbread"],
        &["base", "inns-cathedrals"],
        &["winter", "gingerbread", "plague", "inns-cathedrals"],
        &["base", "traders-builders"],
        &["base", "tower"],
        &["base", "abbey-mayor"],
        &["base", "princess-dragon"],
        &["base", "map-chips"],
        &["base", "map-chips", "river20", "cutcassonne"],
        &[
            "winter",
            "gingerbread",
            "river2",
            "halfsies1",
            "halfsies2",
            "plague",
        ],
    ] {
        for players in [2, 5] {
            let config = GameConfig::from_sets(players, 0, sets).expect("a valid set");
            let mut game = Game::new(config).expect("a valid configuration");
            let mut buf = Vec::new();
            // Warm-up: buffers grow to the largest game seen.
            for seed in 0..50 {
                play(&mut game, &mut buf, seed);
            }
            let before = allocations();
            let mut points = 0;
            for seed in 50..250 {
                points += play(&mut game, &mut buf, seed);
            }
            let made = allocations() - before;
            assert!(points > 0, "the games were played");
            assert_eq!(
                made, 0,
                "{sets:?}, {players} players: {made} allocations in 200 games"
            );
        }
    }
}

#[test]
fn reset_deals_the_game_new_deals() {
    for sets in [
        "base",
        "winter",
        "base,river2",
        "base,river1,river2",
        "base,river20,cutcassonne",
        "winter,gingerbread",
        "base,plague",
        "base,halfsies1,halfsies2",
        "base,map-chips",
        "base,inns-cathedrals",
        "base,traders-builders",
        "base,tower",
        "base,tower,inns-cathedrals,plague",
        "winter,gingerbread,river2,halfsies1,halfsies2,plague,inns-cathedrals",
    ] {
        let sets: Vec<&str> = sets.split(',').collect();
        let config = GameConfig::from_sets(3, 0, &sets).expect("a valid set");
        let mut game = Game::new(config.clone()).expect("a valid configuration");
        let mut buf = Vec::new();
        for seed in [1, 2, 3, 77, u64::MAX] {
            let mut c = config.clone();
            c.seed = seed;
            let mut fresh = Game::new(c).expect("a valid configuration");
            game.reset(seed).expect("a valid configuration");
            assert_eq!(game, fresh, "{sets:?}, seed {seed}: set-up differs");
            let mut a = Rng::for_stream(seed, 9);
            let mut b = Rng::for_stream(seed, 9);
            play_random_with(&mut game, &mut a, &mut buf, |_| {});
            play_random_with(&mut fresh, &mut b, &mut buf, |_| {});
            assert_eq!(game, fresh, "{sets:?}, seed {seed}: games differ");
        }
    }
}

#[test]
fn reset_keeps_the_event_log_off() {
    let config = GameConfig::from_sets(2, 0, &["base"]).expect("a valid set");
    let mut game = Game::new(config).expect("a valid configuration");
    let mut buf = Vec::new();
    let mut rng = Rng::for_stream(1, 2);
    play_random_with(&mut game, &mut rng, &mut buf, |_| {});
    assert!(!game.events().is_empty(), "the log is on by default");
    game.set_event_log(false);
    for seed in 1..4 {
        // Rules shared with a clone: the reset sets the game up anew.
        let clone = (seed == 2).then(|| game.clone());
        game.reset(seed).expect("a valid configuration");
        play_random_with(&mut game, &mut rng, &mut buf, |_| {});
        assert!(game.is_finished());
        assert!(game.events().is_empty(), "seed {seed}: events logged");
        drop(clone);
    }
}

#[test]
fn determinizing_a_plague_game_allocates_nothing_after_warm_up() {
    // In the first 17 land draws the Plague's sources are kept below the
    // safe draws still to come (`arrange_safe`): a bot's search
    // determinizes there on every iteration, into one reused game.
    let config = GameConfig::from_sets(2, 4, &["base", "plague"]).expect("a valid set");
    let mut game = Game::new(config).expect("a valid configuration");
    let mut rng = Rng::for_stream(4, 1);
    let mut buf = Vec::new();
    for _ in 0..6 {
        let a = game.random_action(&mut rng, &mut buf).expect("a move");
        game.apply_legal(&a);
    }
    let seat = game.current_player();
    let mut out = game.clone();
    for _ in 0..20 {
        game.determinize_fast_into(seat, &mut rng, &mut out);
    }
    let before = allocations();
    let mut moved = 0;
    for _ in 0..200 {
        game.determinize_fast_into(seat, &mut rng, &mut out);
        moved += usize::from(out.pile_in_order().ne(game.pile_in_order()));
    }
    let made = allocations() - before;
    assert!(moved > 0, "the piles were shuffled");
    assert_eq!(made, 0, "{made} allocations in 200 determinizations");
}
