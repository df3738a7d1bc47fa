//! The baseline engine: bitboard backtracking, one row at a time.
//!
//! This is the classic algorithm with its dictionaries of attacked columns and diagonals turned
//! into three `u64` masks. Bit `c` of a mask stands for column `c` of the row being filled:
//! `columns` marks columns already taken, `left` the squares attacked along diagonals going
//! down-left from queens above, `right` those going down-right. Moving to the next row shifts
//! `left` one column left and `right` one column right, so the squares still free in a row are
//! `allowed[row] & !(columns | left | right)`, and the next queen is the lowest set bit.
//!
//! Fixed queens (the completion variant) are folded into `allowed`: a row with a fixed queen
//! allows only its square, and every other row loses the squares the fixed queens attack, so the
//! search never needs to look ahead for them. Blocked squares leave `allowed` the same way.
//!
//! The search is iterative: an explicit stack holds one frame (the three masks and the squares
//! left to try) per row, so depth never touches the call stack. Each node costs O(1) word
//! operations. Solutions come out in lexicographic order of their column lists.
//!
//! Deliberately plain: no symmetry, no lookahead, no last-row shortcut. It is the honest
//! reference the faster counter is measured against. Boards up to n = 64 fit the masks; larger
//! boards are refused with [`EngineError::TooLarge`] (the construction, local search, CP and SAT
//! methods handle them).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::symmetry;
use crate::board::{Problem, Solution};
use crate::engine::EngineError;
use crate::engine::descriptor::up_to;
use crate::engine::{
    self, Budget, CountPace, Counts, Descriptor, Engine, Enumeration, Job, LimitReached, Limits,
    Progress, ProgressSink, Stats, Visit,
};

/// The largest board the masks hold.
pub const MAX_N: u32 = 64;

/// Queens plain backtracking places per second per thread (1.14·10⁹ in 16.9 s counting
/// n = 16 on one thread, release build, the project's 2-core benchmark box).
pub const NODES_PER_SECOND: f64 = 6.8e7;

/// The `backtrack` method's row.
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "backtrack",
    about: || {
        format!(
            "bitboard backtracking, row by row ({}); the honest baseline",
            up_to(MAX_N)
        )
    },
    max_n: Some(MAX_N),
    jobs: engine::ALL_JOBS,
    takes_blocks: true,
    on_page: true,
    traceable: true,
    build: |_, _, config| {
        let mut engine = Backtrack::new(config.threads);
        engine.progress = config.progress.clone();
        engine.limits = config.limits.clone();
        Box::new(engine)
    },
    count_pace: Some(CountPace {
        nodes_per_second: NODES_PER_SECOND,
        how: "by plain backtracking",
        splits_first_row: true,
    }),
};

/// Bitboard backtracking. `threads` applies to counting, which splits the work by the square of
/// the first row's queen; enumeration is sequential so solutions keep their order.
#[derive(Clone, Debug)]
pub struct Backtrack {
    /// Worker threads for `count` (at least 1).
    pub threads: usize,
    /// Where `count` reports each finished task.
    pub progress: Option<ProgressSink>,
    /// When to give up; the node budget counts queens placed (per thread when counting).
    pub limits: Limits,
    stats: Stats,
}

impl Default for Backtrack {
    fn default() -> Self {
        Backtrack::new(1)
    }
}

impl Backtrack {
    /// An engine that counts with `threads` threads (0 is taken as 1).
    pub fn new(threads: usize) -> Self {
        Backtrack {
            threads: threads.max(1),
            progress: None,
            limits: Limits::default(),
            stats: Stats::default(),
        }
    }
}

/// The board as the search sees it.
struct Board {
    n: usize,
    /// The squares each row may use at all: everything, or only the fixed queen's square,
    /// minus the squares fixed queens attack.
    allowed: Vec<u64>,
}

