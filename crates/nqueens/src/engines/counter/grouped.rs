//! The symmetry rules of a board with fixed queens or blocked squares counted up to its own
//! symmetries: square masks per row and tie squares, as the whole board's class rules are, so
//! that both counting loops count such a board's classes at full speed, with no check of each
//! solution.
//!
//! # The rules
//!
//! The board keeps a subgroup G of the eight symmetries (`Group::of`); a class is counted
//! through its lexicographically smallest member under G (the member `Group::is_canonical`
//! names), and weighted by its size. Every task's prefix fixes the row-0 queen, in column `a`,
//! and the row-0 queen of an image g(s) is read off one border queen of s (the maps of
//! [`Symmetry`]):
//!
//! | g | row-0 queen of g(s) | g(s) ≥ s needs | tie square |
//! |---|---|---|---|
//! | quarter turn | n − 1 − (row of column 0's queen) | column 0 only in rows ≤ n − 1 − a | (n − 1 − a, 0) |
//! | half turn | n − 1 − s[n − 1] | last row only in columns ≤ n − 1 − a | (n − 1, n − 1 − a) |
//! | three-quarter turn | row of column n − 1's queen | column n − 1 only in rows ≥ a | (a, n − 1) |
//! | left-right mirror | n − 1 − a | a ≤ (n − 1) / 2 | a = (n − 1) / 2: row 1 left of it |
//! | top-bottom mirror | s[n − 1] | last row only in columns ≥ a | none (column a is taken) |
//! | main diagonal | row of column 0's queen | column 0 only in rows ≥ a | (a, 0) |
//! | anti-diagonal | n − 1 − (row of column n − 1's queen) | column n − 1 only in rows ≤ n − 1 − a | (n − 1 − a, n − 1) |
//!
//! A canonical solution obeys every rule of its row-0 column, so the masks cut only
//! non-canonical solutions. A solution that obeys them and stands on no tie square has
//! g(s)[0] > s[0] for every g ≠ identity in G (the mirror with `a` in the middle: g(s)[1] >
//! s[1]), so it is canonical and no g fixes it: a class of |G|. A solution on a tie square is
//! checked exactly ([`orbit`], O(|G| · n)). (A side tie square in the last row, where `a` is 0
//! or n − 1, shares a column or a diagonal with the row-0 queen and is never reached: the lanes
//! loop reads only the last row's own tie square.)
//!
//! The tie squares are given as the whole board's are ([`TaskTies`]: two side rows sharing one
//! mask of side columns, and one square of the last row), so both loops read them unchanged;
//! where G needs different columns in its two side rows the mask is their union (a few more
//! exact checks, never a wrong count). Nearly every solution is untied: the tree the loops
//! search is about 1/|G| of the board's, and the work per solution is the plain count's.
//!
//! A board that keeps all eight symmetries has the same solutions' classes as the whole board
//! restricted to it, so it takes the whole board's own class rules instead (the farthest border
//! queen in row 0, module essay of [`super`]), which cut the tree further.

use std::cmp::Ordering;

use super::attacks::TaskTies;
use super::tasks::{Class, ClassRules, full_mask};
use crate::board::symmetry::Symmetry;

/// The rules of one row-0 column under a group: the squares each row may take (to be
/// intersected with the board's own) and the tie squares. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct GroupRules {
    /// Allowed squares per row (rows `0..n`): row 0 holds the row-0 column alone, or nothing
    /// where no canonical solution has its row-0 queen there.
    pub allowed: Vec<u64>,
    pub ties: TaskTies,
}

