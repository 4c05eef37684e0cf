//! One engine: its process, the USI or UCI conversation with it, and the
//! defences against engines that print garbage, crash or hang.

use crate::client::info::{InfoLine, Score};
use crate::client::EngineConfig;
use crate::{Dialect, HandshakeStep, StartError};
use koma_rules::Variant;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to say `usiok`/`uciok` or `readyok`: enough
/// to load a large network or allocate a large hash table.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine told `stop` after its time ran out may take to answer
/// before it counts as hung and is replaced.
const STOP_TIMEOUT: Duration = Duration::from_secs(1);
/// How long an engine told `quit` may take to exit before it is killed.
const QUIT_TIMEOUT: Duration = Duration::from_millis(500);
/// Longer lines are cut: an engine's output must not fill the memory.
const LINE_LIMIT: usize = 64 * 1024;

/// Where the protocol traffic is copied (`--log`), shared by all engines.
pub type TrafficLog = Arc<Mutex<Box<dyn Write + Send>>>;

/// A line from the engine and when it was read.
type Timed = (Instant, String);

/// The pipes to an engine: a process, or in tests a thread.
pub struct Connection {
    input: Box<dyn Write + Send>,
    output: Receiver<Timed>,
    child: Option<Child>,
}

impl Connection {
    /// Starts the engine's process. Its standard error goes to `log`
    /// (marked `!`) if there is one, else nowhere: an engine's diagnostics
    /// would scramble the progress display.
    pub fn spawn(
        config: &EngineConfig,
        label: &str,
        log: Option<TrafficLog>,
    ) -> io::Result<Connection> {
        let mut command = Command::new(&config.program);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        if let Some(nice) = config.nice {
            use std::os::unix::process::CommandExt;
            // SAFETY: between fork and exec only setpriority runs, a
            // system call that allocates nothing and takes no lock. The
            // threads the engine starts later inherit its priority.
            unsafe {
                command.pre_exec(move || {
                    libc::setpriority(libc::PRIO_PROCESS, 0, nice);
                    Ok(())
                });
            }
        }
        let mut child = command.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        if let (Some(stderr), Some(log)) = (child.stderr.take(), log) {
            let label = label.to_owned();
            let (sender, lines) = mpsc::channel::<Timed>();
            std::thread::spawn(move || read_lines(stderr, sender));
            std::thread::spawn(move || {
                for (_, line) in lines {
                    if let Ok(mut log) = log.lock() {
                        let _ = writeln!(log, "{label} ! {line}");
                    }
                }
            });
        }
        let (sender, output) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, sender));
        Ok(Connection {
            input: Box::new(stdin),
            output,
            child: Some(child),
        })
    }

    /// A connection to an engine that is not a process: lines written go to
    /// `input`, lines it prints come from `output`. When the engine drops its
    /// sender, it has crashed. Tests run a fake engine in a thread this way.
    pub fn in_process(input: Sender<String>, output: Receiver<String>) -> Connection {
        let (sender, timed) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output {
                if sender.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Connection {
            input: Box::new(LineSender {
                sender: Some(input),
                pending: Vec::new(),
            }),
            output: timed,
            child: None,
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Reads an engine's output line by line, each stamped with the time it
/// arrived, until the pipe closes.
fn read_lines(stdout: impl Read, sender: Sender<Timed>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_capped_line(&mut reader, &mut line) {
            Ok(true) => {}
            Ok(false) | Err(_) => return,
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
        if sender.send((Instant::now(), text)).is_err() {
            return;
        }
    }
}

/// Reads up to a line end, keeping at most [`LINE_LIMIT`] bytes; false at
/// the end of the output.
fn read_capped_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    let mut read_any = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        let room = LINE_LIMIT.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let consumed = done.unwrap_or(buffer.len());
        reader.consume(consumed);
        if done.is_some() {
            return Ok(true);
        }
    }
}

/// Lines written to an in-process engine.
struct LineSender {
    sender: Option<Sender<String>>,
    pending: Vec<u8>,
}

impl Write for LineSender {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            let sent = self.sender.as_ref().map(|s| s.send(text));
            if !matches!(sent, Some(Ok(()))) {
                self.sender = None;
                return Err(io::ErrorKind::BrokenPipe.into());
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, as written (not yet checked).
    Move(String),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: a declaration of a win by impasse (USI).
    Win,
    /// `bestmove (none)` or `0000`, or nothing after `bestmove`.
    NoMove,
}

/// The engine's move and what it said while thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// Its answer.
    pub best: BestMove,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last score it reported.
    pub score: Option<Score>,
    /// The depth of that report.
    pub depth: Option<u32>,
    /// The principal variation of the last report that had one, moves as
    /// the engine wrote them (the CSA client sends it as a comment).
    pub pv: Vec<String>,
}

pub use crate::Failure;

/// A running engine after the handshake.
pub struct Engine {
    connection: Connection,
    dialect: Dialect,
    /// The name it gave (`id name`).
    pub id_name: Option<String>,
    /// A short label for the traffic log.
    label: String,
    log: Option<TrafficLog>,
}

impl Engine {
    /// Starts the engine of `config` and sets it up for `variant`.
    pub fn start(
        config: &EngineConfig,
        variant: Variant,
        label: &str,
        log: Option<TrafficLog>,
    ) -> Result<Engine, StartError> {
        let connection =
            Connection::spawn(config, label, log.clone()).map_err(|source| StartError::Spawn {
                program: config.program.clone(),
                source,
            })?;
        Engine::connect(connection, config, variant, label, log)
    }

    /// Sets up an engine already connected: `usi`/`uci`, its options, then
    /// the game (`USI_Variant` or `UCI_Variant` after the other options, so
    /// that a `VariantPath` comes first as Fairy-Stockfish needs), then
    /// `isready`.
    pub fn connect(
        connection: Connection,
        config: &EngineConfig,
        variant: Variant,
        label: &str,
        log: Option<TrafficLog>,
    ) -> Result<Engine, StartError> {
        let dialect = config
            .protocol
            .unwrap_or_else(|| Dialect::default_for(variant));
        let mut engine = Engine {
            connection,
            dialect,
            id_name: None,
            label: label.to_owned(),
            log,
        };
        let fail = |step: HandshakeStep, failure: Failure| {
            StartError::during(label, &config.program, step, failure)
        };
        let hello = dialect.command();
        let greeting = HandshakeStep::Hello(dialect);
        engine.send(hello).map_err(|f| fail(greeting, f))?;
        let ok = format!("{hello}ok");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut id_name = None;
        engine
            .wait_for(deadline, |line| {
                if let Some(name) = line.strip_prefix("id name ") {
                    id_name = Some(name.trim().to_owned());
                }
                line == ok
            })
            .map_err(|f| fail(greeting, f))?;
        engine.id_name = id_name;
        let variant_option = match dialect {
            Dialect::Usi => "USI_Variant",
            Dialect::Uci => "UCI_Variant",
        };
        // The game goes last whoever names it, after a VariantPath.
        let (mut options, told): (Vec<_>, Vec<_>) = config
            .options
            .iter()
            .cloned()
            .partition(|(name, _)| name != variant_option);
        if !told.is_empty() {
            options.extend(told);
        } else if variant != Variant::Shogi {
            options.push((variant_option.to_owned(), variant.name().to_owned()));
        }
        for (name, value) in &options {
            engine
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|f| fail(HandshakeStep::SetOption, f))?;
        }
        engine
            .ready()
            .map_err(|f| fail(HandshakeStep::IsReady, f))?;
        Ok(engine)
    }

    /// The protocol it speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn log(&self, direction: &str, line: &str) {
        if let Some(log) = &self.log {
            if let Ok(mut log) = log.lock() {
                let _ = writeln!(log, "{} {direction} {line}", self.label);
            }
        }
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.log(">", line);
        let input = &mut self.connection.input;
        input
            .write_all(line.as_bytes())
            .and_then(|()| input.write_all(b"\n"))
            .and_then(|()| input.flush())
            .map_err(|_| Failure::Crashed)
    }

    /// The next line before `deadline`.
    pub(super) fn receive(&mut self, deadline: Instant) -> Result<(Instant, String), Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.connection.output.recv_timeout(wait) {
            Ok(timed) => {
                self.log("<", &timed.1);
                Ok(timed)
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Crashed),
        }
    }

    /// Reads lines until one satisfies `wanted`.
    fn wait_for(
        &mut self,
        deadline: Instant,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<Instant, Failure> {
        loop {
            let (at, line) = self.receive(deadline)?;
            if wanted(line.trim()) {
                return Ok(at);
            }
        }
    }

    /// `isready`, answered by `readyok`: the engine is alive and idle.
    pub fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.wait_for(deadline, |line| line == "readyok")
            .map(|_| ())
    }

    /// Tells the engine a new game starts, and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.send(match self.dialect {
            Dialect::Usi => "usinewgame",
            Dialect::Uci => "ucinewgame",
        })?;
        self.ready()
    }

    /// Sends `position` and `go`, and reads until `bestmove`. `patience` is
    /// how long to wait for it; past that the engine lost on time and is
    /// left thinking (see [`Engine::recover`]).
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        patience: Duration,
    ) -> Result<Thought, Failure> {
        self.send(position)?;
        self.send(&format!("go {go}"))?;
        let start = Instant::now();
        let deadline = start + patience;
        let mut score = None;
        let mut depth = None;
        let mut pv = Vec::new();
        loop {
            let (at, line) = self.receive(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let Some(info) = InfoLine::parse(&line) else {
                        continue;
                    };
                    if info.score.is_some() {
                        score = info.score;
                        depth = info.depth.or(depth);
                    }
                    if !info.pv.is_empty() {
                        pv = info.pv;
                    }
                }
                Some("bestmove") => {
                    let best = match words.next() {
                        None | Some("(none)" | "0000" | "none") => BestMove::NoMove,
                        Some("resign") => BestMove::Resign,
                        Some("win") => BestMove::Win,
                        Some(text) => BestMove::Move(text.to_owned()),
                    };
                    return Ok(Thought {
                        best,
                        elapsed: at.saturating_duration_since(start),
                        score,
                        depth,
                        pv,
                    });
                }
                _ => {}
            }
        }
    }

    /// After a time-out: `stop`, and the late `bestmove` read and dropped.
    /// False if the engine does not answer (it is hung: replace it).
    pub fn recover(&mut self) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + STOP_TIMEOUT;
        self.wait_for(deadline, |line| line.starts_with("bestmove"))
            .is_ok()
    }

    /// Tells a USI engine how the game ended (`gameover win|lose|draw`);
    /// UCI has no such command.
    pub fn game_over(&mut self, result: &str) {
        if self.dialect == Dialect::Usi {
            let _ = self.send(&format!("gameover {result}"));
        }
    }

    /// `quit`, then the process is killed if it lingers.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_TIMEOUT;
        if let Some(child) = &mut self.connection.child {
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    self.connection.child = None;
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        // Dropping the connection kills what is left.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine that answers the handshake and reports what it was told.
    fn listening_engine() -> (Connection, mpsc::Receiver<String>) {
        let (to_engine, engine_input) = mpsc::channel::<String>();
        let (engine_output, from_engine) = mpsc::channel::<String>();
        let (heard, told) = mpsc::channel();
        std::thread::spawn(move || {
            for line in engine_input {
                // Heard before answered: the answer is what the test waits for.
                let _ = heard.send(line.clone());
                let answer = match line.as_str() {
                    "usi" => "id name Listener\nusiok",
                    "uci" => "uciok",
                    "isready" => "readyok",
                    _ => "",
                };
                for answer in answer.lines() {
                    let _ = engine_output.send(answer.to_owned());
                }
            }
        });
        (Connection::in_process(to_engine, from_engine), told)
    }

    #[test]
    fn the_game_is_set_after_the_other_options() {
        let config = EngineConfig::parse(&[
            "cmd=x".to_owned(),
            "option.USI_Variant=spear".to_owned(),
            "option.VariantPath=v.ini".to_owned(),
        ])
        .unwrap();
        let (connection, told) = listening_engine();
        let engine = Engine::connect(connection, &config, Variant::Spear, "e", None).unwrap();
        assert_eq!(engine.id_name.as_deref(), Some("Listener"));
        assert_eq!(engine.dialect(), Dialect::Usi);
        let lines: Vec<String> = told.try_iter().collect();
        assert_eq!(
            lines,
            [
                "usi",
                "setoption name VariantPath value v.ini",
                "setoption name USI_Variant value spear",
                "isready"
            ]
        );
        // Unnamed, the game is told for all but shogi.
        let plain = EngineConfig::parse(&["cmd=x".to_owned()]).unwrap();
        let (connection, told) = listening_engine();
        Engine::connect(connection, &plain, Variant::Pawns, "e", None).unwrap();
        let lines: Vec<String> = told.try_iter().collect();
        assert_eq!(
            lines,
            ["uci", "setoption name UCI_Variant value pawns", "isready"]
        );
        let (connection, told) = listening_engine();
        Engine::connect(connection, &plain, Variant::Shogi, "e", None).unwrap();
        assert_eq!(told.try_iter().collect::<Vec<_>>(), ["usi", "isready"]);
    }

    #[test]
    fn a_program_that_cannot_run_is_told_from_one_that_exits() {
        let missing = EngineConfig::parse(&["cmd=/nonexistent/koma-engine".to_owned()]).unwrap();
        match Engine::start(&missing, Variant::Shogi, "e", None) {
            Err(StartError::Spawn { program, source }) => {
                assert_eq!(program, "/nonexistent/koma-engine");
                assert_eq!(source.kind(), io::ErrorKind::NotFound);
            }
            other => panic!("{:?}", other.map(|engine| engine.id_name)),
        }
        // An engine that exits before `usiok`.
        let (to_engine, engine_input) = mpsc::channel::<String>();
        let (engine_output, from_engine) = mpsc::channel::<String>();
        drop((engine_input, engine_output));
        let config = EngineConfig::parse(&["cmd=gone".to_owned()]).unwrap();
        let connection = Connection::in_process(to_engine, from_engine);
        let error = Engine::connect(connection, &config, Variant::Shogi, "e", None)
            .err()
            .unwrap();
        assert!(
            matches!(
                error,
                StartError::Crashed {
                    step: HandshakeStep::Hello(Dialect::Usi),
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(error.to_string(), "e (gone): exited during usi");
    }

    #[test]
    fn long_lines_are_cut() {
        let mut text = vec![b'x'; LINE_LIMIT * 3];
        text.extend_from_slice(b"\nbestmove 7g7f\n");
        let mut reader = BufReader::with_capacity(1000, text.as_slice());
        let mut line = Vec::new();
        assert!(read_capped_line(&mut reader, &mut line).unwrap());
        assert_eq!(line.len(), LINE_LIMIT);
        line.clear();
        assert!(read_capped_line(&mut reader, &mut line).unwrap());
        assert_eq!(line, b"bestmove 7g7f");
        line.clear();
        assert!(!read_capped_line(&mut reader, &mut line).unwrap());
    }
}
