//! The mirror image of a certificate: every position and move with its
//! files in reverse order (a↔h, b↔g …), which proves the same value for the
//! mirrored root. The rules do not tell left from right, so one solve gives
//! the certificates of a move and of its mirror image (1.b4 and 1.g4).
//!
//! Nothing here is trusted: `koma verify-proof` checks the mirrored file
//! like any other, with its own code.

use crate::certificate::{with_suffix, RECORD};
use koma_rules::pawns_board::{self, PawnsBoard};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// What a mirrored certificate claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mirrored {
    /// The mirrored root, in FEN.
    pub root: String,
    /// The claim, unchanged: `win`, `draw` or `loss`.
    pub claim: String,
    /// The records mirrored, over all strategies.
    pub positions: u64,
}

/// Writes the mirror image of the certificate `input` to `output`, by way
/// of a temporary file renamed at the end. A file that is not a
/// certificate, or is cut short, is refused with the reason (`InvalidData`)
/// and nothing is left at `output`.
///
/// ```
/// # fn main() -> std::io::Result<()> {
/// use koma_rules::pawns_board::PawnsBoard;
/// use koma_solve::{mirror_certificate, Certificate, Solver};
///
/// let dir = std::env::temp_dir().join(format!("koma-mirror-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// // 5×5 after White's a-pawn steps forward.
/// let root = PawnsBoard::<5>::from_fen("5/ppppp/P4/1PPPP/5 b - - 0 1").unwrap();
/// Certificate::write(&mut Solver::new(), &root, &dir.join("a3.proof"), |_| {})?;
/// let mirrored = mirror_certificate(&dir.join("a3.proof"), &dir.join("e3.proof"))?;
/// assert_eq!(mirrored.root, "5/ppppp/4P/PPPP1/5 b - - 0 1");
/// # std::fs::remove_dir_all(&dir)
/// # }
/// ```
pub fn mirror_certificate(input: &Path, output: &Path) -> io::Result<Mirrored> {
    let temporary = with_suffix(output, "part");
    let written = (|| {
        let mut from = BufReader::new(File::open(input)?);
        let mut to = BufWriter::new(File::create(&temporary)?);
        let mirrored = mirror(&mut from, &mut to)?;
        to.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        Ok(mirrored)
    })();
    match written {
        Ok(mirrored) => {
            fs::rename(&temporary, output)?;
            Ok(mirrored)
        }
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

fn invalid(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

/// Reads a header line (without its newline).
fn line(from: &mut impl BufRead) -> io::Result<String> {
    let mut text = String::new();
    if from.read_line(&mut text)? == 0 || !text.ends_with('\n') {
        return Err(invalid("the certificate ends in the middle of its header"));
    }
    text.pop();
    Ok(text)
}

/// Streams the mirror image of a certificate from `from` to `to`.
fn mirror(from: &mut impl BufRead, to: &mut impl Write) -> io::Result<Mirrored> {
    if line(from)? != "koma-pawns-proof 1" {
        return Err(invalid("not a Koma Pawns-Only Chess certificate"));
    }
    match line(from)?.strip_prefix("size ").map(str::parse::<usize>) {
        Some(Ok(4)) => mirror_sized::<4>(from, to),
        Some(Ok(5)) => mirror_sized::<5>(from, to),
        Some(Ok(6)) => mirror_sized::<6>(from, to),
        Some(Ok(7)) => mirror_sized::<7>(from, to),
        Some(Ok(8)) => mirror_sized::<8>(from, to),
        _ => Err(invalid(
            "the second line is not \"size N\" with N from 4 to 8",
        )),
    }
}

/// The rest of [`mirror`], once the board's size `N` is read.
fn mirror_sized<const N: usize>(
    from: &mut impl BufRead,
    to: &mut impl Write,
) -> io::Result<Mirrored> {
    let root = line(from)?;
    let root = root
        .strip_prefix("root ")
        .ok_or_else(|| invalid("the third line is not \"root FEN\""))?;
    let root = PawnsBoard::<N>::from_fen(root)
        .map_err(|e| invalid(e.to_string()))?
        .mirrored()
        .to_fen();
    let claim = line(from)?;
    let claim = match claim.strip_prefix("claim ") {
        Some(claim @ ("win" | "draw" | "loss")) => claim.to_string(),
        _ => return Err(invalid("the fourth line is not \"claim win|draw|loss\"")),
    };
    writeln!(
        to,
        "koma-pawns-proof 1\nsize {N}\nroot {root}\nclaim {claim}"
    )?;
    let mut positions = 0;
    loop {
        let header = line(from)?;
        writeln!(to, "{header}")?;
        if header == "end" {
            break;
        }
        let count: u64 = match header.split(' ').collect::<Vec<_>>().as_slice() {
            ["strategy", "white" | "black", "win" | "draw", count] => count
                .parse()
                .map_err(|_| invalid(format!("{header:?}: the count is not a number")))?,
            _ => return Err(invalid(format!("{header:?} is not a strategy's header"))),
        };
        let mut record = [0u8; RECORD];
        for _ in 0..count {
            from.read_exact(&mut record).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => {
                    invalid(format!("{header:?}: the file ends before its records"))
                }
                _ => e,
            })?;
            to.write_all(&mirror_record::<N>(&record))?;
        }
        positions += count;
    }
    if !from.fill_buf()?.is_empty() {
        return Err(invalid("bytes follow \"end\""));
    }
    Ok(Mirrored {
        root,
        claim,
        positions,
    })
}

/// A record (White's pawns, Black's, the en passant file, the move's two
/// squares; bit and square `8 * rank + file`) with its files reversed.
fn mirror_record<const N: usize>(record: &[u8; RECORD]) -> [u8; RECORD] {
    let board = |at: usize| {
        let bits = u64::from_le_bytes(record[at..at + 8].try_into().expect("8 bytes"));
        pawns_board::mirror::<N>(bits).to_le_bytes()
    };
    let file = |f: u8| if f == 255 { 255 } else { N as u8 - 1 - f };
    let square = |s: u8| s / 8 * 8 + (N as u8 - 1 - s % 8);
    let mut out = [0u8; RECORD];
    out[..8].copy_from_slice(&board(0));
    out[8..16].copy_from_slice(&board(8));
    out[16] = file(record[16]);
    out[17] = square(record[17]);
    out[18] = square(record[18]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_mirrors_square_by_square() {
        // 6×6: White a1 (bit 0) and f2 (bit 13), Black c5 (bit 34); en
        // passant on file b; the move f2→f3.
        let mut record = [0u8; RECORD];
        record[..8].copy_from_slice(&(1u64 | 1 << 13).to_le_bytes());
        record[8..16].copy_from_slice(&(1u64 << 34).to_le_bytes());
        record[16] = 1;
        record[17] = 13;
        record[18] = 21;
        let out = mirror_record::<6>(&record);
        // f ↔ a, c ↔ d, b ↔ e on six files.
        assert_eq!(
            u64::from_le_bytes(out[..8].try_into().unwrap()),
            1 << 5 | 1 << 8
        );
        assert_eq!(u64::from_le_bytes(out[8..16].try_into().unwrap()), 1 << 35);
        assert_eq!((out[16], out[17], out[18]), (4, 8, 16));
        assert_eq!(mirror_record::<6>(&out), record);
        let mut none = record;
        none[16] = 255;
        assert_eq!(mirror_record::<6>(&none)[16], 255);
    }

    #[test]
    fn a_cut_or_foreign_file_is_refused() {
        let mut out = Vec::new();
        let cut = b"koma-pawns-proof 1\nsize 5\nroot 5/ppppp/5/PPPPP/5 w - - 0 1\nclaim draw\nstrategy white draw 2\n";
        let error = mirror(&mut &cut[..], &mut out).unwrap_err();
        assert!(error.to_string().contains("ends before"), "{error}");
        let error = mirror(&mut &b"hello\n"[..], &mut out).unwrap_err();
        assert!(error.to_string().contains("not a Koma"), "{error}");
        let trailing =
            b"koma-pawns-proof 1\nsize 5\nroot 5/ppppp/5/PPPPP/5 w - - 0 1\nclaim draw\nend\nmore";
        let error = mirror(&mut &trailing[..], &mut out).unwrap_err();
        assert!(error.to_string().contains("follow"), "{error}");
    }
}
