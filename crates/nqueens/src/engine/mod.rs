//! The one API every N-Queens engine follows.
//!
//! An engine answers four jobs on a [`Problem`]: find one solution ([`Engine::solve`]), push
//! every solution to a callback that may stop the search ([`Engine::for_each`], with a limit in
//! [`Engine::list`]), and count ([`Engine::count`], optionally up to symmetry). Engines that can
//! only do some of the jobs, or only some n, say so in [`Engine::check`] before any work starts,
//! so the CLI and `bench` can skip them with the reason.
//!
//! An engine reads its method's row ([`Engine::descriptor`], a [`Descriptor`]) for the jobs it
//! can do ([`Engine::jobs`]) and the largest board it takes ([`Engine::max_n`]); the default
//! [`Engine::check`] is derived from the two. An engine that
//! enumerates writes [`Engine::for_each`], and the other jobs have default implementations on
//! top of it, which an engine overrides when it has a faster path (a counter that never builds
//! solutions, say); an engine that cannot enumerate (the construction, local search, the
//! counter) leaves `for_each` to its default, which refuses. After each call, [`Engine::stats`]
//! reports the engine's own work counters. An engine whose answer is a formula (the
//! construction) also gives it as strides of rows ([`Engine::strided`]), which a front end
//! writes and checks without holding the board.
//!
//! Every search honours one [`Limits`] (node budget, time budget, stop flag; see
//! [`nqueens_support::Budget`]), set through [`Config`]: a search that reaches one answers
//! [`EngineError::Stopped`] for every job (solve, list and count alike), carrying the
//! [`Stopped`] (which limit, and the solutions found so far): never an [`Outcome`], a count
//! or a complete-looking enumeration that could pass for the answer.
//!
//! This is the ground floor every engine stands on: the trait and its answers, the [`Job`]s,
//! the [`Config`] every method reads, each method's row ([`Descriptor`]), and the engines' own
//! error, [`EngineError`]. It depends
//! on the board alone, and the engines depend on it, never on the floors above them.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::board::symmetry;
pub use nqueens_support::{Budget, LimitReached, Limits, Stopped};

use crate::board::stride::StridedSolution;
use crate::board::{Problem, Solution};

mod config;
mod error;
mod job;

pub use config::{Config, Encoding};
pub use error::EngineError;
pub use job::Job;

pub mod descriptor;
pub use descriptor::{CountPace, Descriptor};

/// The answer to "find a solution".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution (every engine's solutions pass [`crate::verify()`]).
    Found(Solution),
    /// The engine proved there is none.
    NoSolution,
}

/// How an enumeration ended (one a limit ended is [`EngineError::Stopped`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enumeration {
    /// Every solution was visited.
    Complete,
    /// The callback stopped it early.
    Stopped,
}

impl From<nqueens_exact_cover::Enumeration> for Enumeration {
    fn from(end: nqueens_exact_cover::Enumeration) -> Self {
        match end {
            nqueens_exact_cover::Enumeration::Complete => Enumeration::Complete,
            nqueens_exact_cover::Enumeration::Stopped => Enumeration::Stopped,
        }
    }
}

/// What a trace of every solution (`all`) or of the search for the first does: the job its
/// engine checks it can do, and what the trace's visit returns after each solution.
pub fn trace_job(all: bool) -> (Job, ControlFlow<()>) {
    if all {
        (Job::List, ControlFlow::Continue(()))
    } else {
        (Job::Solve, ControlFlow::Break(()))
    }
}

/// Solution counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counts {
    /// All solutions (OEIS A000170 for plain N-Queens).
    pub total: u128,
    /// Solutions up to symmetry (OEIS A002562), when asked for.
    pub unique: Option<u128>,
}

/// An engine's work counters for its last call, in the order the engine reports them
/// (`nodes`, `failures`, `conflicts`, ...). Deterministic counters make runs comparable across
/// noisy machines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    entries: Vec<(&'static str, u128)>,
}

impl Stats {
    /// Adds or replaces a counter.
    pub fn set(&mut self, name: &'static str, value: u128) {
        match self.entries.iter_mut().find(|(k, _)| *k == name) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((name, value)),
        }
    }

    /// A counter by name.
    pub fn get(&self, name: &str) -> Option<u128> {
        self.entries
            .iter()
            .find(|(k, _)| *k == name)
            .map(|&(_, v)| v)
    }

    /// All counters, in report order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u128)> + '_ {
        self.entries.iter().copied()
    }

    /// Whether there is no counter.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl fmt::Display for Stats {
    /// `name=value` pairs separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

