//! The engines: each solves N-Queens one way, behind the one [`Engine`](crate::Engine) API.
//!
//! | module | method | idea |
//! |---|---|---|
//! | [`backtrack`] | `backtrack` | bitboard backtracking row by row, the honest baseline |
//! | [`dlx`] | `dlx`, `dlx-gadgets` | exact cover on the [`nqueens_exact_cover`] engine (dancing links) |
//! | [`sat`] | `sat` | CNF encodings (pairwise, compact) on the [`nqueens_sat`] CDCL solver |
//! | [`cp`] | `cp` | three all-different constraints on the [`nqueens_cp`] engine |
//! | [`construct`] | `construct` | the explicit O(n) construction by n mod 6 |
//! | [`local`] | `local` | min-conflicts local search |
//! | [`counter`] | `counter` | the record-class counter: symmetry, threads, checkpoints, shards |
//! | [`portfolio`] | (`auto`) | one completion: a root check, then cp and dancing links in rounds |
//!
//! Each module writes the row of its method ([`Descriptor`](crate::engine::Descriptor)) beside
//! its code, and its `impl Engine` reads it; [`crate::methods`] lists the rows.
//!
//! Engines know nothing of the CLI: they take a [`Problem`](crate::Problem) and a
//! [`Config`](crate::engine::Config), and report errors and limits in their own words.

pub mod backtrack;
pub mod construct;
pub mod counter;
pub mod cp;
pub mod dlx;
pub mod local;
pub mod portfolio;
pub mod sat;
