//! Depth-first search with binary branching, first-fail, value orders, restarts and limits.
//!
//! At each node the search propagates to a fixpoint, picks an unfixed variable `x` and a value
//! `v`, and branches on `x = v` (left) then `x ≠ v` (right). The right branch is applied at the
//! parent's level, so the next choice is made afresh with the domains it leaves, which is what
//! lets first-fail pick the most constrained variable at every node. The stack holds one frame per
//! open left branch (a trail mark, `x` and `v`); backtracking undoes the trail to the mark, so a
//! node costs its propagation plus O(changes) to undo.
//!
//! Counters: `nodes` counts branches taken (left and right), `failures` the branches whose
//! propagation failed, `propagations` the propagator runs. They are deterministic for a given
//! model, configuration and seed.
//!
//! With restarts (Luby et al. 1993: run `i` may fail `scale · luby(i)` times before starting over
//! from the root), the runs after the first break ties at random, so each run tries another part
//! of the tree; the search then ends at its first solution (it would repeat solutions otherwise),
//! or proves there is none when a run exhausts its tree within its budget.
//!
//! Limits ([`SearchConfig::limits`]: nodes, time, a stop flag) are polled at every node through
//! a [`Budget`] (a comparison per node; the clock and the flag every 1,024 nodes). A search one
//! of them ends has no [`Status`]: it answers `Err(`[`Error::Stopped`]`)`, whose
//! [`Stopped::found`] is the solutions visited so far, so a stopped count cannot pass for one.

use std::ops::ControlFlow;
use std::time::Duration;

use nqueens_support::clock::Instant;

use nqueens_support::{Budget, LimitReached, Limits, SplitMix64 as Rng, Stopped, luby};

use crate::domain::{Domains, Var};
use crate::error::Error;
use crate::solver::Solver;
use crate::stats::Stats;
use crate::store::Mark;

/// How often (in nodes) the search looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// Which variable to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariableOrder {
    /// The first unfixed variable of [`SearchConfig::priority`].
    Input,
    /// First-fail: a variable with the smallest domain; among those, the first in
    /// [`SearchConfig::priority`] (or one at random, see [`SearchConfig::random_ties`]).
    #[default]
    FirstFail,
}

/// Which value to try first on the chosen variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ValueOrder {
    /// The smallest value.
    #[default]
    Min,
    /// The largest value.
    Max,
    /// The value closest to the middle of the variable's current bounds (the lower one on a
    /// tie): values near the middle first, edges last.
    MiddleOut,
    /// A value drawn uniformly from the domain.
    Random,
}

/// Restarts on a Luby schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Restarts {
    /// Failures allowed in run `i` are `scale · luby(i)` (1, 1, 2, 1, 1, 2, 4, ...); at least 1.
    pub scale: u64,
}

/// How to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Which variable to branch on.
    pub variables: VariableOrder,
    /// The variables to branch on, in order of preference (ties of first-fail go to the
    /// earliest). Empty: every variable, in order of creation. Variables left out are never
    /// branched on, so a solution only fixes them if propagation does; list them all unless
    /// that is what you want.
    pub priority: Vec<Var>,
    /// Break first-fail ties uniformly at random instead of by priority.
    pub random_ties: bool,
    /// Which value to try first.
    pub values: ValueOrder,
    /// Restart on a Luby schedule (then the search ends at the first solution).
    pub restarts: Option<Restarts>,
    /// Seed for random ties, random values and restarts.
    pub seed: u64,
    /// When to give up: a node budget (search nodes), a time budget, a stop flag.
    pub limits: Limits,
    /// How often to call [`Observer::progress`].
    pub progress_every: Duration,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            variables: VariableOrder::FirstFail,
            priority: Vec::new(),
            random_ties: false,
            values: ValueOrder::Min,
            restarts: None,
            seed: 0,
            limits: Limits::default(),
            progress_every: Duration::from_millis(250),
        }
    }
}

