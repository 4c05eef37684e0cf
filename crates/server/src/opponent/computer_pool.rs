//! The computer opponents' engines: at most [`ComputerPool::engines`]
//! searches think at once, each on one of the pool's own threads at a
//! lower priority than the requests, and the games whose computer is to
//! move wait their turn in one queue, first come, first served.
//!
//! Without a bound, a hundred games against the computer were a hundred
//! threads searching at once, each with its own table: the machine's
//! memory went to tables and its cores to the searches, and a person's
//! move in an unrelated game waited behind them (issue 53). Here a
//! search holds its engine (the table and histories of `koma_engine`)
//! only while it thinks, and when the last search ends the memory freed
//! goes back to the system.

use crate::games::clock;
use crate::games::state::ComputerWaitingJson;
use crate::store::GameId;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The computer opponents' engines, shared by every game of the server.
pub struct ComputerPool {
    shared: Arc<Shared>,
}

struct Shared {
    engines: usize,
    queue: Mutex<Queue>,
    /// Wakes the threads when a job is queued or one ends (the first job
    /// may be waiting for the cores a job held).
    queued: Condvar,
}

#[derive(Default)]
struct Queue {
    /// The jobs not yet started, the first come first.
    waiting: VecDeque<Job>,
    /// Threads started (all of them at the first job).
    threads: usize,
    /// Jobs thinking now.
    running: usize,
    /// The engines (cores) they take: a registered engine's move takes
    /// its `Threads`.
    busy: usize,
}

impl Queue {
    /// Whether the first `count` jobs waiting could all start now, among
    /// `engines` engines.
    fn would_start(&self, count: usize, engines: usize) -> bool {
        let needed: usize = self.waiting.iter().take(count).map(|job| job.slots).sum();
        self.busy + needed <= engines
    }
}

struct Job {
    game: GameId,
    /// The engines it takes (at most all of them).
    slots: usize,
    /// When it was queued, milliseconds since the Unix epoch.
    since: i64,
    /// Whether every engine was busy when it was queued, so that its
    /// game's state said it waits ([`ComputerPool::waiting`]).
    waited: bool,
    run: Box<dyn FnOnce(bool) + Send>,
}

/// How busy the pool is.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolLoad {
    /// Jobs thinking now.
    pub running: usize,
    /// Jobs waiting for an engine.
    pub waiting: usize,
}

