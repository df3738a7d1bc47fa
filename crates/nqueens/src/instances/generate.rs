//! Random completion instances: K non-attacking queens on an n×n board, drawn uniformly.
//!
//! # Why the sampler is uniform
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
//! than a silent loop.
//!
//! Each draw costs O(K): two partial shuffles of K steps and a diagonal test against two
//! arrays of flags (cleared after each draw by undoing its own marks), so a run costs
//! O(n + tries · K).
//!
//! The random numbers come from SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014): a 64-bit counter passed through a fixed
//! mixing function, plenty for drawing boards and fully determined by the seed, so the same
//! seed gives the same board on every machine.

use nqueens_support::SplitMix64;
use thiserror::Error;

use crate::board::{Problem, Queen};

/// How many draws [`random_partial`] makes before giving up.
pub const DEFAULT_TRIES: u64 = 10_000_000;

/// Why no board was generated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// More queens than rows.
    #[error("cannot place {queens} non-attacking queens on a {n}×{n} board: at most {n} fit")]
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
        "drawing {queens} queens on a {n}×{n} board needs about {} MiB, more than could be \
         allocated",
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
        "no non-attacking placement of {queens} queens on a {n}×{n} board found in {tries} random \
         draws; such placements get rare as K grows (try fewer queens or more draws)"
    )]
    OutOfTries {
        /// Board size.
        n: u32,
        /// Queens asked for.
        queens: u32,
        /// Draws made.
        tries: u64,
    },
}

/// Draws K = `queens` non-attacking queens on an n×n board, uniformly over all such placements
/// (see the [module documentation](self) for why), in at most `max_tries` draws.
///
/// ```
/// use nqueens::instances::generate::{random_partial, DEFAULT_TRIES};
/// let problem = random_partial(8, 3, 42, DEFAULT_TRIES).unwrap();
/// assert_eq!(problem.fixed().len(), 3);
/// assert_eq!(problem, random_partial(8, 3, 42, DEFAULT_TRIES).unwrap());
/// ```
pub fn random_partial(
    n: u32,
    queens: u32,
    seed: u64,
    max_tries: u64,
) -> Result<Problem, GenerateError> {
    if n == 0 {
        return Err(GenerateError::ZeroSize);
    }
    if queens > n {
        return Err(GenerateError::TooManyQueens { n, queens });
    }
    let k = queens as usize;
    let bytes = memory_needed(n, queens);
    if crate::engines::construct::memory_available().is_some_and(|available| bytes > available) {
        return Err(GenerateError::TooLarge { n, queens, bytes });
    }
    if u64::from(n) > DENSE_MAX_N {
        return sparse_draws(n, k, seed, max_tries);
    }
    let mut rng = SplitMix64::new(seed);
    let mut rows: Vec<u32> = (0..n).collect();
    let mut cols: Vec<u32> = (0..n).collect();
    let mut diagonals = vec![false; 2 * n as usize];
    let mut anti_diagonals = vec![false; 2 * n as usize];
    for _ in 0..max_tries {
        partial_shuffle(&mut rows, k, &mut rng);
        partial_shuffle(&mut cols, k, &mut rng);
        let clash = rows[..k].iter().zip(&cols[..k]).any(|(&r, &c)| {
            let d = (r + n - c) as usize;
            let a = (r + c) as usize;
            let seen = diagonals[d] || anti_diagonals[a];
            diagonals[d] = true;
            anti_diagonals[a] = true;
            seen
        });
        // Clear only what this draw marked, so a draw costs O(K), not O(n).
        for (&r, &c) in rows[..k].iter().zip(&cols[..k]) {
            diagonals[(r + n - c) as usize] = false;
            anti_diagonals[(r + c) as usize] = false;
        }
        if !clash {
            let placed = rows[..k]
                .iter()
                .zip(&cols[..k])
                .map(|(&r, &c)| Queen::new(r, c));
            return Ok(Problem::with_fixed(n, placed).expect("distinct rows, columns, diagonals"));
        }
    }
    Err(GenerateError::OutOfTries {
        n,
        queens,
        tries: max_tries,
    })
}

/// Boards up to this size are drawn with arrays of n entries (12n bytes); larger ones with hash
/// maps of the K entries a draw touches, so `gen-completion 4294967295 -k 1` needs bytes, not
/// 48 GB.
const DENSE_MAX_N: u64 = 1 << 22;

/// About the bytes a draw of `queens` queens on an n×n board needs: the arrays (dense boards)
/// or hash maps (sparse ones), the K queens, the problem's checks and the text written.
fn memory_needed(n: u32, queens: u32) -> u64 {
    let per_queen = 200 * u64::from(queens);
    if u64::from(n) > DENSE_MAX_N {
        per_queen
    } else {
        per_queen + 12 * u64::from(n)
    }
}

