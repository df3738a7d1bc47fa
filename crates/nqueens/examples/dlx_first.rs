//! Nodes and time to the first solution with the exact cover engine, for several seeds.
//!
//! ```text
//! cargo run --release -p nqueens --example dlx_first -- 64 200 500
//! ```

use std::time::Instant;

use nqueens::Problem;
use nqueens::dlx::{Encoding, encode};

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    for n in sizes {
        let problem = Problem::new(n).expect("n ≥ 1");
        let start = Instant::now();
        let instance = encode(&problem, Encoding::Secondary);
        let built = start.elapsed();
        let plain = if n < 64 { vec![None] } else { vec![] };
        for seed in plain.into_iter().chain([Some(nqueens::dlx::DEFAULT_SEED), Some(1), Some(2), Some(3)]) {
            let start = Instant::now();
            let mut solver = instance.solver(seed);
            let found = solver.first().is_some();
            let s = solver.stats();
            println!(
                "n={n} seed={seed:?} found={found} nodes={} updates={} build={:.1}ms search={:.1}ms",
                s.nodes,
                s.updates,
                built.as_secs_f64() * 1e3,
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
