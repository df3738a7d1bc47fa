//! Explicit solutions: one valid placement for every n ≥ 4 (and n = 1), written down directly.
//!
//! Search cannot reach a board of a million rows, but a formula can. The rule used here goes
//! back to Hoffman, Loessi and Moore ("Construction for the solution of the m queens problem",
//! *Mathematics Magazine* 42, 1969) and was restated for all n by Bernhardsson ("Explicit
//! solutions to the N-queens problem for all N", *SIGART Bulletin* 2(2), 1991). In 1-based
//! columns, listed row by row:
//!
//! | n mod 6     | columns of rows 1, 2, …, n                                         |
//! |-------------|--------------------------------------------------------------------|
//! | 0, 1, 4, 5  | the even numbers 2, 4, …, then the odd numbers 1, 3, 5, …          |
//! | 2           | the evens, then the odds with 1 and 3 swapped and 5 moved last: 3, 1, 7, 9, …, 5 |
//! | 3           | the evens with 2 moved last: 4, 6, …, 2; then the odds with 1 and 3 moved last: 5, 7, …, 1, 3 |
//!
//! For n = 8 this gives 2 4 6 8 3 1 7 5; for n = 9, 4 6 8 2 5 7 9 1 3. Why it works, in short:
//! within the even half (and within the odd half) consecutive rows step two columns, so no two
//! queens of a half share a diagonal; between the halves, the diagonals of the even queens and
//! the odd queens differ by an amount that is never zero unless n ≡ 2 or 3 (mod 6), and those
//! two residues are exactly where the listed exchanges move the few queens that would clash.
//! The tests do not take this on trust: every n from 1 to 5000 and n = 10^6 go through
//! [`crate::verify()`].
//!
//! n = 2 and n = 3 have no solution at all (every placement of two or three queens on so small a
//! board attacks), so [`columns`] returns `None` for them.
//!
//! Cost: O(n) time, one pass writing the n columns in order (memory is the solution itself,
//! 4n bytes). Fixed queens cannot be honoured: the formula is one placement, so completion
//! problems are refused up front by [`Engine::check`] (local search handles them).
//!
//! **Without the board.** Each line of the table is a few *strides*: runs of rows whose
//! columns step by two (the evens, the odds, and the two or three queens moved). [`strides`]
//! gives the solution in that form ([`StridedSolution`], a few numbers whatever n), and
//! [`Engine::strided`] hands it to a front end, which writes it row by row from the formula in
//! constant memory (`nqueens solve 4294967295` would otherwise hold 17 GB of columns) and
//! checks it with [`verify_strides`](crate::board::stride::verify_strides), which needs no
//! board either. The strides are written here a second time, apart from the table's list in
//! [`columns`]; the tests hold the two to each other row by row for every n up to 5000 and
//! put both through the independent checkers.

use nqueens_support::{Budget, LimitReached};

use crate::board::stride::{Stride, StridedSolution};
use crate::board::verify::verify_bytes;
use crate::board::{Problem, Solution};
use crate::engine::EngineError;
use crate::engine::{Descriptor, Engine, Job, Limits, Outcome, Stats};

/// The `construct` method's row.
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "construct",
    about: || "explicit solution by n mod 6 in O(n), any n (one solution, no fixed queens)".into(),
    max_n: None,
    jobs: &[Job::Solve],
    takes_blocks: false,
    on_page: true,
    traceable: false,
    build: |_, _, config| {
        Box::new(Construct {
            limits: config.limits.clone(),
            ..Construct::default()
        })
    },
    count_pace: None,
};

/// The columns (0-based, row by row) of the explicit solution for `n`, or `None` for n = 2 and
/// n = 3, which have no solution. n = 0 gives the empty placement.
///
/// ```
/// // n = 8 (n mod 6 = 2): 2 4 6 8 3 1 7 5 in 1-based columns.
/// assert_eq!(nqueens_solver::engines::construct::columns(8), Some(vec![1, 3, 5, 7, 2, 0, 6, 4]));
/// assert_eq!(nqueens_solver::engines::construct::columns(3), None);
/// ```
pub fn columns(n: u32) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    fill(n, &mut out, &Budget::start(&Limits::default()))
        .expect("no limits")
        .then_some(out)
}

