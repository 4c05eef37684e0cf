//! The registered engines' processes: started when first needed, kept
//! warm between jobs, replaced when they die or hang, and stopped when
//! idle for a while. A process runs at its work's priority
//! ([`crate::priority`]), so the computer opponents' processes are apart
//! from the analyses'; a process goes back to the game it was told of
//! when it can, and is told `usinewgame` only when it changes game. How
//! many think at once is not decided here: an analysis holds its engine's
//! `threads` permits of the analyses' pool while it has a process lent
//! (see `study::analysis`), a computer's move one of the computer
//! opponents' engines.

use super::registry::ExternalEngine;
use crate::priority::Work;
use koma_rules::Variant;
use koma_usi::client::{Engine, EngineConfig};
use koma_usi::{HandshakeStep, StartError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// The engines people registered and their processes.
pub struct ExternalEngines {
    engines: Vec<Arc<ExternalEngine>>,
    /// Processes between jobs, the most recently used last.
    idle: Mutex<Vec<Warm>>,
    /// How long a process may wait for a job before it is stopped.
    idle_limit: Duration,
    /// Each engine's processes started since the server started (a
    /// measure of restarts), and the name it gives itself (`id name`).
    started: Mutex<BTreeMap<String, Started>>,
}

/// What is known of one engine's processes.
#[derive(Clone, Debug, Default)]
struct Started {
    count: u64,
    id_name: Option<String>,
}

/// A registered engine as `GET /api/engines` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineJson {
    /// Its name, to ask for it by.
    pub name: String,
    /// The name it gives itself (`id name`), once it has started.
    #[serde(rename = "idName", skip_serializing_if = "Option::is_none")]
    pub id_name: Option<String>,
    /// Whether it is Koma's own.
    #[serde(rename = "builtIn")]
    pub built_in: bool,
    /// The games it plays.
    pub games: Vec<&'static str>,
    /// The cores one of its analyses takes.
    pub threads: u32,
    /// Its processes waiting for a job now.
    pub warm: usize,
    /// Its processes started since the server started.
    pub started: u64,
}

/// What a process is lent for.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The work, whose priority the process runs at.
    pub work: Work,
    /// The game it is about (its id): a process told of this game already
    /// is not told `usinewgame` again, and keeps what it learnt of it.
    pub game: &'a str,
}

/// A process between jobs.
struct Warm {
    name: String,
    variant: Variant,
    work: Work,
    /// The game it was last told of.
    game: String,
    engine: Engine,
    since: Instant,
}

impl ExternalEngines {
    /// The pool of `engines`, whose processes stop after `idle_limit`
    /// without a job (checked by a thread that ends with the pool).
    pub fn new(engines: Vec<ExternalEngine>, idle_limit: Duration) -> Arc<ExternalEngines> {
        let pool = Arc::new(ExternalEngines {
            engines: engines.into_iter().map(Arc::new).collect(),
            idle: Mutex::new(Vec::new()),
            idle_limit,
            started: Mutex::new(BTreeMap::new()),
        });
        if !pool.engines.is_empty() {
            let weak = Arc::downgrade(&pool);
            let every = (idle_limit / 4).clamp(Duration::from_millis(50), Duration::from_secs(10));
            let _ = std::thread::Builder::new()
                .name("engines-idle".into())
                .spawn(move || stop_idle_until_dropped(weak, every));
        }
        pool
    }

    /// No engine registered: Koma's own alone (the unit tests').
    #[cfg(test)]
    pub fn none() -> Arc<ExternalEngines> {
        ExternalEngines::new(Vec::new(), Duration::from_secs(300))
    }

    /// The registered engine named `name`.
    pub fn find(&self, name: &str) -> Option<&Arc<ExternalEngine>> {
        self.engines.iter().find(|engine| engine.name == name)
    }

    /// The registered engine named `name` if it plays `variant`; else the
    /// sentence that says which engines the server has, or that it does
    /// not play the game.
    pub fn for_game(&self, name: &str, variant: Variant) -> Result<&Arc<ExternalEngine>, String> {
        let engine = self.find(name).ok_or_else(|| {
            let mut names = vec![super::registry::BUILT_IN.to_owned()];
            names.extend(self.engines.iter().map(|e| e.name.clone()));
            format!(
                "No engine is named {:?}: this server has {}.",
                name.chars().take(32).collect::<String>(),
                names.join(", ")
            )
        })?;
        if engine.variants.contains(&variant) {
            Ok(engine)
        } else {
            Err(format!(
                "The engine {name} does not play {}.",
                variant.name()
            ))
        }
    }

    /// Koma's own engine, then each registered one, as the API shows them.
    pub fn list(&self) -> Vec<EngineJson> {
        let started = self.started.lock().map(|s| s.clone()).unwrap_or_default();
        let idle: Vec<String> = self
            .idle
            .lock()
            .map(|idle| idle.iter().map(|w| w.name.clone()).collect())
            .unwrap_or_default();
        let own = EngineJson {
            name: super::registry::BUILT_IN.to_owned(),
            id_name: None,
            built_in: true,
            games: Variant::ALL.iter().map(|v| v.name()).collect(),
            threads: 1,
            warm: 0,
            started: 0,
        };
        let registered = self.engines.iter().map(|engine| {
            let known = started.get(&engine.name).cloned().unwrap_or_default();
            EngineJson {
                name: engine.name.clone(),
                id_name: known.id_name,
                built_in: false,
                games: engine.variants.iter().map(|v| v.name()).collect(),
                threads: engine.threads,
                warm: idle.iter().filter(|name| **name == engine.name).count(),
                started: known.count,
            }
        });
        std::iter::once(own).chain(registered).collect()
    }

