//! The one termination concept every search polls, and the one way a search says that it
//! ended without its answer.
//!
//! [`Limits`] is what a caller sets: a node budget, a conflict budget, a time budget, a stop
//! flag another thread may raise, and a counter the search publishes its work to. Which engine
//! reads which field:
//!
//! | field       | exact cover | CP | SAT | `nqueens_solver` |
//! |-------------|-------------|----|-----|------------------|
//! | `nodes`     | search nodes | search nodes | — | each engine's unit (nodes, moves, or SAT's conflicts) |
//! | `conflicts` | — | — | conflicts | — |
//! | `time`, `stop`, `work` | yes | yes | yes | yes |
//!
//! A search turns them into a [`Budget`] when it starts and polls it as it goes.
//!
//! **Stopped, never an answer.** A search that a limit or the stop flag ended returns
//! `Err(`[`Stopped`]`)` (SAT's `solve` answers `Outcome::Unknown` with the [`LimitReached`]
//! instead, as SAT solvers do), never a value of the finished answer's type: a count stopped
//! after 79 solutions is `Err(Stopped { reason: LimitReached::Nodes, found: 79 })`, not `79`,
//! so it cannot be mistaken for the count. [`Stopped::found`] is what the search had found so
//! far (solutions counted or visited), a lower bound and never the answer.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::clock::Instant;

/// When a search should give up; every field `None` means "run to the end".
///
/// Engines turn these into a [`Budget`] when a search starts and poll it as they go. The node
/// budget counts the engine's own unit of work (search nodes, moves: each engine documents
/// which); the conflict budget is for engines whose unit is a conflict (the SAT solver reads it
/// and not `nodes`; the other engines ignore it; see the [module documentation](self) for
/// which engine reads which field); the time budget is wall time from the start of the call;
/// the stop flag lets another thread (a Ctrl-C handler, a portfolio's winner, a Python
/// wrapper) end the search early. A search one of them ends answers [`Stopped`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// At most this many units of work (search nodes, moves: the engine's own unit).
    pub nodes: Option<u64>,
    /// At most this many conflicts (engines whose unit is a conflict: SAT).
    pub conflicts: Option<u64>,
    /// At most this much wall time per call.
    pub time: Option<Duration>,
    /// Stop as soon as this flag is raised.
    pub stop: Option<Arc<AtomicBool>>,
    /// Not a limit: where the search publishes its work so far (the same unit as `nodes`)
    /// each time it polls the clock, so that another thread (a progress display) can show
    /// its rate. The search itself never reads it.
    pub work: Option<Arc<AtomicU64>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Self {
        Limits::default()
    }

    /// A time budget alone.
    pub fn time(time: Duration) -> Self {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.nodes.is_none()
            && self.conflicts.is_none()
            && self.time.is_none()
            && self.stop.is_none()
    }
}

/// Two limits are equal when their budgets are and they watch the same stop flag.
impl PartialEq for Limits {
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes
            && self.conflicts == other.conflicts
            && self.time == other.time
            && match (&self.stop, &other.stop) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
            && match (&self.work, &other.work) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl Eq for Limits {}

/// Which limit ended a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitReached {
    /// The node budget of [`Limits::nodes`].
    Nodes,
    /// The conflict budget of [`Limits::conflicts`].
    Conflicts,
    /// The time budget of [`Limits::time`].
    Time,
    /// The stop flag of [`Limits::stop`].
    Stopped,
    /// An allocation was refused: the problem does not fit in memory (the SAT solver's
    /// answer once it could not grow).
    Memory,
    /// An incomplete search with restarts (local search) ran all its attempts, each of at most
    /// `steps` repair steps, without an answer: its own limit, not the caller's.
    Attempts {
        /// The attempts made.
        attempts: u64,
        /// The repair steps each attempt was allowed.
        steps: u64,
    },
}

impl fmt::Display for LimitReached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitReached::Nodes => "node limit reached",
            LimitReached::Conflicts => "conflict limit reached",
            LimitReached::Time => "time limit reached",
            LimitReached::Stopped => "stopped",
            LimitReached::Memory => "out of memory",
            LimitReached::Attempts { attempts, steps } => {
                return write!(
                    f,
                    "gave up after {attempts} attempts of {steps} repair steps each"
                );
            }
        })
    }
}

/// A search that a limit or the stop flag ended before its answer: why, and what it had found
/// so far. See the [module documentation](self): a search returns this in place of its
/// answer, never a partial answer of the answer's type.
///
/// ```
/// use nqueens_support::{LimitReached, Stopped};
/// let stopped = Stopped { reason: LimitReached::Nodes, found: 79 };
/// assert_eq!(
///     stopped.to_string(),
///     "stopped before the answer (node limit reached) after 79 solutions"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stopped {
    /// Which limit ended the search.
    pub reason: LimitReached,
    /// The solutions (or models) found, counted or visited before the stop: a lower bound,
    /// never the answer.
    pub found: u128,
}

