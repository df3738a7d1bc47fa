//! Random sequential placement: queens one at a time on a random unattacked square of a random
//! live row, restarting when stuck, with a probe that refuses an unreachable K early (see the
//! [module documentation](super)). A step costs O(1) or O(n − placed); an attempt well under
//! O(n²).

use nqueens_support::SplitMix64;

use super::{GenerateError, check_request};
use crate::board::{Problem, Queen};

/// Mistaken tries before a sequential step lists the row's unattacked squares.
pub const SEQUENTIAL_TRIES: u32 = 24;

/// Attempts of [`sequential_partial`] before it judges whether K is within reach.
pub const SEQUENTIAL_PROBE: u32 = 16;

/// The default attempts of [`sequential_partial`] on an n×n board: about 5·10⁶ / n, between
/// 32 and 1000, so running out costs well under a second.
pub fn default_attempts(n: u32) -> u32 {
    (5_000_000 / u64::from(n.max(1))).clamp(32, 1000) as u32
}

/// Bit set helpers over `u64` words.
fn bit(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// Places K = `queens` non-attacking queens by random sequential placement (see the [module
/// documentation](super)), in at most `max_attempts` attempts.
///
/// ```
/// use nqueens_solver::instances::generate::sequential_partial;
/// let problem = sequential_partial(100, 70, 1, 100).unwrap();
/// assert_eq!(problem.fixed().len(), 70);
/// assert_eq!(problem, sequential_partial(100, 70, 1, 100).unwrap());
/// ```
pub fn sequential_partial(
    n: u32,
    queens: u32,
    seed: u64,
    max_attempts: u32,
) -> Result<Problem, GenerateError> {
    // Row and column lists, column positions, three bit sets, the queens and their text.
    let bytes = 13 * u64::from(n) + 200 * u64::from(queens);
    check_request(n, queens, bytes)?;
    let (nu, k) = (n as usize, queens as usize);
    let max_attempts = max_attempts.max(1);
    let mut rng = SplitMix64::new(seed);
    let mut live_rows: Vec<u32> = Vec::with_capacity(nu);
    let mut free_cols: Vec<u32> = Vec::with_capacity(nu);
    let mut col_at: Vec<u32> = vec![0; nu];
    let mut diagonals = vec![0u64; (2 * nu).div_ceil(64)];
    let mut anti_diagonals = vec![0u64; (2 * nu).div_ceil(64)];
    let mut placed: Vec<Queen> = Vec::with_capacity(k);
    let mut candidates: Vec<u32> = Vec::new();
    let mut stuck_at: Vec<u32> = Vec::new();
    for attempt in 1..=max_attempts {
        live_rows.clear();
        live_rows.extend(0..n);
        free_cols.clear();
        free_cols.extend(0..n);
        for (i, at) in col_at.iter_mut().enumerate() {
            *at = i as u32;
        }
        diagonals.fill(0);
        anti_diagonals.fill(0);
        placed.clear();
        while placed.len() < k && !live_rows.is_empty() {
            let i = rng.below_unbiased(live_rows.len() as u32) as usize;
            let r = live_rows[i] as usize;
            let free = |c: u32| {
                let c = c as usize;
                !bit(&diagonals, r + nu - c) && !bit(&anti_diagonals, r + c)
            };
            let mut chosen = None;
            for _ in 0..SEQUENTIAL_TRIES {
                let c = free_cols[rng.below_unbiased(free_cols.len() as u32) as usize];
                if free(c) {
                    chosen = Some(c);
                    break;
                }
            }
            if chosen.is_none() {
                candidates.clear();
                candidates.extend(free_cols.iter().copied().filter(|&c| free(c)));
                if !candidates.is_empty() {
                    let j = rng.below_unbiased(candidates.len() as u32) as usize;
                    chosen = Some(candidates[j]);
                }
            }
            live_rows.swap_remove(i);
            let Some(c) = chosen else {
                continue; // a dead row: nothing in it can ever be free again
            };
            let at = col_at[c as usize] as usize;
            free_cols.swap_remove(at);
            if let Some(&moved) = free_cols.get(at) {
                col_at[moved as usize] = at as u32;
            }
            set_bit(&mut diagonals, r + nu - c as usize);
            set_bit(&mut anti_diagonals, r + c as usize);
            placed.push(Queen::new(r as u32, c));
        }
        if placed.len() == k {
            return Ok(Problem::with_fixed(n, placed.iter().copied())
                .expect("distinct rows, columns, diagonals"));
        }
        stuck_at.push(placed.len() as u32);
        let best = stuck_at.iter().copied().max().unwrap_or(0);
        if attempt == SEQUENTIAL_PROBE && attempt < max_attempts {
            let count = f64::from(attempt);
            let mean = stuck_at.iter().map(|&s| f64::from(s)).sum::<f64>() / count;
            let variance = stuck_at
                .iter()
                .map(|&s| (f64::from(s) - mean).powi(2))
                .sum::<f64>()
                / (count - 1.0);
            if f64::from(queens) > mean + 4.0 * variance.sqrt() + 1.0 {
                return Err(GenerateError::Unreachable {
                    n,
                    queens,
                    typical: mean.round() as u32,
                    best,
                    attempts: attempt,
                });
            }
        }
        if attempt == max_attempts {
            return Err(GenerateError::OutOfAttempts {
                n,
                queens,
                attempts: max_attempts,
                best,
            });
        }
    }
    unreachable!("the last attempt returns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instances::generate::tests::{all_placements, assert_valid};

    #[test]
    fn sequential_placement_reaches_nearly_full_boards_quickly() {
        // Uniform draws give up from about 0.6n; sequential placement goes far beyond.
        let problem = sequential_partial(2000, 1800, 7, default_attempts(2000)).unwrap();
        assert_valid(&problem, 2000, 1800);
    }

    #[test]
    fn sequential_placement_draws_every_small_placement() {
        // 5×5 with 3 queens: every placement turns up (the sampler is not uniform, but it
        // must not miss any).
        let placements = all_placements(5, 3);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..20_000 {
            seen.insert(
                sequential_partial(5, 3, seed, 100)
                    .unwrap()
                    .fixed()
                    .to_vec(),
            );
        }
        assert_eq!(seen.len(), placements.len());
    }
}
