//! N-Queens as CNF, and the SAT engine that solves it with the `nqueens_sat` crate's CDCL solver.
//!
//! Variable `x(i, j)`, true when a queen stands on row `i`, column `j` (0-based), is
//! `i·n + j` in the solver's numbering, so `i·n + j + 1` in DIMACS: row-major from 1. The
//! puzzle is "a queen in every row, at most one queen in every row, column and diagonal":
//!
//! - [`Encoding::Pairwise`] is the classic pairwise encoding, clause for clause as the SAT write-up gives it: one at-least-one clause
//!   per row, then the pairwise at-most-one clauses `¬a ∨ ¬b` of the rows, the columns, the
//!   diagonals (`i − j` constant) and the anti-diagonals (`i + j` constant). Within each group
//!   every clause has its DIMACS literals sorted ascending and the clauses are sorted
//!   lexicographically, as the write-up's tests pin them (rows for n = 2: `(-4 -3) (-2 -1)`). A line
//!   of k squares costs k(k−1)/2 binary clauses, so the formula has about 5n³/3 clauses: 45
//!   million at n = 300.
//! - [`Encoding::Compact`] keeps the queen variables and says at-most-one with Sinz's
//!   sequential counter (k − 1 auxiliary variables and 3k − 4 clauses for a line of k squares;
//!   lines of up to [`PAIRWISE_UP_TO`] squares stay pairwise, which is smaller there). It also
//!   states the implied at-least-one per column, which helps propagation. About 12n² clauses
//!   and 5n² variables in all: n = 1000 is 12 million clauses. The queen variables decide
//!   everything (the counters follow by propagation), so the solver is told to branch on
//!   them first.
//!
//! Fixed queens (the completion variant) are unit clauses `x(i, j)`. Both encodings put the
//! queen variables first, so a model's first n² values are the board and [`decode`] reads it;
//! enumeration blocks each model on the queen variables only, so auxiliary variables never
//! produce a board twice.
//!
//! Memory: before building, the engine computes the formula's size from the board's line
//! lengths ([`formula_size`], O(n)), estimates what the solver and the encoder will hold
//! ([`estimated_bytes`]) and asks for it at once, as the construction does; a board too large
//! for the machine is refused with the figure ("needs about … MiB for n = …, more than could be
//! allocated"), never an allocation abort. The documented limits (n = 600 pairwise, 15,000
//! compact) bound the formula; memory may refuse smaller boards.
//!
//! Reference: C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//! CP 2005 (the sequential counter, LTSEQ for k = 1).

use std::cell::RefCell;
use std::ops::ControlFlow;

use nqueens_sat::{ClauseCounter, ClauseSink, Header, Lit, Model, Solver, Var};

use crate::board::{Problem, Queen, Solution};
use crate::engine::EngineError;
use crate::engine::descriptor::up_to;
use crate::engine::{
    self, Descriptor, Engine, Enumeration, Job, LimitReached, Limits, Stats, Visit,
};

/// The largest board either encoding takes.
pub const MAX_N: u32 = {
    let (pairwise, compact) = (Encoding::Pairwise.max_n(), Encoding::Compact.max_n());
    if pairwise > compact {
        pairwise
    } else {
        compact
    }
};

/// The `sat` method's row (its largest board: the larger of the two encodings' limits).
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "sat",
    about: || {
        format!(
            "CNF solved by our CDCL SAT solver: the pairwise encoding ({}) or the compact \
             sequential-counter encoding ({})",
            up_to(Encoding::Pairwise.max_n()),
            up_to(Encoding::Compact.max_n())
        )
    },
    max_n: Some(MAX_N),
    jobs: engine::ALL_JOBS,
    takes_blocks: true,
    on_page: true,
    traceable: true,
    build: |_, _, config| {
        let mut engine = Sat::new(config.encoding, config.seed.unwrap_or(0));
        engine.limits = config.limits.clone();
        Box::new(engine)
    },
    count_pace: None,
};

pub use crate::engine::Encoding;

/// Lines of at most this many squares get pairwise at-most-one clauses in the compact
/// encoding too (for k ≤ 4, k(k−1)/2 ≤ 3k − 4 + aux: no larger, and no new variables).
pub const PAIRWISE_UP_TO: usize = 4;

