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

use nqueens_support::SplitMix64;

use crate::board::{Problem, Queen};

pub(crate) mod error;
pub use error::{GenerateError, max_queens};

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
fn check_request(n: u32, queens: u32, bytes: u64) -> Result<(), GenerateError> {
    if n == 0 {
        return Err(GenerateError::ZeroSize);
    }
    if queens > max_queens(n) {
        return Err(GenerateError::TooManyQueens { n, queens });
    }
    if crate::engines::construct::memory_available().is_some_and(|available| bytes > available) {
        return Err(GenerateError::TooLarge { n, queens, bytes });
    }
    Ok(())
}

/// About how many draws of [`random_partial`] one success takes, as a natural logarithm: the
/// λ of the [module documentation](self).
pub fn uniform_log_draws(n: u32, queens: u32) -> f64 {
    if n < 2 || queens < 2 {
        return 0.0;
    }
    let (n, k) = (f64::from(n), f64::from(queens));
    k * (k - 1.0) * (2.0 * n - 1.0) / (3.0 * n * (n - 1.0))
}

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
/// documentation](self)), in at most `max_attempts` attempts.
///
/// ```
/// use nqueens::instances::generate::sequential_partial;
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

/// Keeps K = `queens` random queens of a random solution found by local search with the seed
/// (see the [module documentation](self)): always completable.
///
/// ```
/// use nqueens::instances::generate::from_solution_partial;
/// let problem = from_solution_partial(50, 40, 3).unwrap();
/// assert_eq!(problem.fixed().len(), 40);
/// assert_eq!(problem, from_solution_partial(50, 40, 3).unwrap());
/// ```
pub fn from_solution_partial(n: u32, queens: u32, seed: u64) -> Result<Problem, GenerateError> {
    // Local search keeps about 30 bytes a row; the row shuffle 4; the queens and their text.
    let bytes = 40 * u64::from(n) + 200 * u64::from(queens);
    check_request(n, queens, bytes)?;
    if queens == 0 {
        return Ok(Problem::new(n).expect("n ≥ 1"));
    }
    if n == 2 || n == 3 {
        return Err(GenerateError::NoSolution { n });
    }
    let mut rng = SplitMix64::new(seed);
    let mut local = crate::engines::local::Local::new(rng.next_u64());
    let empty = Problem::new(n).expect("n ≥ 1");
    let solution = match crate::engine::Engine::solve(&mut local, &empty) {
        Ok(crate::engine::Outcome::Found(solution)) => solution,
        Ok(crate::engine::Outcome::GaveUp { reason }) => {
            return Err(GenerateError::SearchGaveUp { n, reason });
        }
        Ok(crate::engine::Outcome::NoSolution) => return Err(GenerateError::NoSolution { n }),
        Err(err) => {
            return Err(GenerateError::SearchGaveUp {
                n,
                reason: err.to_string(),
            });
        }
    };
    let mut rows: Vec<u32> = (0..n).collect();
    partial_shuffle(&mut rows, queens as usize, &mut rng);
    let columns = solution.columns();
    let kept = rows[..queens as usize]
        .iter()
        .map(|&r| Queen::new(r, columns[r as usize]));
    Ok(Problem::with_fixed(n, kept).expect("queens of a solution"))
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
    if queens > max_queens(n) {
        return Err(GenerateError::TooManyQueens { n, queens });
    }
    let k = queens as usize;
    let bytes = memory_needed(n, queens);
    if crate::engines::construct::memory_available().is_some_and(|available| bytes > available) {
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

/// Puts a uniformly random k-permutation of `items` in `items[..k]` (the first k steps of
/// Fisher–Yates). Works from any starting order, so the vector is reused across draws.
fn partial_shuffle(items: &mut [u32], k: usize, rng: &mut SplitMix64) {
    let len = items.len();
    for i in 0..k {
        let j = i + rng.below_unbiased((len - i) as u32) as usize;
        items.swap(i, j);
    }
}

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
    if crate::engines::construct::memory_available().is_some_and(|available| bytes > available)
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
    use super::*;
    use std::collections::HashMap;

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

    /// The queens are pairwise non-attacking and exactly `k` of them.
    fn assert_valid(problem: &Problem, n: u32, k: u32) {
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
    fn the_uniform_refusal_leaves_reachable_requests_alone() {
        // Q(12)/12! ≈ 3·10⁻⁵: found in 10⁷ draws, so not refused.
        assert!(random_partial(12, 12, 0, DEFAULT_TRIES).is_ok());
        assert!(uniform_log_draws(12, 12) < (DEFAULT_TRIES as f64).ln() + 7.0);
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
