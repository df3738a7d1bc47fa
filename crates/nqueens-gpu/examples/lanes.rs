//! The lanes' work of the class kernel and of the constellation kernel, counted: the steps
//! each sub-board (start) takes, from the kernel's loop run on the CPU
//! ([`constellations::emulate`], which the tests hold to the kernel step for step), summed,
//! per sub-board (mean, max), and per batch of 32 lanes that start together and finish with
//! their slowest (no refill): the slowest lane's share of its batch, and the share of the
//! batch's lane-time spent working.
//!
//! ```sh
//! cargo run --release -p nqueens-gpu --example lanes -- 14 16            # n = 14..16, 13 rows
//! cargo run --release -p nqueens-gpu --example lanes -- 16 16 13 --gpu   # and the kernel on
//! #   the machine's adapter (lavapipe without a GPU), both kernels start by start against the
//! #   emulation, and the lanes' figures from the kernel's own steps where none gave up
//! cargo run --release -p nqueens-gpu --example lanes -- 18 21 --host     # only the host's
//! #   choice of representatives (run under valgrind for its instructions)
//! ```

use nqueens_gpu::constellations::{self, Rows, emulate};
use nqueens_gpu::{Choice, Frame, GpuCounter, Memory, Tuning};
use nqueens_solver::engines::counter::TaskList;
use nqueens_solver::runs::device::{self, SubBoard};

/// Lanes that start together and run until their slowest is done.
const BATCH: usize = 32;

fn report(label: &str, steps: &[u64]) {
    let total: u64 = steps.iter().sum();
    let max = steps.iter().copied().max().unwrap_or(0);
    let (mut busy, mut share, mut batches) = (0u64, 0.0, 0usize);
    for batch in steps.chunks(BATCH) {
        let slowest = batch.iter().copied().max().unwrap_or(0);
        let sum: u64 = batch.iter().sum();
        busy += slowest * BATCH as u64;
        if sum > 0 {
            share += slowest as f64 / sum as f64;
            batches += 1;
        }
    }
    println!(
        "{label:<34} {:>9} {:>14} {:>10.1} {:>9} {:>10.3} {:>10.3}",
        steps.len(),
        total,
        total as f64 / steps.len().max(1) as f64,
        max,
        share / batches.max(1) as f64,
        total as f64 / busy.max(1) as f64,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: u32| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (low, high, rows) = (number(0, 14), number(1, 16), number(2, 13) as usize);
    if args.iter().any(|a| a == "--host") {
        for n in low..=high {
            let found = constellations::constellations(n);
            println!("n = {n}: {} representatives", found.len());
        }
        return;
    }
    let mut gpu = args.iter().any(|a| a == "--gpu").then(|| {
        let tuning = Tuning {
            frame: Frame::Queen,
            stack: Memory::Private,
            refill: false,
            last_row: true,
            ..Tuning::software()
        };
        GpuCounter::open_tuned(Choice::Any, tuning)
            .expect("an adapter")
            .expect("an adapter")
    });
    println!(
        "{:<34} {:>9} {:>14} {:>10} {:>9} {:>10} {:>10}",
        "kernel (rows to the kernel)", "lanes", "steps", "mean", "max", "slowest", "busy"
    );
    for n in low..=high {
        println!("n = {n}");
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        let split = device::split(n, &prefixes, device::start_row_for(n, rows));
        let classes = constellations::class_rows(n);
        let steps = |tables: &[Rows], boards: &[SubBoard]| -> Vec<u64> {
            boards
                .iter()
                .map(|b| emulate(n, &tables[b.b1 as usize], b).steps)
                .collect()
        };
        report(
            &format!("classes ({rows})"),
            &steps(&classes, &split.boards),
        );
        let starts = constellations::starts(n, rows);
        let sorted = &starts.boards;
        report(
            &format!("constellations ({rows})"),
            &steps(&starts.tables, &starts.boards),
        );
        let total: u64 = starts.host.solutions
            + sorted
                .iter()
                .map(|b| {
                    let k = b.b1 as usize;
                    emulate(n, &starts.tables[k], b).plain
                        * u64::from(starts.constellations[k].multiplicity)
                })
                .sum::<u64>();
        let published = nqueens_solver::instances::oeis::total(n);
        println!(
            "  total from {} constellations: {total} (published: {})",
            starts.constellations.len(),
            published.map_or("none".to_string(), |p| p.to_string())
        );
        assert_eq!(Some(u128::from(total)), published, "n = {n}");
        if let Some(gpu) = gpu.as_mut() {
            // Both kernels on the adapter, start by start against the emulation; the lanes'
            // figures again from the kernel's own steps (where every start was counted).
            // In slices, so that no one wait for the device is long on a software driver.
            const SLICE: usize = 1 << 16;
            let mut classes_found = Vec::new();
            let mut found = Vec::new();
            for slice in split.boards.chunks(SLICE) {
                classes_found.extend(gpu.count_sub_boards_stepped(n, slice).expect("counted"));
            }
            for slice in sorted.chunks(SLICE) {
                found.extend(gpu.count_starts(n, &starts.tables, slice).expect("counted"));
            }
            for (label, tables, boards, found) in [
                ("classes", &classes, &split.boards, classes_found),
                ("constellations", &starts.tables, sorted, found),
            ] {
                let (mut same, mut gave_up, mut taken) = (0, 0, Vec::new());
                for (board, found) in boards.iter().zip(&found) {
                    let expected = emulate(n, &tables[board.b1 as usize], board);
                    match found {
                        Some((result, steps)) => {
                            assert_eq!(
                                (result.nodes, u64::from(*steps)),
                                (expected.nodes, expected.steps),
                                "n = {n}, {board:?}"
                            );
                            if label == "constellations" {
                                assert_eq!(result.eightfold, expected.plain, "n = {n}");
                            }
                            same += 1;
                            taken.push(u64::from(*steps));
                        }
                        None => gave_up += 1,
                    }
                }
                println!(
                    "  {}, {label}: {same} the same step for step, {gave_up} past its budget",
                    gpu.adapter()
                );
                if gave_up == 0 {
                    report(&format!("{label} ({rows}), the kernel's steps"), &taken);
                }
            }
        }
    }
}