/// The variable of the square on row `row`, column `col` of an n×n board.
pub fn var(n: u32, row: u32, col: u32) -> Var {
    Var::from_index(row * n + col)
}

fn queen(n: u32, row: u32, col: u32) -> Lit {
    Lit::positive(var(n, row, col))
}

/// The squares of each row, column, diagonal and anti-diagonal, as lists of literals; lines
/// are listed in order of their first square, squares in row-major order.
fn rows(n: u32) -> Vec<Vec<Lit>> {
    (0..n)
        .map(|i| (0..n).map(|j| queen(n, i, j)).collect())
        .collect()
}

fn columns(n: u32) -> Vec<Vec<Lit>> {
    (0..n)
        .map(|j| (0..n).map(|i| queen(n, i, j)).collect())
        .collect()
}

/// Lines along which `i − j` (`anti` false) or `i + j` (`anti` true) is constant.
fn diagonals(n: u32, anti: bool) -> Vec<Vec<Lit>> {
    let mut lines = vec![Vec::new(); (2 * n).saturating_sub(1) as usize];
    for i in 0..n {
        for j in 0..n {
            let d = if anti { i + j } else { i + n - 1 - j };
            lines[d as usize].push(queen(n, i, j));
        }
    }
    lines
}

/// The write-up's clause order: literals ascending by DIMACS value, then clauses lexicographically.
fn seed_sorted(mut clauses: Vec<Vec<Lit>>) -> Vec<Vec<Lit>> {
    for clause in &mut clauses {
        clause.sort_by_key(|l| l.to_dimacs());
    }
    clauses.sort_by(|a, b| {
        a.iter()
            .map(|l| l.to_dimacs())
            .cmp(b.iter().map(|l| l.to_dimacs()))
    });
    clauses
}

fn pairwise(lines: Vec<Vec<Lit>>) -> Vec<Vec<Lit>> {
    let mut clauses = Vec::new();
    for line in &lines {
        for (k, &a) in line.iter().enumerate() {
            for &b in &line[k + 1..] {
                clauses.push(vec![!a, !b]);
            }
        }
    }
    seed_sorted(clauses)
}

/// The pairwise encoding's clauses "a queen in each row", in the write-up's order.
pub fn at_least_one_per_row(n: u32) -> Vec<Vec<Lit>> {
    seed_sorted(rows(n))
}

/// The pairwise at-most-one clauses of the rows, in the write-up's order.
pub fn at_most_one_per_row(n: u32) -> Vec<Vec<Lit>> {
    pairwise(rows(n))
}

/// The pairwise at-most-one clauses of the columns, in the write-up's order.
pub fn at_most_one_per_column(n: u32) -> Vec<Vec<Lit>> {
    pairwise(columns(n))
}

/// The pairwise at-most-one clauses of the diagonals (`i − j` constant), in the write-up's order.
pub fn at_most_one_per_diagonal(n: u32) -> Vec<Vec<Lit>> {
    pairwise(diagonals(n, false))
}

/// The pairwise at-most-one clauses of the anti-diagonals (`i + j` constant), in the write-up's
/// order.
pub fn at_most_one_per_anti_diagonal(n: u32) -> Vec<Vec<Lit>> {
    pairwise(diagonals(n, true))
}

/// Sinz's sequential counter: at most one of `lits`, with `lits.len() − 1` fresh variables
/// `s_k` meaning "one of the first k + 1 literals is true".
fn sequential_at_most_one(sink: &mut impl ClauseSink, lits: &[Lit]) {
    let k = lits.len();
    if k <= PAIRWISE_UP_TO {
        for (a, &x) in lits.iter().enumerate() {
            for &y in &lits[a + 1..] {
                sink.add_clause(&[!x, !y]);
            }
        }
        return;
    }
    let s: Vec<Lit> = (0..k - 1).map(|_| Lit::positive(sink.new_var())).collect();
    sink.add_clause(&[!lits[0], s[0]]);
    for i in 1..k - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        sink.add_clause(&[!s[i - 1], s[i]]);
        sink.add_clause(&[!lits[i], !s[i - 1]]);
    }
    sink.add_clause(&[!lits[k - 1], !s[k - 2]]);
}

