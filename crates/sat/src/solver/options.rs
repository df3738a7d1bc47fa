//! The solver's settings: [`Options`] (heuristics, fixed when the solver is made), [`Restarts`]
//! (the restart policy among them) and [`Limits`](super::Limits) (the budget of each call to solve).

use std::time::Duration;

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Restarts {
    /// When the average LBD of the last conflicts exceeds `margin` times the long-run average
    /// (and at least `min_conflicts` conflicts were seen since the last restart): glucose's rule.
    Glucose {
        /// How much worse recent conflicts must be (1.25 in glucose).
        margin: f64,
        /// The fewest conflicts between restarts.
        min_conflicts: u64,
    },
    /// After `unit · luby(i)` conflicts for the i-th restart (1, 1, 2, 1, 1, 2, 4, …).
    Luby {
        /// Conflicts per step of the sequence.
        unit: u64,
    },
    /// Never.
    Never,
}

/// Solver settings. The defaults are good in general.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// When to restart.
    pub restarts: Restarts,
    /// The activity decay of VSIDS, in (0, 1): lower forgets faster.
    pub var_decay: f64,
    /// The sign a variable is first tried with (false: negative first, as MiniSat).
    pub initial_phase: bool,
    /// Whether learnt clauses are minimised.
    pub minimize: bool,
    /// Conflicts before the first learnt-clause reduction.
    pub reduce_first: u64,
    /// How much the interval between reductions grows each time.
    pub reduce_increment: u64,
    /// Nonzero: seeds a small random initial activity per variable, to vary the first decisions.
    pub seed: u64,
    /// `Some(k)`: the variables `0..k` are decided before any other, whatever the activities
    /// (for a formula whose other variables are auxiliary, set by the first ones through
    /// propagation; deciding on them only sends the search astray). `None`: one order for all.
    pub primary_vars: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            restarts: Restarts::Glucose {
                margin: 1.25,
                min_conflicts: 50,
            },
            var_decay: 0.95,
            initial_phase: false,
            minimize: true,
            reduce_first: 2000,
            reduce_increment: 300,
            seed: 0,
            primary_vars: None,
        }
    }
}

/// Limits for each call of [`Solver::solve`](super::Solver::solve); `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Conflicts per call.
    pub conflicts: Option<u64>,
    /// Wall-clock time per call.
    pub time: Option<Duration>,
}
