//! Debug checks of the arena: a walk of every active list ([`DancingLinks::sanity`],
//! O(nodes in active lists)) and, in debug builds, a snapshot at the start of a search compared
//! bit for bit when the search ends (undo is exact).

use super::{DancingLinks, ROOT};

impl DancingLinks {
    /// Walks the active part of the structure and reports the first inconsistency: the list of
    /// primary items must be doubly linked, and every active item's list doubly linked, with
    /// nodes that name the item and a length that counts them. O(nodes in active lists).
    pub(crate) fn sanity(&self) -> Result<(), String> {
        let mut previous = ROOT;
        let mut k = self.links[ROOT as usize].next;
        let mut steps = 0usize;
        loop {
            if self.links[k as usize].prev != previous {
                return Err(format!("item {k}: bad prev link"));
            }
            if k == ROOT {
                break;
            }
            steps += 1;
            if steps > self.links.len() {
                return Err("the item list does not close".into());
            }
            let mut above = k;
            let mut p = self.nodes[k as usize].down;
            let mut len = 0i32;
            while p != k {
                if self.nodes[p as usize].up != above {
                    return Err(format!("node {p}: bad up link"));
                }
                if p < self.first_spacer || self.nodes[p as usize].top != k as i32 {
                    return Err(format!(
                        "node {p} in the list of item {k} names another item"
                    ));
                }
                len += 1;
                if len as usize > self.nodes.len() {
                    return Err(format!("the list of item {k} does not close"));
                }
                above = p;
                p = self.nodes[p as usize].down;
            }
            if self.nodes[k as usize].up != above {
                return Err(format!("item {k}: bad up link in the header"));
            }
            if self.nodes[k as usize].top != len {
                return Err(format!(
                    "item {k}: length {} but {len} nodes",
                    self.nodes[k as usize].top
                ));
            }
            previous = k;
            k = self.links[k as usize].next;
        }
        Ok(())
    }

    pub(super) fn assert_sane(&self) {
        if let Err(problem) = self.sanity() {
            panic!("dancing links corrupted: {problem}");
        }
    }

    #[cfg(debug_assertions)]
    pub(super) fn take_snapshot(&mut self) {
        self.assert_sane();
        self.snapshot = Some((self.nodes.clone(), self.colors.clone(), self.links.clone()));
    }

    #[cfg(not(debug_assertions))]
    pub(super) fn take_snapshot(&mut self) {}

    /// In debug builds: the arena is exactly as it was when the search started.
    #[cfg(debug_assertions)]
    pub(super) fn check_restored(&mut self) {
        if let Some((nodes, colors, links)) = self.snapshot.take() {
            assert!(
                nodes == self.nodes && colors == self.colors && links == self.links,
                "undo is not exact: the links differ from the start of the search"
            );
        }
    }

    #[cfg(not(debug_assertions))]
    pub(super) fn check_restored(&mut self) {}
}
