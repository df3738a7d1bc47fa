//! The counter on boards with fixed queens or blocked squares: the same counting loops, under
//! per-row masks of the allowed squares, with no symmetry rules.
//!
//! # The invariant
//!
//! Row r may take exactly the squares [`allowed_rows`] gives it: the fixed queen's square on a
//! row that has one, otherwise every square that is not blocked and not attacked by a fixed
//! queen. A placement of one queen per row on allowed squares, none attacking another, is
//! then exactly a solution of the problem (a fixed queen's row takes nothing else, and no
//! other queen can attack it), so the loops of [`super::kernel`] count the problem's solutions
//! unchanged: they already read a mask of allowed squares per row (the whole board's
//! symmetry rules are such masks). The whole-board trick of counting one member per
//! symmetry class does not apply; the loops count every solution (`TaskTies::NONE`).
//!
//! # Tasks
//!
//! The first rows are filled every legal way ([`prefixes`]), deep enough for about
//! [`TASKS_PER_THREAD`] tasks per thread, and the threads take the tasks in turn; each costs
//! what its subtree costs, O(1) per queen placed, and the lanes loop runs them where the CPU
//! has it, as for the whole board.
//!
//! # Up to symmetry
//!
//! The board keeps the symmetries that map its fixed queens and its blocked squares onto
//! themselves ([`Group::of`]). With the identity alone, every solution is its own class and
//! the unique count is the total. Otherwise the tasks enumerate their solutions
//! ([`kernel::visit_completions`]) and count the canonical ones under the group, O(|group| · n)
//! each.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::attacks::State;
use super::kernel::{self, RowMasks, Scratch};
use super::tasks::full_mask;
use crate::board::symmetry::Group;
use crate::board::{Problem, Solution};
use crate::engine::{Budget, Counts, Limits, Progress, ProgressSink};
use nqueens_support::LimitReached;

/// Tasks per worker thread the prefixes aim at: enough that threads finish together. (A stop
/// waits for no task: the loops look at the stop flag every millisecond or so, and the tasks in
/// flight are dropped, these counts having no checkpoint.) 64 made tasks of 45 ms on
/// `count 18 --fix 1:3 --block 9:9`; 1024 makes them 3 ms, with no measurable cost.
const TASKS_PER_THREAD: usize = 1024;

/// How often (at most) progress is reported.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// The squares each row may take, as bit masks (see the module essay). O(n · k) for k fixed
/// queens, plus O(b) for b blocked squares.
pub(crate) fn allowed_rows(problem: &Problem) -> Vec<u64> {
    let n = problem.n();
    let mut allowed = vec![full_mask(n); n as usize];
    for square in problem.blocked() {
        allowed[square.row as usize] &= !(1u64 << square.col);
    }
    for queen in problem.fixed() {
        for (row, mask) in (0..n).zip(allowed.iter_mut()) {
            if row == queen.row {
                *mask = 1 << queen.col;
                continue;
            }
            let distance = row.abs_diff(queen.row);
            let mut attacked = 1u64 << queen.col;
            if let Some(col) = queen.col.checked_sub(distance) {
                attacked |= 1 << col;
            }
            if queen.col + distance < n {
                attacked |= 1 << (queen.col + distance);
            }
            *mask &= !attacked;
        }
    }
    allowed
}

/// Every legal way to fill the first rows under `masks`, as few rows as give `target` ways or
/// more (but at most n − 2 rows, so that every task has two rows left for the lanes loop).
pub(crate) fn prefixes(masks: &RowMasks, target: usize) -> Vec<Vec<u8>> {
    let n = masks.n();
    let mut level: Vec<(Vec<u8>, State)> = vec![(Vec::new(), State::default())];
    let mut depth = 0;
    while level.len() < target && depth + 2 < n {
        let mut next = Vec::with_capacity(level.len() * 4);
        for (prefix, state) in &level {
            let mut free = !(state.columns | state.left | state.right | masks.blocked(depth));
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let mut longer = prefix.clone();
                longer.push(bit.trailing_zeros() as u8);
                next.push((longer, state.place(bit)));
            }
        }
        level = next;
        depth += 1;
    }
    level.into_iter().map(|(prefix, _)| prefix).collect()
}

/// What one task found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    pub total: u64,
    /// Canonical solutions under the group (counted only when asked for).
    pub unique: u64,
    pub nodes: u64,
}

