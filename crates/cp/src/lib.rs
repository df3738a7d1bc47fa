//! A finite-domain constraint programming engine: integer variables, offset views, `≠` and
//! all-different with real filtering, and a depth-first search with first-fail, value orders,
//! restarts and limits.
//!
//! **Model.** A [`Solver`] owns integer variables ([`Var`]) with bitset domains of up to
//! [`MAX_DOMAIN_SIZE`] values each (values within ±[`VALUE_LIMIT`]); constraints are posted over
//! [`View`]s `x + c`, so `all_different(x(i) + i)` needs no auxiliary variable. Constraints:
//! [`Solver::not_equal`], and [`Solver::all_different`] at one of three [`Strength`]s:
//! `Pairwise` (one `≠` per pair: the obviously right decomposition, kept as the test oracle),
//! `Value` (value elimination in one propagator, pruning exactly what `Pairwise` prunes in O(n)
//! memory) and `Bounds` (value elimination plus bounds consistency by Hall intervals, after
//! López-Ortiz, Quimper, Tromp and van Beek, IJCAI 2003). The tests check all three against brute
//! force on random small problems, and `Bounds` against a brute-force bounds-consistency oracle.
//! With [`Solver::fix`] and [`Solver::remove`] at the root, that is all it models: no linear or
//! arithmetic constraints, no tables, no optimisation. A variable belongs to the solver that
//! made it; another solver refuses it ([`Error::ForeignVariable`]).
//!
//! **Invariant.** A domain is the set bits of its word range that lie inside its `min..=max`,
//! and `size` counts them. Every change pushes an undo record on one
//! trail, and backtracking pops the trail to a mark, so the state after undo is exactly the state
//! at the mark; propagators keep nothing that undo could miss (their reversible state is restored
//! through their own trail entries). After [`Solver::search`] returns, the solver is back at its
//! root state.
//!
//! **Propagation.** Two FIFO queues: cheap propagators (`≠`, value elimination) run before the
//! Hall-interval pass, which thus sees all cheap pruning first. Each propagator is idempotent: one
//! run reaches its own fixpoint, so it is only re-queued by changes made by others. A conflict
//! empties the queues.
//!
//! **Costs.** Membership, removing a value, assigning and moving a bound: O(1) (plus a scan to
//! the next live bit when a removed value was a bound). Value elimination: O(f) per view fixed,
//! f the free views of the constraint, with one trail entry and f bits of undo mask instead of f
//! entries. Hall-interval pass: O(f α(f) + u/64) for u values, with sort orders kept between
//! passes. A search node costs its propagation, the first-fail scan O(v) over v variables, and
//! O(changes) to undo.
//!
//! **Search.** Binary branching `x = v` / `x ≠ v` ([`SearchConfig`]): first-fail (smallest
//! domain, ties to the earliest variable of a priority list or at random), values by
//! min / max / middle-out / random, optional Luby restarts with a seed, node and time limits, an
//! [`Observer`] that receives each solution (and may stop the search) and periodic progress, and
//! deterministic [`Stats`] (nodes, failures, propagations, solutions, restarts, depth).
//!
//! ```
//! use std::ops::ControlFlow;
//! use nqueens_cp::{SearchConfig, Solver, Strength, View};
//!
//! // Eight queens: x(i) is the column of row i.
//! let mut solver = Solver::new();
//! let x = solver.new_vars(8, 0, 7).unwrap();
//! let shifted = |sign: i32| -> Vec<View> { x.iter().zip(0..).map(|(&v, i)| v.plus(sign * i)).collect() };
//! for views in [shifted(0), shifted(1), shifted(-1)] {
//!     solver.all_different(&views, Strength::Bounds).unwrap();
//! }
//! let result = solver
//!     .search(&SearchConfig::default(), |_| ControlFlow::Continue(()))
//!     .unwrap();
//! assert_eq!(result.solutions, 92);
//! ```

mod alldiff;
mod bounds;
mod domain;
mod error;
mod hall;
mod propagator;
mod search;
mod solver;
mod stats;
mod store;

pub use domain::{MAX_DOMAIN_SIZE, VALUE_LIMIT, Var, View};
pub use error::Error;
/// The limits a search polls, what a limit-stopped search answers, and parse positions
/// (from `nqueens-support`, re-exported so a user needs no other crate).
pub use nqueens_support::{LimitReached, Limits, Position, Stopped};
pub use search::{
    Observer, Restarts, SearchConfig, SearchResult, Solution, State, Status, Step, ValueOrder,
    VariableOrder,
};
pub use solver::{Solver, Strength};
pub use stats::Stats;
