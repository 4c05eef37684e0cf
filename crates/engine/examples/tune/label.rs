//! `tune label`: the search values of another USI engine, as labels for
//! the fit.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A USI engine run as a child process.
struct UsiEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl UsiEngine {
    fn start(command: &str, variant: &str) -> Result<UsiEngine, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let input = child.stdin.take().ok_or("no engine input")?;
        let output = BufReader::new(child.stdout.take().ok_or("no engine output")?);
        let mut engine = UsiEngine {
            child,
            input,
            output,
        };
        engine.send("usi")?;
        engine.read_until("usiok")?;
        engine.send(&format!("setoption name USI_Variant value {variant}"))?;
        engine.send("isready")?;
        engine.read_until("readyok")?;
        engine.send("usinewgame")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("engine input: {e}"))
    }

    /// Reads lines up to one starting with `word`, returning the last
    /// `score` reported on the way.
    fn read_until(&mut self, word: &str) -> Result<Option<Score>, String> {
        let mut score = None;
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("engine output: {e}"))?;
            if read == 0 {
                return Err("the engine quit".into());
            }
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some(first) if first == word => return Ok(score),
                Some("info") => {
                    let mut tokens = tokens.skip_while(|&token| token != "score").skip(1);
                    if let (Some(kind), Some(value)) = (tokens.next(), tokens.next()) {
                        if let Ok(value) = value.parse() {
                            score = Some(match kind {
                                "cp" => Score::Centipawns(value),
                                _ => Score::Mate,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// A score as an engine reports it.
enum Score {
    Centipawns(i32),
    /// A mate, which says nothing about the evaluation's scale.
    Mate,
}

/// `label VARIANT ENGINE NODES IN OUT`: each line of IN, a position (SFEN)
/// with `;` and a result, goes to OUT with `;` and the engine's value for
/// Sente after searching NODES nodes (none when it sees a mate).
pub fn label(args: &[String]) -> Result<(), String> {
    let [variant, command, nodes, input, output] = args else {
        return Err("usage: tune label VARIANT ENGINE NODES IN OUT".into());
    };
    let nodes: u64 = nodes.parse().map_err(|e| format!("{nodes}: {e}"))?;
    let mut engine = UsiEngine::start(command, variant)?;
    let input = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
    let out = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    let mut out = BufWriter::new(out);
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut parts = line.split(';');
        let (Some(position), Some(result)) = (parts.next(), parts.next()) else {
            continue;
        };
        let sente_to_move = position.split_whitespace().nth(1) == Some("b");
        engine.send(&format!("position sfen {position}"))?;
        engine.send(&format!("go nodes {nodes}"))?;
        match engine.read_until("bestmove")? {
            Some(Score::Centipawns(value)) => {
                let value = if sente_to_move { value } else { -value };
                writeln!(out, "{position};{result};{value}")
            }
            _ => writeln!(out, "{position};{result}"),
        }
        .map_err(|e| format!("{output}: {e}"))?;
    }
    out.flush().map_err(|e| format!("{output}: {e}"))
}
