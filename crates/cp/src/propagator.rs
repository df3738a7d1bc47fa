//! The propagators the solver schedules, behind one enum (no trait objects, no `Rc`).

use crate::alldiff::{AllDifferent, Level};
use crate::domain::{Event, View};
use crate::store::{Conflict, Store, Take};

/// A propagator's index in the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub(crate) struct PropId(pub(crate) u32);

/// `a ≠ b` over two views: once one side is fixed, its value leaves the other. O(1) per run,
/// idempotent (removing the value from the other side cannot fix the first side again).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NotEqual {
    pub(crate) a: View,
    pub(crate) b: View,
}

impl NotEqual {
    fn propagate(&self, store: &mut Store) -> Result<(), Conflict> {
        for (from, to) in [(self.a, self.b), (self.b, self.a)] {
            let d = store.domains.get(from.var);
            if d.size == 1 {
                let value = d.min + from.offset;
                store.remove(to.var, value - to.offset)?;
            }
        }
        Ok(())
    }
}

/// Every propagator kind.
#[derive(Clone, Debug)]
pub(crate) enum Propagator {
    NotEqual(NotEqual),
    AllDifferent(Box<AllDifferent>),
}

impl Propagator {
    /// The views the propagator watches, each with what wakes it, in position order.
    pub(crate) fn watches(&self) -> Vec<(View, Event)> {
        match self {
            Propagator::NotEqual(ne) => vec![(ne.a, Event::ON_FIXED), (ne.b, Event::ON_FIXED)],
            Propagator::AllDifferent(ad) => {
                let on = if ad.uses_bounds() {
                    Event::ON_FIXED.union(Event::ON_BOUNDS)
                } else {
                    Event::ON_FIXED
                };
                ad.views().iter().map(|&v| (v, on)).collect()
            }
        }
    }

    /// Prepares a propagation from scratch at the root; says when to run first.
    pub(crate) fn start(&mut self, store: &Store) -> Level {
        match self {
            Propagator::NotEqual(_) => Level::Now,
            Propagator::AllDifferent(ad) => {
                ad.start(store);
                Level::Now
            }
        }
    }

    /// Forgets pending work after a conflict.
    pub(crate) fn clear(&mut self) {
        if let Propagator::AllDifferent(ad) = self {
            ad.clear();
        }
    }

    /// Takes note of `event` on the watched view at `position`; says when to run, if at all.
    #[inline]
    pub(crate) fn notify(&mut self, position: u32, event: Event, from_self: bool) -> Option<Level> {
        match self {
            Propagator::NotEqual(_) => (event.fixed() && !from_self).then_some(Level::Now),
            Propagator::AllDifferent(ad) => ad.notify(position, event, from_self),
        }
    }

    /// Undoes a bulk removal this propagator made.
    pub(crate) fn undo_take(&mut self, store: &mut Store, take: Take) {
        match self {
            Propagator::AllDifferent(ad) => ad.undo_take(store, take),
            Propagator::NotEqual(_) => unreachable!("only all-different takes"),
        }
    }

    /// Runs; returns the level to run again at, if any.
    pub(crate) fn propagate(
        &mut self,
        store: &mut Store,
        level: Level,
    ) -> Result<Option<Level>, Conflict> {
        match self {
            Propagator::NotEqual(ne) => ne.propagate(store).map(|()| None),
            Propagator::AllDifferent(ad) => ad.propagate(store, level),
        }
    }
}
