//! The completion instances in `tests/data/completion/`: every file is what the generator draws
//! for its seed, its status and count in `MANIFEST.tsv` match a slow obvious oracle, and every
//! method in `Method::ALL` that supports completion agrees on both, with every solution verified.
//! Methods that cannot do a job on a board say so through `Engine::check` and are skipped.

use std::collections::BTreeSet;
use std::path::PathBuf;

use nqueens::board::naive;
use nqueens::instances::generate::{DEFAULT_TRIES, random_partial};
use nqueens::methods::{Config, Method};
use nqueens::{Engine, Error, Job, Outcome, Problem, formats::partial, verify};

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
        Err(Error::Unsupported { .. } | Error::TooLarge { .. }) => None,
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
                match engine.solve(&problem).unwrap() {
                    Outcome::Found(s) => {
                        assert_eq!(verify(&problem, &s), Ok(()), "{method} on {}", entry.file);
                        assert!(entry.solvable, "{method} solved unsolvable {}", entry.file);
                    }
                    Outcome::NoSolution => {
                        assert!(
                            !entry.solvable,
                            "{method} missed a completion of {}",
                            entry.file
                        )
                    }
                    // A method that cannot prove unsatisfiability (local search) may give up
                    // on an unsolvable board, but never on a solvable one this small.
                    Outcome::GaveUp { reason } => assert!(
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
