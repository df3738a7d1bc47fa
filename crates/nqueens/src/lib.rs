//! The N-Queens problem, solved every way that matters.
//!
//! The crate stands in floors, each using only the floors below it (the layers test of the
//! CLI's suite refuses an import that runs back up):
//!
//! - [`board`]: the model. [`Problem`] (a board size and the queens already placed: the
//!   completion variant), [`Queen`], [`Solution`]; [`verify()`], the independent checker every
//!   engine's answers go through; [`board::symmetry`], the eight board symmetries and canonical
//!   forms; [`board::naive`], the slow obviously-right oracle the tests hold the engines to.
//! - [`formats`]: what goes in and out as text: rendering (text, matrix, coordinates, JSON,
//!   SVG), partial-board files, solution files.
//! - [`engine`]: the ground every engine stands on: the one API (first solution, enumeration
//!   to a callback that can stop, count), the [`Job`]s, the [`Config`] and the engines' own
//!   error, [`EngineError`].
//! - [`engines`]: bitboard backtracking, exact cover with dancing links, SAT, CP, the explicit
//!   construction, local search and the record-class counter.
//! - [`instances`]: generated completion instances (drawn with the construction and local
//!   search) and the published counts (OEIS A000170, A002562).
//! - [`runs`]: a long count as a job ([`CountRun`], at the root too): checkpoints, shards,
//!   a device, the check against the published counts.
//! - [`methods`]: the registry that names the engines and picks one for `auto`; [`trace`]
//!   replays a search step by step from the engines' own observer hooks, for the web page and
//!   Python.
//! - [`Error`], on top: the crate-wide error, one variant per floor's own error.
//!
//! Coordinates are 0-based in the API and 1-based wherever users read or type them.
//!
//! ```
//! use nqueens_solver::{verify, Engine, Outcome, Problem};
//! use nqueens_solver::engines::backtrack::Backtrack;
//!
//! let problem = Problem::new(8).unwrap();
//! let mut engine = Backtrack::default();
//! let Outcome::Found(solution) = engine.solve(&problem).unwrap() else { panic!() };
//! assert!(verify(&problem, &solution).is_ok());
//! assert_eq!(engine.count(&problem, true).unwrap().unique, Some(12));
//! ```
//!
//! A long count is a [`CountRun`]: the record-class counter on many threads, with progress,
//! limits and a stop flag another thread may raise (a Ctrl-C handler, a GUI's button), a
//! checkpoint to resume from ([`RunOptions`]) and a check of the total against the published
//! counts (OEIS A000170) where they are known. A stopped run is an error, never a count:
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::sync::{Arc, Mutex};
//! use nqueens_solver::{CountRun, Error, LimitReached, Progress, ProgressSink, RunOptions, Stopped};
//!
//! let snapshots: Arc<Mutex<Vec<Progress>>> = Arc::default();
//! let seen = Arc::clone(&snapshots);
//! let stop = Arc::new(AtomicBool::new(false));
//! let mut run = CountRun::new(2);
//! run.progress = Some(ProgressSink::new(move |p| seen.lock().unwrap().push(*p)));
//! run.limits.stop = Some(Arc::clone(&stop));
//!
//! let report = run.run(10, &RunOptions::default()).unwrap();
//! assert_eq!((report.total, report.unique), (724, 92)); // OEIS A000170 and A002562
//! let last = *snapshots.lock().unwrap().last().unwrap();
//! assert_eq!((last.solutions, Some(last.done)), (724, last.total));
//!
//! // Raised (here before the start): the run stops, and says why and what it had counted
//! // (a lower bound, never the count).
//! stop.store(true, Ordering::Relaxed);
//! let stopped = run.run(16, &RunOptions::default()).map_err(Error::from);
//! let Some(Stopped { reason, found }) = stopped.unwrap_err().stopped() else { panic!() };
//! assert_eq!(reason, LimitReached::Stopped);
//! assert!(found < 14_772_512); // OEIS A000170 for n = 16
//! ```

pub mod board;
pub mod engine;
pub mod engines;
pub mod error;
pub mod formats;
pub mod instances;
pub mod methods;
pub mod runs;
pub mod trace;

pub use board::verify::{Violation, verify};
pub use board::{Problem, ProblemError, Queen, Solution};
pub use engine::{
    Config, Counts, Engine, EngineError, Enumeration, Job, LimitReached, Limits, Outcome, Progress,
    ProgressSink, Stats, Stopped,
};
pub use error::Error;
pub use methods::Method;
pub use runs::{CountRun, RunOptions};
