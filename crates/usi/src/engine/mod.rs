//! `koma usi` and `koma uci`: the engine for GUIs and match runners. USI
//! plays the shogi family (`USI_Variant` spear, minishogi, shogi), UCI plays
//! Pawns-Only Chess (`UCI_Variant` pawns). Both dialects share this loop;
//! they differ in names, in who `b` and `w` are, and in how mates count.

mod command;
mod output;
mod perfect;
mod session;

use crate::{Dialect, RunError};
use command::{Command, GoParams};
use koma_engine::{params, EngineOptions, Network, SearchControl, MAX_SKILL, MIN_SKILL};
use koma_mate::MateLimits;
use koma_rules::{ImpasseRule, Variant};
use output::Output;
use perfect::PerfectOption;
use session::{limits_of, new_session, PositionRefused, Session};
use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

const DEFAULT_HASH: usize = 64;
const MAX_HASH: usize = 8192;
/// `EvalFile`'s value for the networks built into Koma.
const EMBEDDED: &str = "<embedded>";
/// The most search threads `Threads` accepts.
const MAX_THREADS: usize = 64;

/// The protocol's state between commands.
struct Protocol {
    dialect: Dialect,
    variant: Variant,
    hash: usize,
    options: EngineOptions,
    session: Box<dyn Session>,
    search: Option<(JoinHandle<()>, SearchControl)>,
    output: Output,
    perfect: PerfectOption,
    /// The network `EvalFile` loaded (for its game only); `None`: each
    /// game's embedded network.
    eval_file: Option<Arc<Network>>,
    /// Why the last `position` was refused (a position without the
    /// defender's king, a bad move), until one is accepted: `go mate` then
    /// says so rather than solve the position before it.
    refused_position: Option<PositionRefused>,
}

/// Runs the protocol on standard input and output until `quit` or the end
/// of input, starting with `variant` (else shogi over USI, Pawns-Only Chess
/// over UCI); the GUI may change the game with `USI_Variant`/`UCI_Variant`.
pub fn run(dialect: Dialect, variant: Option<Variant>) -> Result<(), RunError> {
    let default = match dialect {
        Dialect::Usi => Variant::Shogi,
        Dialect::Uci => Variant::Pawns,
    };
    let variant = match variant {
        Some(variant) if variant_allowed(dialect, variant) => variant,
        Some(variant) => return Err(RunError::WrongProtocol { variant, dialect }),
        None => default,
    };
    let options = EngineOptions::default();
    let mut protocol = Protocol {
        dialect,
        variant,
        hash: DEFAULT_HASH,
        options,
        session: new_session(variant, DEFAULT_HASH, options, dialect),
        search: None,
        output: Output::default(),
        perfect: PerfectOption::default(),
        eval_file: None,
        refused_position: None,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buffer);
        match line.trim().parse::<Command>() {
            Ok(Command::Quit) => break,
            Ok(command) => protocol.handle(command),
            Err(error) => protocol.output.line(&format!("info string {error}")),
        }
    }
    protocol.finish_search(true);
    Ok(())
}

fn variant_allowed(dialect: Dialect, variant: Variant) -> bool {
    (dialect == Dialect::Uci) == (variant == Variant::Pawns)
}

/// Text shortened for quoting in a message.
pub fn shorten(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(LIMIT).collect::<String>())
    }
}

impl Protocol {
    fn say(&self, text: &str) {
        self.output.line(text);
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Hello => self.hello(),
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => {
                self.finish_search(true);
                self.set_option(&name, value.as_deref());
            }
            Command::NewGame => {
                self.finish_search(true);
                self.session.new_game();
            }
            Command::Position { setup, moves } => {
                self.finish_search(true);
                let set = self.session.set_position(setup.as_deref(), &moves);
                if let Err(error) = &set {
                    self.say(&format!("info string {error}"));
                }
                self.refused_position = set.err();
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.finish_search(true),
            Command::PonderHit => {
                if let Some((_, control)) = &self.search {
                    control.ponder_hit();
                }
            }
            Command::GameOver => self.finish_search(true),
            Command::Quit | Command::Nothing => {}
        }
    }

