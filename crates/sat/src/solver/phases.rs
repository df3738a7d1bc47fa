//! Which sign a decision takes: saved, target and best phases, and rephasing.
//!
//! Phase saving (Pipatsrisawat and Darwiche 2007) remembers the last value of every variable
//! (`Solver::phase`, written when backtracking unassigns it). Biere and Fleury ("Chasing
//! Target Phases", POS 2020) add two remembered assignments:
//!
//! - the **target phase**: the assignment of the longest *conflict-free* trail prefix since the
//!   last restart or rephase. A prefix is conflict-free when propagation closed it without a conflict: at
//!   a conflict on level `d`, the trail up to the start of level `d`; before a restart, the
//!   whole (propagated) trail. In stable mode decisions take the target phase when the
//!   variable has one, else the saved phase, so the search keeps steering back toward the
//!   largest consistent assignment it has seen instead of the last one: what finds models of
//!   hard satisfiable formulas (random k-SAT near the threshold). Keeping it across restarts
//!   (clearing it only at a rephase or a mode switch) found more models but cost Tseitin and
//!   the ordering principle twice the conflicts or more: docs/notes/sat-solver.md,
//!   "Target phases".
//!   Values recorded before a restart stay as hints for the variables the new prefix has not
//!   reached yet; only its length starts again.
//! - the **best phase**: the same, but cleared only by a rephase to the best phase, so over a
//!   longer stretch of the search.
//!
//! Every [`Options::rephase_interval`](super::Options::rephase_interval) `· k` conflicts (the
//! `k`-th time), in stable mode only, the saved phases are overwritten. With
//! [`Options::walk`](super::Options::walk) (the default) the schedule is B, W repeated:
//! **B**est (every variable with a best phase to it), then **W**alk (the best assignment of a
//! ProbSAT walk from the saved phases, `walk`). Without walks it is O, I, then B, O, B, I
//! repeated (CaDiCaL's without its walk and flipping): **O**riginal (every variable to
//! [`Options::initial_phase`](super::Options::initial_phase)), **I**nverted, **B**est.
//! Rephasing without a walk, or in focused mode too, measured worse (BENCHMARKS.md). Each
//! rephase clears the target phases; a rephase to best clears the best ones too.
//!
//! The invariant (the tests hold it to a snapshot oracle): after every update, for each
//! position `i < target_assigned` of the trail it was recorded from, `target[var]` is the sign
//! the literal at `i` had there, and `target_assigned` is the length of the longest
//! conflict-free prefix seen since the last restart or rephase; likewise for `best`, since the
//! last rephase to best. Variables outside that prefix keep older values (or 0, none), as in
//! CaDiCaL.
//!
//! Cost: copying the prefix on every improvement would cost its length each time. Instead
//! `target_synced` (`best_synced`) is the length of the trail prefix unchanged since the last
//! recording (backtracking lowers it): only the literals past it are copied, so recording costs
//! at most the assignments made since, bounded by the propagations. A rephase is O(variables).

use super::Solver;
use super::search_state::Rephase;
use crate::lit::Lit;

/// Copies the signs of `trail[from..to]` into `phases` (by variable).
fn record(phases: &mut [i8], trail: &[Lit], from: usize, to: usize) {
    for lit in &trail[from..to] {
        phases[lit.var().index()] = if lit.is_positive() { 1 } else { -1 };
    }
}

/// Makes the first `consistent` literals of the trail the recorded phase (`signs`, with its
/// `assigned` and `synced` lengths) when that prefix is longer than the one recorded.
fn extend(
    signs: &mut [i8],
    assigned: &mut usize,
    synced: &mut usize,
    trail: &[Lit],
    consistent: usize,
) {
    if consistent > *assigned {
        record(signs, trail, (*synced).min(consistent), consistent);
        *assigned = consistent;
        *synced = consistent;
    }
}

impl Solver {
    /// Records the first `consistent` literals of the trail, a prefix closed under
    /// propagation without conflict, as the target (best) phase when longer than the one
    /// recorded.
    pub(super) fn update_target_and_best(&mut self, consistent: usize) {
        if !self.options.target_phases {
            return;
        }
        let phases = &mut self.phases;
        extend(
            &mut phases.target,
            &mut phases.target_assigned,
            &mut phases.target_synced,
            &self.trail,
            consistent,
        );
        extend(
            &mut phases.best,
            &mut phases.best_assigned,
            &mut phases.best_synced,
            &self.trail,
            consistent,
        );
    }

    /// A restart: the target phase starts again from the next conflict-free trail (the best
    /// phase stays).
    pub(super) fn reset_target(&mut self) {
        self.phases.target_assigned = 0;
    }

    /// Forgets the target phase altogether (at the start of each solve).
    pub(super) fn clear_target(&mut self) {
        self.phases.target.fill(0);
        self.phases.target_assigned = 0;
        self.phases.target_synced = 0;
    }

