//! Where queens may not stand: nowhere or a set of squares. The search is compiled once for
//! each ([`BlockedSquares`]), so the plain board's pays nothing for blocked squares; a look-up
//! in the set is O(1).

use std::collections::HashSet;

/// Where queens may not stand: nowhere ([`NoBlocks`], the plain board and completions) or a
/// set of squares ([`Blocks`]). [`Search`] is compiled for each, so the plain board's search
/// has no test at all.
pub(super) trait BlockedSquares {
    /// Whether the square `row · n + col` is blocked.
    fn contains(&self, square: u64) -> bool;
    /// Whether any square is.
    const ANY: bool;
}

/// No blocked square.
pub(super) struct NoBlocks;

impl BlockedSquares for NoBlocks {
    #[inline(always)]
    fn contains(&self, _square: u64) -> bool {
        false
    }
    const ANY: bool = false;
}

/// Blocked squares, as `row · n + col`.
pub(super) struct Blocks(pub(super) HashSet<u64>);

impl BlockedSquares for Blocks {
    fn contains(&self, square: u64) -> bool {
        self.0.contains(&square)
    }
    const ANY: bool = true;
}
