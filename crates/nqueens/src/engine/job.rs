//! The four jobs a caller asks of an engine; the engine floor's error names one when an
//! engine refuses it.

use std::fmt;

/// What a caller asks of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Job {
    /// Find one solution.
    Solve,
    /// Enumerate solutions.
    List,
    /// Count all solutions.
    Count,
    /// Count solutions up to the eight board symmetries.
    CountUnique,
}

impl fmt::Display for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Job::Solve => "find a solution",
            Job::List => "enumerate solutions",
            Job::Count => "count solutions",
            Job::CountUnique => "count solutions up to symmetry",
        })
    }
}
