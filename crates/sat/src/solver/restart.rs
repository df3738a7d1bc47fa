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
//! run). With [`Options::balanced_modes`](super::Options::balanced_modes) the modes alternate
//! as Kissat's do (`mode.c`): a focused mode ends once the conflicts reach `next_switch`, a
//! stable mode once the propagations (the search's and vivification's) reach `stable_until`,
//! as many as the focused mode before it made; the focused modes grow a little faster than
//! linearly (`focused_length`), so the two modes share the work, not the conflicts, and
//! alternate more often (26 switches in Kissat's 346,000 conflicts on `44bits_11`, against 9
//! in doubling's first 600,000). Cost: O(1) per conflict and per decision.

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
                first_switch,
                ..
            } => {
                if self.options.balanced_modes {
                    if self.balanced_switch_due(first_switch) {
                        return true;
                    }
                } else if self.stats.conflicts >= self.mode.next_switch {
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

    /// With [`Options::balanced_modes`](super::Options::balanced_modes): switches the mode
    /// when its share is spent (a focused mode its conflicts, a stable mode the propagations
    /// the focused mode before it made); whether it did.
    fn balanced_switch_due(&mut self, first_switch: u64) -> bool {
        let propagations = self.stats.propagations;
        if self.mode.stable {
            if propagations < self.mode.stable_until {
                return false;
            }
            self.mode.focused_modes += 1;
            let length = focused_length(first_switch, self.mode.focused_modes);
            self.mode.next_switch = self.stats.conflicts.saturating_add(length);
            self.mode.stable_until = u64::MAX;
        } else {
            if self.stats.conflicts < self.mode.next_switch {
                return false;
            }
            let spent = propagations - self.mode.entered_propagations;
            self.mode.stable_until = propagations.saturating_add(spent.max(1));
            self.mode.next_switch = u64::MAX;
            self.mode.stable_restarts = 0;
        }
        self.mode.stable = !self.mode.stable;
        self.mode.entered_propagations = propagations;
        self.stats.mode_switches += 1;
        true
    }

    fn glucose_wants_restart(&self, margin: f64, min_conflicts: u64) -> bool {
        self.conflicts_since_restart >= min_conflicts.max(1)
            && self.lbd_fast.value > margin * self.lbd_slow.value
    }
}

/// The conflicts of the `k`-th focused mode (from 2; the first lasts `first_switch`) with
/// balanced modes: `first_switch · j · log10(j + 9)⁴` for `j = k − 1`, Kissat's `modeint`
/// schedule, which grows a little faster than linearly.
fn focused_length(first_switch: u64, k: u64) -> u64 {
    let j = k.saturating_sub(1).max(1) as f64;
    let factor = (j + 9.0).log10().powi(4);
    (first_switch.max(1) as f64 * j * factor) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Options;

    /// Kissat's focused-mode lengths: 1,000 · j · log10(j + 9)⁴ for the j-th after the first.
    #[test]
    fn focused_modes_grow_as_kissats() {
        assert_eq!(focused_length(1000, 2), 1000);
        assert_eq!(focused_length(1000, 3), 2352);
        assert_eq!(focused_length(1000, 4), 4069);
        assert_eq!(focused_length(1000, 11), 26739);
    }

    /// With balanced modes a stable mode lasts the propagations of the focused mode before it,
    /// a focused mode its conflicts, and each stable mode starts the Luby sequence again.
    #[test]
    fn balanced_modes_switch_on_work() {
        let mut solver = Solver::with_options(Options {
            restarts: Restarts::Switching {
                margin: f64::INFINITY,
                min_conflicts: 50,
                focused_decay: 0.8,
                stable_unit: 1 << 40,
                first_switch: 100,
            },
            balanced_modes: true,
            ..Options::default()
        });
        let at = |solver: &mut Solver, conflicts: u64, propagations: u64| {
            solver.stats.conflicts = conflicts;
            solver.stats.propagations = propagations;
            solver.conflicts_since_restart = 1;
            solver.should_restart()
        };
        assert!(!at(&mut solver, 99, 5_000));
        solver.mode.stable_restarts = 7;
        assert!(
            at(&mut solver, 100, 5_000),
            "the first focused mode: 100 conflicts"
        );
        assert!(solver.mode.stable);
        assert_eq!(solver.mode.stable_restarts, 0, "the Luby sequence again");
        assert!(
            !at(&mut solver, 5_000, 9_999),
            "conflicts do not end a stable mode"
        );
        assert!(
            at(&mut solver, 5_001, 10_000),
            "5,000 propagations, as the focused mode"
        );
        assert!(!solver.mode.stable);
        assert!(!at(&mut solver, 5_100, 10_000 + 1_000_000));
        assert!(
            at(&mut solver, 5_101, 1_010_000),
            "the second focused mode: 100 conflicts"
        );
        assert!(solver.mode.stable);
        assert!(!at(&mut solver, 6_000, 2_009_999));
        assert!(at(&mut solver, 6_000, 2_010_000));
        assert!(!at(&mut solver, 6_000 + 234, 3_000_000));
        assert!(
            at(&mut solver, 6_000 + 235, 3_000_000),
            "the third: 235 (100 · 2 · log10(11)⁴)"
        );
        assert_eq!(solver.stats.mode_switches, 5);
    }
}
