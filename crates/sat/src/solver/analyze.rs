//! Conflict analysis: from a false clause to the first-UIP learnt clause, minimised and shrunk,
//! with its backjump level and LBD; and, for a failed assumption, the assumptions behind it.
//!
//! Resolution walks the trail backwards from the conflict, marking the variables met (`SEEN`)
//! until one literal of the conflict's level is left. Minimisation (Sörensson and Biere 2009)
//! then drops literals implied by the rest, caching what it learnt per variable (`REMOVABLE`,
//! `POISON`). In focused mode, shrinking (Fleury and Biere, "Efficient All-UIP Learned Clause
//! Minimization", SAT 2021) then replaces the several literals of one lower level by that
//! level's own UIP, where the level's implications need nothing outside the clause or implied
//! by it: the literal count drops, the LBD stays, and the UIP's variable is bumped. Not in
//! stable mode, where models are found: there the clauses it makes (mostly of decisions)
//! cost the N-Queens files 10–50× (docs/notes/sat-solver.md, "Shrinking").
//!
//! With [`Options::bump_reasons`](super::Options::bump_reasons) the variables of the
//! reasons of the learnt clause's literals are bumped too (Kissat's reason-side bumping), within
//! ten times the variables the analysis bumped, backing off after a conflict over that limit.
//!
//! Each learnt clause resolved is marked used and gets its LBD computed again (Audemard and
//! Simon 2009), which may promote it to a better tier (`reduce`). Cost: linear in the literals
//! of the clauses resolved and searched, and for shrinking in the trail segments of the levels
//! tried.

use super::Solver;
use super::clause_db::ClauseRef;
use super::heap::VarHeap;
use super::reason::{Conflict, Reason};
use crate::lit::{Lit, Var};

/// Analysis marks, per variable.
const SEEN: u8 = 1;
const REMOVABLE: u8 = 2;
const POISON: u8 = 4;
/// On the level being shrunk, met by the walk back to the level's UIP.
const SHRINKING: u8 = 8;
/// Bumped by this conflict's analysis (kept when resolution clears `SEEN`).
const BUMPED: u8 = 16;
/// Reason-side bumping stops when the reasons would bump more than this many times the
/// variables the analysis bumped (Kissat's `bumpreasonslimit`).
const REASON_SIDE_LIMIT: usize = 10;
/// Nor is it tried while a mode's decisions per conflict average this many or more (Kissat's
/// `bumpreasonsrate`).
const REASON_SIDE_RATE: f64 = 10.0;

/// The fields that marking a literal as seen writes, borrowed apart from the clause arena so
/// that a clause's literals are walked as one slice.
struct Seen<'a> {
    marks: &'a mut [u8],
    level: &'a [u32],
    touched: &'a mut Vec<Var>,
    heap: &'a mut VarHeap,
    learnt: &'a mut Vec<Lit>,
}

impl Seen<'_> {
    #[inline(always)]
    fn see(&mut self, lit: Lit, conflict_level: u32, open: &mut u32) {
        let var = lit.var();
        let v = var.index();
        if self.marks[v] & SEEN != 0 || self.level[v] == 0 {
            return;
        }
        self.marks[v] |= SEEN | BUMPED;
        self.touched.push(var);
        self.heap.bump(var);
        if self.level[v] >= conflict_level {
            *open += 1;
        } else {
            self.learnt.push(lit);
        }
    }
}

impl Solver {
    // ----- Conflict analysis -----

    /// Marks `lit`'s variable as seen during analysis; counts it as open when it is on the
    /// conflict level, else adds it to the learnt clause.
    #[inline]
    pub(super) fn see(&mut self, lit: Lit, conflict_level: u32, open: &mut u32) {
        Seen {
            marks: &mut self.marks,
            level: &self.level,
            touched: &mut self.touched,
            heap: &mut self.heap,
            learnt: &mut self.learnt,
        }
        .see(lit, conflict_level, open);
    }

