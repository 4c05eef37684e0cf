//! An engine's `info` line, read whole: what an analysis shows of each
//! line an engine reports (its depth, rank, score, bound, nodes, time and
//! moves).

/// An evaluation an engine reported, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many plies (or moves, in UCI); negative: being mated.
    Mate(i32),
}

impl Score {
    /// The score in centipawns, mates as ±100,000.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "{:+.2}", *cp as f64 / 100.0),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a score is exact or only a bound (an aspiration window failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// One `info` line. Fields the line lacks are `None` (or empty); words an
/// engine adds that USI and UCI do not define are skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`: the line's rank, 1 for the best.
    pub multipv: Option<u32>,
    /// `score cp N`, `score mate N` (USI's `mate +`/`mate -` too).
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Option<Bound>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `time`, milliseconds.
    pub time_ms: Option<u64>,
    /// The moves after `pv`, as written (not yet checked).
    pub pv: Vec<String>,
}

impl InfoLine {
    /// Reads an `info` line; `None` when `line` is not one, or is only an
    /// `info string`.
    ///
    /// ```
    /// use koma_usi::client::{InfoLine, Score};
    ///
    /// let line = "info depth 9 multipv 2 score cp -35 nodes 1200 time 40 pv 7g7f 3c3d";
    /// let info = InfoLine::parse(line).unwrap();
    /// assert_eq!((info.depth, info.multipv), (Some(9), Some(2)));
    /// assert_eq!(info.score, Some(Score::Centipawns(-35)));
    /// assert_eq!(info.pv, ["7g7f", "3c3d"]);
    /// assert_eq!(InfoLine::parse("info string hello"), None);
    /// ```
    pub fn parse(line: &str) -> Option<InfoLine> {
        let mut words = line.split_whitespace().peekable();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = InfoLine::default();
        let mut any = false;
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|w| w.parse::<u64>().ok());
            match word {
                "depth" => info.depth = number().and_then(|n| u32::try_from(n).ok()),
                "seldepth" => info.seldepth = number().and_then(|n| u32::try_from(n).ok()),
                "multipv" => info.multipv = number().and_then(|n| u32::try_from(n).ok()),
                "nodes" => info.nodes = number(),
                "time" => info.time_ms = number(),
                "score" => {
                    let kind = words.next();
                    let value = words.next().unwrap_or("");
                    info.score = match kind {
                        Some("cp") => value.parse().ok().map(Score::Centipawns),
                        Some("mate") => match value {
                            "+" => Some(Score::Mate(1)),
                            "-" | "-0" => Some(Score::Mate(-1)),
                            _ => value.parse().ok().map(Score::Mate),
                        },
                        _ => None,
                    };
                    info.bound = match words.peek() {
                        Some(&"lowerbound") => Some(Bound::Lower),
                        Some(&"upperbound") => Some(Bound::Upper),
                        _ => None,
                    };
                    if info.bound.is_some() {
                        words.next();
                    }
                }
                // The moves run to the end of the line.
                "pv" => {
                    info.pv = words.by_ref().map(str::to_owned).collect();
                    break;
                }
                // So does a string: a `pv` inside it is text.
                "string" => break,
                _ => {}
            }
            any = true;
        }
        any.then_some(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_scores_and_depths() {
        let info = |line| InfoLine::parse(line).unwrap();
        let line = "info depth 12 seldepth 15 multipv 1 score cp -35 nodes 100 pv 7g7f";
        let read = info(line);
        assert_eq!(read.score, Some(Score::Centipawns(-35)));
        assert_eq!((read.depth, read.seldepth), (Some(12), Some(15)));
        assert_eq!(
            info("info depth 3 score mate -4 pv a b").score,
            Some(Score::Mate(-4))
        );
        assert_eq!(info("info score mate +").score, Some(Score::Mate(1)));
        assert_eq!(info("info score mate -").score, Some(Score::Mate(-1)));
        assert_eq!(InfoLine::parse("info string score cp 5"), None);
        assert_eq!(info("info depth 2 string score cp 5").score, None);
        assert_eq!(info("info score cp").score, None);
        assert_eq!(info("info depth x nodes 5").depth, None);
        assert_eq!(info("info depth x nodes 5").nodes, Some(5));
        assert_eq!(InfoLine::parse("bestmove 7g7f"), None);
        assert_eq!(InfoLine::parse("info"), None);
        assert_eq!(Score::Mate(-3).centipawns(), -100_000);
    }

    #[test]
    fn bounds_follow_the_score() {
        let read = InfoLine::parse("info depth 5 score cp 40 lowerbound nodes 9 time 3").unwrap();
        assert_eq!(read.bound, Some(Bound::Lower));
        assert_eq!((read.nodes, read.time_ms), (Some(9), Some(3)));
        let read = InfoLine::parse("info depth 5 score mate 3 upperbound pv 1a1b").unwrap();
        assert_eq!(read.bound, Some(Bound::Upper));
        assert_eq!(read.pv, ["1a1b"]);
        assert_eq!(
            InfoLine::parse("info depth 5 score cp 1").unwrap().bound,
            None
        );
    }

    #[test]
    fn principal_variations_run_to_the_end() {
        let read = |line| InfoLine::parse(line).unwrap().pv;
        let line = "info depth 12 score cp -35 nodes 100 pv 7g7f 3c3d 2g2f";
        assert_eq!(read(line), ["7g7f", "3c3d", "2g2f"]);
        assert!(read("info depth 3 score cp 5 pv").is_empty());
        assert!(read("info depth 3 string the pv 7g7f").is_empty());
        assert!(read("info depth 3 nodes 9").is_empty());
    }
}
