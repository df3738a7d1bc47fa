//! The constellation start: the board's four border lines (row 0, row n − 1, column 0,
//! column n − 1) each hold exactly one queen in every solution, so every solution has a
//! *constellation*, the columns of its first and last rows' queens and the rows of its first
//! and last columns' queens. A symmetry of the board maps a solution's constellation to its
//! image's, so the solutions of constellations in one orbit are equally many: the total is the
//! sum, over one representative per orbit, of the orbit's size (its *multiplicity*, 8, 4 or 2:
//! no valid constellation is its own mirror image, see [`constellations`]) times the
//! representative's completions. The kernel counts plain completions of a representative and
//! the host multiplies: no solution needs a symmetry check.
//!
//! Each representative is a [`ClassTable`] whose rows say which squares are allowed: the
//! border queen's one square in each of the four border rows and columns' rows, and elsewhere
//! every square but the border columns, the border queens' columns and their diagonals. The
//! kernel's loop is the class kernel's (one queen per row, the four-row lookahead), reading
//! these tables instead of the Takaken classes' ([`device::class_tables`]), and placing the
//! border queens as the loop reaches their rows (each a node and a step of its own).
//!
//! Which member of an orbit is searched matters (the orbit's members differ in which rows the
//! border queens' attacks fall on, and a search whose first rows are the most blocked prunes
//! early): [`estimate`] ranks them from their tables alone, so listing the orbits and choosing
//! costs the host no search (2.9·10⁸ instructions at n = 21).
//!
//! The host cuts each representative at a start row with the same loop ([`starts`]), and
//! [`emulate`] is that loop for one start, step for step as the kernel runs it (queen frames,
//! the last-row rule): the oracle the kernel is tested against start by start, and the
//! measure of the lanes' work (steps per start, per batch of 32).
//!
//! Unique solutions need the solutions' own symmetries, which a constellation does not show:
//! `--unique` keeps the class kernel.

use std::sync::atomic::{AtomicBool, Ordering};

use nqueens_solver::engines::counter::MAX_N;
use nqueens_solver::runs::device::{self, ClassTable, MAX_SPLIT_ROWS, SubBoard};

/// One representative of an orbit of constellations under the board's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constellation {
    /// The column of row 0's queen.
    pub top: u32,
    /// The column of row n − 1's queen.
    pub bottom: u32,
    /// The row of column 0's queen.
    pub left: u32,
    /// The row of column n − 1's queen.
    pub right: u32,
    /// The orbit's size: the solutions of each constellation in it are as many as this one's.
    pub multiplicity: u32,
}

/// The rows a search fills, in the kernel's layout: per row the squares not allowed (bits at
/// or above n set; rows past the last all ones), per row the shifts that carry its diagonals
/// to the next four rows (a byte each, the k-th byte to the row k + 1 below), and the tie
/// squares of the class kernel's exact check (none for a constellation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    /// Per row, the squares not allowed.
    pub blocked: [u32; 32],
    /// Per row, the shifts to the next four rows, packed.
    pub shifts: [u32; 32],
    /// The last row the search fills.
    pub last: u32,
    /// The class kernel's tie rows, side squares and last square (all zero: no ties).
    pub ties: ([u32; 2], u32, u32),
}

/// Shifts of one row each: the board's own rows.
const UNIT_SHIFTS: u32 = 1 | (2 << 8) | (3 << 16) | (4 << 24);

impl Rows {
    /// A class kernel's table: every row its own, with its ties.
    pub fn of_class(n: u32, table: &ClassTable) -> Rows {
        Rows {
            blocked: table.blocked,
            shifts: [UNIT_SHIFTS; 32],
            last: n - 1,
            ties: (table.tie_rows, table.side_squares, table.last_square),
        }
    }

    fn blocked(&self, row: u32) -> u32 {
        self.blocked[row as usize]
    }

