//! The state the search's heuristics keep between conflicts: the LBD averages and the search
//! mode of the restart policy (`restart`), the target and best phases and the rephase
//! schedule (`phases`), when learnt-clause vivification last ran (`vivify`), reason-side
//! bumping's decision rates and backoff (`analyze`). Plain data: the
//! [`Solver`](super::Solver) holds it, and the files that act on it import it from here, below
//! them all.

use super::options::Restarts;

/// Exponential moving average with a warm-up, so early values are not biased toward 0.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ema {
    pub(super) value: f64,
    alpha: f64,
    count: u64,
}

impl Ema {
    pub(super) fn new(alpha: f64) -> Self {
        Ema {
            value: 0.0,
            alpha,
            count: 0,
        }
    }

    pub(super) fn update(&mut self, x: f64) {
        self.count += 1;
        let alpha = self.alpha.max(1.0 / self.count as f64);
        self.value += alpha * (x - self.value);
    }
}

/// The search mode of [`Restarts::Switching`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Mode {
    /// In stable mode (else focused).
    pub(super) stable: bool,
    /// The conflict count at which the mode next changes.
    pub(super) next_switch: u64,
    /// How many conflicts the current mode lasts (modes of doubling length only).
    pub(super) length: u64,
    /// Restarts in stable mode so far: the index into the Luby sequence.
    pub(super) stable_restarts: u64,
    /// With [`Options::balanced_modes`](super::Options::balanced_modes): the propagation
    /// count when the current mode began.
    pub(super) entered_propagations: u64,
    /// With `balanced_modes`, in stable mode: the propagation count at which it ends.
    pub(super) stable_until: u64,
    /// With `balanced_modes`: focused modes begun so far.
    pub(super) focused_modes: u64,
}

impl Mode {
    pub(super) fn new(restarts: Restarts) -> Self {
        let first = match restarts {
            Restarts::Switching { first_switch, .. } => first_switch.max(1),
            _ => u64::MAX,
        };
        Mode {
            stable: false,
            next_switch: first,
            length: first,
            stable_restarts: 0,
            entered_propagations: 0,
            stable_until: u64::MAX,
            focused_modes: 1,
        }
    }
}

/// Reason-side bumping's state ([`Options::bump_reasons`](super::Options::bump_reasons)): the
/// decisions per conflict in each mode, and the backoff after a conflict whose reasons were too
/// many to bump (Kissat's `bumpreasons` delay).
#[derive(Clone, Copy, Debug)]
pub(super) struct ReasonBumps {
    /// Decisions per conflict, a slow average, in focused (0) and stable (1) mode.
    pub(super) decision_rate: [Ema; 2],
    /// The decision count at the last conflict.
    pub(super) decisions_mark: u64,
    /// How many conflicts a failed try skips (up by one at each failure, halved at each
    /// success).
    pub(super) delay: u32,
    /// Conflicts left to skip.
    pub(super) skip: u32,
}

impl ReasonBumps {
    pub(super) fn new() -> Self {
        ReasonBumps {
            decision_rate: [Ema::new(1e-5), Ema::new(1e-5)],
            decisions_mark: 0,
            delay: 0,
            skip: 0,
        }
    }
}

/// A rephase: what the saved phases are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rephase {
    /// [`Options::initial_phase`](super::Options::initial_phase) for every variable.
    Original,
    /// Its negation for every variable.
    Inverted,
    /// The best phase where a variable has one.
    Best,
    /// The best assignment of a local-search walk from the saved phases (`walk`).
    Walk,
}

impl Rephase {
    /// The `count`-th rephase of the schedule (from 0): with walks B, W repeated; without,
    /// O, I, then B, O, B, I repeated.
    pub(super) fn nth(count: u64, walk: bool) -> Rephase {
        match count {
            _ if walk => {
                if count % 2 == 0 {
                    Rephase::Best
                } else {
                    Rephase::Walk
                }
            }
            0 => Rephase::Original,
            1 => Rephase::Inverted,
            _ => match (count - 2) % 4 {
                0 | 2 => Rephase::Best,
                1 => Rephase::Original,
                _ => Rephase::Inverted,
            },
        }
    }

    /// The letter CaDiCaL's reports use.
    #[cfg(test)]
    pub(super) fn letter(self) -> char {
        match self {
            Rephase::Original => 'O',
            Rephase::Inverted => 'I',
            Rephase::Best => 'B',
            Rephase::Walk => 'W',
        }
    }
}

/// The target and best phases and the rephase schedule's state.
#[derive(Clone, Debug, Default)]
pub(super) struct Phases {
    /// By variable: 1 (positive) or −1 (negative) in the target assignment, 0 none.
    pub(super) target: Vec<i8>,
    /// The length of the conflict-free prefix `target` was recorded from.
    pub(super) target_assigned: usize,
    /// How much of the current trail `target` agrees with, unchanged since its recording.
    pub(super) target_synced: usize,
    /// By variable: as `target`, for the best phase.
    pub(super) best: Vec<i8>,
    /// The length of the conflict-free prefix `best` was recorded from.
    pub(super) best_assigned: usize,
    /// As `target_synced`, for `best`.
    pub(super) best_synced: usize,
    /// Rephases so far: the index into the schedule.
    pub(super) rephases: u64,
    /// The conflict count at which the next rephase is due.
    pub(super) next_rephase: u64,
    /// The propagation count at the last walk (its budget is a share of those since).
    pub(super) walked_at: u64,
    /// Every rephase so far, with the conflicts when it came and whether in stable mode (for
    /// the tests).
    #[cfg(test)]
    pub(super) log: Vec<(u64, Rephase, bool)>,
}

impl Phases {
    pub(super) fn new(rephase_interval: u64) -> Self {
        Phases {
            next_rephase: if rephase_interval == 0 {
                u64::MAX
            } else {
                rephase_interval
            },
            ..Phases::default()
        }
    }

    /// Notes that the trail was cut back to `keep` literals (called on every backtrack).
    #[inline]
    pub(super) fn backtracked(&mut self, keep: usize) {
        self.target_synced = self.target_synced.min(keep);
        self.best_synced = self.best_synced.min(keep);
    }
}

/// When learnt-clause vivification last ran (`vivify`): a round is due at the first restart
/// after a reduction, and its budget is a share of the propagations since the last one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Vivifier {
    /// Reductions when the last round ran.
    pub(super) reductions: u64,
    /// Propagations when the last round ended.
    pub(super) propagations_mark: u64,
}
