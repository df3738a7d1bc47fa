//! Step-by-step records of three searches, for the page's replay: what each method does to the
//! board, one event at a time.
//!
//! The library's engines are built for speed (bitboards, packed links, learnt clauses) and do
//! not report single steps, so the replay re-runs each method's search here, in its textbook
//! form, small enough to read next to the write-ups:
//!
//! - **backtrack**: row by row, columns left to right (the order of the library's bitboard
//!   search, which takes the lowest free bit first): `place` and `remove` a queen;
//! - **dlx**: Knuth's Algorithm X on the library's exact-cover encoding (rows and columns
//!   primary, diagonals secondary), branching on the primary item with fewest options: `cover`
//!   and `uncover` items (`R3`, `C5`, `D2` for row − column, `A7` for row + column, 1-based
//!   lines counted from the top-left corner), `place` and `remove` the option's queen;
//! - **cp**: one variable per row, first-fail branching (the smallest domain, ties to the top
//!   row), forward checking of the three all-different constraints: after each `assign` and
//!   `undo`, every row's domain as a bit mask of columns.
//!
//! A search stops at its first solution, or with `all` at the end of the search; each trace
//! holds at most [`MAX_EVENTS`] events (`truncated` says when the rest was cut). The tests hold
//! each trace to the library: the solutions it meets are those the engines count.

use nqueens::{Problem, Queen};
use serde::Serialize;

/// The largest board a replay takes (domains travel as 32-bit masks).
pub const MAX_N: u32 = 16;
/// The most events one trace holds.
pub const MAX_EVENTS: usize = 200_000;

/// The methods the replay shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Row-by-row backtracking.
    Backtrack,
    /// Algorithm X with dancing links.
    Dlx,
    /// Constraint programming.
    Cp,
}

impl Method {
    /// The method called `name`, or a one-line reason.
    pub fn parse(name: &str) -> Result<Method, String> {
        match name {
            "backtrack" => Ok(Method::Backtrack),
            "dlx" => Ok(Method::Dlx),
            "cp" => Ok(Method::Cp),
            _ => Err(format!(
                "the replay shows backtrack, dlx and cp, not '{name}'"
            )),
        }
    }
}

/// One step of a search (rows `r` and columns `c` 0-based; domains `d` one mask per row, bit
/// `c` set while column `c` is possible).
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    /// A queen goes on (row, col), 0-based.
    Place { r: u32, c: u32 },
    /// The queen on (row, col) is taken back.
    Remove { r: u32, c: u32 },
    /// Algorithm X covers an item.
    Cover { item: String },
    /// Algorithm X uncovers an item.
    Uncover { item: String },
    /// CP assigns row `r` the column `c`; `d` are the domains after forward checking.
    Assign { r: u32, c: u32, d: Vec<u32> },
    /// CP takes back the assignment of row `r` and removes `c` from its domain; `d` as above.
    Undo { r: u32, c: u32, d: Vec<u32> },
    /// A domain became empty, or an item has no option left: back up.
    Fail,
    /// Every row has its queen.
    Solution,
}

/// A recorded search.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    /// The board size.
    pub n: u32,
    /// The domains before the search (CP only; empty otherwise).
    pub start: Vec<u32>,
    /// The steps, in order.
    pub events: Vec<Event>,
    /// Nodes: queens placed (options tried, values assigned).
    pub nodes: u64,
    /// Solutions met.
    pub solutions: u64,
    /// Whether the search went on beyond [`MAX_EVENTS`] and was cut.
    pub truncated: bool,
}

struct Recorder {
    trace: Trace,
    all: bool,
}

impl Recorder {
    /// Records `event`; false when the trace is full.
    fn push(&mut self, event: Event) -> bool {
        if self.trace.events.len() >= MAX_EVENTS {
            self.trace.truncated = true;
            return false;
        }
        self.trace.events.push(event);
        true
    }

