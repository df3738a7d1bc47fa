//! The whole protocol without MPI: rank 0 and P − 1 worker ranks as threads, linked by
//! channels, counting real boards with and without a checkpoint.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use nqueens_mpi::pool::Workers;
use nqueens_mpi::{
    Coordination, CoordinatorLink, Ending, MpiError, Outcome, Settings, WorkerLink, work,
};
use nqueens_solver::engines::counter::{SplitList, TaskCounter, TaskId};
use nqueens_solver::instances::oeis;
use nqueens_solver::runs::checkpoint::record_line;
use nqueens_solver::runs::{Checkpoint, CountRun, Report, RunOptions, Shard};

struct Hub {
    inbox: Receiver<(usize, Vec<u64>)>,
    outboxes: Vec<Sender<Vec<u64>>>,
}

impl CoordinatorLink for Hub {
    fn ranks(&self) -> usize {
        self.outboxes.len() + 1
    }
    fn poll(&mut self) -> Option<(usize, Vec<u64>)> {
        self.inbox.try_recv().ok()
    }
    fn send(&mut self, rank: usize, words: &[u64]) {
        let _ = self.outboxes[rank - 1].send(words.to_vec());
    }
}

struct Spoke {
    rank: usize,
    up: Sender<(usize, Vec<u64>)>,
    down: Receiver<Vec<u64>>,
}

impl WorkerLink for Spoke {
    fn send(&mut self, words: &[u64]) {
        let _ = self.up.send((self.rank, words.to_vec()));
    }
    fn poll(&mut self) -> Option<Vec<u64>> {
        self.down.try_recv().ok()
    }
}

/// Runs a job of `ranks` ranks of `threads` threads on `list`.
fn job(
    list: &Arc<SplitList>,
    ranks: usize,
    threads: usize,
    checkpoint: Option<&std::path::Path>,
) -> Result<Outcome, MpiError> {
    job_with_times(list, ranks, threads, checkpoint, None)
}

fn job_with_times(
    list: &Arc<SplitList>,
    ranks: usize,
    threads: usize,
    checkpoint: Option<&std::path::Path>,
    times: Option<&std::path::Path>,
) -> Result<Outcome, MpiError> {
    mixed_job(
        list,
        ranks,
        |_| Workers::Threads(threads),
        checkpoint,
        times,
    )
}

/// Runs a job whose ranks count with `workers(rank)`.
fn mixed_job(
    list: &Arc<SplitList>,
    ranks: usize,
    workers: impl Fn(usize) -> Workers + Sync,
    checkpoint: Option<&std::path::Path>,
    times: Option<&std::path::Path>,
) -> Result<Outcome, MpiError> {
    let settings = |_| Settings::new(list);
    job_with_settings(list, ranks, workers, settings, checkpoint, times).0
}

/// Runs a job whose ranks count with `workers(rank)` under `settings(rank)`; returns rank 0's
/// outcome and how the other ranks ended.
fn job_with_settings(
    list: &Arc<SplitList>,
    ranks: usize,
    workers: impl Fn(usize) -> Workers + Sync,
    settings: impl Fn(usize) -> Settings + Sync,
    checkpoint: Option<&std::path::Path>,
    times: Option<&std::path::Path>,
) -> (Result<Outcome, MpiError>, Vec<Ending>) {
    let mut coordination = match Coordination::open(list.clone(), checkpoint, settings(0)) {
        Ok(coordination) => coordination,
        Err(e) => return (Err(e), Vec::new()),
    };
    if let Some(path) = times {
        if let Err(e) = coordination.record_task_times(path) {
            return (Err(e), Vec::new());
        }
    }
    let (up, inbox) = channel();
    let mut outboxes = Vec::new();
    let (workers, settings) = (&workers, &settings);
    std::thread::scope(|scope| {
        let mut others = Vec::new();
        for rank in 1..ranks {
            let (down_sender, down) = channel();
            outboxes.push(down_sender);
            let mut spoke = Spoke {
                rank,
                up: up.clone(),
                down,
            };
            let list = list.clone();
            others
                .push(scope.spawn(move || {
                    work(list, &mut spoke, workers(rank), &settings(rank)).unwrap()
                }));
        }
        let mut hub = Hub { inbox, outboxes };
        let outcome = coordination.run(&mut hub, workers(0));
        // An interrupted rank 0 does not wait for every rank (MPI_Abort ends them): here they
        // end on its word, and their channel to it closes with the hub.
        drop(hub);
        let endings = others.into_iter().map(|h| h.join().unwrap()).collect();
        (outcome, endings)
    })
}