    /// The sign to decide `var` with: in stable mode its target phase if it has one, else its
    /// saved phase. True: positive.
    #[inline]
    pub(super) fn decision_phase(&self, var: usize) -> bool {
        if self.mode.stable && self.options.target_phases {
            match self.phases.target[var] {
                1 => return true,
                -1 => return false,
                _ => {}
            }
        }
        self.phase[var]
    }

    /// Rephases when it is due (between conflicts, at any level: only the saved phases change,
    /// which the next decisions read). Returns the kind applied, if any.
    pub(super) fn rephase_if_due(&mut self) -> Option<Rephase> {
        if self.stats.conflicts < self.phases.next_rephase || !self.mode.stable {
            return None;
        }
        let kind = Rephase::nth(self.phases.rephases, self.options.walk);
        self.rephase(kind);
        #[cfg(test)]
        self.phases
            .log
            .push((self.stats.conflicts, kind, self.mode.stable));
        self.phases.rephases += 1;
        self.stats.rephases += 1;
        let delay = self
            .options
            .rephase_interval
            .saturating_mul(self.phases.rephases + 1);
        self.phases.next_rephase = self.stats.conflicts.saturating_add(delay);
        Some(kind)
    }

    /// Overwrites the saved phases as `kind` says and clears the target phases (and, for a
    /// rephase to best, the best ones).
    pub(super) fn rephase(&mut self, kind: Rephase) {
        let initial = self.options.initial_phase;
        match kind {
            Rephase::Original => self.phase.fill(initial),
            Rephase::Inverted => self.phase.fill(!initial),
            Rephase::Best => {
                for (phase, &best) in self.phase.iter_mut().zip(&self.phases.best) {
                    if best != 0 {
                        *phase = best > 0;
                    }
                }
                self.phases.best.fill(0);
                self.phases.best_assigned = 0;
                self.phases.best_synced = 0;
            }
            Rephase::Walk => {
                let since = self.stats.propagations - self.phases.walked_at;
                self.phases.walked_at = self.stats.propagations;
                self.walk(since.saturating_mul(self.options.walk_effort) / 1000);
            }
        }
        self.clear_target();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;
    use crate::lit::lit;
    use crate::solver::{Limits, Options, Outcome};
    use nqueens_support::SplitMix64;

    fn random_3sat(solver: &mut Solver, rng: &mut SplitMix64, vars: u64, clauses: usize) {
        for _ in 0..clauses {
            let clause: Vec<Lit> = (0..3)
                .map(|_| {
                    let var = (rng.next_u64() % vars) as i64 + 1;
                    lit(if rng.next_u64() & 1 == 0 { var } else { -var })
                })
                .collect();
            solver.add_clause(&clause);
        }
    }

    #[test]
    fn the_schedule_is_o_i_then_b_o_b_i() {
        let letters: String = (0..14).map(|k| Rephase::nth(k, false).letter()).collect();
        assert_eq!(letters, "OIBOBIBOBIBOBI");
        let letters: String = (0..14).map(|k| Rephase::nth(k, true).letter()).collect();
        assert_eq!(letters, "BWBWBWBWBWBWBW");
    }

    /// Drives the trail by hand (random decisions, propagation, random backjumps) and holds
    /// the target and best phases to a snapshot oracle: at each conflict the conflict-free
    /// prefix is the trail below the conflict's level; the oracle copies the whole prefix
    /// whenever it is longer than the one it holds.
    #[test]
    fn target_and_best_are_the_longest_conflict_free_prefixes() {
        for seed in 1..=20u64 {
            let mut rng = SplitMix64::new(seed);
            let mut solver = Solver::new();
            random_3sat(&mut solver, &mut rng, 40, 150);
            if solver.inconsistent {
                continue;
            }
            let vars = solver.num_vars as usize;
            // The oracle: the recorded prefixes, as literals.
            let mut target: Vec<Lit> = Vec::new();
            let mut best: Vec<Lit> = Vec::new();
            let mut updates = 0;
            for step in 0..400 {
                if step % 97 == 96 {
                    // A restart: the target starts again, the best stays.
                    solver.cancel_until(0);
                    solver.reset_target();
                    target.clear();
                }
                if step % 151 == 150 {
                    solver.rephase(Rephase::Best);
                    target.clear();
                    best.clear();
                }
                let consistent = match solver.propagate() {
                    Some(_) if solver.decision_level() == 0 => break,
                    Some(_) => solver.trail_lim[solver.decision_level() as usize - 1],
                    None => solver.trail.len(),
                };
                solver.update_target_and_best(consistent);
                updates += 1;
                if consistent > target.len() {
                    target = solver.trail[..consistent].to_vec();
                }
                if consistent > best.len() {
                    best = solver.trail[..consistent].to_vec();
                }
                assert_eq!(solver.phases.target_assigned, target.len(), "seed {seed}");
                assert_eq!(solver.phases.best_assigned, best.len(), "seed {seed}");
                for &l in &target {
                    let want = if l.is_positive() { 1 } else { -1 };
                    assert_eq!(solver.phases.target[l.var().index()], want, "seed {seed}");
                }
                for &l in &best {
                    let want = if l.is_positive() { 1 } else { -1 };
                    assert_eq!(solver.phases.best[l.var().index()], want, "seed {seed}");
                }
                // Next: backjump after a conflict, else decide a random unassigned variable.
                if solver.trail.len() > consistent || solver.trail.len() == vars {
                    if solver.decision_level() == 0 {
                        break;
                    }
                    let level = rng.next_u64() % u64::from(solver.decision_level());
                    solver.cancel_until(level as u32);
                } else {
                    let free: Vec<usize> =
                        (0..vars).filter(|&v| solver.values[2 * v] == 0).collect();
                    let var = free[(rng.next_u64() % free.len() as u64) as usize];
                    let sign = if rng.next_u64() & 1 == 0 { 1 } else { -1 };
                    solver.new_decision_level();
                    solver.assign(lit(sign * (var as i64 + 1)), super::super::Reason::Decision);
                }
            }
            assert!(updates > 100, "seed {seed}");
        }
    }

    #[test]
    fn rephasing_sets_the_saved_phases_and_clears_the_target() {
        let mut solver = Solver::new();
        let (a, b, c) = (lit(1), lit(-2), lit(3));
        solver.add_clause(&[a, b, c]);
        solver.add_clause(&[!a, !b, c]);
        // A conflict-free trail a, ¬2 recorded as target and best.
        solver.new_decision_level();
        solver.assign(a, super::super::Reason::Decision);
        solver.new_decision_level();
        solver.assign(b, super::super::Reason::Decision);
        assert!(solver.propagate().is_none());
        let consistent = solver.trail.len();
        assert_eq!(consistent, 3, "c is implied");
        solver.update_target_and_best(consistent);
        assert_eq!(solver.phases.target, [1, -1, 1]);
        solver.cancel_until(0);
        solver.rephase(Rephase::Inverted);
        assert_eq!(solver.phase, [true, true, true], "inverted from negative");
        assert_eq!(solver.phases.target, [0, 0, 0]);
        assert_eq!(solver.phases.target_assigned, 0);
        assert_eq!(
            solver.phases.best,
            [1, -1, 1],
            "kept until a rephase to best"
        );
        solver.rephase(Rephase::Original);
        assert_eq!(solver.phase, [false, false, false]);
        solver.rephase(Rephase::Best);
        assert_eq!(solver.phase, [true, false, true]);
        assert_eq!(solver.phases.best, [0, 0, 0]);
        assert_eq!(solver.phases.best_assigned, 0);
    }

    /// In stable mode a decision takes the target phase; in focused mode the saved one.
    #[test]
    fn stable_mode_decides_with_the_target_phase() {
        let mut solver = Solver::new();
        solver.add_clause(&[lit(1), lit(2)]);
        solver.add_clause(&[lit(2), lit(3)]);
        solver.phases.target[0] = 1;
        solver.phase[0] = false;
        assert!(!solver.decision_phase(0));
        solver.mode.stable = true;
        assert!(solver.decision_phase(0));
        assert!(!solver.decision_phase(1), "no target: the saved phase");
    }

    /// Rephasing follows its schedule in a real search: the k-th rephase (from 0) comes once
    /// `interval · (k + 1)` conflicts have passed since the one before, in stable mode, with
    /// the k-th letter of B W B W … (with walks) or O I B O B I … (without).
    #[test]
    fn searches_rephase_on_schedule() {
        for walk in [false, true] {
            for seed in 1..=4 {
                let mut rng = SplitMix64::new(seed);
                let interval = 50;
                let mut solver = Solver::with_options(Options {
                    rephase_interval: interval,
                    walk,
                    ..Options::default()
                });
                random_3sat(&mut solver, &mut rng, 80, 340);
                solver.set_limits(Limits {
                    conflicts: Some(3000),
                    ..Limits::default()
                });
                let outcome = solver.solve();
                let stats = *solver.stats();
                let log = &solver.phases.log;
                assert_eq!(log.len() as u64, stats.rephases);
                let walks = log.iter().filter(|entry| entry.1 == Rephase::Walk).count();
                assert_eq!(walks as u64, stats.walks, "seed {seed}");
                let mut due = interval;
                for (k, &(conflicts, kind, stable)) in log.iter().enumerate() {
                    assert_eq!(kind, Rephase::nth(k as u64, walk), "seed {seed}");
                    assert!(stable, "seed {seed}: rephase {k} in focused mode");
                    assert!(
                        conflicts >= due,
                        "seed {seed}: rephase {k} at {conflicts} < {due}"
                    );
                    due = conflicts + interval * (k as u64 + 2);
                }
                if outcome == Outcome::Unknown(crate::solver::LimitReached::Conflicts) {
                    assert!(log.len() >= 3, "seed {seed}: {stats}");
                }
            }
        }
    }
}
