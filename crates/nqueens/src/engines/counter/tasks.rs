//! The task list: the count split into independent pieces, the same for every run of one n.
//!
//! # The task format (version 2)
//!
//! A task is a *prefix*: the columns (0-based) of the queens in rows `0..depth`, where
//! `depth = min(n, 4)` for n < 24 and `min(n, 5)` from n = 24 on ([`depth`]). The prefix names
//! its symmetry class (see the [module essay](super)): `b1 = prefix[0]`, the column of the
//! row-0 queen, with `1 ≤ b1` and `2·b1 ≤ n − 1` (`b1 = 0` only for n = 1).
//!
//! Every prefix obeys the class's square rules ([`ClassRules`]) and no two of its queens attack
//! each other; the list holds every such prefix exactly once, sorted lexicographically by column
//! list (so by growing `b1`). A task's id is its index in that order. A task's result is the
//! number of solutions that extend its prefix, weighted by orbit size (`total`), and the number
//! of those that are canonical (`unique`); the run's totals are the sums over all tasks.
//! (Version 1 used Takaken's corner and side classes; its lists have other fingerprints, so
//! checkpoints and shard results of version 1 are refused.)
//!
//! The list is identified by a [`Fingerprint`]: FNV-1a (64 bit) over the text
//! `nqueens-counter-tasks v2 n=<n> depth=<depth>\n` followed by one line per task, its prefix
//! columns in decimal separated by commas. Checkpoints and shard results record it, so results
//! from another n, another depth or another version of this format are refused. A distributed or
//! GPU engine reuses the list as it is: a worker needs only n and a task id (or the prefix) to
//! compute the same result.

use std::fmt;

/// Tasks up to this many rows deep (the prefix of a task fits a fixed array).
pub const MAX_DEPTH: usize = 5;

/// The prefix depth of the task list for board size n (capped at n).
///
/// Depth 4 gives about 11,000 tasks at n = 17 and 54,000 at n = 23; depth 5 from n = 24 on
/// keeps each task below a few minutes for record-size boards (0.9 million tasks at n = 24,
/// 5.7 million at n = 32, built in a fraction of a second).
pub fn depth(n: u32) -> usize {
    let depth = if n < 24 { 4 } else { 5 };
    depth.min(n as usize)
}

/// A task's position in the list of its n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct TaskId(pub u32);

impl TaskId {
    /// The id as an index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The identity of a task list: a 64-bit hash of its version, n, depth and every prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u64);

impl fmt::Display for Fingerprint {
    /// Sixteen lower-case hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for Fingerprint {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        u64::from_str_radix(s, 16).map(Fingerprint)
    }
}

/// FNV-1a, 64 bit: tiny, stable across platforms and versions of Rust (unlike `std`'s hasher).
/// Every task list's fingerprint is hashed with it.
pub(super) struct Fnv1a(pub(super) u64);

impl Fnv1a {
    pub(super) fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    pub(super) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The fingerprint of a task list: FNV-1a over `head` and then one line per prefix (`depth`
/// bytes each in `prefixes`), its columns in decimal separated by commas.
pub(super) fn list_fingerprint(head: &str, prefixes: &[u8], depth: usize) -> Fingerprint {
    let mut hash = Fnv1a::new();
    hash.write(head.as_bytes());
    let mut line = String::new();
    for prefix in prefixes.chunks(depth.max(1)) {
        line.clear();
        for (i, &col) in prefix.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            // Columns are below 64: one or two digits.
            if col >= 10 {
                line.push(char::from(b'0' + col / 10));
            }
            line.push(char::from(b'0' + col % 10));
        }
        line.push('\n');
        hash.write(line.as_bytes());
    }
    Fingerprint(hash.0)
}

/// The symmetry class of a task, read off its prefix: `b1`, the column of the queen in row 0.
///
/// The counter counts each solution through its canonical image (see the [module essay of the
/// counter](super)), whose row-0 queen is the border queen farthest from its nearest corner,
/// turned to the top and into the left half. So `b1` is the largest corner distance of any
/// border queen of the solutions in the class, and every other border queen is at most `b1`
/// from a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// Column of the row-0 queen (1 ≤ b1 ≤ (n − 1) / 2; 0 only for n = 1).
    pub b1: u32,
}