    /// Records a solution; false when the search should stop.
    fn solution(&mut self) -> bool {
        self.trace.solutions += 1;
        self.push(Event::Solution) && self.all
    }
}

/// The trace of `method` on `problem`, to the first solution or (with `all`) to the end.
pub fn run(method: Method, problem: &Problem, all: bool) -> Result<Trace, String> {
    let n = problem.n();
    if n > MAX_N {
        return Err(format!("the replay takes boards up to n = {MAX_N}"));
    }
    let mut recorder = Recorder {
        trace: Trace {
            n,
            start: Vec::new(),
            events: Vec::new(),
            nodes: 0,
            solutions: 0,
            truncated: false,
        },
        all,
    };
    match method {
        Method::Backtrack => {
            let mut placed = Vec::new();
            backtrack(problem, &mut placed, &mut recorder);
        }
        Method::Dlx => {
            let mut x = AlgorithmX::new(problem);
            for q in problem.fixed() {
                // The fixed queens' options are chosen before the search.
                let option = x.option_of(*q);
                x.select(option);
            }
            x.search(&mut recorder);
        }
        Method::Cp => {
            let mut domains = vec![(1u32 << n) - 1; n as usize];
            for q in problem.fixed() {
                domains[q.row as usize] = 1 << q.col;
            }
            let mut assigned = vec![false; n as usize];
            // The fixed queens are assigned before the search, with their propagation.
            let mut ok = true;
            for q in problem.fixed() {
                assigned[q.row as usize] = true;
                ok &= forward_check(&mut domains, &assigned, *q);
            }
            recorder.trace.start = domains.clone();
            if ok {
                cp(&mut domains, &mut assigned, &mut recorder);
            }
        }
    }
    Ok(recorder.trace)
}

/// Row-by-row backtracking; false when the search should stop.
fn backtrack(problem: &Problem, placed: &mut Vec<u32>, recorder: &mut Recorder) -> bool {
    let n = problem.n();
    let row = placed.len() as u32;
    if row == n {
        return recorder.solution();
    }
    let attacked = |placed: &[u32], col: u32| {
        placed.iter().enumerate().any(|(r, &c)| {
            let dr = row - r as u32;
            c == col || c + dr == col || col + dr == c
        })
    };
    let fixed = problem.fixed_column(row);
    for col in 0..n {
        if fixed.is_some_and(|f| f != col) || attacked(placed, col) {
            continue;
        }
        recorder.trace.nodes += 1;
        if !recorder.push(Event::Place { r: row, c: col }) {
            return false;
        }
        placed.push(col);
        let go_on = backtrack(problem, placed, recorder);
        placed.pop();
        if !go_on || !recorder.push(Event::Remove { r: row, c: col }) {
            return false;
        }
    }
    true
}

/// Algorithm X on the N-Queens exact-cover problem, with sets of live options instead of links
/// (the same operations in the same order, easier to read on a page).
struct AlgorithmX {
    n: u32,
    /// Items: rows 0..n, columns n..2n (primary), diagonals 2n..4n−1, anti-diagonals
    /// 4n−1..6n−2 (secondary).
    covered: Vec<bool>,
    /// Options: one per square, row-major.
    chosen: Vec<u32>,
}

impl AlgorithmX {
    fn new(problem: &Problem) -> Self {
        let n = problem.n();
        AlgorithmX {
            n,
            covered: vec![false; (6 * n).saturating_sub(2) as usize],
            chosen: Vec::new(),
        }
    }

    fn option_of(&self, q: Queen) -> u32 {
        q.row * self.n + q.col
    }

    /// The items of `option`: its row, column, diagonal and anti-diagonal.
    fn items(&self, option: u32) -> [usize; 4] {
        let n = self.n;
        let (r, c) = (option / n, option % n);
        [
            r as usize,
            (n + c) as usize,
            (2 * n + (r + n - 1 - c)) as usize,
            (4 * n - 1 + r + c) as usize,
        ]
    }

