//! N-Queens as exact cover, solved by the `exact-cover` crate: over bit sets where the board
//! fits, by dancing links beyond.
//!
//! # The encodings
//!
//! Every square (r, c) is an option covering four items: its row `rR`, its column `cC`, its
//! anti-diagonal `aS` (S = R + C) and its diagonal `bD` (D = R − C), with 1-based R and C. A
//! solution must use every row and every column exactly once, and every diagonal at most
//! once; the two encodings differ in how they say "at most once":
//!
//! - [`Encoding::Secondary`] (method `dlx`): rows and columns are primary items, the 4n − 2
//!   diagonals secondary items. This is Knuth's formulation (TAOCP 7.2.2.1).
//! - [`Encoding::Gadgets`] (method `dlx-gadgets`): every item is primary, and each diagonal
//!   gets one extra *gadget* option that covers that diagonal alone, taken when no queen sits
//!   on it. Each N-Queens solution is then exactly one exact cover (its free diagonals are
//!   filled by their gadgets), so the counts agree; the gadgets are dropped when decoding.
//!   It shows what secondary items save: MRV now also branches on diagonals. A corner
//!   diagonal has just two options (its one square, or its gadget), so MRV decides diagonals
//!   from the corners inwards before it places queens by rows; counting pays a few times more
//!   nodes, and a first solution thousands of times more from n ≈ 20 on (BENCHMARKS.md), so
//!   this method is for comparison, not for large boards.
//!
//! Options are added square by square in row-major order, one per square that is not blocked
//! (blocked n-Queens: a blocked square is simply no option), and [`Instance`] keeps each
//! option's square for decoding. The primary rows and columns are declared in
//! *organ-pipe* order, from the middle of the board outwards (`r⌊n/2⌋+1`, `c⌊n/2⌋+1`, then
//! alternately just below and just above), as Knuth recommends: among items with equally few
//! options, MRV then tries the central lines first, where a queen constrains the most.
//!
//! Fixed queens (the completion variant) are *preselected*: their options are chosen before
//! the search starts ([`nqueens_exact_cover::Solver::select`]), so they are in every solution and the
//! search never reconsiders them.
//!
//! # Engines, and cost
//!
//! The crate has two engines that visit the same search tree (the same nodes, the same
//! solutions in the same order, for every seed), and [`Dlx::engine`] picks one; the default,
//! [`EngineChoice::Auto`], takes the bit engine whenever the board fits it: up to 1,024
//! primary items (n ≤ 512 here, rows and columns) and 64 MiB of precomputed masks, which with
//! n² options of 2n·⌈n/64⌉ words each holds boards up to n = 127 (n = 128 needs 65.5 MiB).
//! Counting n = 13 that way takes about a quarter of the time (BENCHMARKS.md). First
//! solutions stay on dancing links: they need about n nodes, fewer than it costs to build the
//! bit engine's tables.
//!
//! Dancing links builds in O(n²) time and memory (4n² + O(n) nodes of 12 bytes), which is why
//! [`MAX_N`] is 1000. Each of its search nodes costs one pass over the uncovered rows and
//! columns to pick the item with the fewest options, plus one update per option it hides (at
//! most 4n per queen placed). The bit engine precomputes, per square, which squares it
//! attacks, and each node costs one pass over the words of the uncovered rows and columns.
//!
//! # First solutions for large boards
//!
//! With Knuth's deterministic order, MRV can spend tens of millions of nodes before the first
//! solution on n = 64 (as the exact-cover write-up found), because a bad early choice is only undone after
//! its whole subtree fails. Randomising the order (shuffled option lists, random tie-breaks) makes
//! such long detours improbable: [`Dlx::solve`] therefore searches in a seeded random order
//! (the configured seed, or [`DEFAULT_SEED`]), while enumeration and counting keep Knuth's
//! order unless a seed is given. See BENCHMARKS.md for the node counts. Boards with blocked
//! squares are the exception: their answers are mostly proofs that there is none, the whole
//! tree whatever the order, so without a seed they are searched in the declared order on the
//! faster bit engine; up to n = 64, on processors with AVX2, `solve` runs that same search on
//! one word per row instead ([`bitboard`]), in a little over half the time.

