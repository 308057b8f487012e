//! Password hashing behind one gate per server: argon2id takes 19 MiB
//! and tens of milliseconds a hash on purpose, so hashes run a few at a
//! time (about one per core), a short queue waits for them, and a sign-in
//! beyond the queue is refused at once (`503` with `Retry-After`) rather
//! than handed to the blocking pool, whose 512 threads would each take
//! their 19 MiB: 600 sign-ins from 60 addresses, each within its
//! allowance, took 11 GB that way. The hashes run on threads of their own,
//! as many as may run at once, so that the memory a hash frees is reused
//! by the next one on its thread rather than kept by every thread of the
//! blocking pool that ever hashed (the allocator keeps a thread's freed
//! memory for that thread).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use tokio::sync::oneshot;

use crate::api::ApiError;
use crate::protocol::{ErrorCode, ProtocolError};

/// A hash to run, and where its answer goes.
type Job = Box<dyn FnOnce() + Send>;

/// The gate every password hash goes through.
pub struct HashGate {
    /// The hashers' queue (the hashers end when the gate is dropped).
    jobs: Mutex<mpsc::Sender<Job>>,
    /// Hashes running or waiting.
    admitted: Arc<AtomicUsize>,
    /// The most that may run or wait.
    most: usize,
}

/// Counts a hash admitted until it is dropped (done, or its request gone
/// before its turn).
struct Admitted(Arc<AtomicUsize>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl HashGate {
    /// `workers` hashes at once (at least one), `queue` more waiting.
    pub fn new(workers: usize, queue: usize) -> HashGate {
        let workers = workers.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..workers {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("hasher-{i}"))
                .spawn(move || loop {
                    // The lock is held while waiting only: one hasher
                    // takes each job.
                    let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start a password hasher: {e}");
            }
        }
        HashGate {
            jobs: Mutex::new(tx),
            admitted: Arc::new(AtomicUsize::new(0)),
            most: workers.saturating_add(queue),
        }
    }

    /// Runs `work` (a hash) on a hasher when one is free; refuses with
    /// `unavailable` (503, `Retry-After`) when the queue is full. The
    /// place in the queue is held until the hash is done, even if the
    /// request is gone meanwhile: what runs is what is counted.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        if self.admitted.fetch_add(1, Ordering::Relaxed) >= self.most {
            self.admitted.fetch_sub(1, Ordering::Relaxed);
            return Err(busy());
        }
        let admitted = Admitted(self.admitted.clone());
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let out = work();
            drop(admitted);
            let _ = tx.send(out);
        });
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .map_err(|_| busy())?;
        rx.await.map_err(|_| {
            tracing::error!("a password hash was lost (its hasher stopped)");
            busy()
        })
    }

    /// Hashes running or waiting now.
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::Relaxed)
    }
}

fn busy() -> ApiError {
    ApiError(ProtocolError::new(
        ErrorCode::Unavailable,
        "the server is checking too many passwords at once; try again in a second",
    ))
}
