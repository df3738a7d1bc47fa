//! The GPU kernel against the CPU's loop, on whatever adapter this machine has (Mesa's software
//! Vulkan driver where there is no GPU: `scripts/test-gpu.sh` installs it). No adapter is a
//! failure, never a skip.

use nqueens_gpu::{Choice, Frame, GpuCounter, Memory, Tables, Tuning, constellations};
use nqueens_solver::engines::counter::TaskList;
use nqueens_solver::instances::oeis;
use nqueens_solver::runs::CountRun;
use nqueens_solver::runs::device::{self, SubBoard};

/// The machine's first adapter with the defaults for its kind.
fn gpu() -> GpuCounter {
    match GpuCounter::open(Choice::Any) {
        Ok(Some(gpu)) => gpu,
        Ok(None) => unreachable!("Choice::Any never answers None"),
        Err(e) => panic!("{e}"),
    }
}

fn open(tuning: Tuning) -> GpuCounter {
    match GpuCounter::open_tuned(Choice::Any, tuning) {
        Ok(Some(gpu)) => gpu,
        Ok(None) => unreachable!("Choice::Any never answers None"),
        Err(e) => panic!("{e}"),
    }
}

/// Every kernel the tuning can choose: each frame and stack, table place, refill and
/// last-row rule, over the workgroup sizes in turn; and one without wgpu's checks. (The
/// rows and budget are the software driver's, which suit a GPU's test as well.)
fn variants() -> Vec<Tuning> {
    let mut variants = Vec::new();
    let sizes = [32, 64, 128, 256];
    for (frame, stack) in [
        (Frame::Queen, Memory::Private),
        (Frame::Queen, Memory::Workgroup),
        (Frame::Wide, Memory::Private),
    ] {
        for tables in [Tables::Storage, Tables::Workgroup] {
            for refill in [true, false] {
                for last_row in [true, false] {
                    variants.push(Tuning {
                        workgroup: sizes[variants.len() % sizes.len()],
                        frame,
                        stack,
                        tables,
                        refill,
                        last_row,
                        ..Tuning::software()
                    });
                }
            }
        }
    }
    variants.push(Tuning {
        checks: false,
        ..Tuning::gpu()
    });
    variants
}

/// Compares the kernel with the CPU loop on every sub-board of n = 4..=`max_n` cut at four
/// rows; returns the sub-boards compared, tied ones among them, and ones given up.
fn compare(gpu: &mut GpuCounter, max_n: u32) -> (usize, usize, usize) {
    let (mut compared, mut tied, mut gave_up) = (0, 0, 0);
    for n in 4..=max_n {
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        for start in [
            list.depth(),
            list.depth() + 1,
            device::start_row(n),
            n as usize - 2,
        ] {
            let split = device::split(n, &prefixes, start);
            let found = gpu.count_sub_boards(n, &split.boards).unwrap();
            assert_eq!(found.len(), split.boards.len());
            for (board, found) in split.boards.iter().zip(&found) {
                let Some(found) = found else {
                    gave_up += 1;
                    continue;
                };
                let expected = device::count_sub_board(n, board);
                assert_eq!(
                    *found,
                    expected,
                    "n = {n}, sub-board {board:?}, {}",
                    gpu.tuning()
                );
                tied += usize::from(expected.tied.unique > 0);
                compared += 1;
            }
        }
    }
    (compared, tied, gave_up)
}

#[test]
fn every_sub_board_gets_the_cpu_loops_answer() {
    let (compared, tied, gave_up) = compare(&mut gpu(), 13);
    assert!(compared > 5_000, "{compared}");
    assert!(gave_up < compared / 10, "{gave_up} of {compared} given up");
    // Some go through the kernel's exact symmetry check.
    assert!(tied > 100, "{tied}");
}

#[test]
fn every_variant_of_the_kernel_gets_the_cpu_loops_answer() {
    for tuning in variants() {
        let mut gpu = open(tuning);
        let (compared, tied, gave_up) = compare(&mut gpu, 11);
        assert!(compared > 2_000, "{compared}, {}", gpu.tuning());
        assert!(
            gave_up < compared / 10,
            "{gave_up} of {compared}, {}",
            gpu.tuning()
        );
        assert!(tied > 50, "{tied}, {}", gpu.tuning());
    }
}

