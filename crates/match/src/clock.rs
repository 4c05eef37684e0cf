//! The players' clocks. The runner keeps them itself: an engine's move takes
//! the time from sending `go` to reading `bestmove`, whatever the engine
//! says it used.

use crate::error::TimeError;
use koma_rules::Color;
use koma_usi::Dialect;
use std::time::Duration;

/// How long the engines may think, as given on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for the whole game, per side (`--tc 10+0.1`'s 10 s).
    pub base: Option<Duration>,
    /// Time added after each move (`--tc 10+0.1`'s 0.1 s).
    pub increment: Duration,
    /// Time per move once the base time is spent (`--byoyomi`).
    pub byoyomi: Duration,
    /// Fixed time per move (`--movetime`).
    pub movetime: Option<Duration>,
    /// Search depth per move (`--depth`).
    pub depth: Option<u32>,
    /// Nodes per move (`--nodes`).
    pub nodes: Option<u64>,
}

impl Limits {
    /// Whether the players have clocks (base time or byoyomi).
    pub fn has_clock(&self) -> bool {
        self.base.is_some() || !self.byoyomi.is_zero()
    }

    /// How a record's header states the limits, e.g. `10+0.1`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.has_clock() {
            let base = self.base.unwrap_or_default().as_secs_f64();
            let mut text = format!("{base}");
            if !self.increment.is_zero() {
                text.push_str(&format!("+{}", self.increment.as_secs_f64()));
            }
            if !self.byoyomi.is_zero() {
                text.push_str(&format!(" byoyomi {}", self.byoyomi.as_secs_f64()));
            }
            parts.push(text);
        }
        if let Some(movetime) = self.movetime {
            parts.push(format!("movetime {}", movetime.as_secs_f64()));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        parts.join(", ")
    }
}

/// An engine's own limits, given among its `KEY=VALUE` words (`nodes=N`,
/// `depth=N`, `tc=SECONDS[+INC]`, as cutechess-cli takes them): they
/// replace the match's `--nodes`, `--depth` and `--tc` for that engine, so
/// that an engine at a fixed node count can meet one that caps its own
/// search (a playing level) or one on a clock, and so that one engine can
/// be given more time than the other (time odds: what doubling the time is
/// worth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnLimits {
    /// Search depth per move (`depth=`).
    pub depth: Option<u32>,
    /// Nodes per move (`nodes=`).
    pub nodes: Option<u64>,
    /// Base time and increment (`tc=`).
    pub time: Option<(Duration, Duration)>,
}

impl OwnLimits {
    /// Takes `nodes=`, `depth=` and `tc=` out of an engine's words: the
    /// limits and the other words, for the engine's configuration. `Err`
    /// holds a word whose value cannot be read.
    pub fn take_from(words: &[String]) -> Result<(OwnLimits, Vec<String>), String> {
        let mut own = OwnLimits::default();
        let mut rest = Vec::new();
        for word in words {
            match word.split_once('=') {
                Some(("nodes", value)) => {
                    own.nodes = Some(value.parse().map_err(|_| word.clone())?);
                }
                Some(("depth", value)) => {
                    own.depth = Some(value.parse().map_err(|_| word.clone())?);
                }
                Some(("tc", value)) => {
                    own.time = Some(parse_time_control(value).map_err(|_| word.clone())?);
                }
                _ => rest.push(word.clone()),
            }
        }
        Ok((own, rest))
    }

    /// These limits, each where given, else `other`'s.
    pub fn or(self, other: OwnLimits) -> OwnLimits {
        OwnLimits {
            depth: self.depth.or(other.depth),
            nodes: self.nodes.or(other.nodes),
            time: self.time.or(other.time),
        }
    }

    /// Whether a limit is given.
    pub fn is_some(self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.time.is_some()
    }

    /// The limits one engine plays under: `shared`, its depth, nodes, base
    /// time and increment replaced by these where given.
    pub fn over(self, shared: &Limits) -> Limits {
        let (base, increment) = match self.time {
            Some((base, increment)) => (Some(base), increment),
            None => (shared.base, shared.increment),
        };
        Limits {
            base,
            increment,
            depth: self.depth.or(shared.depth),
            nodes: self.nodes.or(shared.nodes),
            ..*shared
        }
    }
}