    /// The shift that carries row `row`'s diagonals `k` rows down (1 ≤ k ≤ 4).
    fn shift(&self, row: u32, k: u32) -> u32 {
        (self.shifts[row as usize] >> (8 * (k - 1))) & 0xff
    }

    /// The words the kernel reads (`Rows` in the WGSL: 32 + 32 + 4 words).
    pub fn words(&self) -> impl Iterator<Item = u32> + '_ {
        self.blocked
            .iter()
            .chain(&self.shifts)
            .copied()
            .chain([self.last, 0, 0, 0])
    }
}

impl Constellation {
    /// The border queens as (row, column), one per distinct square (a corner queen once).
    fn queens(&self, n: u32) -> Vec<(u32, u32)> {
        let last = n - 1;
        let mut queens = vec![
            (0, self.top),
            (last, self.bottom),
            (self.left, 0),
            (self.right, last),
        ];
        queens.sort_unstable();
        queens.dedup();
        queens
    }

    /// The constellation of a set of border queens (each border line holding one).
    fn of(n: u32, queens: &[(u32, u32)]) -> Option<Constellation> {
        let last = n - 1;
        let find = |pick: &dyn Fn(&(u32, u32)) -> Option<u32>| {
            let mut found = queens.iter().filter_map(pick);
            let first = found.next()?;
            found.next().is_none().then_some(first)
        };
        Some(Constellation {
            top: find(&|&(r, c)| (r == 0).then_some(c))?,
            bottom: find(&|&(r, c)| (r == last).then_some(c))?,
            left: find(&|&(r, c)| (c == 0).then_some(r))?,
            right: find(&|&(r, c)| (c == last).then_some(r))?,
            multiplicity: 0,
        })
    }

    fn key(&self) -> [u32; 4] {
        [self.top, self.bottom, self.left, self.right]
    }

    /// The rows its completions fill (the rows without a border queen, in order; none for
    /// n = 1) and what each allows: every square but the border queens' columns and
    /// diagonals. The search starts on the first of them with its border queens' columns
    /// taken (see [`root`]) and its queens' diagonals shifted across the border queens' rows.
    pub fn rows(&self, n: u32) -> Rows {
        let (free, count) = self.free(n);
        let free = &free[..count];
        let mut rows = Rows {
            blocked: self.blocked(n),
            shifts: [UNIT_SHIFTS; 32],
            last: (count as u32).saturating_sub(1),
            ties: ([0; 2], 0, 0),
        };
        for (i, &row) in free.iter().enumerate() {
            let mut packed = 0;
            for k in 1..=4 {
                // Past the last free row the shift is never used: one row each.
                let below = free.get(i + k).map_or(row + k as u32, |&r| r);
                packed |= (below - row).min(255) << (8 * (k - 1));
            }
            rows.shifts[i] = packed;
        }
        rows
    }

    /// The rows without a border queen, in order, and how many there are.
    fn free(&self, n: u32) -> ([u32; 32], usize) {
        let last = n - 1;
        let (mut free, mut count) = ([0; 32], 0);
        for row in 0..n {
            if row != 0 && row != last && row != self.left && row != self.right {
                free[count] = row;
                count += 1;
            }
        }
        (free, count)
    }

    /// [`Rows::blocked`] of its table: per row searched, the squares its border queens take
    /// or attack (and the bits at or above n); all ones past the last.
    fn blocked(&self, n: u32) -> [u32; 32] {
        let last = n - 1;
        let queens = [
            (0, self.top),
            (last, self.bottom),
            (self.left, 0),
            (self.right, last),
        ];
        let (free, count) = self.free(n);
        let mut blocked = [u32::MAX; 32];
        for (i, &row) in free[..count].iter().enumerate() {
            blocked[i] = queens.iter().fold(above(n), |mask, &(r, c)| {
                let distance = r.abs_diff(row);
                let bit = 1u64 << c;
                mask | (1 << c) | ((bit << distance) | (bit >> distance)) as u32
            });
        }
        blocked
    }

