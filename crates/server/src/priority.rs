//! How the server's work shares the cores (Linux nice values, the lower
//! the sooner): the requests first, then the computer opponents' moves,
//! then analysis, review and mate search. A person's move never waits for
//! a search, and a game against the computer never waits for someone's
//! analysis. Koma's own searches run on threads set here; the engines
//! people register run as processes started at the same values.

/// The work a thread or an engine's process does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Work {
    /// A computer opponent's move.
    Opponent,
    /// Analysis, review or mate search.
    Study,
}

impl Work {
    /// Its nice value: the requests' threads keep 0.
    pub fn nice(self) -> i32 {
        match self {
            Work::Opponent => 10,
            Work::Study => 19,
        }
    }

    /// Runs the calling thread at this work's priority (Linux: the nice
    /// value of this thread alone; elsewhere nothing).
    pub fn lower_this_thread(self) {
        #[cfg(target_os = "linux")]
        // SAFETY: setpriority only reads its arguments; on Linux,
        // PRIO_PROCESS with 0 names the calling thread.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, self.nice());
        }
    }
}