    fn name(&self, item: usize) -> String {
        let n = self.n as usize;
        match item {
            i if i < n => format!("R{}", i + 1),
            i if i < 2 * n => format!("C{}", i - n + 1),
            i if i < 4 * n - 1 => format!("D{}", i - 2 * n + 1),
            i => format!("A{}", i - (4 * n - 1) + 1),
        }
    }

    fn live(&self, option: u32) -> bool {
        self.items(option).iter().all(|&i| !self.covered[i])
    }

    /// The live options of primary `item`.
    fn options(&self, item: usize) -> Vec<u32> {
        let n = self.n;
        let squares: Vec<u32> = if item < n as usize {
            (0..n).map(|c| item as u32 * n + c).collect()
        } else {
            (0..n).map(|r| r * n + (item as u32 - n)).collect()
        };
        squares.into_iter().filter(|&o| self.live(o)).collect()
    }

    fn select(&mut self, option: u32) {
        for i in self.items(option) {
            self.covered[i] = true;
        }
        self.chosen.push(option);
    }

    /// Algorithm X; false when the search should stop.
    fn search(&mut self, recorder: &mut Recorder) -> bool {
        let primary = 2 * self.n as usize;
        let Some(item) = (0..primary)
            .filter(|&i| !self.covered[i])
            .min_by_key(|&i| self.options(i).len())
        else {
            return recorder.solution();
        };
        let options = self.options(item);
        if options.is_empty() {
            return recorder.push(Event::Fail);
        }
        if !recorder.push(Event::Cover {
            item: self.name(item),
        }) {
            return false;
        }
        self.covered[item] = true;
        for option in options {
            let (r, c) = (option / self.n, option % self.n);
            recorder.trace.nodes += 1;
            if !recorder.push(Event::Place { r, c }) {
                return false;
            }
            let others: Vec<usize> = self
                .items(option)
                .into_iter()
                .filter(|&i| i != item)
                .collect();
            for &i in &others {
                if !recorder.push(Event::Cover { item: self.name(i) }) {
                    return false;
                }
                self.covered[i] = true;
            }
            let go_on = self.search(recorder);
            for &i in others.iter().rev() {
                self.covered[i] = false;
                if !go_on || !recorder.push(Event::Uncover { item: self.name(i) }) {
                    return false;
                }
            }
            if !recorder.push(Event::Remove { r, c }) {
                return false;
            }
        }
        self.covered[item] = false;
        recorder.push(Event::Uncover {
            item: self.name(item),
        })
    }
}

/// Removes from the unassigned rows' domains the squares queen `q` attacks; false when a domain
/// is left empty.
fn forward_check(domains: &mut [u32], assigned: &[bool], q: Queen) -> bool {
    let mut ok = true;
    for (row, domain) in domains.iter_mut().enumerate() {
        if assigned[row] {
            continue;
        }
        let distance = (row as i64 - i64::from(q.row)).unsigned_abs();
        let mut attacked = 1u32 << q.col;
        for col in [
            i64::from(q.col) - distance as i64,
            i64::from(q.col) + distance as i64,
        ] {
            if (0..32).contains(&col) {
                attacked |= 1 << col;
            }
        }
        *domain &= !attacked;
        ok &= *domain != 0;
    }
    ok
}