    /// How many rows its search fills.
    pub fn free_rows(&self, n: u32) -> u32 {
        self.free(n).1 as u32
    }

    /// The border queens' columns, as bits.
    pub fn columns(&self, n: u32) -> u32 {
        self.queens(n)
            .iter()
            .fold(0, |mask, &(_, c)| mask | (1 << c))
    }
}

/// The bits at or above n (none for n = 32).
fn above(n: u32) -> u32 {
    u32::MAX.checked_shl(n).unwrap_or(0)
}

/// The eight symmetries of the n×n board, on a square (row, column).
fn symmetry(k: usize, n: u32, (r, c): (u32, u32)) -> (u32, u32) {
    let last = n - 1;
    match k {
        0 => (r, c),
        1 => (c, last - r),
        2 => (last - r, last - c),
        3 => (last - c, r),
        4 => (r, last - c),
        5 => (last - r, c),
        6 => (c, r),
        _ => (last - c, last - r),
    }
}

/// Whether two distinct queens leave each other alone.
fn apart((r1, c1): (u32, u32), (r2, c2): (u32, u32)) -> bool {
    r1 != r2 && c1 != c2 && r1.abs_diff(r2) != c1.abs_diff(c2)
}

/// One representative of every orbit of valid constellations of the n×n board (1 ≤ n ≤ 32),
/// with its multiplicity; the orbits' sizes add up to the number of valid constellations.
///
/// Valid: the border queens (three or four: at most one sits in a corner, as two corner
/// queens share a line) leave each other alone. No valid constellation is fixed by a mirror:
/// the mirror in the middle column would need the first column's queen and the last column's in
/// one row, and a mirror in a diagonal maps row 0's queen to column 0's (or to column n − 1's),
/// which lies on the same diagonal, unless that queen is in the corner, when the other two
/// border queens are mirror images on one anti-diagonal. So orbits have 8, 4 (fixed by the
/// half turn) or 2 members (fixed by the quarter turn); n = 1's one queen is its own orbit.
///
/// The representative is the member whose search is estimated smallest (see [`estimate`]).
pub fn constellations(n: u32) -> Vec<Constellation> {
    let never = AtomicBool::new(false);
    constellations_until(n, &never).expect("never stopped")
}

/// [`constellations`], `None` once `stop` is raised (checked orbit by orbit).
pub fn constellations_until(n: u32, stop: &AtomicBool) -> Option<Vec<Constellation>> {
    assert!((1..=MAX_N).contains(&n), "constellations exist for n ≤ 32");
    let index = |c: &Constellation| {
        let [top, bottom, left, right] = c.key().map(|x| x as usize);
        ((top * n as usize + bottom) * n as usize + left) * n as usize + right
    };
    let mut seen = vec![false; (n as usize).pow(4)];
    let mut out = Vec::new();
    for top in 0..n {
        for bottom in 0..n {
            for left in 0..n {
                for right in 0..n {
                    let c = Constellation {
                        top,
                        bottom,
                        left,
                        right,
                        multiplicity: 0,
                    };
                    if seen[index(&c)] {
                        continue;
                    }
                    let queens = c.queens(n);
                    // Each border line holds exactly one of the queens.
                    if Constellation::of(n, &queens).map(|d| d.key()) != Some(c.key()) {
                        continue;
                    }
                    let valid = queens
                        .iter()
                        .enumerate()
                        .all(|(i, &q)| queens[i + 1..].iter().all(|&p| apart(p, q)));
                    if !valid {
                        continue;
                    }
                    let mut orbit: Vec<Constellation> = (0..8)
                        .filter_map(|k| {
                            let image: Vec<_> = queens.iter().map(|&q| symmetry(k, n, q)).collect();
                            Constellation::of(n, &image)
                        })
                        .collect();
                    orbit.sort_unstable_by_key(Constellation::key);
                    orbit.dedup_by_key(|c| c.key());
                    for member in &orbit {
                        seen[index(member)] = true;
                    }
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let mut chosen = representative(n, &orbit);
                    chosen.multiplicity = orbit.len() as u32;
                    debug_assert!(n == 1 || [2, 4, 8].contains(&chosen.multiplicity));
                    out.push(chosen);
                }
            }
        }
    }
    Some(out)
}