    /// First-UIP analysis of `conflict` into `self.learnt` (the UIP's negation first, the literal
    /// of the backjump level second). Returns the backjump level and the LBD.
    pub(super) fn analyze(&mut self, conflict: Conflict) -> (u32, u32) {
        let conflict_level = self.decision_level();
        self.learnt.clear();
        self.learnt.push(Lit::from_code(0));
        let mut open = 0u32;
        match conflict {
            Conflict::Binary(a, b) => {
                self.see(a, conflict_level, &mut open);
                self.see(b, conflict_level, &mut open);
            }
            Conflict::Long(cref) => self.see_clause(cref, 0, conflict_level, &mut open),
        }
        let mut index = self.trail.len();
        loop {
            let uip = loop {
                index -= 1;
                let lit = self.trail[index];
                if self.marks[lit.var().index()] & SEEN != 0 {
                    break lit;
                }
            };
            // Resolved away (or the UIP): no longer part of the clause.
            self.marks[uip.var().index()] &= !SEEN;
            open -= 1;
            if open == 0 {
                self.learnt[0] = !uip;
                break;
            }
            match self.reason[uip.var().index()] {
                Reason::Binary(other) => self.see(other, conflict_level, &mut open),
                Reason::Long(cref) => self.see_clause(cref, 1, conflict_level, &mut open),
                Reason::Decision => unreachable!("only the UIP may be a decision"),
            }
        }

        if self.options.minimize {
            self.minimize_learnt();
        }
        if self.options.shrink && !self.mode.stable {
            self.shrink_learnt();
        }

        // The backjump level: the highest level below the conflict's, its literal second.
        let mut backjump = 0;
        if self.learnt.len() > 1 {
            let mut best = 1;
            for i in 2..self.learnt.len() {
                if self.level[self.learnt[i].var().index()]
                    > self.level[self.learnt[best].var().index()]
                {
                    best = i;
                }
            }
            self.learnt.swap(1, best);
            backjump = self.level[self.learnt[1].var().index()];
        }
        let lbd = self.lbd_of_learnt();
        if self.options.bump_reasons {
            self.bump_reason_side();
        }

        for &var in &self.touched {
            self.marks[var.index()] = 0;
        }
        self.touched.clear();
        (backjump, lbd)
    }