#[test]
fn ranks_with_devices_count_beside_ranks_with_threads() {
    // The CPU stand-in for a GPU on every other rank (rank 0 included), threads on the rest.
    use nqueens_solver::runs::SharedDevice;
    use nqueens_solver::runs::device::SplitOnCpu;
    for n in [8, 11, 12] {
        let list = Arc::new(SplitList::new(n, 0));
        let workers = |rank: usize| {
            if rank % 2 == 0 {
                Workers::Device(SharedDevice::new(SplitOnCpu::default()))
            } else {
                Workers::Threads(2)
            }
        };
        let outcome = mixed_job(&list, 3, workers, None, None).unwrap();
        assert_eq!(outcome.report.total, oeis::total(n).unwrap(), "n = {n}");
        assert_eq!(outcome.report.unique, oeis::unique(n).unwrap(), "n = {n}");
        // A device rank counts as one worker.
        assert_eq!(
            outcome.ranks.iter().map(|r| r.threads).collect::<Vec<_>>(),
            [1, 2, 1]
        );
    }
}

#[test]
fn every_rank_count_gives_the_published_totals() {
    for n in [1, 2, 6, 8, 10, 11] {
        for (ranks, threads) in [(1, 1), (2, 1), (3, 2), (4, 1)] {
            let list = Arc::new(SplitList::new(n, 0));
            let outcome = job(&list, ranks, threads, None).unwrap();
            let report = &outcome.report;
            assert_eq!(
                report.total,
                oeis::total(n).unwrap(),
                "n = {n}, P = {ranks}"
            );
            assert_eq!(
                report.unique,
                oeis::unique(n).unwrap(),
                "n = {n}, P = {ranks}"
            );
            let tasks: u64 = outcome.ranks.iter().map(|r| r.tasks).sum();
            assert_eq!(tasks, list.len() as u64);
            assert_eq!(outcome.ranks.len(), ranks);
        }
    }
    // A deeper split counts the same, over more tasks.
    let list = Arc::new(SplitList::new(12, 1));
    let outcome = job(&list, 3, 1, None).unwrap();
    assert_eq!(outcome.report.total, 14_200);
    assert_eq!(outcome.report.tasks, list.len() as u64);
}

#[test]
fn a_killed_job_resumes_from_its_checkpoint_without_double_counting() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n12.ckpt");
    let list = Arc::new(SplitList::new(12, 0));
    // What a killed job leaves: the header, the results of some tasks in the order they
    // finished, and a torn last line.
    let mut text = list.header(nqueens_solver::runs::Shard::ALL).line(4242);
    let mut counter = TaskCounter::default();
    let done: Vec<TaskId> = list.ids().filter(|id| id.0 % 3 == 1).collect();
    for &id in done.iter().rev() {
        let result = counter.count(&list, id).unwrap();
        text.push_str(&record_line(list.fingerprint(), id, &result));
    }
    text.push_str("17 8");
    std::fs::write(&path, text).unwrap();
    let outcome = job(&list, 3, 1, Some(&path)).unwrap();
    assert_eq!(outcome.report.total, 14_200);
    assert_eq!(outcome.report.unique, 1_787);
    assert_eq!(outcome.report.resumed, done.len() as u64);
    let this_run: u64 = outcome.ranks.iter().map(|r| r.tasks).sum();
    assert_eq!(this_run, (list.len() - done.len()) as u64);
    // The checkpoint now holds every task once: a third run counts nothing.
    let again = job(&list, 2, 1, Some(&path)).unwrap();
    assert_eq!(again.report.total, 14_200);
    assert_eq!(again.report.resumed, list.len() as u64);
    // A checkpoint of another n, or of another split of the same n, is refused up front.
    for other in [SplitList::new(11, 0), SplitList::new(12, 1)] {
        let settings = Settings::new(&other);
        let err = Coordination::open(Arc::new(other), Some(&path), settings).unwrap_err();
        assert!(matches!(err, MpiError::Counter(_)), "{err}");
        assert!(err.to_string().starts_with("checkpoint "), "{err}");
    }
}

