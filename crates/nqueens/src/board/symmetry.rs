//! The eight symmetries of the square board (the dihedral group D4) and canonical forms.
//!
//! Two solutions are *the same up to symmetry* when one of the eight maps turns one into the
//! other. The canonical form of a solution is the lexicographically smallest column list among
//! its eight images; a solution is *canonical* when it equals its canonical form. Counting the
//! canonical solutions gives OEIS A002562 (the "unique" count), and each class has 1, 2, 4 or 8
//! members ([`orbit_size`]).
//!
//! A board with fixed queens or blocked squares keeps only the symmetries that map its fixed
//! queens onto its fixed queens and its blocked squares onto its blocked squares (a subgroup of
//! the eight, [`Group::of`]): exactly those carry its solutions onto its solutions. Its
//! solutions up to symmetry are the classes under that subgroup, each counted once through its
//! lexicographically smallest member ([`Group::is_canonical`]); a board whose subgroup is the
//! identity alone has as many classes as solutions. Finding the subgroup costs O(8 (k + b)
//! log(k + b)) for k fixed queens and b blocked squares; the canonical check O(|group| · n).

use crate::board::{Problem, Queen, Solution};

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

    /// Its name in words, for people: "half turn", "main-diagonal reflection".
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "quarter turn",
            Symmetry::Rotate180 => "half turn",
            Symmetry::Rotate270 => "three-quarter turn",
            Symmetry::MirrorColumns => "left-right reflection",
            Symmetry::MirrorRows => "top-bottom reflection",
            Symmetry::Transpose => "main-diagonal reflection",
            Symmetry::AntiTranspose => "anti-diagonal reflection",
        }
    }

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

/// The symmetries of one board (a subgroup of the eight, identity first): see the module
/// essay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    members: Vec<Symmetry>,
}

impl Group {
    /// The symmetries that map the fixed queens of `problem` onto its fixed queens and its
    /// blocked squares onto its blocked squares: all eight for the plain board.
    ///
    /// ```
    /// use nqueens_solver::{Problem, Queen};
    /// use nqueens_solver::board::symmetry::{Group, Symmetry};
    /// // A queen in the centre of the 5×5 board keeps all eight symmetries.
    /// let centre = Problem::with_fixed(5, [Queen::new(2, 2)]).unwrap();
    /// assert_eq!(Group::of(&centre).members().len(), 8);
    /// // One blocked corner keeps the identity and the reflection in the main diagonal.
    /// let corner = Problem::with_blocks(5, [], [Queen::new(0, 0)]).unwrap();
    /// assert_eq!(Group::of(&corner).members(), [Symmetry::Identity, Symmetry::Transpose]);
    /// ```
    pub fn of(problem: &Problem) -> Group {
        let n = problem.n();
        let keeps = |symmetry: Symmetry, squares: &[Queen]| {
            let mut images: Vec<Queen> = squares
                .iter()
                .map(|&q| symmetry.apply_to_queen(q, n))
                .collect();
            images.sort_unstable();
            // Both lists are sorted and free of repeats, so equal lists are equal sets.
            images == squares
        };
        let members = Symmetry::ALL
            .into_iter()
            .filter(|&s| keeps(s, problem.fixed()) && keeps(s, problem.blocked()))
            .collect();
        Group { members }
    }

    /// The symmetries in the group, identity first.
    pub fn members(&self) -> &[Symmetry] {
        &self.members
    }

    /// The group in words, as `--stats` names it: "all 8 rotations and reflections", or how
    /// many of the eight and which ("2 of 8: identity, main-diagonal reflection").
    ///
    /// ```
    /// use nqueens_solver::{Problem, Queen};
    /// use nqueens_solver::board::symmetry::Group;
    /// let corner = Problem::with_blocks(5, [], [Queen::new(0, 0)]).unwrap();
    /// assert_eq!(Group::of(&corner).describe(), "2 of 8: identity, main-diagonal reflection");
    /// assert_eq!(Group::of(&Problem::new(5).unwrap()).describe(), "all 8 rotations and reflections");
    /// ```
    pub fn describe(&self) -> String {
        if self.members.len() == Symmetry::ALL.len() {
            return "all 8 rotations and reflections".into();
        }
        let names: Vec<&str> = self.members.iter().map(|s| s.name()).collect();
        format!("{} of 8: {}", self.members.len(), names.join(", "))
    }

    /// Whether the identity is the only member (every solution is its own class).
    pub fn is_trivial(&self) -> bool {
        self.members.len() == 1
    }

    /// Whether `solution` is the lexicographically smallest of its images under the group.
    pub fn is_canonical(&self, solution: &Solution) -> bool {
        is_smallest_image(solution, &self.members)
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
    is_smallest_image(solution, &Symmetry::ALL)
}

/// Whether no image of `solution` under `symmetries` comes before it.
fn is_smallest_image(solution: &Solution, symmetries: &[Symmetry]) -> bool {
    // Compare image by image, so the common case (some image is smaller) stops early.
    symmetries
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

    /// The group's members really map the fixed and blocked sets onto themselves, and the
    /// members it leaves out do not, on random boards; its canonical members are one per class.
    #[test]
    fn a_boards_group_keeps_exactly_its_fixed_and_blocked_sets() {
        let mut rng = nqueens_support::SplitMix64::new(27);
        for _ in 0..300 {
            let n = 1 + rng.below(7);
            let blocked: Vec<Queen> = (0..rng.below(5))
                .map(|_| Queen::new(rng.below(n), rng.below(n)))
                .collect();
            // Blocking a square and its images often keeps some symmetry: mirror half the time.
            let mut squares = blocked.clone();
            if rng.below(2) == 0 {
                squares.extend(
                    blocked
                        .iter()
                        .map(|&q| Symmetry::Rotate180.apply_to_queen(q, n)),
                );
            }
            let Ok(problem) = Problem::with_blocks(n, [], squares) else {
                continue;
            };
            let group = Group::of(&problem);
            assert_eq!(group.members()[0], Symmetry::Identity);
            let set: std::collections::BTreeSet<Queen> =
                problem.blocked().iter().copied().collect();
            for s in Symmetry::ALL {
                let image: std::collections::BTreeSet<Queen> =
                    set.iter().map(|&q| s.apply_to_queen(q, n)).collect();
                assert_eq!(
                    group.members().contains(&s),
                    image == set,
                    "{s:?} on {problem:?}"
                );
            }
            // Classes: solutions reached from each other by members, one canonical per class.
            let solutions = crate::board::naive::solutions(&problem);
            for solution in &solutions {
                let class: std::collections::BTreeSet<Solution> =
                    group.members().iter().map(|s| s.apply(solution)).collect();
                assert!(class.iter().all(|member| solutions.contains(member)));
                let canonical: Vec<&Solution> =
                    class.iter().filter(|m| group.is_canonical(m)).collect();
                assert_eq!(canonical, [class.first().unwrap()]);
            }
        }
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
