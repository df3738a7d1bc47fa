//! Blocked boards as Gent, Jefferson and Nightingale generate them (CSPLib problem 80): squares
//! blocked in a random order while every row and column keeps `min_free` open. O(n²) per
//! attempt on boards that can be shuffled whole; larger boards draw their squares one at a time,
//! in memory proportional to the blocks.

use nqueens_support::SplitMix64;

use super::GenerateError;
use crate::board::{Problem, Queen};

/// Random orders [`random_blocked`] tries before giving up (the paper's generator's figure).
pub const BLOCK_ATTEMPTS: u32 = 1000;

/// A blocked n-Queens instance as Gent, Jefferson and Nightingale generate them (CSPLib
/// problem 80's generator): the n² squares in a random order, each blocked if its row and its
/// column keep more than `min_free` open squares, until `blocks` are blocked; an order that
/// gets stuck first is followed by a fresh one, [`BLOCK_ATTEMPTS`] at most. Seeded with
/// SplitMix64, so the same seed gives the same board on every machine (not the same boards as
/// the paper's Python generator). Costs O(n²) per attempt.
///
/// A board of more than [`DENSE_SQUARES`] squares draws its order square by square instead
/// (distinct squares uniformly at random, which is the same distribution), in memory
/// proportional to the blocks; a request whose blocks the machine cannot hold is refused at
/// once ([`GenerateError::BlocksTooLarge`]).
pub fn random_blocked(
    n: u32,
    blocks: u64,
    min_free: u32,
    seed: u64,
) -> Result<Problem, GenerateError> {
    if n == 0 {
        return Err(GenerateError::ZeroSize);
    }
    let room = u64::from(n) * u64::from(n.saturating_sub(min_free));
    if blocks > room {
        return Err(GenerateError::TooManyBlocks {
            n,
            blocks,
            min_free,
        });
    }
    let mut rng = SplitMix64::new(seed);
    if u64::from(n) * u64::from(n) > DENSE_SQUARES {
        return sparse_blocked(n, blocks, min_free, &mut rng);
    }
    let mut squares: Vec<Queen> = (0..n)
        .flat_map(|r| (0..n).map(move |c| Queen::new(r, c)))
        .collect();
    let mut best = 0u64;
    for _ in 0..BLOCK_ATTEMPTS {
        rng.shuffle(&mut squares);
        let mut row_open = vec![n; n as usize];
        let mut col_open = vec![n; n as usize];
        let mut blocked = Vec::new();
        for &q in &squares {
            if blocked.len() as u64 == blocks {
                break;
            }
            let (r, c) = (q.row as usize, q.col as usize);
            if row_open[r] > min_free && col_open[c] > min_free {
                row_open[r] -= 1;
                col_open[c] -= 1;
                blocked.push(q);
            }
        }
        if blocked.len() as u64 == blocks {
            return Ok(Problem::with_blocks(n, [], blocked).expect("squares of the board"));
        }
        best = best.max(blocked.len() as u64);
    }
    Err(GenerateError::BlocksOutOfAttempts {
        n,
        blocks,
        min_free,
        attempts: BLOCK_ATTEMPTS,
        best,
    })
}

/// The most squares a board may have for [`random_blocked`] to shuffle all of them (16.8
/// million, 128 MiB of squares); larger boards draw their order square by square.
pub const DENSE_SQUARES: u64 = 1 << 24;

/// Bytes a sparse draw needs per blocked square, about: the square, the problem's sorted copy,
/// its entries in the sets of squares drawn and of rows and columns touched, and its line of
/// output.
const BYTES_PER_SPARSE_BLOCK: u64 = 128;

