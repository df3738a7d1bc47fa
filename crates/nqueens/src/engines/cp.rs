//! N-Queens as a constraint program: the three-all-different model on the [`nqueens_cp`] engine.
//!
//! Variable `x(r) ∈ 0..n` is the column of the queen in row `r`. One queen per row is built into
//! the variables; the rest is three constraints over views of them:
//!
//! - `all_different(x(r))`: one queen per column;
//! - `all_different(x(r) + r)`: one queen per anti-diagonal (`r + c` is constant along it);
//! - `all_different(x(r) − r)`: one queen per diagonal (`c − r` is constant along it).
//!
//! Fixed queens (the completion variant) are root assignments `x(r) = c`, and blocked squares
//! values removed from their rows' domains, so propagation removes what they exclude before
//! the first branch. The search branches `x = v` / `x ≠ v` on the
//! smallest domain first (first-fail), ties going to the row nearest the middle of the board,
//! with the value nearest the middle of the domain first when looking for one solution (queens
//! near the centre leave the most room) and the smallest first when enumerating (order does not
//! matter for the total work then).
//!
//! Propagation strength is a setting ([`Cp::strength`]). The default is value elimination
//! ([`Strength::Value`]): on this model it prunes exactly what the `≠` decomposition prunes, at
//! O(n) per queen placed, and measured faster than the Hall-interval pass for both the first
//! solution and enumeration (docs/notes/cp.md, "Strengths"): the diagonal constraints rarely
//! have a Hall interval that value elimination has not already exploited, so the bounds pass costs
//! more than it saves.
//!
//! Memory is one bit per value per variable (n² bits: 12.5 MB at n = 10,000) plus the trail's
//! undo bits (about 3n²/2 bits at worst along a path of depth n), so boards are limited to
//! [`MAX_N`].

use std::ops::ControlFlow;

use nqueens_cp::{
    Restarts, SearchConfig, Solver, Status, Strength, ValueOrder, Var, VariableOrder, View,
};

use crate::board::{Problem, Solution};
use crate::engine::EngineError;
use crate::engine::descriptor::up_to;
use crate::engine::{
    self, Descriptor, Engine, Enumeration, Job, Limits, Outcome, Progress, ProgressSink, Stats,
    Visit,
};

/// The largest board: n² bits of domains and up to 3n²/2 bits of trail (about 160 MB at 20,000).
pub const MAX_N: u32 = 20_000;

/// The `cp` method's row.
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "cp",
    about: || {
        format!(
            "constraint programming: three all-different constraints, first-fail ({})",
            up_to(MAX_N)
        )
    },
    max_n: Some(MAX_N),
    jobs: engine::ALL_JOBS,
    takes_blocks: true,
    on_page: true,
    traceable: true,
    build: |_, _, config| {
        let mut engine = Cp::new();
        engine.seed = config.seed;
        engine.progress = config.progress.clone();
        engine.limits = config.limits.clone();
        Box::new(engine)
    },
    count_pace: None,
};

/// Failures allowed per unit of the Luby restart schedule (seeded solving only).
const RESTART_SCALE: u64 = 100;

/// The CP engine. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Cp {
    /// How hard each all-different works.
    pub strength: Strength,
    /// With a seed, first-fail ties and values are drawn at random (reproducibly), and finding
    /// one solution restarts on a Luby schedule; without, the search is the deterministic
    /// middle-out one.
    pub seed: Option<u64>,
    /// When to give up (the node budget counts search nodes). [`Engine::solve`] then answers
    /// [`Outcome::GaveUp`], and the other jobs [`EngineError::GaveUp`].
    pub limits: Limits,
    /// Where long runs report progress (solutions and nodes so far).
    pub progress: Option<ProgressSink>,
    stats: Stats,
}

impl Default for Cp {
    fn default() -> Self {
        Cp {
            strength: Strength::Value,
            seed: None,
            limits: Limits::default(),
            progress: None,
            stats: Stats::default(),
        }
    }
}

/// The model of one problem: the solver and the row variables.
struct Model {
    solver: Solver,
    rows: Vec<Var>,
}

impl Model {
    fn new(problem: &Problem, strength: Strength) -> Model {
        let n = problem.n() as i32;
        let mut solver = Solver::new();
        let rows = solver
            .new_vars(n as usize, 0, n - 1)
            .expect("n ≤ MAX_N fits a bitset domain");
        let columns: Vec<View> = rows.iter().map(|&x| x.into()).collect();
        let anti: Vec<View> = rows.iter().zip(0..).map(|(&x, r)| x.plus(r)).collect();
        let diagonal: Vec<View> = rows.iter().zip(0..).map(|(&x, r)| x.minus(r)).collect();
        for views in [&columns, &anti, &diagonal] {
            solver
                .all_different(views, strength)
                .expect("views of our own variables, within range");
        }
        for queen in problem.fixed() {
            solver
                .fix(rows[queen.row as usize], queen.col as i32)
                .expect("our own variable");
        }
        for square in problem.blocked() {
            solver
                .remove(rows[square.row as usize], square.col as i32)
                .expect("our own variable");
        }
        Model { solver, rows }
    }