    fn hello(&self) {
        let (hash, ponder, variant, usi_ok) = match self.dialect {
            Dialect::Usi => ("USI_Hash", "USI_Ponder", "USI_Variant", "usiok"),
            Dialect::Uci => ("Hash", "Ponder", "UCI_Variant", "uciok"),
        };
        let variants: Vec<&str> = [
            Variant::Spear,
            Variant::Minishogi,
            Variant::Shogi,
            Variant::Pawns,
        ]
        .into_iter()
        .filter(|&v| variant_allowed(self.dialect, v))
        .map(|v| v.name())
        .collect();
        self.say(&format!("id name Koma {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Koma developers");
        self.say(&format!(
            "option name {hash} type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"
        ));
        self.say(&format!("option name {ponder} type check default false"));
        self.say(&format!(
            "option name {variant} type combo default {} {}",
            self.variant.name(),
            variants
                .iter()
                .map(|v| format!("var {v}"))
                .collect::<Vec<_>>()
                .join(" ")
        ));
        self.say(&format!(
            "option name Skill type spin default {MAX_SKILL} min {MIN_SKILL} max {MAX_SKILL}"
        ));
        self.say("option name MultiPV type spin default 1 min 1 max 64");
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.say(&format!(
            "option name MoveOverhead type spin default {} min 0 max 5000",
            EngineOptions::default().move_overhead.as_millis()
        ));
        self.say(
            "option name EnteringKingRule type combo default CSARule27 \
             var CSARule27 var CSARule24 var NoEnteringKing",
        );
        if self.dialect == Dialect::Usi {
            self.say("option name MateSolver type check default true");
            self.say("option name UseNNUE type check default true");
            self.say(&format!(
                "option name EvalFile type string default {EMBEDDED}"
            ));
        }
        self.say("option name Clear Hash type button");
        if params::TUNING {
            // A build for tuning (`--features tune`): the search's
            // parameters, for SPSA.
            for tunable in params::TUNABLES {
                self.say(&tunable.usi_option());
            }
        }
        if self.dialect == Dialect::Uci {
            self.say("option name Perfect type check default false");
            self.say("option name PerfectState type string default <empty>");
        }
        self.say(usi_ok);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let number = || value.and_then(|v| v.trim().parse::<u64>().ok());
        // A `check` option's value.
        let boolean = || match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        };
        let key = name.to_ascii_lowercase().replace([' ', '_'], "");
        match key.as_str() {
            "usivariant" | "ucivariant" => match value.map(str::parse::<Variant>) {
                Some(Ok(variant)) if variant_allowed(self.dialect, variant) => {
                    self.variant = variant;
                    self.session = new_session(variant, self.hash, self.options, self.dialect);
                    self.refused_position = None;
                    self.apply_eval_file();
                }
                _ => self.say(&format!(
                    "info string {} does not play {}",
                    self.dialect.name(),
                    shorten(value.unwrap_or(""))
                )),
            },
            "usihash" | "hash" => match number() {
                Some(mb) => {
                    self.hash = (mb as usize).clamp(1, MAX_HASH);
                    self.session.set_hash(self.hash);
                    self.perfect.reset();
                }
                None => self.say("info string Hash needs a number of MiB"),
            },
            "skill" | "skilllevel" => match number() {
                Some(level) => {
                    self.options.skill = level.clamp(MIN_SKILL as u64, MAX_SKILL as u64) as u8;
                    self.session.set_options(self.options);
                }
                None => self.say("info string Skill needs a level from 1 to 20"),
            },
            "multipv" => match number() {
                Some(lines) => {
                    self.options.multipv = lines.clamp(1, 64) as u32;
                    self.session.set_options(self.options);
                }
                None => self.say("info string MultiPV needs a number"),
            },
            "moveoverhead" | "networkdelay" => match number() {
                Some(ms) => {
                    self.options.move_overhead = Duration::from_millis(ms.min(5000));
                    self.session.set_options(self.options);
                }
                None => self.say("info string MoveOverhead needs milliseconds"),
            },
            "enteringkingrule" => {
                let rule = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                    Some("csarule27" | "27") => Some(Some(ImpasseRule::TwentySeven)),
                    Some("csarule24" | "24") => Some(Some(ImpasseRule::TwentyFour)),
                    Some("noenteringking" | "none") => Some(None),
                    _ => None,
                };
                match rule {
                    Some(rule) => {
                        self.options.impasse = rule;
                        self.session.set_options(self.options);
                    }
                    None => self.say(
                        "info string EnteringKingRule is CSARule27, CSARule24 or NoEnteringKing",
                    ),
                }
            }
            "matesolver" if self.dialect == Dialect::Usi => match boolean() {
                Some(on) => {
                    self.options.mate_solver = on;
                    self.session.set_options(self.options);
                }
                None => self.say("info string MateSolver is true or false"),
            },
            "usennue" if self.dialect == Dialect::Usi => match boolean() {
                Some(on) => {
                    self.options.use_nnue = on;
                    self.session.set_options(self.options);
                }
                None => self.say("info string UseNNUE is true or false"),
            },
            "evalfile" if self.dialect == Dialect::Usi => {
                let path = value.map(str::trim).unwrap_or("");
                self.load_eval_file(path);
            }
            "clearhash" => self.session.new_game(),
            "perfect" if self.dialect == Dialect::Uci => match boolean() {
                Some(on) => self.perfect.on = on,
                None => self.say("info string Perfect is true or false"),
            },
            "perfectstate" if self.dialect == Dialect::Uci => {
                let dir = value
                    .map(str::trim)
                    .filter(|v| !v.is_empty() && *v != "<empty>");
                self.perfect.set_state(dir.map(std::path::PathBuf::from));
            }
            "threads" => match number() {
                Some(threads) => {
                    self.options.threads = (threads as usize).clamp(1, MAX_THREADS);
                    self.session.set_options(self.options);
                }
                None => self.say("info string Threads needs a number"),
            },
            "usiponder" | "ponder" => {}
            _ if params::TUNING => {
                if let Err(error) = params::set(name, value.unwrap_or("")) {
                    self.say(&format!("info string {}", shorten(&error.to_string())));
                }
            }
            _ => self.say(&format!("info string unknown option {}", shorten(name))),
        }
    }

    /// `EvalFile`: reads the network at `path` (empty or `<embedded>`:
    /// back to the embedded ones). A file that cannot be read or is
    /// damaged is refused with an `info string`, and the network in use
    /// stays; another game's network is kept for its game, this game
    /// going back to its embedded one.
    fn load_eval_file(&mut self, path: &str) {
        if path.is_empty() || path == EMBEDDED {
            self.eval_file = None;
            self.apply_eval_file();
            return;
        }
        match Network::from_file(std::path::Path::new(path)) {
            Ok(network) => {
                let game = network.variant();
                // One file at a time: the other games go back to their
                // built-in evaluation.
                self.eval_file = Some(Arc::new(network));
                self.apply_eval_file();
                if game == self.variant {
                    self.say(&format!(
                        "info string EvalFile {}: the {game} network",
                        shorten(path)
                    ));
                } else {
                    self.say(&format!(
                        "info string EvalFile {}: a {game} network, used when USI_Variant is {game} \
                         ({}: the built-in evaluation)",
                        shorten(path),
                        self.variant
                    ));
                }
            }
            Err(error) => self.say(&format!(
                "info string EvalFile {}: {error}; the network in use stays",
                shorten(path)
            )),
        }
    }

    /// Gives the session the `EvalFile` network if it is its game's, else
    /// the game's embedded one.
    fn apply_eval_file(&mut self) {
        let network = match &self.eval_file {
            Some(network) if network.variant() == self.variant => Some(Arc::clone(network)),
            _ => koma_engine::networks::embedded(self.variant),
        };
        if let Err(error) = self.session.set_network(network) {
            self.say(&format!("info string {error}"));
        }
    }

    fn go(&mut self, mut go: GoParams) {
        self.finish_search(true);
        if self.dialect == Dialect::Uci {
            go.swap_sides();
        }
        if let (Some(time), Dialect::Usi) = (go.mate, self.dialect) {
            if let Some(refused) = &self.refused_position {
                // USI has no error answer to `go mate`: a position that
                // cannot be set has no mate to give, and a GUI waits for
                // `checkmate` whatever happens.
                self.say(&format!(
                    "info string no mate search: the position was refused ({refused})"
                ));
                self.say("checkmate nomate");
                return;
            }
            let control = SearchControl::new(false);
            // The solver's table is as big as the search's hash.
            let limits = MateLimits {
                time,
                nodes: None,
                table_megabytes: self.hash,
                short_first: true,
            };
            let handle = self
                .session
                .start_mate(limits, control.clone(), self.output.clone());
            self.search = Some((handle, control));
            return;
        }
        if self.dialect == Dialect::Uci && self.perfect.on && !go.ponder {
            let control = SearchControl::new(false);
            let handle = self.perfect.start(
                self.session.position_text(),
                self.hash,
                control.clone(),
                self.output.clone(),
            );
            self.search = Some((handle, control));
            return;
        }
        let mut limits = limits_of(&go, self.session.turn());
        limits.search_moves = self.session.legal_moves_among(&go.search_moves);
        let control = SearchControl::new(go.ponder);
        let handle = self
            .session
            .start(limits, control.clone(), self.output.clone());
        self.search = Some((handle, control));
    }

    /// Stops the running search (if `stop`) and waits for its `bestmove`.
    fn finish_search(&mut self, stop: bool) {
        if let Some((handle, control)) = self.search.take() {
            if stop {
                control.stop();
            }
            let _ = handle.join();
        }
    }
}
