//! The N-Queens problem, solved every way that matters.
//!
//! - [`board`]: [`Problem`] (a board size and the queens already placed: the completion
//!   variant), [`Queen`] and [`Solution`];
//! - [`verify()`]: the independent checker every engine's answers go through;
//! - [`symmetry`]: the eight board symmetries and canonical forms (unique solutions);
//! - [`engine`]: the API all engines share (first solution, enumeration with a callback that
//!   can stop, count), and [`methods`], which names the engines and picks one for `auto`;
//! - [`backtrack`]: the baseline bitboard backtracking engine;
//! - [`dlx`]: N-Queens as exact cover (two encodings), solved with dancing links;
//! - [`cnf`]: N-Queens as CNF (the seed's pairwise encoding and a compact one) and the SAT
//!   engine;
//! - [`cp_model`]: the three-all-different model on the [`cp`] constraint engine;
//! - [`counter`]: the fast counter (full symmetry, threads, checkpoints, shards);
//! - [`render`]: text, matrix, coordinates, JSON and SVG output; [`partial`]: partial-board
//!   files;
//! - [`construct`] and [`local`]: one solution of a huge board, by the explicit construction
//!   or by min-conflicts local search; [`solution_file`] reads solutions back for checking;
//! - [`generate`]: random completion instances, uniform over non-attacking placements;
//! - [`oeis`]: the published counts (A000170, A002562) the tests check every engine against.
//!
//! Coordinates are 0-based in the API and 1-based wherever users read or type them.
//!
//! ```
//! use nqueens::{verify, Engine, Outcome, Problem};
//! use nqueens::backtrack::Backtrack;
//!
//! let problem = Problem::new(8).unwrap();
//! let mut engine = Backtrack::default();
//! let Outcome::Found(solution) = engine.solve(&problem).unwrap() else { panic!() };
//! assert!(verify(&problem, &solution).is_ok());
//! assert_eq!(engine.count(&problem, true).unwrap().unique, Some(12));
//! ```

pub mod backtrack;
pub mod board;
pub mod cnf;
pub mod construct;
pub mod counter;
pub mod cp_model;
pub mod dlx;
pub mod engine;
pub mod error;
pub mod generate;
pub mod local;
pub mod methods;
pub mod oeis;
pub mod partial;
pub mod render;
pub mod solution_file;
pub mod symmetry;
pub mod verify;

pub use board::{Problem, ProblemError, Queen, Solution};
pub use engine::{Counts, Engine, Enumeration, Job, Outcome, Progress, ProgressSink, Stats};
pub use error::Error;
pub use verify::{Violation, verify};