    /// The rows from the middle outwards: the order first-fail breaks ties in.
    fn middle_out(&self) -> Vec<Var> {
        let n = self.rows.len();
        let middle = (n as i64 - 1) / 2;
        let mut order = Vec::with_capacity(n);
        for d in 0..n as i64 {
            for row in [middle - d, middle + d + 1] {
                if (0..n as i64).contains(&row) && order.len() < n {
                    order.push(self.rows[row as usize]);
                }
            }
        }
        order
    }
}

/// One step of the search on the board, as [`Cp::trace`] reports it: the engine's own
/// branching, after each branch's propagation.
#[derive(Debug)]
pub enum TraceStep<'a> {
    /// The root, after the fixed queens' propagation and before any branch. `failed`: a
    /// row's domain emptied, so there is nothing to search.
    Root {
        /// Whether propagation failed.
        failed: bool,
        /// The rows' domains after propagation.
        domains: Domains<'a>,
    },
    /// The left branch: the queen of `row` goes on `col`. `failed`: propagation emptied a
    /// row's domain, so the search backs up next.
    Assign {
        /// The row branched on (0-based).
        row: u32,
        /// Its column in this branch (0-based).
        col: u32,
        /// Whether propagation failed.
        failed: bool,
        /// The rows' domains after propagation.
        domains: Domains<'a>,
    },
    /// The right branch: `col` leaves the domain of `row`, after everything below the left
    /// branch was searched. `failed` and `domains` as for [`TraceStep::Assign`].
    Refute {
        /// The row branched on (0-based).
        row: u32,
        /// The column taken out of its domain (0-based).
        col: u32,
        /// Whether propagation failed.
        failed: bool,
        /// The rows' domains after propagation.
        domains: Domains<'a>,
    },
    /// A restart (seeded first-solution searches only): back to the root.
    Restart,
    /// A solution.
    Solution(&'a Solution),
}

/// The rows' domains during a [`TraceStep`]: which squares each row may still take.
pub struct Domains<'a> {
    rows: &'a [Var],
    state: &'a nqueens_cp::State<'a>,
}

impl Domains<'_> {
    /// Whether the queen of `row` may still stand in column `col` (0-based).
    pub fn allows(&self, row: u32, col: u32) -> bool {
        self.state.contains(self.rows[row as usize], col as i32)
    }

    /// How many columns `row` may still take.
    pub fn size(&self, row: u32) -> u32 {
        self.state.size(self.rows[row as usize])
    }
}

impl std::fmt::Debug for Domains<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Domains")
            .field("rows", &self.rows.len())
            .finish()
    }
}

/// Hands solutions to the visitor and progress to the sink, if any, and every step to `watch`
/// (a no-op closure, compiled away, except in [`Cp::trace`]).
struct Observer<'a, 'v, W> {
    rows: &'a [Var],
    /// Subtrees of the root, when known: without fixed queens the middle row is branched on
    /// first and keeps the smallest domain until all its n values are tried.
    root_subtrees: Option<u64>,
    visit: &'a mut Visit<'v>,
    progress: Option<&'a ProgressSink>,
    watch: &'a mut W,
}

impl<W: FnMut(TraceStep<'_>) -> ControlFlow<()>> nqueens_cp::Observer for Observer<'_, '_, W> {
    fn solution(&mut self, solution: &nqueens_cp::Solution<'_>) -> ControlFlow<()> {
        let columns = self
            .rows
            .iter()
            .map(|&x| solution.value(x) as u32)
            .collect();
        let solution = Solution::from_columns(columns);
        (self.watch)(TraceStep::Solution(&solution))?;
        (self.visit)(&solution)
    }

    #[inline(always)]
    fn step(&mut self, step: nqueens_cp::Step, state: &nqueens_cp::State<'_>) -> ControlFlow<()> {
        // The rows' variables are the model's first, in row order.
        let row = |var: Var| var.index() as u32;
        let domains = Domains {
            rows: self.rows,
            state,
        };
        (self.watch)(match step {
            nqueens_cp::Step::Assign { var, value, failed } => TraceStep::Assign {
                row: row(var),
                col: value as u32,
                failed,
                domains,
            },
            nqueens_cp::Step::Refute { var, value, failed } => TraceStep::Refute {
                row: row(var),
                col: value as u32,
                failed,
                domains,
            },
            nqueens_cp::Step::Root { failed } => TraceStep::Root { failed, domains },
            nqueens_cp::Step::Restart => TraceStep::Restart,
        })
    }

    fn progress(&mut self, stats: &nqueens_cp::Stats) -> ControlFlow<()> {
        if let Some(sink) = self.progress {
            sink.report(&Progress {
                done: stats.root_branches,
                total: self.root_subtrees,
                solutions: u128::from(stats.solutions),
                nodes: u128::from(stats.nodes),
                ..Progress::default()
            });
        }
        ControlFlow::Continue(())
    }
}

