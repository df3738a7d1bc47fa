//! Small pieces every engine crate of the nqueens workspace shares, each written once.
//!
//! - [`SplitMix64`]: the one seeded random number generator (tie-breaking, shuffles, restarts);
//! - [`luby`]: the Luby restart sequence;
//! - [`Position`]: where a parser found a problem (1-based line and column, the column counted
//!   in characters, i.e. Unicode scalar values, so it matches what an editor shows for text
//!   without combining marks);
//! - [`excerpt`]: an input line as an error message may quote it: at most
//!   [`EXCERPT_CHARS`] characters, control characters escaped, so a hostile file can neither
//!   flood the terminal nor send it escape sequences;
//! - [`strip_bom`]: drops a UTF-8 byte-order mark at the start of a file's text;
//! - [`Limits`] and [`Budget`]: the one termination concept every search polls (a node budget,
//!   a conflict budget, a time budget, a stop flag another thread may raise), as Pumpkin's
//!   `termination` module, and [`Stopped`], what a search a limit ended returns in place of its
//!   answer (module [`limits`]);
#![cfg_attr(
    feature = "signals",
    doc = "- [`interrupt`] (feature `signals`): SIGINT and SIGTERM as a raised stop flag, for \
           the front ends' binaries;"
)]
#![cfg_attr(
    not(feature = "signals"),
    doc = "- `interrupt` (feature `signals`, off in this build): SIGINT and SIGTERM as a \
           raised stop flag, for the front ends' binaries;"
)]
//! - [`memory_available`]: what the process may still allocate, so that a job too big for the
//!   machine is refused at once instead of killed half-way;
//! - [`clock::Instant`]: the clock the engines read, `std::time::Instant` everywhere but on
//!   `wasm32-unknown-unknown`, where the standard one panics and this one stands still.
//!
//! The engines (exact cover, SAT, CP) stay libraries on their own: this crate knows nothing of
//! N-Queens, and a change here is pinned by the known-answer tests below.

use std::fmt;

pub mod limits;