impl Board {
    fn new(problem: &Problem) -> Self {
        let n = problem.n() as usize;
        debug_assert!(n as u32 <= MAX_N);
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let allowed = (0..n)
            .map(|row| {
                if let Some(col) = problem.fixed_column(row as u32) {
                    return 1u64 << col;
                }
                let mut attacked = 0u64;
                for fixed in problem.fixed() {
                    let (fr, fc) = (fixed.row as i64, fixed.col as i64);
                    let distance = row as i64 - fr;
                    for col in [fc, fc - distance, fc + distance] {
                        if (0..n as i64).contains(&col) {
                            attacked |= 1u64 << col;
                        }
                    }
                }
                full & !attacked
            })
            .collect::<Vec<u64>>();
        let mut allowed = allowed;
        for square in problem.blocked() {
            allowed[square.row as usize] &= !(1u64 << square.col);
        }
        Board { n, allowed }
    }
}

/// An estimate of the queens a full search of `problem` places (the `nodes` it reports), by
/// Knuth's random probes ("Estimating the efficiency of backtrack programs", 1975): a probe
/// walks one random path down the search tree, and the sum over its rows of the product of
/// the branching factors met so far is an unbiased estimate of the tree's size. `probes` of
/// them are averaged; each costs O(n) word operations. The spread is large on irregular trees
/// (an order of magnitude is what a warning needs).
pub fn estimate_nodes(problem: &Problem, probes: u32, seed: u64) -> f64 {
    let board = Board::new(problem);
    let mut rng = nqueens_support::SplitMix64::new(seed);
    let mut sum = 0.0;
    for _ in 0..probes {
        let (mut columns, mut left, mut right) = (0u64, 0u64, 0u64);
        let mut product = 1.0;
        for row in 0..board.n {
            let free = board.allowed[row] & !(columns | left | right);
            let choices = free.count_ones();
            if choices == 0 {
                break;
            }
            product *= f64::from(choices);
            sum += product;
            let mut rest = free;
            for _ in 0..rng.below(choices) {
                rest &= rest - 1;
            }
            let bit = rest & rest.wrapping_neg();
            columns |= bit;
            left = (left | bit) << 1;
            right = (right | bit) >> 1;
        }
    }
    sum / f64::from(probes.max(1))
}

/// One row's state on the explicit stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    columns: u64,
    left: u64,
    right: u64,
    /// Squares of this row not tried yet.
    untried: u64,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Every solution below the prefix was visited.
    Complete,
    /// The visitor stopped it.
    Stopped,
    /// A limit of the budget stopped it.
    GaveUp(LimitReached),
}

/// What [`search`] reports: each solution and, when [`Watch::PLACES`], each queen placed.
trait Watch {
    /// Whether [`Watch::place`] wants to hear of every queen (false: the calls are compiled
    /// out).
    const PLACES: bool;

    /// A node: the queen of `row` goes on `col` (0-based), replacing the queens of rows
    /// `row..` placed before.
    #[inline(always)]
    fn place(&mut self, _row: u32, _col: u32) {}

    /// A solution's columns; `Break` stops the search.
    fn solution(&mut self, columns: &[u32]) -> ControlFlow<()>;
}

/// The searches nobody watches: solutions alone.
impl<F: FnMut(&[u32]) -> ControlFlow<()>> Watch for F {
    const PLACES: bool = false;

    #[inline(always)]
    fn solution(&mut self, columns: &[u32]) -> ControlFlow<()> {
        self(columns)
    }
}

/// One step of the search, as [`Backtrack::trace`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStep<'a> {
    /// A node: the queen of `row` goes on `col` (0-based); the queens of the rows below it,
    /// placed before, are gone.
    Place {
        /// The row (0-based).
        row: u32,
        /// The column (0-based).
        col: u32,
    },
    /// A solution.
    Solution(&'a Solution),
}

/// Hands every step to a watcher, going on after a solution when `all`.
struct Tracer<'a, W> {
    watch: &'a mut W,
    all: bool,
}