impl Stopped {
    /// Stopped by `reason` after `found` solutions.
    pub fn new(reason: LimitReached, found: u128) -> Self {
        Stopped { reason, found }
    }
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.found == 1 { "" } else { "s" };
        write!(
            f,
            "stopped before the answer ({}) after {} solution{plural}",
            self.reason, self.found
        )
    }
}

impl std::error::Error for Stopped {}

/// A running search's view of its [`Limits`]: the deadline fixed when the search started.
///
/// [`Budget::check`] costs a comparison for the node budget; the clock and the stop flag are
/// read only every [`Budget::POLL_EVERY`] calls, so polling at every node stays cheap (a few
/// nanoseconds amortised). Clone it for each worker thread: clones share the deadline and the
/// stop flag.
#[derive(Clone, Debug)]
pub struct Budget {
    nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    work: Option<Arc<AtomicU64>>,
    calls: u32,
}

impl Budget {
    /// Calls of [`Budget::check`] between two looks at the clock and the stop flag.
    pub const POLL_EVERY: u32 = 1024;

    /// The budget of a search starting now.
    pub fn start(limits: &Limits) -> Self {
        Budget {
            nodes: limits.nodes,
            deadline: limits.time.map(|t| Instant::now() + t),
            stop: limits.stop.clone(),
            work: limits.work.clone(),
            calls: 0,
        }
    }

    /// Whether the search, having done `work` units so far, must stop now.
    #[inline]
    pub fn check(&mut self, work: u64) -> Result<(), LimitReached> {
        if self.nodes.is_some_and(|limit| work >= limit) {
            return Err(LimitReached::Nodes);
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls % Self::POLL_EVERY == 0 {
            self.publish(work);
            return self.check_now();
        }
        Ok(())
    }

    /// Publishes the work done so far to [`Limits::work`], if set ([`Budget::check`] does it
    /// at each poll; coarse-grained loops call it themselves).
    pub fn publish(&self, work: u64) {
        if let Some(counter) = &self.work {
            counter.store(work, Ordering::Relaxed);
        }
    }

    /// Looks at the clock and the stop flag now (for coarse-grained loops: one call per task,
    /// restart or conflict batch).
    pub fn check_now(&self) -> Result<(), LimitReached> {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(LimitReached::Stopped);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(LimitReached::Time);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stop_at_each_limit() {
        let mut unlimited = Budget::start(&Limits::none());
        assert!((0..10_000).all(|w| unlimited.check(w).is_ok()));

        let mut nodes = Budget::start(&Limits {
            nodes: Some(5),
            ..Limits::default()
        });
        assert_eq!(nodes.check(4), Ok(()));
        assert_eq!(nodes.check(5), Err(LimitReached::Nodes));

        let mut time = Budget::start(&Limits::time(Duration::ZERO));
        let first_stop = (0..10 * Budget::POLL_EVERY as u64).position(|w| time.check(w).is_err());
        assert_eq!(first_stop, Some(Budget::POLL_EVERY as usize - 1));
        assert_eq!(time.check_now(), Err(LimitReached::Time));

        let flag = Arc::new(AtomicBool::new(false));
        let stop = Budget::start(&Limits {
            stop: Some(flag.clone()),
            ..Limits::default()
        });
        assert_eq!(stop.check_now(), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(stop.clone().check_now(), Err(LimitReached::Stopped));
        assert_eq!(LimitReached::Time.to_string(), "time limit reached");
    }

    #[test]
    fn budgets_publish_the_work_at_each_poll_and_only_then() {
        let work = Arc::new(AtomicU64::new(0));
        let mut budget = Budget::start(&Limits {
            work: Some(work.clone()),
            ..Limits::default()
        });
        let poll = u64::from(Budget::POLL_EVERY);
        for w in 1..poll {
            budget.check(w).unwrap();
        }
        assert_eq!(work.load(Ordering::Relaxed), 0, "not before the first poll");
        budget.check(poll).unwrap();
        assert_eq!(work.load(Ordering::Relaxed), poll);
        budget.publish(7);
        assert_eq!(work.load(Ordering::Relaxed), 7);
        // A counter alone is no limit.
        assert!(
            Limits {
                work: Some(work),
                ..Limits::default()
            }
            .is_unlimited()
        );
    }

    #[test]
    fn stopped_says_why_and_how_many_and_is_an_error() {
        let stopped = Stopped::new(LimitReached::Conflicts, 1);
        assert_eq!(
            stopped.to_string(),
            "stopped before the answer (conflict limit reached) after 1 solution"
        );
        let error: &dyn std::error::Error = &stopped;
        assert!(error.source().is_none());
        // A conflict budget alone is a limit.
        assert!(
            !Limits {
                conflicts: Some(3),
                ..Limits::default()
            }
            .is_unlimited()
        );
    }
}
