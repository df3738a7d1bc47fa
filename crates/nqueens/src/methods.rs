//! The methods by name, how each is built, and what `auto` picks.

use std::fmt;
use std::str::FromStr;

use crate::board::Problem;
pub use crate::engine::Config;
use crate::engine::EngineError;
use crate::engine::{Engine, Job, Limits, Outcome, Stats};
use crate::engines::backtrack::Backtrack;
use crate::engines::construct::Construct;
use crate::engines::counter::{self, Counter};
use crate::engines::cp::Cp;
use crate::engines::dlx::{self, Dlx};
use crate::engines::local::Local;
use crate::engines::sat::{self, Sat};
use nqueens_support::{Budget, LimitReached};

/// A way to solve N-Queens, as users name it on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// Picks the best method for the job and board ([`Method::resolve`]).
    Auto,
    /// Bitboard backtracking, the baseline ([`crate::engines::backtrack`]).
    Backtrack,
    /// Exact cover with dancing links, diagonals as secondary items ([`crate::engines::dlx`]).
    Dlx,
    /// Exact cover with dancing links, all items primary with gadget options ([`crate::engines::dlx`]).
    DlxGadgets,
    /// CNF encoding solved by the `sat` crate's CDCL solver ([`crate::engines::sat`]).
    Sat,
    /// Constraint programming: three all-different constraints on the [`cp`] engine
    /// ([`crate::engines::cp`]).
    Cp,
    /// The fast counter: full symmetry, threads ([`crate::engines::counter`]).
    Counter,
    /// The explicit solution by n mod 6, for huge boards ([`crate::engines::construct`]).
    Construct,
    /// Min-conflicts local search, for huge boards and random solutions ([`crate::engines::local`]).
    Local,
}

