//! The queue of jobs (game reviews, mate searches and analyses), as a seam: kept in memory
//! ([`super::memory_jobs`]), in the SQLite games file
//! ([`super::sqlite_jobs`]) or in PostgreSQL ([`super::postgres_jobs`],
//! shared by several servers).
//!
//! A job is queued, then leased to one worker at a time: the lease lasts
//! until its deadline, which each progress report pushes back. A job whose
//! lease ran out goes to the next worker that asks, and its old holder's
//! reports are refused. Its result is taken once ([`JobQueue::finish`]
//! succeeds for one lease only); the review is then kept with the game,
//! and the job ends `done` (or `failed` if the game changed meanwhile).

use std::time::Duration;

/// What a job asks for; in the protocol, its word (`"review"`, `"mate"`,
/// `"analysis"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// A game review: every position of a game, at a node budget each.
    /// A job that names no kind (from a server before mate searches) is
    /// one.
    #[default]
    Review,
    /// A mate search ("Find mate") on one position, for some seconds.
    Mate,
    /// The board's live analysis of one position: its best lines, for
    /// some seconds, reported as they deepen.
    Analysis,
}

impl JobKind {
    /// Every kind, as a worker that does all asks for them.
    pub const ALL: [JobKind; 3] = [JobKind::Review, JobKind::Mate, JobKind::Analysis];

    /// Its word in a database row and in the protocol.
    pub fn word(self) -> &'static str {
        match self {
            JobKind::Review => "review",
            JobKind::Mate => "mate",
            JobKind::Analysis => "analysis",
        }
    }

    /// The kind a word names.
    pub fn from_word(word: &str) -> Option<JobKind> {
        JobKind::ALL.into_iter().find(|kind| kind.word() == word)
    }
}

/// A job to do: a review of one game's positions, a mate search on one
/// position (`position`, no `moves`), or an analysis of the position
/// after `moves` from `position` (the moves give the engine the history
/// that repetitions need).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobSpec {
    /// Review or mate search.
    pub kind: JobKind,
    /// The game's id.
    pub game: String,
    /// `spear`, `minishogi`, `shogi` or `pawns`.
    pub variant: String,
    /// The start position (SFEN or FEN).
    pub position: String,
    /// The moves, USI/UCI.
    pub moves: Vec<String>,
    /// Nodes per position of a review; the most nodes of a mate search
    /// (0: no bound but the time).
    pub nodes: u64,
    /// The seconds a mate search or an analysis runs (0 for a review).
    pub seconds: u64,
    /// The best lines an analysis reports (MultiPV); 0 for other kinds.
    pub lines: u32,
}

impl JobSpec {
    /// Positions to judge: one more than the moves (one, a mate search's).
    pub fn total(&self) -> usize {
        total(self.kind, self.moves.len())
    }
}

/// Positions a job of `kind` with `moves` moves judges.
pub fn total(kind: JobKind, moves: usize) -> usize {
    match kind {
        JobKind::Review => moves + 1,
        JobKind::Mate | JobKind::Analysis => 1,
    }
}

/// A job a worker now holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leased {
    /// The job's id.
    pub id: String,
    /// The lease's secret.
    pub lease: String,
    /// What to do.
    pub spec: JobSpec,
}

/// Where a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    /// Waiting for a worker (or its last lease ran out).
    Queued,
    /// A worker holds it.
    Leased,
    /// Its result was taken; the review (or mate answer) is being kept.
    Saving,
    /// The review (or the mate answer) is kept.
    Done,
    /// It cannot be done (the game changed); see the status's error.
    Failed,
    /// The person who asked for it stopped it.
    Cancelled,
}

impl JobState {
    /// Its word in a database row.
    pub fn word(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Leased => "leased",
            JobState::Saving => "saving",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    /// The state a row's word names.
    pub fn from_word(word: &str) -> Option<JobState> {
        [
            JobState::Queued,
            JobState::Leased,
            JobState::Saving,
            JobState::Done,
            JobState::Failed,
            JobState::Cancelled,
        ]
        .into_iter()
        .find(|state| state.word() == word)
    }

    /// Whether nothing more happens to the job.
    pub fn is_over(self) -> bool {
        matches!(
            self,
            JobState::Done | JobState::Failed | JobState::Cancelled
        )
    }
}

/// A job's state and progress, as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobStatus {
    /// Where it stands.
    pub state: JobState,
    /// Positions judged, as last reported.
    pub done: usize,
    /// Positions to judge.
    pub total: usize,
    /// Why it failed.
    pub error: Option<String>,
    /// A done mate search's answer, or an analysis's lines so far (and
    /// at the end): checked, as the protocol's JSON.
    pub answer: Option<String>,
}

/// Why the queue refused a call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueueError {
    /// No such job (or it is long over and forgotten).
    #[error("There is no job {0}.")]
    NoJob(String),
    /// The caller's lease is not the job's live one: it ran out (and the
    /// job may be another worker's now), or the job is over.
    #[error("The lease on job {0} is no longer held: it ran out, or the job is over.")]
    LeaseLost(String),
    /// The store failed.
    #[error("The job queue failed: {0}")]
    Failed(String),
}

/// Milliseconds of a lease.
pub fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// The job queue. Calls may block on a database: call them off the
/// runtime's async threads.
pub trait JobQueue: Send + Sync {
    /// Queues `spec`; its id.
    fn push(&self, spec: JobSpec) -> Result<String, QueueError>;

    /// Leases the oldest job of one of `kinds` waiting (or whose lease
    /// ran out) to `worker` for `lease`, if there is one; mate searches
    /// and analyses before reviews, as someone watches each on the board.
    fn take(
        &self,
        worker: &str,
        lease: Duration,
        kinds: &[JobKind],
    ) -> Result<Option<Leased>, QueueError>;

    /// Records `done` positions on job `id` under `lease` (and an
    /// analysis's checked lines so far, `answer`, when some) and renews
    /// the lease for `duration`.
    fn progress(
        &self,
        id: &str,
        lease: &str,
        done: usize,
        answer: Option<String>,
        duration: Duration,
    ) -> Result<(), QueueError>;

    /// The job `id` holds under `lease`, while that lease lives.
    fn held(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError>;

    /// Takes the result of job `id` under `lease`: succeeds once, for a
    /// live lease only; the job is then `Saving`.
    fn finish(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError>;

    /// Gives job `id` back to the queue (its holder sent garbage).
    fn release(&self, id: &str, lease: &str) -> Result<(), QueueError>;

    /// Ends a `Saving` job: `Done` (a mate search's or an analysis's
    /// with its `answer`), or `Failed` with `error`.
    fn complete(
        &self,
        id: &str,
        answer: Option<String>,
        error: Option<String>,
    ) -> Result<(), QueueError>;

    /// Cancels job `id` unless it is over.
    fn cancel(&self, id: &str) -> Result<(), QueueError>;

    /// Where job `id` stands; `None` if there is no such job.
    fn status(&self, id: &str) -> Result<Option<JobStatus>, QueueError>;
}

/// A new job id or lease secret: 16 random bytes in hex.
pub fn random_hex() -> Result<String, QueueError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| QueueError::Failed(format!("no random numbers: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// How long a finished job's status is kept for its watcher to read.
pub const KEEP_FINISHED: Duration = Duration::from_secs(600);