pub mod bitboard;

use std::ops::ControlFlow;

use nqueens_exact_cover::{Config, EngineChoice, OptionId, Solver};

use bitboard::BoardSearch;

use crate::board::{Problem, Queen, Solution};
use crate::engine::EngineError;
use crate::engine::descriptor::up_to;
use crate::engine::{
    self, Counts, Descriptor, Engine, Enumeration, Job, Limits, Outcome, Stats, Visit,
};

/// The largest board the exact cover methods build (their matrices grow as n²).
pub const MAX_N: u32 = 1000;

/// The `dlx` method's row: diagonals as secondary items ([`Encoding::Secondary`]).
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "dlx",
    about: || {
        format!(
            "exact cover with dancing links, diagonals as secondary items ({})",
            up_to(MAX_N)
        )
    },
    max_n: Some(MAX_N),
    jobs: engine::ALL_JOBS,
    takes_blocks: true,
    on_page: true,
    traceable: true,
    build: |_, _, config| build(Encoding::Secondary, config),
    count_pace: None,
};

/// The `dlx-gadgets` method's row: every item primary ([`Encoding::Gadgets`]).
pub static GADGETS: Descriptor = Descriptor {
    name: "dlx-gadgets",
    about: || {
        format!(
            "exact cover, every item primary plus one gadget option per diagonal; slow to a \
             first solution beyond n ≈ 20 ({})",
            up_to(MAX_N)
        )
    },
    traceable: false,
    build: |_, _, config| build(Encoding::Gadgets, config),
    ..DESCRIPTOR
};

/// The engine of either row, with the seed and limits of `config`.
fn build(encoding: Encoding, config: &engine::Config) -> Box<dyn Engine> {
    let mut engine = Dlx::new(encoding, config.seed);
    engine.limits = config.limits.clone();
    Box::new(engine)
}

/// The seed [`Dlx::solve`] uses when none is configured, so runs repeat.
pub const DEFAULT_SEED: u64 = 0x005E_ED0F_D1A6;

/// How "at most one queen per diagonal" is expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Diagonals are secondary items (method `dlx`).
    Secondary,
    /// Every item is primary; one gadget option per diagonal covers it alone (method
    /// `dlx-gadgets`).
    Gadgets,
}

/// An N-Queens problem as an exact cover problem.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The exact cover problem.
    pub problem: nqueens_exact_cover::Problem,
    /// The board size.
    pub n: u32,
    /// The options of the fixed queens, to preselect.
    pub fixed: Vec<OptionId>,
    /// By option: the square of each queen option (the options after them are gadgets).
    squares: Vec<Queen>,
}

/// The rows (or columns) 0..n from the middle outwards: ⌊n/2⌋, ⌊n/2⌋ − 1, ⌊n/2⌋ + 1, ...
///
/// ```
/// assert_eq!(nqueens_solver::engines::dlx::organ_pipe(5), [2, 1, 3, 0, 4]);
/// assert_eq!(nqueens_solver::engines::dlx::organ_pipe(4), [2, 1, 3, 0]);
/// ```
pub fn organ_pipe(n: u32) -> Vec<u32> {
    let mid = n / 2;
    let mut order = Vec::with_capacity(n as usize);
    for k in 0..n {
        // k = 0, 1, 2, 3, ... visits mid, mid - 1, mid + 1, mid - 2, ...; the low side
        // reaches 0 when k = 2·mid − 1 ≤ n − 1, so it never goes below 0, and only the last
        // high step may fall off the board (n even).
        let step = k.div_ceil(2);
        let line = if k % 2 == 1 { mid - step } else { mid + step };
        if line < n {
            order.push(line);
        }
    }
    debug_assert_eq!(order.len(), n as usize);
    order
}

