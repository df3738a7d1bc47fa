//! The runs' tests: counts stopped inside their tasks and resumed, node for node, on the
//! threads and on a device; boards with fixed queens or blocked squares against the oracle;
//! checkpoints refused for another board.

use std::path::Path;

use nqueens_support::{LimitReached, SplitMix64, Stopped};

use super::CounterError;
use super::device::{self, SharedDevice};
use super::{CountRun, Report, RunOptions};
use crate::board::naive;
use crate::board::symmetry::Group;
use crate::engine::EngineError;
use crate::engines::counter::pieces::PIECE_ROWS;
use crate::{Engine, Problem, Queen};

/// Runs the count of n into `path` with a node budget of `budget` a run (and pieces of
/// `piece_rows` rows, on `device` if given) until one run finishes; returns its report,
/// the runs that stopped, and the positions their checkpoint lines held.
fn count_in_stops(
    n: u32,
    path: &Path,
    budget: u64,
    piece_rows: usize,
    device: Option<SharedDevice>,
) -> (Report, usize, usize) {
    let problem = Problem::new(n).unwrap();
    board_in_stops(&problem, true, path, budget, piece_rows, device)
}

/// [`count_in_stops`] for any board.
fn board_in_stops(
    problem: &Problem,
    unique: bool,
    path: &Path,
    budget: u64,
    piece_rows: usize,
    device: Option<SharedDevice>,
) -> (Report, usize, usize) {
    let (mut stops, mut positions) = (0, 0);
    let options = RunOptions {
        checkpoint: Some(path.to_path_buf()),
        shard: None,
    };
    loop {
        // One thread: how far a run gets past its budget before it sees it depends on
        // nothing but the work, so the number of stops does not change with the machine's
        // load (with two, a loaded machine let each run overshoot, and fewer runs stopped).
        let mut counter = CountRun::new(1);
        counter.piece_rows = piece_rows;
        counter.limits.nodes = Some(budget);
        counter.device = device.clone();
        match counter.run_problem(problem, unique, &options) {
            Ok(report) => return (report, stops, positions),
            Err(CounterError::Engine(EngineError::Stopped {
                stopped:
                    Stopped {
                        reason: LimitReached::Nodes,
                        ..
                    },
                ..
            })) => {
                stops += 1;
                let text = std::fs::read_to_string(path).unwrap();
                positions += text.lines().filter(|l| l.contains(':')).count();
            }
            Err(e) => panic!("{e}"),
        }
        assert!(stops < 100, "no end in sight");
    }
}

