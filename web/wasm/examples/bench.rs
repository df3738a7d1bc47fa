//! The native half of the wasm-against-native comparison in BENCHMARKS.md: the page's requests
//! ([`nqueens_web::api::handle`], the very code the browser runs) timed natively. The wasm half
//! is `web/tests/bench.js`, which runs the same requests through the built module in node.
//!
//! ```text
//! CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
//!     cargo run --release -p nqueens-web --example bench -- 7
//! ```

use std::time::Instant;

/// The jobs: count n = 12, first solution of n = 1000 with cp and with the construction.
const JOBS: &[(&str, &str)] = &[
    (
        "count n=12 (backtrack)",
        r#"{"op":"count","n":12,"fix":[]}"#,
    ),
    (
        "solve n=1000 cp",
        r#"{"op":"solve","n":1000,"fix":[],"method":"cp"}"#,
    ),
    (
        "solve n=1000 construct",
        r#"{"op":"solve","n":1000,"fix":[],"method":"construct"}"#,
    ),
];

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    for (name, request) in JOBS {
        let mut times = Vec::new();
        for _ in 0..reps {
            let start = Instant::now();
            let answer = nqueens_web::api::handle(request);
            times.push(start.elapsed().as_secs_f64() * 1e3);
            assert!(!answer.contains("error"), "{name}: {answer}");
        }
        times.sort_by(f64::total_cmp);
        println!("native\t{name}\t{:.3} ms", times[times.len() / 2]);
    }
}
