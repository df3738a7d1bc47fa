//! Random completion instances: K non-attacking queens on an n×n board, three ways.
//!
//! - [`random_partial`] (*uniform*): uniformly over all placements of K non-attacking queens, by
//!   rejection. Exact, but placements get rare as K grows, so it cannot reach the region where
//!   completion is hard.
//! - [`sequential_partial`] (*sequential*): random sequential placement, the style of Gent,
//!   Jefferson and Nightingale's instances: queens go one at a time on a random unattacked
//!   square of a random row, restarting when the board is stuck before K. It reaches nearly
//!   full boards, and its instances may or may not have a completion.
//! - [`from_solution_partial`] (*from-solution*): K random queens of a random full solution
//!   found by local search. Always completable.
//!
//! # Why the uniform sampler is uniform
//!
//! Let P be the set of placements we want: sets of K squares, no two of which attack each
//! other. Every placement in P has its K queens in K distinct rows and K distinct columns, so it
//! is one of the "rook placements" R (K squares in distinct rows and columns), and P ⊆ R.
//!
//! 1. We draw a rook placement uniformly from R: a uniformly random K-subset of the rows
//!    (a partial Fisher–Yates shuffle of `0..n`, first K entries) and, independently, a
//!    uniformly random sequence of K distinct columns (another partial shuffle), paired in
//!    order. Each rook placement arises from exactly K! of the equally likely (row sequence,
//!    column sequence) pairs: the K! orderings of its queens. So every element of R has the
//!    same probability.
//! 2. If two of the drawn queens share a diagonal we throw the draw away and start again
//!    (rejection sampling). A uniform distribution on R conditioned on landing in P is uniform
//!    on P, so the accepted placement is uniform over all non-attacking placements.
//!
//! The chance of acceptance is |P| / |R|, which falls quickly as K approaches n (for K = n it
//! is Q(n) / n!, about 3·10⁻⁵ at n = 12). The number of draws is therefore bounded
//! ([`DEFAULT_TRIES`] unless told otherwise) and running out is an error that says so, rather
//! than a silent loop. A request whose expected number of draws is hopelessly beyond the
//! bound is refused before the first draw ([`GenerateError::TooRare`]): two queens of a random
//! rook placement share a diagonal with probability 2(2n − 1) / (3n(n − 1)) (sum over the row
//! distance d of the squared chance 2(n − d) / (n(n − 1)) of that distance), so a draw has
//! about λ = K(K − 1)(2n − 1) / (3n(n − 1)) clashing pairs and, treating them as a Poisson
//! count, succeeds with chance about e^−λ. At K = n the true chance, Q(n)/n! ≈ e^−0.94n
//! (Simkin's asymptotics), is smaller still than e^−λ ≈ e^−0.67n, so the refusal errs on the
//! side of trying.
//!
//! Each draw costs O(K): two partial shuffles of K steps and a diagonal test against two
//! arrays of flags (cleared after each draw by undoing its own marks), so a run costs
//! O(n + tries · K).
//!
//! # Random sequential placement
//!
//! An attempt keeps the rows that may still take a queen, the free columns (a list with each
//! column's position, for O(1) removal) and three bit sets (columns, diagonals, anti-diagonals),
//! so telling whether a square is attacked is O(1). A step draws a row uniformly from the live
//! rows, then a square uniformly among that row's unattacked squares: first by drawing free
//! columns and keeping the first whose diagonals are free (uniform over the unattacked squares,
//! since each draw is), and after [`SEQUENTIAL_TRIES`] misses by listing the row's unattacked
//! squares and drawing one (still uniform: the misses say nothing about which unattacked
//! square is chosen). A row with no unattacked square is dead for good (attacks only grow) and
//! leaves the live rows. When no live row is left before K queens, the attempt restarts.
//!
//! A step costs O(1) when the row has many unattacked squares and O(n − placed) when it lists
//! them, so an attempt costs well under O(n²) (milliseconds at n = 10⁴, K = 0.9n). Attempts
//! are bounded; after the first [`SEQUENTIAL_PROBE`] attempts, a K far above every board where
//! they got stuck (beyond the mean plus four standard deviations, plus one) is refused at once
//! ([`GenerateError::Unreachable`]) rather than tried to the end of the budget.
//!
//! # From a solution
//!
//! Local search ([`crate::engines::local`]) finds a full solution from the seed, and a partial
//! Fisher–Yates shuffle of the rows keeps K of its queens. The kept queens extend to that
//! solution, so the instance always has a completion (often many).
//!
//! The random numbers come from SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014): a 64-bit counter passed through a fixed
//! mixing function, plenty for drawing boards and fully determined by the seed, so the same
//! seed gives the same board on every machine, whichever of the three ways draws it.
//!
//! Each way lives in its own file (`uniform.rs`, `sequential.rs`, `from_solution.rs`), as do
//! blocked boards (`blocked.rs`) and the errors (`error.rs`); this file holds the checks and
//! the shuffle they share, and [`generate`], which picks one.

