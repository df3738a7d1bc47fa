//! A finite-domain constraint programming engine.
//!
//! This crate will hold integer variables with bitset domains, offset views `x + c`, a trail for
//! exact undo, not-equal and all-different propagators, and first-fail search with a callback
//! per solution. It does not know about N-Queens; `nqueens` encodes the puzzle into it.