/// A snapshot of a long run, for a progress display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Units of work finished (tasks, subtrees, restarts: the engine's choice).
    pub done: u64,
    /// Units of work in all, when known (for a percentage and an ETA).
    pub total: Option<u64>,
    /// Solutions found so far.
    pub solutions: u128,
    /// Search nodes so far (0 when the engine does not count them).
    pub nodes: u128,
    /// The nodes still to place, estimated, when the engine has a model of its work (the
    /// counter: see `engines::counter::estimate`); the display then shows the share of the
    /// work done and an ETA from it instead of from `done` and `total`.
    pub nodes_left: Option<u128>,
    /// With `nodes_left`: the nodes placed in all, earlier runs resumed from included, so that
    /// the share done is `nodes_done / (nodes_done + nodes_left)`.
    pub nodes_done: u128,
}

/// Where engines send [`Progress`]. Engines call it now and then (at most a few times a second
/// is plenty; the receiver throttles the display); it may be called from several threads.
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(&Progress) + Send + Sync>);

impl ProgressSink {
    /// A sink that calls `report`.
    pub fn new(report: impl Fn(&Progress) + Send + Sync + 'static) -> Self {
        ProgressSink(Arc::new(report))
    }

    /// Reports a snapshot.
    pub fn report(&self, progress: &Progress) {
        (self.0)(progress)
    }
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}

/// The callback of [`Engine::for_each`]: return `ControlFlow::Break(())` to stop the search.
pub type Visit<'a> = dyn FnMut(&Solution) -> ControlFlow<()> + 'a;

/// An N-Queens engine. See the [module documentation](self).
pub trait Engine: Send {
    /// The row of the method this engine runs as: where the four answers below come from.
    fn descriptor(&self) -> &'static Descriptor;

    /// The method's name as the CLI spells it (`backtrack`, `dlx`, ...).
    fn name(&self) -> &'static str {
        self.descriptor().name
    }

    /// The jobs this engine can do at all (on boards it takes).
    fn jobs(&self) -> &'static [Job] {
        self.descriptor().jobs
    }

    /// The largest board this engine takes.
    fn max_n(&self) -> u32 {
        self.descriptor().max_n_or_any()
    }

    /// Whether this engine honours blocked squares ([`Problem::blocked`]); when it does not,
    /// [`check_standard`] refuses boards that have any.
    fn takes_blocks(&self) -> bool {
        self.descriptor().takes_blocks
    }

    /// Whether this engine can do `job` on `problem`; the error says why not
    /// ([`EngineError::Unsupported`] or [`EngineError::TooLarge`]). Every other method calls it first.
    ///
    /// The default ([`check_standard`]) refuses jobs not in [`Engine::jobs`], boards beyond
    /// [`Engine::max_n`], and blocked squares unless [`Engine::takes_blocks`]; an engine
    /// overrides it to give a reason of its own.
    fn check(&self, job: Job, problem: &Problem) -> Result<(), EngineError> {
        check_standard(self, job, problem)
    }

    /// Visits solutions until the callback breaks or all were seen. Each solution is visited
    /// once. The default refuses: it is for engines whose [`Engine::jobs`] has no
    /// [`Job::List`].
    fn for_each(
        &mut self,
        problem: &Problem,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        let _ = visit;
        self.check(Job::List, problem)?;
        Err(EngineError::Unsupported {
            method: self.name(),
            job: Job::List,
            reason: "it has no enumeration".into(),
        })
    }

    /// Finds one solution, or proves there is none; a limit reached first is
    /// [`EngineError::Stopped`].
    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        let mut found = None;
        let end = self.for_each(problem, &mut |s| {
            found = Some(s.clone());
            ControlFlow::Break(())
        });
        match (found, end) {
            (Some(solution), _) => Ok(Outcome::Found(solution)),
            (None, end) => end.map(|_| Outcome::NoSolution),
        }
    }

    /// The solution [`Engine::solve`] would find, given as strides of rows
    /// ([`StridedSolution`]) instead of n columns, for an engine whose answer is a formula;
    /// `None` (the default) when the engine has none for `problem`, or when `solve` would not
    /// find a solution (a refusal, no solution, a limit already reached): call `solve` then.
    /// A front end writes it row by row in constant memory
    /// ([`write_rows`](crate::formats::render::write_rows)) and checks it without the board
    /// ([`verify_strides`](crate::board::stride::verify_strides)); the construction of a board
    /// of 2³² − 1 rows is a few numbers this way, where `solve` holds 17 GB of columns.
    fn strided(&mut self, problem: &Problem) -> Option<StridedSolution> {
        let _ = problem;
        None
    }

    /// Visits at most `limit` solutions (all when `None`).
    fn list(
        &mut self,
        problem: &Problem,
        limit: Option<u64>,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        self.check(Job::List, problem)?;
        let Some(limit) = limit else {
            return self.for_each(problem, visit);
        };
        if limit == 0 {
            return Ok(Enumeration::Stopped);
        }
        let mut seen = 0u64;
        self.for_each(problem, &mut |s| {
            seen += 1;
            visit(s)?;
            if seen == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .map_err(|e| e.with_found(u128::from(seen)))
    }

    /// Counts all solutions, and with `unique` also the solutions up to symmetry: up to the
    /// symmetries the board keeps ([`symmetry::Group::of`]; all eight for the plain board, fewer
    /// or none where fixed queens or blocked squares break some).
    ///
    /// The default enumerates every solution and counts the canonical ones
    /// ([`symmetry::Group::is_canonical`]) for the unique count.
    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        self.check(if unique { Job::CountUnique } else { Job::Count }, problem)?;
        count_by_enumeration(self, problem, unique)
    }

    /// The engine's counters for its last call (empty before the first).
    fn stats(&self) -> Stats {
        Stats::default()
    }
}

