//! The queens on one family of lines (diagonals or anti-diagonals) in a compact form: a bit
//! "occupied", a bit "crowded", and the exact count of crowded lines only in a hash map, so a
//! board of 10^7 rows keeps its counts in cache. Adding or removing a queen is O(1) (a bit
//! test, or a map lookup on a crowded line) and returns the change in collisions; the
//! invariant is the module's (see [`super`]): the bits, the map and the collisions agree.

use std::collections::HashMap;

/// The queens on one family of lines (diagonals or anti-diagonals), 2n − 1 of them.
#[derive(Clone, Debug)]
pub(super) struct Lines {
    /// Bit `l`: line `l` has at least one queen.
    pub(super) occupied: Vec<u64>,
    /// Bit `l`: line `l` has at least two queens.
    pub(super) crowded: Vec<u64>,
    /// For crowded lines only: queens on the line minus one.
    pub(super) extra: HashMap<usize, u32>,
}

impl Lines {
    pub(super) fn new(lines: usize) -> Self {
        Lines {
            occupied: vec![0; lines.div_ceil(64)],
            crowded: vec![0; lines.div_ceil(64)],
            extra: HashMap::new(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.occupied.fill(0);
        self.crowded.fill(0);
        self.extra.clear();
    }

    pub(super) fn bit(words: &[u64], line: usize) -> bool {
        words[line / 64] >> (line % 64) & 1 == 1
    }

    pub(super) fn is_free(&self, line: usize) -> bool {
        !Self::bit(&self.occupied, line)
    }

    pub(super) fn is_crowded(&self, line: usize) -> bool {
        Self::bit(&self.crowded, line)
    }

    /// Queens on the line.
    pub(super) fn count(&self, line: usize) -> u32 {
        if self.is_crowded(line) {
            1 + self.extra[&line]
        } else {
            u32::from(!self.is_free(line))
        }
    }

    /// Puts a queen on the line; returns the collisions this adds (0 or 1).
    pub(super) fn add(&mut self, line: usize) -> u64 {
        let (word, bit) = (line / 64, 1u64 << (line % 64));
        if self.occupied[word] & bit == 0 {
            self.occupied[word] |= bit;
            return 0;
        }
        if self.crowded[word] & bit == 0 {
            self.crowded[word] |= bit;
            self.extra.insert(line, 1);
        } else {
            *self
                .extra
                .get_mut(&line)
                .expect("a crowded line has a count") += 1;
        }
        1
    }

    /// Takes a queen off the line; returns the collisions this removes (0 or 1) and whether the
    /// line is still crowded afterwards.
    pub(super) fn remove(&mut self, line: usize) -> (u64, bool) {
        let (word, bit) = (line / 64, 1u64 << (line % 64));
        debug_assert!(self.occupied[word] & bit != 0, "no queen on line {line}");
        if self.crowded[word] & bit == 0 {
            self.occupied[word] &= !bit;
            return (0, false);
        }
        let extra = self
            .extra
            .get_mut(&line)
            .expect("a crowded line has a count");
        *extra -= 1;
        if *extra == 0 {
            self.extra.remove(&line);
            self.crowded[word] &= !bit;
            (1, false)
        } else {
            (1, true)
        }
    }
}