#[test]
fn a_count_stopped_inside_its_tasks_resumes_to_the_exact_total() {
    let n = 14;
    let whole = CountRun::new(2).run(n, &RunOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Pieces of 7 rows: the tasks of n = 14 are cut at row 7, dozens of pieces each.
    let budget = (whole.nodes / 6) as u64;
    let (report, stops, positions) = count_in_stops(n, &dir.path().join("a"), budget, 7, None);
    assert_eq!((report.total, report.unique), (whole.total, whole.unique));
    assert_eq!(report.nodes, whole.nodes, "node for node");
    assert!(stops >= 3, "{stops}");
    assert!(positions > 0, "no run stopped inside a task");
    // Positions of another cut row are other pieces: those tasks start over, exactly.
    let path = dir.path().join("b");
    let (_, stops, _) = count_in_stops(n, &path, budget, 7, None);
    assert!(stops > 0);
    let _ = std::fs::remove_file(&path);
    let _ = count_in_stops(n, &path, budget * 2, 7, None);
    let mut again = CountRun::new(2);
    again.piece_rows = 8;
    let report = again.run_with_checkpoint(n, &path).unwrap();
    assert_eq!(report.nodes, whole.nodes);
}

/// A node budget stops a count at the piece that reaches it, whatever the machine's speed or
/// load: the worker that counts the piece raises the stop itself. With a budget of one queen
/// on one thread, the run stops after the first piece of its first task, and the checkpoint
/// holds that one position and no finished task. (When only the bookkeeping thread looked at
/// the budget, it heard of a task's queens when the task was done, and the worker had counted
/// on meanwhile: the stop fell in the second task or later, at a piece that depended on the
/// scheduler.)
#[test]
fn a_node_budget_stops_the_count_at_the_piece_that_reaches_it() {
    let n = 14;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one");
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: None,
    };
    for _ in 0..3 {
        let _ = std::fs::remove_file(&path);
        let mut counter = CountRun::new(1);
        counter.piece_rows = 7;
        counter.limits.nodes = Some(1);
        match counter.run(n, &options) {
            Err(CounterError::Engine(EngineError::Stopped { stopped, .. })) => {
                assert_eq!(stopped.reason, LimitReached::Nodes);
            }
            other => panic!("not stopped by the budget: {other:?}"),
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(lines.len(), 1, "one position, no finished task:\n{text}");
        let fields: Vec<&str> = lines[0].split(' ').collect();
        assert_eq!(fields[0], "0", "the first task:\n{text}");
        assert_eq!(fields[1], "7:1", "cut at row 7, one piece done:\n{text}");
    }
}

/// A resume makes the work model of the tasks left before it counts (seconds at n = 30): under
/// the run's limits, so that a stop raised by then ends the model at once (and the run at its
/// first look at its limits), its opening line without a share; with no stop the share is the
/// model's.
#[test]
fn a_resume_told_to_stop_makes_no_work_model() {
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    use super::job::OpenedSink;

    let n = 14;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stopped");
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: None,
    };
    let whole = CountRun::new(1).run(n, &RunOptions::default()).unwrap();
    // As in `count_in_stops`: pieces of 7 rows, a sixth of the queens, one thread.
    let mut first = CountRun::new(1);
    first.piece_rows = 7;
    first.limits.nodes = Some((whole.nodes / 6) as u64);
    assert!(first.run(n, &options).is_err(), "the first run stops");
    let kept = dir.path().join("kept");
    std::fs::copy(&path, &kept).unwrap();
    let shares = Arc::new(Mutex::new(Vec::new()));
    let resume = |stop: bool| {
        let mut again = CountRun::new(1);
        again.piece_rows = 7;
        again.limits.stop = Some(Arc::new(AtomicBool::new(stop)));
        let seen = Arc::clone(&shares);
        again.on_open = Some(OpenedSink(Arc::new(move |opened| {
            seen.lock().unwrap().push(opened.share);
        })));
        again.run(n, &options)
    };
    // The drive looks at its limits every 100 ms at most: so small a count may end first.
    match resume(true) {
        Err(CounterError::Engine(EngineError::Stopped { stopped, .. })) => {
            assert_eq!(stopped.reason, LimitReached::Stopped);
        }
        Ok(report) => assert_eq!(report.total, whole.total),
        Err(other) => panic!("{other}"),
    }
    // The same stopped checkpoint again (the run above may have finished it).
    std::fs::copy(&kept, &path).unwrap();
    let report = resume(false).unwrap();
    assert_eq!(report.total, whole.total);
    let shares = shares.lock().unwrap().clone();
    assert_eq!(shares.len(), 2);
    assert_eq!(shares[0], None, "no model made after the stop");
    let share = shares[1].expect("the model's share");
    assert!(share > 0.0 && share < 1.0, "{share}");
}

/// Boards with fixed queens or blocked squares, stopped inside their tasks again and
/// again: the exact count, node for node, against the uninterrupted run and plain
/// backtracking; up to symmetry too on a board that keeps some.
#[test]
fn a_masked_count_stopped_inside_its_tasks_resumes_to_the_exact_total() {
    use crate::Queen;
    let dir = tempfile::tempdir().unwrap();
    let lopsided = Problem::with_blocks(
        14,
        [Queen::new(0, 2)],
        [Queen::new(5, 5), Queen::new(9, 1), Queen::new(13, 12)],
    )
    .unwrap();
    // The half turn maps these blocked squares onto each other.
    let turning = Problem::with_blocks(13, [], [Queen::new(2, 3), Queen::new(10, 9)]).unwrap();
    assert_eq!(
        crate::board::symmetry::Group::of(&turning).members().len(),
        2
    );
    for (name, problem, unique) in [("a", &lopsided, false), ("b", &turning, true)] {
        let whole = CountRun::new(2)
            .run_problem(problem, unique, &RunOptions::default())
            .unwrap();
        let expected = crate::engines::backtrack::Backtrack::default()
            .count(problem, unique)
            .unwrap();
        assert_eq!(whole.total, expected.total);
        if unique {
            assert_eq!(Some(whole.unique), expected.unique);
        }
        let path = dir.path().join(name);
        let budget = (whole.nodes / 6) as u64;
        let (report, stops, positions) = board_in_stops(problem, unique, &path, budget, 7, None);
        assert_eq!(
            (report.total, report.unique, report.nodes),
            (whole.total, whole.unique, whole.nodes),
            "{name}"
        );
        assert!(stops >= 3 && positions > 0, "{name}: {stops} {positions}");
    }
}

