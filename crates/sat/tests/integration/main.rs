//! nqueens-sat's integration tests, one module per subject, in one test binary (the global
//! allocator's test, `memory.rs`, is a binary of its own: it counts every allocation of its
//! process).
//!
//! One binary rather than one per file: each binary links the solver again, compiles its own
//! copy of the modules it includes (the RUP checker was compiled into five), and `cargo test`
//! runs binaries one after another, so a binary whose last test runs long leaves the other test
//! threads idle until it ends. Run one subject with a filter: `cargo test -p nqueens-sat
//! --profile checked --test integration eliminate::`.

mod congruence;
mod elim_rounds;
mod eliminate;
mod els;
mod factor;
mod fuzz_dimacs;
mod pass_limits;
mod rup;
mod solver;
mod sources;
mod structured;
mod support;
mod vivify;
