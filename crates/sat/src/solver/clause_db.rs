//! The arena of long clauses (three or more literals).
//!
//! Every clause lives in one `Vec<u32>`: three header words, then its literal codes. A
//! [`ClauseRef`] is the offset of the first header word, so a clause is reached with one index
//! and its header shares a cache line with its first literals. Binary clauses never come here:
//! the solver keeps them in implication lists.
//!
//! Header words: `size`; `meta` (bit 0 learnt, bit 1 deleted, bits 2–3 how many more
//! reductions the clause survives for its last use in a conflict, 0 to 2, bit 4 vivified:
//! tried by vivification since it was made, `vivify`; bits 5.. the LBD, which only decreases);
//! `search`, the position where the last search for a replacement watch stopped (Gent 2013:
//! starting there instead of at 2 keeps long clauses from being rescanned from the front).
//! Deleting only sets a bit; [`ClauseDb::collect_garbage`] later
//! copies the live clauses into a fresh arena and returns a [`Relocation`] to remap references.

use std::collections::TryReserveError;

use crate::lit::Lit;

/// The offset of a clause in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub(crate) struct ClauseRef(u32);

const HEADER: usize = 3;
const SIZE: usize = 0;
const META: usize = 1;
const SEARCH: usize = 2;

const LEARNT: u32 = 1;
const DELETED: u32 = 2;
const USED_SHIFT: u32 = 2;
const USED_MASK: u32 = 3 << USED_SHIFT;
const VIVIFIED: u32 = 1 << 4;
const LBD_SHIFT: u32 = 5;
const LBD_MAX: u32 = u32::MAX >> LBD_SHIFT;

#[derive(Clone, Debug, Default)]
pub(crate) struct ClauseDb {
    arena: Vec<u32>,
    /// Words taken by deleted clauses.
    wasted: usize,
}

impl ClauseDb {
    /// Stores a clause of at least three literals and returns its reference.
    pub(crate) fn add(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> ClauseRef {
        debug_assert!(lits.len() >= 3);
        let at = u32::try_from(self.arena.len()).expect("clause arena beyond 2^32 words");
        self.arena.push(lits.len() as u32);
        self.arena
            .push((u32::from(learnt) * LEARNT) | (lbd.min(LBD_MAX) << LBD_SHIFT));
        self.arena.push(HEADER as u32);
        self.arena.extend(lits.iter().map(|l| l.code()));
        ClauseRef(at)
    }

    /// Makes room for `words` more words (a clause takes three plus its size) without
    /// aborting when the memory is not to be had.
    pub(crate) fn try_reserve(&mut self, words: usize) -> Result<(), TryReserveError> {
        self.arena.try_reserve(words)
    }

    #[inline]
    fn start(cref: ClauseRef) -> usize {
        cref.0 as usize
    }

    #[inline]
    pub(crate) fn size(&self, cref: ClauseRef) -> usize {
        self.arena[Self::start(cref) + SIZE] as usize
    }

    /// The literal codes.
    #[inline]
    pub(crate) fn lits(&self, cref: ClauseRef) -> &[u32] {
        let start = Self::start(cref) + HEADER;
        &self.arena[start..start + self.size(cref)]
    }

    /// For propagation: the literal codes (mutable) and the saved search position of a clause
    /// that is not deleted, or `None` for a deleted one; the header is read once, with one
    /// bounds check for the whole clause.
    #[inline(always)]
    pub(crate) fn live_lits_and_search_mut(
        &mut self,
        cref: ClauseRef,
    ) -> Option<(&mut [u32], &mut u32)> {
        let start = Self::start(cref);
        let size = self.arena[start + SIZE] as usize;
        let (header, rest) = self.arena[start..start + HEADER + size].split_at_mut(HEADER);
        match header {
            [_, meta, search] if *meta & DELETED == 0 => Some((rest, search)),
            _ => None,
        }
    }

    /// The clause's literals, as a vector.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub(crate) fn to_lits(&self, cref: ClauseRef) -> Vec<Lit> {
        self.lits(cref).iter().map(|&c| Lit::from_code(c)).collect()
    }

    fn meta(&self, cref: ClauseRef) -> u32 {
        self.arena[Self::start(cref) + META]
    }

    fn meta_mut(&mut self, cref: ClauseRef) -> &mut u32 {
        &mut self.arena[Self::start(cref) + META]
    }

    pub(crate) fn is_learnt(&self, cref: ClauseRef) -> bool {
        self.meta(cref) & LEARNT != 0
    }

    pub(crate) fn is_deleted(&self, cref: ClauseRef) -> bool {
        self.meta(cref) & DELETED != 0
    }

    pub(crate) fn lbd(&self, cref: ClauseRef) -> u32 {
        self.meta(cref) >> LBD_SHIFT
    }

    /// Lowers the recorded LBD to `lbd` (a higher value is ignored).
    pub(crate) fn lower_lbd(&mut self, cref: ClauseRef, lbd: u32) {
        let meta = self.meta_mut(cref);
        if lbd < *meta >> LBD_SHIFT {
            *meta = (*meta & !(LBD_MAX << LBD_SHIFT)) | (lbd << LBD_SHIFT);
        }
    }

    /// Returns how many more reductions the clause survives for its last use (0 to 2), and
    /// counts one reduction down from it.
    pub(crate) fn take_used(&mut self, cref: ClauseRef) -> u32 {
        let meta = self.meta_mut(cref);
        let used = (*meta & USED_MASK) >> USED_SHIFT;
        *meta = (*meta & !USED_MASK) | (used.saturating_sub(1) << USED_SHIFT);
        used
    }

