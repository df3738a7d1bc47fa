//! What the solver's test files share (a folder of its own, so that it is not a test target,
//! and not `rup.rs`, which the CLI's tests include by path). A test file that declares
//! `mod support;` declares `mod rup;` too: [`solve_checked`] replays proofs with it.

use std::io::Write;
use std::sync::{Arc, Mutex};

use nqueens_sat::{ClauseSink, Cnf, Model, Options, Outcome, Solver, Stats};

/// A shared buffer a proof can be written into while the solver owns the writer.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    /// What was written, as text (a DRAT proof is ASCII).
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// Solves `cnf` with `options` and a DRAT proof, and checks the answer: a model against the
/// formula, a refutation's proof with the forward RUP checker (`rup.rs`). Returns the model
/// (`None`: unsatisfiable) and the solver's counters.
pub fn solve_checked(cnf: &Cnf, options: Options) -> (Option<Model>, Stats) {
    let proof = SharedBuf::default();
    let mut solver = Solver::with_options(options);
    solver.set_proof(proof.clone());
    cnf.add_to(&mut solver);
    let outcome = solver.solve();
    solver.finish_proof().unwrap();
    let model = match outcome {
        Outcome::Sat(model) => {
            assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
            Some(model)
        }
        Outcome::Unsat => {
            let clauses: Vec<Vec<i32>> = cnf
                .clauses()
                .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
                .collect();
            if let Err(e) = super::rup::check(cnf.num_vars(), &clauses, &proof.text()) {
                panic!("the DRAT proof was rejected: {e}");
            }
            None
        }
        Outcome::Unknown(reason) => panic!("no limit was set, yet: {reason}"),
    };
    (model, *solver.stats())
}
