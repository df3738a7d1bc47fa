//! K queens kept from a full solution found by local search: always completable. Costs one
//! local search on the empty board and a partial shuffle of the rows.

use nqueens_support::SplitMix64;

use super::{GenerateError, check_request, partial_shuffle};
use crate::board::{Problem, Queen};

/// Keeps K = `queens` random queens of a random solution found by local search with the seed
/// (see the [module documentation](super)): always completable.
///
/// ```
/// use nqueens_solver::instances::generate::from_solution_partial;
/// let problem = from_solution_partial(50, 40, 3).unwrap();
/// assert_eq!(problem.fixed().len(), 40);
/// assert_eq!(problem, from_solution_partial(50, 40, 3).unwrap());
/// ```
pub fn from_solution_partial(n: u32, queens: u32, seed: u64) -> Result<Problem, GenerateError> {
    // Local search keeps about 30 bytes a row; the row shuffle 4; the queens and their text.
    let bytes = 40 * u64::from(n) + 200 * u64::from(queens);
    check_request(n, queens, bytes)?;
    if queens == 0 {
        return Ok(Problem::new(n).expect("n ≥ 1"));
    }
    if n == 2 || n == 3 {
        return Err(GenerateError::NoSolution { n });
    }
    let mut rng = SplitMix64::new(seed);
    let mut local = crate::engines::local::Local::new(rng.next_u64());
    let empty = Problem::new(n).expect("n ≥ 1");
    let solution = match crate::engine::Engine::solve(&mut local, &empty) {
        Ok(crate::engine::Outcome::Found(solution)) => solution,
        Ok(crate::engine::Outcome::NoSolution) => return Err(GenerateError::NoSolution { n }),
        Err(crate::engine::EngineError::Stopped { stopped, .. }) => {
            return Err(GenerateError::SearchGaveUp {
                n,
                reason: stopped.reason.to_string(),
            });
        }
        Err(err) => {
            return Err(GenerateError::SearchGaveUp {
                n,
                reason: err.to_string(),
            });
        }
    };
    let mut rows: Vec<u32> = (0..n).collect();
    partial_shuffle(&mut rows, queens as usize, &mut rng);
    let columns = solution.columns();
    let kept = rows[..queens as usize]
        .iter()
        .map(|&r| Queen::new(r, columns[r as usize]));
    Ok(Problem::with_fixed(n, kept).expect("queens of a solution"))
}