/// First-fail search with forward checking; false when the search should stop.
fn cp(domains: &mut Vec<u32>, assigned: &mut Vec<bool>, recorder: &mut Recorder) -> bool {
    let Some(row) = (0..domains.len())
        .filter(|&r| !assigned[r])
        .min_by_key(|&r| domains[r].count_ones())
    else {
        return recorder.solution();
    };
    let saved = domains.clone();
    let mut values = domains[row];
    while values != 0 {
        let col = values.trailing_zeros();
        values &= values - 1;
        recorder.trace.nodes += 1;
        domains[row] = 1 << col;
        assigned[row] = true;
        let ok = forward_check(domains, assigned, Queen::new(row as u32, col));
        if !recorder.push(Event::Assign {
            r: row as u32,
            c: col,
            d: domains.clone(),
        }) {
            return false;
        }
        let go_on = if ok {
            cp(domains, assigned, recorder)
        } else {
            recorder.push(Event::Fail)
        };
        if !go_on {
            return false;
        }
        assigned[row] = false;
        domains.copy_from_slice(&saved);
        // The value failed (or its solutions were seen): it leaves the domain.
        domains[row] = values;
        if !recorder.push(Event::Undo {
            r: row as u32,
            c: col,
            d: domains.clone(),
        }) {
            return false;
        }
    }
    domains.copy_from_slice(&saved);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The solutions a trace meets, read back from its place/remove or assign/undo events.
    fn solutions(problem: &Problem, trace: &Trace) -> BTreeSet<Vec<u32>> {
        let n = trace.n as usize;
        let mut board = vec![u32::MAX; n];
        for q in problem.fixed() {
            // Algorithm X chooses the fixed queens' options before the search, without events.
            board[q.row as usize] = q.col;
        }
        let mut found = BTreeSet::new();
        for event in &trace.events {
            match event {
                Event::Place { r, c } => board[*r as usize] = *c,
                Event::Remove { r, .. } => board[*r as usize] = u32::MAX,
                Event::Assign { d, .. } | Event::Undo { d, .. } => {
                    for (row, &mask) in d.iter().enumerate() {
                        board[row] = if mask.count_ones() == 1 {
                            mask.trailing_zeros()
                        } else {
                            u32::MAX
                        };
                    }
                }
                Event::Solution => {
                    assert!(
                        board.iter().all(|&c| c != u32::MAX),
                        "a solution with an empty row"
                    );
                    found.insert(board.clone());
                }
                _ => {}
            }
        }
        found
    }

    #[test]
    fn every_trace_meets_exactly_the_solutions_the_naive_oracle_knows() {
        let problems = (1..=8).map(|n| Problem::new(n).unwrap()).chain([
            Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap(),
            Problem::with_fixed(7, [Queen::new(2, 3), Queen::new(0, 0)]).unwrap(),
        ]);
        for problem in problems {
            let oracle: BTreeSet<Vec<u32>> = nqueens::board::naive::solutions(&problem)
                .into_iter()
                .map(|s| s.into_columns())
                .collect();
            for method in [Method::Backtrack, Method::Dlx, Method::Cp] {
                let trace = run(method, &problem, true).unwrap();
                assert!(!trace.truncated);
                let found = solutions(&problem, &trace);
                assert_eq!(found, oracle, "{method:?} on n = {}", problem.n());
                assert_eq!(trace.solutions as usize, oracle.len());
            }
        }
    }

    #[test]
    fn dlx_covers_and_uncovers_in_pairs_and_ends_where_it_began() {
        let trace = run(Method::Dlx, &Problem::new(4).unwrap(), true).unwrap();
        let mut open: Vec<&str> = Vec::new();
        for event in &trace.events {
            match event {
                Event::Cover { item } => open.push(item),
                Event::Uncover { item } => assert_eq!(open.pop(), Some(item.as_str())),
                _ => {}
            }
        }
        assert!(open.is_empty());
        assert_eq!(trace.solutions, 2);
        assert!(
            trace
                .events
                .iter()
                .any(|e| matches!(e, Event::Cover { item } if item.starts_with('D')))
        );
    }

    #[test]
    fn the_first_solution_ends_the_trace_unless_all_are_asked_for() {
        for method in [Method::Backtrack, Method::Dlx, Method::Cp] {
            let trace = run(method, &Problem::new(6).unwrap(), false).unwrap();
            assert_eq!(trace.solutions, 1);
            assert_eq!(trace.events.last(), Some(&Event::Solution));
        }
        assert!(Method::parse("sat").is_err());
        assert!(run(Method::Cp, &Problem::new(17).unwrap(), false).is_err());
    }
}