#[test]
fn task_times_name_every_task_of_the_run_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("times.txt");
    let list = Arc::new(SplitList::new(11, 0));
    let outcome = job_with_times(&list, 3, 1, None, Some(&path)).unwrap();
    assert_eq!(outcome.report.total, 2_680);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("# nqueens-mpi task times: n=11 depth=4 tasks=")
    );
    let mut seen = vec![false; list.len()];
    let mut nodes = 0u128;
    for line in lines {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        let id: usize = fields[0].parse().unwrap();
        assert!(!seen[id], "task {id} twice");
        seen[id] = true;
        assert!(fields[1].parse::<usize>().unwrap() < 3);
        assert!(fields[2].parse::<f64>().unwrap() >= 0.0);
        nodes += fields[3].parse::<u128>().unwrap();
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(nodes, outcome.report.nodes);
    // A file that cannot be created stops the count before it starts.
    let settings = Settings::new(&list);
    let mut c = Coordination::open(list, None, settings).unwrap();
    let err = c.record_task_times(dir.path()).unwrap_err();
    assert!(matches!(err, MpiError::Io { .. }), "{err}");
}

#[test]
fn a_raised_stop_flag_ends_the_count_and_the_same_command_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n11.ckpt");
    let list = Arc::new(SplitList::new(11, 0));
    // A first run that recorded every other task.
    let mut text = list.header(nqueens_solver::runs::Shard::ALL).line(4242);
    let mut counter = TaskCounter::default();
    let done: Vec<TaskId> = list.ids().filter(|id| id.0 % 2 == 0).collect();
    for &id in &done {
        let result = counter.count(&list, id).unwrap();
        text.push_str(&record_line(list.fingerprint(), id, &result));
    }
    std::fs::write(&path, &text).unwrap();
    // Ctrl-C before the first turn: nothing new is counted, the checkpoint is kept as it was.
    let settings = Settings {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..Settings::new(&list)
    };
    let coordination = Coordination::open(list.clone(), Some(&path), settings).unwrap();
    let (_up, inbox) = channel();
    let mut hub = Hub {
        inbox,
        outboxes: Vec::new(),
    };
    match coordination.run(&mut hub, Workers::Threads(1)) {
        Err(MpiError::Interrupted {
            saved,
            tasks,
            in_part: 0,
        }) => {
            assert_eq!((saved, tasks), (done.len() as u64, list.len() as u64));
        }
        other => panic!("not interrupted: {other:?}"),
    }
    // The records are those of the first run (the header names the process that holds it).
    let records = |text: &str| text.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(
        records(&std::fs::read_to_string(&path).unwrap()),
        records(&text)
    );
    let outcome = job(&list, 2, 1, Some(&path)).unwrap();
    assert_eq!(outcome.report.total, oeis::total(11).unwrap());
    assert_eq!(outcome.report.resumed, done.len() as u64);
}