#[test]
fn the_first_rows_are_in_the_upload() {
    // Sub-boards whose prefixes fill sixteen slots: n = 20, cut at row 16.
    let mut gpu = gpu();
    let n = 20;
    let list = TaskList::new(n);
    let prefix = list.prefix(nqueens_solver::engines::counter::TaskId(1234));
    let split = device::split(n, &[prefix], 16);
    let boards: Vec<SubBoard> = split.boards.iter().take(2_000).copied().collect();
    assert!(!boards.is_empty());
    let found = gpu.count_sub_boards(n, &boards).unwrap();
    for (board, found) in boards.iter().zip(&found) {
        assert_eq!(
            found.unwrap(),
            device::count_sub_board(n, board),
            "{board:?}"
        );
    }
}

#[test]
fn counts_on_the_gpu_match_oeis_up_to_15() {
    let mut counter = CountRun::new(1);
    counter.device = Some(nqueens_solver::runs::SharedDevice::new(gpu()));
    for n in 1..=15 {
        let report = counter.run(n, &Default::default()).unwrap();
        assert_eq!(report.total, oeis::total(n).unwrap(), "n = {n}");
        assert_eq!(report.unique, oeis::unique(n).unwrap(), "n = {n}");
    }
}

#[test]
fn counts_with_the_gpus_tuning_match_oeis_and_the_cpus_nodes() {
    // Queen frames, refill and the last-row rule, with two batches queued: on a software
    // driver the budget is small, so sub-boards are given up, cut deeper and sent again.
    let mut counter = CountRun::new(1);
    counter.device = Some(nqueens_solver::runs::SharedDevice::new(open(Tuning {
        rows: 9,
        ..Tuning::gpu()
    })));
    let mut cpu = CountRun::new(2);
    for n in [1, 5, 8, 11, 13] {
        let report = counter.run(n, &Default::default()).unwrap();
        let expected = cpu.run(n, &Default::default()).unwrap();
        assert_eq!(report.total, oeis::total(n).unwrap(), "n = {n}");
        assert_eq!(
            (report.unique, report.nodes),
            (expected.unique, expected.nodes),
            "n = {n}"
        );
    }
}

#[test]
fn gpu_and_cpu_give_each_task_the_same_result() {
    // Node counts included: a checkpoint may mix them.
    let mut gpu = gpu();
    let n = 14;
    let list = TaskList::new(n);
    let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
    let on_gpu = nqueens_solver::runs::Device::solve_batch(&mut gpu, n, &prefixes).unwrap();
    let mut cpu = nqueens_solver::engines::counter::TaskCounter::default();
    let split = nqueens_solver::engines::counter::SplitList::new(n, 0);
    for (id, found) in list.ids().zip(on_gpu) {
        assert_eq!(found, cpu.count(&split, id).unwrap(), "task {id}");
    }
}

#[test]
fn sub_boards_given_up_are_cut_deeper_until_counted() {
    // A budget of 50 steps gives up on most sub-boards of n = 12; the tasks' results are
    // still the CPU's, node for node.
    let mut gpu = gpu();
    gpu.set_budget(50);
    gpu.set_start_row(Some(4));
    let n = 12;
    let list = TaskList::new(n);
    let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
    let split = device::split(n, &prefixes, 4);
    let first = gpu.count_sub_boards(n, &split.boards).unwrap();
    assert!(first.iter().filter(|f| f.is_none()).count() > split.boards.len() / 2);
    let on_gpu = nqueens_solver::runs::Device::solve_batch(&mut gpu, n, &prefixes).unwrap();
    let mut cpu = nqueens_solver::engines::counter::TaskCounter::default();
    let list = nqueens_solver::engines::counter::SplitList::new(n, 0);
    for (id, found) in list.ids().zip(on_gpu) {
        assert_eq!(found, cpu.count(&list, id).unwrap(), "task {id}");
    }
}

