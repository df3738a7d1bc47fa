//! A forward DRAT checker, written for the tests and sharing no code with the solver:
//! clauses are `Vec<i32>` in DIMACS numbering, propagation is a plain fixpoint over every live
//! clause (slow, obviously right).
//!
//! Each added lemma must be a reverse unit propagation consequence of the formula and the
//! earlier lemmas still alive: assigning its literals false and propagating reaches a
//! conflict ([`check`]: the solver's refutations are made of such lemmas only). Each deletion
//! must name a live clause (literal order and repeats ignored). The proof must add the empty
//! clause. Two more rules, each in a check of its own:
//!
//! - [`check_drat`]: a lemma that is not RUP may be a *resolution asymmetric tautology* on its
//!   first literal `p` (Järvisalo, Heule and Biere 2012; Wetzler, Heule and Hunt,
//!   "DRAT-trim", 2014): every resolvent of it with a live clause holding `¬p` is RUP (a
//!   tautology is). It keeps satisfiability without being implied, which is how a fresh
//!   variable is defined, so variables beyond the formula's are allowed.
//! - [`check_incremental`]: the formula comes in stages, as an incremental solver takes it in,
//!   and a lemma that is not RUP may be a clause that was live before and was deleted (the
//!   clauses of an eliminated variable put back when a later clause names it), or a RAT
//!   lemma on its first literal whose variable is *fresh*: in no clause given so far and in
//!   no clause deleted so far (a definition, as factoring writes). A given clause may not name
//!   a variable a RAT lemma was on. Every live clause then stays implied by the clauses given
//!   so far and the RAT lemmas (a restored clause was, when it was live), and the RAT lemmas
//!   change no model's values on the given clauses' variables (each can be satisfied by
//!   flipping its fresh variable, whose clauses are all live and checked by the RAT rule),
//!   so the empty clause shows that the given clauses are unsatisfiable. (A RAT lemma on a
//!   variable given clauses name would not do: it need not stay RAT after a later clause.)

use std::collections::{HashMap, HashSet};

/// A clause's identity for deletion: sorted, repeats removed.
fn key(clause: &[i32]) -> Vec<i32> {
    let mut k = clause.to_vec();
    k.sort_unstable();
    k.dedup();
    k
}

/// Which lemmas a check accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// RUP lemmas over the formula's variables.
    Rup,
    /// RUP lemmas and RAT lemmas on their first literal, over any variables.
    Drat,
    /// RUP lemmas, clauses that were live before, and RAT lemmas on a fresh variable.
    Incremental,
}

struct Checker {
    vars: usize,
    rules: Rules,
    clauses: Vec<Option<Vec<i32>>>,
    by_key: HashMap<Vec<i32>, Vec<usize>>,
    /// The keys of the clauses deleted so far.
    deleted: HashSet<Vec<i32>>,
    /// The variables of the clauses given and of those deleted so far (incremental rules: a
    /// RAT lemma's variable must be in neither).
    given_vars: HashSet<u32>,
    deleted_vars: HashSet<u32>,
    /// The variables RAT lemmas were on (incremental rules: no given clause may name one).
    defined: HashSet<u32>,
}

impl Checker {
    /// A clause of the formula (of the stage being given).
    fn give(&mut self, clause: Vec<i32>) -> Result<(), String> {
        if let Some(&l) = clause
            .iter()
            .find(|l| self.defined.contains(&l.unsigned_abs()))
        {
            return Err(format!(
                "a given clause names {l}, a variable the proof defined"
            ));
        }
        self.given_vars
            .extend(clause.iter().map(|l| l.unsigned_abs()));
        self.add(clause);
        Ok(())
    }

    /// Whether `lemma` is a RAT lemma the incremental rules take: on a variable in no clause
    /// given or deleted so far.
    fn is_fresh_rat(&self, lemma: &[i32]) -> bool {
        lemma.first().is_some_and(|p| {
            let var = p.unsigned_abs();
            !self.given_vars.contains(&var) && !self.deleted_vars.contains(&var)
        }) && self.is_rat(lemma)
    }

    fn add(&mut self, clause: Vec<i32>) {
        let largest = clause.iter().map(|l| l.unsigned_abs() as usize).max();
        self.vars = self.vars.max(largest.unwrap_or(0));
        self.by_key
            .entry(key(&clause))
            .or_default()
            .push(self.clauses.len());
        self.clauses.push(Some(clause));
    }