/// The completions of `prefix` under `masks`: counted by the fastest loop, or enumerated and
/// checked against `group` when one is given; `None` if `stop` was raised first.
pub(crate) fn solve_task(
    masks: &RowMasks,
    prefix: &[u8],
    group: Option<&Group>,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> Option<Found> {
    let Some(group) = group else {
        let (total, nodes) = kernel::count_plain(masks, prefix, scratch, stop)?;
        return Some(Found {
            total,
            unique: 0,
            nodes,
        });
    };
    let start = State::after(prefix).expect("prefixes are legal");
    let mut found = Found::default();
    let mut columns = Vec::with_capacity(masks.n());
    found.nodes = kernel::visit_completions(masks, prefix, start, scratch, stop, &mut |placed| {
        columns.clear();
        columns.extend(placed.iter().map(|bit| bit.trailing_zeros()));
        let solution = Solution::from_columns(std::mem::take(&mut columns));
        found.total += 1;
        found.unique += u64::from(group.is_canonical(&solution));
        columns = solution.into_columns();
    })?;
    Some(found)
}

/// Counts the solutions of `problem` (fixed queens or blocked squares allowed) on `threads`
/// threads, with the unique count under the board's own symmetries when asked for; returns
/// the counts, the nodes and the number of tasks.
pub(crate) fn count(
    problem: &Problem,
    unique: bool,
    threads: usize,
    limits: &Limits,
    progress: Option<&ProgressSink>,
) -> Result<(Counts, u128, u64), LimitReached> {
    let masks = RowMasks::new(&allowed_rows(problem));
    let group = Group::of(problem);
    // A board that keeps no symmetry has as many classes as solutions: count plainly.
    let enumerate = unique && !group.is_trivial();
    let group = enumerate.then_some(&group);
    let tasks = prefixes(&masks, TASKS_PER_THREAD * threads.max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let budget = Budget::start(limits);
    let (sender, receiver) = mpsc::channel::<Found>();
    let mut sums = Found::default();
    let mut done = 0u64;
    let mut gave_up = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, tasks.len().max(1)) {
            let sender = sender.clone();
            let (tasks, masks, next, stop) = (&tasks, &masks, &next, &stop);
            scope.spawn(move || {
                let mut scratch = Box::<Scratch>::default();
                while !stop.load(Ordering::Relaxed) {
                    let Some(prefix) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let Some(found) = solve_task(masks, prefix, group, &mut scratch, stop) else {
                        break;
                    };
                    if sender.send(found).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let report = |sums: &Found, done: u64| {
            if let Some(sink) = progress {
                sink.report(&Progress {
                    done,
                    total: Some(tasks.len() as u64),
                    solutions: u128::from(sums.total),
                    nodes: u128::from(sums.nodes),
                    ..Progress::default()
                });
            }
        };
        let mut last_report = Instant::now();
        let flow = loop {
            match receiver.recv_timeout(PROGRESS_INTERVAL) {
                Ok(found) => {
                    sums.total += found.total;
                    sums.unique += found.unique;
                    sums.nodes += found.nodes;
                    done += 1;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break ControlFlow::Continue(()),
            }
            if let Err(reached) = budget.check_now() {
                break ControlFlow::Break(reached);
            }
            if last_report.elapsed() >= PROGRESS_INTERVAL {
                report(&sums, done);
                last_report = Instant::now();
            }
        };
        if let ControlFlow::Break(reached) = flow {
            gave_up = Some(reached);
            stop.store(true, Ordering::Relaxed);
        } else {
            report(&sums, done);
        }
    });
    if let Some(reached) = gave_up {
        return Err(reached);
    }
    let counts = Counts {
        total: u128::from(sums.total),
        unique: unique.then(|| u128::from(if enumerate { sums.unique } else { sums.total })),
    };
    Ok((counts, u128::from(sums.nodes), tasks.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Queen;
    use crate::board::naive;
    use nqueens_support::SplitMix64;

    /// Random boards with blocked squares and fixed queens, some symmetric: the masked
    /// counter's totals equal the naive oracle's, and its unique counts the number of classes
    /// the oracle's solutions fall into under the board's group, on one and on three threads.
    #[test]
    fn masked_counts_match_the_oracle_and_its_classes() {
        let mut rng = SplitMix64::new(80);
        let mut symmetric = 0;
        for round in 0..240 {
            let n = 1 + rng.below(9);
            let mut blocked: Vec<Queen> = (0..rng.below(2 * n))
                .map(|_| Queen::new(rng.below(n), rng.below(n)))
                .collect();
            if round % 2 == 0 {
                // Close the set under the half turn, so that some symmetry survives.
                let turned: Vec<Queen> = blocked
                    .iter()
                    .map(|&q| Queen::new(n - 1 - q.row, n - 1 - q.col))
                    .collect();
                blocked.extend(turned);
            }
            let fixed: Vec<Queen> = if round % 5 == 0 {
                vec![Queen::new(rng.below(n), rng.below(n))]
            } else {
                Vec::new()
            };
            let Ok(problem) = Problem::with_blocks(n, fixed, blocked) else {
                continue;
            };
            let solutions = naive::solutions(&problem);
            let group = Group::of(&problem);
            symmetric += usize::from(!group.is_trivial());
            let classes = solutions.iter().filter(|s| group.is_canonical(s)).count();
            for threads in [1, 3] {
                let (counts, _, _) =
                    count(&problem, true, threads, &Limits::default(), None).unwrap();
                assert_eq!(counts.total, solutions.len() as u128, "{problem:?}");
                assert_eq!(counts.unique, Some(classes as u128), "{problem:?}");
            }
        }
        assert!(symmetric > 30, "only {symmetric} symmetric boards drawn");
    }

    /// Boards of n = 10..14 with blocks, where the lanes loop runs the tasks (on CPUs that have
    /// it): the counts agree with plain backtracking.
    #[test]
    fn masked_counts_agree_with_backtracking_on_larger_boards() {
        use crate::Engine;
        let mut rng = SplitMix64::new(81);
        for n in 10..=14 {
            let blocked: Vec<Queen> = (0..3 * n)
                .map(|_| Queen::new(rng.below(n), rng.below(n)))
                .collect();
            let problem = Problem::with_blocks(n, [], blocked).unwrap();
            let expected = crate::engines::backtrack::Backtrack::default()
                .count(&problem, false)
                .unwrap()
                .total;
            let (counts, _, _) = count(&problem, false, 2, &Limits::default(), None).unwrap();
            assert_eq!(counts.total, expected, "n = {n}");
        }
    }
}
