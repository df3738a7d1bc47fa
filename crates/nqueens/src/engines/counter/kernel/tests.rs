//! The loops' tests: both loops against plain recursion and against each other, task by
//! task, node for node; the canonical orbit against the symmetry group.

use super::*;
use crate::board::Solution;
use crate::board::symmetry::{self, Symmetry};

/// Every solution of n = 1..=9, from the baseline engine, as column lists.
fn all_solutions(n: u32) -> Vec<Vec<u8>> {
    use crate::Engine;
    use crate::engines::backtrack::Backtrack;
    use std::ops::ControlFlow;
    let problem = crate::Problem::new(n).unwrap();
    let mut all = Vec::new();
    Backtrack::default()
        .for_each(&problem, &mut |s: &Solution| {
            all.push(s.columns().iter().map(|&c| c as u8).collect());
            ControlFlow::Continue(())
        })
        .unwrap();
    all
}

#[test]
fn canonical_orbit_picks_one_member_of_each_class_with_its_size() {
    for n in 1..=9u32 {
        let solutions = all_solutions(n);
        assert_eq!(
            solutions.len() as u128,
            crate::instances::oeis::total(n).unwrap()
        );
        // Canonical members per symmetry class, the class named by the symmetry module's
        // own (lexicographic) canonical form.
        let mut members = std::collections::HashMap::<Vec<u32>, u32>::new();
        let mut weighted = 0u32;
        for columns in &solutions {
            let s = Solution::from_columns(columns.iter().map(|&c| u32::from(c)).collect());
            let class = symmetry::canonical(&s).columns().to_vec();
            let slot = members.entry(class).or_default();
            if let Some(orbit) = canonical_orbit(columns) {
                *slot += 1;
                weighted += orbit;
                assert_eq!(orbit as usize, symmetry::orbit_size(&s), "{columns:?}");
                // The essay's rule: the row-0 queen is a border queen farthest from its
                // corner, in the left half.
                let last = n as u8 - 1;
                let distance = |i: u8| i.min(last - i);
                let inverse = |col: u8| columns.iter().position(|&c| c == col).unwrap() as u8;
                let border = [columns[last as usize], inverse(0), inverse(last)];
                assert!(border.iter().all(|&b| distance(b) <= columns[0]));
                assert!(columns[0] <= last - columns[0]);
            }
        }
        assert!(members.values().all(|&m| m == 1), "n = {n}: {members:?}");
        assert_eq!(
            members.len() as u128,
            crate::instances::oeis::unique(n).unwrap()
        );
        assert_eq!(
            u128::from(weighted),
            crate::instances::oeis::total(n).unwrap()
        );
    }
    // The images are the symmetry module's maps: the seven other images of a canonical
    // solution with a class of eight are not canonical.
    let as_bytes = |s: &Solution| -> Vec<u8> { s.columns().iter().map(|&c| c as u8).collect() };
    let eightfold = all_solutions(8)
        .into_iter()
        .find(|columns| canonical_orbit(columns) == Some(8))
        .unwrap();
    let s = Solution::from_columns(eightfold.iter().map(|&c| u32::from(c)).collect());
    for symmetry in Symmetry::ALL.into_iter().skip(1) {
        assert_eq!(
            canonical_orbit(&as_bytes(&symmetry.apply(&s))),
            None,
            "{symmetry:?}"
        );
    }
}

/// Whether the lanes loop can run here; says so when it cannot, so that a test that
/// compares it does not pass without comparing anything unnoticed.
fn lanes_run_here() -> bool {
    let available = lanes::available();
    if !available {
        eprintln!("this CPU lacks AVX2 or BMI2: only the one-board loop runs, nothing to compare");
    }
    available
}