impl<W: FnMut(TraceStep<'_>)> Watch for Tracer<'_, W> {
    const PLACES: bool = true;

    fn place(&mut self, row: u32, col: u32) {
        (self.watch)(TraceStep::Place { row, col });
    }

    fn solution(&mut self, columns: &[u32]) -> ControlFlow<()> {
        (self.watch)(TraceStep::Solution(&Solution::from_columns(
            columns.to_vec(),
        )));
        if self.all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// Depth-first search below the queens in `prefix` (the columns of rows `0..prefix.len()`,
/// already known to be legal). Tells `watch` each solution's columns (and each queen placed,
/// if it asks) and polls `budget` at every node (a counter compare; the clock every
/// [`Budget::POLL_EVERY`] nodes). Returns the number of queens placed (nodes) and how the
/// search ended.
fn search<W: Watch>(
    board: &Board,
    prefix: &[u32],
    budget: &mut Budget,
    watch: &mut W,
) -> (u64, End) {
    let n = board.n;
    let start = prefix.len();
    let mut placed = vec![0u32; n];
    placed[..start].copy_from_slice(prefix);
    let (mut columns, mut left, mut right) = (0u64, 0u64, 0u64);
    for &col in prefix {
        let bit = 1u64 << col;
        columns |= bit;
        left = (left | bit) << 1;
        right = (right | bit) >> 1;
    }
    if start == n {
        return match watch.solution(&placed) {
            ControlFlow::Continue(()) => (0, End::Complete),
            ControlFlow::Break(()) => (0, End::Stopped),
        };
    }

    let mut nodes = 0u64;
    let mut stack = vec![Frame::default(); n];
    stack[start] = Frame {
        columns,
        left,
        right,
        untried: board.allowed[start] & !(columns | left | right),
    };
    let mut row = start;
    loop {
        let frame = &mut stack[row];
        if frame.untried == 0 {
            if row == start {
                return (nodes, End::Complete);
            }
            row -= 1;
            continue;
        }
        let bit = frame.untried & frame.untried.wrapping_neg();
        frame.untried ^= bit;
        if let Err(reached) = budget.check(nodes) {
            return (nodes, End::GaveUp(reached));
        }
        nodes += 1;
        let col = bit.trailing_zeros();
        placed[row] = col;
        if W::PLACES {
            watch.place(row as u32, col);
        }
        if row + 1 == n {
            if watch.solution(&placed).is_break() {
                return (nodes, End::Stopped);
            }
            continue;
        }
        let columns = frame.columns | bit;
        let left = (frame.left | bit) << 1;
        let right = (frame.right | bit) >> 1;
        row += 1;
        stack[row] = Frame {
            columns,
            left,
            right,
            untried: board.allowed[row] & !(columns | left | right),
        };
    }
}

impl Backtrack {
    /// The search of `solve` (`all` false: to the first solution) or of `for_each` (`all`:
    /// every solution), calling `watch` at every queen placed (one [`TraceStep::Place`] per
    /// node) and at every solution. For replaying the search step by step (the web page
    /// does); [`Engine::stats`] then has its counters, and a limit reached is
    /// [`EngineError::Stopped`].
    pub fn trace(
        &mut self,
        problem: &Problem,
        all: bool,
        watch: &mut impl FnMut(TraceStep<'_>),
    ) -> Result<Enumeration, EngineError> {
        self.check(crate::engine::trace_job(all).0, problem)?;
        self.enumerate(problem, &mut Tracer { watch, all })
    }

    /// The search of [`Engine::for_each`] and [`Backtrack::trace`].
    fn enumerate(
        &mut self,
        problem: &Problem,
        watch: &mut impl Watch,
    ) -> Result<Enumeration, EngineError> {
        let board = Board::new(problem);
        let mut solutions = 0u128;
        let mut budget = Budget::start(&self.limits);
        let (nodes, end) = search(
            &board,
            &[],
            &mut budget,
            &mut Counted {
                watch,
                solutions: &mut solutions,
            },
        );
        self.stats = Stats::default();
        self.stats.set("nodes", u128::from(nodes));
        self.stats.set("solutions", solutions);
        match end {
            End::Complete => Ok(Enumeration::Complete),
            End::Stopped => Ok(Enumeration::Stopped),
            End::GaveUp(reason) => Err(EngineError::stopped_by(self.name(), reason, solutions)),
        }
    }
}

/// A watcher that also counts the solutions.
struct Counted<'a, W> {
    watch: &'a mut W,
    solutions: &'a mut u128,
}

impl<W: Watch> Watch for Counted<'_, W> {
    const PLACES: bool = W::PLACES;

    #[inline(always)]
    fn place(&mut self, row: u32, col: u32) {
        self.watch.place(row, col);
    }

    #[inline(always)]
    fn solution(&mut self, columns: &[u32]) -> ControlFlow<()> {
        *self.solutions += 1;
        self.watch.solution(columns)
    }
}

impl Engine for Backtrack {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn for_each(
        &mut self,
        problem: &Problem,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, EngineError> {
        self.check(Job::List, problem)?;
        self.enumerate(problem, &mut |columns: &[u32]| {
            visit(&Solution::from_columns(columns.to_vec()))
        })
    }

    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        self.check(if unique { Job::CountUnique } else { Job::Count }, problem)?;
        let board = Board::new(problem);
        let group = unique.then(|| symmetry::Group::of(problem));
        // One task per square the first row allows; threads take tasks in order.
        let first_row: Vec<u32> = (0..board.n as u32)
            .filter(|&c| board.allowed[0] >> c & 1 == 1)
            .collect();
        let next_task = AtomicUsize::new(0);
        // Sums over finished tasks, and the number of them, for the total and for progress.
        let totals = Mutex::new((
            Counts {
                total: 0,
                unique: unique.then_some(0),
            },
            0u64,
            0u64,
        ));
        let progress = self.progress.as_ref();
        let gave_up = Mutex::new(None);
        let budget = Budget::start(&self.limits);
        let worker = || {
            let mut budget = budget.clone();
            loop {
                if let Err(reached) = budget.check_now() {
                    *gave_up.lock().expect("no worker panics holding it") = Some(reached);
                    break;
                }
                let task = next_task.fetch_add(1, Ordering::Relaxed);
                let Some(&col) = first_row.get(task) else {
                    break;
                };
                let mut counts = Counts {
                    total: 0,
                    unique: unique.then_some(0),
                };
                let (nodes, end) = search(&board, &[col], &mut budget, &mut |columns: &[u32]| {
                    counts.total += 1;
                    if let (Some(u), Some(group)) = (counts.unique.as_mut(), &group) {
                        *u += u128::from(
                            group.is_canonical(&Solution::from_columns(columns.to_vec())),
                        );
                    }
                    ControlFlow::Continue(())
                });
                let mut totals = totals
                    .lock()
                    .expect("no worker panics while holding the lock");
                if let End::GaveUp(reached) = end {
                    // The task's solutions so far count towards what the stop found.
                    totals.0.total += counts.total;
                    *gave_up.lock().expect("no worker panics holding it") = Some(reached);
                    break;
                }
                totals.0.total += counts.total;
                if let (Some(sum), Some(part)) = (totals.0.unique.as_mut(), counts.unique) {
                    *sum += part;
                }
                totals.1 += nodes + 1;
                totals.2 += 1;
                if let Some(sink) = progress {
                    sink.report(&Progress {
                        done: totals.2,
                        total: Some(first_row.len() as u64),
                        solutions: totals.0.total,
                        nodes: u128::from(totals.1),
                        ..Progress::default()
                    });
                }
            }
        };
        let threads = self.threads.min(first_row.len()).max(1);
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(worker);
            }
            worker();
        });
        let (counts, nodes, _) = totals.into_inner().expect("workers finished");
        self.stats = Stats::default();
        self.stats.set("nodes", u128::from(nodes));
        self.stats.set("tasks", first_row.len() as u128);
        if let Some(reason) = gave_up.into_inner().expect("workers finished") {
            return Err(EngineError::stopped_by(self.name(), reason, counts.total));
        }
        Ok(counts)
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}