use nqueens_support::SplitMix64;

use crate::board::Problem;

mod blocked;
pub(crate) mod error;
mod from_solution;
mod sequential;
mod uniform;

pub use blocked::{BLOCK_ATTEMPTS, DENSE_SQUARES, random_blocked};
pub use error::{GenerateError, max_queens};
pub use from_solution::from_solution_partial;
pub use sequential::{SEQUENTIAL_PROBE, SEQUENTIAL_TRIES, default_attempts, sequential_partial};
pub use uniform::{random_partial, uniform_log_draws};

/// How many draws [`random_partial`] makes before giving up.
pub const DEFAULT_TRIES: u64 = 10_000_000;

/// The way [`generate`] places its queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Placement {
    /// Uniform over all non-attacking placements ([`random_partial`]).
    #[default]
    Uniform,
    /// Random sequential placement ([`sequential_partial`]).
    Sequential,
    /// K queens of a random solution ([`from_solution_partial`]).
    FromSolution,
}

impl Placement {
    /// Every placement, in the order of help texts.
    pub const ALL: &'static [Placement] = &[
        Placement::Uniform,
        Placement::Sequential,
        Placement::FromSolution,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Uniform => "uniform",
            Placement::Sequential => "sequential",
            Placement::FromSolution => "from-solution",
        }
    }
}

/// Draws K = `queens` non-attacking queens the given way; `budget` is the number of draws
/// (uniform) or attempts (sequential, clamped to `u32`; `None` for either: the default), and
/// is unused from a solution.
pub fn generate(
    placement: Placement,
    n: u32,
    queens: u32,
    seed: u64,
    budget: Option<u64>,
) -> Result<Problem, GenerateError> {
    match placement {
        Placement::Uniform => random_partial(n, queens, seed, budget.unwrap_or(DEFAULT_TRIES)),
        Placement::Sequential => sequential_partial(
            n,
            queens,
            seed,
            budget.map_or_else(
                || default_attempts(n),
                |b| b.clamp(1, u64::from(u32::MAX)) as u32,
            ),
        ),
        Placement::FromSolution => from_solution_partial(n, queens, seed),
    }
}

/// Common checks: a board of at least one row, at most n queens, and memory for `bytes`.
pub(super) fn check_request(n: u32, queens: u32, bytes: u64) -> Result<(), GenerateError> {
    if n == 0 {
        return Err(GenerateError::ZeroSize);
    }
    if queens > max_queens(n) {
        return Err(GenerateError::TooManyQueens { n, queens });
    }
    if nqueens_support::memory_available().is_some_and(|available| bytes > available) {
        return Err(GenerateError::TooLarge { n, queens, bytes });
    }
    Ok(())
}

