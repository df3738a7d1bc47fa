//! `nqueens cnf`: the board as a DIMACS CNF file.

use anyhow::Result;
use clap::Args;
use nqueens_sat::DimacsWriter;
use nqueens_solver::engines::sat::{self as queens_cnf, Encoding};

use crate::args::{BoardArgs, encoding_parser};
use crate::output;
use crate::status::Status;

/// Write the board as a DIMACS CNF formula (variable i·n + j + 1 is a queen on row i, column
/// j, 0-based); fixed queens become unit clauses.
#[derive(Debug, Args)]
pub struct CnfArgs {
    #[command(flatten)]
    pub board: BoardArgs,

    /// The pairwise encoding (one clause per attacking pair), or the compact sequential counter (for large boards).
    #[arg(long, value_name = "ENCODING", default_value = "pairwise", value_parser = encoding_parser())]
    pub encoding: Encoding,

    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<std::path::PathBuf>,
}

pub fn run(args: CnfArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let max = args.encoding.max_n();
    if problem.n() > max {
        anyhow::bail!(
            "the {} encoding handles n up to {max}; n = {} is too large",
            args.encoding,
            problem.n()
        );
    }
    let header = queens_cnf::header(&problem, args.encoding);
    let comment = format!(
        "{}-queens, {} encoding; variable i*n+j+1 is a queen on row i, column j (from 0)",
        problem.n(),
        args.encoding
    );
    let out = output::open(args.output.as_deref())?;
    let mut writer = DimacsWriter::new(out, header, &[&comment]);
    queens_cnf::encode(&problem, args.encoding, &mut writer);
    writer.finish()?;
    Ok(Status::Success)
}
