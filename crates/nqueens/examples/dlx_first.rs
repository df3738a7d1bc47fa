//! Nodes and time to the first solution with the exact cover engine, for several seeds.
//!
//! ```text
//! cargo run --release -p nqueens-solver --example dlx_first -- 64 200 500
//! cargo run --release -p nqueens-solver --example dlx_first -- --gadgets 8 16 32
//! ```
//!
//! Boards below 64 are also searched in Knuth's deterministic order (`seed=None`).

use std::time::Instant;

use nqueens_solver::Problem;
use nqueens_solver::engines::dlx::{DEFAULT_SEED, Encoding, encode};

fn main() {
    let mut encoding = Encoding::Secondary;
    let mut sizes = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--gadgets" => encoding = Encoding::Gadgets,
            _ => match arg.parse::<u32>() {
                Ok(n) if (1..=nqueens_solver::engines::dlx::MAX_N).contains(&n) => sizes.push(n),
                _ => {
                    eprintln!("usage: dlx_first [--gadgets] N...  (1 ≤ N ≤ 1000)");
                    std::process::exit(2)
                }
            },
        }
    }
    for n in sizes {
        let problem = Problem::new(n).expect("n ≥ 1");
        let start = Instant::now();
        let instance = encode(&problem, encoding);
        let built = start.elapsed();
        let plain = if n < 64 { vec![None] } else { vec![] };
        let seeds = [Some(DEFAULT_SEED), Some(1), Some(2), Some(3)];
        for seed in plain.into_iter().chain(seeds) {
            let start = Instant::now();
            let mut solver = instance.solver(seed, nqueens_exact_cover::EngineChoice::Links);
            let found = matches!(solver.first(), Ok(Some(_)));
            let s = solver.stats();
            println!(
                "{encoding:?} n={n} seed={seed:?} found={found} nodes={} updates={} build={:.1}ms search={:.1}ms",
                s.nodes,
                s.updates,
                built.as_secs_f64() * 1e3,
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
