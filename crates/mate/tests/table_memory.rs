//! The solver's table keeps to the size asked (`koma mate --hash`, the
//! board's and USI's `USI_Hash`): measured by the allocator itself, in a
//! test binary of its own so that no other test's allocations count.
//! Reckoned at a flat 64 bytes an entry, the table once took two to three
//! times the size asked (a 4 GiB table grew the process to 9.3 GB; this
//! test's 4 MiB, 13.2 MB).

use koma_mate::{MateAnswer, MateLimits, Solver};
use koma_rules::{Position, StandardShogiPosition};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system's allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(block, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Microcosmos (a mate of 1,525 plies) fills any small table long before
/// its proof: the solver must forget, and stay within the size asked.
#[test]
fn a_full_table_stays_within_the_size_asked() {
    const MEGABYTES: usize = 4;
    let microcosmos = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/\
                       2P1+Ps2N/4+P1P1L/+B5G1g b - 1";
    let position = StandardShogiPosition::from_text(microcosmos).unwrap();
    let limits = MateLimits {
        nodes: Some(400_000),
        table_megabytes: MEGABYTES,
        ..MateLimits::default()
    };
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = Solver::new(MEGABYTES).solve(&position, &limits, None, None);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(matches!(report.answer, MateAnswer::Unknown));
    assert!(report.nodes >= 400_000, "{} nodes", report.nodes);
    // The table's share, with the allocator's headers (not counted here)
    // left out, and a little for the search's path and move lists.
    let allowed = MEGABYTES << 20;
    assert!(
        peak <= allowed + allowed / 8,
        "a {MEGABYTES} MiB table took {:.2} MiB at its peak",
        peak as f64 / f64::from(1 << 20)
    );
    // And the table was full: the test measures its limit, not a search
    // too short to reach it.
    assert!(
        peak >= allowed / 2,
        "the search took only {:.2} MiB",
        peak as f64 / f64::from(1 << 20)
    );
}
