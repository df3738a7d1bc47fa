//! The crate's error type, on the top floor: one enum with a variant for each floor's own error
//! (`#[from]`, so `?` lifts any of them): the board's, the formats', the instances', the
//! engines' ([`EngineError`]: too large, unsupported job, out of memory, gave up at a limit),
//! the long runs' and the registry's. No module below this one names it.

use thiserror::Error;

use crate::board::ProblemError;
use crate::engine::EngineError;
use crate::methods::UnknownMethod;

/// Everything that can go wrong in this crate, short of a bug.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The problem itself is malformed.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// An engine refused the job or did not finish it (too large, unsupported, a limit
    /// reached, out of memory): the engine floor's own error.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A counter run failed (checkpoint or shard files).
    #[error(transparent)]
    Counter(crate::runs::error::CounterError),
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
}

/// A long run's error, lifted: the search's own refusals and stops as [`Error::Engine`] (as
/// the engine's count gives them), the rest as [`Error::Counter`].
impl From<crate::runs::error::CounterError> for Error {
    fn from(error: crate::runs::error::CounterError) -> Self {
        match error {
            crate::runs::error::CounterError::Engine(e) => Error::Engine(e),
            other => Error::Counter(other),
        }
    }
}

impl Error {
    /// The engine's error inside, when this is one.
    pub fn engine(&self) -> Option<&EngineError> {
        match self {
            Error::Engine(e) => Some(e),
            _ => None,
        }
    }

    /// The limit that stopped a search and what it had found, when a limit did.
    pub fn stopped(&self) -> Option<nqueens_support::Stopped> {
        self.engine().and_then(EngineError::stopped)
    }
}

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