pub use limits::{Budget, LimitReached, Limits, Stopped};

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// 64 bits of state, every seed fine, passes BigCrush. Enough for tie-breaking and shuffles; not
/// for cryptography.
///
/// ```
/// let mut rng = nqueens_support::SplitMix64::new(0);
/// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`; the same seed gives the same stream on every machine.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`) by Lemire's multiply-shift on 32 random bits (bias
    /// below 2^-32 · bound, negligible for shuffles and tie-breaks).
    pub fn below(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0, "below(0) has no value to return");
        (((self.next_u64() >> 32) * u64::from(bound)) >> 32) as u32
    }

    /// A number in `0..bound` (`bound > 0`) exactly uniform: Lemire's multiply-and-reject
    /// (draws again in the rare case the product falls in the biased sliver). For sampling
    /// that must be uniform, such as the completion instances.
    pub fn below_unbiased(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0, "below_unbiased(0) has no value to return");
        let bound = u64::from(bound);
        let threshold = (u64::MAX - bound + 1) % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u32;
            }
        }
    }

    /// A number in `0..bound` (`bound > 0`) for bounds beyond `u32`, by 128-bit multiply-shift.
    pub fn below_u64(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0, "below_u64(0) has no value to return");
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below_u64(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The `i`-th term (1-based) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …
/// (Luby, Sinclair and Zuckerman 1993), the restart schedule that is within a log factor of the
/// best fixed schedule for any run-time distribution. O(log i).
///
/// ```
/// let first: Vec<u64> = (1..=8).map(nqueens_support::luby).collect();
/// assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1]);
/// ```
pub fn luby(i: u64) -> u64 {
    assert!(i >= 1, "the Luby sequence starts at index 1");
    // Find the complete prefix of length 2^k − 1 that holds i; its last term is 2^(k−1), and
    // every other position repeats the term of the prefix before it.
    let mut i = i;
    loop {
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Where in a text a parser found something: 1-based line and 1-based column, the column counted
/// in characters (Unicode scalar values) from the start of the line, a byte-order mark not
/// counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
}

impl Position {
    /// The position of the character at byte offset `byte` of `line_text` on line `line`
    /// (1-based); a `byte` past the end points just after the last character.
    pub fn in_line(line: u64, line_text: &str, byte: usize) -> Self {
        let byte = byte.min(line_text.len());
        let before = line_text
            .get(..byte)
            .map_or(byte, |prefix| prefix.chars().count());
        Position {
            line,
            column: before as u64 + 1,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// An error and its causes as one line for a terminal, `: `-separated, leaving out a cause whose
/// text the line already holds (a library error that shows its I/O error's reason would
/// otherwise print the reason twice); control characters become spaces, so no message can
/// drive the terminal. The front ends print every error through this.
///
/// ```
/// use nqueens_support::error_line;
/// let io = std::io::Error::other("disk full\u{1b}[2J");
/// assert_eq!(error_line(&io), "disk full [2J");
/// ```
pub fn error_line(err: &(dyn std::error::Error + 'static)) -> String {
    let mut line = String::new();
    let mut cause = Some(err);
    while let Some(error) = cause {
        let text = error.to_string();
        if !text.is_empty() && !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
        cause = error.source();
    }
    line.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The most characters of an input line an error message quotes.
pub const EXCERPT_CHARS: usize = 200;

/// `text` as an error message may quote it: control characters (escape sequences, carriage
/// returns, bells, …) written as `\u{1b}`-style escapes, tabs as `\t`, and anything beyond
/// [`EXCERPT_CHARS`] characters cut off with `…`.
///
/// ```
/// use nqueens_support::excerpt;
/// assert_eq!(excerpt("a\u{1b}]0;pwned\u{7}b"), "a\\u{1b}]0;pwned\\u{7}b");
/// assert_eq!(excerpt(&"x".repeat(500)).chars().count(), 201);
/// ```
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// `text` without a leading UTF-8 byte-order mark (U+FEFF), which some editors write.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `bytes` without a leading UTF-8 byte-order mark (EF BB BF).
pub fn strip_bom_bytes(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The bytes this process may still allocate, as far as the system says: the smaller of the
/// memory the machine has available (`MemAvailable` plus free swap in `/proc/meminfo`) and what
/// is left under the address-space limit (`ulimit -v`: `Max address space` in
/// `/proc/self/limits` less `VmSize` in `/proc/self/status`). `None` where these files do not
/// exist.
pub fn memory_available() -> Option<u64> {
    /// The number after `key` on its line of `text`, times `unit`.
    fn field(text: &str, key: &str, unit: u64) -> Option<u64> {
        let rest = text.lines().find_map(|line| line.strip_prefix(key))?;
        let number = rest.split_whitespace().next()?;
        number.parse::<u64>().ok().map(|v| v.saturating_mul(unit))
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let machine = meminfo.as_deref().and_then(|text| {
        let available = field(text, "MemAvailable:", 1024)?;
        Some(available.saturating_add(field(text, "SwapFree:", 1024).unwrap_or(0)))
    });
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let address_space = limits
        .as_deref()
        .and_then(|text| field(text, "Max address space", 1))
        .map(|limit| {
            let used = std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|status| field(&status, "VmSize:", 1024))
                .unwrap_or(0);
            limit.saturating_sub(used)
        });
    match (machine, address_space) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(feature = "signals")]
pub mod interrupt;

pub mod clock {
    //! The clock every engine reads (time budgets, progress intervals, elapsed times).
    //!
    //! On every target with an operating system this is `std::time::Instant`. On
    //! `wasm32-unknown-unknown` (the browser) the standard `Instant::now` panics, so there
    //! [`Instant`] is a clock that stands still: `elapsed` is always zero, a time budget never
    //! runs out and progress is reported at most once. Searches there are bounded by node
    //! budgets instead, and the page measures times itself (`performance.now()`).

    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub use std::time::Instant;

    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub use still::Instant;

    #[cfg(any(test, all(target_arch = "wasm32", target_os = "unknown")))]
    mod still {
        use std::ops::Add;
        use std::time::Duration;

        /// A moment of a clock that stands still (see the [module documentation](super)):
        /// now, or (`later`) a moment in the future that now never reaches.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct Instant {
            later: bool,
        }

        impl Instant {
            /// Now, which is always the same moment.
            pub fn now() -> Self {
                Instant { later: false }
            }

            /// Zero: the clock never moves.
            pub fn elapsed(&self) -> Duration {
                Duration::ZERO
            }

            /// Zero: the clock never moves.
            pub fn duration_since(&self, _earlier: Instant) -> Duration {
                Duration::ZERO
            }
        }

        impl Add<Duration> for Instant {
            type Output = Instant;

            /// A moment now never reaches, unless `duration` is zero (then now itself).
            fn add(self, duration: Duration) -> Instant {
                Instant {
                    later: self.later || !duration.is_zero(),
                }
            }
        }

        #[cfg(test)]
        mod tests {
            use super::*;

            #[test]
            fn a_time_budget_never_runs_out_unless_it_is_zero() {
                let start = Instant::now();
                assert!(Instant::now() < start + Duration::from_nanos(1));
                assert!(Instant::now() >= start + Duration::ZERO);
                assert_eq!(start.elapsed(), Duration::ZERO);
                assert_eq!(Instant::now().duration_since(start), Duration::ZERO);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_stream() {
        // The first outputs for seed 0 published with the reference implementation
        // (Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
    }

    #[test]
    fn below_stays_below_and_covers_the_range() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        for bound in [1u64, 3, u64::MAX] {
            assert!(rng.below_u64(bound) < bound);
        }
        for bound in [1u32, 3, 7, u32::MAX] {
            assert!(rng.below_unbiased(bound) < bound);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = SplitMix64::new(3);
        let mut items: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut items);
        assert_ne!(items, (0..100).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn luby_sequence_starts_right() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(63), 32);
    }

    #[test]
    fn positions_count_characters() {
        assert_eq!(Position::in_line(3, "é x", 3).column, 3);
        assert_eq!(Position::in_line(1, "abc", 99).column, 4);
        assert_eq!(
            Position { line: 2, column: 5 }.to_string(),
            "line 2, column 5"
        );
    }

    #[test]
    fn excerpts_escape_controls_and_cut_long_lines() {
        assert_eq!(excerpt("tab\there"), "tab\\there");
        assert_eq!(excerpt("cr\r"), "cr\\u{d}");
        let long = "é".repeat(300);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt("plain"), "plain");
    }

    #[test]
    fn byte_order_marks_are_dropped_once() {
        assert_eq!(strip_bom("\u{feff}5\n"), "5\n");
        assert_eq!(strip_bom("5\n"), "5\n");
        assert_eq!(strip_bom_bytes(b"\xEF\xBB\xBFp cnf"), b"p cnf");
    }
}
