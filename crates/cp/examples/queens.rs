//! N-Queens with three all-different constraints: `cargo run --release -p nqueens-cp --example queens --
//! N [all] [pairwise|value|bounds] [min|mid|random] [restarts]`.

use std::ops::ControlFlow;

use nqueens_cp::{Restarts, SearchConfig, Solver, Strength, ValueOrder, View};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: i32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(8);
    let has = |word: &str| args.iter().any(|a| a == word);
    let strength = if has("pairwise") {
        Strength::Pairwise
    } else if has("value") {
        Strength::Value
    } else {
        Strength::Bounds
    };
    let mut solver = Solver::new();
    let x = solver.new_vars(n as usize, 0, n - 1).unwrap();
    let columns: Vec<View> = x.iter().map(|&v| v.into()).collect();
    let up: Vec<View> = x.iter().zip(0..).map(|(&v, i)| v.plus(i)).collect();
    let down: Vec<View> = x.iter().zip(0..).map(|(&v, i)| v.minus(i)).collect();
    for (i, views) in [&columns, &up, &down].into_iter().enumerate() {
        let strength = if has("mixed") && i > 0 {
            Strength::Value
        } else {
            strength
        };
        solver.all_different(views, strength).unwrap();
    }
    // Rows from the middle outwards.
    let mut priority = Vec::new();
    let middle = (n - 1) / 2;
    for d in 0..n {
        for row in [middle - d, middle + d + 1] {
            if (0..n).contains(&row) && priority.len() < n as usize {
                priority.push(x[row as usize]);
            }
        }
    }
    let config = SearchConfig {
        priority: if has("byindex") { Vec::new() } else { priority },
        values: if has("mid") {
            ValueOrder::MiddleOut
        } else if has("random") {
            ValueOrder::Random
        } else {
            ValueOrder::Min
        },
        restarts: has("restarts").then_some(Restarts { scale: 50 }),
        random_ties: has("randomties"),
        seed: 1,
        ..SearchConfig::default()
    };
    let all = has("all");
    let result = solver
        .search(&config, |s| {
            if !all {
                let cols: Vec<i32> = x.iter().map(|&v| s.value(v)).collect();
                for i in 0..cols.len() {
                    for j in i + 1..cols.len() {
                        assert!(cols[i] != cols[j] && (cols[i] - cols[j]).abs() != (j - i) as i32);
                    }
                }
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })
        .unwrap();
    println!(
        "n={n} {:?} solutions={} {:?} time={:?}",
        result.status,
        result.solutions,
        solver.stats(),
        result.elapsed
    );
}