impl Class {
    /// The class of a prefix (at least one row).
    pub fn of(prefix: &[u8]) -> Class {
        Class {
            b1: u32::from(prefix[0]),
        }
    }
}

/// The squares a class allows, row by row: `allowed[r]` has bit c set when the class lets a
/// queen stand on row r, column c. These are the pruning rules of the module essay; the
/// canonical image of every solution obeys the rules of exactly one class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRules {
    /// Allowed squares per row (rows `0..n`).
    pub allowed: Vec<u64>,
}

impl ClassRules {
    /// The rules of `class` on an n×n board (1 ≤ n ≤ 64).
    pub fn new(n: u32, class: Class) -> Self {
        let last = n as usize - 1;
        let b1 = class.b1 as usize;
        let near_a_corner = |i: usize| i.min(last - i) <= b1;
        let sides = 1 | 1u64 << last;
        let mut allowed = vec![full_mask(n); last + 1];
        allowed[0] = 1 << b1;
        // The queens of columns 0 and n − 1 stand at most b1 rows from a corner ...
        for (row, mask) in allowed.iter_mut().enumerate().skip(1) {
            if !near_a_corner(row) {
                *mask &= !sides;
            }
        }
        // ... and so does the queen of the last row, counted in columns.
        if last > 0 {
            allowed[last] &= (0..=last)
                .filter(|&col| near_a_corner(col))
                .fold(0, |mask, col| mask | 1 << col);
        }
        // A row-0 queen in the middle column (n odd) is its own mirror image; of a solution and
        // its mirror image, the one with the row-1 queen in the left half comes first.
        if 2 * b1 == last && last >= 2 {
            allowed[1] &= full_mask(class.b1);
        }
        ClassRules { allowed }
    }
}

/// The low n bits.
pub(crate) fn full_mask(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The classes of board size n, in task-list order.
pub(crate) fn classes(n: u32) -> Vec<Class> {
    if n == 1 {
        return vec![Class { b1: 0 }];
    }
    (1..n)
        .take_while(|&b1| 2 * b1 < n)
        .map(|b1| Class { b1 })
        .collect()
}

/// The deterministic task list of one board size. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct TaskList {
    n: u32,
    depth: usize,
    /// All prefixes, `depth` bytes each, in id order.
    prefixes: Vec<u8>,
    fingerprint: Fingerprint,
}

impl TaskList {
    /// The task list for board size n (1 ≤ n ≤ 64). Its length grows like n⁴ (depth 4) or n⁵;
    /// building it costs a fraction of the count it splits.
    pub fn new(n: u32) -> Self {
        assert!((1..=64).contains(&n), "task lists exist for 1 ≤ n ≤ 64");
        let depth = depth(n);
        let mut prefixes = Vec::new();
        for class in classes(n) {
            let rules = ClassRules::new(n, class);
            let mut prefix = Vec::with_capacity(depth);
            extend_prefixes(
                n,
                depth,
                &rules.allowed,
                &mut prefix,
                (0, 0, 0),
                &mut prefixes,
            );
        }
        let head = format!("nqueens-counter-tasks v2 n={n} depth={depth}\n");
        TaskList {
            n,
            depth,
            fingerprint: list_fingerprint(&head, &prefixes, depth),
            prefixes,
        }
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Rows fixed by each task.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.prefixes.len() / self.depth.max(1)
    }

    /// Whether there is no task (n = 2 and n = 3, which have no solution).
    pub fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// The identity of this list.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The prefix of a task: the columns of rows `0..depth`.
    ///
    /// # Panics
    /// If the id is not below [`len`](Self::len).
    pub fn prefix(&self, id: TaskId) -> &[u8] {
        let start = id.index() * self.depth;
        &self.prefixes[start..start + self.depth]
    }

