//! The record-class counter against the published counts, across thread counts, shards and
//! checkpoints cut at arbitrary bytes.

use std::path::Path;

use nqueens::engines::counter::{self, Counter, Report, RunOptions, Shard, TaskList};
use nqueens::{Engine, Problem, instances::oeis};

fn whole(n: u32, threads: usize) -> Report {
    Counter::new(threads)
        .run(n, &RunOptions::default())
        .unwrap()
}

fn with_checkpoint(n: u32, threads: usize, path: &Path) -> Result<Report, nqueens::Error> {
    Counter::new(threads).run_with_checkpoint(n, path)
}

/// Counts the whole n×n board with each of 1..=4 threads and checks every report against OEIS.
fn check_every_thread_count(sizes: impl IntoIterator<Item = u32> + Clone) {
    for threads in 1..=4 {
        for n in sizes.clone() {
            let report = whole(n, threads);
            let at = format!("n = {n}, {threads} threads");
            assert_eq!(report.total, oeis::total(n).unwrap(), "{at}");
            assert_eq!(report.unique, oeis::unique(n).unwrap(), "{at}");
            assert_eq!(report.tasks, TaskList::new(n).len() as u64, "{at}");
            assert_eq!(report.resumed, 0, "{at}");
        }
    }
}

#[test]
fn counts_match_oeis_for_every_thread_count() {
    check_every_thread_count(1..=15);
}

#[test]
fn counts_match_oeis_at_16_and_17_for_every_thread_count() {
    check_every_thread_count([16, 17]);
}

#[test]
fn the_engine_api_counts_and_says_what_it_did() {
    let mut counter = Counter::new(2);
    let counts = counter.count(&Problem::new(11).unwrap(), true).unwrap();
    assert_eq!(counts.total, 2680);
    assert_eq!(counts.unique, Some(341));
    let stats = counter.stats().to_string();
    assert!(
        stats.contains(&format!("tasks={}", TaskList::new(11).len())),
        "{stats}"
    );
    let counts = counter.count(&Problem::new(11).unwrap(), false).unwrap();
    assert_eq!(counts.unique, None);
}

#[test]
fn the_task_list_is_the_same_every_time() {
    for n in [1, 4, 9, 17, 24] {
        let (a, b) = (TaskList::new(n), TaskList::new(n));
        assert_eq!(a.len(), b.len());
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert!(a.ids().all(|id| a.prefix(id) == b.prefix(id)));
    }
}

#[test]
fn shards_merged_give_the_whole_count() {
    for n in [1, 5, 8, 12, 14, 17] {
        for k in [1, 3, 7] {
            let mut lines = Vec::new();
            let mut tasks = 0;
            for i in 1..=k {
                let shard = Shard::new(i, k).unwrap();
                let options = RunOptions {
                    checkpoint: None,
                    shard: Some(shard),
                };
                let report = Counter::new(2).run(n, &options).unwrap();
                tasks += report.tasks;
                lines.push((format!("shard{i}.json"), report.shard_result().to_json()));
            }
            assert_eq!(tasks, TaskList::new(n).len() as u64, "n = {n}, K = {k}");
            // Any order.
            lines.reverse();
            let merged = counter::shard::merge(&lines).unwrap();
            assert_eq!(merged.total, oeis::total(n).unwrap(), "n = {n}, K = {k}");
            assert_eq!(merged.unique, oeis::unique(n).unwrap(), "n = {n}, K = {k}");
            assert_eq!((merged.n, merged.shards), (n, k));
            if k > 1 {
                let error = counter::shard::merge(&lines[1..]).unwrap_err().to_string();
                assert!(error.starts_with("missing shard"), "{error}");
            }
        }
    }
}

/// A tiny deterministic generator, for cut points.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn a_checkpoint_cut_anywhere_resumes_to_the_exact_count() {
    let n = 13;
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.ckpt");
    let first = with_checkpoint(n, 2, &full).unwrap();
    assert_eq!(first.total, oeis::total(n).unwrap());
    let bytes = std::fs::read(&full).unwrap();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    // Running again with the complete file redoes nothing.
    let again = with_checkpoint(n, 2, &full).unwrap();
    assert_eq!((again.total, again.unique), (first.total, first.unique));
    assert_eq!((again.resumed, again.new_nodes), (first.tasks, 0));
    assert_eq!(std::fs::read(&full).unwrap(), bytes);

    let mut seed = 6;
    let mut cuts: Vec<usize> = (0..12)
        .map(|_| next(&mut seed) as usize % bytes.len())
        .collect();
    // The empty file, a torn header, the bare header, a torn first record.
    cuts.extend([0, header / 2, header, header + 1]);
    for cut in cuts {
        let path = dir.path().join(format!("cut{cut}.ckpt"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let complete_records = bytes[header.min(cut)..cut]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        for threads in [1, 3] {
            let resumed = with_checkpoint(n, threads, &path).unwrap();
            assert_eq!(resumed.total, oeis::total(n).unwrap(), "cut at byte {cut}");
            assert_eq!(
                resumed.unique,
                oeis::unique(n).unwrap(),
                "cut at byte {cut}"
            );
            assert_eq!(resumed.nodes, first.nodes, "cut at byte {cut}");
            if threads == 1 {
                assert_eq!(
                    resumed.resumed as usize, complete_records,
                    "cut at byte {cut}"
                );
            }
        }
        // The file now records every task exactly once.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.lines().count(),
            1 + first.tasks as usize,
            "cut at byte {cut}"
        );
    }
}

#[test]
fn a_checkpoint_of_another_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    with_checkpoint(9, 1, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let error = with_checkpoint(10, 1, &path).unwrap_err().to_string();
    assert_eq!(
        error,
        format!("checkpoint {} is for n = 9, not n = 10", path.display())
    );
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: Some(Shard::new(2, 3).unwrap()),
    };
    let error = Counter::new(1).run(9, &options).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "checkpoint {} holds shard 1/1, not shard 2/3",
            path.display()
        )
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "a refused file is left alone"
    );
}

#[test]
fn shard_checkpoints_resume_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shard.ckpt");
    let options = RunOptions {
        checkpoint: Some(path.clone()),
        shard: Some(Shard::new(2, 3).unwrap()),
    };
    let first = Counter::new(2).run(12, &options).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let half: String = text
        .lines()
        .take(first.tasks as usize / 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, half).unwrap();
    let resumed = Counter::new(2).run(12, &options).unwrap();
    assert!(resumed.resumed > 0);
    assert_eq!((resumed.total, resumed.unique), (first.total, first.unique));
}

#[test]
fn too_large_boards_are_refused() {
    let error = Counter::new(1)
        .run(33, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "the counter method handles n up to 32; n = 33 is too large"
    );
}