/// [`Engine::count`] by enumeration: every solution [`Engine::for_each`] visits counts one, and
/// with `unique` the canonical ones under the board's symmetries count one more each.
pub fn count_by_enumeration<E: Engine + ?Sized>(
    engine: &mut E,
    problem: &Problem,
    unique: bool,
) -> Result<Counts, EngineError> {
    let group = unique.then(|| symmetry::Group::of(problem));
    let mut counts = Counts {
        total: 0,
        unique: unique.then_some(0),
    };
    let end = engine.for_each(problem, &mut |s| {
        counts.total += 1;
        if let (Some(u), Some(group)) = (counts.unique.as_mut(), &group) {
            *u += u128::from(group.is_canonical(s));
        }
        ControlFlow::Continue(())
    });
    end.map_err(|e| e.with_found(counts.total))?;
    Ok(counts)
}

/// Every job: what an engine that can do them all returns from [`Engine::jobs`].
pub const ALL_JOBS: &[Job] = &[Job::Solve, Job::List, Job::Count, Job::CountUnique];

/// The check derived from an engine's [`Engine::jobs`], [`Engine::max_n`] and
/// [`Engine::takes_blocks`]: the default of [`Engine::check`].
pub fn check_standard<E: Engine + ?Sized>(
    engine: &E,
    job: Job,
    problem: &Problem,
) -> Result<(), EngineError> {
    let jobs = engine.jobs();
    if !jobs.contains(&job) {
        let can: Vec<String> = jobs.iter().map(Job::to_string).collect();
        return Err(EngineError::Unsupported {
            method: engine.name(),
            job,
            reason: format!("it can only {}", can.join(" or ")),
        });
    }
    check_size(engine.name(), problem, engine.max_n())?;
    check_blocks(engine, job, problem)
}

/// The check for blocked squares: an engine that does not say it honours them
/// ([`Engine::takes_blocks`]) refuses a board that has any, rather than search the plain one.
pub fn check_blocks<E: Engine + ?Sized>(
    engine: &E,
    job: Job,
    problem: &Problem,
) -> Result<(), EngineError> {
    if problem.blocked().is_empty() || engine.takes_blocks() {
        return Ok(());
    }
    Err(EngineError::Unsupported {
        method: engine.name(),
        job,
        reason: "it does not take blocked squares".into(),
    })
}

/// The size check of an engine that handles boards of at most `max` rows.
pub fn check_size(method: &'static str, problem: &Problem, max: u32) -> Result<(), EngineError> {
    if problem.n() > max {
        return Err(EngineError::TooLarge {
            method,
            n: problem.n(),
            max,
        });
    }
    Ok(())
}
