//! The uniform sampler: rook placements drawn uniformly and rejected on a shared diagonal, so
//! the accepted placement is uniform over all non-attacking ones (the proof and the refusal's
//! estimate are in the [module documentation](super)). A draw costs O(K); boards above
//! `DENSE_MAX_N` keep their permutations as maps of the entries that moved, O(K) memory.

use nqueens_support::SplitMix64;

use super::{GenerateError, max_queens, partial_shuffle};
use crate::board::{Problem, Queen};

/// About how many draws of [`random_partial`] one success takes, as a natural logarithm: the
/// λ of the [module documentation](super).
pub fn uniform_log_draws(n: u32, queens: u32) -> f64 {
    if n < 2 || queens < 2 {
        return 0.0;
    }
    let (n, k) = (f64::from(n), f64::from(queens));
    k * (k - 1.0) * (2.0 * n - 1.0) / (3.0 * n * (n - 1.0))
}

/// Draws K = `queens` non-attacking queens on an n×n board, uniformly over all such placements
/// (see the [module documentation](super) for why), in at most `max_tries` draws.
///
/// ```
/// use nqueens_solver::instances::generate::{random_partial, DEFAULT_TRIES};
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
    if queens > max_queens(n) {
        return Err(GenerateError::TooManyQueens { n, queens });
    }
    let k = queens as usize;
    let bytes = memory_needed(n, queens);
    if nqueens_support::memory_available().is_some_and(|available| bytes > available) {
        return Err(GenerateError::TooLarge { n, queens, bytes });
    }
    let log_draws = uniform_log_draws(n, queens);
    if log_draws > (max_tries as f64).ln() + 7.0 {
        return Err(GenerateError::TooRare {
            n,
            queens,
            tries: max_tries,
            log10_draws: (log_draws / std::f64::consts::LN_10).floor() as u32,
        });
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::instances::generate::DEFAULT_TRIES;
    use crate::instances::generate::tests::all_placements;

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
            GenerateError::TooManyQueens { n: 3, queens: 3 }
        );
        assert_eq!(
            random_partial(12, 12, 0, 10).unwrap_err(),
            GenerateError::OutOfTries {
                n: 12,
                queens: 12,
                tries: 10
            }
        );
        assert_eq!(random_partial(0, 0, 0, 1), Err(GenerateError::ZeroSize));
    }

    #[test]
    fn the_uniform_refusal_leaves_reachable_requests_alone() {
        // Q(12)/12! ≈ 3·10⁻⁵: found in 10⁷ draws, so not refused.
        assert!(random_partial(12, 12, 0, DEFAULT_TRIES).is_ok());
        assert!(uniform_log_draws(12, 12) < (DEFAULT_TRIES as f64).ln() + 7.0);
    }

    #[test]
    fn zero_queens_is_the_empty_board() {
        assert!(!random_partial(6, 0, 9, 1).unwrap().is_completion());
    }
}