    /// Whether unit propagation from `assumed` (all set true) reaches a conflict.
    fn propagates_to_conflict(&self, assumed: &[i32]) -> bool {
        // 1 true, -1 false, 0 unset, per variable.
        let largest = assumed.iter().map(|l| l.unsigned_abs() as usize).max();
        let mut value = vec![0i8; self.vars.max(largest.unwrap_or(0)) + 1];
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

    /// Whether `lemma` is RUP: its literals all false propagate to a conflict.
    fn is_rup(&self, lemma: &[i32]) -> bool {
        let negated: Vec<i32> = lemma.iter().map(|l| -l).collect();
        self.propagates_to_conflict(&negated)
    }

    /// Whether `lemma` is a RAT on its first literal `p`: each resolvent with a live clause
    /// holding `¬p` is RUP (a tautological one propagates to a conflict at once).
    fn is_rat(&self, lemma: &[i32]) -> bool {
        let Some(&pivot) = lemma.first() else {
            return false;
        };
        self.clauses
            .iter()
            .flatten()
            .filter(|d| d.contains(&-pivot))
            .all(|d| {
                let mut resolvent = lemma.to_vec();
                resolvent.extend(d.iter().copied().filter(|&l| l != -pivot));
                self.is_rup(&resolvent)
            })
    }

    /// Checks one proof line (`line_no` for errors); `true` once it adds the empty clause.
    fn step(&mut self, line_no: usize, line: &str) -> Result<bool, String> {
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
        if self.rules == Rules::Rup
            && let Some(&big) = lits.iter().find(|l| l.unsigned_abs() as usize > self.vars)
        {
            return Err(format!("line {line_no}: literal {big} beyond the formula"));
        }
        if delete {
            let index = self
                .by_key
                .get_mut(&key(&lits))
                .and_then(|v| v.pop())
                .ok_or_else(|| format!("line {line_no}: deletes a clause that is not there"))?;
            self.clauses[index] = None;
            self.deleted_vars
                .extend(lits.iter().map(|l| l.unsigned_abs()));
            self.deleted.insert(key(&lits));
            return Ok(false);
        }
        if !self.is_rup(&lits) {
            match self.rules {
                Rules::Rup => return Err(format!("line {line_no}: lemma {lits:?} is not RUP")),
                Rules::Drat if !self.is_rat(&lits) => {
                    return Err(format!(
                        "line {line_no}: lemma {lits:?} is neither RUP nor RAT"
                    ));
                }
                Rules::Incremental if self.is_fresh_rat(&lits) => {
                    self.defined.insert(lits[0].unsigned_abs());
                }
                Rules::Incremental if !self.deleted.contains(&key(&lits)) => {
                    return Err(format!(
                        "line {line_no}: lemma {lits:?} is not RUP and was never deleted"
                    ));
                }
                _ => {}
            }
        }
        if lits.is_empty() {
            return Ok(true);
        }
        self.add(lits);
        Ok(false)
    }
}

/// Checks the proof `proof`, made of RUP lemmas and deletions, of the formula `clauses` over
/// `vars` variables.
pub fn check(vars: u32, clauses: &[Vec<i32>], proof: &str) -> Result<(), String> {
    check_stages(Rules::Rup, vars, &[(clauses, proof)])
}

/// Checks the DRAT proof `proof` (RUP and RAT lemmas, deletions) of the formula `clauses`
/// over `vars` variables.
pub fn check_drat(vars: u32, clauses: &[Vec<i32>], proof: &str) -> Result<(), String> {
    check_stages(Rules::Drat, vars, &[(clauses, proof)])
}

/// Checks the proof of a formula that came in stages, as an incremental solver takes it in:
/// each stage is the clauses given (they join the formula first) and the proof text written
/// after them, up to the next stage. Lemmas are RUP or restore a clause deleted earlier; the
/// empty clause may come in any stage.
pub fn check_incremental(vars: u32, stages: &[(&[Vec<i32>], &str)]) -> Result<(), String> {
    check_stages(Rules::Incremental, vars, stages)
}

fn check_stages(rules: Rules, vars: u32, stages: &[(&[Vec<i32>], &str)]) -> Result<(), String> {
    let mut checker = Checker {
        vars: vars as usize,
        rules,
        clauses: Vec::new(),
        by_key: HashMap::new(),
        deleted: HashSet::new(),
        given_vars: HashSet::new(),
        deleted_vars: HashSet::new(),
        defined: HashSet::new(),
    };
    let mut line_no = 0;
    for &(clauses, proof) in stages {
        for clause in clauses {
            checker.give(clause.clone())?;
        }
        for line in proof.lines() {
            line_no += 1;
            if checker.step(line_no, line)? {
                return Ok(());
            }
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

#[test]
fn rat_lemmas_pass_the_drat_check_alone_and_only_on_their_first_literal() {
    let formula = vec![vec![1, 2]];
    // A fresh 3 defined as 1 AND 2: three RAT lemmas, none RUP.
    let definition = "-3 1 0\n-3 2 0\n3 -1 -2 0\n";
    let no_refutation = Err("the proof never adds the empty clause".to_string());
    assert_eq!(check_drat(2, &formula, definition), no_refutation);
    let rup_rules = check(3, &formula, definition).unwrap_err();
    assert!(rup_rules.contains("is not RUP"), "{rup_rules}");
    // The pivot is the first literal: against `-1 2`, `-3 1` is RAT on -3 (no clause holds
    // 3), while `1 -3` is not RAT on 1 (the resolvent `1 -3 2` is not RUP).
    let implication = vec![vec![-1, 2]];
    assert_eq!(check_drat(2, &implication, "-3 1 0\n"), no_refutation);
    let wrong_pivot = check_drat(2, &implication, "1 -3 0\n").unwrap_err();
    assert!(wrong_pivot.contains("neither RUP nor RAT"), "{wrong_pivot}");
    // `1 2` and `-1 2` imply 2: the unit -2 is neither RUP nor RAT (its resolvent `-2 1`
    // with `1 2` is not RUP).
    let implied = vec![vec![1, 2], vec![-1, 2]];
    let no = check_drat(2, &implied, "-2 0\n").unwrap_err();
    assert!(no.contains("neither RUP nor RAT"), "{no}");
}

#[test]
fn an_incremental_check_takes_stages_and_restores_only_deleted_clauses() {
    // 1 eliminated (its resolvent `2 3` added, its clauses deleted); a later clause names it,
    // so its clauses come back, and with the clauses after them the formula is refuted.
    let first = vec![vec![1, 2], vec![-1, 3]];
    let eliminate = "2 3 0\nd 1 2 0\nd -1 3 0\n";
    let put_back = "1 2 0\n-1 3 0\n";
    let later = vec![vec![-1, 4]];
    let last = vec![vec![-2], vec![-4]];
    let stages: [(&[Vec<i32>], &str); 3] =
        [(&first, eliminate), (&later, put_back), (&last, "0\n")];
    assert_eq!(check_incremental(4, &stages), Ok(()));
    // Without the put-back the refutation fails: `-2` and `-4` leave `2 3` satisfiable.
    let without: [(&[Vec<i32>], &str); 3] = [(&first, eliminate), (&later, ""), (&last, "0\n")];
    assert!(check_incremental(4, &without).is_err());
    // A clause never deleted is no restore, and the RUP rules take no restore.
    let made_up: [(&[Vec<i32>], &str); 2] = [(&first, eliminate), (&later, "1 4 0\n")];
    let error = check_incremental(4, &made_up).unwrap_err();
    assert!(
        error.contains("line 4") && error.contains("never deleted"),
        "{error}"
    );
    let rup_rules = check(4, &first, &format!("{eliminate}{put_back}")).unwrap_err();
    assert!(rup_rules.contains("line 4"), "{rup_rules}");
}

#[test]
fn an_incremental_check_takes_definitions_of_fresh_variables_only() {
    // `1 2`, `1 3`, `4 2`, `4 3` factored: 5 with `5 2`, `5 3` (RAT on 5), `-5 1`, `-5 4`
    // (RAT on -5), the products deleted; later units refute it.
    let first = vec![vec![1, 2], vec![1, 3], vec![4, 2], vec![4, 3]];
    let factor = "5 2 0\n5 3 0\n-5 1 0\n-5 4 0\nd 1 2 0\nd 1 3 0\nd 4 2 0\nd 4 3 0\n";
    let later = vec![vec![-1], vec![-2]];
    let refute = "-5 0\n0\n";
    let stages: [(&[Vec<i32>], &str); 2] = [(&first, factor), (&later, refute)];
    assert_eq!(check_incremental(4, &stages), Ok(()));
    // A given clause naming the defined variable is refused.
    let names_it = vec![vec![5, -1]];
    let named: [(&[Vec<i32>], &str); 2] = [(&first, factor), (&names_it, "")];
    let error = check_incremental(4, &named).unwrap_err();
    assert!(error.contains("defined"), "{error}");
    // A RAT lemma on a variable a given clause names is not taken: against `1 2` and `-1 3`,
    // `1 -3` is RAT on 1 (its one resolvent, with `-1 3`, a tautology) and not RUP.
    let blocked = vec![vec![1, 2], vec![-1, 3]];
    let no_refutation = Err("the proof never adds the empty clause".to_string());
    assert_eq!(check_drat(3, &blocked, "1 -3 0\n"), no_refutation);
    let on_given = check_incremental(3, &[(&blocked, "1 -3 0\n")]).unwrap_err();
    assert!(on_given.contains("never deleted"), "{on_given}");
    // Nor on a variable of a deleted clause.
    let deleted = "5 2 0\nd 5 2 0\n-5 1 0\n";
    let error = check_incremental(4, &[(&first, deleted)]).unwrap_err();
    assert!(error.contains("line 3"), "{error}");
}