/// A match's time control as its records state it: the shared limits, or,
/// where an engine has limits of its own, each engine's by name (for
/// example `level-5: nodes 1000000000; YO: nodes 1000`), so that a record
/// of a game against a fixed-node anchor says what each side searched.
pub fn describe_match(limits: &Limits, engines: [(&str, OwnLimits); 2]) -> String {
    if !engines.iter().any(|(_, own)| own.is_some()) {
        return limits.describe();
    }
    let each: Vec<String> = engines
        .iter()
        .map(|(name, own)| format!("{name}: {}", own.over(limits).describe()))
        .collect();
    each.join("; ")
}

/// Parses `--tc`: `SECONDS` or `SECONDS+INCREMENT`, e.g. `10+0.1`, `60`.
pub fn parse_time_control(text: &str) -> Result<(Duration, Duration), TimeError> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    Ok((parse_seconds(base)?, parse_seconds(increment)?))
}

/// Parses a non-negative number of seconds such as `0.1`.
pub fn parse_seconds(text: &str) -> Result<Duration, TimeError> {
    let seconds: f64 = text.trim().parse().map_err(|_| TimeError::NotSeconds {
        text: text.to_owned(),
    })?;
    Duration::try_from_secs_f64(seconds).map_err(|_| TimeError::Unusable {
        text: text.to_owned(),
    })
}

/// Both players' clocks in one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Each side's limits, Sente's first: the match's, or an engine's own.
    limits: [Limits; 2],
    /// Base time left, Sente's first.
    remaining: [Duration; 2],
}

/// A player who thought longer than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagFell {
    /// What the move took.
    pub elapsed: Duration,
    /// What it was allowed (without the margin).
    pub allowed: Duration,
}

impl Clocks {
    /// Fresh clocks at the start of a game, each side under its own
    /// limits, Sente's first (time odds, or an engine's own nodes).
    pub fn each(limits: [Limits; 2]) -> Clocks {
        Clocks {
            limits,
            remaining: limits.map(|side| side.base.unwrap_or_default()),
        }
    }

