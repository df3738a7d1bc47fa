//! The completion instances in `tests/data/completion/`: every file is what the generator draws
//! for its seed, its status and count in `MANIFEST.tsv` match a slow obvious oracle, and every
//! method in `Method::ALL` that supports completion agrees on both, with every solution verified.
//! Methods that cannot do a job on a board say so through `Engine::check` and are skipped.

use std::collections::BTreeSet;
use std::path::PathBuf;

use nqueens_solver::board::naive;
use nqueens_solver::instances::generate::{DEFAULT_TRIES, random_partial};
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Engine, EngineError, Job, Outcome, Problem, formats::partial, verify};

use crate::common;

/// One line of the manifest.
#[derive(Debug)]
struct Entry {
    file: String,
    n: u32,
    queens: u32,
    seed: u64,
    solvable: bool,
    completions: u128,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/completion")
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(data_dir().join("MANIFEST.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file\t") && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 6, "six tab-separated fields: {line}");
            Entry {
                file: f[0].to_string(),
                n: f[1].parse().unwrap(),
                queens: f[2].parse().unwrap(),
                seed: f[3].parse().unwrap(),
                solvable: match f[4] {
                    "solvable" => true,
                    "unsolvable" => false,
                    other => panic!("status must be solvable or unsolvable, not {other}"),
                },
                completions: f[5].parse().unwrap(),
            }
        })
        .collect()
}

fn load(entry: &Entry) -> Problem {
    let text = std::fs::read_to_string(data_dir().join(&entry.file)).unwrap();
    partial::parse(&text).unwrap().to_problem().unwrap()
}

/// The engine for `method`, or `None` with the reason when it cannot do `job` on `problem`.
fn engine_for(method: Method, job: Job, problem: &Problem) -> Option<Box<dyn Engine>> {
    let engine = method.build(job, problem, &Config::default());
    match engine.check(job, problem) {
        Ok(()) => Some(engine),
        Err(EngineError::Unsupported { .. } | EngineError::TooLarge { .. }) => None,
        Err(other) => panic!("{method}: unexpected error from check: {other}"),
    }
}

#[test]
fn the_manifest_lists_every_file_once() {
    let listed: BTreeSet<String> = manifest().into_iter().map(|e| e.file).collect();
    let mut on_disk = BTreeSet::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name != "MANIFEST.tsv" {
            on_disk.insert(name);
        }
    }
    assert_eq!(listed, on_disk);
    assert_eq!(listed.len(), manifest().len(), "a file listed twice");
}

#[test]
fn files_are_what_the_generator_draws() {
    for entry in manifest() {
        let problem = load(&entry);
        assert_eq!(problem.n(), entry.n, "{}", entry.file);
        assert_eq!(problem.fixed().len() as u32, entry.queens, "{}", entry.file);
        let drawn = random_partial(entry.n, entry.queens, entry.seed, DEFAULT_TRIES).unwrap();
        assert_eq!(problem, drawn, "{}", entry.file);
    }
}

#[test]
fn the_manifest_matches_the_oracle_and_the_set_is_mixed() {
    let entries = manifest();
    for entry in &entries {
        let solutions = naive::solutions(&load(entry));
        assert_eq!(solutions.len() as u128, entry.completions, "{}", entry.file);
        assert_eq!(!solutions.is_empty(), entry.solvable, "{}", entry.file);
    }
    assert!(entries.iter().any(|e| e.solvable));
    assert!(entries.iter().any(|e| !e.solvable));
}