/// The member of an orbit the kernel searches: the one whose search [`estimate`] says is
/// smallest; ties to the smallest (top, bottom, left, right), so the choice is fixed. No
/// queen is placed to choose: a member's estimate reads its table alone.
fn representative(n: u32, orbit: &[Constellation]) -> Constellation {
    orbit
        .iter()
        .map(|c| (estimate(n, c), *c))
        .min_by(|(a, c), (b, d)| a.total_cmp(b).then(c.key().cmp(&d.key())))
        .map(|(_, c)| c)
        .expect("an orbit has a member")
}

/// The queens a search of constellation `c` places, estimated from its table alone: row by
/// row (the rows searched, in order), the squares the table allows less two for each queen
/// placed above (its column, and one diagonal square on average), at least one, multiplied
/// down the rows and summed, as the nodes of a tree that branches so in each row.
///
/// The search of an orbit's members differs only in which rows the border queens' attacks
/// fall on: the member whose first rows are the most blocked prunes early. Choosing by this
/// estimate costs the host O(n) per member; at n = 14–17 the kernel's steps come out 2–5 %
/// below those of the member whose top rows (down to three rows above the middle) place the
/// fewest queens, a probe that cost the host 4.2·10⁹ queens at n = 20 and about 10¹⁰ at
/// n = 21 (see docs/notes/gpu.md).
pub fn estimate(n: u32, c: &Constellation) -> f64 {
    let (mut branches, mut nodes) = (1.0, 0.0);
    let rows = c.free(n).1.max(1);
    for (i, blocked) in c.blocked(n)[..rows].iter().enumerate() {
        let allowed = f64::from((!blocked).count_ones());
        branches *= (allowed - 2.0 * i as f64).max(1.0);
        nodes += branches;
    }
    nodes
}

/// What the host found above the start row: solutions (on tiny boards) and the queens placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostPart {
    /// Completions found above the start row, not multiplied.
    pub solutions: u64,
    /// Queens placed on the way to the starts.
    pub nodes: u64,
}

/// The masks of a placement: the next row to fill and the attacks on it.
#[derive(Clone, Copy, Debug)]
struct State {
    row: u32,
    columns: u32,
    left: u32,
    right: u32,
}

/// The kernel's lookahead after `bit` is placed in `row` of `s`: whether one of the next four
/// rows is left without a free square (or `row` is the last), and the masks of the row below.
fn lookahead(rows: &Rows, s: &State, bit: u32) -> (bool, u32, u32, u32) {
    let row = s.row;
    let columns = s.columns | bit;
    let left = (s.left | bit) << rows.shift(row, 1);
    let right = (s.right | bit) >> rows.shift(row, 1);
    let rows_left = rows.last - row;
    let mut dead = rows_left == 0 || (columns | left | right | rows.blocked(row + 1)) == u32::MAX;
    for k in 1..4 {
        if rows_left > k {
            let shift = rows.shift(row + 1, k);
            dead = dead
                || (columns | (left << shift) | (right >> shift) | rows.blocked(row + 1 + k))
                    == u32::MAX;
        }
    }
    (dead, columns, left, right)
}

/// Cuts the search of `rows` from `from` at `start_row` with the kernel's rules: every
/// placement alive at `start_row` is a start (a [`SubBoard`] of constellation `index`, task
/// `task`), appended to `out`. (The starts' prefixes stay empty: the constellation kernel
/// never reads them.)
pub fn cut(
    rows: &Rows,
    index: u32,
    task: u32,
    from: &SubBoard,
    start_row: u32,
    out: &mut Vec<SubBoard>,
) -> HostPart {
    let mut host = HostPart::default();
    let state = State {
        row: from.row,
        columns: from.columns,
        left: from.left,
        right: from.right,
    };
    descend(rows, &state, start_row, &mut host, &mut |s: &State| {
        out.push(SubBoard {
            task,
            b1: index,
            row: s.row,
            columns: s.columns,
            left: s.left,
            right: s.right,
            prefix: [0; MAX_SPLIT_ROWS],
        });
    });
    host
}

