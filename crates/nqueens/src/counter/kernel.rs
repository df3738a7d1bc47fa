//! The inner loops: counting (fast) and enumerating (slow, for the rare tie solutions) the
//! completions of a partial board under per-row square rules, and the exact symmetry check.

use std::cmp::Ordering;

use super::tasks::{Class, ClassRules, full_mask};

/// Rows the kernel's arrays hold (boards up to n = 64; the counter itself stops at
/// [`super::MAX_N`]).
const ROWS: usize = 64;

/// The squares each row may use, in the form the counting loop wants: `blocked[r]` has a bit
/// set for every square of row r that is *not* allowed, and for every bit at or above n (so a
/// row is exhausted exactly when its mask is all ones); `blocked[n]` is all ones, which ends the
/// search after the last row.
#[derive(Clone)]
pub(crate) struct RowMasks {
    n: usize,
    /// The bits at or above n.
    outside: u64,
    blocked: [u64; ROWS + 1],
}

impl RowMasks {
    /// From allowed squares per row (`allowed.len()` is n).
    pub(crate) fn new(allowed: &[u64]) -> Self {
        let n = allowed.len();
        debug_assert!((1..=ROWS).contains(&n));
        let outside = !full_mask(n as u32);
        let mut blocked = [u64::MAX; ROWS + 1];
        for (row, &mask) in allowed.iter().enumerate() {
            blocked[row] = !mask | outside;
        }
        RowMasks {
            n,
            outside,
            blocked,
        }
    }

    fn allows(&self, row: usize, col: u8) -> bool {
        self.blocked[row] >> col & 1 == 0
    }
}

/// The attack masks after some rows are filled, in the coordinates of the next row: `columns`
/// marks used columns, `left` the squares attacked along down-left diagonals, `right` along
/// down-right ones (the baseline's representation, see [`crate::backtrack`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct State {
    /// The next row to fill.
    pub row: usize,
    pub columns: u64,
    pub left: u64,
    pub right: u64,
}

impl State {
    /// The state after placing the queens of `prefix` in rows `0..prefix.len()`, or `None` if
    /// two of them attack each other.
    pub(crate) fn after(prefix: &[u8]) -> Option<State> {
        let mut state = State::default();
        for &col in prefix {
            let bit = 1u64 << col;
            if (state.columns | state.left | state.right) & bit != 0 {
                return None;
            }
            state = state.place(bit);
        }
        Some(state)
    }

    fn place(self, bit: u64) -> State {
        State {
            row: self.row + 1,
            columns: self.columns | bit,
            left: (self.left | bit) << 1,
            right: (self.right | bit) >> 1,
        }
    }
}

/// One row of the counting loop's explicit stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Squares of the row already tried or not available (all ones: row exhausted).
    taken: u64,
    columns: u64,
    left: u64,
    right: u64,
    row: usize,
}

/// Per-worker scratch space, reused from task to task.
pub(crate) struct Scratch {
    stack: [Frame; ROWS],
    columns: [u8; ROWS],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            stack: [Frame::default(); ROWS],
            columns: [0; ROWS],
        }
    }
}

/// The number of ways to complete `start` to a full board under `masks`, and the number of
/// queens placed on the way (nodes).
///
/// The loop keeps the current row's state in registers and pushes a frame only when it
/// descends from a row that still has untried squares (a row whose last square is being tried
/// is replaced, not stacked), and it descends only when the next row has a free square, so dead
/// ends cost no push or pop. A solution shows up as a placement that fills every column.
pub(crate) fn count_completions(masks: &RowMasks, start: State, scratch: &mut Scratch) -> (u64, u64) {
    let blocked = &masks.blocked;
    if start.row >= masks.n {
        return (u64::from(start.row == masks.n), 0);
    }
    let stack = &mut scratch.stack;
    let mut row = start.row;
    let mut columns = start.columns | masks.outside;
    let mut left = start.left;
    let mut right = start.right;
    let mut taken = columns | left | right | blocked[row];
    let mut depth = 0usize;
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    loop {
        while taken != u64::MAX {
            let bit = !taken & taken.wrapping_add(1);
            taken |= bit;
            nodes += 1;
            let next_columns = columns | bit;
            let next_left = (left | bit) << 1;
            let next_right = (right | bit) >> 1;
            let next_taken = next_columns | next_left | next_right | blocked[row + 1];
            if next_taken != u64::MAX {
                stack[depth] = Frame {
                    taken,
                    columns,
                    left,
                    right,
                    row,
                };
                depth += usize::from(taken != u64::MAX);
                columns = next_columns;
                left = next_left;
                right = next_right;
                row += 1;
                taken = next_taken;
            } else {
                solutions += u64::from(next_columns == u64::MAX);
            }
        }
        if depth == 0 {
            return (solutions, nodes);
        }
        depth -= 1;
        let frame = stack[depth];
        taken = frame.taken;
        columns = frame.columns;
        left = frame.left;
        right = frame.right;
        row = frame.row;
    }
}

