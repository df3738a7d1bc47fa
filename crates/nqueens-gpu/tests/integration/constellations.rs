//! The constellation start on the CPU: its counts against the published table, its orbits,
//! and its loop ([`emulate`]) against the counter's own one-board loop. No adapter needed.

use std::collections::HashSet;

use nqueens_gpu::constellations::{class_rows, constellations, count_on_cpu, emulate, estimate};
use nqueens_solver::engines::counter::TaskList;
use nqueens_solver::instances::oeis;
use nqueens_solver::runs::device;

#[test]
fn constellation_counts_match_oeis_up_to_15() {
    for n in 1..=15 {
        // The GPU's cut (13 rows to the kernel), the software driver's (8), and the starts
        // cut to their last rows.
        for rows in [13, 8, 2] {
            let (total, nodes) = count_on_cpu(n, rows);
            assert_eq!(
                u128::from(total),
                oeis::total(n).unwrap(),
                "n = {n}, rows = {rows}"
            );
            // (n = 4's two solutions are all border queens: nothing to search.)
            assert!(nodes > 0 || n <= 4, "n = {n}");
        }
    }
}

#[test]
fn every_valid_constellation_is_in_one_orbit_with_its_multiplicity() {
    for n in 1..=12u32 {
        let last = n - 1;
        // Brute force: four border queens (one per border line, a corner queen on two) that
        // leave each other alone.
        let mut valid = 0u32;
        for (a, b, c, d) in (0..n).flat_map(|a| {
            (0..n).flat_map(move |b| (0..n).flat_map(move |c| (0..n).map(move |d| (a, b, c, d))))
        }) {
            let mut queens: Vec<(u32, u32)> = vec![(0, a), (last, b), (c, 0), (d, last)];
            queens.sort_unstable();
            queens.dedup();
            let on = |f: &dyn Fn(&(u32, u32)) -> bool| queens.iter().filter(|q| f(q)).count();
            let lines_once = on(&|q| q.0 == 0) == 1
                && on(&|q| q.0 == last) == 1
                && on(&|q| q.1 == 0) == 1
                && on(&|q| q.1 == last) == 1;
            let apart = queens.iter().enumerate().all(|(i, p)| {
                queens[i + 1..]
                    .iter()
                    .all(|q| p.0 != q.0 && p.1 != q.1 && p.0.abs_diff(q.0) != p.1.abs_diff(q.1))
            });
            valid += u32::from(lines_once && apart);
        }
        let reps = constellations(n);
        let sum: u32 = reps.iter().map(|c| c.multiplicity).sum();
        assert_eq!(sum, valid, "n = {n}");
        let keys: HashSet<_> = reps
            .iter()
            .map(|c| (c.top, c.bottom, c.left, c.right))
            .collect();
        assert_eq!(keys.len(), reps.len(), "n = {n}: a representative twice");
        for c in &reps {
            assert!(
                n == 1 || [2, 4, 8].contains(&c.multiplicity),
                "n = {n}: {c:?}"
            );
        }
    }
    // n = 5 has a constellation fixed by the quarter turn (2, 4, 0, 2 ... the pinwheel
    // solution 1 3 0 2 4 is symmetric under the quarter turn and its border queens with it).
    assert!(constellations(5).iter().any(|c| c.multiplicity == 2));
}

#[test]
fn the_emulated_loop_is_the_counters_one_board_loop() {
    // On the class kernel's sub-boards, the emulation places the same queens and finds the
    // same solutions as the counter's loop (its tied ones are the ones the CPU checks).
    for n in 4..=12 {
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        let tables = class_rows(n);
        for start in [list.depth(), device::start_row(n), n as usize - 2] {
            let split = device::split(n, &prefixes, start);
            for board in &split.boards {
                let expected = device::count_sub_board(n, board);
                let found = emulate(n, &tables[board.b1 as usize], board);
                assert_eq!(found.nodes, expected.nodes, "n = {n}, {board:?}");
                assert_eq!(found.plain, expected.eightfold, "n = {n}, {board:?}");
                assert!(found.tied >= expected.tied.unique, "n = {n}, {board:?}");
            }
        }
    }
}

#[test]
fn the_representatives_are_the_members_estimated_smallest() {
    // n = 14 cut with the GPU's 13 rows: the members chosen by their tables' estimate take
    // 5,100,702 kernel steps in all (the probe of each member's top rows chose members that
    // took 5,381,751; the class kernel takes 6,571,431), and the choice is fixed, so the
    // figure is the same on every run.
    let n = 14;
    let starts = nqueens_gpu::constellations::starts(n, 13);
    let steps: u64 = starts
        .boards
        .iter()
        .map(|b| emulate(n, &starts.tables[b.b1 as usize], b).steps)
        .sum();
    assert_eq!(steps, 5_100_702);
    // Each representative is the member of its orbit estimated smallest.
    for c in &starts.constellations {
        // Its mirror image in the middle column, a member of its orbit.
        let flip = nqueens_gpu::constellations::Constellation {
            top: n - 1 - c.top,
            bottom: n - 1 - c.bottom,
            left: c.right,
            right: c.left,
            multiplicity: c.multiplicity,
        };
        let (mine, theirs) = (estimate(n, c), estimate(n, &flip));
        assert!(mine <= theirs, "{c:?}: {mine} > {theirs}");
    }
}