    /// Starts each engine once on its first game and keeps the process
    /// warm: an engine that cannot start (a wrong command, a handshake it
    /// fails) is named before anyone is told to connect.
    pub fn start_each(self: &Arc<Self>) -> Result<(), StartError> {
        for engine in &self.engines {
            let job = Job {
                work: Work::Study,
                game: "",
            };
            let lent = self.lend(engine, engine.variants[0], job)?;
            drop(lent);
        }
        Ok(())
    }

    /// A process of `engine` set up for `variant`, ready for `job`: a warm
    /// one if there is one (the one last told of the job's game if it is
    /// there, else another told `usinewgame`; one that does not answer is
    /// replaced), else a new one. Blocks while a process starts.
    pub fn lend(
        self: &Arc<Self>,
        engine: &Arc<ExternalEngine>,
        variant: Variant,
        job: Job<'_>,
    ) -> Result<LentEngine, StartError> {
        loop {
            let warm = self.idle.lock().ok().and_then(|mut idle| {
                let fits =
                    |w: &Warm| w.name == engine.name && w.variant == variant && w.work == job.work;
                let index = idle
                    .iter()
                    .rposition(|w| fits(w) && w.game == job.game)
                    .or_else(|| idle.iter().rposition(fits))?;
                Some(idle.remove(index))
            });
            let Some(mut warm) = warm else { break };
            // Alive (`isready`), and told of the new game if it changes.
            let ready = if warm.game == job.game {
                warm.engine.ready()
            } else {
                warm.engine.new_game()
            };
            if ready.is_ok() {
                return Ok(self.lent(engine, variant, job, warm.engine));
            }
            // Died or hung while waiting: dropped (killed), and the next tried.
        }
        let label = format!("{}/{}", engine.name, variant.name());
        let config = EngineConfig {
            nice: Some(job.work.nice()),
            ..engine.config.clone()
        };
        let mut process = Engine::start(&config, variant, &label, None)?;
        if let Ok(mut started) = self.started.lock() {
            let known = started.entry(engine.name.clone()).or_default();
            known.count += 1;
            known.id_name = process.id_name.clone().or(known.id_name.take());
        }
        process.new_game().map_err(|failure| {
            StartError::during(&label, &config.program, HandshakeStep::IsReady, failure)
        })?;
        Ok(self.lent(engine, variant, job, process))
    }

    fn lent(
        self: &Arc<Self>,
        engine: &Arc<ExternalEngine>,
        variant: Variant,
        job: Job<'_>,
        process: Engine,
    ) -> LentEngine {
        LentEngine {
            pool: self.clone(),
            name: engine.name.clone(),
            variant,
            work: job.work,
            game: job.game.to_owned(),
            process: Some(process),
        }
    }

    /// Tells `name`'s computer-opponent processes that know `game` how it
    /// ended for the engine (`gameover win|lose|draw`), and makes them
    /// forget it: the next job is told `usinewgame`. A process thinking
    /// at that moment (the person resigned during its turn) is not told;
    /// its next game starts with `usinewgame` all the same.
    pub fn game_over(&self, name: &str, game: &str, result: &str) {
        let Ok(mut idle) = self.idle.lock() else {
            return;
        };
        for warm in idle.iter_mut() {
            if warm.name == name && warm.work == Work::Opponent && warm.game == game {
                warm.engine.game_over(result);
                warm.game.clear();
            }
        }
    }

    /// Stops the processes idle past the limit.
    fn stop_idle(&self) {
        let stale: Vec<Warm> = match self.idle.lock() {
            Ok(mut idle) => {
                let (stale, fresh) = idle
                    .drain(..)
                    .partition(|w| w.since.elapsed() >= self.idle_limit);
                *idle = fresh;
                stale
            }
            Err(_) => return,
        };
        for warm in stale {
            warm.engine.quit();
        }
    }
}

fn stop_idle_until_dropped(pool: Weak<ExternalEngines>, every: Duration) {
    loop {
        std::thread::sleep(every);
        match pool.upgrade() {
            Some(pool) => pool.stop_idle(),
            None => return,
        }
    }
}

/// A process lent to a job: back among the warm ones when dropped, unless
/// the job found it broken ([`LentEngine::broken`]), in which case it is
/// killed and the next job starts another.
pub struct LentEngine {
    pool: Arc<ExternalEngines>,
    name: String,
    variant: Variant,
    work: Work,
    game: String,
    process: Option<Engine>,
}

impl LentEngine {
    /// The process.
    pub fn process(&mut self) -> &mut Engine {
        self.process
            .as_mut()
            .expect("a lent engine has its process until dropped")
    }

    /// The process died, hung or talked nonsense: kill it rather than
    /// keep it.
    pub fn broken(mut self) {
        drop(self.process.take());
    }
}

impl Drop for LentEngine {
    fn drop(&mut self) {
        let Some(engine) = self.process.take() else {
            return;
        };
        if let Ok(mut idle) = self.pool.idle.lock() {
            idle.push(Warm {
                name: std::mem::take(&mut self.name),
                variant: self.variant,
                work: self.work,
                game: std::mem::take(&mut self.game),
                engine,
                since: Instant::now(),
            });
        }
    }
}
