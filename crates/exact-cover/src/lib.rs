//! A generic exact cover engine: Knuth's Algorithm X with dancing links.
//!
//! - [`Problem`] and its [`Builder`]: named items, primary (covered exactly once) or secondary
//!   (at most once, or shared by options that give it the same color: Knuth's XCC), and
//!   options, the sets of items to choose from;
//! - [`Solver`]: the search, by dancing links (module [`dlx`]) for any problem or over bit sets
//!   (module [`bits`]) for problems that fit, the same solutions in the same order either way:
//!   first solution, count, a lazy iterator, a callback that can stop, a limit, random order
//!   from a seed, work counters, and an [`Observer`] of every step for a replay;
//! - [`format`](mod@format): Knuth's text format, read with positioned errors and written back;
//! - [`naive`]: the brute-force oracle the solver is tested against;
//! - [`instances`]: pentominoes, Langford pairs and Sudoku, generated, and a large trivial
//!   family.
//!
//! It knows nothing about N-Queens; the `nqueens_solver` crate encodes the puzzle into it.
//!
//! ```
//! use nqueens_exact_cover::{Problem, Solver};
//! let problem = nqueens_exact_cover::instances::langford(7).unwrap();
//! assert_eq!(Solver::new(&problem).count(), Ok(52));
//! let mut seeded = Solver::with_seed(&problem, 42);
//! let first: Vec<_> = seeded.solutions().take(3).collect();
//! let again: Vec<_> = Solver::with_seed(&problem, 42).solutions().take(3).collect();
//! assert_eq!(first, again);
//! ```
//!
//! **Limits.** [`Solver::set_limits`] takes the workspace's one [`Limits`] (a node budget, a
//! time budget, a stop flag; re-exported here with [`LimitReached`], [`Stopped`] and
//! [`Position`]). A search a limit ended answers `Err(`[`Stopped`]`)` with what it had found
//! so far, never a count, a list or `None` that could pass for the answer:
//!
//! ```
//! use nqueens_exact_cover::{instances, LimitReached, Limits, Solver, Stopped};
//! let mut solver = Solver::new(&instances::langford(11).unwrap());
//! solver.set_limits(Limits { nodes: Some(1000), ..Limits::default() });
//! assert_eq!(solver.count(), Err(Stopped { reason: LimitReached::Nodes, found: 79 }));
//! ```

pub mod bits;
pub mod dlx;
pub mod error;
pub mod format;
pub mod instances;
pub mod naive;
pub mod observe;
pub mod problem;
pub mod solver;
pub mod stats;

pub use dlx::ItemChoice;
pub use error::Error;
/// The limits every search polls, what a limit-stopped search answers, and parse positions
/// (from `nqueens-support`, re-exported so a user needs no other crate).
pub use nqueens_support::{LimitReached, Limits, Position, Stopped};
pub use observe::{Observer, Silent};
pub use problem::{Builder, ColorId, Entry, Item, ItemId, ItemKind, OptionId, Problem};
pub use solver::{Config, Engine, EngineChoice, Enumeration, Solutions, Solver};
pub use stats::Stats;
