//! The eight symmetries of the square board (the dihedral group D4) and canonical forms.
//!
//! Two solutions are *the same up to symmetry* when one of the eight maps turns one into the
//! other. The canonical form of a solution is the lexicographically smallest column list among
//! its eight images; a solution is *canonical* when it equals its canonical form. Counting the
//! canonical solutions gives OEIS A002562 (the "unique" count), and each class has 1, 2, 4 or 8
//! members ([`orbit_size`]).

use crate::board::{Queen, Solution};

/// One of the eight symmetries of the n×n board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves the board as it is.
    Identity,
    /// Quarter turn clockwise: (r, c) → (c, n−1−r).
    Rotate90,
    /// Half turn: (r, c) → (n−1−r, n−1−c).
    Rotate180,
    /// Quarter turn counter-clockwise: (r, c) → (n−1−c, r).
    Rotate270,
    /// Left–right mirror: (r, c) → (r, n−1−c).
    MirrorColumns,
    /// Top–bottom mirror: (r, c) → (n−1−r, c).
    MirrorRows,
    /// Reflection in the main diagonal: (r, c) → (c, r).
    Transpose,
    /// Reflection in the anti-diagonal: (r, c) → (n−1−c, n−1−r).
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where the square `queen` goes on an n×n board.
    pub fn apply_to_queen(self, queen: Queen, n: u32) -> Queen {
        let (r, c) = (queen.row, queen.col);
        let last = n - 1;
        let (row, col) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, last - r),
            Symmetry::Rotate180 => (last - r, last - c),
            Symmetry::Rotate270 => (last - c, r),
            Symmetry::MirrorColumns => (r, last - c),
            Symmetry::MirrorRows => (last - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last - c, last - r),
        };
        Queen::new(row, col)
    }

    /// The image of a placement with one queen per row and per column (every N-Queens
    /// solution is one). Each symmetry maps such a placement to another one.
    ///
    /// # Panics
    /// If two queens share a column (the image would not have one queen per row).
    pub fn apply(self, solution: &Solution) -> Solution {
        let n = solution.n();
        let mut columns = vec![u32::MAX; n as usize];
        for queen in solution.queens() {
            let image = self.apply_to_queen(queen, n);
            let slot = &mut columns[image.row as usize];
            assert_eq!(
                *slot,
                u32::MAX,
                "symmetries apply to placements with one queen per column"
            );
            *slot = image.col;
        }
        Solution::from_columns(columns)
    }
}

/// The lexicographically smallest of the eight images of `solution`.
pub fn canonical(solution: &Solution) -> Solution {
    Symmetry::ALL
        .iter()
        .map(|s| s.apply(solution))
        .min()
        .expect("eight images")
}

/// Whether `solution` is the representative of its symmetry class.
pub fn is_canonical(solution: &Solution) -> bool {
    // Compare image by image, so the common case (some image is smaller) stops early.
    Symmetry::ALL[1..]
        .iter()
        .all(|s| s.apply(solution).columns() >= solution.columns())
}

/// How many distinct solutions the symmetry class of `solution` has: 1 (only n = 1), 2, 4 or 8.
pub fn orbit_size(solution: &Solution) -> usize {
    let mut images: Vec<Solution> = Symmetry::ALL.iter().map(|s| s.apply(solution)).collect();
    images.sort_unstable();
    images.dedup();
    images.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarter_turn_four_times_is_the_identity() {
        let s = Solution::from_columns(vec![4, 6, 0, 2, 7, 5, 3, 1]);
        let mut t = s.clone();
        for _ in 0..4 {
            t = Symmetry::Rotate90.apply(&t);
        }
        assert_eq!(s, t);
    }

    #[test]
    fn the_eight_maps_form_a_group() {
        // Closure: composing any two maps of a square equals one of the eight.
        let n = 5;
        let squares: Vec<Queen> = (0..n)
            .flat_map(|r| (0..n).map(move |c| Queen::new(r, c)))
            .collect();
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let composed: Vec<Queen> = squares
                    .iter()
                    .map(|&q| b.apply_to_queen(a.apply_to_queen(q, n), n))
                    .collect();
                let matches = Symmetry::ALL
                    .iter()
                    .filter(|c| {
                        squares
                            .iter()
                            .map(|&q| c.apply_to_queen(q, n))
                            .eq(composed.iter().copied())
                    })
                    .count();
                assert_eq!(matches, 1, "{a:?} then {b:?}");
            }
        }
    }

    #[test]
    fn the_six_queens_solutions_form_one_class_of_four() {
        let s = Solution::from_columns(vec![1, 3, 5, 0, 2, 4]);
        assert_eq!(orbit_size(&s), 4);
        assert!(is_canonical(&s));
        assert_eq!(canonical(&Symmetry::Rotate90.apply(&s)), s);
    }

    #[test]
    fn the_four_queens_solutions_are_mirror_images() {
        let a = Solution::from_columns(vec![1, 3, 0, 2]);
        let b = Solution::from_columns(vec![2, 0, 3, 1]);
        assert_eq!(Symmetry::MirrorColumns.apply(&a), b);
        assert_eq!(orbit_size(&a), 2);
        assert!(is_canonical(&a) && !is_canonical(&b));
    }
}