/// A function that lists one group of the pairwise encoding's clauses.
type ClauseGroup = fn(u32) -> Vec<Vec<Lit>>;

/// Writes the formula of `problem` in `encoding` into `sink`: the queen variables first
/// (`n²`, row-major), auxiliary variables after them, and each fixed queen as a unit clause
/// at the end. Stops early once the sink reports an error ([`ClauseSink::status`]: a writer
/// whose output failed, a solver out of memory), which the sink then reports itself.
pub fn encode(problem: &Problem, encoding: Encoding, sink: &mut impl ClauseSink) {
    let n = problem.n();
    sink.ensure_vars(n * n);
    match encoding {
        Encoding::Pairwise => {
            // One group at a time: only the largest is ever in memory whole.
            let groups: [ClauseGroup; 5] = [
                at_least_one_per_row,
                at_most_one_per_row,
                at_most_one_per_column,
                at_most_one_per_diagonal,
                at_most_one_per_anti_diagonal,
            ];
            for group in groups {
                for clause in &group(n) {
                    if sink.status().is_err() {
                        return;
                    }
                    sink.add_clause(clause);
                }
            }
        }
        Encoding::Compact => {
            for line in rows(n).iter().chain(&columns(n)) {
                sink.add_clause(line);
            }
            for line in rows(n)
                .iter()
                .chain(&columns(n))
                .chain(&diagonals(n, false))
                .chain(&diagonals(n, true))
            {
                if sink.status().is_err() {
                    return;
                }
                sequential_at_most_one(sink, line);
            }
        }
    }
    for q in problem.fixed() {
        sink.add_clause(&[queen(n, q.row, q.col)]);
    }
    for q in problem.blocked() {
        sink.add_clause(&[!queen(n, q.row, q.col)]);
    }
}

/// The size of the formula [`encode`] writes (variables, clauses, literals, binary clauses),
/// from the lengths of the board's lines, without building it: O(n). The tests check it
/// against a [`ClauseCounter`] fed by [`encode`].
pub fn formula_size(problem: &Problem, encoding: Encoding) -> ClauseCounter {
    let n = u64::from(problem.n());
    let mut size = ClauseCounter::default();
    let mut vars = n * n;
    let mut add = |clauses: u64, len: u64| {
        size.clauses += clauses;
        size.lits += clauses * len;
        if len == 2 {
            size.binary += clauses;
        }
    };
    // The lengths of the lines: n rows and n columns of n squares; in each diagonal direction
    // two lines of each length 1..n−1 and one of n.
    let lines = || {
        let diagonal = (1..n).flat_map(|k| [k, k]).chain((n > 0).then_some(n));
        std::iter::repeat_n(n, 2 * n as usize)
            .chain(diagonal.clone())
            .chain(diagonal)
    };
    let pairs = |k: u64| k * k.saturating_sub(1) / 2;
    match encoding {
        Encoding::Pairwise => {
            add(n, n);
            for k in lines() {
                add(pairs(k), 2);
            }
        }
        Encoding::Compact => {
            add(2 * n, n);
            for k in lines() {
                if k as usize <= PAIRWISE_UP_TO {
                    add(pairs(k), 2);
                } else {
                    add(3 * k - 4, 2);
                    vars += k - 1;
                }
            }
        }
    }
    add((problem.fixed().len() + problem.blocked().len()) as u64, 1);
    size.vars = u32::try_from(vars).unwrap_or(u32::MAX);
    size
}

/// The DIMACS header of the formula [`encode`] writes ([`formula_size`]).
pub fn header(problem: &Problem, encoding: Encoding) -> Header {
    let size = formula_size(problem, encoding);
    Header {
        vars: size.vars,
        clauses: size.clauses,
    }
}