/// The explicit solution for `n` as strides (see the [module documentation](self)), or `None`
/// for n = 2 and n = 3: the same placement as [`columns`], in constant memory, for any n.
///
/// ```
/// use nqueens_solver::engines::construct::{columns, strides};
/// // n = 9 (n mod 6 = 3): 4 6 8 | 2 | 5 7 9 | 1 | 3 in 1-based columns.
/// let nine = strides(9).unwrap();
/// assert_eq!(nine.strides().len(), 5);
/// assert_eq!(nine.columns().collect::<Vec<_>>(), columns(9).unwrap());
/// assert_eq!(strides(u32::MAX).unwrap().column(u32::MAX - 1), Some(2));
/// ```
pub fn strides(n: u32) -> Option<StridedSolution> {
    if n == 2 || n == 3 {
        return None;
    }
    // 0-based: the evens 2, 4, … are columns 1, 3, …, the odds columns 0, 2, ….
    let (evens, odds) = (n / 2, n - n / 2);
    let run = |col, len| Stride::new(col, len).expect("every column is on the board");
    Some(StridedSolution::new(match n % 6 {
        // 2, 4, …, n; 3, 1; 7, 9, …, n − 1; 5 (n ≥ 8).
        2 => vec![
            run(1, evens),
            run(2, 1),
            run(0, 1),
            run(6, odds - 3),
            run(4, 1),
        ],
        // 4, 6, …, n − 1; 2; 5, 7, …, n; 1; 3 (n ≥ 9).
        3 => vec![
            run(3, evens - 1),
            run(1, 1),
            run(4, odds - 2),
            run(0, 1),
            run(2, 1),
        ],
        _ => vec![run(1, evens), run(0, odds)],
    }))
}

/// Like [`columns`], but reports a board too large for memory as an error instead of aborting
/// (the estimate covers the columns and the check of the answer that follows,
/// [`verify_bytes`]), and stops at `limits` (looked at every [`ROWS_PER_LOOK`] rows).
fn try_columns(
    n: u32,
    limits: &Limits,
) -> Result<Result<Option<Vec<u32>>, LimitReached>, EngineError> {
    let bytes = 4 * u64::from(n) + verify_bytes(n);
    check_memory("construct", n, bytes)?;
    let mut out = Vec::new();
    out.try_reserve_exact(n as usize)
        .map_err(|_| EngineError::OutOfMemory {
            method: "construct",
            n,
            bytes,
        })?;
    Ok(fill(n, &mut out, &Budget::start(limits)).map(|solved| solved.then_some(out)))
}

/// Rows the construction writes between two looks at its limits (a few milliseconds).
const ROWS_PER_LOOK: u32 = 1 << 22;

/// Refuses, before anything is built, a job that would need about `bytes` of memory when that is
/// more than this process can get ([`memory_available`]): [`EngineError::OutOfMemory`] names the
/// method, n and the estimate in MiB. With no figure to go by (not Linux) every size passes, and
/// callers still reserve with `try_reserve` so an allocation failure is an error, not an abort.
///
/// Estimates need not be exact: the point is to refuse a board that needs ten times the
/// machine, cleanly and at once, instead of being killed half-way through building it.
pub fn check_memory(method: &'static str, n: u32, bytes: u64) -> Result<(), EngineError> {
    match memory_available() {
        Some(available) if bytes > available => Err(EngineError::OutOfMemory { method, n, bytes }),
        _ => Ok(()),
    }
}

/// The bytes this process may still allocate, as far as the system says
/// ([`nqueens_support::memory_available`]); `None` where it does not say.
pub fn memory_available() -> Option<u64> {
    nqueens_support::memory_available()
}

/// Appends the explicit solution's 0-based columns to `out`; false for n = 2, 3; stops at
/// `budget`, looked at every [`ROWS_PER_LOOK`] rows.
fn fill(n: u32, out: &mut Vec<u32>, budget: &Budget) -> Result<bool, LimitReached> {
    if n == 2 || n == 3 {
        return Ok(false);
    }
    // `out.extend(range.map(f))`, a few million rows at a time.
    let extend = |out: &mut Vec<u32>, range: std::ops::RangeInclusive<u32>, f: fn(u32) -> u32| {
        let (mut from, to) = range.into_inner();
        while from <= to {
            budget.check_now()?;
            let last = to.min(from.saturating_add(ROWS_PER_LOOK - 1));
            out.extend((from..=last).map(f));
            match last.checked_add(1) {
                Some(next) => from = next,
                None => break,
            }
        }
        Ok(())
    };
    out.reserve_exact(n as usize);
    // 1-based: the evens 2..=2h and the odds 1..=2o−1, where h = ⌊n/2⌋ and o = n − h.
    let half = n / 2;
    let even: fn(u32) -> u32 = |k| 2 * k - 1; // the k-th even number, as a 0-based column
    let odd: fn(u32) -> u32 = |k| 2 * k - 2; // the k-th odd number, as a 0-based column
    match n % 6 {
        2 => {
            // Evens, then 3, 1, 7, 9, …, 5 (n ≥ 8 here, so 1, 3, 5 exist).
            extend(out, 1..=half, even)?;
            out.extend([odd(2), odd(1)]);
            extend(out, 4..=n - half, odd)?;
            out.push(odd(3));
        }
        3 => {
            // 4, 6, …, 2, then 5, 7, …, 1, 3 (n ≥ 9 here).
            extend(out, 2..=half, even)?;
            out.push(even(1));
            extend(out, 3..=n - half, odd)?;
            out.extend([odd(1), odd(2)]);
        }
        _ => {
            extend(out, 1..=half, even)?;
            extend(out, 1..=n - half, odd)?;
        }
    }
    debug_assert_eq!(out.len(), n as usize);
    Ok(true)
}