/// A checkpoint names its board: one of another board, of the bare board, or counted with
/// other symmetries is refused, and left as it was.
#[test]
fn a_checkpoint_of_one_board_is_refused_for_another() {
    use crate::Queen;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ckpt");
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: None,
    };
    let run =
        |problem: &Problem, unique: bool| CountRun::new(1).run_problem(problem, unique, &options);
    let turning = Problem::with_blocks(9, [], [Queen::new(2, 3), Queen::new(6, 5)]).unwrap();
    run(&turning, true).unwrap();
    let before = std::fs::read(&path).unwrap();
    let other = Problem::with_blocks(9, [], [Queen::new(2, 3)]).unwrap();
    for (problem, unique, says) in [
        (&other, true, "was written for another board (board "),
        (
            &turning,
            false,
            "counts the solutions up to the board's 2 symmetries and this run every solution once",
        ),
        (
            &Problem::new(9).unwrap(),
            true,
            "was written for a board with fixed queens or blocked squares (board ",
        ),
    ] {
        let error = run(problem, unique).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
    // The file resumes its own board to the same count.
    let again = run(&turning, true).unwrap();
    assert_eq!(again.resumed, again.tasks);
}

#[test]
fn a_device_count_stops_between_batches_and_resumes_inside_tasks() {
    let n = 13;
    let whole = CountRun::new(2).run(n, &RunOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let budget = (whole.nodes / 20) as u64;
    // A device that answers each batch at once, and one with two batches queued.
    for pipelined in [false, true] {
        let mut cpu = device::SplitOnCpu::default();
        cpu.pipelined = pipelined;
        let device = SharedDevice::new(cpu);
        let path = dir.path().join(format!("gpu-{pipelined}"));
        let (report, stops, positions) = count_in_stops(n, &path, budget, 6, Some(device.clone()));
        assert_eq!(report.total, whole.total);
        assert_eq!(report.nodes, whole.nodes, "pipelined: {pipelined}");
        assert!(stops >= 2 && positions > 0, "{stops} {positions}");
        // Positions written by the threads resume on the device, and the other way round.
        let path = dir.path().join(format!("mixed-{pipelined}"));
        let _ = count_in_stops(n, &path, budget, 6, None);
        let (report, _, _) = count_in_stops(n, &path, budget, 6, Some(device));
        assert_eq!(report.nodes, whole.nodes, "pipelined: {pipelined}");
    }
}

/// The counter's run of `problem` on `threads` threads, in pieces of `piece_rows` rows.
fn count(problem: &Problem, unique: bool, threads: usize, piece_rows: usize) -> Report {
    let mut counter = CountRun::new(threads);
    counter.piece_rows = piece_rows;
    counter
        .run_problem(problem, unique, &RunOptions::default())
        .unwrap()
}

/// Random boards with blocked squares and fixed queens, some symmetric: the masked
/// counter's totals equal the naive oracle's, and its unique counts the number of classes
/// the oracle's solutions fall into under the board's group, on one and on three threads,
/// with tasks whole or cut into pieces of two rows (solutions found above the cut too).
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
        for (threads, piece_rows) in [(1, PIECE_ROWS), (3, 2)] {
            let report = count(&problem, true, threads, piece_rows);
            assert_eq!(report.total, solutions.len() as u128, "{problem:?}");
            assert_eq!(report.unique, classes as u128, "{problem:?}");
            // Without classes every solution of a masked board is its own (the whole
            // board counts its classes always).
            let report = count(&problem, false, threads, piece_rows);
            if problem.is_completion() {
                assert_eq!(report.unique, report.total, "{problem:?}");
            }
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
        assert_eq!(
            count(&problem, false, 2, PIECE_ROWS).total,
            expected,
            "n = {n}"
        );
    }
}
