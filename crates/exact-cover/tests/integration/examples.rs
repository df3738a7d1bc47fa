//! The `.dlx` files in the repository's `examples/` folder, on both engines: published counts
//! (pentominoes: 9,356 / 4,040 / 1,472 / 8 tilings of the 6×10, 5×12, 4×15 and 3×20 boxes;
//! Langford pairs: 300 and 35,584 arrangements for n = 8 and 11, reversals counted), the same
//! nodes on both, and each file exactly what the generator writes today.
//!
//! The three large pentomino boxes take minutes on dancing links in the test profile, so that
//! comparison is an ignored test: `cargo test -p nqueens-exact-cover --profile checked --test integration
//! examples:: -- --ignored`.

use nqueens_exact_cover::{Config, EngineChoice, Problem, Solver, instances};

fn example(name: &str) -> (String, Problem) {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let problem = Problem::parse(&text).unwrap();
    (text, problem)
}

/// Counts on one engine: (solutions, nodes).
fn count(problem: &Problem, engine: EngineChoice) -> (u128, u64) {
    let config = Config {
        engine,
        ..Config::default()
    };
    let mut solver = Solver::configured(problem, config).unwrap();
    let count = solver.count().unwrap();
    (count, solver.stats().nodes)
}

/// The file, the problem the generator makes, and its count.
fn cases() -> Vec<(&'static str, Problem, u128)> {
    let sudoku =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    vec![
        (
            "pentominoes-6x10.dlx",
            instances::pentominoes(6, 10).unwrap(),
            9_356,
        ),
        (
            "pentominoes-5x12.dlx",
            instances::pentominoes(5, 12).unwrap(),
            4_040,
        ),
        (
            "pentominoes-4x15.dlx",
            instances::pentominoes(4, 15).unwrap(),
            1_472,
        ),
        (
            "pentominoes-3x20.dlx",
            instances::pentominoes(3, 20).unwrap(),
            8,
        ),
        ("sudoku-9x9.dlx", instances::sudoku(sudoku), 1),
        ("sudoku-hard.dlx", instances::sudoku(hard), 1),
        ("langford-8.dlx", instances::langford(8).unwrap(), 300),
        ("langford-11.dlx", instances::langford(11).unwrap(), 35_584),
        (
            "edge-matching-4x4.dlx",
            instances::edge_matching(4, 3, 2).unwrap(),
            32,
        ),
    ]
}

fn is_large(name: &str) -> bool {
    ["6x10", "5x12", "4x15"].iter().any(|b| name.contains(b))
}

#[test]
fn examples_are_what_the_generators_make() {
    for (name, generated, _) in cases() {
        let (_, read) = example(name);
        // As text: the order in which colors are first named may differ.
        assert!(
            read.to_knuth() == generated.to_knuth(),
            "{name} differs from what the generator writes"
        );
    }
}

#[test]
fn examples_count_right_on_the_bit_engine() {
    for (name, problem, expected) in cases() {
        let (solutions, bit_nodes) = count(&problem, EngineChoice::Bits);
        assert_eq!(solutions, expected, "{name}");
        if !is_large(name) {
            let links = count(&problem, EngineChoice::Links);
            assert_eq!(links, (expected, bit_nodes), "{name}");
        }
    }
}

#[test]
#[ignore = "minutes on dancing links in the test profile"]
fn large_examples_count_alike_on_both_engines() {
    for (name, problem, expected) in cases().into_iter().filter(|c| is_large(c.0)) {
        let bits = count(&problem, EngineChoice::Bits);
        assert_eq!(bits.0, expected, "{name}");
        assert_eq!(count(&problem, EngineChoice::Links), bits, "{name}");
    }
}
