//! The record-class counter against the published counts, across thread counts, shards and
//! checkpoints cut at arbitrary bytes.

use std::path::Path;

use nqueens_solver::engines::counter::{self, TaskList};
use nqueens_solver::runs::{self, CountRun, Report, RunOptions, Shard};
use nqueens_solver::{Engine, Problem, Queen, instances::oeis};

fn whole(n: u32, threads: usize) -> Report {
    CountRun::new(threads)
        .run(n, &RunOptions::default())
        .unwrap()
}

fn with_checkpoint(n: u32, threads: usize, path: &Path) -> Result<Report, nqueens_solver::Error> {
    Ok(CountRun::new(threads).run_with_checkpoint(n, path)?)
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

/// Thread counts are proven not to matter on 1..=16 (above and here): n = 16 with each of
/// 1..=4 threads; n = 17, the largest board the tests count, once, on four threads (its count
/// on each thread count cost 15 s of CPU and checked nothing n = 16 does not). n = 18 is CI's
/// (`.ci/run` counts it with the release build, total, unique and every task, at half the cost
/// of this profile's debug assertions and overflow checks): its task list is as deep as 17's,
/// and no code of the counter changes between them.
#[test]
fn counts_match_oeis_at_16_and_17_for_every_thread_count() {
    check_every_thread_count([16]);
    let report = whole(17, 4);
    assert_eq!(report.total, oeis::total(17).unwrap());
    assert_eq!(report.unique, oeis::unique(17).unwrap());
    assert_eq!(report.tasks, TaskList::new(17).len() as u64);
    assert_eq!(report.resumed, 0);
}

#[test]
fn the_engine_api_counts_and_says_what_it_did() {
    let mut counter = CountRun::new(2);
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

/// Up to symmetry, a board that keeps some of the eight symmetries searches only the part
/// of its tree the symmetry rules leave: far fewer queens than its total count places.
/// (The unique count used to enumerate the whole tree and check every solution.)
#[test]
fn a_symmetric_board_searches_a_fraction_of_the_tree_up_to_symmetry() {
    // `--block 8:8` of n = 15 (1-based: the centre, all eight symmetries; 16 % of the total's
    // queens) and `--block 9:9` of n = 13 (a main-diagonal square: the identity and that
    // reflection; 52 %). Before, both placed exactly the total's queens and then checked
    // every solution against the group.
    for (n, square, most) in [(15, 7, 0.25), (13, 8, 0.75)] {
        let problem = Problem::with_blocks(n, [], [Queen::new(square, square)]).unwrap();
        let mut counter = counter::Counter::new(2);
        let all = counter.count(&problem, false).unwrap();
        let all_nodes = counter.stats().get("nodes").unwrap();
        let classes = counter.count(&problem, true).unwrap();
        let class_nodes = counter.stats().get("nodes").unwrap();
        assert_eq!(classes.total, all.total);
        let share = class_nodes as f64 / all_nodes as f64;
        assert!(
            share <= most,
            "n = {n}, {square}:{square}: {class_nodes} of {all_nodes} queens ({share:.3})"
        );
    }
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
    // n = 16 is the largest: its task list is as deep as 18's (depth 4 from n = 4 to 23), with
    // thousands of tasks in each of 7 shards; n = 17 (11 s of CPU) and 18 only took longer.
    for n in [1, 5, 8, 12, 14, 16] {
        let parts: &[u32] = &[1, 3, 7];
        for &k in parts {
            if k as usize > TaskList::new(n).len().max(1) {
                // More parts than tasks: refused (n = 1 has one task).
                let options = RunOptions {
                    checkpoint: None,
                    shard: Some(Shard::new(1, k).unwrap()),
                };
                assert!(
                    CountRun::new(1).run(n, &options).is_err(),
                    "n = {n}, K = {k}"
                );
                continue;
            }
            let mut lines = Vec::new();
            let mut tasks = 0;
            for i in 1..=k {
                let shard = Shard::new(i, k).unwrap();
                let options = RunOptions {
                    checkpoint: None,
                    shard: Some(shard),
                };
                let report = CountRun::new(2).run(n, &options).unwrap();
                tasks += report.tasks;
                lines.push((format!("shard{i}.json"), report.shard_result().to_json()));
            }
            assert_eq!(tasks, TaskList::new(n).len() as u64, "n = {n}, K = {k}");
            // Any order.
            lines.reverse();
            let merged = runs::shard::merge(&lines).unwrap();
            assert_eq!(merged.total, oeis::total(n).unwrap(), "n = {n}, K = {k}");
            assert_eq!(merged.unique, oeis::unique(n).unwrap(), "n = {n}, K = {k}");
            assert_eq!((merged.n, merged.shards), (n, k));
            if k > 1 {
                let error = runs::shard::merge(&lines[1..]).unwrap_err().to_string();
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
    let error = CountRun::new(1).run(9, &options).unwrap_err().to_string();
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
    let first = CountRun::new(2).run(12, &options).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let half: String = text
        .lines()
        .take(first.tasks as usize / 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, half).unwrap();
    let resumed = CountRun::new(2).run(12, &options).unwrap();
    assert!(resumed.resumed > 0);
    assert_eq!((resumed.total, resumed.unique), (first.total, first.unique));
}

#[test]
fn too_large_boards_are_refused() {
    let error = CountRun::new(1)
        .run(33, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "the counter method handles n up to 32; n = 33 is too large"
    );
}

/// Fuzz cases per parser: `NQUEENS_FUZZ_CASES` or 3000.
fn fuzz_cases() -> usize {
    std::env::var("NQUEENS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// `bytes` damaged one of several ways, chosen by `rng`.
fn mutate(bytes: &[u8], rng: &mut nqueens_support::SplitMix64) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let junk = [
        b'0', b'9', b' ', b'\n', b'=', b'/', b'-', b'"', b'{', b'}', b',', b':', 0xff, 0xef, 0,
    ];
    for _ in 0..=rng.below(3) {
        let at = rng.below_u64(out.len().max(1) as u64) as usize;
        match rng.below(8) {
            0 if !out.is_empty() => out[at] ^= 1 << rng.below(8),
            1 if !out.is_empty() => out[at] = rng.below(256) as u8,
            2 if !out.is_empty() => out[at] = junk[rng.below(junk.len() as u32) as usize],
            3 => out.truncate(at),
            4 if !out.is_empty() => {
                out.remove(at);
            }
            5 => out.insert(
                at.min(out.len()),
                junk[rng.below(junk.len() as u32) as usize],
            ),
            6 => {
                // Repeat a stretch (a duplicated record, a doubled digit run).
                let end = (at + 1 + rng.below(40) as usize).min(out.len());
                let piece = out[at.min(end)..end].to_vec();
                out.splice(at.min(out.len())..at.min(out.len()), piece);
            }
            _ => {
                // A digit run made huge.
                let digits = b"99999999999999999999999999999999";
                let n = 1 + rng.below(digits.len() as u32) as usize;
                out.splice(
                    at.min(out.len())..at.min(out.len()),
                    digits[..n].iter().copied(),
                );
            }
        }
    }
    out
}

/// Fuzzes the checkpoint reader with mutated real checkpoints: no panic, every error one line
/// naming the file, and every count that comes out is the published one (the check values
/// and the final check against OEIS see to it).
///
/// Long run: `NQUEENS_FUZZ_CASES=100000 cargo test -p nqueens-solver --profile checked --test integration
/// counter::fuzz_the_checkpoint_reader -- --nocapture`. Result (2026-11-23, loaded 2-core machine,
/// 648 s): "checkpoint fuzz: 8644 resumed to the right count, 91356 refused": no panic, no
/// hang, no wrong count, every error one line.
#[test]
fn fuzz_the_checkpoint_reader() {
    let n = 8;
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("full.ckpt");
    with_checkpoint(n, 1, &original).unwrap();
    let bytes = std::fs::read(&original).unwrap();
    let path = dir.path().join("fuzz.ckpt");
    let mut rng = nqueens_support::SplitMix64::new(0x00c0_ffee);
    let (mut resumed, mut refused) = (0, 0);
    for case in 0..fuzz_cases() {
        let damaged = mutate(&bytes, &mut rng);
        std::fs::write(&path, &damaged).unwrap();
        match with_checkpoint(n, 1, &path) {
            Ok(report) => {
                assert_eq!(report.total, oeis::total(n).unwrap(), "case {case}");
                resumed += 1;
            }
            Err(error) => {
                let message = error.to_string();
                assert!(!message.contains('\n'), "case {case}: {message:?}");
                assert!(message.chars().count() < 700, "case {case}: {message:?}");
                assert!(message.contains("fuzz.ckpt"), "case {case}: {message:?}");
                refused += 1;
            }
        }
    }
    println!("checkpoint fuzz: {resumed} resumed to the right count, {refused} refused");
    assert!(resumed > 0 && refused > 0);
}

/// Fuzzes the shard-result reader and the merge with mutated real shard results: no panic,
/// every error one line, and every merged count the published one.
///
/// Long run: `NQUEENS_FUZZ_CASES=100000 cargo test -p nqueens-solver --profile checked --test integration
/// counter::fuzz_the_shard_reader -- --nocapture`. Result (2026-11-23, 2.6 s): "shard fuzz: 269 merged
/// to the right count, 99731 refused": no panic, no wrong total, every error one line.
#[test]
fn fuzz_the_shard_reader() {
    let n = 10;
    let lines: Vec<(String, String)> = (1..=3)
        .map(|i| {
            let options = RunOptions {
                checkpoint: None,
                shard: Some(Shard::new(i, 3).unwrap()),
            };
            let report = CountRun::new(1).run(n, &options).unwrap();
            (format!("s{i}.json"), report.shard_result().to_json())
        })
        .collect();
    let mut rng = nqueens_support::SplitMix64::new(0x5eed);
    let (mut merged, mut refused) = (0, 0);
    for case in 0..fuzz_cases() {
        let mut sources = lines.clone();
        let which = rng.below(3) as usize;
        let damaged = mutate(sources[which].1.as_bytes(), &mut rng);
        sources[which].1 = String::from_utf8_lossy(&damaged).into_owned();
        match runs::shard::merge(&sources) {
            Ok(result) => {
                assert_eq!(result.total, oeis::total(n).unwrap(), "case {case}");
                merged += 1;
            }
            Err(error) => {
                let message = error.to_string();
                assert!(!message.contains('\n'), "case {case}: {message:?}");
                assert!(message.chars().count() < 900, "case {case}: {message:?}");
                refused += 1;
            }
        }
    }
    println!("shard fuzz: {merged} merged to the right count, {refused} refused");
    assert!(refused > 0);
}

#[test]
fn every_single_byte_change_to_a_checkpoint_is_caught_or_harmless() {
    // Every position, one changed value each: the count is right or the file is refused.
    let n = 8;
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("full.ckpt");
    with_checkpoint(n, 1, &original).unwrap();
    let bytes = std::fs::read(&original).unwrap();
    let path = dir.path().join("flip.ckpt");
    let mut rng = nqueens_support::SplitMix64::new(9);
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 1 + rng.below(255) as u8;
        std::fs::write(&path, &damaged).unwrap();
        if let Ok(report) = with_checkpoint(n, 1, &path) {
            assert_eq!(report.total, oeis::total(n).unwrap(), "byte {at}");
        }
    }
}

#[test]
fn a_forged_checkpoint_is_caught_by_the_published_count() {
    // Check values stop accidents; a record rewritten with a fresh check value (a forgery, or a
    // fault in the machine that wrote it) is caught by the final check against OEIS.
    let n = 10;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.ckpt");
    with_checkpoint(n, 1, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let fingerprint = TaskList::new(n).fingerprint();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let victim = lines
        .iter()
        .skip(1)
        .position(|l| l.split(' ').nth(1).is_some_and(|t| t != "0"))
        .unwrap()
        + 1;
    let fields: Vec<u64> = lines[victim]
        .split(' ')
        .take(4)
        .map(|f| f.parse().unwrap())
        .collect();
    let forged = runs::checkpoint::record_line(
        fingerprint,
        counter::TaskId(fields[0] as u32),
        &counter::TaskResult {
            total: fields[1] + 8,
            unique: fields[2] + 1,
            nodes: fields[3],
        },
    );
    lines[victim] = forged.trim_end().to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let error = with_checkpoint(n, 1, &path).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!(
            "the count of n = 10 came out as {} ({} up to symmetry), but the published count is 724 (92 up to symmetry)",
            724 + 8,
            92 + 1
        )),
        "{error}"
    );
    assert!(error.contains("a damaged checkpoint"), "{error}");
}

#[test]
fn more_shards_than_tasks_are_refused_before_counting() {
    let options = RunOptions {
        checkpoint: None,
        shard: Some(Shard::new(1, u32::MAX).unwrap()),
    };
    let error = CountRun::new(1).run(10, &options).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "shard 1/4294967295 is not a part of n = 10: its count has {0} tasks, so it splits at most {0} ways",
            TaskList::new(10).len()
        )
    );
}
