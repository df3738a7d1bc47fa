//! Preselection: options put into every solution before a search, each checked against the
//! ones selected before it (O(items of the option)) and then covered for good.

use super::{DancingLinks, Phase, Use};
use crate::error::Error;
use crate::problem::OptionId;
use crate::stats::Stats;

impl DancingLinks {
    /// Puts `option` into every solution, as if the search had chosen it first: its items are
    /// covered (or purified, for colored ones) for good. Fails if the option clashes with an
    /// option selected before, or once a search has started.
    pub(crate) fn select(&mut self, option: OptionId) -> Result<(), Error> {
        if self.phase != Phase::Fresh || self.stats != Stats::default() {
            return Err(Error::SearchStarted);
        }
        let spacer = self.spacer_before(option)?;
        // Check every item before touching the links.
        let mut p = spacer + 1;
        let mut primary = None;
        while self.nodes[p as usize].top > 0 {
            let node = self.nodes[p as usize];
            let item = node.top as usize - 1;
            let clash = match self.usage[item] {
                Use::Free => false,
                Use::Taken => true,
                Use::Colored(c) => self.color(p) != c,
            };
            if clash {
                return Err(Error::Conflict {
                    option: option.0,
                    item: self.names[item].clone(),
                });
            }
            // Secondary items are the ones linked to themselves in `links`.
            if primary.is_none() && self.links[node.top as usize].next != node.top as u32 {
                primary = Some(p);
            }
            p += 1;
        }
        let chosen = primary.expect("every option has a primary item");
        let mut p = spacer + 1;
        while self.nodes[p as usize].top > 0 {
            let node = self.nodes[p as usize];
            self.usage[node.top as usize - 1] = match self.color(p) {
                0 => Use::Taken,
                c => Use::Colored(c),
            };
            p += 1;
        }
        let item = self.nodes[chosen as usize].top as u32;
        if self.has_colors {
            self.cover::<true, false>(item);
            self.commit_others::<true, false>(chosen);
        } else {
            self.cover::<false, false>(item);
            self.commit_others::<false, false>(chosen);
        }
        self.selected.push(chosen);
        self.stats = Stats::default();
        Ok(())
    }

    /// The spacer in front of `option`'s nodes.
    pub(super) fn spacer_before(&self, option: OptionId) -> Result<u32, Error> {
        // Spacers are found by walking from the first one: options vary in length. This is
        // O(options), fine for preselection, which happens a few times per solver.
        let mut spacer = self.first_spacer;
        let mut k = 0u32;
        loop {
            if k == option.0 {
                return Ok(spacer);
            }
            let last = self.nodes[spacer as usize].down;
            if last == spacer || (last as usize) + 1 >= self.nodes.len() {
                return Err(Error::BadId {
                    what: "option",
                    index: option.0,
                });
            }
            spacer = last + 1;
            k += 1;
        }
    }
}
