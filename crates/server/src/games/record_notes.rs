//! What a record says beyond its moves: the comments before the first
//! move and after each, and the time each move took. An imported record
//! keeps them, the move list shows them, and the record saved from the
//! game writes them back.

use koma_records::{AnyRecord, Record};
use koma_rules::{each_game, Position};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The comments and times of a game's record, as kept with the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordNotes {
    /// Comments before the first move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// By move, the first move's first; none after the last move that
    /// has a note.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MoveNote>,
}

/// What a record says about one move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveNote {
    /// Comments written after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// The time its player spent on it, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub milliseconds: Option<u64>,
}

impl MoveNote {
    fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.milliseconds.is_none()
    }
}

impl RecordNotes {
    /// The notes of `record`'s main line.
    pub fn of(record: &AnyRecord) -> RecordNotes {
        each_game!(AnyRecord, record, r => Self::of_record(r))
    }

    fn of_record<P: Position>(record: &Record<P>) -> RecordNotes {
        let mut notes = RecordNotes {
            comments: record.comments.clone(),
            moves: record
                .moves
                .iter()
                .map(|m| MoveNote {
                    comments: m.comments.clone(),
                    milliseconds: m
                        .time
                        .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
                })
                .collect(),
        };
        notes.trim();
        notes
    }

    /// Whether there is nothing to keep.
    pub fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.moves.is_empty()
    }

    /// Forgets the notes of moves from number `kept + 1` on: those moves
    /// were taken back, and a move played in their place is another move.
    pub fn keep_moves(&mut self, kept: usize) {
        self.moves.truncate(kept);
        self.trim();
    }

    /// Sets the time move `index` (0 for the first) took.
    pub fn set_time(&mut self, index: usize, milliseconds: u64) {
        if self.moves.len() <= index {
            self.moves.resize(index + 1, MoveNote::default());
        }
        self.moves[index].milliseconds = Some(milliseconds);
    }

    /// Adds `comment` to move `index` (0 for the first).
    pub fn add_comment(&mut self, index: usize, comment: &str) {
        if self.moves.len() <= index {
            self.moves.resize(index + 1, MoveNote::default());
        }
        self.moves[index].comments.push(comment.to_owned());
    }

    /// Drops the empty notes at the end.
    fn trim(&mut self) {
        while self.moves.last().is_some_and(MoveNote::is_empty) {
            self.moves.pop();
        }
    }

    /// The note of move `index` (0 for the first), if it has one.
    pub fn of_move(&self, index: usize) -> Option<&MoveNote> {
        self.moves.get(index).filter(|note| !note.is_empty())
    }

    /// Writes the notes into `record` (the game's own, made from its
    /// moves), before anything else written there.
    pub fn write_into(&self, record: &mut AnyRecord) {
        each_game!(AnyRecord, record, r => self.write_into_record(r))
    }

    fn write_into_record<P: Position>(&self, record: &mut Record<P>) {
        record.comments.splice(0..0, self.comments.iter().cloned());
        for (recorded, note) in record.moves.iter_mut().zip(&self.moves) {
            recorded
                .comments
                .splice(0..0, note.comments.iter().cloned());
            if let Some(ms) = note.milliseconds {
                recorded.time = Some(Duration::from_millis(ms));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_records::{read_any, Format};

    const KIF: &str = "手合割：平手\n*対局前の感想\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:12/00:00:12)\n*角道を開ける\n   2 ３四歩(33)   ( 0:03/00:00:03)\n   3 ２六歩(27)   ( 1:00/00:01:12)\n";

    #[test]
    fn a_records_comments_and_times_are_kept_and_written_back() {
        let record = read_any(KIF.as_bytes(), Some(Format::Kif), None).unwrap();
        let notes = RecordNotes::of(&record);
        assert_eq!(notes.comments, ["対局前の感想"]);
        assert_eq!(notes.moves.len(), 3);
        assert_eq!(notes.moves[0].comments, ["角道を開ける"]);
        assert_eq!(notes.moves[0].milliseconds, Some(12_000));
        assert_eq!(notes.moves[2].milliseconds, Some(60_000));
        let text = serde_json::to_string(&notes).unwrap();
        assert_eq!(serde_json::from_str::<RecordNotes>(&text).unwrap(), notes);

        let mut bare = record.clone();
        if let AnyRecord::Shogi(r) = &mut bare {
            r.comments.clear();
            for m in &mut r.moves {
                m.comments.clear();
                m.time = None;
            }
        }
        notes.write_into(&mut bare);
        assert_eq!(bare, record);
    }

    #[test]
    fn taking_moves_back_forgets_their_notes() {
        let record = read_any(KIF.as_bytes(), Some(Format::Kif), None).unwrap();
        let mut notes = RecordNotes::of(&record);
        notes.keep_moves(2);
        assert_eq!(notes.moves.len(), 2);
        assert_eq!(notes.of_move(1).and_then(|n| n.milliseconds), Some(3_000));
        notes.moves[1].milliseconds = None;
        notes.keep_moves(2);
        assert_eq!(notes.moves.len(), 1, "an empty note at the end is dropped");
        assert!(notes.of_move(5).is_none());
        notes.keep_moves(0);
        assert!(!notes.is_empty(), "the comments before the first move stay");
    }
}
