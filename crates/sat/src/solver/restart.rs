//! When to restart, and which search mode the solver is in ([`super::Restarts`]).
//!
//! Glucose's rule compares a fast and a slow exponential moving average of the LBDs of learnt
//! clauses and restarts when recent clauses are worse than the long-run average by a margin
//! (Audemard and Simon, IJCAI 2009, CP 2012). The Luby rule restarts after `unit · luby(i)`
//! conflicts. [`super::Restarts::Switching`] alternates the two as *modes* (Oh, SAT 2015;
//! CaDiCaL's focused and stable modes, Biere and Fleury, POS 2020): focused mode uses the
//! glucose rule with a fast VSIDS decay, stable mode the Luby rule with a large unit and a
//! slow decay. Invariant: `Mode::stable` is false outside `Switching`; the mode changes only
//! between conflicts, at a restart, once the conflicts reach `next_switch`, and each mode then
//! lasts twice as many conflicts as the one before (so both get the same share of a long
//! run). Cost: O(1) per conflict and per decision.

use nqueens_support::luby;

use super::Solver;
use super::options::Restarts;

impl Solver {
    /// The VSIDS decay of the current mode.
    #[inline]
    pub(super) fn var_decay(&self) -> f64 {
        match self.options.restarts {
            Restarts::Switching { focused_decay, .. } if !self.mode.stable => focused_decay,
            _ => self.options.var_decay,
        }
    }

    /// Whether to restart now; switches the mode when its time is up (which restarts too).
    pub(super) fn should_restart(&mut self) -> bool {
        match self.options.restarts {
            Restarts::Glucose {
                margin,
                min_conflicts,
            } => self.glucose_wants_restart(margin, min_conflicts),
            Restarts::Luby { unit } => {
                self.conflicts_since_restart >= unit.max(1) * luby(self.stats.restarts + 1)
            }
            Restarts::Never => false,
            Restarts::Switching {
                margin,
                min_conflicts,
                stable_unit,
                ..
            } => {
                if self.stats.conflicts >= self.mode.next_switch {
                    self.mode.stable = !self.mode.stable;
                    self.mode.length = self.mode.length.saturating_mul(2);
                    self.mode.next_switch = self.stats.conflicts.saturating_add(self.mode.length);
                    self.stats.mode_switches += 1;
                    return true;
                }
                if self.mode.stable {
                    let due = stable_unit.max(1) * luby(self.mode.stable_restarts + 1);
                    let restart = self.conflicts_since_restart >= due;
                    self.mode.stable_restarts += u64::from(restart);
                    restart
                } else {
                    self.glucose_wants_restart(margin, min_conflicts)
                }
            }
        }
    }

    fn glucose_wants_restart(&self, margin: f64, min_conflicts: u64) -> bool {
        self.conflicts_since_restart >= min_conflicts.max(1)
            && self.lbd_fast.value > margin * self.lbd_slow.value
    }
}
