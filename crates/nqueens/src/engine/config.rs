//! What a caller sets once for any engine: threads, a seed, where progress goes, the SAT
//! method's encoding and the limits. A module of the engine floor, so every engine reads its
//! settings from below and the registry of methods ([`crate::methods`]) only passes them on.

use std::str::FromStr;

use super::{Limits, ProgressSink};

/// How the SAT method writes its at-most-one constraints (see [`crate::engines::sat`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// The pairwise encoding: about 5n³/3 binary clauses.
    #[default]
    Pairwise,
    /// Sequential-counter at-most-one: about 10n² clauses.
    Compact,
}

impl Encoding {
    /// Both encodings, in the order of `--help`.
    pub const ALL: &'static [Encoding] = &[Encoding::Pairwise, Encoding::Compact];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Pairwise => "pairwise",
            Encoding::Compact => "compact",
        }
    }

    /// The largest board the engine takes with this encoding: beyond it the formula does not
    /// fit in memory (pairwise) or the variables in DIMACS's 31 bits (compact).
    pub const fn max_n(self) -> u32 {
        match self {
            Encoding::Pairwise => 600,
            Encoding::Compact => 15_000,
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .iter()
            .copied()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown encoding '{s}'; expected pairwise or compact"))
    }
}

/// Settings shared by the methods; each method reads the ones it understands. New settings
/// arrive with new methods, so build one from `Config::default()` and set fields.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Worker threads for methods that count in parallel.
    pub threads: usize,
    /// Seed for methods with randomness (`None`: a fixed default, so runs repeat).
    pub seed: Option<u64>,
    /// Where long runs report progress (`None`: nowhere).
    pub progress: Option<ProgressSink>,
    /// The CNF encoding of the SAT method.
    pub encoding: Encoding,
    /// When to give up (node budget, time budget, stop flag); every method honours it.
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            seed: None,
            progress: None,
            encoding: Encoding::default(),
            limits: Limits::default(),
        }
    }
}