fn descend(
    rows: &Rows,
    s: &State,
    start_row: u32,
    host: &mut HostPart,
    emit: &mut dyn FnMut(&State),
) {
    if s.row >= start_row {
        emit(s);
        return;
    }
    let mut taken = s.columns | s.left | s.right | rows.blocked(s.row);
    while taken != u32::MAX {
        let bit = !taken & taken.wrapping_add(1);
        taken |= bit;
        host.nodes += 1;
        let (dead, columns, left, right) = lookahead(rows, s, bit);
        if dead {
            host.solutions += u64::from(columns == u32::MAX);
            continue;
        }
        let next = State {
            row: s.row + 1,
            columns,
            left,
            right,
        };
        descend(rows, &next, start_row, host, emit);
    }
}

/// Constellation `c`'s search before its first row (its table's row 0): the border queens'
/// columns taken, every other attack of theirs in the table.
pub fn root(n: u32, c: &Constellation, index: u32) -> SubBoard {
    SubBoard {
        task: index,
        b1: index,
        row: 0,
        columns: above(n) | c.columns(n),
        left: 0,
        right: 0,
        prefix: [0; MAX_SPLIT_ROWS],
    }
}

/// Every constellation of n cut for a kernel that searches `kernel_rows` rows: the tables
/// (indexed by the starts' `b1`), the starts, and the host's part.
pub struct Starts {
    /// The representatives, in table order.
    pub constellations: Vec<Constellation>,
    /// Their tables.
    pub tables: Vec<Rows>,
    /// The starts, constellation by constellation (`task` is the constellation's index too).
    pub boards: Vec<SubBoard>,
    /// What the host counted above the starts, multiplied, and the queens it placed.
    pub host: HostPart,
}

/// The row at which a search of these rows is cut for a kernel that searches `kernel_rows`
/// rows (never below the last row; row 0, the whole search, where it is short).
pub fn start_row(rows: &Rows, kernel_rows: usize) -> u32 {
    (rows.last + 1)
        .saturating_sub(kernel_rows as u32)
        .min(rows.last)
}

/// [`Starts`] of n (1 ≤ n ≤ 32) for a kernel that searches `kernel_rows` rows.
pub fn starts(n: u32, kernel_rows: usize) -> Starts {
    let constellations = constellations(n);
    let tables: Vec<Rows> = constellations.iter().map(|c| c.rows(n)).collect();
    let mut boards = Vec::new();
    let mut host = HostPart::default();
    for (i, (c, rows)) in constellations.iter().zip(&tables).enumerate() {
        let i = i as u32;
        let part = if c.free_rows(n) == 0 {
            // The border queens are the whole solution (n = 1, or one of n = 4's).
            HostPart {
                solutions: 1,
                nodes: 0,
            }
        } else {
            let from = root(n, c, i);
            cut(rows, i, i, &from, start_row(rows, kernel_rows), &mut boards)
        };
        host.solutions += part.solutions * u64::from(c.multiplicity);
        host.nodes += part.nodes;
    }
    Starts {
        constellations,
        tables,
        boards,
        host,
    }
}

/// What the kernel finds for one start, and the steps it takes (see the kernel's budget):
/// its loop run on the CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Emulated {
    /// Solutions counted without a check (all of them for a constellation's table).
    pub plain: u64,
    /// Solutions on a tie square (the class kernel's exact check, 8n steps each).
    pub tied: u64,
    /// Queens placed.
    pub nodes: u64,
    /// Loop iterations and 8n per tied solution: the steps the kernel reports with queen
    /// frames and the last-row rule.
    pub steps: u64,
}

