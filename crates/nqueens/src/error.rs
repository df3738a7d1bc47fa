//! The crate's error type: one enum, with a variant for each module's own error (`#[from]`,
//! so `?` lifts any of them), plus the engines' shared refusals (too large, unsupported job,
//! out of memory, gave up at a limit).

use thiserror::Error;

use crate::board::ProblemError;
use crate::job::Job;

/// Everything that can go wrong in this crate, short of a bug.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The problem itself is malformed.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// The board is larger than the method supports.
    #[error("the {method} method handles n up to {max}; n = {n} is too large")]
    TooLarge {
        /// The method's name.
        method: &'static str,
        /// The board size asked for.
        n: u32,
        /// The largest board size the method supports.
        max: u32,
    },
    /// The method cannot do this job (on this problem).
    #[error("the {method} method cannot {job}: {reason}")]
    Unsupported {
        /// The method's name.
        method: &'static str,
        /// What was asked.
        job: Job,
        /// Why not.
        reason: String,
    },
    /// A search reached a limit (node budget, time budget or stop flag) before it finished.
    #[error("the {method} method gave up: {reason}")]
    GaveUp {
        /// The method's name.
        method: &'static str,
        /// Which limit.
        reason: nqueens_support::LimitReached,
    },
    /// A counter run failed (checkpoint or shard files).
    #[error(transparent)]
    Counter(#[from] crate::runs::error::CounterError),
    /// A shard name that is not `I/K`.
    #[error(transparent)]
    Shard(#[from] crate::runs::part::ShardSyntax),
    /// A partial-board file that does not parse.
    #[error(transparent)]
    PartialBoard(#[from] crate::formats::partial::ParseError),
    /// A CSPLib instance file (blocked n-Queens, excluded diagonals) that does not parse.
    #[error(transparent)]
    Instance(#[from] crate::formats::csplib::ParseError),
    /// A board file, in any notation, that cannot be read.
    #[error(transparent)]
    Board(#[from] crate::formats::read::BoardError),
    /// A square that is not `ROW:COL`.
    #[error(transparent)]
    Square(#[from] crate::formats::partial::SquareError),
    /// A solution file that cannot be read.
    #[error(transparent)]
    SolutionFile(#[from] crate::formats::solutions::ReadError),
    /// A grid format asked for a board too large to draw.
    #[error(transparent)]
    GridTooLarge(#[from] crate::formats::render::GridTooLarge),
    /// A format name that is not one of the formats.
    #[error(transparent)]
    UnknownFormat(#[from] crate::formats::render::UnknownFormat),
    /// A colour that SVG does not take.
    #[error(transparent)]
    BadColour(#[from] crate::formats::render::BadColour),
    /// A completion instance that cannot be drawn.
    #[error(transparent)]
    Generate(#[from] crate::instances::generate::error::GenerateError),
    /// A method name that is not one of the methods.
    #[error(transparent)]
    UnknownMethod(#[from] UnknownMethod),
    /// The board needs more memory than the machine can give.
    #[error("the {method} method needs about {} MiB for n = {n}, more than could be allocated", bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// The method's name.
        method: &'static str,
        /// The board size asked for.
        n: u32,
        /// The bytes it asked for.
        bytes: u64,
    },
}

/// The error of parsing a method name (here, not beside the methods, so that the errors do
/// not depend on the registry of methods, which depends on every engine).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown method '{0}'")]
pub struct UnknownMethod(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    /// `?` lifts each module's error into [`Error`] with its own message.
    #[test]
    fn module_errors_lift_with_their_messages() {
        fn lift<E: Into<Error> + ToString>(e: E) -> (String, String) {
            let text = e.to_string();
            (text, e.into().to_string())
        }
        let square = crate::formats::partial::parse_square("0:3").unwrap_err();
        let method = "dancing".parse::<crate::Method>().unwrap_err();
        let format = "pdf".parse::<crate::formats::render::Format>().unwrap_err();
        for (alone, lifted) in [lift(square), lift(method), lift(format)] {
            assert_eq!(alone, lifted);
            assert!(!lifted.is_empty());
        }
    }
}
