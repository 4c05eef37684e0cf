//! The job queue in the server's memory (`--memory`, and the tests): the
//! jobs are lost when it stops.

use super::queue::{
    millis, random_hex, JobKind, JobQueue, JobSpec, JobState, JobStatus, Leased, QueueError,
    KEEP_FINISHED,
};
use crate::games::clock::now_ms;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

struct Job {
    id: String,
    spec: JobSpec,
    state: JobState,
    lease: Option<String>,
    /// Milliseconds since 1970 when the lease runs out, or when a finished
    /// job is forgotten.
    until: i64,
    done: usize,
    error: Option<String>,
    answer: Option<String>,
}

impl Job {
    fn status(&self) -> JobStatus {
        JobStatus {
            state: self.state,
            done: self.done,
            total: self.spec.total(),
            error: self.error.clone(),
            answer: self.answer.clone(),
        }
    }

    /// Whether `lease` is this job's live lease at `now`.
    fn held_by(&self, lease: &str, now: i64) -> bool {
        self.state == JobState::Leased && self.lease.as_deref() == Some(lease) && self.until >= now
    }
}

/// Jobs in memory, oldest first.
#[derive(Default)]
pub struct MemoryJobs {
    jobs: Mutex<Vec<Job>>,
}

impl MemoryJobs {
    /// No jobs yet.
    pub fn new() -> MemoryJobs {
        MemoryJobs::default()
    }

    fn jobs(&self) -> MutexGuard<'_, Vec<Job>> {
        // A panic elsewhere leaves the list whole: each change is one step.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn find<'a>(jobs: &'a mut [Job], id: &str) -> Result<&'a mut Job, QueueError> {
    jobs.iter_mut()
        .find(|job| job.id == id)
        .ok_or_else(|| QueueError::NoJob(id.to_owned()))
}

fn held<'a>(jobs: &'a mut [Job], id: &str, lease: &str) -> Result<&'a mut Job, QueueError> {
    let job = find(jobs, id)?;
    if !job.held_by(lease, now_ms()) {
        return Err(QueueError::LeaseLost(id.to_owned()));
    }
    Ok(job)
}

impl JobQueue for MemoryJobs {
    fn push(&self, spec: JobSpec) -> Result<String, QueueError> {
        let id = random_hex()?;
        let now = now_ms();
        let mut jobs = self.jobs();
        jobs.retain(|job| !(job.state.is_over() && job.until < now));
        jobs.push(Job {
            id: id.clone(),
            spec,
            state: JobState::Queued,
            lease: None,
            until: 0,
            done: 0,
            error: None,
            answer: None,
        });
        Ok(id)
    }

    fn take(
        &self,
        _worker: &str,
        lease: Duration,
        kinds: &[JobKind],
    ) -> Result<Option<Leased>, QueueError> {
        let now = now_ms();
        let secret = random_hex()?;
        let mut jobs = self.jobs();
        let free = |job: &&mut Job| {
            kinds.contains(&job.spec.kind)
                && (job.state == JobState::Queued
                    || (job.state == JobState::Leased && job.until < now))
        };
        // Mate searches and analyses first: someone watches each on the
        // board.
        let mut free_jobs: Vec<&mut Job> = jobs.iter_mut().filter(|job| free(job)).collect();
        let first = free_jobs
            .iter()
            .position(|job| job.spec.kind != JobKind::Review)
            .unwrap_or(0);
        if free_jobs.is_empty() {
            return Ok(None);
        }
        let job = free_jobs.swap_remove(first);
        job.state = JobState::Leased;
        job.lease = Some(secret.clone());
        job.until = now.saturating_add(millis(lease));
        job.done = 0;
        // An earlier holder's lines are not this one's.
        job.answer = None;
        Ok(Some(Leased {
            id: job.id.clone(),
            lease: secret,
            spec: job.spec.clone(),
        }))
    }

    fn progress(
        &self,
        id: &str,
        lease: &str,
        done: usize,
        answer: Option<String>,
        duration: Duration,
    ) -> Result<(), QueueError> {
        let mut jobs = self.jobs();
        let job = held(&mut jobs, id, lease)?;
        job.done = done.min(job.spec.total());
        if answer.is_some() {
            job.answer = answer;
        }
        job.until = now_ms().saturating_add(millis(duration));
        Ok(())
    }

    fn held(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        let mut jobs = self.jobs();
        Ok(held(&mut jobs, id, lease)?.spec.clone())
    }

    fn finish(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        let mut jobs = self.jobs();
        let job = held(&mut jobs, id, lease)?;
        job.state = JobState::Saving;
        job.lease = None;
        job.done = job.spec.total();
        Ok(job.spec.clone())
    }

    fn release(&self, id: &str, lease: &str) -> Result<(), QueueError> {
        let mut jobs = self.jobs();
        let job = held(&mut jobs, id, lease)?;
        job.state = JobState::Queued;
        job.lease = None;
        job.done = 0;
        job.answer = None;
        Ok(())
    }

    fn complete(
        &self,
        id: &str,
        answer: Option<String>,
        error: Option<String>,
    ) -> Result<(), QueueError> {
        let mut jobs = self.jobs();
        let job = find(&mut jobs, id)?;
        if job.state == JobState::Saving {
            job.state = if error.is_some() {
                JobState::Failed
            } else {
                JobState::Done
            };
            job.error = error;
            job.answer = answer;
            job.until = now_ms().saturating_add(millis(KEEP_FINISHED));
        }
        Ok(())
    }

    fn cancel(&self, id: &str) -> Result<(), QueueError> {
        let mut jobs = self.jobs();
        let job = find(&mut jobs, id)?;
        if matches!(job.state, JobState::Queued | JobState::Leased) {
            job.state = JobState::Cancelled;
            job.lease = None;
            job.until = now_ms().saturating_add(millis(KEEP_FINISHED));
        }
        Ok(())
    }

    fn status(&self, id: &str) -> Result<Option<JobStatus>, QueueError> {
        Ok(self.jobs().iter().find(|job| job.id == id).map(Job::status))
    }
}