/// Encodes `problem` (fixed queens become preselected options).
///
/// # Panics
/// If n exceeds [`MAX_N`] (engines check first).
pub fn encode(problem: &Problem, encoding: Encoding) -> Instance {
    let n = problem.n();
    assert!(n <= MAX_N, "the exact cover encodings handle n ≤ {MAX_N}");
    let mut b = nqueens_exact_cover::Problem::builder();
    let declare = |b: &mut nqueens_exact_cover::Builder, name: String, primary: bool| {
        if primary {
            b.primary(&name)
        } else {
            b.secondary(&name)
        }
        .expect("generated names are valid and distinct")
    };
    let size = n as usize;
    let mut rows = vec![nqueens_exact_cover::ItemId(0); size];
    let mut cols = vec![nqueens_exact_cover::ItemId(0); size];
    for line in organ_pipe(n) {
        rows[line as usize] = declare(&mut b, Line::Row(line).name(), true);
        cols[line as usize] = declare(&mut b, Line::Column(line).name(), true);
    }
    let diagonals_primary = encoding == Encoding::Gadgets;
    // Anti-diagonal r + c (0..2n-1), diagonal r - c + n - 1 (0..2n-1).
    let anti: Vec<_> = (0..2 * n - 1)
        .map(|s| declare(&mut b, Line::AntiDiagonal(s).name(), diagonals_primary))
        .collect();
    let diag: Vec<_> = (0..2 * n - 1)
        .map(|d| {
            let line = Line::Diagonal(d as i32 - (n as i32 - 1));
            declare(&mut b, line.name(), diagonals_primary)
        })
        .collect();
    // One option per square that is not blocked, in row-major order.
    let mut squares = Vec::with_capacity(size * size);
    for r in 0..size {
        for c in 0..size {
            if problem.is_blocked(r as u32, c as u32) {
                continue;
            }
            b.option([rows[r], cols[c], anti[r + c], diag[r + size - 1 - c]])
                .expect("four distinct items, two primary");
            squares.push(Queen::new(r as u32, c as u32));
        }
    }
    if diagonals_primary {
        for &item in anti.iter().chain(&diag) {
            b.option([item]).expect("a primary item");
        }
    }
    let fixed = problem
        .fixed()
        .iter()
        .map(|q| {
            let option = squares
                .binary_search(q)
                .expect("a fixed queen's square is never blocked");
            OptionId(option as u32)
        })
        .collect();
    Instance {
        problem: b.build(),
        n,
        fixed,
        squares,
    }
}

/// A line of the board, as an item of the encodings names it (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A row.
    Row(u32),
    /// A column.
    Column(u32),
    /// The anti-diagonal of the squares whose row + column is this.
    AntiDiagonal(u32),
    /// The diagonal of the squares whose row − column is this.
    Diagonal(i32),
}

impl Line {
    /// The item's name in the encodings (and so in `xc-export`'s files and the replays):
    /// `r3` and `c5` for row 3 and column 5, `a8` for the anti-diagonal whose squares' ROW + COL
    /// is 8, `b-2` for the diagonal whose squares' ROW − COL is −2, rows and columns 1-based.
    ///
    /// ```
    /// use nqueens_solver::engines::dlx::Line;
    /// assert_eq!(Line::Row(4).name(), "r5");
    /// assert_eq!(Line::Column(2).name(), "c3");
    /// assert_eq!(Line::AntiDiagonal(0).name(), "a2");
    /// assert_eq!(Line::Diagonal(-2).name(), "b-2");
    /// ```
    pub fn name(self) -> String {
        match self {
            Line::Row(r) => format!("r{}", u64::from(r) + 1),
            Line::Column(c) => format!("c{}", u64::from(c) + 1),
            Line::AntiDiagonal(s) => format!("a{}", u64::from(s) + 2),
            Line::Diagonal(d) => format!("b{d}"),
        }
    }
}

