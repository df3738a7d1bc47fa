//! One module per subcommand.

pub mod audit;
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
pub mod status;
pub mod verify_file;
pub mod xc;
pub mod xc_export;

use nqueens_solver::board::stride::{StridedSolution, verify_strides};
use nqueens_solver::board::verify::verify_until;
use nqueens_solver::{Problem, Solution};

use crate::interrupt::Interrupted;
use crate::status::Failure;

/// Every solution the CLI prints goes through the independent verifier first (O(n)); a wrong
/// answer from an engine is a bug, reported as a failure rather than printed. A stop (Ctrl-C)
/// ends the check of a huge board at once.
pub fn check_solution(method: &str, problem: &Problem, solution: &Solution) -> anyhow::Result<()> {
    let never = std::sync::atomic::AtomicBool::new(false);
    let stop = crate::interrupt::stop_flag();
    match verify_until(problem, solution, stop.as_deref().unwrap_or(&never)) {
        Some(Ok(())) => Ok(()),
        Some(Err(violation)) => Err(Failure(format!(
            "the {method} method returned a wrong solution: {violation}"
        ))
        .into()),
        None => Err(Interrupted(format!(
            "interrupted after {:.1} s",
            crate::interrupt::elapsed_seconds()
        ))
        .into()),
    }
}

/// [`check_solution`] for a solution given as strides (the construction's): the stride checker
/// answers as the verifier would, without the board, in microseconds whatever n.
pub fn check_strided(
    method: &str,
    problem: &Problem,
    solution: &StridedSolution,
) -> anyhow::Result<()> {
    verify_strides(problem, solution).map_err(|violation| {
        Failure(format!(
            "the {method} method returned a wrong solution: {violation}"
        ))
        .into()
    })
}