/// [`random_blocked`] on a board too large to shuffle: the random order drawn one distinct
/// square at a time, at most 64 draws per block asked for (more means the rows and columns are
/// all but full, and the order counts as stuck).
fn sparse_blocked(
    n: u32,
    blocks: u64,
    min_free: u32,
    rng: &mut SplitMix64,
) -> Result<Problem, GenerateError> {
    use std::collections::{HashMap, HashSet};
    let bytes = blocks.saturating_mul(BYTES_PER_SPARSE_BLOCK);
    let mut blocked: Vec<Queen> = Vec::new();
    if nqueens_support::memory_available().is_some_and(|available| bytes > available)
        || blocked.try_reserve_exact(blocks as usize).is_err()
    {
        return Err(GenerateError::BlocksTooLarge { n, blocks, bytes });
    }
    let squares = u64::from(n) * u64::from(n);
    let mut drawn = HashSet::new();
    let mut open: HashMap<(bool, u32), u32> = HashMap::new();
    let most_draws = blocks.saturating_mul(64).saturating_add(1024).min(squares);
    while (blocked.len() as u64) < blocks && (drawn.len() as u64) < most_draws {
        let square = rng.below_u64(squares);
        if !drawn.insert(square) {
            continue;
        }
        let q = Queen::new(
            (square / u64::from(n)) as u32,
            (square % u64::from(n)) as u32,
        );
        let row = *open.get(&(false, q.row)).unwrap_or(&n);
        let col = *open.get(&(true, q.col)).unwrap_or(&n);
        if row > min_free && col > min_free {
            open.insert((false, q.row), row - 1);
            open.insert((true, q.col), col - 1);
            blocked.push(q);
        }
    }
    if (blocked.len() as u64) < blocks {
        return Err(GenerateError::BlocksOutOfAttempts {
            n,
            blocks,
            min_free,
            attempts: 1,
            best: blocked.len() as u64,
        });
    }
    Ok(Problem::with_blocks(n, [], blocked).expect("squares of the board"))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn huge_boards_draw_their_blocks_square_by_square() {
        // 1.8·10¹⁹ squares: no list of them, a few blocks in a few bytes, the same every time.
        let board = random_blocked(u32::MAX, 3, 0, 7).unwrap();
        assert_eq!(board.blocked().len(), 3);
        assert_eq!(board, random_blocked(u32::MAX, 3, 0, 7).unwrap());
        assert_ne!(board, random_blocked(u32::MAX, 3, 0, 8).unwrap());
        // Just past the dense limit, the rows' and columns' limits still hold.
        let n = 4097;
        let board = random_blocked(n, 20_000, 4090, 1).unwrap();
        let mut per_row = HashMap::new();
        let mut per_col = HashMap::new();
        for q in board.blocked() {
            *per_row.entry(q.row).or_insert(0) += 1;
            *per_col.entry(q.col).or_insert(0) += 1;
        }
        assert_eq!(board.blocked().len(), 20_000);
        assert!(
            per_row
                .values()
                .chain(per_col.values())
                .all(|&k| k <= n - 4090)
        );
        // More blocks than the machine holds are refused, not attempted.
        let error = random_blocked(u32::MAX, u64::MAX / 2, 0, 1).unwrap_err();
        assert!(
            matches!(error, GenerateError::BlocksTooLarge { .. }),
            "{error}"
        );
        assert!(error.to_string().contains("more than could be allocated"));
    }

    #[test]
    fn blocked_boards_keep_min_free_open_and_repeat_from_the_seed() {
        for (n, blocks, min_free) in [(8u32, 20u64, 2u32), (28, 300, 10), (5, 0, 0), (6, 30, 1)] {
            let p = random_blocked(n, blocks, min_free, 7).unwrap();
            assert_eq!(p.blocked().len() as u64, blocks);
            for line in 0..n {
                let in_row = p.blocked().iter().filter(|q| q.row == line).count() as u32;
                let in_col = p.blocked().iter().filter(|q| q.col == line).count() as u32;
                assert!(n - in_row >= min_free && n - in_col >= min_free);
            }
            assert_eq!(random_blocked(n, blocks, min_free, 7).unwrap(), p);
        }
        assert_ne!(
            random_blocked(8, 20, 2, 1).unwrap(),
            random_blocked(8, 20, 2, 2).unwrap()
        );
        assert_eq!(
            random_blocked(4, 13, 1, 0).unwrap_err().to_string(),
            "cannot block 13 squares of a 4×4 board keeping 1 open in every row and column: at most 12"
        );
    }
}