/// Roughly the bytes the engine needs for `problem`: the solver for the formula
/// ([`Solver::estimated_bytes`]) plus what the encoder holds while it writes (the pairwise
/// encoding's largest group of clauses, each a small vector, sorted; the compact encoding's
/// lines) and the queen list and blocking clause of the enumeration. Against the peak resident
/// memory of `nqueens solve N -m sat --time-limit 1` (loaded 2-core machine): compact n = 1000
/// 1,096 MiB estimated / 974 MiB measured, n = 2000 4,386 / 3,865; pairwise n = 200 395 / 314,
/// n = 100 51 / 75 (long learnt clauses of the pairwise formula, beyond the estimate's
/// allowance, dominate small boards).
pub fn estimated_bytes(problem: &Problem, encoding: Encoding) -> u64 {
    let n = u64::from(problem.n());
    let encoder = match encoding {
        // The rows' at-most-one group: n·n(n−1)/2 clauses of a 24-byte header and a 16-byte
        // block, and the sort's buffer.
        Encoding::Pairwise => n * (n * n.saturating_sub(1) / 2) * 52,
        // Rows, columns and both diagonal families of 4-byte literals at once.
        Encoding::Compact => 16 * n * n,
    };
    Solver::estimated_bytes(&formula_size(problem, encoding))
        .saturating_add(encoder)
        .saturating_add(8 * n * n)
}

/// The board a model describes, when its queen variables put exactly one queen in each row
/// (`None` otherwise).
pub fn decode(n: u32, model: &Model) -> Option<Solution> {
    let mut columns = Vec::with_capacity(n as usize);
    for i in 0..n {
        let mut queens = (0..n).filter(|&j| model.value(var(n, i, j)));
        let col = queens.next()?;
        if queens.next().is_some() {
            return None;
        }
        columns.push(col);
    }
    Some(Solution::from_columns(columns))
}

/// The SAT method: encodes the board, solves with [`nqueens_sat::Solver`], and enumerates with
/// blocking clauses over the queen variables.
#[derive(Clone, Debug, Default)]
pub struct Sat {
    /// How the at-most-one constraints are written.
    pub encoding: Encoding,
    /// Nonzero: varies the solver's first decisions ([`nqueens_sat::Options::seed`]).
    pub seed: u64,
    /// When to give up; the node budget counts conflicts.
    pub limits: Limits,
    stats: Stats,
}

impl Sat {
    /// An engine with this encoding and seed.
    pub fn new(encoding: Encoding, seed: u64) -> Self {
        Sat {
            encoding,
            seed,
            limits: Limits::default(),
            stats: Stats::default(),
        }
    }
}

impl Engine for Sat {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    /// The limit of this engine's encoding (the row quotes the larger of the two).
    fn max_n(&self) -> u32 {
        self.encoding.max_n()
    }