/// The construction as an engine: `solve` only, without fixed queens. See the
/// [module documentation](self).
#[derive(Clone, Debug, Default)]
pub struct Construct {
    /// When to give up (time budget, stop flag): looked at every few million rows, so a board
    /// of 4·10⁹ rows stops within milliseconds too.
    pub limits: Limits,
    stats: Stats,
}

impl Engine for Construct {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn check(&self, job: Job, problem: &Problem) -> Result<(), EngineError> {
        if job != Job::Solve {
            return Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: "a construction gives one solution; use a search method to list or count"
                    .into(),
            });
        }
        crate::engine::check_blocks(self, job, problem)?;
        if problem.is_completion() {
            return Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: "the construction cannot keep fixed queens; local search can".into(),
            });
        }
        Ok(())
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        self.stats = Stats::default();
        let outcome = match try_columns(problem.n(), &self.limits)? {
            Ok(Some(columns)) => Outcome::Found(Solution::from_columns(columns)),
            Ok(None) => Outcome::NoSolution,
            Err(reached) => return Err(EngineError::stopped_by(self.name(), reached, 0)),
        };
        if matches!(outcome, Outcome::Found(_)) {
            self.stats.set("rows", u128::from(problem.n()));
        }
        Ok(outcome)
    }

    /// The solution as [`strides`]: what [`solve`](Engine::solve) finds, in constant memory.
    fn strided(&mut self, problem: &Problem) -> Option<StridedSolution> {
        self.check(Job::Solve, problem).ok()?;
        Budget::start(&self.limits).check_now().ok()?;
        let solution = strides(problem.n())?;
        self.stats = Stats::default();
        self.stats.set("rows", u128::from(problem.n()));
        Some(solution)
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;

    #[test]
    fn a_raised_stop_flag_ends_the_construction_and_its_check() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let p = problem(20_000_000);
        let stop = Arc::new(AtomicBool::new(true));
        let mut engine = Construct::default();
        engine.limits.stop = Some(stop.clone());
        assert_eq!(
            engine.solve(&p).unwrap_err().stopped(),
            Some(nqueens_support::Stopped::new(LimitReached::Stopped, 0))
        );
        let s = Solution::from_columns(columns(20_000_000).unwrap());
        assert_eq!(crate::board::verify::verify_until(&p, &s, &stop), None);
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(
            crate::board::verify::verify_until(&p, &s, &stop),
            Some(Ok(()))
        );
    }

    #[test]
    fn a_job_above_the_machine_is_refused_before_it_is_built() {
        if cfg!(target_os = "linux") {
            assert!(memory_available().is_some_and(|bytes| bytes > 1 << 20));
        }
        assert!(check_memory("construct", 8, 1 << 10).is_ok());
        if memory_available().is_some() {
            let err = check_memory("sat", 100_000, u64::MAX).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "the sat method needs about {} MiB for n = 100000, more than could be allocated",
                    u64::MAX.div_ceil(1 << 20)
                )
            );
        }
    }
    use crate::board::Queen;
    use crate::verify;

    fn problem(n: u32) -> Problem {
        Problem::new(n).unwrap()
    }

    #[test]
    fn every_board_from_4_to_5000_and_1_is_solved() {
        for n in (4..=5000).chain([1]) {
            let columns = columns(n).unwrap_or_else(|| panic!("n = {n} has a construction"));
            let solution = Solution::from_columns(columns);
            assert_eq!(verify(&problem(n), &solution), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn the_strides_are_the_listed_columns_row_by_row_and_pass_both_checkers() {
        use crate::board::stride::verify_strides;
        for n in (0..=5000).chain([65_535, 1_000_001, 1_000_002, 1_000_003]) {
            let (Some(held), Some(strided)) = (columns(n), strides(n)) else {
                assert!(n == 2 || n == 3, "n = {n}");
                assert_eq!((columns(n), strides(n)), (None, None));
                continue;
            };
            assert!(strided.strides().len() <= 5, "n = {n}");
            assert!(strided.columns().eq(held.iter().copied()), "n = {n}");
            let rows = [0, n / 2, n.saturating_sub(1), n];
            for row in rows.into_iter().filter(|&row| row < n) {
                assert_eq!(strided.column(row), Some(held[row as usize]), "n = {n}");
            }
            assert_eq!(strided.column(n), None);
            if n > 0 {
                let p = problem(n);
                assert_eq!(verify_strides(&p, &strided), Ok(()), "n = {n}");
                if n <= 5000 || n % 2 == 0 {
                    assert_eq!(verify(&p, &Solution::from_columns(held)), Ok(()));
                }
            }
        }
    }

    #[test]
    fn the_largest_board_is_proved_from_its_strides() {
        use crate::board::stride::verify_strides;
        // One board per residue mod 6, up to n = 2³² − 1 (3 mod 6), too large to hold.
        for n in (u32::MAX - 5)..=u32::MAX {
            let strided = strides(n).unwrap();
            assert_eq!(verify_strides(&problem(n), &strided), Ok(()), "n = {n}");
            assert_eq!(strided.rows(), u64::from(n));
            // The first and last rows, from the table in 1-based columns.
            let one_based = |row| strided.column(row).unwrap() + 1;
            let (first, last) = match n % 6 {
                2 => ([2, 4], [n - 1, 5]),
                3 => ([4, 6], [1, 3]),
                _ => ([2, 4], [n - 3 + n % 2, n - 1 + n % 2]),
            };
            assert_eq!([one_based(0), one_based(1)], first, "n = {n}");
            assert_eq!([one_based(n - 2), one_based(n - 1)], last, "n = {n}");
        }
    }

    #[test]
    fn the_engine_gives_its_strides_where_it_would_solve() {
        let mut engine = Construct::default();
        for n in [1, 4, 8, 9, 1000] {
            let strided = engine.strided(&problem(n)).unwrap();
            assert_eq!(engine.stats().get("rows"), Some(u128::from(n)));
            let Outcome::Found(solved) = engine.solve(&problem(n)).unwrap() else {
                panic!("n = {n} has a construction")
            };
            assert!(strided.columns().eq(solved.columns().iter().copied()));
        }
        assert_eq!(engine.strided(&problem(3)), None);
        let fixed = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
        assert_eq!(engine.strided(&fixed), None);
        engine.limits.stop = Some(std::sync::Arc::new(true.into()));
        assert_eq!(engine.strided(&problem(8)), None);
    }

    #[test]
    fn a_million_queens() {
        let n = 1_000_000;
        let mut engine = Construct::default();
        let Outcome::Found(solution) = engine.solve(&problem(n)).unwrap() else {
            panic!("no construction for a million")
        };
        assert_eq!(verify(&problem(n), &solution), Ok(()));
    }

    #[test]
    fn two_and_three_have_none() {
        for n in [2, 3] {
            assert_eq!(columns(n), None);
            assert_eq!(
                Construct::default().solve(&problem(n)).unwrap(),
                Outcome::NoSolution
            );
        }
    }

    #[test]
    fn small_cases_follow_the_published_lists() {
        // 1-based, from the rules in the module documentation.
        let one_based = |n| -> Vec<u32> { columns(n).unwrap().iter().map(|c| c + 1).collect() };
        assert_eq!(one_based(4), [2, 4, 1, 3]);
        assert_eq!(one_based(5), [2, 4, 1, 3, 5]);
        assert_eq!(one_based(6), [2, 4, 6, 1, 3, 5]);
        assert_eq!(one_based(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(one_based(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(
            one_based(14),
            [2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 9, 11, 13, 5]
        );
        assert_eq!(
            one_based(15),
            [4, 6, 8, 10, 12, 14, 2, 5, 7, 9, 11, 13, 15, 1, 3]
        );
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        let engine = Construct::default();
        let fixed = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
        let err = engine.check(Job::Solve, &fixed).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the construct method cannot find a solution: the construction cannot keep fixed \
             queens; local search can"
        );
        for job in [Job::List, Job::Count, Job::CountUnique] {
            assert!(matches!(
                engine.check(job, &problem(8)),
                Err(EngineError::Unsupported { .. })
            ));
        }
        let mut engine = Construct::default();
        assert!(engine.count(&problem(8), false).is_err());
        assert!(
            engine
                .list(&problem(8), None, &mut |_| ControlFlow::Continue(()))
                .is_err()
        );
    }
}