    /// How many more reductions the clause survives for its last use (0 to 2).
    pub(crate) fn used(&self, cref: ClauseRef) -> u32 {
        (self.meta(cref) & USED_MASK) >> USED_SHIFT
    }

    /// Whether vivification tried the clause since it was made (a clause changes only by
    /// being replaced, so a new clause starts untried).
    pub(crate) fn is_vivified(&self, cref: ClauseRef) -> bool {
        self.meta(cref) & VIVIFIED != 0
    }

    /// Marks the clause as tried by vivification.
    pub(crate) fn set_vivified(&mut self, cref: ClauseRef) {
        *self.meta_mut(cref) |= VIVIFIED;
    }

    /// Records a use: the clause survives the next `reductions` reductions (1 or 2).
    pub(crate) fn mark_used(&mut self, cref: ClauseRef, reductions: u32) {
        debug_assert!((1..=2).contains(&reductions));
        let meta = self.meta_mut(cref);
        let used = ((*meta & USED_MASK) >> USED_SHIFT).max(reductions);
        *meta = (*meta & !USED_MASK) | (used << USED_SHIFT);
    }

    pub(crate) fn delete(&mut self, cref: ClauseRef) {
        debug_assert!(!self.is_deleted(cref));
        *self.meta_mut(cref) |= DELETED;
        self.wasted += HEADER + self.size(cref);
    }

    /// Whether deleted clauses take more than half of the arena.
    pub(crate) fn mostly_garbage(&self) -> bool {
        self.wasted * 2 > self.arena.len()
    }

    /// Every clause in arena order, deleted ones included.
    pub(crate) fn refs(&self) -> impl Iterator<Item = ClauseRef> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            if at >= self.arena.len() {
                return None;
            }
            let cref = ClauseRef(at as u32);
            at += HEADER + self.arena[at + SIZE] as usize;
            Some(cref)
        })
    }

    /// Copies the live clauses into a new arena, in order. The returned relocation maps old
    /// references to new ones until it is dropped.
    pub(crate) fn collect_garbage(&mut self) -> Relocation {
        let old = std::mem::take(&mut self.arena);
        let mut fresh = Vec::with_capacity(old.len() - self.wasted);
        let mut at = 0;
        let mut moved = old;
        while at < moved.len() {
            let len = HEADER + moved[at + SIZE] as usize;
            if moved[at + META] & DELETED == 0 {
                let new_at = fresh.len() as u32;
                fresh.extend_from_slice(&moved[at..at + len]);
                // The old search word now holds the forwarding address.
                moved[at + SEARCH] = new_at;
            }
            at += len;
        }
        self.arena = fresh;
        self.wasted = 0;
        Relocation { old: moved }
    }
}

/// Old-to-new clause references after [`ClauseDb::collect_garbage`].
pub(crate) struct Relocation {
    old: Vec<u32>,
}

impl Relocation {
    /// Where a clause moved, or `None` when it was deleted.
    pub(crate) fn map(&self, cref: ClauseRef) -> Option<ClauseRef> {
        let at = cref.0 as usize;
        (self.old[at + META] & DELETED == 0).then(|| ClauseRef(self.old[at + SEARCH]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(numbers: &[i32]) -> Vec<Lit> {
        numbers
            .iter()
            .map(|&n| Lit::from_dimacs(n.into()).unwrap())
            .collect()
    }

    #[test]
    fn garbage_collection_keeps_live_clauses_and_forwards_references() {
        let mut db = ClauseDb::default();
        let a = db.add(&lits(&[1, 2, 3]), false, 0);
        let b = db.add(&lits(&[-1, 2, 4, 5]), true, 3);
        let c = db.add(&lits(&[3, -4, 5]), true, 2);
        assert_eq!(db.lbd(b), 3);
        assert!(db.is_learnt(b) && !db.is_learnt(a));
        db.mark_used(c, 2);
        db.set_vivified(c);
        db.lower_lbd(c, 5);
        db.lower_lbd(a, 0);
        db.delete(b);
        assert!(db.live_lits_and_search_mut(b).is_none());
        let (codes, search) = db.live_lits_and_search_mut(c).unwrap();
        assert_eq!((codes.len(), *search), (3, 3));
        *search = 2;
        assert_eq!(db.refs().count(), 3);
        let relocation = db.collect_garbage();
        assert_eq!(relocation.map(b), None);
        let (a2, c2) = (relocation.map(a).unwrap(), relocation.map(c).unwrap());
        assert_eq!(db.to_lits(a2), lits(&[1, 2, 3]));
        assert_eq!(db.to_lits(c2), lits(&[3, -4, 5]));
        assert_eq!(db.lbd(c2), 2);
        // The vivified mark moved too, and touches neither the LBD nor the use count.
        assert!(db.is_vivified(c2) && !db.is_vivified(a2));
        assert_eq!(db.used(c2), 2);
        // The search position moved with its clause.
        assert_eq!(*db.live_lits_and_search_mut(c2).unwrap().1, 2);
        assert_eq!(db.lbd(a2), 0);
        assert!(!db.is_learnt(a2) && db.is_learnt(c2));
        assert_eq!(db.take_used(c2), 2);
        db.mark_used(c2, 1);
        assert_eq!(db.take_used(c2), 1);
        assert_eq!(db.take_used(c2), 0);
        assert_eq!(db.take_used(c2), 0);
        assert!(!db.is_deleted(c2));
        assert_eq!(db.refs().count(), 2);
    }
}
