//! How fast the host cuts a count's tasks into sub-boards for a GPU: the whole task list of n
//! split in batches of 2,000 tasks on T threads (buffers reused, as the GPU counter does),
//! with the sub-boards counted, and optionally the queens per sub-board on a sample of S
//! tasks (counted by the CPU's one-board loop, the device kernels' oracle).
//!
//! ```text
//! cargo run --release -p nqueens-solver --example split_rate -- N ROWS THREADS [SAMPLE]
//! cargo run --release -p nqueens-solver --example split_rate -- 20 13 2 100
//! ```
//!
//! ROWS is the rows left to the device (the GPU's `NQUEENS_GPU_ROWS`, 13 by default).

use std::time::Instant;

use nqueens_solver::engines::counter::TaskList;
use nqueens_solver::runs::device::{self, Split, SplitBuffers};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or(usize::MAX))
        .collect();
    let (n, rows, threads, sample) = match args[..] {
        [n, rows, threads] if (4..=32).contains(&n) && rows >= 1 && threads >= 1 => {
            (n as u32, rows, threads, 0)
        }
        [n, rows, threads, sample] if (4..=32).contains(&n) && rows >= 1 && threads >= 1 => {
            (n as u32, rows, threads, sample)
        }
        _ => {
            eprintln!("usage: split_rate N ROWS THREADS [SAMPLE]  (4 ≤ N ≤ 32)");
            std::process::exit(2)
        }
    };
    let list = TaskList::new(n);
    let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
    let start = device::start_row_for(n, rows);
    let mut buffers = SplitBuffers::default();
    let mut split = Split::default();
    let (mut boards, mut host_nodes) = (0usize, 0u64);
    let started = Instant::now();
    for batch in prefixes.chunks(2000) {
        device::split_on_threads(n, batch, start, threads, &mut buffers, &mut split);
        boards += split.boards.len();
        host_nodes += split.host.iter().map(|h| h.nodes).sum::<u64>();
    }
    let took = started.elapsed().as_secs_f64();
    println!(
        "n = {n}, cut at row {start}: {} tasks, {boards} sub-boards ({host_nodes} queens placed by the host) in {took:.3} s on {threads} threads: {:.3e} sub-boards/s",
        prefixes.len(),
        boards as f64 / took
    );
    if let Some(step) = prefixes.len().checked_div(sample) {
        let picked: Vec<&[u8]> = prefixes.iter().step_by(step.max(1)).copied().collect();
        let split = device::split(n, &picked, start);
        let nodes: u64 = split
            .boards
            .iter()
            .map(|board| device::count_sub_board(n, board).nodes)
            .sum();
        println!(
            "sample of {} tasks: {} sub-boards, {:.0} queens per sub-board",
            picked.len(),
            split.boards.len(),
            nodes as f64 / split.boards.len().max(1) as f64
        );
    }
}
