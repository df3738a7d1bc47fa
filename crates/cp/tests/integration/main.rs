//! nqueens-cp's integration tests in one test binary (one link of the solver, and `cargo test`
//! runs one binary's tests side by side rather than one binary after another). Run one subject
//! with a filter: `cargo test -p nqueens-cp --profile checked --test integration alldiff::`.

mod alldiff;
mod model;
