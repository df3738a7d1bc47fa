//! The work budget of one simplification pass, and its looks at the solve's limits.
//!
//! Every simplification pass (subsumption and strengthening, variable elimination with its
//! gate search, equivalent-literal substitution, failed-literal probing) counts its work in
//! *ticks*: one per occurrence, clause, literal or implication it visits, one per literal a
//! probe propagates. A [`PassBudget`] holds the ticks a pass may spend and the limits of the
//! solve it runs in: every [`CHECK_INTERVAL`] ticks it looks at the stop flag and the clock
//! (as the search looks at them every 1,024 decisions or conflicts). A pass asks
//! [`PassBudget::spend`] after each step it may stop after (one subsumption attempt, one
//! elimination attempt, one probe, one stretch of the depth-first search of the implication
//! graph); when it answers false the pass leaves the formula as it is after the last whole
//! step (equivalent for satisfiability, the extension stack consistent) and returns. A budget
//! run out is the pass's end; a limit seen ([`PassBudget::interrupted`]) ends the solve as a
//! stopped search ends it, with [`Outcome::Unknown`](super::Outcome::Unknown).
//!
//! Conflict limits are not looked at: no pass makes a conflict the search counts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens_support::LimitReached;
use nqueens_support::clock::Instant;

/// Ticks between two looks at the stop flag and the clock.
pub(super) const CHECK_INTERVAL: u64 = 1 << 12;

/// What a pass may spend and when it must stop. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(super) struct PassBudget {
    /// Ticks left; the pass stops once it is below 0.
    left: i64,
    /// Ticks until the next look at the limits.
    until_look: u64,
    /// Ticks spent.
    spent: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    /// The limit a look found reached: the pass stops and the solve answers `Unknown`.
    interrupted: Option<LimitReached>,
}

impl PassBudget {
    /// A budget of `ticks`, under the solve's deadline and stop flag; it looks at them at
    /// once, so a pass under a limit already reached does no work.
    pub(super) fn new(
        ticks: u64,
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Self {
        let mut budget = PassBudget {
            left: i64::try_from(ticks).unwrap_or(i64::MAX),
            until_look: CHECK_INTERVAL,
            spent: 0,
            deadline,
            stop,
            interrupted: None,
        };
        budget.look();
        budget
    }

    /// Gives the pass `ticks` more (its next phase), keeping what it has spent and seen.
    pub(super) fn set_left(&mut self, ticks: u64) {
        self.left = i64::try_from(ticks).unwrap_or(i64::MAX);
    }

    /// Counts `ticks` of work; whether the pass may go on (budget left, no limit reached).
    pub(super) fn spend(&mut self, ticks: u64) -> bool {
        self.spent = self.spent.saturating_add(ticks);
        self.left = self
            .left
            .saturating_sub(i64::try_from(ticks).unwrap_or(i64::MAX));
        if ticks >= self.until_look {
            self.until_look = CHECK_INTERVAL;
            self.look();
        } else {
            self.until_look -= ticks;
        }
        !self.exhausted()
    }

    /// Whether the pass must stop: its budget is spent or a limit was reached.
    pub(super) fn exhausted(&self) -> bool {
        self.left < 0 || self.interrupted.is_some()
    }

    /// The limit reached, if a look found one.
    pub(super) fn interrupted(&self) -> Option<LimitReached> {
        self.interrupted
    }

    /// Ticks spent so far.
    pub(super) fn spent(&self) -> u64 {
        self.spent
    }

    /// Whether the budget (not a limit) ended the pass.
    pub(super) fn ran_out(&self) -> bool {
        self.left < 0 && self.interrupted.is_none()
    }

    fn look(&mut self) {
        if self.interrupted.is_none() {
            self.interrupted = limit_reached(self.deadline, self.stop.as_ref());
        }
    }
}

/// The solve's limit a look finds reached, if any: the deadline passed
/// ([`LimitReached::Time`]) or the stop flag raised ([`LimitReached::Stopped`]). The search
/// looks with it every 1,024 decisions or conflicts, a pass every [`CHECK_INTERVAL`] ticks.
pub(super) fn limit_reached(
    deadline: Option<Instant>,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<LimitReached> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        Some(LimitReached::Time)
    } else if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        Some(LimitReached::Stopped)
    } else {
        None
    }
}