#[test]
fn every_method_agrees_on_every_completion_file() {
    let mut ran = 0;
    for entry in manifest() {
        let problem = load(&entry);
        let expected = naive::solutions(&problem);
        let mut counted_by = Vec::new();
        for &method in Method::ALL {
            if let Some(mut engine) = engine_for(method, Job::Count, &problem) {
                let counts = engine.count(&problem, false).unwrap();
                assert_eq!(
                    counts.total, entry.completions,
                    "{method} on {}",
                    entry.file
                );
                counted_by.push(method);
            }
            if let Some(mut engine) = engine_for(method, Job::List, &problem) {
                let mut seen = BTreeSet::new();
                engine
                    .list(&problem, None, &mut |s| {
                        assert_eq!(verify(&problem, s), Ok(()), "{method} on {}", entry.file);
                        assert!(seen.insert(s.clone()), "{method} repeats a solution");
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                assert_eq!(seen, expected, "{method} on {}", entry.file);
            }
            if let Some(mut engine) = engine_for(method, Job::Solve, &problem) {
                match common::answer(engine.solve(&problem)) {
                    common::Answer::Found(s) => {
                        assert_eq!(verify(&problem, &s), Ok(()), "{method} on {}", entry.file);
                        assert!(entry.solvable, "{method} solved unsolvable {}", entry.file);
                    }
                    common::Answer::NoSolution => {
                        assert!(
                            !entry.solvable,
                            "{method} missed a completion of {}",
                            entry.file
                        )
                    }
                    // A method that cannot prove unsatisfiability (local search) may give up
                    // on an unsolvable board, but never on a solvable one this small.
                    common::Answer::GaveUp { reason } => assert!(
                        !entry.solvable,
                        "{method} gave up on solvable {}: {reason}",
                        entry.file
                    ),
                }
                ran += 1;
            }
        }
        assert!(
            counted_by.contains(&Method::Backtrack),
            "the baseline counts completions"
        );
    }
    assert!(ran > 0);
}

/// Random sequential placements near the phase transition, solved by `auto` (the portfolio)
/// and by every other method that finds completions on the board: all agree on completable or
/// not, and every completion passes the verifier.
#[test]
fn every_method_agrees_on_sequential_placements() {
    use nqueens_solver::instances::generate::sequential_partial;
    let mut mixed = (0, 0);
    for seed in 0..24u64 {
        let n = 10 + (seed % 5) as u32;
        let k = n * 7 / 10 + (seed % 4) as u32;
        let problem = sequential_partial(n, k, seed, 1000).unwrap();
        let mut answers = Vec::new();
        for &method in Method::ALL {
            let Some(mut engine) = engine_for(method, Job::Solve, &problem) else {
                continue;
            };
            match common::answer(engine.solve(&problem)) {
                common::Answer::Found(s) => {
                    assert_eq!(verify(&problem, &s), Ok(()), "{method} seed {seed}");
                    answers.push((method, true));
                }
                common::Answer::NoSolution => answers.push((method, false)),
                common::Answer::GaveUp { .. } => assert_eq!(method, Method::Local),
            }
        }
        let truth = !naive::solutions(&problem).is_empty();
        for (method, says) in answers {
            assert_eq!(says, truth, "{method} on seed {seed}");
        }
        if truth { mixed.0 += 1 } else { mixed.1 += 1 }
    }
    assert!(mixed.0 > 0 && mixed.1 > 0, "{mixed:?}");
}

/// `auto` on completions of n = 100 drawn by random sequential placement, K from 50 to 80: the
/// region where plain cp had a heavy tail (a board in 200 ran past 10 s). Every answer comes
/// within a node budget (deterministic, so not at the mercy of a loaded machine), agrees with
/// dancing links, and its completion passes the verifier.
#[test]
fn auto_has_no_heavy_tail_on_hard_completions() {
    use nqueens_solver::instances::generate::sequential_partial;
    let mut worst = 0u128;
    let start = std::time::Instant::now();
    // 200 boards with K = 50..80, and one with K = 70 where plain cp ran past 10 s (it has no
    // completion; dancing links proves that in one node).
    let boards = (0..200u64).map(|i| (50 + (i % 31) as u32, 5000 + i));
    for (i, (k, seed)) in boards.chain([(70, 5133)]).enumerate() {
        let problem = sequential_partial(100, k, seed, 1000).unwrap();
        let mut auto = Method::Auto.build(Job::Solve, &problem, &Config::default());
        let outcome = auto.solve(&problem).unwrap();
        let stats = auto.stats();
        let nodes = stats
            .get("total_nodes")
            .or_else(|| stats.get("root_refuted").map(|_| 0))
            .unwrap();
        worst = worst.max(nodes);
        let mut dlx = Method::Dlx.build(Job::Solve, &problem, &Config::default());
        let reference = dlx.solve(&problem).unwrap();
        match outcome {
            Outcome::Found(s) => {
                assert_eq!(verify(&problem, &s), Ok(()), "board {i}");
                assert!(matches!(reference, Outcome::Found(_)), "board {i}");
            }
            Outcome::NoSolution => assert_eq!(reference, Outcome::NoSolution, "board {i}"),
        }
    }
    assert!(worst < 100_000, "the worst board took {worst} nodes");
    eprintln!("201 boards in {:?}, at most {worst} nodes", start.elapsed());
}

/// The caller's limits reach both engines of `auto`'s completion portfolio: a raised stop flag
/// or a tiny node budget ends it with "gave up", never a wrong answer.
#[test]
fn auto_completions_honour_the_stop_flag_and_the_node_budget() {
    use nqueens_solver::instances::generate::sequential_partial;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let problem = sequential_partial(60, 30, 3, 1000).unwrap();
    let mut config = Config::default();
    config.limits.stop = Some(Arc::new(AtomicBool::new(true)));
    let mut auto = Method::Auto.build(Job::Solve, &problem, &config);
    assert!(auto.solve(&problem).unwrap_err().stopped().is_some());
    let mut config = Config::default();
    config.limits.nodes = Some(1);
    let mut auto = Method::Auto.build(Job::Solve, &problem, &config);
    assert!(auto.solve(&problem).unwrap_err().stopped().is_some());
    // Without limits it answers, and the answer checks out.
    let mut auto = Method::Auto.build(Job::Solve, &problem, &Config::default());
    match common::answer(auto.solve(&problem)) {
        common::Answer::Found(s) => assert_eq!(verify(&problem, &s), Ok(())),
        common::Answer::NoSolution => assert!(naive::solutions(&problem).is_empty()),
        common::Answer::GaveUp { reason } => panic!("{reason}"),
    }
}

/// The corpus in `tests/data/completion-hard/`: the boards of the completion study's hardest
/// cells (random sequential placements of n = 50, 100 and 200 near the phase transition, where
/// about half the boards have a completion). Each file is what the generator draws for its
/// seed, and every method that finds completions on the board agrees with the manifest, every
/// completion verified. SAT runs with the compact encoding on every board, and with the
/// pairwise one on every board of n = 50 and on the n = 100 cell at the transition (k = 80:
/// solvable boards and unsolvable ones): the pairwise encoding of n = 200 takes seconds to
/// build per board, that of n = 100 most of a second, and the other two cells of n = 100 (all
/// solvable, all unsolvable) checked nothing those boards do not.
#[test]
fn every_method_agrees_on_the_hardest_study_boards() {
    use nqueens_solver::engines::sat::Encoding;
    use nqueens_solver::instances::generate::sequential_partial;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/completion-hard");
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut seen = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file\t"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "five tab-separated fields: {line}");
        let (n, queens, seed): (u32, u32, u64) = (
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
        );
        let solvable = match f[4] {
            "solvable" => true,
            "unsolvable" => false,
            other => panic!("status must be solvable or unsolvable, not {other}"),
        };
        let file = std::fs::read_to_string(dir.join(f[0])).unwrap();
        let problem = partial::parse(&file).unwrap().to_problem().unwrap();
        assert_eq!(
            problem,
            sequential_partial(n, queens, seed, 1000).unwrap(),
            "{}",
            f[0]
        );
        let mut configs = vec![(Method::Sat, Encoding::Compact)];
        if n <= 50 || (n == 100 && queens == 80) {
            configs.push((Method::Sat, Encoding::Pairwise));
        }
        configs.extend(
            Method::ALL
                .iter()
                .filter(|&&m| m != Method::Sat)
                .map(|&m| (m, Encoding::default())),
        );
        let mut answered = 0;
        for (method, encoding) in configs {
            let mut config = Config::default();
            config.encoding = encoding;
            let mut engine = method.build(Job::Solve, &problem, &config);
            match engine.check(Job::Solve, &problem) {
                Ok(()) => {}
                Err(EngineError::Unsupported { .. } | EngineError::TooLarge { .. }) => continue,
                Err(other) => panic!("{method}: unexpected error from check: {other}"),
            }
            let name = match method {
                Method::Sat => format!("{method} ({encoding:?}) on {}", f[0]),
                _ => format!("{method} on {}", f[0]),
            };
            match common::answer(engine.solve(&problem)) {
                common::Answer::Found(s) => {
                    assert_eq!(verify(&problem, &s), Ok(()), "{name}");
                    assert!(
                        solvable,
                        "{name}: a completion of a board the manifest says has none"
                    );
                }
                common::Answer::NoSolution => assert!(!solvable, "{name}: missed a completion"),
                // Local search is incomplete: it cannot prove that no completion exists, and
                // near the transition it also gives up on some boards that have one.
                common::Answer::GaveUp { reason } => {
                    assert_eq!(method, Method::Local, "{name} gave up: {reason}");
                    continue;
                }
            }
            answered += 1;
        }
        assert!(answered >= 4, "{}: only {answered} methods answered", f[0]);
        if solvable { seen.0 += 1 } else { seen.1 += 1 }
    }
    assert!(seen.0 >= 10 && seen.1 >= 10, "solvable and not: {seen:?}");
}
