//! nqueens-exact-cover's integration tests, one module per subject, in one test binary.
//!
//! One binary rather than one per file: each binary links the solver again, and `cargo test`
//! runs binaries one after another, so a binary whose last test runs long leaves the other test
//! threads idle until it ends. Run one subject with a filter: `cargo test -p
//! nqueens-exact-cover --profile checked --test integration oracle::`.

mod examples;
mod fixtures;
mod oracle;
mod parse_fuzz;
mod restarts;
mod solver;
