//! The solver: building a model, and propagating it to a fixpoint.
//!
//! Propagators are kept in one `Vec` and named by index; each variable lists the propagators
//! that watch it (with the position of the variable in the propagator and what wakes it). After
//! a propagator runs, the store's events are handed to the watchers, which say whether and when
//! to run: [`Level::Now`] for cheap work (`≠`, value elimination), [`Level::Later`] for the
//! Hall-interval pass, which therefore sees the result of all cheap propagation before it runs.
//! Each level is a FIFO queue; a propagator is queued at most once per level. Propagation ends
//! when both queues are empty (a fixpoint), or at the first conflict, which empties the queues.

use std::collections::VecDeque;

use crate::alldiff::{AllDifferent, Level};
use crate::domain::{Event, VALUE_LIMIT, Var, View};
use crate::error::Error;
use crate::propagator::{NotEqual, PropId, Propagator};
use crate::stats::Stats;
use crate::store::{Conflict, Entry, Mark, Store};

/// How hard an all-different constraint works.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Strength {
    /// One `≠` propagator per pair of views: n(n−1)/2 propagators and O(n²) memory. The obviously
    /// right decomposition, kept as the oracle of the others.
    Pairwise,
    /// Value elimination in one propagator: prunes exactly what [`Strength::Pairwise`] prunes,
    /// in O(n) per fixed view and O(n) memory.
    Value,
    /// Value elimination plus bounds consistency by Hall intervals: after propagation every
    /// view's smallest and largest value belong to an assignment of distinct values within the
    /// other views' bounds.
    #[default]
    Bounds,
}

/// One watcher of a variable.
#[derive(Clone, Copy, Debug)]
struct Watch {
    prop: PropId,
    position: u32,
    on: Event,
}

/// A constraint solver over integer variables with bitset domains.
///
/// ```
/// use nqueens_cp::{SearchConfig, Solver, Strength};
/// use std::ops::ControlFlow;
///
/// // Three variables in 1..=3, pairwise different, and x ≠ 1: 4 solutions.
/// let mut solver = Solver::new();
/// let vars = solver.new_vars(3, 1, 3).unwrap();
/// let views: Vec<_> = vars.iter().map(|&v| v.into()).collect();
/// solver.all_different(&views, Strength::Bounds).unwrap();
/// solver.remove(vars[0], 1).unwrap();
/// let mut count = 0;
/// let result = solver
///     .search(&SearchConfig::default(), |s| {
///         assert_ne!(s.value(vars[0]), 1);
///         count += 1;
///         ControlFlow::Continue(())
///     })
///     .unwrap();
/// assert_eq!((count, result.solutions), (4, 4));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Solver {
    pub(crate) store: Store,
    props: Vec<Propagator>,
    watches: Vec<Vec<Watch>>,
    /// Per variable: its domain when created.
    initial: Vec<(i32, i32)>,
    queues: [VecDeque<PropId>; 2],
    /// Per propagator: bit `level` set when queued at that level.
    queued: Vec<u8>,
    events: Vec<(Var, Event)>,
    /// A root-level change emptied a domain, or a constraint can never hold.
    pub(crate) infeasible: bool,
    pub(crate) stats: Stats,
}

impl Solver {
    /// An empty solver.
    pub fn new() -> Self {
        Solver::default()
    }

    /// A new variable with domain `lo..=hi` (at most [`crate::MAX_DOMAIN_SIZE`] values, within
    /// ±[`VALUE_LIMIT`]).
    pub fn new_var(&mut self, lo: i32, hi: i32) -> Result<Var, Error> {
        let var = self.store.new_var(i64::from(lo), i64::from(hi))?;
        self.watches.push(Vec::new());
        self.initial.push((lo, hi));
        Ok(var)
    }

    /// `count` new variables with domain `lo..=hi`.
    pub fn new_vars(&mut self, count: usize, lo: i32, hi: i32) -> Result<Vec<Var>, Error> {
        (0..count).map(|_| self.new_var(lo, hi)).collect()
    }

    /// The number of variables.
    pub fn var_count(&self) -> usize {
        self.store.domains.len()
    }