/// How a search its caller let run ended. A search a limit of [`SearchConfig::limits`] ended
/// has no status: it is `Err(`[`Error::Stopped`]`)`, with the solutions visited so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The whole tree was explored: every solution was visited (none, if none was).
    Complete,
    /// The observer stopped the search, or restarts ended it at its first solution.
    Stopped,
}

/// The end of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Why it ended.
    pub status: Status,
    /// Solutions visited.
    pub solutions: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// A solution, as the observer sees it: valid only during the call.
pub struct Solution<'a> {
    domains: &'a Domains,
}

impl Solution<'_> {
    /// The value of `var`.
    pub fn value(&self, var: Var) -> i32 {
        self.domains.expect_own(var);
        let d = self.domains.get(var);
        debug_assert_eq!(d.size, 1, "every branched variable is fixed in a solution");
        d.min
    }

    /// The values of all variables, in order of creation.
    pub fn values(&self) -> Vec<i32> {
        self.domains.meta.iter().map(|d| d.min).collect()
    }
}

/// The domains as they stand during a search, as [`Observer::step`] sees them: valid only
/// during the call.
pub struct State<'a> {
    domains: &'a Domains,
}

impl State<'_> {
    /// Whether `value` is still in the domain of `var`.
    pub fn contains(&self, var: Var, value: i32) -> bool {
        self.domains.expect_own(var);
        self.domains.contains(var, value)
    }

    /// How many values the domain of `var` holds (0 after a failed propagation emptied it).
    pub fn size(&self, var: Var) -> u32 {
        self.domains.expect_own(var);
        self.domains.get(var).size
    }
}

/// One step of a search, reported to [`Observer::step`] after the step's propagation: the
/// search's own branching (`var = value` first, then `var ≠ value` once everything below the
/// left branch is done), not a replay of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The root, after the first propagation and before any branch. `failed`: propagation
    /// emptied a domain, so there is nothing to search.
    Root {
        /// Whether propagation failed.
        failed: bool,
    },
    /// The left branch `var = value`. `failed`: propagation emptied a domain, so the search
    /// backs up next.
    Assign {
        /// The variable branched on.
        var: Var,
        /// Its value in this branch.
        value: i32,
        /// Whether propagation failed.
        failed: bool,
    },
    /// The right branch `var ≠ value`. `failed` as for [`Step::Assign`].
    Refute {
        /// The variable branched on.
        var: Var,
        /// The value taken out of its domain.
        value: i32,
        /// Whether propagation failed.
        failed: bool,
    },
    /// A restart: the search is back at its root.
    Restart,
}

