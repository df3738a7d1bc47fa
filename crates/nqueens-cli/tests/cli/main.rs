//! The real `nqueens` binary from the outside, one module per command family, sharing the
//! helpers in [`util`]. One test binary links once (ripgrep's layout).

mod util;

mod basics;
mod bench;
mod blocked;
mod completion;
mod counter;
mod cp;
mod docs;
mod gpu;
mod huge;
mod layers;
mod libraries;
mod outputs;
mod readback;
mod records;
mod sat;
mod stops;
mod terminal;
mod trust;
mod workspace;
mod xc;