/// Calls `visit` with the columns of every completion of `prefix` (whose state is `start`)
/// under `masks`; returns the nodes. Plain recursion: this path only sees the rare solutions
/// that need the full symmetry check.
fn for_each_completion(
    masks: &RowMasks,
    start: State,
    columns: &mut [u8; ROWS],
    visit: &mut impl FnMut(&[u8]),
) -> u64 {
    let n = masks.n;
    if start.row == n {
        visit(&columns[..n]);
        return 0;
    }
    let mut free = !(start.columns | start.left | start.right | masks.blocked[start.row]);
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        columns[start.row] = bit.trailing_zeros() as u8;
        nodes += for_each_completion(masks, start.place(bit), columns, visit);
    }
    nodes
}

/// The size of the symmetry class of the solution `columns` if it is the class's canonical
/// member (the lexicographically smallest of its eight images, as in [`crate::symmetry`]), or
/// `None` if some image is smaller. Costs O(n) per image, usually decided at the first entry.
pub(crate) fn canonical_orbit(columns: &[u8]) -> Option<u32> {
    let n = columns.len();
    let last = (n - 1) as u8;
    let mut inverse = [0u8; ROWS];
    for (row, &col) in columns.iter().enumerate() {
        inverse[col as usize] = row as u8;
    }
    let l = n - 1;
    // Row i of each non-identity image (the maps of `symmetry::Symmetry`, in its order).
    let images: [&dyn Fn(usize) -> u8; 7] = [
        &|i| last - inverse[i],          // Rotate90: (r, c) -> (c, n-1-r)
        &|i| last - columns[l - i],      // Rotate180
        &|i| inverse[l - i],             // Rotate270: (r, c) -> (n-1-c, r)
        &|i| last - columns[i],          // MirrorColumns
        &|i| columns[l - i],             // MirrorRows
        &|i| inverse[i],                 // Transpose
        &|i| last - inverse[l - i],      // AntiTranspose
    ];
    let mut stabilizer = 1;
    for image in images {
        let order = (0..n)
            .map(|i| image(i).cmp(&columns[i]))
            .find(|&o| o != Ordering::Equal)
            .unwrap_or(Ordering::Equal);
        match order {
            Ordering::Less => return None,
            Ordering::Equal => stabilizer += 1,
            Ordering::Greater => {}
        }
    }
    Some(8 / stabilizer)
}

/// What one task contributes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskResult {
    /// Solutions extending the task's prefix, each canonical one weighted by its class size.
    pub total: u64,
    /// Canonical solutions extending the prefix.
    pub unique: u64,
    /// Queens placed by the search (work done).
    pub nodes: u64,
}

impl TaskResult {
    fn add_orbit(&mut self, orbit: Option<u32>) {
        if let Some(size) = orbit {
            self.total += u64::from(size);
            self.unique += 1;
        }
    }

    /// `count` solutions whose class has eight members each.
    fn add_eightfold(&mut self, count: u64) {
        self.total += count
            .checked_mul(8)
            .expect("a task's count fits 61 bits (it would take centuries to exceed)");
        self.unique += count;
    }
}

/// Whether every queen of `prefix` stands on a square `masks` allows.
fn fits(masks: &RowMasks, prefix: &[u8]) -> bool {
    prefix.iter().enumerate().all(|(row, &col)| masks.allows(row, col))
}

/// Restricts row `row` to the one square `col` and removes the squares that queen attacks from
/// every other row, so rows above it feel it before the search reaches it.
fn force(allowed: &mut [u64], row: usize, col: usize) {
    for (r, mask) in allowed.iter_mut().enumerate() {
        if r == row {
            *mask &= 1 << col;
            continue;
        }
        let distance = r.abs_diff(row);
        *mask &= !(1 << col);
        if col >= distance {
            *mask &= !(1 << (col - distance));
        }
        if col + distance < 64 {
            *mask &= !(1 << (col + distance));
        }
    }
}

