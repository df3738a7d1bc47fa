//! The work model: how many queens each task will place, estimated before it runs, so that a
//! count shows the share of its work done and an ETA long before its first task ends.
//!
//! # Knuth's estimate
//!
//! A *probe* walks from a task's prefix down its tree with the counting loop's own rules (the
//! class's squares, the four-row lookahead), choosing one live child at random in each row,
//! and adds up, row by row, the queens the loop would place there if every node of the row
//! looked like the one on the path: the queens tried at the node times the product of the
//! live children counted so far. Its expected value is exactly the task's node count (Knuth,
//! "Estimating the efficiency of backtrack programs", *Mathematics of Computation* 29, 1975);
//! one probe is noisy, but a count's remaining work is a sum over many tasks, where the noise
//! averages out: a million probes put n = 16 at 1.298·10⁸ nodes (the count places
//! 1.300·10⁸) and n = 18 at 6.49·10⁹ (6.48·10⁹).
//!
//! # What it costs
//!
//! A probe is O(n) rows of O(n) squares with the lookahead: a few thousand instructions, half a
//! microsecond at n = 27. `estimate` spends about [`PROBES`] probes on a task list (at least
//! one per task, at most 64): a twentieth of a second of one core at n = 17, a second at
//! n = 27 (1.96 million tasks), done beside the count and only when progress is shown. Each
//! task's probes draw from a generator seeded by its id, so the model is the same in every
//! run. [`of_split_list`] gives the same model for a front end that schedules a
//! [`SplitList`]'s tasks itself (`nqueens-mpi --progress`).

use std::sync::atomic::{AtomicBool, Ordering};

use nqueens_support::SplitMix64;

use super::attacks::State;
use super::kernel::TaskBoard;
use super::split::SplitList;
use super::tasks::{self, Class, TaskId};
use super::work::Work;

/// Probes `estimate` spends on a task list, about.
pub const PROBES: usize = 1 << 18;

/// Knuth's estimate of the queens the counting loop places below `start` on `board` (the
/// n×n board of one class), by one random path.
fn probe(board: &TaskBoard, n: u32, start: State, rng: &mut SplitMix64) -> f64 {
    let outside = !tasks::full_mask(n);
    let n = n as usize;
    let (mut state, mut weight, mut nodes) = (start, 1.0, 0.0);
    let mut live = [State::default(); 64];
    while state.row < n {
        let row = state.row;
        let mut taken =
            state.columns | outside | state.left | state.right | board.masks.blocked(row);
        let (mut tried, mut alive) = (0u32, 0usize);
        while taken != u64::MAX {
            let bit = !taken & taken.wrapping_add(1);
            taken |= bit;
            tried += 1;
            let next = State {
                row: row + 1,
                columns: state.columns | outside | bit,
                left: (state.left | bit) << 1,
                right: (state.right | bit) >> 1,
            };
            if !board.masks.dead_after(row, next) {
                live[alive] = next;
                alive += 1;
            }
        }
        nodes += weight * f64::from(tried);
        if alive == 0 {
            break;
        }
        weight *= alive as f64;
        state = live[rng.below(alive as u32) as usize];
    }
    nodes
}

/// The estimated queens of each task `ids` names (of `work`), in order: the mean of its
/// probes (see the [module documentation](self)). `None` if `stop` was raised first (checked
/// every [`ASK_EVERY`] tasks).
pub(crate) fn estimate(work: &Work, ids: &[TaskId], stop: &AtomicBool) -> Option<Vec<f32>> {
    estimate_until(work, ids, || stop.load(Ordering::Relaxed))
}

/// [`estimate`], `None` once `stopped()` says so (asked every [`ASK_EVERY`] tasks): for a
/// caller whose limits are a deadline and a stop flag
/// ([`Budget::check_now`](nqueens_support::Budget::check_now)).
pub(crate) fn estimate_until(
    work: &Work,
    ids: &[TaskId],
    stopped: impl Fn() -> bool,
) -> Option<Vec<f32>> {
    let spread = estimate_prefixes(
        work.n(),
        |prefix| work.kept_board(prefix),
        |id| work.prefix(id),
        ids,
        stopped,
    )?;
    Some(spread.into_iter().map(|(mean, _)| mean).collect())
}

/// Tasks estimated between two calls of the stop test (a few microseconds of probes each).
const ASK_EVERY: usize = 64;

/// [`estimate`], with the variance of each task's mean (its probes' sample variance over
/// their number; 0 for a task of one probe, whose spread is unknown): the model's own
/// noise, which a forecast adds up over the tasks.
pub(crate) fn estimate_with_spread(
    work: &Work,
    ids: &[TaskId],
    stop: &AtomicBool,
) -> Option<Vec<(f32, f32)>> {
    estimate_prefixes(
        work.n(),
        |prefix| work.kept_board(prefix),
        |id| work.prefix(id),
        ids,
        || stop.load(Ordering::Relaxed),
    )
}

/// The work model (see the [module documentation](self)) of the tasks of a [`SplitList`], for
/// a front end that schedules them itself, as `nqueens-mpi` does, and shows the share of the
/// work done and an ETA from it: the estimated queens of each task `ids` names, in order.
/// `None` if `stop` was raised first (checked every 64 tasks).
///
/// # Panics
/// If an id is beyond the list.
pub fn of_split_list(list: &SplitList, ids: &[TaskId], stop: &AtomicBool) -> Option<Vec<f32>> {
    let prefix = |id| list.prefix(id).expect("a task of the list");
    let spread = estimate_prefixes(
        list.n(),
        |_| None,
        prefix,
        ids,
        || stop.load(Ordering::Relaxed),
    )?;
    Some(spread.into_iter().map(|(mean, _)| mean).collect())
}

