//! The device's tests: the split against the CPU, node for node, and the driver's batches.

use super::*;
use crate::engines::counter::attacks::State;
use crate::engines::counter::{SplitList, TaskCounter, TaskList};
use crate::runs::CountRun;

#[test]
fn split_tasks_give_the_cpu_results_node_for_node() {
    let mut counter = TaskCounter::default();
    for n in 1..=13u32 {
        let list = SplitList::new(n, 0);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id).unwrap()).collect();
        let expected: Vec<TaskResult> = list
            .ids()
            .map(|id| counter.count(&list, id).unwrap())
            .collect();
        for start in [0, 4, 5, 7, start_row(n), n as usize, 40] {
            let mut device = SplitOnCpu {
                start_row: Some(start),
                ..SplitOnCpu::default()
            };
            let found = device.solve_batch(n, &prefixes).unwrap();
            assert_eq!(found, expected, "n = {n}, cut at row {start}");
        }
    }
}

#[test]
fn splitting_on_threads_gives_the_same_pieces() {
    // The same host results in task order, and the same sub-boards, each task's in the
    // same order; the buffers reused from call to call.
    let mut buffers = SplitBuffers::default();
    let mut many = Split::default();
    for n in [9, 12, 14] {
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        for start in [list.depth(), start_row(n), n as usize - 2] {
            let one = split(n, &prefixes, start);
            for threads in [1, 2, 3, 8] {
                split_on_threads(n, &prefixes, start, threads, &mut buffers, &mut many);
                let what = format!("n = {n}, row {start}, {threads} threads");
                assert_eq!(many.host, one.host, "{what}");
                let mut boards = many.boards.clone();
                boards.sort_by_key(|board| board.task);
                assert_eq!(boards, one.boards, "{what}");
            }
        }
    }
}

#[test]
fn a_pipelined_device_counts_what_the_cpu_counts() {
    // Two batches queued at a time, sized by the pace: every count and node as on the CPU
    // threads, with 1 and 3 threads to split.
    for n in [1, 4, 8, 11, 13] {
        let mut cpu = CountRun::new(2);
        let expected = cpu.run(n, &Default::default()).unwrap();
        let mut counter = CountRun::new(1);
        counter.device = Some(SharedDevice::new(SplitOnCpu {
            pipelined: true,
            ..SplitOnCpu::default()
        }));
        let report = counter.run(n, &Default::default()).unwrap();
        assert_eq!(
            (report.total, report.unique, report.nodes),
            (expected.total, expected.unique, expected.nodes),
            "n = {n}"
        );
    }
}

/// Counts as [`SplitOnCpu`] does, asks for batches of `floor` pieces at least, and notes
/// each batch's size.
struct Floored {
    cpu: SplitOnCpu,
    floor: usize,
    sizes: Arc<Mutex<Vec<usize>>>,
}

impl Device for Floored {
    fn describe(&self) -> String {
        "a device with a floor".to_string()
    }

    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError> {
        self.sizes.lock().unwrap().push(prefixes.len());
        self.cpu.solve_batch(n, prefixes)
    }

    fn min_batch(&self) -> usize {
        self.floor
    }
}

#[test]
fn batches_hold_the_devices_floor() {
    // Time alone would double the batches from one piece (1, 2, 4, ...); the floor holds
    // from the second batch on, and the count is the CPU's.
    let n = 12;
    let expected = CountRun::new(2).run(n, &Default::default()).unwrap();
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let mut counter = CountRun::new(1);
    counter.device = Some(SharedDevice::new(Floored {
        cpu: SplitOnCpu::default(),
        floor: 40,
        sizes: sizes.clone(),
    }));
    let report = counter.run(n, &Default::default()).unwrap();
    assert_eq!(
        (report.total, report.nodes),
        (expected.total, expected.nodes)
    );
    let sizes = sizes.lock().unwrap();
    assert!(sizes.len() > 3, "{sizes:?}");
    assert_eq!(sizes[0], 1);
    let (last, middle) = sizes[1..].split_last().unwrap();
    assert!(middle.iter().all(|&size| size >= 40), "{sizes:?}");
    assert!(*last >= 1);
}

#[test]
fn refined_sub_boards_add_up_to_the_board() {
    // Every sub-board of n = 11 cut one, two and five rows deeper: its task's result is
    // unchanged, node for node.
    let n = 11;
    let list = TaskList::new(n);
    let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
    let whole = SplitOnCpu::default().solve_batch(n, &prefixes).unwrap();
    for rows in [1, 2, 5] {
        let mut split = split(n, &prefixes, 5);
        let boards = std::mem::take(&mut split.boards);
        let mut refined = 0;
        for board in &boards {
            for child in split.refine(n, board, rows) {
                assert_eq!(child.row as usize, (5 + rows).min(n as usize - 1));
                split.add(&child, &count_sub_board(n, &child));
                refined += 1;
            }
        }
        assert!(refined > 0);
        assert_eq!(split.host, whole, "{rows} rows deeper");
    }
}

#[test]
fn sub_boards_start_where_asked_and_hold_their_queens() {
    let n = 12;
    let list = TaskList::new(n);
    let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
    let split = split(n, &prefixes, 7);
    assert!(split.boards.len() > 10 * prefixes.len());
    for board in &split.boards {
        assert_eq!(board.row, 7);
        let state = State::after(board.queens()).expect("no two queens attack");
        assert_eq!(u64::from(board.columns) & 0xfff, state.columns);
        assert_eq!(u64::from(board.left), state.left & 0xffff_ffff);
        assert_eq!(u64::from(board.right), state.right);
        assert_eq!(
            board.columns >> 12,
            u32::MAX >> 12,
            "bits at or above n set"
        );
        assert_eq!(
            &board.queens()[..list.depth()],
            prefixes[board.task as usize]
        );
        assert_eq!(board.b1, u32::from(board.queens()[0]));
    }
}

#[test]
fn class_tables_are_the_class_rules() {
    let tables = class_tables(8);
    assert_eq!(tables.len(), 4);
    // b1 = 2 (see the task module's example): row 3 allows columns 1..=6 only.
    assert_eq!(tables[2].blocked[0], !0b0000_0100);
    assert_eq!(tables[2].blocked[3], !0b0111_1110);
    assert_eq!(tables[2].blocked[8], u32::MAX);
    assert_eq!(tables[2].tie_rows, [2, 5]);
    assert_eq!(tables[2].side_squares, 0b1000_0001);
    assert_eq!(tables[2].last_square, 1 << 5);
    assert_eq!(start_row(8), 4);
    assert_eq!(start_row(20), 8);
    assert_eq!(start_row(32), 20);
    assert_eq!(start_row_for(14, 9), 5);
    assert_eq!(start_row(4), 3);
}
