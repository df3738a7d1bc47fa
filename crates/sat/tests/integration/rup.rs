//! A forward DRAT checker for proofs made only of RUP lemmas, written for the tests and
//! sharing no code with the solver: clauses are `Vec<i32>` in DIMACS numbering, propagation is
//! a plain fixpoint over every live clause (slow, obviously right).
//!
//! Each added lemma must be a reverse unit propagation consequence of the formula and the
//! earlier lemmas still alive: assigning its literals false and propagating reaches a
//! conflict. Each deletion must name a live clause (literal order and repeats ignored). The
//! proof must add the empty clause.

use std::collections::HashMap;

/// A clause's identity for deletion: sorted, repeats removed.
fn key(clause: &[i32]) -> Vec<i32> {
    let mut k = clause.to_vec();
    k.sort_unstable();
    k.dedup();
    k
}

struct Checker {
    vars: usize,
    clauses: Vec<Option<Vec<i32>>>,
    by_key: HashMap<Vec<i32>, Vec<usize>>,
}

impl Checker {
    fn add(&mut self, clause: Vec<i32>) {
        self.by_key
            .entry(key(&clause))
            .or_default()
            .push(self.clauses.len());
        self.clauses.push(Some(clause));
    }

    /// Whether unit propagation from `assumed` (all set true) reaches a conflict.
    fn propagates_to_conflict(&self, assumed: &[i32]) -> bool {
        // 1 true, -1 false, 0 unset, per variable.
        let mut value = vec![0i8; self.vars + 1];
        let lit_value = |value: &[i8], lit: i32| {
            let v = value[lit.unsigned_abs() as usize];
            if lit > 0 { v } else { -v }
        };
        for &lit in assumed {
            match lit_value(&value, lit) {
                -1 => return true,
                0 => value[lit.unsigned_abs() as usize] = if lit > 0 { 1 } else { -1 },
                _ => {}
            }
        }
        loop {
            let mut changed = false;
            for clause in self.clauses.iter().flatten() {
                let mut unset = None;
                let mut unset_count = 0;
                let mut satisfied = false;
                for &lit in clause {
                    match lit_value(&value, lit) {
                        1 => {
                            satisfied = true;
                            break;
                        }
                        0 if unset != Some(lit) => {
                            unset_count += 1;
                            unset = Some(lit);
                        }
                        _ => {}
                    }
                }
                if satisfied {
                    continue;
                }
                match (unset_count, unset) {
                    (0, _) => return true,
                    (1, Some(lit)) => {
                        value[lit.unsigned_abs() as usize] = if lit > 0 { 1 } else { -1 };
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return false;
            }
        }
    }
}

/// Checks the DRAT `proof` of the formula `clauses` over `vars` variables.
pub fn check(vars: u32, clauses: &[Vec<i32>], proof: &str) -> Result<(), String> {
    let mut checker = Checker {
        vars: vars as usize,
        clauses: Vec::new(),
        by_key: HashMap::new(),
    };
    for clause in clauses {
        checker.add(clause.clone());
    }
    for (i, line) in proof.lines().enumerate() {
        let line_no = i + 1;
        let (delete, body) = match line.strip_prefix("d ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut lits: Vec<i32> = body
            .split_whitespace()
            .map(|t| {
                t.parse::<i32>()
                    .map_err(|_| format!("line {line_no}: bad token {t:?}"))
            })
            .collect::<Result<_, _>>()?;
        if lits.pop() != Some(0) || lits.contains(&0) {
            return Err(format!("line {line_no}: not a clause ended by 0"));
        }
        if let Some(&big) = lits.iter().find(|l| l.unsigned_abs() > vars) {
            return Err(format!("line {line_no}: literal {big} beyond the formula"));
        }
        if delete {
            let index = checker
                .by_key
                .get_mut(&key(&lits))
                .and_then(|v| v.pop())
                .ok_or_else(|| format!("line {line_no}: deletes a clause that is not there"))?;
            checker.clauses[index] = None;
        } else {
            let negated: Vec<i32> = lits.iter().map(|l| -l).collect();
            if !checker.propagates_to_conflict(&negated) {
                return Err(format!("line {line_no}: lemma {lits:?} is not RUP"));
            }
            if lits.is_empty() {
                return Ok(());
            }
            checker.add(lits);
        }
    }
    Err("the proof never adds the empty clause".to_string())
}

#[test]
fn the_checker_rejects_what_it_should() {
    let formula = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    assert_eq!(check(2, &formula, "2 0\n0\n"), Ok(()));
    assert!(check(2, &formula, "").is_err(), "no empty clause");
    assert!(
        check(2, &formula[..3], "2 0\n0\n").is_err(),
        "a satisfiable formula"
    );
    assert!(
        check(2, &formula, "d 1 -1 0\n0\n").is_err(),
        "deleting a missing clause"
    );
    assert!(
        check(2, &formula, "d 2 1 0\nd 2 -1 0\n2 0\n").is_err(),
        "lemma no longer RUP"
    );
    assert!(check(2, &formula, "3 0\n").is_err(), "unknown variable");
}