/// The result of the task with this prefix on an n×n board (the prefix comes from
/// [`super::TaskList`], so it obeys its class's rules).
///
/// Corner class: every solution counts eight times. Side class: the solutions with no *tie*
/// (no other border queen as close to a corner as the top one, in the three places where that
/// can happen) are counted by the fast loop and count eight times; the tie solutions, a small
/// minority, are enumerated in three disjoint forced searches and each is checked exactly with
/// [`canonical_orbit`].
pub(crate) fn solve_task(n: u32, prefix: &[u8], scratch: &mut Scratch) -> TaskResult {
    let rules = ClassRules::new(n, Class::of(prefix));
    let start = State::after(prefix).expect("task prefixes are legal");
    let mut result = TaskResult::default();
    if prefix.len() == n as usize {
        // Tiny boards: the prefix is a whole solution.
        debug_assert!(fits(&RowMasks::new(&rules.allowed), prefix));
        result.add_orbit(canonical_orbit(prefix));
        return result;
    }
    match Class::of(prefix) {
        Class::Corner { .. } => {
            let masks = RowMasks::new(&rules.allowed);
            let (count, nodes) = count_completions(&masks, start, scratch);
            result.add_eightfold(count);
            result.nodes += nodes;
        }
        Class::Side { b1 } => {
            let (b1, last) = (b1 as usize, n as usize - 1);
            let b2 = last - b1;
            // The three tie squares: the right column's queen in row b1 (a quarter turn
            // clockwise of the board starts the same way), the left column's queen in row b2
            // (a quarter turn the other way), the bottom queen in column n-1-b1 (a half turn).
            let ties = [(b1, last), (b2, 0), (last, last - b1)];
            let mut no_tie = rules.allowed.clone();
            for &(row, col) in &ties {
                no_tie[row] &= !(1 << col);
            }
            let masks = RowMasks::new(&no_tie);
            if fits(&masks, prefix) {
                let (count, nodes) = count_completions(&masks, start, scratch);
                result.add_eightfold(count);
                result.nodes += nodes;
            }
            // Tie k: square k taken, the squares before it free (disjoint sets).
            for (k, &(row, col)) in ties.iter().enumerate() {
                let mut allowed = rules.allowed.clone();
                for &(r, c) in &ties[..k] {
                    allowed[r] &= !(1 << c);
                }
                force(&mut allowed, row, col);
                let masks = RowMasks::new(&allowed);
                if !fits(&masks, prefix) {
                    continue;
                }
                scratch.columns[..prefix.len()].copy_from_slice(prefix);
                let mut found = TaskResult::default();
                let nodes = for_each_completion(&masks, start, &mut scratch.columns, &mut |s| {
                    found.add_orbit(canonical_orbit(s))
                });
                result.total += found.total;
                result.unique += found.unique;
                result.nodes += nodes;
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Solution;
    use crate::symmetry::{self, Symmetry};

    #[test]
    fn canonical_orbit_agrees_with_the_symmetry_module() {
        // Every solution of n = 1..=9, from the baseline engine.
        use crate::Engine;
        use crate::backtrack::Backtrack;
        use std::ops::ControlFlow;
        for n in 1..=9 {
            let problem = crate::Problem::new(n).unwrap();
            let mut seen = 0;
            Backtrack::default()
                .for_each(&problem, &mut |s: &Solution| {
                    let columns: Vec<u8> = s.columns().iter().map(|&c| c as u8).collect();
                    let expected = symmetry::is_canonical(s).then(|| symmetry::orbit_size(s) as u32);
                    assert_eq!(canonical_orbit(&columns), expected, "{columns:?}");
                    seen += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(seen, crate::oeis::total(n).unwrap());
        }
        // The images are the module's maps, in its order.
        let s = Solution::from_columns(vec![4, 6, 0, 2, 7, 5, 3, 1]);
        let rotated = Symmetry::Rotate90.apply(&s);
        let columns: Vec<u8> = rotated.columns().iter().map(|&c| c as u8).collect();
        assert_eq!(canonical_orbit(&columns).is_some(), symmetry::is_canonical(&rotated));
    }

    #[test]
    fn forcing_a_square_removes_its_attacks() {
        let mut allowed = vec![0xff_u64; 8];
        force(&mut allowed, 3, 2);
        assert_eq!(allowed[3], 1 << 2);
        assert_eq!(allowed[0], 0xff & !(1 << 2 | 1 << 5));
        assert_eq!(allowed[2], 0xff & !(1 << 1 | 1 << 2 | 1 << 3));
        assert_eq!(allowed[7], 0xff & !(1 << 2 | 1 << 6));
    }

    #[test]
    fn counting_and_enumerating_agree() {
        // Plain boards (no class rules): both loops count A000170.
        let mut scratch = Scratch::default();
        for n in 1..=10u32 {
            let masks = RowMasks::new(&vec![full_mask(n); n as usize]);
            let (count, nodes) = count_completions(&masks, State::default(), &mut scratch);
            let mut listed = 0;
            let enum_nodes =
                for_each_completion(&masks, State::default(), &mut scratch.columns, &mut |_| {
                    listed += 1
                });
            assert_eq!(u128::from(count), crate::oeis::total(n).unwrap());
            assert_eq!(count, listed);
            assert_eq!(nodes, enum_nodes, "both count every queen placed");
        }
    }
}
