//! nqueens-gpu's integration tests in one test binary (one link of wgpu and the counter, and
//! `cargo test` runs one binary's tests side by side rather than one binary after another). Run
//! one subject with a filter: `cargo test -p nqueens-gpu --profile checked --test integration
//! kernel::`.

mod constellations;
mod kernel;