/// Puts a uniformly random k-permutation of `items` in `items[..k]` (the first k steps of
/// Fisher–Yates). Works from any starting order, so the vector is reused across draws.
pub(super) fn partial_shuffle(items: &mut [u32], k: usize, rng: &mut SplitMix64) {
    let len = items.len();
    for i in 0..k {
        let j = i + rng.below_unbiased((len - i) as u32) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Queen;

    /// Every non-attacking placement of `k` queens on n×n, by brute force over square subsets.
    pub(super) fn all_placements(n: u32, k: usize) -> Vec<Vec<Queen>> {
        fn extend(n: u32, k: usize, from: u32, chosen: &mut Vec<Queen>, out: &mut Vec<Vec<Queen>>) {
            if chosen.len() == k {
                let mut sorted = chosen.clone();
                sorted.sort_unstable();
                out.push(sorted);
                return;
            }
            for square in from..n * n {
                let q = Queen::new(square / n, square % n);
                let attacks = chosen.iter().any(|p| {
                    p.row == q.row
                        || p.col == q.col
                        || p.row.abs_diff(q.row) == p.col.abs_diff(q.col)
                });
                if !attacks {
                    chosen.push(q);
                    extend(n, k, square + 1, chosen, out);
                    chosen.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, k, 0, &mut Vec::new(), &mut out);
        out
    }

    /// The queens are pairwise non-attacking and exactly `k` of them.
    pub(super) fn assert_valid(problem: &Problem, n: u32, k: u32) {
        assert_eq!(problem.n(), n);
        assert_eq!(problem.fixed().len(), k as usize);
        let q = problem.fixed();
        for (i, a) in q.iter().enumerate() {
            assert!(a.row < n && a.col < n);
            for b in &q[i + 1..] {
                assert!(
                    a.row != b.row
                        && a.col != b.col
                        && a.row.abs_diff(b.row) != a.col.abs_diff(b.col),
                    "{a:?} attacks {b:?}"
                );
            }
        }
    }

    #[test]
    fn sequential_and_from_solution_boards_are_valid_and_repeat_by_seed() {
        for n in [1, 4, 5, 8, 13, 40] {
            for k in [0, 1, n / 2, n * 3 / 4] {
                for seed in 0..5 {
                    let s = sequential_partial(n, k, seed, 1000).unwrap();
                    assert_valid(&s, n, k);
                    assert_eq!(s, sequential_partial(n, k, seed, 1000).unwrap());
                    let f = from_solution_partial(n, k, seed).unwrap();
                    assert_valid(&f, n, k);
                    assert_eq!(f, from_solution_partial(n, k, seed).unwrap());
                }
            }
        }
        // Different seeds give different boards.
        assert_ne!(
            sequential_partial(30, 15, 1, 100).unwrap(),
            sequential_partial(30, 15, 2, 100).unwrap()
        );
        assert_ne!(
            from_solution_partial(30, 15, 1).unwrap(),
            from_solution_partial(30, 15, 2).unwrap()
        );
    }

    #[test]
    fn hopeless_requests_are_refused_at_once_with_the_reason() {
        let start = std::time::Instant::now();
        let err = random_partial(1000, 999, 0, DEFAULT_TRIES).unwrap_err();
        assert!(
            matches!(
                err,
                GenerateError::TooRare {
                    n: 1000,
                    queens: 999,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("succeeds about once in 10^"),
            "{err}"
        );
        // 3×3 holds at most 2 non-attacking queens: sequential placement sees that.
        assert_eq!(
            sequential_partial(3, 3, 0, 1000).unwrap_err().to_string(),
            "cannot place 3 non-attacking queens on a 3×3 board: at most 2 fit"
        );
        println!("{:?}", sequential_partial(40, 40, 0, 3));
        // Full boards are out of reach of sequential placement at this size: refused after
        // the probe, with where it gets stuck.
        let err = sequential_partial(2000, 2000, 0, 10_000).unwrap_err();
        assert!(
            matches!(err, GenerateError::Unreachable { n: 2000, queens: 2000, attempts: 16, best, .. } if best < 2000),
            "{err}"
        );
        assert!(
            err.to_string().starts_with(
                "random sequential placement on a 2000×2000 board gets stuck after about "
            ),
            "{err}"
        );
        assert!(matches!(
            sequential_partial(40, 40, 0, 3).unwrap_err(),
            GenerateError::OutOfAttempts { n: 40, queens: 40, attempts: 3, best } if best < 40
        ));
        assert_eq!(
            from_solution_partial(3, 1, 0).unwrap_err().to_string(),
            "the 3×3 board has no solution, so no queens of one can be kept"
        );
        for placement in Placement::ALL {
            assert_eq!(
                generate(*placement, 4, 5, 0, None).unwrap_err(),
                GenerateError::TooManyQueens { n: 4, queens: 5 }
            );
            assert_eq!(
                generate(*placement, 0, 0, 0, None),
                Err(GenerateError::ZeroSize)
            );
        }
        assert!(start.elapsed().as_secs_f64() < 5.0);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(7);
        for bound in 1..50 {
            for _ in 0..100 {
                assert!(rng.below_unbiased(bound) < bound);
            }
        }
    }
}