    /// Every task id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = TaskId> + use<> {
        (0..self.len() as u32).map(TaskId)
    }
}

/// Appends to `out` every legal extension of `prefix` to `depth` rows under `allowed`.
fn extend_prefixes(
    n: u32,
    depth: usize,
    allowed: &[u64],
    prefix: &mut Vec<u8>,
    (columns, left, right): (u64, u64, u64),
    out: &mut Vec<u8>,
) {
    let row = prefix.len();
    if row == depth {
        out.extend_from_slice(prefix);
        return;
    }
    let mut free = allowed[row] & !(columns | left | right) & full_mask(n);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        prefix.push(bit.trailing_zeros() as u8);
        extend_prefixes(
            n,
            depth,
            allowed,
            prefix,
            (columns | bit, (left | bit) << 1, (right | bit) >> 1),
            out,
        );
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_deterministic_and_sorted() {
        let a = TaskList::new(11);
        let b = TaskList::new(11);
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.len(), 790);
        let prefixes: Vec<&[u8]> = a.ids().map(|id| a.prefix(id)).collect();
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn fingerprints_differ_between_sizes() {
        let prints: Vec<Fingerprint> = (1..=14).map(|n| TaskList::new(n).fingerprint()).collect();
        for (i, a) in prints.iter().enumerate() {
            for b in &prints[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(
            TaskList::new(8)
                .fingerprint()
                .to_string()
                .parse::<Fingerprint>(),
            Ok(TaskList::new(8).fingerprint())
        );
    }

    #[test]
    fn small_boards() {
        assert!(TaskList::new(2).is_empty());
        assert!(TaskList::new(3).is_empty());
        let one = TaskList::new(1);
        assert_eq!(one.len(), 1);
        assert_eq!(one.prefix(TaskId(0)), &[0]);
        // n = 4: the only prefixes are the two rows-deep starts of the one canonical solution.
        let four = TaskList::new(4);
        assert_eq!(four.depth(), 4);
        assert_eq!(four.len(), 1);
        assert_eq!(four.prefix(TaskId(0)), &[1, 3, 0, 2]);
    }

    #[test]
    fn class_rules_match_the_essay() {
        // n = 8, b1 = 2: the row-0 queen in column 2; the side columns only in rows at most 2
        // from a corner (so not in rows 3 and 4); the last row only in columns at most 2 from a
        // corner (so not in columns 3 and 4).
        let rules = ClassRules::new(8, Class { b1: 2 });
        assert_eq!(rules.allowed[0], 0b0000_0100);
        assert_eq!(rules.allowed[1], 0b1111_1111);
        assert_eq!(rules.allowed[2], 0b1111_1111);
        assert_eq!(rules.allowed[3], 0b0111_1110);
        assert_eq!(rules.allowed[4], 0b0111_1110);
        assert_eq!(rules.allowed[5], 0b1111_1111);
        assert_eq!(rules.allowed[6], 0b1111_1111);
        assert_eq!(rules.allowed[7], 0b1110_0111);
        // b1 = 1 on n = 8: side columns in rows 1 and 6 only, the last row near the corners.
        let tight = ClassRules::new(8, Class { b1: 1 });
        assert_eq!(tight.allowed[0], 0b0000_0010);
        assert_eq!(tight.allowed[1], 0b1111_1111);
        assert_eq!(tight.allowed[2], 0b0111_1110);
        assert_eq!(tight.allowed[5], 0b0111_1110);
        assert_eq!(tight.allowed[6], 0b1111_1111);
        assert_eq!(tight.allowed[7], 0b1100_0011);
        assert_eq!(classes(8), [1, 2, 3].map(|b1| Class { b1 }));
        assert_eq!(classes(9), [1, 2, 3, 4].map(|b1| Class { b1 }));
    }
}
