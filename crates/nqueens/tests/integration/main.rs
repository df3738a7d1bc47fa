//! nqueens-solver's integration tests, one module per subject, in one test binary.
//!
//! One binary rather than one per file: each binary links the engines again (a link and the
//! code the tests instantiate, about a second of CPU each in the `checked` profile), and `cargo
//! test` runs binaries one after another, so a binary whose last test runs long leaves the other
//! test threads idle until it ends. In one binary the long tests (the counter's n = 16..18, the
//! study boards of completion, every method's agreement) run beside each other and beside the
//! short ones. Run one subject with a filter: `cargo test -p nqueens-solver --profile checked
//! --test integration counter::`.

mod agreement;
mod backtrack;
mod blocked;
mod common;
mod completion;
mod counter;
mod cp;
mod dlx;
mod render;
mod sat;
mod trace;