impl Method {
    /// Every method, `auto` first; the order of `--help`.
    pub const ALL: &'static [Method] = &[
        Method::Auto,
        Method::Backtrack,
        Method::Dlx,
        Method::DlxGadgets,
        Method::Sat,
        Method::Cp,
        Method::Counter,
        Method::Construct,
        Method::Local,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Backtrack => "backtrack",
            Method::Dlx => "dlx",
            Method::DlxGadgets => "dlx-gadgets",
            Method::Sat => "sat",
            Method::Cp => "cp",
            Method::Counter => "counter",
            Method::Construct => "construct",
            Method::Local => "local",
        }
    }

    /// The largest board the method takes for any job (`None`: any size; for `sat`, the larger
    /// of the two encodings' limits). The `about` text is written from these, so help and
    /// limits cannot drift apart.
    pub fn max_n(self) -> Option<u32> {
        match self {
            Method::Auto | Method::Construct | Method::Local => None,
            Method::Backtrack => Some(crate::engines::backtrack::MAX_N),
            Method::Dlx | Method::DlxGadgets => Some(dlx::MAX_N),
            Method::Sat => Some(
                sat::Encoding::Pairwise
                    .max_n()
                    .max(sat::Encoding::Compact.max_n()),
            ),
            Method::Cp => Some(crate::engines::cp::MAX_N),
            Method::Counter => Some(counter::MAX_N),
        }
    }

    /// One line on what the method does, for help texts (front ends add their own words for
    /// how to choose it).
    pub fn about(self) -> String {
        let up_to = |n: u32| format!("n ≤ {n}");
        match self {
            Method::Auto => format!(
                "pick the best method for the job and the board: the counter for counts of \
                 whole boards (n ≤ {}), backtracking or the construction for one solution, and \
                 for completions a root check, then cp with randomised restarts interleaved \
                 with dancing links",
                counter::MAX_N
            ),
            Method::Backtrack => format!(
                "bitboard backtracking, row by row ({}); the honest baseline",
                up_to(crate::engines::backtrack::MAX_N)
            ),
            Method::Dlx => format!(
                "exact cover with dancing links, diagonals as secondary items ({})",
                up_to(dlx::MAX_N)
            ),
            Method::DlxGadgets => format!(
                "exact cover, every item primary plus one gadget option per diagonal; slow to a \
                 first solution beyond n ≈ 20 ({})",
                up_to(dlx::MAX_N)
            ),
            Method::Sat => format!(
                "CNF solved by our CDCL SAT solver: the pairwise encoding ({}) or the compact \
                 sequential-counter encoding ({})",
                up_to(sat::Encoding::Pairwise.max_n()),
                up_to(sat::Encoding::Compact.max_n())
            ),
            Method::Cp => format!(
                "constraint programming: three all-different constraints, first-fail ({})",
                up_to(crate::engines::cp::MAX_N)
            ),
            Method::Counter => format!(
                "counts only: full 8-fold symmetry, all threads, checkpoints, shards ({})",
                up_to(counter::MAX_N)
            ),
            Method::Construct => {
                "explicit solution by n mod 6 in O(n), any n (one solution, no fixed queens)".into()
            }
            Method::Local => {
                "min-conflicts local search: huge boards, random solutions by seed (one solution)"
                    .into()
            }
        }
    }

    /// The method `auto` stands for on this job and problem; other methods are returned as
    /// they are.
    ///
    /// - Counting a board of up to [`counter::MAX_N`] rows: the counter (a whole board by its
    ///   symmetry classes; a board with fixed queens or blocked squares under per-row masks,
    ///   some seven times faster than plain backtracking on one thread).
    /// - One solution without fixed queens: backtracking below [`AUTO_CONSTRUCT_FROM`] rows
    ///   (instant there), the construction from then on (backtracking needs 0.1 s at n = 28 and
    ///   seconds beyond).
    /// - One completion (fixed queens) from [`AUTO_CONSTRUCT_FROM`] rows on: constraint
    ///   programming up to [`crate::engines::cp::MAX_N`] rows (first-fail finds completions in
    ///   milliseconds where row-by-row backtracking needs minutes from n ≈ 40, and it proves
    ///   there is none when that is so), local search beyond. [`Method::build`] runs it as a
    ///   [`Portfolio`]: a refutation at the root, then cp with randomised Luby restarts
    ///   interleaved with dancing links. Plain cp had a heavy tail on random sequential
    ///   placements near the phase transition: one board in 200 at n = 100 ran past 10 s, a
    ///   board without a completion that dancing links refutes in one node.
    /// - One solution of a board with blocked squares (blocked n-Queens), up to
    ///   [`crate::engines::dlx::MAX_N`] rows: exact cover (the bit engine, or up to n = 64 with
    ///   AVX2 the same search on one word per row). Branching on the row or column with the
    ///   fewest open squares is what blocked boards need: every instance of the ASP
    ///   competitions' set (n = 28 to 56) is decided, the median in 0.03 s and the slowest in
    ///   about 3 s, where cp and SAT run past 30 s on some (BENCHMARKS.md).
    /// - Listing from [`AUTO_CONSTRUCT_FROM`] rows on: constraint programming, whose first
    ///   solutions of a big board come in milliseconds (row-by-row backtracking takes seconds
    ///   to the first at n ≈ 30, and longer than anyone waits at n = 40).
    /// - Everything else (small boards, counting completions beyond [`counter::MAX_N`] rows):
    ///   backtracking. Counting a whole board beyond [`counter::MAX_N`] rows resolves to
    ///   backtracking too, but `auto` refuses to start that run ([`Method::refuse_hopeless`]).
    pub fn resolve(self, job: Job, problem: &Problem) -> Method {
        match self {
            Method::Auto
                if job == Job::Solve
                    && !problem.blocked().is_empty()
                    && problem.n() <= crate::engines::dlx::MAX_N =>
            {
                Method::Dlx
            }
            Method::Auto
                if matches!(job, Job::Count | Job::CountUnique)
                    && problem.n() <= counter::MAX_N =>
            {
                Method::Counter
            }
            Method::Auto if job == Job::Solve && !problem.is_completion() => {
                if problem.n() >= AUTO_CONSTRUCT_FROM {
                    Method::Construct
                } else {
                    Method::Backtrack
                }
            }
            Method::Auto if job == Job::Solve && problem.n() >= AUTO_CONSTRUCT_FROM => {
                if problem.n() <= crate::engines::cp::MAX_N {
                    Method::Cp
                } else {
                    Method::Local
                }
            }
            Method::Auto if job == Job::List && problem.n() >= AUTO_CONSTRUCT_FROM => Method::Cp,
            Method::Auto => Method::Backtrack,
            other => other,
        }
    }

    /// Refuses, under `auto`, a run no one would wait for: counting the solutions of a whole
    /// board beyond the counter's [`counter::MAX_N`] rows, which only plain backtracking can
    /// do, without symmetry and in roughly [`backtrack_count_seconds`]. The error gives that
    /// estimate; asking for a search method by name runs it (with progress).
    pub fn refuse_hopeless(
        self,
        job: Job,
        problem: &Problem,
        threads: usize,
    ) -> Result<(), EngineError> {
        let n = problem.n();
        if self != Method::Auto
            || !matches!(job, Job::Count | Job::CountUnique)
            || problem.is_completion()
            || n <= counter::MAX_N
        {
            return Ok(());
        }
        let threads = threads.max(1);
        let plural = if threads == 1 { "" } else { "s" };
        Err(EngineError::Unsupported {
            method: self.name(),
            job,
            reason: format!(
                "n = {n} is beyond the counter (it covers n ≤ {}; the largest board ever counted is n = 27), and plain backtracking would need {} on {threads} thread{plural}; ask for a search method by name to run it anyway",
                counter::MAX_N,
                rough_duration(backtrack_count_seconds(n, threads))
            ),
        })
    }

    /// The engine for `job` on `problem`, checked before anything runs: the run no one would
    /// wait for refused ([`refuse_hopeless`](Self::refuse_hopeless), with its estimate), then
    /// the engine's own [`Engine::check`]. What every front end (CLI, Python, the page) calls,
    /// so that each refuses the same runs with the same words.
    pub fn engine_for(
        self,
        job: Job,
        problem: &Problem,
        config: &Config,
    ) -> Result<Box<dyn Engine>, EngineError> {
        self.refuse_hopeless(job, problem, config.threads)?;
        let engine = self.build(job, problem, config);
        engine.check(job, problem)?;
        Ok(engine)
    }

    /// Builds the engine for this method (after resolving `auto` for `job` and `problem`).
    pub fn build(self, job: Job, problem: &Problem, config: &Config) -> Box<dyn Engine> {
        match self.resolve(job, problem) {
            Method::Backtrack => {
                let mut engine = Backtrack::new(config.threads);
                engine.progress = config.progress.clone();
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Dlx | Method::DlxGadgets => {
                let encoding = if self.resolve(job, problem) == Method::Dlx {
                    dlx::Encoding::Secondary
                } else {
                    dlx::Encoding::Gadgets
                };
                let mut engine = Dlx::new(encoding, config.seed);
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Sat => {
                let mut engine = Sat::new(config.encoding, config.seed.unwrap_or(0));
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Cp => {
                let mut engine = Cp::new();
                engine.seed = config.seed;
                if self == Method::Auto && job == Job::Solve && problem.is_completion() {
                    // Randomised restarts on a Luby schedule, and dancing links beside them
                    // where the board allows: no heavy tail (see `resolve`).
                    engine.seed = Some(config.seed.unwrap_or(0));
                    return Box::new(Portfolio::new(engine, problem, config));
                }
                engine.progress = config.progress.clone();
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Counter => {
                let mut engine = Counter::new(config.threads);
                engine.progress = config.progress.clone();
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Construct => {
                let mut engine = Construct::default();
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Local => {
                let mut engine = Local::new(config.seed.unwrap_or(0));
                engine.progress = config.progress.clone();
                engine.limits = config.limits.clone();
                Box::new(engine)
            }
            Method::Auto => unreachable!("resolve never returns auto"),
        }
    }
}

/// The first node budget of each engine in a [`Portfolio`] round, on top of two nodes per free
/// row (what a run without a single failure needs).
pub const PORTFOLIO_FIRST_BUDGET: u64 = 1000;

/// Above this many rows dancing links joins a [`Portfolio`] only from round
/// [`PORTFOLIO_DLX_LATE_ROUND`]: building its matrix costs more there (0.5–1 s at n = 500)
/// than cp's first rounds, which answer most boards.
pub const PORTFOLIO_DLX_LATE_FROM: u32 = 200;

/// The round from which dancing links joins on boards above [`PORTFOLIO_DLX_LATE_FROM`] rows.
pub const PORTFOLIO_DLX_LATE_ROUND: u64 = 3;

/// `auto`'s engine for one completion: a cheap refutation at the root, then constraint
/// programming with randomised Luby restarts and (up to [`dlx::MAX_N`] rows) dancing links,
/// interleaved on one thread with doubling node budgets.
///
/// **The root check** ([`root_refutes`]) proves "no completion" when a free row has no
/// unattacked square or a free column no unattacked square: on random sequential placements
/// that catches many of the boards without a completion (13 of 29 in a set of 200 at n = 100,
/// K = 65–80), and it costs O(free rows · free columns) at worst, far less in practice.
///
/// **The rounds.** Round i gives each engine, cp first, a fresh run of B·2^i search nodes (B:
/// two per free row plus [`PORTFOLIO_FIRST_BUDGET`]); the first to answer (a completion, or a
/// proof that there is none) ends the search; above [`PORTFOLIO_DLX_LATE_FROM`] rows dancing
/// links sits out the first rounds. The two fail on different instances: cp with
/// restarts finds completions fast but proves "no completion" only by exhausting its tree,
/// with value elimination that never notices a column no row can take; dancing links branches
/// on rows *and* columns, so it proves those fast, but has no restarts. Doubling budgets cost
/// at most about four times the better engine's own nodes (each round repeats the last one's
/// work, and both engines run), and keep the run deterministic: the same board gives the same
/// answer and the same counters on every machine, which a race of threads would not. Beyond
/// [`dlx::MAX_N`] rows cp runs alone, with the caller's limits.
///
/// The caller's limits apply to the whole search: a time budget or stop flag ends it (as
/// [`Outcome::GaveUp`]), and a node budget caps every run.
pub struct Portfolio {
    cp: Cp,
    dlx: Option<Dlx>,
    limits: Limits,
    stats: Stats,
}

impl Portfolio {
    /// The portfolio of `cp` (already seeded for restarts) and, where the board allows, dancing
    /// links, under the limits of `config`.
    pub fn new(cp: Cp, problem: &Problem, config: &Config) -> Self {
        let dlx = (problem.n() <= dlx::MAX_N).then(|| {
            let mut dlx = Dlx::new(dlx::Encoding::Secondary, config.seed);
            dlx.limits = config.limits.clone();
            dlx
        });
        Portfolio {
            cp,
            dlx,
            limits: config.limits.clone(),
            stats: Stats::default(),
        }
    }
}

/// Whether the fixed queens leave a free row without an unattacked square, or a free column
/// without one: then the board has no completion. Stops at the first unattacked square of each
/// line, so it costs little unless the board is nearly stuck.
pub fn root_refutes(problem: &Problem) -> bool {
    let n = problem.n() as usize;
    let mut row_used = vec![false; n];
    let mut col_used = vec![false; n];
    let mut diagonal = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    for q in problem.fixed() {
        let (r, c) = (q.row as usize, q.col as usize);
        row_used[r] = true;
        col_used[c] = true;
        diagonal[r + n - c] = true;
        anti[r + c] = true;
    }
    let free_rows: Vec<usize> = (0..n).filter(|&r| !row_used[r]).collect();
    let free_cols: Vec<usize> = (0..n).filter(|&c| !col_used[c]).collect();
    let open = |r: usize, c: usize| !diagonal[r + n - c] && !anti[r + c];
    free_rows
        .iter()
        .any(|&r| !free_cols.iter().any(|&c| open(r, c)))
        || free_cols
            .iter()
            .any(|&c| !free_rows.iter().any(|&r| open(r, c)))
}

impl Engine for Portfolio {
    fn name(&self) -> &'static str {
        if self.dlx.is_some() { "cp+dlx" } else { "cp" }
    }

    /// Both of its engines (cp and dlx) honour blocked squares.
    fn takes_blocks(&self) -> bool {
        true
    }

    fn jobs(&self) -> &'static [Job] {
        &[Job::Solve]
    }

    fn max_n(&self) -> u32 {
        crate::engines::cp::MAX_N
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        if root_refutes(problem) {
            self.stats = Stats::default();
            self.stats.set("root_refuted", 1);
            return Ok(Outcome::NoSolution);
        }
        if let Err(reached) = Budget::start(&self.limits).check_now() {
            return Ok(self.gave_up(0, 0, &reached.to_string()));
        }
        if self.dlx.is_none() {
            self.cp.limits = self.limits.clone();
            let outcome = self.cp.solve(problem)?;
            self.stats = self.cp.stats();
            return Ok(outcome);
        }
        let start = std::time::Instant::now();
        let free_rows = u64::from(problem.n()) - problem.fixed().len() as u64;
        let mut budget = 2 * free_rows + PORTFOLIO_FIRST_BUDGET;
        let mut total_nodes = 0u128;
        let dlx_from = if problem.n() > PORTFOLIO_DLX_LATE_FROM {
            PORTFOLIO_DLX_LATE_ROUND
        } else {
            1
        };
        for round in 1u64.. {
            for which in 0..2u8 {
                if which == 1 && round < dlx_from {
                    continue;
                }
                if let Err(reached) = Budget::start(&self.limits).check_now() {
                    return Ok(self.gave_up(round, total_nodes, &reached.to_string()));
                }
                let mut limits = self.limits.clone();
                if let Some(time) = limits.time {
                    let Some(left) = time.checked_sub(start.elapsed()) else {
                        return Ok(self.gave_up(
                            round,
                            total_nodes,
                            &LimitReached::Time.to_string(),
                        ));
                    };
                    limits.time = Some(left);
                }
                let capped = limits.nodes.is_some_and(|user| user <= budget);
                limits.nodes = Some(limits.nodes.map_or(budget, |user| user.min(budget)));
                let engine: &mut dyn Engine = match (which, self.dlx.as_mut()) {
                    (1, Some(dlx)) => {
                        dlx.limits = limits;
                        dlx
                    }
                    _ => {
                        self.cp.limits = limits;
                        &mut self.cp
                    }
                };
                let outcome = engine.solve(problem)?;
                total_nodes += engine.stats().get("nodes").unwrap_or(0);
                if let Outcome::GaveUp { reason } = &outcome {
                    let stopped = self
                        .limits
                        .stop
                        .as_ref()
                        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
                    let late = self.limits.time.is_some_and(|time| start.elapsed() >= time);
                    if stopped || late || (capped && which == 1) {
                        let reason = reason.clone();
                        return Ok(self.gave_up(round, total_nodes, &reason));
                    }
                    continue;
                }
                let winner = engine.stats();
                self.stats = Stats::default();
                self.stats.set("rounds", u128::from(round));
                self.stats.set("winner_dlx", u128::from(which));
                self.stats.set("total_nodes", total_nodes);
                for (name, value) in winner.iter() {
                    self.stats.set(name, value);
                }
                return Ok(outcome);
            }
            budget = budget.saturating_mul(2);
        }
        unreachable!("the rounds end with an answer or a limit")
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl Portfolio {
    /// Records the counters of a search a limit ended and says so.
    fn gave_up(&mut self, round: u64, total_nodes: u128, reason: &str) -> Outcome {
        self.stats = Stats::default();
        self.stats.set("rounds", u128::from(round));
        self.stats.set("total_nodes", total_nodes);
        Outcome::GaveUp {
            reason: reason.to_string(),
        }
    }
}

/// From this board size on, `auto` answers `solve` without fixed queens by the construction.
pub const AUTO_CONSTRUCT_FROM: u32 = 25;

/// Solutions plain backtracking counts per second per thread, roughly (about 10⁶ measured at
/// n = 16 on a loaded machine; a fast core does a few times more).
pub const BACKTRACK_SOLUTIONS_PER_SECOND: f64 = 3e6;

/// A rough estimate of the seconds plain backtracking needs to count every solution of the
/// n×n board on `threads` threads: the solution count extrapolated from A000170(27) by the
/// ratio A000170(m) / A000170(m − 1) ≈ 0.389·m (10.5 at m = 27; Simkin's asymptotics
/// A000170(n) ≈ (n·e^−1.944)ⁿ give e^−0.944·m), divided by [`BACKTRACK_SOLUTIONS_PER_SECOND`] per
/// thread. Good to an order of magnitude, which is all a refusal needs.
pub fn backtrack_count_seconds(n: u32, threads: usize) -> f64 {
    let mut solutions = crate::instances::oeis::total(27).map_or(2.35e17, |t| t as f64);
    for m in 28..=n {
        solutions *= 0.389 * f64::from(m);
    }
    solutions / (BACKTRACK_SOLUTIONS_PER_SECOND * threads.max(1) as f64)
}

/// Queens plain backtracking places per second per thread (1.14·10⁹ in 16.9 s counting
/// n = 16 on one thread, release build, the project's 2-core benchmark box).
pub const BACKTRACK_NODES_PER_SECOND: f64 = 6.8e7;

/// Nodes of plain backtracking's tree (the ones [`crate::engines::backtrack::estimate_nodes`]
/// estimates) the counter gets through per second per thread on a board with fixed queens or
/// blocked squares: its loops place fewer queens (they look four rows ahead) and place them
/// faster. 4.7·10⁸ and 5.2·10⁸ measured on two boards of n = 15 and 16, one thread, the
/// project's 2-core benchmark box.
pub const COUNTER_BACKTRACK_NODES_PER_SECOND: f64 = 4.5e8;

/// Counts expected to take longer than this get a warning with the estimate.
pub const LONG_COUNT_SECONDS: f64 = 10.0;

impl Method {
    /// A warning for a count of a board with fixed queens or blocked squares (whose tree has
    /// no published size) that this method runs by backtracking or the counter and that will
    /// take more than [`LONG_COUNT_SECONDS`]: the time estimated from 1,000 random paths
    /// through plain backtracking's search tree
    /// ([`crate::engines::backtrack::estimate_nodes`]), at each method's pace. `None` for short
    /// counts and for other methods and jobs. Front ends print it before they start, so a
    /// count that cannot finish is never silent.
    pub fn long_count_warning(self, job: Job, problem: &Problem, threads: usize) -> Option<String> {
        if !matches!(job, Job::Count | Job::CountUnique)
            || !problem.is_completion()
            || problem.n() > crate::engines::backtrack::MAX_N
        {
            return None;
        }
        let threads = threads.max(1);
        let (pace, threads, how) = match self.resolve(job, problem) {
            // Backtracking's threads split the first row: a fixed queen there leaves one task.
            Method::Backtrack => (
                BACKTRACK_NODES_PER_SECOND,
                if problem.fixed_column(0).is_some() {
                    1
                } else {
                    threads
                },
                "by plain backtracking",
            ),
            Method::Counter => (
                COUNTER_BACKTRACK_NODES_PER_SECOND,
                threads,
                "with the counter",
            ),
            _ => return None,
        };
        const PROBES: u32 = 1000;
        let nodes = crate::engines::backtrack::estimate_nodes(problem, PROBES, 0);
        let seconds = nodes / (pace * threads as f64);
        (seconds > LONG_COUNT_SECONDS).then(|| {
            let plural = if threads == 1 { "" } else { "s" };
            format!(
                "counting the solutions of this board {how} needs {} on {threads} thread{plural} (about {nodes:.0e} nodes of the backtracking tree, estimated from {PROBES} random paths through it; such estimates are rough)",
                rough_duration(seconds)
            )
        })
    }
}

/// Seconds as a rough duration for messages: "about 40 seconds", "about 3 days", "about
/// 3×10^9 years".
fn rough_duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    if seconds < 120.0 {
        return format!("about {:.0} seconds", seconds.max(1.0));
    }
    if seconds < 2.0 * 3600.0 {
        return format!("about {:.0} minutes", seconds / 60.0);
    }
    if seconds < 2.0 * 86400.0 {
        return format!("about {:.0} hours", (seconds / 3600.0).max(1.0));
    }
    if seconds < 2.0 * YEAR {
        return format!("about {:.0} days", seconds / 86400.0);
    }
    let years = seconds / YEAR;
    if years < 1e4 {
        return format!("about {years:.0} years");
    }
    let exponent = years.log10().floor();
    let mantissa = (years / 10f64.powf(exponent)).round().min(9.0);
    format!("about {mantissa:.0}×10^{exponent:.0} years")
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub use crate::error::UnknownMethod;

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
        }
        assert_eq!(
            "dancing".parse::<Method>(),
            Err(UnknownMethod("dancing".into()))
        );
    }

    #[test]
    fn about_texts_quote_the_real_limits() {
        for &m in Method::ALL {
            if let Some(max) = m.max_n() {
                assert!(m.about().contains(&max.to_string()), "{m}: {}", m.about());
            }
            assert!(!m.about().contains("--"), "{m} names a flag: {}", m.about());
        }
    }

    #[test]
    fn auto_picks_counter_construction_cp_and_local_search_by_job_and_size() {
        let plain = |n| Problem::new(n).unwrap();
        let auto = |job, p: &Problem| Method::Auto.resolve(job, p);
        assert_eq!(auto(Job::Solve, &plain(8)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &plain(24)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &plain(25)), Method::Construct);
        assert_eq!(auto(Job::Solve, &plain(1_000_000)), Method::Construct);
        assert_eq!(auto(Job::Count, &plain(25)), Method::Counter);
        assert_eq!(auto(Job::CountUnique, &plain(32)), Method::Counter);
        assert_eq!(auto(Job::Count, &plain(33)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(12)), Method::Backtrack);
        let fixed = |n| Problem::with_fixed(n, [crate::Queen::new(0, 1)]).unwrap();
        assert_eq!(auto(Job::Solve, &fixed(24)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &fixed(25)), Method::Cp);
        assert_eq!(auto(Job::Solve, &fixed(20_000)), Method::Cp);
        assert_eq!(auto(Job::Solve, &fixed(20_001)), Method::Local);
        assert_eq!(auto(Job::Count, &fixed(12)), Method::Counter);
        assert_eq!(auto(Job::CountUnique, &fixed(32)), Method::Counter);
        assert_eq!(auto(Job::Count, &fixed(33)), Method::Backtrack);
        assert_eq!(auto(Job::List, &fixed(65)), Method::Cp);
        assert_eq!(auto(Job::List, &fixed(24)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(24)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(40)), Method::Cp);
    }

    #[test]
    fn the_root_check_is_sound_and_catches_dead_lines() {
        // Every board of two queens on 5×5 and three on 6×6: never refutes a board with a
        // completion, and refutes some without.
        let mut refuted = 0;
        for (n, k) in [(5u32, 2usize), (6, 3)] {
            let squares = n * n;
            let mut pick = vec![0u32; k];
            'boards: loop {
                let queens = pick.iter().map(|&s| crate::Queen::new(s / n, s % n));
                if pick.windows(2).all(|w| w[0] < w[1])
                    && let Ok(problem) = Problem::with_fixed(n, queens)
                {
                    let has = !crate::board::naive::solutions(&problem).is_empty();
                    let refutes = root_refutes(&problem);
                    assert!(
                        !(has && refutes),
                        "refuted a completable board: {problem:?}"
                    );
                    refuted += usize::from(refutes);
                }
                for i in (0..k).rev() {
                    if pick[i] + 1 < squares {
                        pick[i] += 1;
                        continue 'boards;
                    }
                    pick[i] = 0;
                }
                break;
            }
        }
        assert!(refuted > 0);
        // 4×4 with queens (0,0) and (1,2): row 2's free squares (2,1) and (2,3) both lie on
        // diagonals of (1,2).
        let dead_row =
            Problem::with_fixed(4, [crate::Queen::new(0, 0), crate::Queen::new(1, 2)]).unwrap();
        assert!(root_refutes(&dead_row));
        assert!(!root_refutes(
            &Problem::with_fixed(8, [crate::Queen::new(0, 0)]).unwrap()
        ));
    }

    #[test]
    fn random_probes_estimate_the_backtracking_tree_and_long_completion_counts_are_flagged() {
        use crate::engines::backtrack::estimate_nodes;
        // Knuth's estimate is unbiased: with many probes it comes near the real node count.
        for (n, fixed) in [
            (10, vec![]),
            (11, vec![crate::Queen::new(1, 3)]),
            (12, vec![]),
        ] {
            let problem = Problem::with_fixed(n, fixed).unwrap();
            let mut engine = Backtrack::new(1);
            engine.count(&problem, false).unwrap();
            let nodes = engine.stats().get("nodes").unwrap() as f64;
            let estimate = estimate_nodes(&problem, 20_000, 7);
            assert!(
                (estimate / nodes - 1.0).abs() < 0.15,
                "n = {n}: estimate {estimate:.0}, nodes {nodes}"
            );
        }
        // The board a user met: 50 rows, 20 queens of a solution kept, counted for hours.
        use crate::instances::generate::{Placement, generate};
        let problem = generate(Placement::FromSolution, 50, 20, 2, None).unwrap();
        let warning = Method::Auto
            .long_count_warning(Job::Count, &problem, 2)
            .expect("a long count");
        assert!(warning.contains("random paths"), "{warning}");
        assert!(!warning.contains("seconds"), "{warning}");
        let small = Problem::with_fixed(8, [crate::Queen::new(0, 0)]).unwrap();
        assert_eq!(Method::Auto.long_count_warning(Job::Count, &small, 2), None);
        // Whole boards are the counter's (or refused), other jobs never warned about.
        assert_eq!(
            Method::Auto.long_count_warning(Job::Count, &Problem::new(30).unwrap(), 2),
            None
        );
    }

    #[test]
    fn auto_refuses_to_count_beyond_the_counter_and_says_how_long_it_would_take() {
        let plain = |n| Problem::new(n).unwrap();
        for job in [Job::Count, Job::CountUnique] {
            assert!(Method::Auto.refuse_hopeless(job, &plain(32), 2).is_ok());
            for n in [33, 40, 64] {
                let message = Method::Auto
                    .refuse_hopeless(job, &plain(n), 2)
                    .unwrap_err()
                    .to_string();
                assert!(
                    message.contains(&format!("n = {n} is beyond the counter (it covers n ≤ 32; the largest board ever counted is n = 27)")),
                    "{message}"
                );
                assert!(message.contains("years on 2 threads"), "{message}");
                assert!(
                    !message.contains("--"),
                    "no flags in library messages: {message}"
                );
            }
            // By name, backtracking runs; completions and other jobs are not refused.
            assert!(
                Method::Backtrack
                    .refuse_hopeless(job, &plain(40), 2)
                    .is_ok()
            );
            let fixed = Problem::with_fixed(40, [crate::Queen::new(0, 1)]).unwrap();
            assert!(Method::Auto.refuse_hopeless(job, &fixed, 2).is_ok());
        }
        assert!(
            Method::Auto
                .refuse_hopeless(Job::List, &plain(40), 2)
                .is_ok()
        );
        // The estimate: millennia at n = 28 on one thread (n = 27 took a year of many FPGAs),
        // each further row about 0.389·n times more.
        let year = 365.25 * 86400.0;
        let at28 = backtrack_count_seconds(28, 1) / year;
        assert!((1e3..1e6).contains(&at28), "{at28}");
        let at33 = backtrack_count_seconds(33, 1) / year;
        assert!((1e5..1e6).contains(&(at33 / at28)), "{at33}");
        assert_eq!(
            backtrack_count_seconds(33, 4) * 4.0,
            backtrack_count_seconds(33, 1)
        );
        assert_eq!(rough_duration(3.0 * 86400.0), "about 3 days");
        assert_eq!(rough_duration(1e17), "about 3×10^9 years");
    }
}
