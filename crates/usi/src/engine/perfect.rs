//! UCI's `Perfect` option for Pawns-Only Chess: moves from the solver
//! (`koma-solve`), which never lets a win go, never loses a draw and
//! resists longest when lost. Its table starts from the compact table
//! shipped with Koma (the 8×8 solve's costliest proofs, about a second a
//! move), and from a solve's state if `PerfectState` names one (the
//! directory `koma solve pawns --state DIR` keeps).

use super::output::Output;
use koma_engine::SearchControl;
use koma_rules::{PawnsPosition, Position};
use koma_solve::{Perfect, SharedPerfect, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The `Perfect` options and the player they made.
#[derive(Default)]
pub struct PerfectOption {
    /// Whether `go` asks the perfect player.
    pub on: bool,
    state: Option<PathBuf>,
    player: Option<Arc<SharedPerfect>>,
}

impl PerfectOption {
    /// Sets the state directory (`None`: start from an empty table).
    pub fn set_state(&mut self, dir: Option<PathBuf>) {
        self.state = dir;
        self.player = None;
    }

    /// Forgets the player, so that the next `go` makes one with a table
    /// of `hash` MiB.
    pub fn reset(&mut self) {
        self.player = None;
    }

    /// Starts choosing a move for `fen`; the thread prints `info` lines
    /// and `bestmove`. The first `go` loads the shipped table and the
    /// state, if any (into a table of `hash` MiB).
    pub fn start(
        &mut self,
        fen: String,
        hash: usize,
        control: SearchControl,
        output: Output,
    ) -> JoinHandle<()> {
        let player = self
            .player
            .get_or_insert_with(|| Arc::new(SharedPerfect::new(hash << 20)))
            .clone();
        let state = self.state.clone();
        std::thread::spawn(move || {
            player.with(|player, loaded| {
                player.stop_with(control.shared_stop_flag());
                // Made for this `go`: the table and the state are read.
                if let Some(table) = loaded {
                    match table {
                        Ok(count) => output.line(&format!(
                            "info string perfect: {count} proven positions from the shipped table"
                        )),
                        Err(error) => output.line(&format!("info string perfect: {error}")),
                    }
                    if let Some(dir) = state {
                        match player.solver().load_state(&dir) {
                            Ok(count) => output.line(&format!(
                                "info string perfect: {count} proven positions from {}",
                                dir.display()
                            )),
                            Err(error) => {
                                output.line(&format!("info string PerfectState: {error}"))
                            }
                        }
                    }
                }
                output.line(&choose(player, &fen, &output));
            })
        })
    }
}

/// The `bestmove` line for `fen`, after its `info` lines.
fn choose(player: &mut Perfect<8>, fen: &str, output: &Output) -> String {
    let position = match PawnsPosition::from_fen(fen) {
        Ok(position) => position,
        Err(error) => {
            output.line(&format!("info string perfect: {error}"));
            return "bestmove (none)".into();
        }
    };
    let nodes_before = player.solver().nodes;
    match player.choose_in(&position) {
        Ok(Some(chosen)) => {
            let score = match (chosen.value, chosen.plies) {
                (Value::Win, Some(plies)) => format!("mate {}", plies.div_ceil(2)),
                (Value::Loss, Some(plies)) => format!("mate -{}", plies / 2),
                (Value::Draw, _) => "cp 0".into(),
                // A win or loss longer than the length search reaches.
                (Value::Win, None) => "cp 10000".into(),
                (Value::Loss, None) => "cp -10000".into(),
            };
            let nodes = player.solver().nodes - nodes_before;
            output.line(&format!(
                "info depth {} score {score} nodes {nodes} pv {}",
                chosen.plies.unwrap_or(1),
                chosen.uci
            ));
            output.line(&format!("info string perfect: {}", chosen.value));
            format!("bestmove {}", chosen.uci)
        }
        Ok(None) => "bestmove (none)".into(),
        Err(interrupted) => {
            output.line(&format!("info string perfect: {interrupted}"));
            // Some move: the first legal one.
            match position.legal_moves().first() {
                Some(&m) => format!("bestmove {}", PawnsPosition::move_to_text(m)),
                None => "bestmove (none)".into(),
            }
        }
    }
}