/// The draws of [`random_partial`] for boards above [`DENSE_MAX_N`]: the same partial
/// Fisher–Yates shuffles, with the permuted arrays kept as maps of the entries that moved (the
/// rest are the identity) and the diagonals as sets, all cleared after each draw. Each draw
/// starts from the identity, which keeps it uniform and its memory O(K).
fn sparse_draws(n: u32, k: usize, seed: u64, max_tries: u64) -> Result<Problem, GenerateError> {
    use std::collections::{HashMap, HashSet};
    let mut rng = SplitMix64::new(seed);
    let mut moved: HashMap<u32, u32> = HashMap::new();
    let mut shuffle = |rng: &mut SplitMix64| -> Vec<u32> {
        moved.clear();
        let mut picked = Vec::with_capacity(k);
        for i in 0..k as u32 {
            let j = i + rng.below_unbiased(n - i);
            let at_i = *moved.get(&i).unwrap_or(&i);
            let at_j = *moved.get(&j).unwrap_or(&j);
            moved.insert(j, at_i);
            picked.push(at_j);
        }
        picked
    };
    let mut diagonals: HashSet<i64> = HashSet::new();
    let mut anti_diagonals: HashSet<u64> = HashSet::new();
    for _ in 0..max_tries {
        let rows = shuffle(&mut rng);
        let cols = shuffle(&mut rng);
        diagonals.clear();
        anti_diagonals.clear();
        let clash = rows.iter().zip(&cols).any(|(&r, &c)| {
            !diagonals.insert(i64::from(r) - i64::from(c))
                | !anti_diagonals.insert(u64::from(r) + u64::from(c))
        });
        if !clash {
            let placed = rows.iter().zip(&cols).map(|(&r, &c)| Queen::new(r, c));
            return Ok(Problem::with_fixed(n, placed).expect("distinct rows, columns, diagonals"));
        }
    }
    Err(GenerateError::OutOfTries {
        n,
        queens: k as u32,
        tries: max_tries,
    })
}

/// Puts a uniformly random k-permutation of `items` in `items[..k]` (the first k steps of
/// Fisher–Yates). Works from any starting order, so the vector is reused across draws.
fn partial_shuffle(items: &mut [u32], k: usize, rng: &mut SplitMix64) {
    let len = items.len();
    for i in 0..k {
        let j = i + rng.below_unbiased((len - i) as u32) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Every non-attacking placement of `k` queens on n×n, by brute force over square subsets.
    fn all_placements(n: u32, k: usize) -> Vec<Vec<Queen>> {
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

    #[test]
    fn draws_are_uniform_over_non_attacking_placements() {
        assert_uniform(|n, k, seed| random_partial(n, k, seed, DEFAULT_TRIES).unwrap());
    }

    #[test]
    fn sparse_draws_for_huge_boards_are_uniform_too() {
        assert_uniform(|n, k, seed| sparse_draws(n, k as usize, seed, DEFAULT_TRIES).unwrap());
    }

    #[test]
    fn a_huge_board_with_few_queens_needs_little_memory() {
        // 12n bytes of arrays would be 48 GB here; the sparse draws need a few hundred bytes.
        let problem = random_partial(u32::MAX, 3, 1, DEFAULT_TRIES).unwrap();
        assert_eq!(problem.n(), u32::MAX);
        assert_eq!(problem.fixed().len(), 3);
        assert_eq!(
            problem,
            random_partial(u32::MAX, 3, 1, DEFAULT_TRIES).unwrap()
        );
        assert!(memory_needed(u32::MAX, 3) < 1 << 20);
    }

    /// 5×5 with 3 queens: draw many boards and compare the frequencies with the uniform
    /// distribution by a chi-square statistic. The seeds are fixed, so this is deterministic;
    /// the bound is the 99.9% quantile of chi-square with (placements - 1) degrees of
    /// freedom, roughly, so a biased sampler (e.g. one that fills rows in order) fails.
    fn assert_uniform(draw: impl Fn(u32, u32, u64) -> Problem) {
        let (n, k) = (5, 3);
        let placements = all_placements(n, k);
        let mut seen: HashMap<Vec<Queen>, u32> =
            placements.iter().map(|p| (p.clone(), 0)).collect();
        let draws = 40_000u32;
        for seed in 0..u64::from(draws) {
            let problem = draw(n, k as u32, seed);
            *seen
                .get_mut(problem.fixed())
                .expect("every draw is a non-attacking placement") += 1;
        }
        let cells = placements.len() as f64;
        let expected = f64::from(draws) / cells;
        let chi2: f64 = seen
            .values()
            .map(|&o| (f64::from(o) - expected).powi(2) / expected)
            .sum();
        let dof = cells - 1.0;
        // Wilson–Hilferty approximation of the 99.9% quantile (z = 3.09).
        let z = 3.09;
        let bound = dof * (1.0 - 2.0 / (9.0 * dof) + z * (2.0 / (9.0 * dof)).sqrt()).powi(3);
        assert!(seen.values().all(|&o| o > 0), "some placement never drawn");
        assert!(
            chi2 < bound,
            "chi2 = {chi2:.1} over {bound:.1} ({cells} cells)"
        );
    }

    #[test]
    fn errors_are_clear() {
        assert_eq!(
            random_partial(4, 5, 0, 10).unwrap_err().to_string(),
            "cannot place 5 non-attacking queens on a 4×4 board: at most 4 fit"
        );
        assert_eq!(
            random_partial(3, 3, 0, 1000).unwrap_err(),
            GenerateError::OutOfTries {
                n: 3,
                queens: 3,
                tries: 1000
            }
        );
        assert_eq!(random_partial(0, 0, 0, 1), Err(GenerateError::ZeroSize));
    }

    #[test]
    fn zero_queens_is_the_empty_board() {
        assert!(!random_partial(6, 0, 9, 1).unwrap().is_completion());
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
