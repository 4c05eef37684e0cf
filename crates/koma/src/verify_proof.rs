//! `koma verify-proof FILE`: checks a certificate of a Pawns-Only Chess
//! value with `koma-proof`, which knows the rules through its own code.

/// Arguments of `koma verify-proof`.
#[derive(clap::Args)]
pub struct VerifyProofArgs {
    /// The certificate, as `koma solve pawns --proof FILE` writes it.
    file: String,
}

pub fn run(args: VerifyProofArgs) -> Result<(), String> {
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{}: {e}", args.file))?;
    let report =
        koma_proof::verify(&bytes).map_err(|e| format!("{}: not a proof: {e}", args.file))?;
    println!(
        "{}: a proof that {} is a {} for the side to move ({}×{} board, {} positions)",
        args.file, report.root, report.claim, report.size, report.size, report.positions
    );
    println!("verified");
    Ok(())
}
