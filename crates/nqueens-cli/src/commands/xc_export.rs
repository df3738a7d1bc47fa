//! `nqueens xc-export N`: the N-Queens problem as an exact cover problem in Knuth's format.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use nqueens_solver::engines::dlx::{self, Encoding};

use crate::args::BoardArgs;
use crate::output;
use crate::status::Status;

/// Write the N-Queens problem in Knuth's exact cover format, for `nqueens xc` or his DLX
/// programs.
///
/// One option per square, `rROW cCOL aSUM bDIFF` (1-based rows and columns; `a` names the
/// anti-diagonal ROW+COL, `b` the diagonal ROW−COL). Fixed queens are built in: the squares
/// they attack are left out.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens xc-export 8 | nqueens xc - --count          92\n  \
    nqueens xc-export 8 --encoding gadgets -o q8.dlx    every item primary")]
pub struct XcExportArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// How "at most one queen per diagonal" is written.
    #[arg(long, value_enum, default_value_t = EncodingArg::Secondary)]
    pub encoding: EncodingArg,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// The encodings, as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// Rows and columns primary, diagonals secondary (method dlx).
    Secondary,
    /// Every item primary, one option per diagonal that covers it alone (method dlx-gadgets).
    Gadgets,
}

pub fn run(args: XcExportArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let n = problem.n();
    if n > dlx::MAX_N {
        bail!(
            "the exact cover encodings handle boards up to n = {}, not {n}",
            dlx::MAX_N
        );
    }
    let (encoding, label) = match args.encoding {
        EncodingArg::Secondary => (Encoding::Secondary, "diagonals secondary"),
        EncodingArg::Gadgets => (Encoding::Gadgets, "every item primary, gadget options"),
    };
    let instance = dlx::encode(&problem, encoding);
    let fixed = problem.fixed().len();
    let comment = if fixed == 0 {
        format!("{n}-queens as exact cover ({label})")
    } else {
        format!("{n}-queens with {fixed} fixed queen(s) as exact cover ({label})")
    };
    let flat = instance.without_preselection();
    let mut out = output::open(args.output.as_deref())?;
    flat.write_knuth(Some(&comment), &mut out)?;
    out.flush()?;
    Ok(Status::Success)
}
