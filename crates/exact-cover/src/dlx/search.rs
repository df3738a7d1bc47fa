//! The search loop: an explicit stack of choices stepped through the phases of [`Phase`], so
//! a search can stop after any solution (or at a node budget) and resume, and can be undone
//! from any phase by [`DancingLinks::restart`]. Each step costs the covers it makes.

use super::{DancingLinks, Phase, ROOT};
use crate::observe::Observer;
use crate::problem::{ItemId, OptionId};
use crate::stats::Stats;

impl DancingLinks {
    /// The counters of the last search (or of the one in progress).
    pub(crate) fn stats(&self) -> Stats {
        self.stats
    }

    /// The options of the solution the search stands on.
    pub(crate) fn fill(&self, buffer: &mut Vec<OptionId>) {
        buffer.clear();
        buffer.extend(self.selected.iter().map(|&p| self.option_of(p)));
        let depth = match self.phase {
            Phase::Recover => self.level + 1,
            _ => 0,
        };
        buffer.extend(self.choice[..depth].iter().map(|&p| self.option_of(p)));
    }

    /// The option a node belongs to: the mark of the spacer after it.
    pub(super) fn option_of(&self, mut p: u32) -> OptionId {
        while self.nodes[p as usize].top > 0 {
            p += 1;
        }
        OptionId((-self.nodes[p as usize].top - 1) as u32)
    }

    /// Undoes a search in progress, so the next step starts a new one.
    pub(crate) fn restart(&mut self) {
        let committed = match self.phase {
            Phase::Fresh => {
                self.stats = Stats::default();
                return;
            }
            Phase::Done => 0,
            Phase::Forward => self.level,
            Phase::Advance => {
                // The item of this level is covered but no option of it is committed.
                let item = self.nodes[self.choice[self.level] as usize].top;
                let item = if self.choice[self.level] < self.first_spacer {
                    self.choice[self.level]
                } else {
                    item as u32
                };
                self.uncover_any(item);
                self.level
            }
            Phase::Recover => self.level + 1,
        };
        for level in (0..committed).rev() {
            let p = self.choice[level];
            let item = self.nodes[p as usize].top as u32;
            if self.has_colors {
                self.uncommit_others::<true, false>(p);
                self.uncover::<true, false>(item);
            } else {
                self.uncommit_others::<false, false>(p);
                self.uncover::<false, false>(item);
            }
        }
        self.check_restored();
        self.phase = Phase::Fresh;
        self.level = 0;
        self.stats = Stats::default();
    }

    pub(super) fn uncover_any(&mut self, item: u32) {
        if self.has_colors {
            self.uncover::<true, false>(item);
        } else {
            self.uncover::<false, false>(item);
        }
    }

    /// Runs the search to its next solution, telling `observer` every step; false when there
    /// is none left.
    pub(crate) fn step<O: Observer>(&mut self, observer: &mut O) -> bool {
        match (self.has_colors, self.tracking) {
            (true, true) => self.step_with::<true, true, O>(observer),
            (true, false) => self.step_with::<true, false, O>(observer),
            (false, true) => self.step_with::<false, true, O>(observer),
            (false, false) => self.step_with::<false, false, O>(observer),
        }
    }

    pub(super) fn step_with<const COLORS: bool, const TRACK: bool, O: Observer>(
        &mut self,
        observer: &mut O,
    ) -> bool {
        loop {
            match self.phase {
                Phase::Fresh => {
                    self.take_snapshot();
                    if TRACK {
                        self.tree.rebuild(&self.nodes, &self.links);
                    }
                    self.level = 0;
                    if self.links[ROOT as usize].next == ROOT {
                        // Nothing to cover: the options selected so far are the one solution.
                        self.phase = Phase::Done;
                        self.stats.solutions += 1;
                        return true;
                    }
                    self.phase = Phase::Forward;
                }
                Phase::Forward => {
                    if self.stats.nodes >= self.pause_at {
                        self.paused = true;
                        return false;
                    }
                    self.stats.nodes += 1;
                    if cfg!(debug_assertions) && self.stats.nodes.is_power_of_two() {
                        self.assert_sane();
                    }
                    let item = if TRACK {
                        self.choose_from_tree()
                    } else {
                        self.choose_item()
                    };
                    if O::WATCHES {
                        // Headers are numbered from 1, items from 0.
                        observer.branch(self.level, ItemId(item - 1));
                    }
                    self.cover::<COLORS, TRACK>(item);
                    if self.level == self.choice.len() {
                        self.choice.push(0);
                    }
                    self.choice[self.level] = self.nodes[item as usize].down;
                    self.phase = Phase::Advance;
                }
                Phase::Advance => {
                    let p = self.choice[self.level];
                    if p < self.first_spacer {
                        // Every option of this item was tried: back up.
                        if O::WATCHES {
                            observer.back_up(self.level);
                        }
                        self.uncover::<COLORS, TRACK>(p);
                        if self.level == 0 {
                            self.phase = Phase::Done;
                            self.check_restored();
                            return false;
                        }
                        self.level -= 1;
                        self.phase = Phase::Recover;
                        continue;
                    }
                    if O::WATCHES {
                        observer.try_option(self.level, self.option_of(p));
                    }
                    self.commit_others::<COLORS, TRACK>(p);
                    self.phase = Phase::Recover;
                    if self.links[ROOT as usize].next == ROOT {
                        self.stats.solutions += 1;
                        return true;
                    }
                    self.level += 1;
                    self.phase = Phase::Forward;
                }
                Phase::Recover => {
                    let p = self.choice[self.level];
                    self.uncommit_others::<COLORS, TRACK>(p);
                    self.choice[self.level] = self.nodes[p as usize].down;
                    self.phase = Phase::Advance;
                }
                Phase::Done => return false,
            }
        }
    }
}