    /// Every variable, in order of creation.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = Var> + use<> {
        let owner = self.store.domains.owner;
        (0..self.var_count() as u32).map(move |index| Var(index, owner))
    }

    pub(crate) fn check_var(&self, var: Var) -> Result<(), Error> {
        let count = self.var_count() as u32;
        if var.1 != self.store.domains.owner {
            Err(Error::ForeignVariable { index: var.0 })
        } else if var.0 < count {
            Ok(())
        } else {
            Err(Error::UnknownVariable {
                index: var.0,
                count,
            })
        }
    }

    /// Checks that `view` is ours and its values stay within ±[`VALUE_LIMIT`].
    fn check_view(&self, view: View) -> Result<(), Error> {
        self.check_var(view.var)?;
        let (lo, hi) = self.initial[view.var.index()];
        let offset = i64::from(view.offset);
        let limit = i64::from(VALUE_LIMIT);
        for value in [offset, i64::from(lo) + offset, i64::from(hi) + offset] {
            if !(-limit..=limit).contains(&value) {
                return Err(Error::ValueOutOfRange { value });
            }
        }
        Ok(())
    }

    // ---- the domains, as they are at the root ----
    //
    // Each panics when another solver made `var`, as for an index out of range.

    /// The number of values left in `var`'s domain.
    pub fn size(&self, var: Var) -> u32 {
        self.store.domains.expect_own(var);
        self.store.domains.get(var).size
    }

    /// The smallest value of `var`.
    pub fn min(&self, var: Var) -> i32 {
        self.store.domains.expect_own(var);
        self.store.domains.get(var).min
    }

    /// The largest value of `var`.
    pub fn max(&self, var: Var) -> i32 {
        self.store.domains.expect_own(var);
        self.store.domains.get(var).max
    }

    /// Whether `value` is in `var`'s domain.
    pub fn contains(&self, var: Var, value: i32) -> bool {
        self.store.domains.expect_own(var);
        self.store.domains.contains(var, value)
    }

    /// The values of `var`, in increasing order.
    pub fn values(&self, var: Var) -> Vec<i32> {
        self.store.domains.expect_own(var);
        self.store.domains.values(var).collect()
    }

    /// Whether the model is known to have no solution (a root-level change emptied a domain, or
    /// [`Solver::propagate`] failed).
    pub fn is_infeasible(&self) -> bool {
        self.infeasible
    }

    /// The counters of the last search (or of [`Solver::propagate`]).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    // ---- root-level changes ----

    /// Fixes `var` to `value` for good (before search). A value outside the domain makes the
    /// model infeasible; that is not an error.
    pub fn fix(&mut self, var: Var, value: i32) -> Result<(), Error> {
        self.check_var(var)?;
        if self.store.assign(var, value).is_err() {
            self.infeasible = true;
        }
        self.store.clear_events();
        Ok(())
    }

    /// Removes `value` from `var` for good (before search).
    pub fn remove(&mut self, var: Var, value: i32) -> Result<(), Error> {
        self.check_var(var)?;
        if self.store.remove(var, value).is_err() {
            self.infeasible = true;
        }
        self.store.clear_events();
        Ok(())
    }

    // ---- constraints ----

    /// `a ≠ b`.
    pub fn not_equal(&mut self, a: impl Into<View>, b: impl Into<View>) -> Result<(), Error> {
        let (a, b) = (a.into(), b.into());
        self.check_view(a)?;
        self.check_view(b)?;
        if a.var == b.var {
            // x + c ≠ x + d holds iff c ≠ d.
            self.infeasible |= a.offset == b.offset;
            return Ok(());
        }
        self.add(Propagator::NotEqual(NotEqual { a, b }));
        Ok(())
    }

    /// All of `views` take different values, propagated as `strength` says.
    pub fn all_different(&mut self, views: &[View], strength: Strength) -> Result<(), Error> {
        for &view in views {
            self.check_view(view)?;
        }
        let mut seen: Vec<View> = views.to_vec();
        seen.sort_unstable_by_key(|v| (v.var, v.offset));
        if seen.windows(2).any(|w| w[0] == w[1]) {
            // The same view twice can never differ from itself.
            self.infeasible = true;
            return Ok(());
        }
        match strength {
            Strength::Pairwise => {
                for (i, &a) in views.iter().enumerate() {
                    for &b in &views[i + 1..] {
                        self.not_equal(a, b)?;
                    }
                }
            }
            Strength::Value | Strength::Bounds if views.len() > 1 => {
                let id = self.props.len() as u32;
                let prop = AllDifferent::new(
                    id,
                    &self.store,
                    views.to_vec(),
                    strength == Strength::Bounds,
                );
                self.add(Propagator::AllDifferent(Box::new(prop)));
            }
            _ => {}
        }
        Ok(())
    }

    fn add(&mut self, prop: Propagator) {
        let id = PropId(u32::try_from(self.props.len()).expect("fewer than 2^32 propagators"));
        for (position, (view, on)) in prop.watches().into_iter().enumerate() {
            self.store.listen(view.var, on);
            self.watches[view.var.index()].push(Watch {
                prop: id,
                position: position as u32,
                on,
            });
        }
        self.props.push(prop);
        self.queued.push(0);
    }

    // ---- propagation ----

    /// Propagates every constraint at the root and keeps the result; false when the model has
    /// no solution. Searching does this by itself; call it to see what propagation alone deduces.
    pub fn propagate(&mut self) -> bool {
        self.stats = Stats::default();
        if !self.infeasible && self.start().is_err() {
            self.infeasible = true;
        }
        !self.infeasible
    }

    /// Schedules every propagator from scratch and propagates.
    pub(crate) fn start(&mut self) -> Result<(), Conflict> {
        self.clear_queues();
        for id in 0..self.props.len() {
            let level = self.props[id].start(&self.store);
            self.schedule(PropId(id as u32), level);
        }
        self.fixpoint()
    }

    fn schedule(&mut self, prop: PropId, level: Level) {
        let bit = 1u8 << level as u8;
        let queued = &mut self.queued[prop.0 as usize];
        if *queued & bit == 0 {
            *queued |= bit;
            self.queues[level as usize].push_back(prop);
        }
    }

    fn clear_queues(&mut self) {
        for queue in &mut self.queues {
            for prop in queue.drain(..) {
                self.queued[prop.0 as usize] = 0;
                self.props[prop.0 as usize].clear();
            }
        }
    }

    /// Hands the store's events to the watchers; `source` is the propagator that caused them.
    fn dispatch(&mut self, source: Option<PropId>) {
        let mut events = std::mem::take(&mut self.events);
        self.store.take_events(&mut events);
        for &(var, event) in &events {
            for i in 0..self.watches[var.index()].len() {
                let watch = self.watches[var.index()][i];
                if !watch.on.intersects(event) {
                    continue;
                }
                let from_self = source == Some(watch.prop);
                if let Some(level) =
                    self.props[watch.prop.0 as usize].notify(watch.position, event, from_self)
                {
                    self.schedule(watch.prop, level);
                }
            }
        }
        self.events = events;
    }

    pub(crate) fn mark(&self) -> Mark {
        self.store.mark()
    }

    /// Undoes every change made since `mark`, newest first, and drops pending events.
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        while let Some(entry) = self.store.pop_above(mark) {
            match entry {
                Entry::Take(take) => {
                    self.props[take.prop as usize].undo_take(&mut self.store, take);
                }
                other => self.store.undo(other),
            }
        }
        self.store.clear_events();
    }

    /// Propagates the pending events to a fixpoint.
    pub(crate) fn fixpoint(&mut self) -> Result<(), Conflict> {
        self.dispatch(None);
        loop {
            let Some(level) = (0..2).find(|&l| !self.queues[l].is_empty()) else {
                return Ok(());
            };
            let prop = self.queues[level].pop_front().expect("queue is not empty");
            self.queued[prop.0 as usize] &= !(1u8 << level);
            let level = if level == 0 { Level::Now } else { Level::Later };
            self.stats.propagations += 1;
            match self.props[prop.0 as usize].propagate(&mut self.store, level) {
                Ok(again) => {
                    self.dispatch(Some(prop));
                    if let Some(level) = again {
                        self.schedule(prop, level);
                    }
                }
                Err(Conflict) => {
                    self.props[prop.0 as usize].clear();
                    self.store.clear_events();
                    self.clear_queues();
                    return Err(Conflict);
                }
            }
        }
    }
}