/// One step of the exact cover search on the board, as [`Dlx::trace`] reports it: the
/// `exact-cover` engine's own steps, its items read as lines and its options as squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStep<'a> {
    /// A node: the search branches on the line with the fewest squares left, at `level`
    /// (counted from 0), and covers it.
    Branch {
        /// The depth.
        level: usize,
        /// The line branched on.
        line: Line,
    },
    /// The search tries a square of the line branched on at `level` (`None`: a gadget, in
    /// the gadget encoding), covering the option's other lines; it is taken back before the
    /// level's next square, or at the level's back-up.
    Try {
        /// The depth.
        level: usize,
        /// The queen's square.
        square: Option<Queen>,
    },
    /// Every square of the line branched on at `level` was tried: the line is uncovered.
    BackUp {
        /// The depth.
        level: usize,
    },
    /// A solution.
    Solution(&'a Solution),
}

/// Turns the exact cover engine's steps into [`TraceStep`]s for a watcher.
struct Watcher<'a, W> {
    instance: &'a Instance,
    watch: &'a mut W,
    /// Whether to go on after a solution.
    all: bool,
}

impl<W: FnMut(TraceStep<'_>)> nqueens_exact_cover::Observer for Watcher<'_, W> {
    fn branch(&mut self, level: usize, item: nqueens_exact_cover::ItemId) {
        let line = self.instance.line(item);
        (self.watch)(TraceStep::Branch { level, line });
    }

    fn try_option(&mut self, level: usize, option: OptionId) {
        let square = self.instance.square(option);
        (self.watch)(TraceStep::Try { level, square });
    }

    fn back_up(&mut self, level: usize) {
        (self.watch)(TraceStep::BackUp { level });
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        (self.watch)(TraceStep::Solution(&self.instance.decode(options)));
        if self.all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

impl Instance {
    /// The line an item stands for, read from its name (`r3`, `c5`, `a7`, `b-2`, 1-based as
    /// [`encode`] writes them).
    pub fn line(&self, item: nqueens_exact_cover::ItemId) -> Line {
        let name = &self.problem.item(item).name;
        let (kind, number) = name.split_at(1);
        let number: i64 = number
            .parse()
            .expect("encode names items by a letter and a number");
        match kind {
            "r" => Line::Row(number as u32 - 1),
            "c" => Line::Column(number as u32 - 1),
            "a" => Line::AntiDiagonal(number as u32 - 2),
            _ => Line::Diagonal(number as i32),
        }
    }

    /// The board a solution's options describe (gadgets are skipped).
    pub fn decode(&self, options: &[OptionId]) -> Solution {
        let mut columns = vec![0u32; self.n as usize];
        for &option in options {
            if let Some(q) = self.square(option) {
                columns[q.row as usize] = q.col;
            }
        }
        Solution::from_columns(columns)
    }

    /// The square of a queen option, `None` for a gadget.
    pub fn square(&self, option: OptionId) -> Option<Queen> {
        self.squares.get(option.0 as usize).copied()
    }

    /// A solver with the fixed queens preselected, in Knuth's order or a seeded random one, on
    /// the engine `engine` picks ([`EngineChoice::Bits`] on a board too large for it falls
    /// back to dancing links; [`Solver::engine`] says which runs).
    pub fn solver(&self, seed: Option<u64>, engine: EngineChoice) -> Solver {
        let config = Config {
            seed,
            engine,
            ..Config::default()
        };
        let links = Config {
            engine: EngineChoice::Links,
            ..config
        };
        let mut solver = Solver::configured(&self.problem, config)
            .or_else(|_| Solver::configured(&self.problem, links))
            .expect("dancing links takes every problem");
        for &option in &self.fixed {
            solver
                .select(option)
                .expect("fixed queens of a valid problem never attack each other");
        }
        solver
    }

    /// The instance with the fixed queens built in, for solvers that cannot preselect (a file
    /// in Knuth's format): only the options of squares that no fixed queen attacks remain,
    /// besides the fixed queens' own (and the gadgets).
    pub fn without_preselection(&self) -> nqueens_exact_cover::Problem {
        let fixed: Vec<Queen> = self.fixed.iter().filter_map(|&o| self.square(o)).collect();
        let attacked = |q: Queen| {
            fixed.iter().any(|f| {
                *f != q
                    && (f.row == q.row
                        || f.col == q.col
                        || f.row + q.col == q.row + f.col
                        || f.row + f.col == q.row + q.col)
            })
        };
        let mut b = nqueens_exact_cover::Problem::builder();
        for item in self.problem.items() {
            match item.kind {
                nqueens_exact_cover::ItemKind::Primary => b.primary(&item.name),
                nqueens_exact_cover::ItemKind::Secondary => b.secondary(&item.name),
            }
            .expect("the names were valid");
        }
        for option in self.problem.option_ids() {
            if self.square(option).is_some_and(attacked) {
                continue;
            }
            b.option(self.problem.option(option).iter().copied())
                .expect("the option was valid");
        }
        b.build()
    }
}

/// The exact cover engine, in either encoding.
#[derive(Clone, Debug)]
pub struct Dlx {
    /// The encoding.
    pub encoding: Encoding,
    /// `None`: Knuth's order for enumeration and counting, [`DEFAULT_SEED`] for `solve`.
    pub seed: Option<u64>,
    /// Which exact cover engine searches: [`EngineChoice::Auto`] unless changed, which counts
    /// and enumerates on bit sets where the board fits, and finds first solutions by dancing
    /// links (about n nodes in the seeded order, far less than building the bit engine's
    /// tables: 0.01 against 0.14 CPU seconds at n = 120).
    pub engine: EngineChoice,
    /// When to give up (the node budget counts the exact cover search's nodes).
    pub limits: Limits,
    stats: Stats,
}

impl Dlx {
    /// An engine with this encoding and seed.
    pub fn new(encoding: Encoding, seed: Option<u64>) -> Self {
        Dlx {
            encoding,
            seed,
            engine: EngineChoice::Auto,
            limits: Limits::default(),
            stats: Stats::default(),
        }
    }

    /// Records the solver's counters: `nodes` and `solutions`, then `updates` for dancing
    /// links or `bit_engine` = 1 for the bit engine.
    fn record(&mut self, solver: &Solver) {
        let s = solver.stats();
        self.stats = Stats::default();
        self.stats.set("nodes", u128::from(s.nodes));
        self.stats.set("solutions", u128::from(s.solutions));
        match solver.engine() {
            nqueens_exact_cover::Engine::Links => self.stats.set("updates", u128::from(s.updates)),
            nqueens_exact_cover::Engine::Bits => self.stats.set("bit_engine", 1),
        }
    }
}

impl Dlx {
    /// The error of a search that a limit ended.
    fn stopped(&self, stopped: nqueens_exact_cover::Stopped) -> EngineError {
        EngineError::Stopped {
            method: self.name(),
            stopped,
        }
    }
}

impl Dlx {
    /// The search of `solve` (`all` false: to the first solution, in the seeded order on
    /// dancing links) or of `for_each` (`all`: every solution, on the configured engine), with
    /// the same settings and so the same nodes, calling `watch` at every step the exact cover
    /// engine takes (one [`TraceStep::Branch`] per node) and at every solution. For replaying
    /// the search step by step (the web page does); [`Engine::stats`] then has its counters,
    /// and a limit reached is [`EngineError::Stopped`].
    pub fn trace(
        &mut self,
        problem: &Problem,
        all: bool,
        watch: &mut impl FnMut(TraceStep<'_>),
    ) -> Result<Enumeration, EngineError> {
        self.check(crate::engine::trace_job(all).0, problem)?;
        let instance = encode(problem, self.encoding);
        let mut solver = if all {
            instance.solver(self.seed, self.engine)
        } else {
            self.first_solver(problem, &instance)
        };
        solver.set_limits(self.limits.clone());
        let mut watcher = Watcher {
            instance: &instance,
            watch,
            all,
        };
        let end = solver.observe(&mut watcher);
        self.record(&solver);
        Ok(end.map_err(|stopped| self.stopped(stopped))?.into())
    }

    /// The solver a first solution of `problem` is searched with: the configured seed (or
    /// [`DEFAULT_SEED`]) on dancing links under [`EngineChoice::Auto`] (see [`Dlx::engine`]).
    /// A board with blocked squares without a configured seed is the exception: its answer
    /// takes up to tens of millions of nodes (most boards of the ASP competitions' set have
    /// no solution to find, only a proof), so it is searched in the declared order on the
    /// engine [`EngineChoice::Auto`] picks, the bit engine where the board fits, 2.6–3× faster
    /// there than the seeded search on dancing links (docs/notes/blocked-boards.md).
    /// [`Dlx::solve`] hands that search to [`bitboard`] where it can: the same tree again.
    /// The search of [`bitboard`] for a first solution of `problem`, where it visits the tree
    /// [`Dlx::first_solver`] would (a board with blocked squares, no seed, the default
    /// engine choice and encoding) faster than the bit engine (n ≤ 64, AVX2).
    fn board_search(&self, problem: &Problem) -> Option<BoardSearch> {
        let same_tree = self.seed.is_none()
            && !problem.blocked().is_empty()
            && self.engine == EngineChoice::Auto
            && self.encoding == Encoding::Secondary;
        if !same_tree {
            return None;
        }
        BoardSearch::new(problem, &organ_pipe(problem.n()))
    }

    fn first_solver(&self, problem: &Problem, instance: &Instance) -> Solver {
        if self.seed.is_none() && !problem.blocked().is_empty() {
            return instance.solver(None, self.engine);
        }
        let engine = match self.engine {
            EngineChoice::Auto => EngineChoice::Links,
            chosen => chosen,
        };
        instance.solver(Some(self.seed.unwrap_or(DEFAULT_SEED)), engine)
    }
}

impl Engine for Dlx {
    fn descriptor(&self) -> &'static Descriptor {
        match self.encoding {
            Encoding::Secondary => &DESCRIPTOR,
            Encoding::Gadgets => &GADGETS,
        }
    }

    fn for_each(
        &mut self,
        problem: &Problem,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        self.check(Job::List, problem)?;
        let instance = encode(problem, self.encoding);
        let mut solver = instance.solver(self.seed, self.engine);
        solver.set_limits(self.limits.clone());
        let end = solver.for_each(|options| visit(&instance.decode(options)));
        self.record(&solver);
        Ok(end.map_err(|stopped| self.stopped(stopped))?.into())
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        if let Some(mut search) = self.board_search(problem) {
            let result = search.solve(&self.limits);
            self.stats = Stats::default();
            self.stats.set("nodes", u128::from(search.nodes()));
            self.stats
                .set("solutions", u128::from(matches!(result, Ok(Some(_)))));
            self.stats.set("board_engine", 1);
            return match result {
                Ok(Some(solution)) => Ok(Outcome::Found(solution)),
                Ok(None) => Ok(Outcome::NoSolution),
                Err(reason) => Err(EngineError::stopped_by(self.name(), reason, 0)),
            };
        }
        let instance = encode(problem, self.encoding);
        let mut solver = self.first_solver(problem, &instance);
        solver.set_limits(self.limits.clone());
        // One order, seeded or declared (an unseeded `first` would race other orders).
        let found = solver.solutions().next().transpose();
        self.record(&solver);
        match found {
            Ok(Some(options)) => Ok(Outcome::Found(instance.decode(&options))),
            Ok(None) => Ok(Outcome::NoSolution),
            Err(stopped) => Err(self.stopped(stopped)),
        }
    }

    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        self.check(if unique { Job::CountUnique } else { Job::Count }, problem)?;
        if unique {
            // Symmetry classes need the boards: enumerate.
            return crate::engine::count_by_enumeration(self, problem, true);
        }
        let instance = encode(problem, self.encoding);
        let mut solver = instance.solver(self.seed, self.engine);
        solver.set_limits(self.limits.clone());
        let total = solver.count();
        self.record(&solver);
        let total = total.map_err(|stopped| self.stopped(stopped))?;
        Ok(Counts {
            total,
            unique: None,
        })
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}