impl Cp {
    /// An engine with the default settings.
    pub fn new() -> Self {
        Cp::default()
    }

    /// Searches with values ordered by `values` (random with a seed) and, when looking for one
    /// solution with a seed, Luby restarts; returns how the search ended.
    fn run(
        &mut self,
        problem: &Problem,
        values: ValueOrder,
        one: bool,
        visit: &mut Visit<'_>,
    ) -> Result<Status, EngineError> {
        self.run_watched(problem, values, one, visit, &mut |_| {
            ControlFlow::Continue(())
        })
    }

    /// The search of `solve` (`all` false: to the first solution) or of `for_each` (`all`:
    /// every solution), with the same settings and so the same nodes, calling `watch` after
    /// every branch and at every solution; `Break` stops it. For replaying the search step
    /// by step (the web page does); [`Engine::stats`] then has its counters.
    pub fn trace(
        &mut self,
        problem: &Problem,
        all: bool,
        watch: &mut impl FnMut(TraceStep<'_>) -> ControlFlow<()>,
    ) -> Result<Enumeration, EngineError> {
        let (job, after_solution) = crate::engine::trace_job(all);
        self.check(job, problem)?;
        let (values, one) = if all {
            (ValueOrder::Min, false)
        } else {
            (ValueOrder::MiddleOut, true)
        };
        let mut visit = |_: &Solution| after_solution;
        match self.run_watched(problem, values, one, &mut visit, watch)? {
            Status::Complete => Ok(Enumeration::Complete),
            Status::Stopped => Ok(Enumeration::Stopped),
            Status::GaveUp(reason) => Err(EngineError::GaveUp {
                method: self.name(),
                reason,
            }),
        }
    }

    fn run_watched<W: FnMut(TraceStep<'_>) -> ControlFlow<()>>(
        &mut self,
        problem: &Problem,
        values: ValueOrder,
        one: bool,
        visit: &mut Visit<'_>,
        watch: &mut W,
    ) -> Result<Status, EngineError> {
        let mut model = Model::new(problem, self.strength);
        let config = SearchConfig {
            variables: VariableOrder::FirstFail,
            priority: model.middle_out(),
            random_ties: self.seed.is_some(),
            values: if self.seed.is_some() {
                ValueOrder::Random
            } else {
                values
            },
            // Random choices without restarts have heavy tails (one seed in three needs a
            // thousand times more nodes at n = 1000); restarts cut them off.
            restarts: (one && self.seed.is_some()).then_some(Restarts {
                scale: RESTART_SCALE,
            }),
            seed: self.seed.unwrap_or(0),
            limits: self.limits.clone(),
            ..SearchConfig::default()
        };
        let mut observer = Observer {
            rows: &model.rows,
            root_subtrees: (!problem.is_completion()).then_some(u64::from(problem.n())),
            visit,
            progress: self.progress.as_ref(),
            watch,
        };
        let result = model
            .solver
            .search_observed(&config, &mut observer)
            .expect("a valid search configuration");
        let stats = model.solver.stats();
        self.stats = Stats::default();
        self.stats.set("nodes", u128::from(stats.nodes));
        self.stats.set("failures", u128::from(stats.failures));
        self.stats
            .set("propagations", u128::from(stats.propagations));
        self.stats.set("solutions", u128::from(stats.solutions));
        self.stats.set("restarts", u128::from(stats.restarts));
        self.stats.set("max_depth", u128::from(stats.max_depth));
        Ok(result.status)
    }
}

impl Engine for Cp {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn for_each(
        &mut self,
        problem: &Problem,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        self.check(Job::List, problem)?;
        match self.run(problem, ValueOrder::Min, false, visit)? {
            Status::Complete => Ok(Enumeration::Complete),
            Status::Stopped => Ok(Enumeration::Stopped),
            Status::GaveUp(reason) => Err(EngineError::GaveUp {
                method: self.name(),
                reason,
            }),
        }
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        let mut found = None;
        let status = self.run(problem, ValueOrder::MiddleOut, true, &mut |s| {
            found = Some(s.clone());
            ControlFlow::Break(())
        })?;
        Ok(match (found, status) {
            (Some(solution), _) => Outcome::Found(solution),
            (None, Status::GaveUp(reason)) => Outcome::GaveUp {
                reason: reason.to_string(),
            },
            (None, _) => Outcome::NoSolution,
        })
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}
