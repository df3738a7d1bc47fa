//! One module per subcommand.

pub mod bench;
pub mod cnf;
pub mod completions;
pub mod count;
pub mod devices;
pub mod gen_blocked;
pub mod gen_completion;
pub mod list;
pub mod man;
pub mod merge;
pub mod sat;
pub mod solve;
pub mod verify_file;
pub mod xc;
pub mod xc_export;

use nqueens::{Problem, Solution, verify};

use crate::Failure;

/// Every solution the CLI prints goes through the independent verifier first (O(n)); a wrong
/// answer from an engine is a bug, reported as a failure rather than printed.
pub fn check_solution(method: &str, problem: &Problem, solution: &Solution) -> Result<(), Failure> {
    verify(problem, solution).map_err(|violation| {
        Failure(format!(
            "the {method} method returned a wrong solution: {violation}"
        ))
    })
}