    fn for_each(
        &mut self,
        problem: &Problem,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        self.check(Job::List, problem)?;
        self.enumerate(problem, &mut nqueens_sat::Silent, visit)
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// One step of the CDCL search on the board, as [`Sat::trace`] reports it: the `sat`
/// solver's own steps, its queen variables read as squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStep<'a> {
    /// A decision at the new `level`: a queen on `square` (`queen`), or none there; `square`
    /// is `None` for an auxiliary variable of the compact encoding.
    Decide {
        /// The decision level it opens.
        level: u32,
        /// The square of the queen variable decided.
        square: Option<Queen>,
        /// Whether the decision puts a queen there.
        queen: bool,
    },
    /// Propagation made a clause false at `level`.
    Conflict {
        /// The decision level of the conflict.
        level: u32,
    },
    /// The conflict's learnt clause: its length and LBD, and the level the search jumped back
    /// to (the decisions above it are undone).
    Learn {
        /// Literals in the clause.
        size: u32,
        /// Its literal block distance.
        lbd: u32,
        /// The level jumped back to.
        backjump: u32,
    },
    /// A restart: every decision is undone.
    Restart,
    /// A solution.
    Solution(&'a Solution),
}

/// Turns the solver's steps into [`TraceStep`]s.
struct Watcher<'a, W> {
    n: u32,
    watch: &'a RefCell<&'a mut W>,
}

impl<W: FnMut(TraceStep<'_>)> nqueens_sat::Observer for Watcher<'_, W> {
    fn decide(&mut self, level: u32, lit: Lit) {
        let v = lit.var().as_u32();
        let n = self.n;
        let square = (u64::from(v) < u64::from(n) * u64::from(n)).then(|| Queen::new(v / n, v % n));
        (self.watch.borrow_mut())(TraceStep::Decide {
            level,
            square,
            queen: lit.is_positive(),
        });
    }

    fn conflict(&mut self, level: u32) {
        (self.watch.borrow_mut())(TraceStep::Conflict { level });
    }

    fn learn(&mut self, clause: &[Lit], lbd: u32, backjump: u32) {
        (self.watch.borrow_mut())(TraceStep::Learn {
            size: clause.len() as u32,
            lbd,
            backjump,
        });
    }

    fn restart(&mut self) {
        (self.watch.borrow_mut())(TraceStep::Restart);
    }
}

impl Sat {
    /// The search of `solve` (`all` false: to the first solution) or of `for_each` (`all`:
    /// every solution, each after the blocking clause of the ones before), with the same
    /// settings and so the same decisions, calling `watch` at every decision, conflict,
    /// learnt clause, restart and solution. For replaying the search step by step;
    /// [`Engine::stats`] then has its counters, and a limit reached is [`EngineError::Stopped`].
    pub fn trace(
        &mut self,
        problem: &Problem,
        all: bool,
        watch: &mut impl FnMut(TraceStep<'_>),
    ) -> Result<Enumeration, EngineError> {
        let (job, after_solution) = crate::engine::trace_job(all);
        self.check(job, problem)?;
        let watch = RefCell::new(watch);
        let mut watcher = Watcher {
            n: problem.n(),
            watch: &watch,
        };
        self.enumerate(problem, &mut watcher, &mut |solution| {
            (watch.borrow_mut())(TraceStep::Solution(solution));
            after_solution
        })
    }

    /// The search of [`Engine::for_each`] and [`Sat::trace`].
    fn enumerate<O: nqueens_sat::Observer>(
        &mut self,
        problem: &Problem,
        observer: &mut O,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        let n = problem.n();
        // Ask for the memory before building anything, as the construction does: a board
        // too large for this machine is refused with the figure, never an allocation abort.
        let size = formula_size(problem, self.encoding);
        let bytes = estimated_bytes(problem, self.encoding);
        let out_of_memory = || EngineError::OutOfMemory {
            method: "sat",
            n,
            bytes,
        };
        Vec::<u8>::new()
            .try_reserve_exact(usize::try_from(bytes).unwrap_or(usize::MAX))
            .map_err(|_| out_of_memory())?;
        let mut solver = Solver::with_options(nqueens_sat::Options {
            seed: self.seed,
            // The queen variables decide the board; the compact encoding's counter variables
            // follow from them by propagation. (Measured: compact n = 100 needs 1,114 conflicts
            // instead of 51,054, and n = 1000 becomes solvable.)
            primary_vars: Some(n * n),
            // No rephasing: the best phases and walks cost the board's first solution a
            // quarter more conflicts (compact n = 1000: 2,672 against 2,149).
            rephase_interval: 0,
            // No shrinking: a level's attacked squares say more than the queen that attacks
            // them (compact n = 1000: 7,003 conflicts and 56 s with it, 2,149 and 18 s without).
            shrink: false,
            ..nqueens_sat::Options::default()
        });
        solver.reserve(&size).map_err(|_| out_of_memory())?;
        encode(problem, self.encoding, &mut solver);
        solver.status().map_err(|_| out_of_memory())?;
        // This method's unit of work is a conflict: its node budget is the solver's conflicts.
        solver.set_limits(Limits {
            nodes: None,
            conflicts: self.limits.nodes,
            ..self.limits.clone()
        });
        self.stats = Stats::default();
        self.stats.set("variables", u128::from(solver.num_vars()));
        let queens: Vec<Var> = (0..n * n).map(Var::from_index).collect();
        let mut solutions = 0u128;
        // The solver's limits apply to each model's search; the time budget and the stop
        // flag are for the whole enumeration, so they are looked at between models too.
        let budget = engine::Budget::start(&self.limits);
        let mut ran_out = None;
        let end = solver.enumerate_observed(&queens, observer, |model| {
            let solution = decode(n, model).expect("every model of the formula is a board");
            solutions += 1;
            let visited = visit(&solution);
            if visited.is_continue() {
                if let Err(reached) = budget.check_now() {
                    ran_out = Some(reached);
                    return ControlFlow::Break(());
                }
            }
            visited
        });
        let s = solver.stats();
        self.stats.set("solutions", solutions);
        self.stats.set("decisions", u128::from(s.decisions));
        self.stats.set("conflicts", u128::from(s.conflicts));
        self.stats.set("propagations", u128::from(s.propagations));
        self.stats.set("restarts", u128::from(s.restarts));
        match end {
            nqueens_sat::Enumeration::Complete(_) => Ok(Enumeration::Complete),
            nqueens_sat::Enumeration::Stopped(_) => match ran_out {
                None => Ok(Enumeration::Stopped),
                Some(reason) => Err(EngineError::stopped_by(self.name(), reason, solutions)),
            },
            nqueens_sat::Enumeration::Unknown(stopped) => {
                let reason = match stopped.reason {
                    // The method's node budget, spent as conflicts.
                    LimitReached::Conflicts => LimitReached::Nodes,
                    LimitReached::Memory => return Err(out_of_memory()),
                    other => other,
                };
                Err(EngineError::stopped_by(self.name(), reason, stopped.found))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Queen;

    #[test]
    fn a_time_limit_bounds_the_whole_enumeration_not_each_model() {
        // n = 40 has about 10^23 solutions, each found in a few conflicts: only a budget
        // looked at between models stops the count.
        let mut engine = Sat::new(Encoding::Pairwise, 0);
        engine.limits.time = Some(std::time::Duration::from_millis(200));
        let start = std::time::Instant::now();
        let result = engine.count(&Problem::new(40).unwrap(), false);
        assert!(
            matches!(
                result.as_ref().map_err(EngineError::stopped),
                Err(Some(nqueens_support::Stopped {
                    reason: LimitReached::Time,
                    ..
                }))
            ),
            "{result:?}"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn the_size_formula_matches_the_encoder() {
        for n in 1..=24 {
            let fixed: &[Queen] = if n >= 6 {
                &[Queen::new(0, 1), Queen::new(2, 5)]
            } else {
                &[]
            };
            let problem = Problem::with_fixed(n, fixed.iter().copied()).unwrap();
            for &encoding in Encoding::ALL {
                let mut counted = ClauseCounter::default();
                encode(&problem, encoding, &mut counted);
                assert_eq!(
                    formula_size(&problem, encoding),
                    counted,
                    "n = {n}, {encoding}"
                );
            }
        }
    }

    /// RAM plus swap, and whether the kernel grants every allocation (overcommit mode 1): what
    /// decides whether a reservation of a given size can be refused here.
    fn machine() -> (u64, bool) {
        let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let field = |name: &str| -> u64 {
            info.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
                .unwrap_or(u64::MAX / 2048)
        };
        let always = std::fs::read_to_string("/proc/sys/vm/overcommit_memory")
            .is_ok_and(|mode| mode.trim() == "1");
        (
            field("MemTotal:").saturating_add(field("SwapTotal:")) * 1024,
            always,
        )
    }

    #[test]
    fn a_board_too_large_for_memory_is_refused_with_the_figure() {
        let problem = Problem::new(15_000).unwrap();
        let bytes = estimated_bytes(&problem, Encoding::Compact);
        let (memory, always) = machine();
        if memory >= bytes || always {
            // Here the memory could be had (or the kernel never refuses): building the formula
            // would be right, and too long for a test.
            eprintln!("skipped: this machine could hold {bytes} bytes");
            return;
        }
        let error = Sat::new(Encoding::Compact, 0).solve(&problem).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "the sat method needs about {} MiB for n = 15000, more than could be allocated",
                bytes.div_ceil(1 << 20)
            )
        );
    }

    #[test]
    fn estimates_grow_as_the_encodings_do() {
        let mib = |n, encoding| estimated_bytes(&Problem::new(n).unwrap(), encoding) >> 20;
        // Compact: about 5n² variables and 12n² binary clauses, about 1,100 bytes per n² (n =
        // 1000 peaked at 1.2 GB in BENCHMARKS.md).
        assert!(
            (800..1600).contains(&(mib(1000, Encoding::Compact))),
            "{}",
            mib(1000, Encoding::Compact)
        );
        assert!(mib(15_000, Encoding::Compact) > 100_000);
        // Pairwise: about 5n³/3 binary clauses.
        assert!(mib(600, Encoding::Pairwise) > 10_000);
    }
}
