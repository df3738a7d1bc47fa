//! The dance itself: cover and uncover an item, hide and unhide an option, commit an option's
//! other items, purify and unpurify a colored item, each undone by its inverse walking the
//! other way (see the [module documentation](super) for why undo is exact). One update per node
//! hidden; the node and link reads are unchecked in release builds, checked in debug builds.

use super::{DancingLinks, Links, Node};

impl DancingLinks {
    /// The item list links of item `i` (or of the root). Unchecked in release builds like
    /// [`DancingLinks::node`]: MRV reads one per uncovered item at every search node. Sound because
    /// every `prev`/`next` is set at build time to an item index below `links.len()` and the
    /// search only copies them between items; debug builds check every access.
    #[inline(always)]
    pub(super) fn link(&self, i: u32) -> Links {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: `i` is the root or an item link, hence in bounds (see above).
        unsafe { *self.links.get_unchecked(i as usize) }
    }

    /// The item list links of item `i`, to change. Unchecked in release builds: see
    /// [`DancingLinks::link`].
    #[inline(always)]
    pub(super) fn link_mut(&mut self, i: u32) -> &mut Links {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: `i` is the root or an item link, hence in bounds (see `link`).
        unsafe { self.links.get_unchecked_mut(i as usize) }
    }

    /// The node at index `i`.
    ///
    /// Unchecked in release builds, because the inner loops below read and write three or four
    /// nodes per update and the bounds checks cost about a fifth of the running time (measured
    /// on pentominoes 6×10 when this was written). Sound because every link is set at build
    /// time to an index of a node that exists, the arena never shrinks, and the search only
    /// ever copies links between nodes; debug builds (the whole test suite) check every
    /// access, and [`DancingLinks::sanity`] walks the links.
    #[inline(always)]
    pub(super) fn node(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link, hence in bounds (see above).
        unsafe { *self.nodes.get_unchecked(i as usize) }
    }

    /// The color mark of node `i` (0 when the problem has no colors).
    #[inline(always)]
    pub(super) fn color(&self, i: u32) -> i32 {
        self.colors.get(i as usize).copied().unwrap_or(0)
    }

    /// The node at index `i`, to change. Unchecked in release builds: see [`DancingLinks::node`].
    #[inline(always)]
    pub(super) fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link, hence in bounds (see `node`).
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    /// Removes `item` from the list of items to cover and hides every option in its list.
    pub(super) fn cover<const COLORS: bool, const TRACK: bool>(&mut self, item: u32) {
        let Links { prev, next } = self.link(item);
        self.link_mut(prev).next = next;
        self.link_mut(next).prev = prev;
        if TRACK {
            self.tree.cover(item);
        }
        let mut updates = 1;
        let mut p = self.node(item).down;
        while p != item {
            updates += self.hide::<COLORS, TRACK>(p);
            p = self.node(p).down;
        }
        self.stats.updates += updates;
    }

    /// The inverse of [`DancingLinks::cover`], walking upwards.
    pub(super) fn uncover<const COLORS: bool, const TRACK: bool>(&mut self, item: u32) {
        let mut p = self.node(item).up;
        while p != item {
            self.unhide::<COLORS, TRACK>(p);
            p = self.node(p).up;
        }
        let Links { prev, next } = self.link(item);
        self.link_mut(prev).next = item;
        self.link_mut(next).prev = item;
        if TRACK {
            self.tree.uncover(item);
        }
    }

    /// Takes the nodes of `p`'s option, other than `p`, out of their items' lists (purified
    /// nodes stay). Returns the number of nodes taken out.
    #[inline(always)]
    pub(super) fn hide<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) -> u64 {
        let mut updates = 0;
        let mut q = p + 1;
        while q != p {
            let Node { up, down, top } = self.node(q);
            if top <= 0 {
                q = up;
                continue;
            }
            if !COLORS || self.color(q) >= 0 {
                self.node_mut(up).down = down;
                self.node_mut(down).up = up;
                self.node_mut(top as u32).top -= 1;
                if TRACK {
                    self.tree.touch(top as u32);
                }
                updates += 1;
            }
            q += 1;
        }
        updates
    }

    /// The inverse of [`DancingLinks::hide`], walking leftwards.
    #[inline(always)]
    pub(super) fn unhide<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { up, down, top } = self.node(q);
            if top <= 0 {
                q = down;
                continue;
            }
            if !COLORS || self.color(q) >= 0 {
                self.node_mut(up).down = q;
                self.node_mut(down).up = q;
                self.node_mut(top as u32).top += 1;
                if TRACK {
                    self.tree.touch(top as u32);
                }
            }
            q -= 1;
        }
    }

    /// Covers (or purifies) the items of `p`'s option other than `p`'s own, left to right.
    pub(super) fn commit_others<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { up, top, .. } = self.node(q);
            if top <= 0 {
                q = up;
                continue;
            }
            let color = if COLORS { self.color(q) } else { 0 };
            if color == 0 {
                self.cover::<COLORS, TRACK>(top as u32);
            } else if color > 0 {
                self.purify::<TRACK>(q);
            }
            q += 1;
        }
    }

    /// The inverse of [`DancingLinks::commit_others`], right to left.
    pub(super) fn uncommit_others<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { down, top, .. } = self.node(q);
            if top <= 0 {
                q = down;
                continue;
            }
            let color = if COLORS { self.color(q) } else { 0 };
            if color == 0 {
                self.uncover::<COLORS, TRACK>(top as u32);
            } else if color > 0 {
                self.unpurify::<TRACK>(q);
            }
            q -= 1;
        }
    }

    /// Fixes the color of `p`'s item to `p`'s color: options with another color (or none) for
    /// the item are hidden, options with the same color are marked as compatible.
    pub(super) fn purify<const TRACK: bool>(&mut self, p: u32) {
        let (item, color) = (self.node(p).top as u32, self.color(p));
        let mut updates = 0;
        let mut q = self.node(item).down;
        while q != item {
            if self.color(q) == color {
                self.colors[q as usize] = -1;
            } else {
                updates += self.hide::<true, TRACK>(q);
            }
            q = self.node(q).down;
        }
        self.stats.updates += updates;
    }

    /// The inverse of [`DancingLinks::purify`], walking upwards.
    pub(super) fn unpurify<const TRACK: bool>(&mut self, p: u32) {
        let (item, color) = (self.node(p).top as u32, self.color(p));
        let mut q = self.node(item).up;
        while q != item {
            if self.color(q) < 0 {
                self.colors[q as usize] = color;
            } else {
                self.unhide::<true, TRACK>(q);
            }
            q = self.node(q).up;
        }
    }
}
