//! Elimination again during the search, with a growing bound ([`Options::eliminate_rounds`]).
//!
//! Bounded variable elimination before the first search (`eliminate`, `bve`) lets a variable
//! go only when its resolvents are no more than its clauses, and sees the formula as given.
//! The search then finds level-0 units and binary clauses that strengthen or remove clauses,
//! and a variable that had too many resolvents may have few enough now. With
//! [`Options::eliminate_rounds`], elimination runs again at a restart (level 0) once
//! [`Options::eliminate_interval`] conflicts have passed since the search began, the `k`-th
//! time `k` intervals after the one before (Kissat's conflict schedule grows a little faster,
//! `eliminateint` 500 times `n log² n`), each run the first run's passes over the
//! irredundant clauses (the long original ones and every binary clause), with the same
//! consequences: learnt long clauses that name a variable it eliminates are deleted, the
//! eliminated variables leave the decision heap, their clauses go to the extension stack,
//! frozen variables stay, a variable named later is put back, resolvents are written to the
//! proof before the clauses they replace are deleted (the level-0 units first, so a deleted
//! reason leaves its unit derivable).
//!
//! Two things change from round to round, as in Kissat (Biere, Fazekas, Fleury and Heisinger,
//! "CaDiCaL, Kissat, Paracooba, Plingeling and Treengeling entering the SAT Competition 2020",
//! and its `eliminate.c`):
//!
//! - *Candidates*: a round starts from the variables whose clauses changed since the end of
//!   the run before (a per-variable fingerprint of the clauses holding it, `Bve::signature`,
//!   compared after the round's subsumption), and from those its own steps change. Its
//!   subsumption tries only the clauses whose every variable changed: every pair that a
//!   clause new since takes part in (the clauses a run itself made or shortened count as new
//!   for the next), as Kissat's `subsume` flags. Trying every clause again, as the first run
//!   does, spent a quarter of each round on `qg5-13` comparing the shortest clauses with the
//!   same others as the round before, until the budget ran out. A round is skipped outright
//!   when nothing the search can change has changed (the level-0 trail, the binary and the
//!   irredundant long clauses, the substituted and restored variables) and the bound did not
//!   grow.
//! - *The bound*: a run that tries every candidate to its end raises the number of
//!   resolvents a variable may add beyond its clauses, 0, 1, 2, 4, 8, up to
//!   [`Options::eliminate_bound`] (Kissat's `eliminatebound`, 16), and makes every variable a
//!   candidate again (not every clause a subsumer: subsumption has no bound); a run cut by its
//!   effort bound keeps the bound.
//!
//! Cost: each round copies the irredundant clauses into occurrence lists (as the first run;
//! fallibly) and spends at most its budget: the first run's bases plus a tenth of the search's
//! propagations since the last elimination (Kissat's `eliminateeffort`, 100 per mille),
//! scaled by [`Options::simplify_effort`]; the fingerprints are 8 bytes a variable, kept
//! between rounds. A limit (the stop flag, the time) seen in a round ends the solve with
//! `Unknown`, and the round is due again at the next restart.

use super::Options;
use super::Solver;

/// With the rounds on (the first run too), a variable with more clauses than this on one
/// side (and some on the other) stays: the growing bound, not this cap, is what limits them
/// (Kissat's `eliminateocclim` is 2,000; before the first search alone the cap is 16, `bve`).
/// On qg5-13, 16 eliminates nothing in any round, 100 eliminates 162 variables, 1,000 180.
pub(super) const ROUNDS_MAX_OCCURRENCES: usize = 100;

/// Share of the search's propagations since the last elimination a round may spend, per
/// mille (Kissat's `eliminateeffort`).
const ROUND_SHARE_PERMILLE: u64 = 100;

impl Solver {
    /// Books a run of elimination (`complete`: `Some` whether it tried every candidate, `None`
    /// when a limit stopped it): grows the bound after a complete run, sets the next round's
    /// conflicts. Called after the first run and after each round.
    pub(super) fn after_elimination(&mut self, complete: Option<bool>) {
        if !self.options.eliminate_rounds {
            return;
        }
        let conflicts = self.stats.conflicts;
        let interval = self.options.eliminate_interval;
        let key = self.change_key();
        let rounds = &mut self.simplifier.rounds;
        let Some(complete) = complete else {
            // Stopped by a limit: due again at the next restart, from where it stopped.
            rounds.next = conflicts;
            return;
        };
        rounds.count += 1;
        rounds.next = conflicts.saturating_add(interval.saturating_mul(rounds.count));
        rounds.propagations_mark = self.stats.propagations;
        rounds.key = Some(key);
        let cap = self.options.eliminate_bound;
        if complete && rounds.bound < cap {
            rounds.bound = (rounds.bound * 2).clamp(1, cap);
            rounds.every_candidate = true;
        }
    }

    /// Runs an elimination round when the rounds are on and one is due (at level 0: a
    /// restart). See the [module documentation](self).
    pub(super) fn eliminate_if_due(&mut self) {
        let rounds = &self.simplifier.rounds;
        if !(self.options.eliminate && self.options.eliminate_rounds && self.simplifier.done)
            || self.inconsistent
            || self.out_of_memory.is_some()
            || self.stats.conflicts < rounds.next
        {
            return;
        }
        let grown = rounds.every_candidate || rounds.signature.is_none();
        if !grown && rounds.key == Some(self.change_key()) {
            // Nothing changed: the next round is one interval later.
            let interval = self.options.eliminate_interval;
            let rounds = &mut self.simplifier.rounds;
            rounds.next = self.stats.conflicts.saturating_add(interval.max(1));
            return;
        }
        let share = self.share_since(
            self.simplifier.rounds.propagations_mark,
            ROUND_SHARE_PERMILLE,
        );
        self.stats.elimination_rounds += 1;
        let extra = self.simplifier.rounds.bound as usize;
        let complete = self.eliminate_pass(share, extra);
        self.after_elimination(complete);
    }

    /// What the search and the other passes may change that elimination sees: the level-0
    /// trail's length, the binary clauses' and the irredundant long clauses' numbers, the
    /// substituted and the restored variables.
    fn change_key(&self) -> [u64; 5] {
        let binaries = self.binaries.iter().map(Vec::len).sum::<usize>() as u64;
        let long = self
            .db
            .refs()
            .filter(|&cref| !self.db.is_deleted(cref) && !self.db.is_learnt(cref))
            .count() as u64;
        let level_zero = self.trail_lim.first().copied().unwrap_or(self.trail.len());
        [
            level_zero as u64,
            binaries,
            long,
            self.stats.substituted_vars,
            self.stats.restored_vars,
        ]
    }
}

/// The bytes the rounds keep between runs (the fingerprints), for
/// `Solver::estimated_bytes_with`.
pub(super) fn rounds_bytes(options: &Options, vars: u32) -> u64 {
    if options.eliminate && options.eliminate_rounds {
        8 * u64::from(vars)
    } else {
        0
    }
}
