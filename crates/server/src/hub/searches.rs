//! Who searches next: the searching bots' (MCTS) workers handed out
//! fairly (docs/server.md, "Limits", "Bots"). First come first served
//! let twenty strangers' games of bots only keep a person's bot waiting
//! over a minute for its turn; here:
//!
//! - a search for a game with a person in it goes before any game of
//!   bots only, and games of bots only may hold all workers but one, so
//!   a person's search never waits behind them (only behind other
//!   people's);
//! - within each kind, the payer (an address, an account, the operator)
//!   with the fewest searches at work goes first, then the one served
//!   least recently, then the search that asked first: one stranger's
//!   many games take turns with everyone else's, not before them.
//!
//! Each game asks for one search at a time (its bot task waits for its
//! move), so games take turns too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::store::CreatorKey;

/// What a search is for, as the scheduler ranks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Asker {
    /// Whether the game has a person's seat.
    pub(super) people: bool,
    /// Whom the game is charged to (`None`: the operator, or a game
    /// charged to nobody), whose searches take turns with others'.
    pub(super) payer: Option<CreatorKey>,
}

/// A search waiting for a worker.
struct Waiter {
    asker: Asker,
    /// The order of asking.
    seq: u64,
    wake: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    /// Workers free.
    free: usize,
    /// Searches of games of bots only at work.
    bots_only: usize,
    /// Searches at work per payer.
    running: HashMap<Option<CreatorKey>, usize>,
    /// When each payer with searches at work or waiting was last served
    /// (a count of searches started).
    served: HashMap<Option<CreatorKey>, u64>,
    waiting: Vec<Waiter>,
    next_seq: u64,
    started: u64,
}

/// The searching bots' workers (`Settings::bot_workers`).
pub(super) struct Searches {
    workers: usize,
    state: Mutex<State>,
}

/// A worker held: given back when dropped.
pub(super) struct Worker {
    searches: Arc<Searches>,
    asker: Asker,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.searches.give_back(self.asker);
    }
}

impl Searches {
    /// `workers` searches at once (at least one).
    pub(super) fn new(workers: usize) -> Arc<Searches> {
        let workers = workers.max(1);
        Arc::new(Searches {
            workers,
            state: Mutex::new(State {
                free: workers,
                ..State::default()
            }),
        })
    }

