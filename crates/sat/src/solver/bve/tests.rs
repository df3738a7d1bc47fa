//! Subsumption across runs: with the fingerprints of the run before, a run tries as
//! subsumers only the clauses whose every variable's clauses changed since, and still finds
//! every subsumption and strengthening that a clause added since takes part in.

use super::Bve;
use crate::lit::{Lit, lit};
use crate::solver::budget::PassBudget;
use crate::solver::extend::Extension;

const VARS: usize = 15;

/// Over [`VARS`] variables, every one frozen but those `free` names (so a run on a set with
/// none only subsumes and strengthens): a set of `clauses` (DIMACS numbers) given to `with`.
fn with_set<T>(clauses: &[&[i64]], free: &[usize], with: impl FnOnce(Bve<'_>) -> T) -> T {
    let values = vec![0i8; 2 * VARS];
    let frozen: Vec<bool> = (1..=VARS).map(|v| !free.contains(&v)).collect();
    let mut extension = Extension::default();
    let budget = PassBudget::new(u64::MAX / 4, None, None);
    let mut occurrences = vec![0u32; 2 * VARS];
    for &number in clauses.iter().flat_map(|c| c.iter()) {
        occurrences[lit(number).index()] += 1;
    }
    let set = (clauses.len(), occurrences.as_slice());
    let mut bve =
        Bve::try_new(&values, &frozen, &mut extension, None, budget, set).expect("memory");
    for clause in clauses {
        let lits: Vec<Lit> = clause.iter().map(|&n| lit(n)).collect();
        bve.add_original(&lits).expect("memory");
    }
    with(bve)
}

/// The fingerprints of `clauses` as given.
fn fingerprints(clauses: &[&[i64]]) -> Vec<u64> {
    with_set(clauses, &[], |bve| bve.signature().expect("memory"))
}

/// What a run did: the live clauses after it (each and the list sorted), the clauses
/// subsumed and strengthened, and the fingerprints it leaves for the next run.
struct Ran {
    live: Vec<Vec<i64>>,
    subsumed: u64,
    strengthened: u64,
    signature: Vec<u64>,
}

/// Runs `clauses` with `previous`, the variables of `free` eliminable.
fn run_free(clauses: &[&[i64]], previous: Option<&[u64]>, free: &[usize]) -> Ran {
    with_set(clauses, free, |mut bve| {
        bve.run(None, 1_000, previous, false);
        let signature = bve.signature().expect("memory");
        let (live, units, inconsistent, counts, _) = bve.finish();
        assert!(units.is_empty() && !inconsistent);
        let mut live: Vec<Vec<i64>> = live
            .iter()
            .map(|clause| {
                let mut numbers: Vec<i64> =
                    clause.iter().map(|l| i64::from(l.to_dimacs())).collect();
                numbers.sort_unstable();
                numbers
            })
            .collect();
        live.sort();
        Ran {
            live,
            subsumed: counts.subsumed,
            strengthened: counts.strengthened,
            signature,
        }
    })
}

/// Runs `clauses` with `previous`, every variable frozen: the live clauses after, the
/// clauses subsumed and strengthened.
fn run(clauses: &[&[i64]], previous: Option<&[u64]>) -> (Vec<Vec<i64>>, u64, u64) {
    let ran = run_free(clauses, previous, &[]);
    (ran.live, ran.subsumed, ran.strengthened)
}

/// What a run left: nothing in it subsumes or strengthens anything else.
const LEFT: [&[i64]; 4] = [&[1, 2], &[4, 5], &[-7, 8], &[13, 14, 15]];

/// [`LEFT`] and `more`.
fn left_and(more: &[&'static [i64]]) -> Vec<&'static [i64]> {
    LEFT.iter().chain(more).copied().collect()
}

#[test]
fn without_fingerprints_every_clause_is_tried() {
    let set: [&[i64]; 3] = [&[1, 2, 3], &[1, 2], &[-1, 2, 4]];
    let (live, subsumed, strengthened) = run(&set, None);
    assert_eq!(live, [vec![1, 2], vec![2, 4]]);
    assert_eq!((subsumed, strengthened), (1, 1));
}

#[test]
fn clauses_added_since_are_subsumed_strengthened_and_subsume() {
    let before = fingerprints(&LEFT);
    // Since the run: an old clause subsumes `(4 5 6)` and strengthens `(7 8 9)`, and the new
    // `(13 14)` subsumes an old clause.
    let now = left_and(&[&[4, 5, 6], &[7, 8, 9], &[13, 14]]);
    let (live, subsumed, strengthened) = run(&now, Some(&before));
    let expected = [
        vec![-7, 8],
        vec![1, 2],
        vec![4, 5],
        vec![8, 9],
        vec![13, 14],
    ];
    assert_eq!(live, expected);
    assert_eq!((subsumed, strengthened), (2, 1));
}

#[test]
fn a_pair_of_unchanged_clauses_is_not_compared_again() {
    // Fingerprints taken with `(1 2 3)` there: the run that took them compared it with
    // `(1 2)` (here none did, so a run that finds nothing shows that no one tried the pair).
    let stale = left_and(&[&[1, 2, 3]]);
    let before = fingerprints(&stale);
    let (live, subsumed, strengthened) = run(&stale, Some(&before));
    assert_eq!((live.len(), subsumed, strengthened), (5, 0, 0));
    // A new clause on `1` and another variable changes `1`'s clauses, not `2`'s: a subsumer
    // or strengthener of a new clause has only the new clause's variables, so `(1 2)` is
    // not tried.
    let more = left_and(&[&[1, 2, 3], &[1, 9]]);
    assert_eq!(run(&more, Some(&before)).1, 0);
    // Without the fingerprints the pair is found.
    assert_eq!(run(&stale, None).1, 1);
}

#[test]
fn a_resolvent_is_compared_with_its_subsumers_in_the_next_run() {
    // Eliminating 3 makes `(1 2 4)`, which the older `(1 2)` subsumes; the run tried `(1 2)`
    // before the resolvent existed.
    let set: [&[i64]; 3] = [&[1, 2], &[3, 1], &[-3, 2, 4]];
    let first = run_free(&set, None, &[3]);
    assert_eq!(first.live, [vec![1, 2], vec![1, 2, 4]]);
    assert_eq!(first.subsumed, 0);
    let left: Vec<&[i64]> = first.live.iter().map(Vec::as_slice).collect();
    let second = run_free(&left, Some(&first.signature), &[]);
    assert_eq!(second.live, [vec![1, 2]]);
    assert_eq!(second.subsumed, 1);
}