impl GroupRules {
    /// The rules for a row-0 queen in column `a` of the n×n board (1 ≤ n ≤ 64, a < n) under the
    /// group `members` (identity included). (n = 1: the one square, tied.)
    pub(crate) fn new(n: u32, a: u32, members: &[Symmetry]) -> Self {
        if n == 1 {
            // The one solution is its own image under every symmetry: tied.
            let ties = TaskTies {
                side_rows: [0, 0],
                side_squares: 1,
                last_square: 1,
            };
            return GroupRules {
                allowed: vec![1],
                ties,
            };
        }
        if members.len() == Symmetry::ALL.len() {
            return Self::whole_board(n, a);
        }
        let (n, a) = (n as usize, a as usize);
        let last = n - 1;
        let mut allowed = vec![full_mask(n as u32); n];
        allowed[0] = 1 << a;
        let (first_side, last_side) = (1u64, 1u64 << last);
        // Tie squares: columns of row a, columns of row n − 1 − a, the last row's square.
        let (mut upper, mut lower, mut last_square) = (0u64, 0u64, 0u64);
        for &symmetry in members {
            match symmetry {
                Symmetry::Identity => {}
                Symmetry::Rotate90 => {
                    clear_rows(&mut allowed, last - a + 1..n, first_side);
                    lower |= first_side;
                }
                Symmetry::Rotate180 => {
                    allowed[last] &= full_mask((n - a) as u32);
                    last_square = 1 << (last - a);
                }
                Symmetry::Rotate270 => {
                    clear_rows(&mut allowed, 0..a, last_side);
                    upper |= last_side;
                }
                Symmetry::MirrorColumns => {
                    if 2 * a > last {
                        allowed[0] = 0;
                    } else if 2 * a == last {
                        allowed[1] &= full_mask(a as u32);
                    }
                }
                Symmetry::MirrorRows => allowed[last] &= !full_mask(a as u32),
                Symmetry::Transpose => {
                    clear_rows(&mut allowed, 0..a, first_side);
                    upper |= first_side;
                }
                Symmetry::AntiTranspose => {
                    clear_rows(&mut allowed, last - a + 1..n, last_side);
                    lower |= last_side;
                }
            }
        }
        let side_rows = match (upper != 0, lower != 0) {
            (true, false) => [a, a],
            (false, true) => [last - a, last - a],
            _ => [a, last - a],
        };
        GroupRules {
            allowed,
            ties: TaskTies {
                side_rows,
                side_squares: upper | lower,
                last_square,
            },
        }
    }

    /// All eight symmetries: the whole board's class rules for a row-0 queen in column `a`
    /// (no square at all where `a` is no class's column).
    fn whole_board(n: u32, a: u32) -> Self {
        let class = Class { b1: a };
        let mut allowed = ClassRules::new(n, class).allowed;
        if a == 0 || 2 * a >= n {
            allowed[0] = 0;
        }
        GroupRules {
            allowed,
            ties: TaskTies::new(n, class),
        }
    }
}

/// Clears the squares `columns` in `rows` (rows past the board are ignored).
fn clear_rows(allowed: &mut [u64], rows: std::ops::Range<usize>, columns: u64) {
    let end = rows.end.min(allowed.len());
    for mask in &mut allowed[rows.start.min(end)..end] {
        *mask &= !columns;
    }
}

/// The size of the class of the solution `columns` under the group `members` (identity
/// included) if it is the class's lexicographically smallest member, or `None` if some image
/// comes before it. O(|group| · n), usually decided at an image's first row. (With all eight
/// symmetries the whole board's order is used instead: `kernel::canonical_orbit`.)
pub(crate) fn orbit(columns: &[u8], members: &[Symmetry]) -> Option<u32> {
    let n = columns.len();
    let (last, l) = ((n - 1) as u8, n - 1);
    let mut inverse = [0u8; 64];
    for (row, &col) in columns.iter().enumerate() {
        inverse[col as usize] = row as u8;
    }
    let mut fixing = 0u32;
    for &symmetry in members {
        // Row i of the image (the maps of `Symmetry`).
        let image = |i: usize| match symmetry {
            Symmetry::Identity => columns[i],
            Symmetry::Rotate90 => last - inverse[i],
            Symmetry::Rotate180 => last - columns[l - i],
            Symmetry::Rotate270 => inverse[l - i],
            Symmetry::MirrorColumns => last - columns[i],
            Symmetry::MirrorRows => columns[l - i],
            Symmetry::Transpose => inverse[i],
            Symmetry::AntiTranspose => last - inverse[l - i],
        };
        let order = (0..n)
            .map(|i| image(i).cmp(&columns[i]))
            .find(|&o| o != Ordering::Equal)
            .unwrap_or(Ordering::Equal);
        match order {
            Ordering::Less => return None,
            Ordering::Equal => fixing += 1,
            Ordering::Greater => {}
        }
    }
    Some(members.len() as u32 / fixing.max(1))
}