fn lock(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    // A job runs outside the lock, and a panicking job is caught: the
    // queue is never left half changed.
    queue
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ComputerPool {
    /// A pool of `engines` engines (at least one); its threads start with
    /// the first job.
    pub fn new(engines: usize) -> ComputerPool {
        ComputerPool {
            shared: Arc::new(Shared {
                engines: engines.max(1),
                queue: Mutex::new(Queue::default()),
                queued: Condvar::new(),
            }),
        }
    }

    /// One engine per core: the default of `--computer-engines`.
    pub fn engines_for_this_machine() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// Queues `run`, the computer's move in game `game`, behind the jobs
    /// already queued; it runs on one of the pool's threads when its turn
    /// comes and `slots` engines are free (a registered engine's move
    /// takes its `Threads`; one taking more than the pool has waits until
    /// the pool is idle), told whether it waited for an engine (its game's
    /// state then said so, and should be sent again now that it thinks).
    /// The caller queues at most one job per game at a time.
    pub fn submit(&self, game: GameId, slots: usize, run: impl FnOnce(bool) + Send + 'static) {
        let engines = self.shared.engines;
        let mut queue = lock(&self.shared.queue);
        if queue.threads == 0 {
            queue.threads = self.start_threads();
        }
        let slots = slots.clamp(1, engines);
        queue.waiting.push_back(Job {
            game,
            slots,
            since: clock::now_ms(),
            waited: false,
            run: Box::new(run),
        });
        // The same test as `waiting`'s for the job at the queue's end.
        let count = queue.waiting.len();
        let waited = !queue.would_start(count, engines);
        if let Some(job) = queue.waiting.back_mut() {
            job.waited = waited;
        }
        drop(queue);
        self.shared.queued.notify_all();
    }

    /// Where game `game`'s computer stands in the queue, if it waits
    /// there (`None` once its search has started, or if it is not queued).
    pub fn waiting(&self, game: GameId) -> Option<ComputerWaitingJson> {
        let queue = lock(&self.shared.queue);
        let ahead = queue.waiting.iter().position(|job| job.game == game)?;
        // A job with engines free for it is about to start (a thread is
        // waking for it): it does not wait, and the page should say the
        // computer thinks rather than flash "waiting".
        if queue.would_start(ahead + 1, self.shared.engines) {
            return None;
        }
        Some(ComputerWaitingJson {
            since: queue.waiting[ahead].since,
            ahead,
            engines: self.shared.engines,
        })
    }

    /// How many jobs think and wait now.
    #[cfg(test)]
    pub fn load(&self) -> PoolLoad {
        let queue = lock(&self.shared.queue);
        PoolLoad {
            running: queue.running,
            waiting: queue.waiting.len(),
        }
    }

    /// Starts the pool's threads; returns how many started.
    fn start_threads(&self) -> usize {
        let mut started = 0;
        for index in 0..self.shared.engines {
            let shared = self.shared.clone();
            let thread = std::thread::Builder::new().name(format!("computer-{index}"));
            match thread.spawn(move || work(&shared)) {
                Ok(_) => started += 1,
                Err(e) => eprintln!("koma: cannot start a computer engine's thread: {e}"),
            }
        }
        if started == 0 {
            // The next job tries again; until then the moves wait.
            eprintln!("koma: no thread for the computer opponents; their moves wait");
        }
        started
    }
}

/// A pool thread: takes the queue's first job once the engines it takes
/// are free, runs it, and so on.
fn work(shared: &Shared) {
    crate::priority::Work::Opponent.lower_this_thread();
    loop {
        let job = {
            let mut queue = lock(&shared.queue);
            let job = loop {
                if queue.would_start(1, shared.engines) {
                    if let Some(job) = queue.waiting.pop_front() {
                        break job;
                    }
                }
                queue = shared
                    .queued
                    .wait(queue)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            };
            queue.running += 1;
            queue.busy += job.slots;
            job
        };
        let slots = job.slots;
        // A job that panics (a bug) costs its move, not the thread.
        let (run, waited) = (job.run, job.waited);
        let _ = catch_unwind(AssertUnwindSafe(move || run(waited)));
        let idle = {
            let mut queue = lock(&shared.queue);
            queue.running -= 1;
            queue.busy -= slots;
            queue.running == 0 && queue.waiting.is_empty()
        };
        // The first job waiting may have waited for these engines.
        shared.queued.notify_all();
        if idle {
            give_memory_back();
        }
    }
}

/// Hands the memory the searches freed back to the system. glibc keeps
/// freed blocks in each thread's arena for reuse (a search's 16 MiB table
/// is above its mmap threshold only until the first one is freed, which
/// raises the threshold); after a burst of games that was hundreds of MiB
/// held for minutes. `malloc_trim` returns the free pages of every arena.
pub(crate) fn give_memory_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    use std::time::Duration;

    fn id(n: u64) -> GameId {
        format!("{n:016x}").parse().unwrap()
    }

    /// Waits (at most a minute, for a loaded machine) until `done` holds.
    fn wait_until(mut done: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "timed out");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn no_more_searches_than_engines_think_at_once() {
        let pool = ComputerPool::new(3);
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let (release, released) = mpsc::channel::<()>();
        let released = Arc::new(Mutex::new(released));
        for n in 0..10 {
            let (now, most, finished) = (now.clone(), most.clone(), finished.clone());
            let released = released.clone();
            pool.submit(id(n), 1, move |_| {
                let thinking = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(thinking, Ordering::SeqCst);
                // Holds its engine until the test lets one go.
                let _ = released.lock().unwrap().recv();
                now.fetch_sub(1, Ordering::SeqCst);
                finished.fetch_add(1, Ordering::SeqCst);
            });
        }
        wait_until(|| pool.load().running == 3);
        assert_eq!(
            pool.load(),
            PoolLoad {
                running: 3,
                waiting: 7
            }
        );
        for _ in 0..10 {
            release.send(()).unwrap();
        }
        wait_until(|| finished.load(Ordering::SeqCst) == 10);
        assert_eq!(most.load(Ordering::SeqCst), 3);
        wait_until(|| {
            pool.load()
                == PoolLoad {
                    running: 0,
                    waiting: 0,
                }
        });
    }

    #[test]
    fn games_are_served_first_come_first_served_and_see_their_place() {
        let pool = ComputerPool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (release, released) = mpsc::channel::<()>();
        let released = Arc::new(Mutex::new(released));
        for n in 0..5 {
            let (order, released) = (order.clone(), released.clone());
            pool.submit(id(n), 1, move |waited| {
                order.lock().unwrap().push((n, waited));
                let _ = released.lock().unwrap().recv();
            });
        }
        wait_until(|| pool.load().running == 1);
        // The first thinks; the others wait in the order they came.
        assert_eq!(pool.waiting(id(0)), None);
        for n in 1..5u64 {
            let waiting = pool.waiting(id(n)).expect("queued");
            assert_eq!(waiting.ahead, n as usize - 1);
            assert_eq!(waiting.engines, 1);
            assert!(waiting.since > 0);
        }
        assert_eq!(pool.waiting(id(99)), None);
        for _ in 0..5 {
            release.send(()).unwrap();
        }
        wait_until(|| order.lock().unwrap().len() == 5);
        // Each but the first was told it waited.
        let expected: Vec<(u64, bool)> = (0..5).map(|n| (n, n > 0)).collect();
        assert_eq!(*order.lock().unwrap(), expected);
    }

    #[test]
    fn a_move_that_takes_two_engines_waits_for_both_and_keeps_its_place() {
        let pool = ComputerPool::new(2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let gates: Vec<mpsc::Sender<()>> = [(1, 1), (2, 2), (3, 1)]
            .into_iter()
            .map(|(n, slots)| {
                let (release, released) = mpsc::channel::<()>();
                let order = order.clone();
                pool.submit(id(n), slots, move |_| {
                    order.lock().unwrap().push(n);
                    let _ = released.recv();
                });
                release
            })
            .collect();
        wait_until(|| pool.load().running == 1);
        // The first thinks on one engine; the second needs both and
        // waits; the third, which would fit, waits behind it.
        assert_eq!(pool.waiting(id(2)).map(|w| w.ahead), Some(0));
        assert_eq!(pool.waiting(id(3)).map(|w| w.ahead), Some(1));
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(*order.lock().unwrap(), [1]);
        gates[0].send(()).unwrap();
        wait_until(|| order.lock().unwrap().len() == 2);
        assert_eq!(
            pool.load(),
            PoolLoad {
                running: 1,
                waiting: 1
            }
        );
        gates[1].send(()).unwrap();
        wait_until(|| order.lock().unwrap().len() == 3);
        assert_eq!(*order.lock().unwrap(), [1, 2, 3]);
        gates[2].send(()).unwrap();
        // More than the pool has: clamped, it runs alone.
        let (done, finished) = mpsc::channel();
        pool.submit(id(4), 8, move |_| done.send(()).unwrap());
        finished
            .recv_timeout(Duration::from_secs(60))
            .expect("it ran");
    }

    #[test]
    fn a_panicking_job_costs_its_move_not_the_engine() {
        let pool = ComputerPool::new(1);
        pool.submit(id(1), 1, |_| panic!("a bug in a picker"));
        let (done, finished) = mpsc::channel();
        pool.submit(id(2), 1, move |_| done.send(()).unwrap());
        finished
            .recv_timeout(Duration::from_secs(60))
            .expect("the next job ran");
    }
}
