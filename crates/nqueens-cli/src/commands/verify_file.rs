//! `nqueens verify`: check solutions written by any tool.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use nqueens_solver::formats::read::{Answer, Solutions};
use nqueens_solver::formats::solutions::ReadError;
use nqueens_solver::{Problem, Queen, verify};

use crate::args::{parse_n, parse_square, read_board};
use crate::output;
use crate::status::{Failure, Status};

/// Check solutions from a file, in O(n) each (exit 1 at the first wrong one).
///
/// Reads every format the tool writes a solution in, told from the file's first line: one
/// solution per line as the 1-based column of each row's queen (`2 4 1 3`, the permutation
/// format), as 1-based ROW:COL pairs in any order (`1:2 2:4 3:1 4:3`, the coords format, with
/// blocked squares as `!ROW:COL`), or as a JSON object (`{"n":4,"columns":[2,4,1,3]}`, the json
/// format, with "fixed" and "blocked"); or boards drawn by the unicode, ascii or matrix format,
/// split by blank lines. Numbers may be separated by spaces, tabs or commas; blank lines and
/// lines starting with # are skipped. The board size is the number of queens in a solution.
/// The first conflict found is printed with its line, for example "queens 2:3 and 3:4 attack
/// each other along a diagonal". A solution must keep the fixed queens and leave empty the
/// blocked squares that its own line records (json, coords, a drawn × or x), that --fix and
/// --block give, and those of the board --fix-file or --instance reads.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens solve 1000000 -f permutation -o big.txt && nqueens verify big.txt\n  \
    nqueens list 8 -f coords | nqueens verify -\n  \
    nqueens list --instance i.param -f json | nqueens verify - --instance i.param")]
pub struct VerifyArgs {
    /// The file of solutions; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Require every solution to be for this board size.
    #[arg(long, short = 'n', value_name = "N", value_parser = parse_n)]
    pub size: Option<u32>,

    /// Require a queen on this square (1-based ROW:COL). Repeatable.
    #[arg(long = "fix", value_name = "ROW:COL", value_parser = parse_square)]
    pub fix: Vec<Queen>,

    /// Require no queen on this square (1-based ROW:COL). Repeatable.
    #[arg(long = "block", value_name = "ROW:COL", value_parser = parse_square)]
    pub block: Vec<Queen>,

    /// Require every solution to complete the board this file describes: its size, its
    /// queens (kept) and its blocked squares (left empty). The file is read as solve
    /// --fix-file reads it: a partial board (n, then ROW:COL and !ROW:COL lines, or n drawn
    /// rows), a board the unicode, ascii or matrix format drew, a json, coords or permutation
    /// line, or a CSPLib instance.
    #[arg(long, value_name = "PATH")]
    pub fix_file: Option<PathBuf>,

    /// Require every solution to solve this CSPLib instance: an Essence parameter file of
    /// blocked n-Queens or an excluded-diagonals file (as solve --instance reads it).
    #[arg(long, value_name = "PATH", conflicts_with = "fix_file")]
    pub instance: Option<PathBuf>,

    /// For an excluded-diagonals instance: only its first K diagonals.
    #[arg(long, value_name = "K", requires = "instance")]
    pub diagonals: Option<usize>,
}

pub fn run(args: VerifyArgs) -> Result<Status> {
    // The partial board the solutions must complete: read before the solutions, so a bad
    // board is an error whatever the file holds.
    let mut fixed = args.fix.clone();
    let mut blocked = args.block.clone();
    let mut size = args.size;
    if let Some(path) = args.instance.as_ref().or(args.fix_file.as_ref()) {
        let board = read_board(path, args.diagonals, args.instance.is_some())?;
        if let Some(n) = size.filter(|&n| n != board.n) {
            bail!(
                "-n is {n} but {} describes {}",
                output::display_name(path),
                nqueens_solver::board::ABoard(board.n)
            );
        }
        size = Some(board.n);
        fixed.extend(board.queens);
        blocked.extend(board.blocked);
    }
    let (name, input) = output::open_input(&args.file)?;
    let mut reader = Solutions::new(input);
    let mut checked = 0u64;
    let mut sizes: Option<(u32, u32)> = None;
    loop {
        let Answer {
            line,
            solution,
            fixed: line_fixed,
            blocked: line_blocked,
        } = match reader.next_answer() {
            Ok(Some(found)) => found,
            Ok(None) => break,
            Err(err @ ReadError::TooLong { .. }) => bail!("{name}: {err}"),
            Err(ReadError::NotOnePerRow { line, reason }) => {
                return Err(Failure(format!("{name}:{line}: {reason}")).into());
            }
            // The reader's errors name the file already.
            Err(ReadError::Io(err)) => return Err(err.into()),
            Err(ReadError::Syntax { position, reason }) => {
                bail!("{name}:{}:{}: {reason}", position.line, position.column)
            }
        };
        let n = solution.n();
        // The squares the line records beside those given, each once.
        let mut line_fixed: Vec<Queen> = fixed.iter().copied().chain(line_fixed).collect();
        line_fixed.sort_unstable();
        line_fixed.dedup();
        let problem = Problem::with_blocks(
            size.unwrap_or(n),
            line_fixed,
            blocked.iter().copied().chain(line_blocked),
        )
        .map_err(|e| Failure(format!("{name}:{line}: {e}")))?;
        verify(&problem, &solution).map_err(|v| Failure(format!("{name}:{line}: {v}")))?;
        checked += 1;
        sizes = Some(sizes.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
    }
    let Some((lo, hi)) = sizes else {
        bail!("{name} holds no solution (expected lines like `2 4 1 3` or `1:2 2:4 3:1 4:3`)");
    };
    let plural = if checked == 1 { "" } else { "s" };
    if lo == hi {
        println!("ok: {checked} solution{plural} of {lo}-queens verified");
    } else {
        println!("ok: {checked} solution{plural} verified (n from {lo} to {hi})");
    }
    Ok(Status::Success)
}