/// Every subgroup of the eight symmetries, members in [`Symmetry::ALL`]'s order: the subsets
/// that hold the identity and are closed under composition (10 of them).
#[cfg(test)]
pub(crate) fn subgroups() -> Vec<Vec<Symmetry>> {
    use crate::board::Solution;
    // A placement whose eight images differ: g(h(probe)) names g∘h.
    let probe = Solution::from_columns(vec![1, 3, 0, 4, 2, 6, 5]);
    let images: Vec<Solution> = Symmetry::ALL.iter().map(|s| s.apply(&probe)).collect();
    assert!((1..8).all(|i| !images[..i].contains(&images[i])));
    (0u32..256)
        .filter(|bits| bits & 1 == 1)
        .map(|bits| {
            let members: Vec<Symmetry> = (0..8)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| Symmetry::ALL[i])
                .collect();
            let mine: Vec<Solution> = members.iter().map(|s| s.apply(&probe)).collect();
            let closed = members
                .iter()
                .all(|g| mine.iter().all(|image| mine.contains(&g.apply(image))));
            (closed, members)
        })
        .filter_map(|(closed, members)| closed.then_some(members))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::Problem;
    use crate::board::{Solution, naive};
    use crate::engines::counter::kernel::canonical_orbit;

    #[test]
    fn there_are_ten_subgroups() {
        assert_eq!(subgroups().len(), 10);
    }

    /// Whether `s` is the lexicographically smallest of its images under `members`: the
    /// definition, image by image.
    fn smallest(s: &Solution, members: &[Symmetry]) -> bool {
        members.iter().all(|g| g.apply(s).columns() >= s.columns())
    }

    /// On the whole board of n = 1..=9, under every subgroup: `orbit` is the definition's
    /// answer and the class's size; the rules keep every canonical solution (under all eight,
    /// the whole board's canonical one); an untied solution that obeys them is canonical with a
    /// class of |G|.
    #[test]
    fn the_rules_keep_every_canonical_solution_and_untied_ones_are_whole_classes() {
        let mut untied = 0;
        for n in 1..=9u32 {
            let solutions = naive::solutions(&Problem::new(n).unwrap());
            for members in subgroups() {
                let size = members.len() as u32;
                let eight = size == 8 && n > 1;
                for s in &solutions {
                    let at = format!("n = {n}, {members:?}, {s:?}");
                    let columns: Vec<u8> = s.columns().iter().map(|&c| c as u8).collect();
                    let class: BTreeSet<Solution> = members.iter().map(|g| g.apply(s)).collect();
                    let expected = smallest(s, &members).then_some(class.len() as u32);
                    assert_eq!(orbit(&columns, &members), expected, "{at}");
                    let canonical = if eight {
                        canonical_orbit(&columns).is_some()
                    } else {
                        expected.is_some()
                    };
                    let rules = GroupRules::new(n, u32::from(columns[0]), &members);
                    let obeys = (0..n as usize).all(|r| rules.allowed[r] >> columns[r] & 1 == 1);
                    assert!(obeys || !canonical, "{at}: cut");
                    let placed: Vec<u64> = columns.iter().map(|&c| 1 << c).collect();
                    if obeys && !rules.ties.touched_by(&placed) {
                        untied += 1;
                        assert!(canonical, "{at}");
                        assert_eq!(class.len() as u32, size, "{at}");
                    }
                }
            }
        }
        assert!(untied > 200, "{untied}");
    }

    #[test]
    fn rows_past_the_board_are_ignored() {
        let mut allowed = vec![0b111u64; 3];
        clear_rows(&mut allowed, 2..5, 0b001);
        assert_eq!(allowed, [0b111, 0b111, 0b110]);
    }
}
