//! A small seeded random number generator for tie-breaking and restarts.

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, passes BigCrush, and any seed is
/// fine, which is all tie-breaking needs.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by multiply-shift (bias below 2^-32 for the bounds
    /// used here).
    pub(crate) fn below(&mut self, bound: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(bound)) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_below_and_covers_the_range() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
    }
}