    /// The base time `color` has left.
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color.index()]
    }

    /// How long `color` may think on this move before losing on time (the
    /// margin not included); `None` when there is no time limit at all
    /// (depth or nodes only).
    pub fn allowance(&self, color: Color) -> Option<Duration> {
        let limits = &self.limits[color.index()];
        let clock = limits
            .has_clock()
            .then(|| self.remaining(color) + limits.byoyomi);
        match (clock, limits.movetime) {
            (Some(clock), Some(movetime)) => Some(clock.min(movetime)),
            (clock, movetime) => clock.or(movetime),
        }
    }

    /// Charges `color` for a move that took `elapsed`; the flag falls when
    /// that is more than the allowance plus `margin`.
    pub fn charge(
        &mut self,
        color: Color,
        elapsed: Duration,
        margin: Duration,
    ) -> Result<(), FlagFell> {
        if let Some(allowed) = self.allowance(color) {
            if elapsed > allowed + margin {
                return Err(FlagFell { elapsed, allowed });
            }
        }
        let limits = &self.limits[color.index()];
        if limits.has_clock() {
            let remaining = &mut self.remaining[color.index()];
            // Byoyomi is used up first by nothing: the base time goes first,
            // and byoyomi never accumulates.
            *remaining = remaining.saturating_sub(elapsed) + limits.increment;
        }
        Ok(())
    }

    /// The arguments of `go` (without the word `go`) for `to_move`. USI's
    /// `btime` is Sente's time and `wtime` Gote's; UCI's `wtime` is
    /// White's, and White (Sente) moves first: the first player's time is
    /// `btime` in USI and `wtime` in UCI. Each side's increment is its own
    /// (time odds); depth, nodes and movetime are the mover's.
    pub fn go_arguments(&self, dialect: Dialect, to_move: Color) -> String {
        let mut words: Vec<String> = Vec::new();
        let limits = &self.limits[to_move.index()];
        if limits.has_clock() {
            let first = self.remaining[0].as_millis();
            let second = self.remaining[1].as_millis();
            let [first_increment, second_increment] =
                self.limits.map(|side| side.increment.as_millis());
            match dialect {
                Dialect::Usi => {
                    words.push(format!("btime {first} wtime {second}"));
                    if !limits.byoyomi.is_zero() {
                        words.push(format!("byoyomi {}", limits.byoyomi.as_millis()));
                    } else if first_increment > 0 || second_increment > 0 {
                        words.push(format!("binc {first_increment} winc {second_increment}"));
                    } else {
                        words.push("byoyomi 0".to_owned());
                    }
                }
                Dialect::Uci => {
                    words.push(format!("wtime {first} btime {second}"));
                    words.push(format!("winc {first_increment} binc {second_increment}"));
                }
            }
        }
        if let Some(movetime) = limits.movetime {
            words.push(format!("movetime {}", movetime.as_millis()));
        }
        if let Some(depth) = limits.depth {
            words.push(format!("depth {depth}"));
        }
        if let Some(nodes) = limits.nodes {
            words.push(format!("nodes {nodes}"));
        }
        if words.is_empty() {
            // No limit given: the runner refuses that, but an engine must
            // never be told to think forever.
            words.push("depth 1".to_owned());
        }
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn an_engines_own_limits_replace_the_matchs() {
        let words = ["cmd=yo", "nodes=5000", "option.Threads=1", "depth=7"].map(String::from);
        let (own, rest) = OwnLimits::take_from(&words).unwrap();
        assert_eq!(
            own,
            OwnLimits {
                depth: Some(7),
                nodes: Some(5000),
                time: None,
            }
        );
        assert_eq!(rest, ["cmd=yo", "option.Threads=1"]);
        for bad in ["nodes=many", "tc=ten", "tc=1+x", "depth=-1"] {
            let words = ["cmd=yo", bad].map(String::from);
            assert_eq!(OwnLimits::take_from(&words), Err(bad.to_owned()));
        }

        let shared = Limits {
            nodes: Some(1_000_000_000),
            ..Limits::default()
        };
        let own = OwnLimits {
            nodes: Some(5000),
            ..OwnLimits::default()
        };
        // Sente is the engine with its own limit, Gote plays the match's.
        let clocks = Clocks::each([own.over(&shared), shared]);
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Sente),
            "nodes 5000"
        );
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Gote),
            "nodes 1000000000"
        );
        let each = OwnLimits {
            depth: Some(3),
            nodes: Some(1),
            time: Some((MS(1000), MS(0))),
        };
        assert_eq!(
            own.or(each),
            OwnLimits {
                depth: Some(3),
                nodes: Some(5000),
                time: Some((MS(1000), MS(0))),
            }
        );

        assert_eq!(
            describe_match(&shared, [("K", OwnLimits::default()), ("Y", own)]),
            "K: nodes 1000000000; Y: nodes 5000"
        );
        let none = [("K", OwnLimits::default()), ("Y", OwnLimits::default())];
        assert_eq!(describe_match(&shared, none), "nodes 1000000000");
    }

    #[test]
    fn time_odds_give_each_side_its_own_clock() {
        let shared = Limits {
            base: Some(MS(2000)),
            increment: MS(50),
            ..Limits::default()
        };
        let (odds, _) = OwnLimits::take_from(&["tc=4+0.1".to_owned()]).unwrap();
        assert_eq!(odds.time, Some((MS(4000), MS(100))));
        // The engine with double time plays Gote.
        let mut clocks = Clocks::each([shared, odds.over(&shared)]);
        assert_eq!(clocks.allowance(Color::Sente), Some(MS(2000)));
        assert_eq!(clocks.allowance(Color::Gote), Some(MS(4000)));
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Sente),
            "btime 2000 wtime 4000 binc 50 winc 100"
        );
        assert_eq!(
            clocks.go_arguments(Dialect::Uci, Color::Gote),
            "wtime 2000 btime 4000 winc 50 binc 100"
        );
        clocks.charge(Color::Sente, MS(500), MS(0)).unwrap();
        clocks.charge(Color::Gote, MS(500), MS(0)).unwrap();
        assert_eq!(clocks.remaining(Color::Sente), MS(1550));
        assert_eq!(clocks.remaining(Color::Gote), MS(3600));
        // Sente's flag falls where Gote's would not.
        assert!(clocks.charge(Color::Sente, MS(2000), MS(100)).is_err());
        assert!(clocks.charge(Color::Gote, MS(2000), MS(100)).is_ok());
        assert_eq!(
            describe_match(&shared, [("K", OwnLimits::default()), ("K2", odds)]),
            "K: 2+0.05; K2: 4+0.1"
        );

        // An engine on a clock against one at fixed nodes: only the
        // clocked side is told the times, and only it can lose on time.
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let mut mixed = Clocks::each([odds.over(&nodes), nodes]);
        assert_eq!(
            mixed.go_arguments(Dialect::Usi, Color::Sente),
            "btime 4000 wtime 0 binc 100 winc 0 nodes 1000"
        );
        assert_eq!(mixed.go_arguments(Dialect::Usi, Color::Gote), "nodes 1000");
        assert_eq!(mixed.allowance(Color::Gote), None);
        assert!(mixed.charge(Color::Gote, MS(60_000), MS(0)).is_ok());
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(parse_time_control("10+0.1"), Ok((MS(10_000), MS(100))));
        assert_eq!(parse_time_control("60"), Ok((MS(60_000), MS(0))));
        assert_eq!(
            parse_time_control("ten"),
            Err(TimeError::NotSeconds {
                text: "ten".to_owned()
            })
        );
        assert_eq!(
            parse_time_control("-1"),
            Err(TimeError::Unusable {
                text: "-1".to_owned()
            })
        );
        assert_eq!(
            parse_seconds("1+").unwrap_err().to_string(),
            "\"1+\" is not a number of seconds"
        );
    }

    #[test]
    fn increment_is_added_after_the_move() {
        let limits = Limits {
            base: Some(MS(1000)),
            increment: MS(100),
            ..Limits::default()
        };
        let mut clocks = Clocks::each([limits; 2]);
        assert_eq!(clocks.allowance(Color::Sente), Some(MS(1000)));
        clocks.charge(Color::Sente, MS(300), MS(50)).unwrap();
        assert_eq!(clocks.remaining(Color::Sente), MS(800));
        assert_eq!(clocks.remaining(Color::Gote), MS(1000));
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Sente),
            "btime 800 wtime 1000 binc 100 winc 100"
        );
        assert_eq!(
            clocks.go_arguments(Dialect::Uci, Color::Sente),
            "wtime 800 btime 1000 winc 100 binc 100"
        );
        // Within the margin: the move stands and the clock stops at zero.
        clocks.charge(Color::Sente, MS(840), MS(50)).unwrap();
        assert_eq!(clocks.remaining(Color::Sente), MS(100));
        let fell = clocks.charge(Color::Gote, MS(1051), MS(50));
        assert_eq!(
            fell,
            Err(FlagFell {
                elapsed: MS(1051),
                allowed: MS(1000)
            })
        );
    }

    #[test]
    fn byoyomi_follows_the_base_time_and_never_accumulates() {
        let limits = Limits {
            base: Some(MS(500)),
            byoyomi: MS(1000),
            ..Limits::default()
        };
        let mut clocks = Clocks::each([limits; 2]);
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Sente),
            "btime 500 wtime 500 byoyomi 1000"
        );
        clocks.charge(Color::Gote, MS(1200), MS(0)).unwrap();
        assert_eq!(clocks.remaining(Color::Gote), MS(0));
        assert_eq!(clocks.allowance(Color::Gote), Some(MS(1000)));
        clocks.charge(Color::Gote, MS(300), MS(0)).unwrap();
        assert_eq!(clocks.allowance(Color::Gote), Some(MS(1000)));
        assert!(clocks.charge(Color::Gote, MS(1101), MS(100)).is_err());
    }

    #[test]
    fn fixed_limits() {
        let limits = Limits {
            movetime: Some(MS(200)),
            ..Limits::default()
        };
        let mut clocks = Clocks::each([limits; 2]);
        assert_eq!(
            clocks.go_arguments(Dialect::Usi, Color::Sente),
            "movetime 200"
        );
        assert_eq!(clocks.allowance(Color::Sente), Some(MS(200)));
        assert!(clocks.charge(Color::Sente, MS(250), MS(100)).is_ok());
        assert!(clocks.charge(Color::Sente, MS(301), MS(100)).is_err());
        let depth = Clocks::each(
            [Limits {
                depth: Some(6),
                nodes: Some(1000),
                ..Limits::default()
            }; 2],
        );
        assert_eq!(depth.allowance(Color::Gote), None);
        assert_eq!(
            depth.go_arguments(Dialect::Uci, Color::Sente),
            "depth 6 nodes 1000"
        );
        let sudden_death = Clocks::each(
            [Limits {
                base: Some(MS(2000)),
                ..Limits::default()
            }; 2],
        );
        assert_eq!(
            sudden_death.go_arguments(Dialect::Usi, Color::Sente),
            "btime 2000 wtime 2000 byoyomi 0"
        );
    }

    #[test]
    fn limits_describe_themselves() {
        let limits = Limits {
            base: Some(MS(10_000)),
            increment: MS(100),
            ..Limits::default()
        };
        assert_eq!(limits.describe(), "10+0.1");
        let byoyomi = Limits {
            base: Some(MS(0)),
            byoyomi: MS(1000),
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(byoyomi.describe(), "0 byoyomi 1, depth 3");
    }
}