/// What a resumed job must place, node for node, when it goes on from the checkpoint at
/// `path` with pieces cut at row `cut`: the whole count's queens less those of the recorded
/// tasks and of the positions it takes up.
fn nodes_left(list: &SplitList, path: &Path, cut: usize, whole: u128) -> (u128, usize) {
    let (file, records) = Checkpoint::open(path, &list.header(Shard::ALL)).unwrap();
    let recorded: u128 = records.iter().map(|(_, r)| u128::from(r.nodes)).sum();
    let taken: Vec<_> = file
        .positions()
        .iter()
        .filter(|(_, p)| p.cut as usize == cut && p.pieces > 0)
        .collect();
    let placed: u128 = taken.iter().map(|(_, p)| u128::from(p.found.nodes)).sum();
    (whole - recorded - placed, taken.len())
}

/// Raises `flag` after `delay`, from a thread of its own.
fn raise_later(flag: &Arc<AtomicBool>, delay: Duration) {
    let flag = flag.clone();
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        flag.store(true, Ordering::SeqCst);
    });
}

/// Runs the job of `list` on `ranks` ranks (pieces cut at `cut`, checkpoint at `path`) and
/// stops it after `delay` by a flag the ranks `stopped(tries, rank)` names see, again and again
/// until the checkpoint holds a task in part (a stop that lands between a task's start and its
/// first piece leaves none); each job must end interrupted with every worker rank stopped.
/// Gives the nodes the positions left of `whole`.
#[allow(clippy::too_many_arguments)]
fn stop_until_a_task_is_in_part(
    list: &Arc<SplitList>,
    ranks: usize,
    workers: impl Fn(usize) -> Workers + Sync,
    stopped: impl Fn(usize, usize) -> bool + Sync,
    delay: Duration,
    path: &Path,
    cut: usize,
    whole: u128,
) -> u128 {
    for tries in 0..10 {
        let flag = Arc::new(AtomicBool::new(false));
        let settings = |rank| Settings {
            cut,
            stop: stopped(tries, rank).then(|| flag.clone()),
            positions_every: Duration::from_secs(3600),
            ..Settings::new(list)
        };
        raise_later(&flag, delay);
        let (outcome, endings) =
            job_with_settings(list, ranks, &workers, settings, Some(path), None);
        assert!(
            matches!(outcome, Err(MpiError::Interrupted { .. })),
            "not interrupted: {outcome:?}"
        );
        // Every worker rank stopped (on its own flag, or on rank 0's word).
        assert_eq!(endings, vec![Ending::Stopped; ranks - 1]);
        let (left, taken) = nodes_left(list, path, cut, whole);
        if taken > 0 {
            return left;
        }
    }
    panic!("no stop left a task in part");
}

/// Resumes the job of `list` on two ranks from the checkpoint at `path` (tasks cut at `cut`)
/// and checks that it reaches the published count with `whole`'s nodes, placing only the
/// `left` queens its positions had not placed.
fn resume_from_positions(
    list: &Arc<SplitList>,
    workers: impl Fn(usize) -> Workers + Sync,
    cut: usize,
    path: &std::path::Path,
    whole: &Report,
    left: u128,
) {
    let settings = |_| Settings {
        cut,
        ..Settings::new(list)
    };
    let (outcome, _) = job_with_settings(list, 2, workers, settings, Some(path), None);
    let report = outcome.unwrap().report;
    assert_eq!(report.total, oeis::total(list.n()).unwrap());
    assert_eq!(report.nodes, whole.nodes, "node for node");
    assert_eq!(report.new_nodes, left, "went on from the positions");
}

