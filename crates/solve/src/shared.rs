//! One perfect player of 8×8 Pawns-Only Chess shared by threads: made at
//! its first question from the table shipped with Koma, asked by one
//! thread at a time, and (when asked to) let go after a while without a
//! question, so that a program that once played perfectly does not hold
//! its table for good. The board's computer opponent (`koma serve`) and
//! UCI's `Perfect` option (`koma uci`) both ask through it.

use crate::Perfect;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A perfect player made when first asked; see the module's text.
///
/// ```
/// use koma_rules::PawnsPosition;
/// use koma_solve::SharedPerfect;
/// use std::time::Duration;
///
/// let shared = SharedPerfect::new(16 << 20);
/// assert!(!shared.is_loaded());
/// let start = PawnsPosition::from_fen("8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").unwrap();
/// let (chosen, fresh) = shared.with(|player, loaded| {
///     (player.choose_within(&start, Duration::from_secs(60)), loaded.is_some())
/// });
/// // The shipped table knows White's winning first move.
/// assert_eq!(chosen.unwrap().unwrap().uci, "b2b4");
/// assert!(fresh && shared.is_loaded());
/// ```
pub struct SharedPerfect {
    held: Arc<Mutex<Option<Held>>>,
    table_bytes: usize,
    /// How long it is kept without a question, and what to call once it
    /// is let go; `None`: kept until dropped.
    letting_go: Option<(Duration, fn())>,
}

/// The player and when it last answered.
struct Held {
    player: Perfect<8>,
    last_used: Instant,
}

fn lock(held: &Mutex<Option<Held>>) -> MutexGuard<'_, Option<Held>> {
    held.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SharedPerfect {
    /// A player over a table of `table_bytes`, made at the first question
    /// and kept until this is dropped.
    pub fn new(table_bytes: usize) -> SharedPerfect {
        SharedPerfect {
            held: Arc::new(Mutex::new(None)),
            table_bytes,
            letting_go: None,
        }
    }

    /// The same, let go once no question has come for `idle` (checked by
    /// a thread that ends with it); `released` is called after, to give
    /// the memory back to the system if the allocator keeps it.
    pub fn letting_go_after(self, idle: Duration, released: fn()) -> SharedPerfect {
        SharedPerfect {
            letting_go: Some((idle, released)),
            ..self
        }
    }

    /// Runs `ask` with the player, once no other thread is asking. If
    /// there was none, it is made first from the shipped table, and `ask`
    /// is also given what that brought: the count of positions read, or
    /// why the table could not be read (the player then proves
    /// everything itself).
    pub fn with<R>(
        &self,
        ask: impl FnOnce(&mut Perfect<8>, Option<Result<usize, String>>) -> R,
    ) -> R {
        let mut guard = lock(&self.held);
        let mut loaded = None;
        if guard.is_none() {
            let (player, table) = Perfect::shipped(self.table_bytes);
            loaded = Some(table);
            *guard = Some(Held {
                player,
                last_used: Instant::now(),
            });
            self.watch_idle();
        }
        let held = guard.as_mut().expect("made above");
        let answer = ask(&mut held.player, loaded);
        held.last_used = Instant::now();
        answer
    }

    /// Whether the player (and its table) is held now.
    pub fn is_loaded(&self) -> bool {
        lock(&self.held).is_some()
    }

    /// Starts the thread that lets the player go once it has been idle
    /// long enough, if it is to be let go.
    fn watch_idle(&self) {
        let Some((idle, released)) = self.letting_go else {
            return;
        };
        let held = Arc::downgrade(&self.held);
        let watcher = std::thread::Builder::new().name("perfect-idle".into());
        let started = watcher.spawn(move || loop {
            std::thread::sleep(idle / 4);
            // The shared player itself is gone: nothing to watch.
            let Some(held) = held.upgrade() else { return };
            let mut guard = lock(&held);
            match guard.as_ref() {
                Some(h) if h.last_used.elapsed() < idle => {}
                _ => {
                    // Dropped under the lock: a question that comes now
                    // waits, then makes the player again.
                    *guard = None;
                    drop(guard);
                    released();
                    return;
                }
            }
        });
        if let Err(e) = started {
            // The player then stays loaded, as if it were never let go.
            eprintln!("koma: cannot watch the perfect player's idle time: {e}");
        }
    }
}
