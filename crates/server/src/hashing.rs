//! Password hashing behind one gate per server: argon2id takes 19 MiB
//! and tens of milliseconds a hash on purpose, so hashes run a few at a
//! time (about one per core), a short queue waits for them, and a sign-in
//! beyond the queue is refused at once (`503` with `Retry-After`) rather
//! than handed to the blocking pool, whose 512 threads would each take
//! their 19 MiB: 600 sign-ins from 60 addresses, each within its
//! allowance, took 11 GB that way.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::api::ApiError;
use crate::protocol::{ErrorCode, ProtocolError};

/// The gate every password hash goes through.
pub struct HashGate {
    /// One per hash that may run at once.
    running: Arc<Semaphore>,
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
        HashGate {
            running: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(AtomicUsize::new(0)),
            most: workers.saturating_add(queue),
        }
    }

    /// Runs `work` (a hash) on the blocking pool when a worker is free;
    /// refuses with `unavailable` (503, `Retry-After`) when the queue is
    /// full. The worker and the place in the queue are held until the
    /// hash is done, even if the request is gone meanwhile: what runs is
    /// what is counted.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        if self.admitted.fetch_add(1, Ordering::Relaxed) >= self.most {
            self.admitted.fetch_sub(1, Ordering::Relaxed);
            return Err(busy());
        }
        let admitted = Admitted(self.admitted.clone());
        let permit = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| busy())?;
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop((permit, admitted));
            out
        })
        .await
        .map_err(|e| {
            tracing::error!("a password hash failed: {e}");
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