/// A job stopped inside its tasks (first by one worker rank's own signal, which stops the
/// whole job, then by every rank's, until the checkpoint holds a task in part: a stop that
/// lands between a task's start and its first piece leaves none) keeps the pieces of its
/// tasks in flight, on every rank, in the checkpoint; the resumed job goes on from them to the
/// exact count, node for node, placing only the queens that were left.
#[test]
fn a_stopped_job_keeps_the_pieces_of_its_tasks_on_every_rank_and_resumes_from_them() {
    // n = 16: the same task list depth and the same cut rule as 17 (whose whole job and resume
    // cost 25 s of CPU here, 16's 4 s), the job still running for over a second on two ranks.
    let n = 16;
    let list = Arc::new(SplitList::new(n, 0));
    // Pieces of 7 rows: the tasks of n = 16 cut at row 9, dozens of pieces each.
    let cut = list.cut(7);
    assert_eq!(cut, 9);
    let threads = |_| Workers::Threads(1);
    let whole = job(&list, 2, 1, None).unwrap().report;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n16.ckpt");
    // The first stop on one worker rank's own flag, which stops the whole job; then on every
    // rank's.
    let stopped = |tries: usize, rank: usize| tries > 0 || rank == 2;
    let left = stop_until_a_task_is_in_part(
        &list,
        3,
        threads,
        stopped,
        Duration::from_millis(150),
        &path,
        cut,
        whole.nodes,
    );
    resume_from_positions(&list, threads, cut, &path, &whole, left);
}

/// A rank counting on a device (here the CPU stand-in for a GPU) stops between two batches of
/// pieces and says where its task in part got; the job resumes from there node for node.
#[test]
fn a_device_rank_stops_between_batches_and_its_task_goes_on_from_its_pieces() {
    use nqueens_solver::runs::SharedDevice;
    use nqueens_solver::runs::device::SplitOnCpu;
    let n = 16;
    let list = Arc::new(SplitList::new(n, 0));
    let cut = list.cut(7);
    let whole = job(&list, 2, 1, None).unwrap().report;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n16.ckpt");
    let workers = |rank: usize| match rank {
        1 => Workers::Device(SharedDevice::new(SplitOnCpu::default())),
        _ => Workers::Threads(1),
    };
    let left = stop_until_a_task_is_in_part(
        &list,
        2,
        workers,
        |_, _| true,
        Duration::from_millis(100),
        &path,
        cut,
        whole.nodes,
    );
    resume_from_positions(&list, workers, cut, &path, &whole, left);
}

/// A checkpoint that `nqueens count` left with tasks in part (its pieces cut where the job
/// cuts them) is resumed by a job from those positions.
#[test]
fn a_job_resumes_a_count_checkpoint_from_its_positions() {
    let n = 15;
    let list = Arc::new(SplitList::new(n, 0));
    let whole = job(&list, 2, 1, None).unwrap().report;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n15.ckpt");
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: None,
    };
    let cut = list.cut(7);
    // A node budget stops each count a tenth further on; a stop right after a task ends (the
    // budget is checked on its result) leaves that thread's next task with no piece done.
    let (left, taken) = (1..10)
        .find_map(|stops| {
            let mut counter = CountRun::new(2);
            counter.piece_rows = 7;
            counter.limits.nodes = Some((whole.nodes / 10) as u64);
            assert!(counter.run(n, &options).is_err(), "stop {stops}");
            Some(nodes_left(&list, &path, cut, whole.nodes)).filter(|&(_, taken)| taken > 0)
        })
        .expect("the count left a task in part");
    assert!(taken > 0);
    let settings = |_| Settings {
        cut,
        ..Settings::new(&list)
    };
    let threads = |_| Workers::Threads(1);
    let (outcome, _) = job_with_settings(&list, 3, threads, settings, Some(&path), None);
    let report = outcome.unwrap().report;
    assert_eq!(report.total, oeis::total(n).unwrap());
    assert_eq!(report.nodes, whole.nodes);
    assert_eq!(report.new_nodes, left);
}