/// The estimate of the tasks `ids` names, each searched below its prefix on the board
/// `kept_board` gives for it (a board with fixed queens or blocked squares) or else on its
/// class's board, with each mean's variance.
fn estimate_prefixes<'w>(
    n: u32,
    kept_board: impl Fn(&[u8]) -> Option<&'w TaskBoard>,
    prefix_of: impl Fn(TaskId) -> &'w [u8],
    ids: &[TaskId],
    stopped: impl Fn() -> bool,
) -> Option<Vec<(f32, f32)>> {
    let probes = (PROBES / ids.len().max(1)).clamp(1, 64);
    // The whole board's tasks share their class's board: one of each, made on first use.
    let mut boards: Vec<Option<TaskBoard>> = vec![None; n as usize];
    let mut out = Vec::with_capacity(ids.len());
    for (i, &id) in ids.iter().enumerate() {
        if i % ASK_EVERY == 0 && stopped() {
            return None;
        }
        let prefix = prefix_of(id);
        if prefix.len() >= n as usize {
            out.push((0.0, 0.0));
            continue;
        }
        let board = match kept_board(prefix) {
            Some(board) => board,
            None => {
                let class = Class::of(prefix);
                boards[class.b1 as usize].get_or_insert_with(|| TaskBoard::new(n, class))
            }
        };
        let start = State::after(prefix).expect("task prefixes are legal");
        let mut rng = SplitMix64::new(u64::from(id.0));
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for _ in 0..probes {
            let nodes = probe(board, n, start, &mut rng);
            sum += nodes;
            squares += nodes * nodes;
        }
        let k = probes as f64;
        let mean = sum / k;
        let variance = match probes {
            1 => 0.0,
            _ => ((squares - k * mean * mean) / (k - 1.0)).max(0.0) / k,
        };
        out.push((mean as f32, variance as f32));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::TaskList;
    use crate::engines::counter::kernel::{self, Scratch};

    /// The model of whole counts is within a few per cent of the nodes the counter places,
    /// and so is that of a slice of the tasks (the big ones at the end of the list).
    #[test]
    fn the_model_is_close_to_the_real_work() {
        let mut scratch = Scratch::default();
        for n in [10, 12, 14] {
            let list = TaskList::new(n);
            let ids: Vec<TaskId> = list.ids().collect();
            let model =
                estimate(&Work::Whole(list.clone()), &ids, &AtomicBool::new(false)).unwrap();
            let real: Vec<u64> = ids
                .iter()
                .map(|&id| kernel::solve_task(n, list.prefix(id), &mut scratch).nodes)
                .collect();
            let close = |range: std::ops::Range<usize>| {
                let model: f64 = model[range.clone()].iter().map(|&m| f64::from(m)).sum();
                let real = real[range].iter().sum::<u64>() as f64;
                (model / real - 1.0).abs()
            };
            assert!(
                close(0..ids.len()) < 0.03,
                "n = {n}: {}",
                close(0..ids.len())
            );
            let tail = ids.len() * 3 / 4..ids.len();
            assert!(close(tail.clone()) < 0.05, "n = {n}: {}", close(tail));
        }
    }

    #[test]
    fn the_model_is_the_same_every_time_and_stops_when_asked() {
        let list = Work::Whole(TaskList::new(11));
        let ids: Vec<TaskId> = list.ids().step_by(3).collect();
        let stop = AtomicBool::new(false);
        assert_eq!(estimate(&list, &ids, &stop), estimate(&list, &ids, &stop));
        stop.store(true, Ordering::Relaxed);
        assert_eq!(estimate(&list, &ids, &stop), None);
        // n = 4: the only task is a whole solution, with no queen left to place.
        let four = Work::Whole(TaskList::new(4));
        let all: Vec<TaskId> = four.ids().collect();
        assert_eq!(
            estimate(&four, &all, &AtomicBool::new(false)),
            Some(vec![0.0])
        );
    }

    /// A split list's model: the standard list's own at +0, and at +1 within a few per cent
    /// of the queens the counter places (what `nqueens-mpi` shows its share of the work with).
    #[test]
    fn a_split_list_has_the_same_model() {
        let stop = AtomicBool::new(false);
        let standard = SplitList::new(12, 0);
        let ids: Vec<TaskId> = standard.ids().collect();
        assert_eq!(
            of_split_list(&standard, &ids, &stop),
            estimate(&Work::Whole(TaskList::new(12)), &ids, &stop)
        );
        let deeper = SplitList::new(13, 1);
        let ids: Vec<TaskId> = deeper.ids().collect();
        let model: f64 = of_split_list(&deeper, &ids, &stop)
            .unwrap()
            .iter()
            .map(|&m| f64::from(m))
            .sum();
        let mut counter = crate::engines::counter::TaskCounter::default();
        let real: u64 = ids
            .iter()
            .map(|&id| counter.count(&deeper, id).unwrap().nodes)
            .sum();
        assert!(
            (model / real as f64 - 1.0).abs() < 0.03,
            "{model} vs {real}"
        );
    }
}