    /// Workers games of bots only may hold at once: all but one (one,
    /// when there is only one).
    fn bots_only_limit(&self) -> usize {
        self.workers.saturating_sub(1).max(1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a worker for `asker`'s search.
    pub(super) async fn acquire(self: &Arc<Searches>, asker: Asker) -> Worker {
        let woken = {
            let mut s = self.lock();
            let (wake, woken) = oneshot::channel();
            let seq = s.next_seq;
            s.next_seq += 1;
            s.waiting.push(Waiter { asker, seq, wake });
            // In line with the others: it may be the best of them now
            // (a person's search while games of bots only wait).
            self.hand_over(&mut s);
            woken
        };
        // The sender is used only to hand the worker over, and dropped
        // unused only with the scheduler itself.
        let _ = woken.await;
        Worker {
            searches: self.clone(),
            asker,
        }
    }

    /// Whether a worker may go to `asker` now.
    fn may_start(&self, s: &State, asker: Asker) -> bool {
        s.free > 0 && (asker.people || s.bots_only < self.bots_only_limit())
    }

    fn start(&self, s: &mut State, asker: Asker) {
        s.free -= 1;
        s.started += 1;
        let at = s.started;
        s.served.insert(asker.payer, at);
        if !asker.people {
            s.bots_only += 1;
        }
        *s.running.entry(asker.payer).or_default() += 1;
    }

    /// A search ended: its worker goes to the next in line.
    fn give_back(&self, asker: Asker) {
        let mut s = self.lock();
        self.give_back_locked(&mut s, asker);
        self.hand_over(&mut s);
    }

    /// Wakes the best waiters while workers are free for them.
    fn hand_over(&self, s: &mut State) {
        loop {
            let best = s
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| self.may_start(s, w.asker))
                .min_by_key(|(_, w)| {
                    (
                        !w.asker.people,
                        s.running.get(&w.asker.payer).copied().unwrap_or(0),
                        s.served.get(&w.asker.payer).copied().unwrap_or(0),
                        w.seq,
                    )
                })
                .map(|(i, _)| i);
            let Some(i) = best else { return };
            let w = s.waiting.swap_remove(i);
            self.start(s, w.asker);
            if w.wake.send(()).is_err() {
                // The search was given up (its task cancelled): the
                // worker goes on to the next.
                self.give_back_locked(s, w.asker);
            }
        }
    }

    /// [`Searches::give_back`] with the state already locked, without
    /// handing over (the caller's loop does).
    fn give_back_locked(&self, s: &mut State, asker: Asker) {
        s.free += 1;
        if !asker.people {
            s.bots_only = s.bots_only.saturating_sub(1);
        }
        if let Some(n) = s.running.get_mut(&asker.payer) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                s.running.remove(&asker.payer);
                // Forgotten once it has nothing at work or waiting: the
                // map holds the payers of the moment only.
                if !s.waiting.iter().any(|w| w.asker.payer == asker.payer) {
                    s.served.remove(&asker.payer);
                }
            }
        }
    }

    /// Searches waiting for a worker.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payer(n: u8) -> Option<CreatorKey> {
        let ip = std::net::IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, n));
        Some(CreatorKey::of(crate::guard::ClientKey::of(ip)))
    }

    fn bots(n: u8) -> Asker {
        Asker {
            people: false,
            payer: payer(n),
        }
    }

    fn person(n: u8) -> Asker {
        Asker {
            people: true,
            payer: payer(n),
        }
    }

    /// Spawns a search waiting for a worker; its receiver says when it
    /// got one, and it holds the worker until told to let go.
    fn ask(
        searches: &Arc<Searches>,
        asker: Asker,
        order: &Arc<Mutex<Vec<&'static str>>>,
        name: &'static str,
    ) -> oneshot::Sender<()> {
        let (done, finish) = oneshot::channel::<()>();
        let (searches, order) = (searches.clone(), order.clone());
        tokio::spawn(async move {
            let worker = searches.acquire(asker).await;
            order.lock().unwrap().push(name);
            let _ = finish.await;
            drop(worker);
        });
        done
    }

    async fn settle(searches: &Searches, waiting: usize) {
        for _ in 0..1000 {
            if searches.waiting() == waiting {
                break;
            }
            tokio::task::yield_now().await;
        }
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_persons_search_goes_before_strangers_bots_only_games() {
        let searches = Searches::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        // A stranger's bots-only game holds the one worker; twenty more
        // of strangers' bots-only searches wait, then a person's.
        let first = ask(&searches, bots(1), &order, "stranger 1");
        settle(&searches, 0).await;
        let mut later = Vec::new();
        for i in 0..20 {
            later.push(ask(&searches, bots(2 + i % 10), &order, "stranger"));
        }
        settle(&searches, 20).await;
        let person_done = ask(&searches, person(99), &order, "person");
        settle(&searches, 21).await;
        let _ = first.send(());
        settle(&searches, 20).await;
        assert_eq!(
            order.lock().unwrap().as_slice(),
            ["stranger 1", "person"],
            "the person's search is next"
        );
        let _ = person_done.send(());
        for l in later {
            let _ = l.send(());
        }
    }

    #[tokio::test]
    async fn bots_only_games_leave_a_worker_for_people() {
        let searches = Searches::new(2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let a = ask(&searches, bots(1), &order, "bots a");
        let b = ask(&searches, bots(2), &order, "bots b");
        settle(&searches, 1).await;
        // One worker is free, but not for a second game of bots only.
        let p = ask(&searches, person(3), &order, "person");
        settle(&searches, 1).await;
        assert_eq!(order.lock().unwrap().as_slice(), ["bots a", "person"]);
        let _ = a.send(());
        settle(&searches, 0).await;
        assert_eq!(
            order.lock().unwrap().as_slice(),
            ["bots a", "person", "bots b"]
        );
        let _ = (b.send(()), p.send(()));
    }

    #[tokio::test]
    async fn payers_take_turns() {
        let searches = Searches::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let hold = ask(&searches, person(1), &order, "first");
        settle(&searches, 0).await;
        // Payer 1 asks twice more, then payer 2 once: payer 2 goes
        // next, not third.
        let mut rest = Vec::new();
        rest.push(ask(&searches, person(1), &order, "one"));
        settle(&searches, 1).await;
        rest.push(ask(&searches, person(1), &order, "one"));
        settle(&searches, 2).await;
        rest.push(ask(&searches, person(2), &order, "two"));
        settle(&searches, 3).await;
        let _ = hold.send(());
        settle(&searches, 2).await;
        // Payer 1 was just served: payer 2, who asked last, goes next.
        assert_eq!(order.lock().unwrap().as_slice(), ["first", "two"]);
        let _ = rest.remove(2).send(());
        settle(&searches, 1).await;
        assert_eq!(order.lock().unwrap().as_slice(), ["first", "two", "one"]);
        for r in rest {
            let _ = r.send(());
        }
    }
}
