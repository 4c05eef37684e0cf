//! `koma convert`: a record from one format to another, for scripts and
//! batch conversion.

use clap::Args;
use koma_records::file::{load, output_format, parse_format, save};
use koma_records::Format;
use koma_rules::Variant;

/// `koma convert INPUT OUTPUT`.
#[derive(Args)]
#[command(
    about = "Convert a game record between formats (KIF, KIFU, KI2, CSA, USI, PGN)",
    long_about = "Convert a game record between formats.\n\n\
        Formats come from the file extensions (.kif Shift_JIS KIF, .kifu UTF-8 KIF, .ki2 (read only), \
        .csa, .usi/.sfen, .pgn), or --from/--to; `-` is standard input or output. \
        `koma convert game.kif - --to usi` prints `position … moves …` on one line.\n\n\
        The game (shogi, minishogi, spear, pawns) is told by the record; --variant says it \
        where the record cannot (a USI `startpos`). The moves are checked: a record with an \
        illegal move is refused with the move's number and the reason."
)]
pub struct ConvertArgs {
    /// The record to read (`-` for standard input).
    input: String,
    /// Where to write it (`-` for standard output).
    output: String,
    /// The output format (default: OUTPUT's extension).
    #[arg(long, value_parser = parse_format)]
    to: Option<Format>,
    /// The input format (default: INPUT's extension, else its content).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// The game, where the record does not say.
    #[arg(long)]
    variant: Option<Variant>,
}

/// Runs the conversion.
pub fn run(args: ConvertArgs) -> Result<(), String> {
    let format = output_format(&args.output, args.to).map_err(|e| e.to_string())?;
    let record = load(&args.input, args.from, args.variant).map_err(|e| e.to_string())?;
    save(&record, &args.output, format).map_err(|e| e.to_string())
}
