//! Min-conflicts local search for huge boards, after Sosic and Gu.
//!
//! Rok Sosic and Jun Gu ("3,000,000 queens in less than one minute", *SIGART Bulletin* 2(2),
//! 1991; "Efficient local search with conflict minimization", *IEEE TKDE* 6(5), 1994) showed
//! that N-Queens is easy for local search when the queens always form a *permutation*: one queen
//! per row and per column, so only diagonals can clash, and a move swaps the columns of two rows.
//! This module follows that scheme.
//!
//! **State.** `columns[row]` is a permutation of the columns. For each of the 2n − 1 diagonals
//! (`row − col` constant) and 2n − 1 anti-diagonals (`row + col` constant) we keep how many
//! queens stand on it, in a compact form: a bit "occupied" (at least one queen), a bit "crowded"
//! (at least two), and, for crowded lines only, the exact count in a small hash map. That is
//! n bytes for the four bit sets, so a board of 10^7 rows keeps its line counts in 5 MB, inside
//! the processor's cache, while a plain counter array would take 80 MB of random accesses. The
//! *collisions* are Σ (queens on a line − 1) over crowded lines; the board is solved when that is
//! 0. Invariant: the bit sets, the map and the collision total always agree with `columns`
//! (a debug-build walker recounts everything from scratch and compares).
//!
//! **Start.** The movable columns are shuffled once (Fisher–Yates), then rows are filled in
//! order: row `i` takes the first of the next [`GREEDY_TRIES`] unused columns (scanning the
//! shuffled pool in order) whose two diagonals are still empty, and when none is, the next
//! column regardless (a *forced* queen, with a collision). This is Sosic and Gu's greedy
//! initialisation with one change for memory locality: they draw a random unused column for each
//! try, which past 10^6 rows costs a cache miss per try in the 4n-byte column array; scanning a
//! pre-shuffled pool reads it in order, and the pool's front holds the columns rejected so far,
//! which are exactly as random. The greedy start leaves only a few dozen collisions on a board
//! of millions. [`Start::Random`] skips the greedy filter (a random permutation, many
//! collisions), for comparison.
//!
//! **Repair.** While collisions remain, pick a *suspect* (a movable queen on a crowded line) at
//! random, pick a random movable row, and swap their columns if that strictly lowers the
//! collisions (the change is computed by taking both queens off their four lines and putting
//! them on their four new ones, O(1) whatever the overlaps, and undone if it does not pay).
//! The suspect list always holds at least one movable queen of every crowded line: forced queens
//! enter it when placed, swapped queens when they land on a crowded line, and when a queen leaves
//! a line that stays crowded (the only way to lose a witness) the list is rebuilt by one O(n)
//! scan. A queen no longer attacked is dropped when drawn.
//!
//! **Blocked squares** (blocked n-Queens) count as collisions too: a queen on one adds 1 to the
//! total, is *attacked* (a suspect, drawn like any other), and a swap's change counts the
//! blocked squares it leaves and lands on; the greedy start treats a blocked square like a
//! crowded line. The total is 0 only on a board with no clash and no queen on a blocked square,
//! so the search never returns one there. The squares are kept in a hash set; the search is
//! compiled twice (trait `BlockedSquares`), so that the plain board's never looks at one (a test
//! per step cost it 5 % more instructions).
//!
//! **Fixed queens** (the completion variant) are placed first, their columns are taken out of
//! the pool, and their rows are never chosen for a swap, so they never move. A completion may
//! have no solution, and local search cannot prove that: each attempt has a step limit, after
//! which the search restarts from a fresh random start, and after the last restart it gives up
//! with [`EngineError::Stopped`](crate::engine::EngineError::Stopped) (its reason
//! [`LimitReached::Attempts`](crate::engine::LimitReached::Attempts)), never with
//! [`Outcome::NoSolution`](crate::engine::Outcome::NoSolution), which it cannot prove. It never returns a wrong answer: a board is only returned when its
//! collision total is 0, and debug builds also pass it through [`crate::verify()`].
//!
//! **Cost.** The start is O(n) (one shuffle, then on average a few tries per row); a repair step
//! is O(1) (eight line updates, each a bit test or a hash-map lookup); a restart is O(n). The
//! random stream is a SplitMix64 generator seeded from [`Local::seed`], so a seed always gives the
//! same solution.

use crate::engine::{Descriptor, Job, Limits, ProgressSink, Stats};

mod blocks;
mod lines;
mod passes;
mod search;
mod solve;
#[cfg(test)]
mod tests;

/// The `local` method's row.
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "local",
    about: || {
        "min-conflicts local search: huge boards, random solutions by seed (one solution)".into()
    },
    max_n: None,
    jobs: &[Job::Solve],
    takes_blocks: true,
    on_page: true,
    traceable: false,
    build: |_, _, config| {
        let mut engine = Local::new(config.seed.unwrap_or(0));
        engine.progress = config.progress.clone();
        engine.limits = config.limits.clone();
        Box::new(engine)
    },
    count_pace: None,
};

/// How many columns of the pool the greedy start tries for a row before forcing one.
pub const GREEDY_TRIES: usize = 64;

/// How the first permutation of each attempt is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Start {
    /// Sosic and Gu's greedy start: each row takes a column whose diagonals are still empty when
    /// one of the next few in the shuffled pool fits (few collisions left to repair).
    #[default]
    Greedy,
    /// A uniformly shuffled permutation (many collisions; slower, for comparison).
    Random,
}

/// Min-conflicts local search. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Local {
    /// Seed of the random stream: the same seed gives the same solution.
    pub seed: u64,
    /// How each attempt starts.
    pub start: Start,
    /// Attempts before giving up (at least 1); `None`: [`Local::default_attempts`].
    pub max_attempts: Option<u32>,
    /// Repair steps per attempt before restarting; `None`: [`Local::default_steps`].
    pub max_steps: Option<u64>,
    /// Where the search reports each finished attempt.
    pub progress: Option<ProgressSink>,
    /// When to give up (time budget, stop flag): looked at every thousand repair steps and
    /// every million rows of the O(n) passes, so a board of 3·10⁹ rows stops within a
    /// fraction of a second.
    pub limits: Limits,
    stats: Stats,
}

impl Default for Local {
    fn default() -> Self {
        Local::new(0)
    }
}

impl Local {
    /// A search with the given seed and the default start and limits.
    pub fn new(seed: u64) -> Self {
        Local {
            seed,
            start: Start::Greedy,
            max_attempts: None,
            max_steps: None,
            progress: None,
            limits: Limits::default(),
            stats: Stats::default(),
        }
    }

    /// The default number of attempts for an n-row board: 1000 for small boards, falling as n
    /// grows so that giving up on an unsatisfiable completion costs about 10^8 row operations
    /// (never fewer than 3 attempts).
    pub fn default_attempts(n: u32) -> u32 {
        (100_000_000 / u64::from(n.max(1))).clamp(3, 1000) as u32
    }

    /// The default repair steps per attempt: 20 per row, at least 1000. The greedy start leaves
    /// so few collisions that a solvable board needs a small fraction of this.
    pub fn default_steps(n: u32) -> u64 {
        (20 * u64::from(n)).max(1000)
    }
}