/// What a search reports to.
pub trait Observer {
    /// Called with each solution; `Break` stops the search.
    fn solution(&mut self, solution: &Solution<'_>) -> ControlFlow<()>;

    /// Called every [`SearchConfig::progress_every`] or so; `Break` stops the search.
    fn progress(&mut self, _stats: &Stats) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// Called after every branch's propagation with the domains as they stand (for a replay of
    /// the search, step by step); `Break` stops the search. The default does nothing and, the
    /// search being generic over its observer, compiles to nothing: a search that does not
    /// watch its steps pays nothing for the hook.
    #[inline(always)]
    fn step(&mut self, _step: Step, _state: &State<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<F: FnMut(&Solution<'_>) -> ControlFlow<()>> Observer for F {
    fn solution(&mut self, solution: &Solution<'_>) -> ControlFlow<()> {
        self(solution)
    }
}

/// One open left branch.
struct Frame {
    mark: Mark,
    var: Var,
    value: i32,
}

impl Solver {
    /// Searches for solutions, handing each one to `on_solution` (`Break` stops the search),
    /// and leaves the solver as it was (the root state), so it can search again. The closure
    /// needs no written types. See the [crate documentation](crate).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use nqueens_cp::{SearchConfig, Solver};
    ///
    /// let mut solver = Solver::new();
    /// let (x, y) = (solver.new_var(0, 2).unwrap(), solver.new_var(0, 2).unwrap());
    /// solver.not_equal(x, y.plus(1)).unwrap(); // x ≠ y + 1
    /// let mut pairs = Vec::new();
    /// let result = solver.search(&SearchConfig::default(), |sol| {
    ///     pairs.push((sol.value(x), sol.value(y)));
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(result.unwrap().solutions, 7);
    /// assert!(!pairs.contains(&(1, 0)) && !pairs.contains(&(2, 1)));
    /// ```
    pub fn search(
        &mut self,
        config: &SearchConfig,
        mut on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Result<SearchResult, Error> {
        self.search_observed(config, &mut on_solution)
    }

    /// [`Solver::search`] reporting to an [`Observer`]: each solution, progress now and then,
    /// and (for a replay) every step.
    pub fn search_observed<O: Observer + ?Sized>(
        &mut self,
        config: &SearchConfig,
        observer: &mut O,
    ) -> Result<SearchResult, Error> {
        for &var in &config.priority {
            self.check_var(var)?;
        }
        if config.restarts.is_some_and(|r| r.scale == 0) {
            return Err(Error::InvalidSearch("the restart scale must be at least 1"));
        }
        let start = Instant::now();
        self.stats = Stats::default();
        let root = self.mark();
        let status = if self.infeasible {
            Ok(Status::Complete)
        } else {
            let failed = self.start().is_err();
            if self.report(observer, Step::Root { failed }).is_break() {
                Ok(Status::Stopped)
            } else if failed {
                Ok(Status::Complete)
            } else {
                self.explore(config, observer, start)
            }
        };
        self.undo_to(root);
        let status = status.map_err(|reached| {
            Error::Stopped(Stopped::new(reached, u128::from(self.stats.solutions)))
        })?;
        Ok(SearchResult {
            status,
            solutions: self.stats.solutions,
            elapsed: start.elapsed(),
        })
    }

    /// The search proper, from a root at fixpoint.
    fn explore<O: Observer + ?Sized>(
        &mut self,
        config: &SearchConfig,
        observer: &mut O,
        start: Instant,
    ) -> Result<Status, LimitReached> {
        let base = self.mark();
        let order: Vec<Var> = if config.priority.is_empty() {
            self.vars().collect()
        } else {
            config.priority.clone()
        };
        let mut rng = Rng::new(config.seed);
        let mut random_ties = config.random_ties;
        let mut stack: Vec<Frame> = Vec::new();
        let mut budget = config.restarts.map(|r| r.scale.saturating_mul(luby(1)));
        let mut run_failures = 0u64;
        let mut next_clock = CLOCK_EVERY;
        let mut last_report = start;
        let mut first_var = None;
        let mut limits = Budget::start(&config.limits);
        loop {
            limits.check(self.stats.nodes)?;
            if self.stats.nodes >= next_clock {
                next_clock = self.stats.nodes + CLOCK_EVERY;
                let now = Instant::now();
                if now.duration_since(last_report) >= config.progress_every {
                    last_report = now;
                    if observer.progress(&self.stats).is_break() {
                        return Ok(Status::Stopped);
                    }
                }
            }

            match self.select_variable(&order, config.variables, random_ties, &mut rng) {
                None => {
                    debug_assert!(
                        self.vars().all(|v| self.store.domains.is_consistent(v)),
                        "a domain's size or bounds disagree with its bits"
                    );
                    self.stats.solutions += 1;
                    let solution = Solution {
                        domains: &self.store.domains,
                    };
                    if observer.solution(&solution).is_break() || config.restarts.is_some() {
                        return Ok(Status::Stopped);
                    }
                }
                Some(var) => {
                    if stack.is_empty() && first_var.is_none() {
                        first_var = Some(var);
                    }
                    let value = self.select_value(var, config.values, &mut rng);
                    stack.push(Frame {
                        mark: self.mark(),
                        var,
                        value,
                    });
                    self.stats.nodes += 1;
                    self.stats.max_depth = self.stats.max_depth.max(stack.len() as u64);
                    let assigned = self.store.assign(var, value);
                    debug_assert!(assigned.is_ok(), "the chosen value is in the domain");
                    let failed = self.fixpoint().is_err();
                    let step = Step::Assign { var, value, failed };
                    if self.report(observer, step).is_break() {
                        return Ok(Status::Stopped);
                    }
                    if !failed {
                        continue;
                    }
                    self.stats.failures += 1;
                    run_failures += 1;
                }
            }

            // Backtrack to the newest open left branch whose right branch propagates.
            loop {
                if let (Some(limit), Some(restarts)) = (budget, config.restarts)
                    && run_failures >= limit
                {
                    self.undo_to(base);
                    stack.clear();
                    self.stats.restarts += 1;
                    self.stats.root_branches = 0;
                    first_var = None;
                    run_failures = 0;
                    budget = Some(restarts.scale.saturating_mul(luby(self.stats.restarts + 1)));
                    random_ties = true;
                    if self.report(observer, Step::Restart).is_break() {
                        return Ok(Status::Stopped);
                    }
                    break;
                }
                let Some(frame) = stack.pop() else {
                    return Ok(Status::Complete);
                };
                self.undo_to(frame.mark);
                self.stats.nodes += 1;
                if stack.is_empty() && first_var == Some(frame.var) {
                    self.stats.root_branches += 1;
                }
                let removed = self.store.remove(frame.var, frame.value);
                debug_assert!(removed.is_ok(), "a branched variable had two values");
                let failed = self.fixpoint().is_err();
                let step = Step::Refute {
                    var: frame.var,
                    value: frame.value,
                    failed,
                };
                if self.report(observer, step).is_break() {
                    return Ok(Status::Stopped);
                }
                if !failed {
                    break;
                }
                self.stats.failures += 1;
                run_failures += 1;
            }
        }
    }

    /// Hands `step` and the domains to the observer.
    #[inline(always)]
    fn report<O: Observer + ?Sized>(&self, observer: &mut O, step: Step) -> ControlFlow<()> {
        let state = State {
            domains: &self.store.domains,
        };
        observer.step(step, &state)
    }

    fn select_variable(
        &self,
        order: &[Var],
        how: VariableOrder,
        random_ties: bool,
        rng: &mut Rng,
    ) -> Option<Var> {
        let meta = &self.store.domains.meta;
        match how {
            VariableOrder::Input => order.iter().copied().find(|v| meta[v.index()].size > 1),
            VariableOrder::FirstFail => {
                let (mut best, mut best_size, mut ties) = (None, u32::MAX, 0u32);
                for &var in order {
                    let size = meta[var.index()].size;
                    if size <= 1 || size > best_size {
                        continue;
                    }
                    if size < best_size {
                        (best, best_size, ties) = (Some(var), size, 1);
                        if size == 2 && !random_ties {
                            break;
                        }
                    } else if random_ties {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            best = Some(var);
                        }
                    }
                }
                best
            }
        }
    }

    fn select_value(&self, var: Var, how: ValueOrder, rng: &mut Rng) -> i32 {
        let domains = &self.store.domains;
        let d = domains.get(var);
        match how {
            ValueOrder::Min => d.min,
            ValueOrder::Max => d.max,
            ValueOrder::MiddleOut => {
                let middle = d.min + (d.max - d.min) / 2;
                let below = domains.prev_set(d, middle, d.min);
                let above = domains.next_set(d, middle, d.max);
                match (below, above) {
                    (Some(b), Some(a)) if middle - b <= a - middle => b,
                    (_, Some(a)) => a,
                    (Some(b), None) => b,
                    (None, None) => {
                        unreachable!("a domain with two values has one near the middle")
                    }
                }
            }
            ValueOrder::Random => domains
                .values(var)
                .nth(rng.below(d.size) as usize)
                .expect("size counts the live values"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_branches_count_the_closed_subtrees_of_the_first_variable() {
        // Five variables in 0..=4, all different: the first variable's five values are tried
        // at the root, four of them closed by a right branch (the fifth is then forced).
        let mut solver = Solver::new();
        let vars = solver.new_vars(5, 0, 4).unwrap();
        let views: Vec<_> = vars.iter().map(|&v| v.into()).collect();
        solver
            .all_different(&views, crate::Strength::Value)
            .unwrap();
        let result = solver
            .search(&SearchConfig::default(), |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(result.solutions, 120);
        assert_eq!(solver.stats().root_branches, 4);
    }
}
