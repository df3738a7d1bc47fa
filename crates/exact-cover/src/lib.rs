//! A generic exact cover engine: Knuth's Algorithm X with dancing links.
//!
//! This crate will hold the builder (named items, primary items covered exactly once, secondary
//! items covered at most once, optionally with colors as in Knuth's XCC), the dancing-links
//! search over an arena of u32-linked nodes, and Knuth's `.dlx` text format. It does not know
//! about N-Queens; `nqueens` encodes the puzzle into it.