/// The tuning whose steps [`constellations::emulate`] counts: queen frames, the last-row rule,
/// one sub-board per invocation.
fn queen_frames() -> Tuning {
    Tuning {
        frame: Frame::Queen,
        stack: Memory::Private,
        refill: false,
        last_row: true,
        ..Tuning::software()
    }
}

/// Compares the constellation kernel with the CPU loop on every start of n = 4..=`max_n`, cut
/// for kernels of 13, 6 and 3 rows (and steps too where `steps`); returns the starts compared
/// and the ones given up.
fn compare_starts(gpu: &mut GpuCounter, max_n: u32, steps: bool) -> (usize, usize) {
    let (mut compared, mut gave_up) = (0, 0);
    for n in 4..=max_n {
        for rows in [13, 6, 3] {
            let starts = constellations::starts(n, rows);
            let found = gpu.count_starts(n, &starts.tables, &starts.boards).unwrap();
            assert_eq!(found.len(), starts.boards.len());
            for (board, found) in starts.boards.iter().zip(&found) {
                let Some((result, taken)) = found else {
                    gave_up += 1;
                    continue;
                };
                let expected = constellations::emulate(n, &starts.tables[board.b1 as usize], board);
                let what = format!("n = {n}, rows = {rows}, {board:?}, {}", gpu.tuning());
                assert_eq!(
                    (result.eightfold, result.nodes, result.tied),
                    (expected.plain, expected.nodes, Default::default()),
                    "{what}"
                );
                if steps {
                    assert_eq!(u64::from(*taken), expected.steps, "{what}");
                }
                compared += 1;
            }
        }
    }
    (compared, gave_up)
}

#[test]
fn every_start_gets_the_cpu_loops_answer_step_for_step() {
    let (compared, gave_up) = compare_starts(&mut open(queen_frames()), 13, true);
    assert!(compared > 20_000, "{compared}");
    assert!(gave_up < compared / 20, "{gave_up} of {compared} given up");
}

#[test]
fn every_variant_of_the_constellation_kernel_gets_the_cpu_loops_answer() {
    for tuning in variants() {
        let mut gpu = open(tuning);
        let (compared, gave_up) = compare_starts(&mut gpu, 10, false);
        assert!(compared > 1_500, "{compared}, {}", gpu.tuning());
        assert!(
            gave_up < compared / 20,
            "{gave_up} of {compared}, {}",
            gpu.tuning()
        );
    }
}

#[test]
fn the_class_kernels_steps_are_the_emulations() {
    // The lanes' work before the constellations, as the emulation counts it.
    let mut gpu = open(queen_frames());
    let mut tied = 0;
    for n in 4..=12 {
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        let split = device::split(n, &prefixes, device::start_row_for(n, 8));
        let tables = constellations::class_rows(n);
        let found = gpu.count_sub_boards_stepped(n, &split.boards).unwrap();
        for (board, found) in split.boards.iter().zip(&found) {
            let Some((result, steps)) = found else {
                continue;
            };
            let expected = constellations::emulate(n, &tables[board.b1 as usize], board);
            assert_eq!(
                (result.nodes, u64::from(*steps)),
                (expected.nodes, expected.steps),
                "n = {n}, {board:?}"
            );
            tied += expected.tied;
        }
    }
    assert!(tied > 100, "{tied}");
}

#[test]
fn constellation_counts_on_the_gpu_match_oeis_up_to_15() {
    let mut gpu = gpu();
    for n in 1..=15 {
        let count = gpu.count_constellations(n).unwrap();
        assert_eq!(u128::from(count.total), oeis::total(n).unwrap(), "n = {n}");
    }
    // The software driver's budget gives up on some starts of n = 15: cut deeper, still exact.
    let count = gpu.count_constellations(15).unwrap();
    assert!(
        count.constellations > 2_000 && count.starts >= count.constellations,
        "{count:?}"
    );
    // Its batches are sent while the one before is still on the device.
    assert!(count.overlapped > 0, "{count:?}");
}
