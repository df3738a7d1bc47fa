//! The N-Queens problem, solved every way that matters.
//!
//! The crate is in three layers, and its folders are named after them:
//!
//! - [`board`]: the model. [`Problem`] (a board size and the queens already placed: the
//!   completion variant), [`Queen`], [`Solution`]; [`verify()`], the independent checker every
//!   engine's answers go through; [`board::symmetry`], the eight board symmetries and canonical
//!   forms; [`board::naive`], the slow obviously-right oracle the tests hold the engines to.
//! - [`engine`] and [`methods`]: the one API every engine follows (first solution, enumeration
//!   to a callback that can stop, count) and the registry that names the engines and picks one
//!   for `auto`. The engines themselves live in [`engines`]: bitboard backtracking, exact cover
//!   with dancing links, SAT, CP, the explicit construction, local search and the record-class
//!   counter (symmetry, threads, checkpoints, shards). [`trace`] replays a search step by step
//!   from the engines' own observer hooks, for the web page and Python.
//! - [`formats`]: what goes in and out as text: rendering (text, matrix, coordinates, JSON,
//!   SVG), partial-board files, solution files; and [`instances`]: generated completion
//!   instances and the published counts (OEIS A000170, A002562).
//!
//! Coordinates are 0-based in the API and 1-based wherever users read or type them.
//!
//! ```
//! use nqueens::{verify, Engine, Outcome, Problem};
//! use nqueens::engines::backtrack::Backtrack;
//!
//! let problem = Problem::new(8).unwrap();
//! let mut engine = Backtrack::default();
//! let Outcome::Found(solution) = engine.solve(&problem).unwrap() else { panic!() };
//! assert!(verify(&problem, &solution).is_ok());
//! assert_eq!(engine.count(&problem, true).unwrap().unique, Some(12));
//! ```

pub mod board;
pub mod engine;
pub mod engines;
pub mod error;
pub mod formats;
pub mod instances;
mod job;
pub mod methods;
pub mod runs;
pub mod trace;

pub use board::verify::{Violation, verify};
pub use board::{Problem, ProblemError, Queen, Solution};
pub use engine::{
    Counts, Engine, Enumeration, Job, LimitReached, Limits, Outcome, Progress, ProgressSink, Stats,
};
pub use error::Error;
pub use methods::{Config, Method};