    /// Bumps the variables of the reasons of the learnt clause's literals that the analysis
    /// did not bump (Kissat's reason-side bumping; Liang, Ganesh, Poupart and Czarnecki,
    /// "Learning Rate Based Branching Heuristic", SAT 2016): unless they would be more than
    /// [`REASON_SIDE_LIMIT`] times those it bumped (then none, and the next tries wait longer),
    /// or the mode decides [`REASON_SIDE_RATE`] times a conflict or more. Linear in the
    /// reasons' literals.
    fn bump_reason_side(&mut self) {
        let state = &mut self.reason_bumps;
        let decisions = self.stats.decisions;
        let rate = &mut state.decision_rate[usize::from(self.mode.stable)];
        rate.update((decisions - state.decisions_mark) as f64);
        state.decisions_mark = decisions;
        if state.skip > 0 {
            state.skip -= 1;
            return;
        }
        if rate.value >= REASON_SIDE_RATE {
            return;
        }
        let analyzed = self.touched.len();
        let limit = REASON_SIDE_LIMIT * analyzed;
        'literals: for i in 0..self.learnt.len() {
            let var = self.learnt[i].var();
            let mut j = 0;
            while let Some(lit) = self.antecedent(var, j) {
                j += 1;
                let v = lit.var().index();
                if self.marks[v] & BUMPED == 0 && self.level[v] > 0 {
                    self.marks[v] |= BUMPED;
                    self.touched.push(lit.var());
                    if self.touched.len() > limit {
                        break 'literals;
                    }
                }
            }
        }
        let state = &mut self.reason_bumps;
        if self.touched.len() > limit {
            state.delay = state.delay.saturating_add(1);
            state.skip = state.delay;
            return;
        }
        state.delay /= 2;
        state.skip = state.delay;
        for &var in &self.touched[analyzed..] {
            self.heap.bump(var);
        }
    }

    /// `see` for the literals of a long clause from position `from` on. A learnt clause is
    /// marked used (for two reductions in tier 2 or core, else one), and its LBD, when above
    /// the core's, is computed again from the current levels and lowered if it went down
    /// (glucose's dynamic LBD update; all its literals are assigned here).
    pub(super) fn see_clause(
        &mut self,
        cref: ClauseRef,
        from: usize,
        conflict_level: u32,
        open: &mut u32,
    ) {
        if self.db.is_learnt(cref) {
            let old = self.db.lbd(cref);
            let mut lbd = old;
            if old > self.options.core_lbd {
                lbd = self.lbd_of_clause(cref, old);
                if lbd < old {
                    self.db.lower_lbd(cref, lbd);
                    let tier = |lbd| {
                        u32::from(lbd > self.options.core_lbd)
                            + u32::from(lbd > self.options.tier2_lbd)
                    };
                    if tier(lbd) < tier(old) {
                        self.stats.promotions += 1;
                    }
                }
            }
            self.note_use(cref, lbd);
        }
        let mut seen = Seen {
            marks: &mut self.marks,
            level: &self.level,
            touched: &mut self.touched,
            heap: &mut self.heap,
            learnt: &mut self.learnt,
        };
        for &code in &self.db.lits(cref)[from..] {
            seen.see(Lit::from_stored_code(code), conflict_level, open);
        }
    }

    /// Records that conflict analysis used the learnt clause `cref` of LBD `lbd`: a clause of
    /// tier 2 or the core survives the next two reductions, a local one the next one.
    pub(super) fn note_use(&mut self, cref: ClauseRef, lbd: u32) {
        let reductions = if lbd <= self.options.tier2_lbd { 2 } else { 1 };
        self.db.mark_used(cref, reductions);
    }

    /// The number of distinct decision levels among a clause's literals (all assigned), or
    /// `limit` as soon as it reaches it.
    fn lbd_of_clause(&mut self, cref: ClauseRef, limit: u32) -> u32 {
        self.stamp += 1;
        let mut lbd = 0;
        for &code in self.db.lits(cref) {
            let level = self.level[Lit::from_stored_code(code).var().index()] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                lbd += 1;
                if lbd >= limit {
                    break;
                }
            }
        }
        lbd
    }

    /// The number of distinct decision levels among the learnt clause's literals.
    pub(super) fn lbd_of_learnt(&mut self) -> u32 {
        self.stamp += 1;
        let mut lbd = 0;
        for lit in &self.learnt {
            let level = self.level[lit.var().index()] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// A bit per decision level (mod 32) of `self.learnt[1..]`, for `redundant`.
    fn learnt_levels(&self) -> u32 {
        let mut levels = 0u32;
        for lit in &self.learnt[1..] {
            levels |= 1 << (self.level[lit.var().index()] & 31);
        }
        levels
    }

    /// Whether `var`, not in the learnt clause, is implied by it (as `redundant` decides, with
    /// the result cached as `REMOVABLE` or `POISON`).
    fn implied_by_learnt(&mut self, var: Var, levels: u32) -> bool {
        if self.marks[var.index()] & POISON != 0 || self.reason[var.index()] == Reason::Decision {
            return false;
        }
        let implied = self.redundant(var, levels);
        if implied {
            self.marks[var.index()] |= REMOVABLE;
            self.touched.push(var);
        }
        implied
    }

    /// Removes the literals of `self.learnt[1..]` implied by the others.
    pub(super) fn minimize_learnt(&mut self) {
        let levels = self.learnt_levels();
        let before = self.learnt.len();
        let mut kept = 1;
        for i in 1..before {
            let lit = self.learnt[i];
            let keep = self.reason[lit.var().index()] == Reason::Decision
                || !self.redundant(lit.var(), levels);
            if keep {
                self.learnt[kept] = lit;
                kept += 1;
            }
        }
        self.learnt.truncate(kept);
        self.stats.minimized_literals += (before - kept) as u64;
    }

    /// Replaces, level by level, the literals of `self.learnt[1..]` on one decision level by
    /// the negation of that level's UIP (the last literal of the level that every path from the
    /// level's decision to those literals passes through), where the walk back to it meets, on
    /// lower levels, only literals of the clause (`SEEN`), implied by it (`REMOVABLE`) or fixed
    /// at level 0. The result is implied by the same resolutions, so it is a RUP clause.
    pub(super) fn shrink_learnt(&mut self) {
        let levels = self.learnt_levels();
        let level = &self.level;
        self.learnt[1..].sort_unstable_by_key(|lit| std::cmp::Reverse(level[lit.var().index()]));
        let before = self.learnt.len();
        let (mut kept, mut i) = (1, 1);
        while i < before {
            let block_level = self.level[self.learnt[i].var().index()];
            let mut end = i + 1;
            while end < before && self.level[self.learnt[end].var().index()] == block_level {
                end += 1;
            }
            let uip = if end - i > 1 {
                self.block_uip(block_level, i..end, levels)
            } else {
                None
            };
            if let Some(uip) = uip {
                self.learnt[kept] = !uip;
                kept += 1;
                self.heap.bump(uip.var());
                if self.marks[uip.var().index()] & BUMPED == 0 {
                    self.marks[uip.var().index()] |= BUMPED;
                    self.touched.push(uip.var());
                }
            } else {
                self.learnt.copy_within(i..end, kept);
                kept += end - i;
            }
            i = end;
        }
        self.learnt.truncate(kept);
        self.stats.shrunk_literals += (before - kept) as u64;
    }

    /// The UIP of decision level `level` for the learnt literals `self.learnt[block]` (all on
    /// that level), if the walk back to it meets only the clause's literals on lower levels.
    /// Walks the level's trail segment backwards, counting the marked literals not yet
    /// reached; the one that brings the count to zero is the UIP.
    fn block_uip(&mut self, level: u32, block: std::ops::Range<usize>, levels: u32) -> Option<Lit> {
        let mut open = block.len();
        for k in block {
            let var = self.learnt[k].var();
            self.marks[var.index()] |= SHRINKING;
            self.shrinking.push(var);
        }
        let start = self.trail_lim[level as usize - 1];
        let end = self
            .trail_lim
            .get(level as usize)
            .copied()
            .unwrap_or(self.trail.len());
        let mut uip = None;
        'walk: for index in (start..end).rev() {
            let lit = self.trail[index];
            let var = lit.var();
            if self.marks[var.index()] & SHRINKING == 0 {
                continue;
            }
            open -= 1;
            if open == 0 {
                uip = Some(lit);
                break;
            }
            let mut i = 0;
            while let Some(antecedent) = self.antecedent(var, i) {
                i += 1;
                let u = antecedent.var().index();
                let u_level = self.level[u];
                if u_level == level {
                    if self.marks[u] & SHRINKING == 0 {
                        self.marks[u] |= SHRINKING;
                        self.shrinking.push(antecedent.var());
                        open += 1;
                    }
                } else if u_level != 0
                    && self.marks[u] & (SEEN | REMOVABLE) == 0
                    && !self.implied_by_learnt(antecedent.var(), levels)
                {
                    break 'walk;
                }
            }
        }
        for var in self.shrinking.drain(..) {
            self.marks[var.index()] &= !SHRINKING;
        }
        uip
    }

    /// The `i`-th antecedent of `var`'s reason (the false literals that imply it), if any.
    #[inline]
    pub(super) fn antecedent(&self, var: Var, i: u32) -> Option<Lit> {
        match self.reason[var.index()] {
            Reason::Decision => None,
            Reason::Binary(other) => (i == 0).then_some(other),
            Reason::Long(cref) => {
                let lits = self.db.lits(cref);
                lits.get(i as usize + 1).map(|&c| Lit::from_stored_code(c))
            }
        }
    }

    /// Whether `start` (in the learnt clause, with a reason) is implied by the clause's other
    /// literals: every antecedent, recursively, is in the clause, at level 0, or removable.
    /// `levels` has a bit per decision level of the clause (mod 32): an antecedent at a level
    /// outside it cannot be implied by the clause, which cuts the search short.
    pub(super) fn redundant(&mut self, start: Var, levels: u32) -> bool {
        self.stack.clear();
        self.stack.push((start, 0));
        while let Some(&(var, i)) = self.stack.last() {
            let Some(lit) = self.antecedent(var, i) else {
                // Every antecedent of `var` is implied: so is `var`.
                self.stack.pop();
                if var != start {
                    self.marks[var.index()] |= REMOVABLE;
                    self.touched.push(var);
                }
                continue;
            };
            self.stack.last_mut().expect("nonempty").1 += 1;
            let u = lit.var();
            let (mark, level) = (self.marks[u.index()], self.level[u.index()]);
            if level == 0 || mark & (SEEN | REMOVABLE) != 0 {
                continue;
            }
            if mark & POISON != 0
                || self.reason[u.index()] == Reason::Decision
                || levels & (1 << (level & 31)) == 0
            {
                for &(var, _) in &self.stack {
                    if self.marks[var.index()] & SEEN == 0 {
                        self.marks[var.index()] |= POISON;
                        self.touched.push(var);
                    }
                }
                return false;
            }
            self.stack.push((u, 0));
        }
        true
    }

    /// The assumptions responsible for `lit` being true (called when the assumption `!lit`
    /// turns out false), into `self.failed`.
    pub(super) fn analyze_final(&mut self, lit: Lit) {
        self.failed.clear();
        self.failed.push(!lit);
        if self.level[lit.var().index()] == 0 {
            return;
        }
        self.marks[lit.var().index()] = SEEN;
        for index in (self.trail_lim[0]..self.trail.len()).rev() {
            let p = self.trail[index];
            let var = p.var();
            if self.marks[var.index()] & SEEN == 0 {
                continue;
            }
            self.marks[var.index()] = 0;
            match self.reason[var.index()] {
                // A decision above level 0 is an assumption (`lit` itself among them, when
                // the failing assumption contradicts an earlier one).
                Reason::Decision => self.failed.push(p),
                Reason::Binary(other) => {
                    if self.level[other.var().index()] > 0 {
                        self.marks[other.var().index()] = SEEN;
                    }
                }
                Reason::Long(cref) => {
                    for k in 1..self.db.size(cref) {
                        let other = Lit::from_stored_code(self.db.lits(cref)[k]);
                        if self.level[other.var().index()] > 0 {
                            self.marks[other.var().index()] = SEEN;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;
    use crate::lit::lit;
    use crate::solver::{Options, Outcome};

    /// A solver deciding variables in input order, true first, with reason-side bumping or
    /// not.
    fn solver(bump_reasons: bool) -> Solver {
        Solver::with_options(Options {
            initial_phase: true,
            bump_reasons,
            ..Options::default()
        })
    }

    /// Deciding 1 and 2 implies 3 (reason ¬1 ∨ ¬2 ∨ 3), then 4, and ¬3 ∨ ¬4 is false: the
    /// analysis bumps 3 and 4 and learns ¬3; reason-side bumping also bumps 1 and 2, the
    /// reason of 3. The one conflict of the search.
    #[test]
    fn the_reasons_of_the_learnt_clause_are_bumped_too() {
        for bump_reasons in [false, true] {
            let mut solver = solver(bump_reasons);
            solver.add_clause(&[lit(-1), lit(-2), lit(3)]);
            solver.add_clause(&[lit(-3), lit(4)]);
            solver.add_clause(&[lit(-3), lit(-4)]);
            assert!(matches!(solver.solve(), Outcome::Sat(_)));
            assert_eq!(solver.stats().conflicts, 1);
            let activity = |v: i64| solver.heap.activity(lit(v).var());
            assert!(activity(3) > 0.0 && activity(4) > 0.0);
            for v in [1, 2] {
                assert_eq!(activity(v) > 0.0, bump_reasons, "variable {v}");
            }
            assert!(solver.marks.iter().all(|&m| m == 0), "marks cleared");
        }
    }

    /// A reason of 21 decisions behind one learnt literal, against the analysis's two
    /// variables: over ten times as many, so none is bumped and the next conflict is skipped.
    #[test]
    fn too_many_reason_side_variables_bump_none_and_back_off() {
        let mut solver = solver(true);
        let mut reason: Vec<Lit> = (1..=21).map(|v| lit(-v)).collect();
        reason.push(lit(22));
        solver.add_clause(&reason);
        solver.add_clause(&[lit(-22), lit(23)]);
        solver.add_clause(&[lit(-22), lit(-23)]);
        // A long-run rate of no decisions a conflict, so the 21 of this one stay under the limit.
        for _ in 0..1000 {
            solver.reason_bumps.decision_rate[0].update(0.0);
        }
        assert!(matches!(solver.solve(), Outcome::Sat(_)));
        assert_eq!(solver.stats().conflicts, 1);
        for v in 1..=21 {
            assert_eq!(solver.heap.activity(lit(v).var()), 0.0, "variable {v}");
        }
        assert_eq!(
            (solver.reason_bumps.delay, solver.reason_bumps.skip),
            (1, 1)
        );
        assert!(solver.marks.iter().all(|&m| m == 0), "marks cleared");
    }
}