#[test]
fn both_loops_give_every_task_the_same_result_and_nodes() {
    if !lanes_run_here() {
        return;
    }
    let mut one_board = Scratch::default();
    let mut lanes = Scratch::default();
    let mut compared = 0;
    for n in 8..=13u32 {
        // The standard list and the lists split one and two rows deeper.
        for extra in 0..=2 {
            let list = crate::engines::counter::split::SplitList::new(n, extra);
            for id in list.ids() {
                let prefix = list.prefix(id).unwrap();
                assert_eq!(Loop::best(n, prefix), Loop::Lanes);
                // Equal nodes: both loops visit the same tree.
                assert_eq!(
                    solve_task_with(Loop::OneBoard, n, prefix, &mut one_board),
                    solve_task_with(Loop::Lanes, n, prefix, &mut lanes),
                    "n = {n}, prefix {prefix:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000);
}

#[test]
fn both_loops_agree_on_deep_prefixes_of_big_boards() {
    // Random prefixes under their class's rules, leaving 12 rows to search, up to n = 32
    // (all 32 bits of the lanes' masks in use): the same results and nodes.
    if !lanes_run_here() {
        return;
    }
    let mut rng = nqueens_support::SplitMix64::new(20);
    let mut one_board = Scratch::default();
    let mut lanes = Scratch::default();
    let mut with_ties = 0;
    for n in 20..=32u32 {
        let classes = crate::engines::counter::tasks::classes(n);
        let mut tried = 0;
        while tried < 12 {
            let class = classes[rng.below(classes.len() as u32) as usize];
            let rules = ClassRules::new(n, class);
            let ties = TaskTies::new(n, class);
            let mut prefix = vec![class.b1 as u8];
            while prefix.len() < n as usize - 12 {
                let state = State::after(&prefix).unwrap();
                let free = rules.allowed[prefix.len()]
                    & !(state.columns | state.left | state.right)
                    & full_mask(n);
                if free == 0 {
                    break;
                }
                // Half the time, a free tie square (so that the exact check runs).
                let on_tie = free & ties.side_squares;
                let row_has_ties = ties.side_rows.contains(&prefix.len());
                let free = if row_has_ties && on_tie != 0 && rng.below(2) == 0 {
                    on_tie
                } else {
                    free
                };
                let pick = rng.below(free.count_ones());
                let mut rest = free;
                for _ in 0..pick {
                    rest &= rest - 1;
                }
                prefix.push(rest.trailing_zeros() as u8);
            }
            if prefix.len() < n as usize - 12 {
                continue;
            }
            tried += 1;
            let expected = solve_task_with(Loop::OneBoard, n, &prefix, &mut one_board);
            let found = solve_task_with(Loop::Lanes, n, &prefix, &mut lanes);
            assert_eq!(found, expected, "n = {n}, prefix {prefix:?}");
            let placed: Vec<u64> = prefix.iter().map(|&c| 1 << c).collect();
            let tied = ties
                .side_rows
                .iter()
                .any(|&row| row < placed.len() && placed[row] & ties.side_squares != 0);
            with_ties += usize::from(tied && expected.total > 0);
        }
    }
    // Some have solutions that go through the tie squares' exact check.
    assert!(with_ties > 5, "{with_ties}");
}

#[test]
fn the_loops_find_what_plain_recursion_finds() {
    let mut scratch = Scratch::default();
    let check = |allowed: &[u64], scratch: &mut Scratch| {
        let masks = RowMasks::new(allowed);
        let mut expected = Vec::new();
        let mut columns = [0u8; ROWS];
        let oracle_nodes = for_each_completion(&masks, State::default(), &mut columns, &mut |s| {
            expected.push(s.to_vec())
        });
        let mut found = Vec::new();
        let nodes = visit_completions(
            &masks,
            &[],
            State::default(),
            scratch,
            &NEVER,
            &mut |placed| {
                found.push(
                    placed
                        .iter()
                        .map(|b| b.trailing_zeros() as u8)
                        .collect::<Vec<u8>>(),
                )
            },
        )
        .expect("never stopped");
        assert_eq!(found, expected, "{allowed:?}");
        let (count, count_nodes) = count_completions(&masks, State::default(), scratch);
        assert_eq!(count, expected.len() as u64);
        assert_eq!(count_nodes, nodes);
        // Looking ahead only ever saves queens.
        assert!(nodes <= oracle_nodes);
        count
    };
    // Plain boards (no class rules): A000170.
    for n in 1..=10u32 {
        let count = check(&vec![full_mask(n); n as usize], &mut scratch);
        assert_eq!(u128::from(count), crate::instances::oeis::total(n).unwrap());
    }
    // Boards under each class's rules.
    for n in 4..=10u32 {
        for class in crate::engines::counter::tasks::classes(n) {
            check(&ClassRules::new(n, class).allowed, &mut scratch);
        }
    }
}