/// The kernel's loop (queen frames, the last-row rule, no budget) on one start of the n×n
/// board under `rows`: the same placements, nodes and steps as the WGSL kernel.
pub fn emulate(n: u32, rows: &Rows, board: &SubBoard) -> Emulated {
    const FULL: u32 = u32::MAX;
    let last = rows.last;
    let base = board.row;
    let mut queens = [0u32; 32];
    for (r, &c) in board.queens().iter().enumerate() {
        queens[r] = 1 << c;
    }
    let mut out = Emulated::default();
    let mut s = State {
        row: base,
        columns: board.columns,
        left: board.left,
        right: board.right,
    };
    let mut taken = s.columns | s.left | s.right | rows.blocked(s.row);
    let (mut lost_left, mut lost_right) = (0u32, 0u32);
    loop {
        if taken == FULL {
            if s.row == base {
                return out;
            }
            s.row -= 1;
            let queen = queens[s.row as usize];
            let shift = rows.shift(s.row, 1);
            let low = (1u32 << shift) - 1;
            s.columns ^= queen;
            s.left = ((s.left >> shift) | ((lost_left & low) << (32 - shift))) & !queen;
            s.right = ((s.right << shift) | (lost_right & low)) & !queen;
            lost_left >>= shift;
            lost_right >>= shift;
            taken = s.columns | s.left | s.right | rows.blocked(s.row) | (queen | (queen - 1));
            if taken == FULL {
                out.steps += 1;
                continue;
            }
        }
        out.steps += 1;
        let bit = !taken & taken.wrapping_add(1);
        taken |= bit;
        out.nodes += 1;
        let (dead, columns, left, right) = lookahead(rows, &s, bit);
        queens[s.row as usize] = bit;
        let mut solved = false;
        if !dead {
            if last - s.row == 1 {
                let free = !(columns | left | right | rows.blocked(last));
                out.nodes += 1;
                queens[last as usize] = free & free.wrapping_neg();
                solved = true;
            } else {
                let shift = rows.shift(s.row, 1);
                lost_left = (lost_left << shift) | ((s.left | bit) >> (32 - shift));
                lost_right = (lost_right << shift) | ((s.right | bit) & ((1u32 << shift) - 1));
                s = State {
                    row: s.row + 1,
                    columns,
                    left,
                    right,
                };
                taken = columns | left | right | rows.blocked(s.row);
            }
        } else {
            solved = columns == FULL;
        }
        if solved {
            let ([a, b], side, last_square) = rows.ties;
            let tied = (queens[a as usize] & side) != 0
                || (queens[b as usize] & side) != 0
                || queens[last as usize] == last_square;
            if tied {
                out.tied += 1;
                out.steps += 8 * u64::from(n);
            } else {
                out.plain += 1;
            }
        }
    }
}

/// The total of n (1 ≤ n ≤ 32) counted from the constellations on the CPU, start by start with
/// [`emulate`] (cut for a kernel of `kernel_rows` rows): the oracle of the GPU's constellation
/// count. Returns the total and the queens placed (host and starts).
pub fn count_on_cpu(n: u32, kernel_rows: usize) -> (u64, u64) {
    let starts = starts(n, kernel_rows);
    let mut total = starts.host.solutions;
    let mut nodes = starts.host.nodes;
    for board in &starts.boards {
        let found = emulate(n, &starts.tables[board.b1 as usize], board);
        debug_assert_eq!(found.tied, 0, "a constellation has no tie squares");
        total += found.plain * u64::from(starts.constellations[board.b1 as usize].multiplicity);
        nodes += found.nodes;
    }
    (total, nodes)
}

/// The class kernel's tables as [`Rows`], for [`emulate`] on the class kernel's sub-boards
/// (the lanes' work before the constellations).
pub fn class_rows(n: u32) -> Vec<Rows> {
    device::class_tables(n)
        .iter()
        .map(|t| Rows::of_class(n, t))
        .collect()
}