/// Positions sent while the job runs (here every few milliseconds) reach the checkpoint, so
/// a job killed outright loses only the pieces counted since.
#[test]
fn positions_reach_the_checkpoint_while_the_job_runs() {
    let n = 16;
    let list = Arc::new(SplitList::new(n, 0));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n16.ckpt");
    let cut = list.cut(7);
    let settings = |_| Settings {
        cut,
        stop: None,
        positions_every: Duration::from_millis(5),
        ..Settings::new(&list)
    };
    let threads = |_| Workers::Threads(1);
    let (outcome, _) = job_with_settings(&list, 3, threads, settings, Some(&path), None);
    assert_eq!(outcome.unwrap().report.total, oeis::total(n).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let positions = text.lines().filter(|l| l.contains(':')).count();
    assert!(positions > 0, "no position written while running");
}

/// A time limit stops the job as an interrupt does (every rank stopped, the tasks in flight
/// kept in part) but says so: [`MpiError::TimeLimit`]. The checkpoint resumes to the
/// published count, node for node.
#[test]
fn a_time_limit_stops_the_job_with_a_resumable_checkpoint() {
    let n = 16;
    let list = Arc::new(SplitList::new(n, 0));
    let cut = list.cut(7);
    let whole = job(&list, 2, 1, None).unwrap().report;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n16.ckpt");
    let threads = |_| Workers::Threads(1);
    let limited = |_| Settings {
        cut,
        time_limit: Some(Duration::from_millis(200)),
        ..Settings::new(&list)
    };
    let (outcome, endings) = job_with_settings(&list, 3, threads, limited, Some(&path), None);
    let Err(MpiError::TimeLimit { saved, tasks, .. }) = outcome else {
        panic!("not stopped at the time limit: {outcome:?}");
    };
    assert_eq!(endings, vec![Ending::Stopped; 2]);
    assert_eq!(tasks, list.len() as u64);
    assert!(
        saved < tasks,
        "{saved} of {tasks}: the limit came after the end"
    );
    let (_, records) = Checkpoint::open(&path, &list.header(Shard::ALL)).unwrap();
    assert_eq!(records.len() as u64, saved);
    let (left, _) = nodes_left(&list, &path, cut, whole.nodes);
    resume_from_positions(&list, threads, cut, &path, &whole, left);
}

/// Rank 0 reports the whole count's progress: tasks done out of all of them (the resumed ones
/// included from the first snapshot on), solutions so far, and the work model's queens left,
/// which reach 0 with the last task.
#[test]
fn rank_0_reports_the_progress_of_the_whole_count() {
    use nqueens_solver::{Progress, ProgressSink};
    use std::sync::Mutex;
    let n = 14;
    let list = Arc::new(SplitList::new(n, 0));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n14.ckpt");
    // A checkpoint holding the first hundred tasks.
    let mut counter = TaskCounter::default();
    let (mut file, _) = Checkpoint::open(&path, &list.header(Shard::ALL)).unwrap();
    for id in list.ids().take(100) {
        file.record(id, &counter.count(&list, id).unwrap()).unwrap();
    }
    file.sync().unwrap();
    drop(file);
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = {
        let seen = seen.clone();
        ProgressSink::new(move |p| seen.lock().unwrap().push(*p))
    };
    let settings = |_| Settings {
        progress: Some(sink.clone()),
        ..Settings::new(&list)
    };
    let threads = |_| Workers::Threads(1);
    let (outcome, _) = job_with_settings(&list, 2, threads, settings, Some(&path), None);
    assert_eq!(outcome.unwrap().report.total, oeis::total(n).unwrap());
    let seen = seen.lock().unwrap();
    let (first, last) = (seen.first().unwrap(), seen.last().unwrap());
    let tasks = Some(list.len() as u64);
    assert_eq!((first.done, first.total), (100, tasks));
    assert_eq!((last.done, last.total), (list.len() as u64, tasks));
    assert_eq!(last.solutions, oeis::total(n).unwrap());
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
    // The model, if it was ready before the end, has nothing left (to the rounding of f32).
    assert!(last.nodes_left.is_none_or(|left| left < 1000), "{last:?}");
}
