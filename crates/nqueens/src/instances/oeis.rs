//! Published N-Queens counts, for checking engines (never for answering).
//!
//! The table `data/nqueens-counts.tsv` (copied from OEIS) holds, for n = 1..27, the number of
//! solutions (A000170) and the number of solutions up to the eight board symmetries (A002562).
//! It is compiled into the crate, so tests and `nqueens bench` cross-check every engine against
//! it without reading any file at run time. No engine consults it.

const TABLE: &str = include_str!("../../data/nqueens-counts.tsv");

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// Board size.
    pub n: u32,
    /// A000170(n): all solutions.
    pub total: u128,
    /// A002562(n): solutions up to symmetry.
    pub unique: u128,
}

/// Every row of the table, in order of n.
///
/// # Panics
/// If the embedded table is malformed (a build-time fact, checked by this crate's tests).
pub fn table() -> impl Iterator<Item = Known> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("n\t"))
        .map(|line| {
            let mut fields = line.split('\t');
            let mut next = || fields.next().expect("three tab-separated fields");
            Known {
                n: next().parse().expect("n"),
                total: next().parse().expect("total"),
                unique: next().parse().expect("unique"),
            }
        })
}

/// The row for n, if the table reaches it.
pub fn known(n: u32) -> Option<Known> {
    table().find(|k| k.n == n)
}

/// A000170(n): the number of ways to place n non-attacking queens on an n×n board.
pub fn total(n: u32) -> Option<u128> {
    known(n).map(|k| k.total)
}

/// A002562(n): the same, counting solutions that differ by a board symmetry once.
pub fn unique(n: u32) -> Option<u128> {
    known(n).map(|k| k.unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_one_to_twenty_seven() {
        let ns: Vec<u32> = table().map(|k| k.n).collect();
        assert_eq!(ns, (1..=27).collect::<Vec<_>>());
        assert_eq!(total(8), Some(92));
        assert_eq!(unique(8), Some(12));
        assert_eq!(total(27), Some(234_907_967_154_122_528));
        assert_eq!(total(28), None);
    }

    #[test]
    fn unique_counts_are_consistent_with_totals() {
        // Each class has at most 8 members, and at least 2 for n > 1 (the mirror image of a
        // solution is never itself).
        for k in table().filter(|k| k.n > 1) {
            assert!(
                k.unique * 2 <= k.total && k.total <= k.unique * 8,
                "n = {}",
                k.n
            );
        }
    }
}
