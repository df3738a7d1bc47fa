//! What a search reports step by step, for a replay of it (a teaching page, a trace): the
//! [`Observer`] a search calls at every branch, every option tried and every back-up, and
//! [`Silent`], the observer of every search that nobody watches.
//!
//! Both engines call the observer at the same points of the same tree, so a replay is the same
//! on either. The engines are generic over their observer: for [`Silent`], the observer of
//! [`crate::Solver::count`], [`crate::Solver::for_each`] and the rest, [`Observer::WATCHES`] is
//! false and the calls are compiled out, so the hook costs the searches that nobody watches nothing
//! (docs/notes/observer-hooks.md measures it). A module of its own, below both engines and
//! the solver.

use std::ops::ControlFlow;

use crate::problem::{ItemId, OptionId};

/// What a search reports: one call per event, in the order they happen. Levels count from 0
/// (the first item branched on, after the preselected options).
pub trait Observer {
    /// Whether the search reports its steps (`false` only for observers that ignore them, so
    /// that the searches skip the work of naming what they would report).
    const WATCHES: bool = true;

    /// A search node: the search branches on primary `item` at `level` (the item with the
    /// fewest live options); the item is covered until [`Observer::back_up`] of that level.
    /// There is one call per node the solver's [`crate::Stats::nodes`] counts.
    #[inline(always)]
    fn branch(&mut self, _level: usize, _item: ItemId) {}

    /// The search tries `option` for the item branched on at `level`: the option's other
    /// items are covered, and what lies below is searched next. The option is taken back
    /// when the next option of the level is tried, or at the level's back-up.
    #[inline(always)]
    fn try_option(&mut self, _level: usize, _option: OptionId) {}

    /// Every option of the item branched on at `level` was tried: the item is uncovered and
    /// the search goes back to level `level − 1`.
    #[inline(always)]
    fn back_up(&mut self, _level: usize) {}

    /// A solution: the options of every level and the preselected ones. `Break` stops the
    /// search.
    #[inline(always)]
    fn solution(&mut self, _options: &[OptionId]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// The observer that reports nowhere: the steps of the searches nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    const WATCHES: bool = false;
}
