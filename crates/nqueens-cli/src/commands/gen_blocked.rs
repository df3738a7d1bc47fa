//! `nqueens gen-blocked`: a random blocked n-Queens instance, as the published sets are made.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use nqueens_solver::Problem;
use nqueens_solver::formats::partial;
use nqueens_solver::formats::render::{self, Format};
use nqueens_solver::instances::generate::{self, GenerateError};

use crate::args::parse_n;
use crate::output;
use crate::status::Status;

/// Write a random blocked n-Queens board (M blocked squares) for --fix-file.
///
/// The generator of Gent, Jefferson and Nightingale's blocked n-Queens sets (CSPLib problem
/// 80): the squares in a random order, each blocked if its row and its column keep more than
/// --min-free open squares, until M are blocked; a fresh order when one gets stuck. The board
/// is written in the --fix-file format, one `!ROW:COL` line per blocked square (or drawn, with
/// --format unicode or ascii; both read back with --fix-file); the same seed gives the same
/// board everywhere. With the default --min-free 0 a row or column may end up fully blocked,
/// which leaves no solution: a warning names them. More blocks than the rows can give is
/// refused at once (exit 2); exit 3 if every order got stuck.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens gen-blocked 28 --blocks 300 --min-free 8 --seed 1 | nqueens solve --fix-file -\n  \
    nqueens gen-blocked 10 --blocks 40 --seed 3 -o b.txt && nqueens count --fix-file b.txt\n  \
    nqueens gen-blocked 8 --blocks 20 --min-free 1 -f unicode")]
pub struct GenBlockedArgs {
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// How many squares to block.
    #[arg(long, short = 'm', value_name = "M")]
    pub blocks: u64,
    /// Open squares every row and column keeps at least.
    #[arg(long, value_name = "L", default_value_t = 0)]
    pub min_free: u32,
    /// Seed of the random order (the same seed gives the same board everywhere).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How to write the board.
    #[arg(long, short, value_name = "FORMAT", default_value = "fix-file")]
    pub format: BoardFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// How `gen-blocked` writes its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardFormat {
    /// The --fix-file format: n, then one !ROW:COL line per blocked square.
    FixFile,
    /// The board drawn with · and × (for n ≤ 1000).
    Unicode,
    /// The board drawn with . and x (for n ≤ 1000).
    Ascii,
}

pub fn run(args: GenBlockedArgs) -> Result<Status> {
    let problem = match generate::random_blocked(args.n, args.blocks, args.min_free, args.seed) {
        Ok(problem) => problem,
        Err(err @ GenerateError::BlocksOutOfAttempts { .. }) => {
            eprintln!("{err}");
            return Ok(Status::GaveUp);
        }
        Err(err) => return Err(err.into()),
    };
    let text = match args.format {
        BoardFormat::FixFile => {
            let comment = format!(
                "random blocked board: nqueens gen-blocked {} --blocks {} --min-free {} --seed {}",
                args.n, args.blocks, args.min_free, args.seed
            );
            partial::write(&problem, &comment)
        }
        drawn => {
            let format = if drawn == BoardFormat::Unicode {
                Format::Unicode
            } else {
                Format::Ascii
            };
            format.check_size(args.n).map_err(|too_large| {
                anyhow::anyhow!("{} use --format fix-file (the default)", too_large.limit())
            })?;
            render::draw_problem(format, &problem)
        }
    };
    if let Some(warning) = dead_lines(&problem) {
        eprintln!("warning: {warning}");
    }
    let mut out = output::open(args.output.as_deref())?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(Status::Success)
}

/// The rows and columns with every square blocked, which leave the board no solution, said in
/// a sentence; `None` when every row and column keeps an open square. Memory and time go with
/// the blocks, not with n (a board of n = 2^32 − 1 has few).
fn dead_lines(problem: &Problem) -> Option<String> {
    let n = problem.n();
    if (problem.blocked().len() as u64) < u64::from(n) {
        return None;
    }
    // The lines in which n squares are blocked, 1-based, from each block's line.
    let full_lines = |mut lines: Vec<u32>| -> Vec<u64> {
        lines.sort_unstable();
        lines
            .chunk_by(|a, b| a == b)
            .filter(|run| run.len() as u64 == u64::from(n))
            .map(|run| u64::from(run[0]) + 1)
            .collect()
    };
    let rows = full_lines(problem.blocked().iter().map(|q| q.row).collect());
    let columns = full_lines(problem.blocked().iter().map(|q| q.col).collect());
    let lines = rows.len() + columns.len();
    let full = |full: &[u64], what: &str| -> Option<String> {
        let shown: Vec<String> = full.iter().take(10).map(u64::to_string).collect();
        let more = if full.len() > 10 { ", …" } else { "" };
        let plural = if full.len() == 1 { "" } else { "s" };
        (!full.is_empty()).then(|| format!("{what}{plural} {}{more}", shown.join(", ")))
    };
    let said: Vec<String> = [full(&rows, "row"), full(&columns, "column")]
        .into_iter()
        .flatten()
        .collect();
    if said.is_empty() {
        return None;
    }
    Some(format!(
        "{} {} fully blocked, so the board has no solution (--min-free 1 keeps a square open in every row and column)",
        said.join(" and "),
        if lines == 1 { "is" } else { "are" }
    ))
}
