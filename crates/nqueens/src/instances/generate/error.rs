//! Why no board was generated, and the bound the first refusal names. A module of its own,
//! below the generators (which run local search, an engine) and the crate's error enum (which
//! lifts this error), so that the errors do not depend on the engines.

use thiserror::Error;

use crate::board::ABoard;

/// The most non-attacking queens an n×n board holds: n, except 1 on 2×2 and 2 on 3×3.
pub fn max_queens(n: u32) -> u32 {
    if n == 2 || n == 3 { n - 1 } else { n }
}

/// Why no board was generated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// More queens than rows.
    #[error(
        "cannot place {queens} non-attacking queens on {}: at most {} fit",
        ABoard(*n),
        max_queens(*n)
    )]
    TooManyQueens {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
    },
    /// The board size is zero.
    #[error("the board size must be at least 1")]
    ZeroSize,
    /// The draw would need more memory than the machine can give.
    #[error(
        "drawing {queens} queens on {} needs about {} MiB, more than could be allocated",
        ABoard(*n),
        bytes.div_ceil(1 << 20)
    )]
    TooLarge {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// The estimate, in bytes.
        bytes: u64,
    },
    /// Every draw had two queens on a diagonal.
    #[error(
        "no non-attacking placement of {queens} queens on {} found in {tries} random \
         draws; such placements get rare as K grows (try fewer queens or more draws)",
        ABoard(*n)
    )]
    OutOfTries {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// Draws made.
        tries: u64,
    },
    /// A uniform draw would succeed so rarely that the allowed draws are hopeless.
    #[error(
        "a uniform draw of {queens} non-attacking queens on {} succeeds about once \
         in 10^{log10_draws} draws, far beyond the {tries} allowed; ask for fewer queens or \
         place them sequentially",
        ABoard(*n)
    )]
    TooRare {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// Draws allowed.
        tries: u64,
        /// About how many draws one success takes, as a power of ten.
        log10_draws: u32,
    },
    /// Random sequential placement gets stuck far below the queens asked for.
    #[error(
        "random sequential placement on {} gets stuck after about {typical} queens \
         (at most {best} in {attempts} attempts), far short of {queens}; ask for fewer queens, \
         or keep queens of a solution (always completable)",
        ABoard(*n)
    )]
    Unreachable {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// The mean number of queens an attempt placed before it got stuck.
        typical: u32,
        /// The most queens an attempt placed.
        best: u32,
        /// Attempts made.
        attempts: u32,
    },
    /// Every sequential placement got stuck before K queens.
    #[error(
        "random sequential placement of {queens} queens on {} got stuck in all \
         {attempts} attempts (at most {best} placed); try fewer queens or another seed",
        ABoard(*n)
    )]
    OutOfAttempts {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// Attempts made.
        attempts: u32,
        /// The most queens an attempt placed.
        best: u32,
    },
    /// More blocked squares than the rows can give while keeping `min_free` open in each.
    #[error(
        "cannot block {blocks} squares of {} keeping {min_free} open in every row and column: at most {}",
        ABoard(*n),
        u64::from(*n) * u64::from(n.saturating_sub(*min_free))
    )]
    TooManyBlocks {
        /// Board size.
        n: u32,
        /// Blocked squares asked for.
        blocks: u64,
        /// Open squares every row and column keeps.
        min_free: u32,
    },
    /// The blocked squares asked for would need more memory than the machine can give.
    #[error(
        "blocking {blocks} squares of {} needs about {} MiB, more than could be allocated",
        ABoard(*n),
        bytes.div_ceil(1 << 20)
    )]
    BlocksTooLarge {
        /// Board size.
        n: u32,
        /// Blocked squares asked for.
        blocks: u64,
        /// The estimate, in bytes.
        bytes: u64,
    },
    /// Every random order got stuck before blocking enough squares.
    #[error(
        "no way to block {blocks} squares of {} keeping {min_free} open in every row and column found in {attempts} random orders (the most blocked was {best}); try fewer blocks or a smaller --min-free",
        ABoard(*n)
    )]
    BlocksOutOfAttempts {
        /// Board size.
        n: u32,
        /// Blocked squares asked for.
        blocks: u64,
        /// Open squares every row and column keeps.
        min_free: u32,
        /// Random orders tried.
        attempts: u32,
        /// The most squares an attempt blocked.
        best: u64,
    },
    /// The board has no solution to keep queens from (n = 2 and n = 3).
    #[error("the {n}×{n} board has no solution, so no queens of one can be kept")]
    NoSolution {
        /// Board size.
        n: u32,
    },
    /// Local search found no solution to keep queens from within its limits.
    #[error("local search found no solution of the {n}×{n} board to keep queens from: {reason}")]
    SearchGaveUp {
        /// Board size.
        n: u32,
        /// What the search said.
        reason: String,
    },
}
