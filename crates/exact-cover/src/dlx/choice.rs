//! The MRV choice: the uncovered primary item with the fewest options, by one pass over the
//! items (O(items) per search node, as DLX1) or by a tournament tree updated as lengths change
//! (O(log items) per item touched); both pick the same item, so only the time differs.

use super::{DancingLinks, Links, Node, ROOT};

/// The primary items ordered by (options left, tie-break order), for the MRV choice on large
/// problems: a tournament tree (a binary heap laid out as a complete tree, every inner node the
/// least key of its two children) over one leaf per primary item, updated lazily. The leaves
/// lie in the tie-break order (declaration order, or a seed's), so a key is the item's length
/// above its leaf's index.
///
/// The search *touches* an item whenever its length changes or it is covered or uncovered:
/// O(1), a flag and a push onto `pending` the first time since the last choice. Choosing first
/// brings every pending leaf up to date, O(log items) each (less when a parent's key does not
/// change), and then reads the root. A search node that changes `t` items' lengths thus costs
/// O(t log items) for the choice, against O(items) for a scan.
#[derive(Clone, Debug, Default)]
pub(super) struct ItemTree {
    /// `keys[1]` is the root, `keys[size..2 * size]` the leaves; `keys[0]` is unused.
    keys: Vec<u64>,
    /// The number of leaves, a power of two.
    size: usize,
    /// By header: the item's leaf, or `NO_LEAF` for a secondary item.
    leaf: Vec<u32>,
    /// By leaf (less `size`): the item's header.
    header: Vec<u32>,
    /// By header: already in `pending` (always true for secondary items, so they never are).
    dirty: Vec<bool>,
    /// By header: the item is covered (its key is `COVERED`).
    covered: Vec<bool>,
    /// Items whose leaves are out of date.
    pending: Vec<u32>,
}

const NO_LEAF: u32 = u32::MAX;
/// The key of a covered item: above every uncovered one.
const COVERED: u64 = u64::MAX;

impl ItemTree {
    /// The tree over the items marked `primary`, whose leaves lie in declaration order, or
    /// in the order of `ranks` (by header, see [`DancingLinks::ranks`]).
    pub(super) fn new(primary: &[bool], ranks: &[u32]) -> Self {
        let count = primary.iter().filter(|&&p| p).count();
        let size = count.next_power_of_two();
        let mut leaf = vec![NO_LEAF; primary.len() + 1];
        let mut header = vec![ROOT; count];
        let primaries = primary.iter().enumerate().filter(|(_, p)| **p);
        for (place, (i, _)) in primaries.enumerate() {
            let rank = ranks.get(i + 1).map_or(place, |&rank| rank as usize);
            leaf[i + 1] = (size + rank) as u32;
            header[rank] = i as u32 + 1;
        }
        ItemTree {
            keys: vec![COVERED; 2 * size],
            size,
            leaf,
            header,
            dirty: vec![true; primary.len() + 1],
            covered: vec![true; primary.len() + 1],
            pending: Vec::new(),
        }
    }

    /// The key of an item of length `len` at leaf `leaf`: fewer options first, then the item
    /// first in the tie-break order.
    pub(super) fn key(len: i32, leaf: u32) -> u64 {
        (u64::from(len as u32) << 32) | u64::from(leaf)
    }

    /// Rebuilds every key from the links: the uncovered primary items are the root list.
    pub(super) fn rebuild(&mut self, nodes: &[Node], links: &[Links]) {
        self.pending.clear();
        for (h, &leaf) in self.leaf.iter().enumerate() {
            let primary = leaf != NO_LEAF;
            self.dirty[h] = !primary;
            self.covered[h] = true;
            if primary {
                self.keys[leaf as usize] = COVERED;
            }
        }
        let mut k = links[ROOT as usize].next;
        while k != ROOT {
            self.covered[k as usize] = false;
            let leaf = self.leaf[k as usize];
            self.keys[leaf as usize] = Self::key(nodes[k as usize].top, leaf);
            k = links[k as usize].next;
        }
        for i in (1..self.size).rev() {
            self.keys[i] = self.keys[2 * i].min(self.keys[2 * i + 1]);
        }
    }

    /// Notes that item `h`'s key may have changed.
    #[inline(always)]
    pub(super) fn touch(&mut self, h: u32) {
        let dirty = &mut self.dirty[h as usize];
        if !*dirty {
            *dirty = true;
            self.pending.push(h);
        }
    }

    pub(super) fn cover(&mut self, h: u32) {
        self.covered[h as usize] = true;
        self.touch(h);
    }

    pub(super) fn uncover(&mut self, h: u32) {
        self.covered[h as usize] = false;
        self.touch(h);
    }

    /// Brings the pending leaves up to date and returns the item with the least key (the root
    /// when every primary item is covered).
    pub(super) fn least(&mut self, nodes: &[Node]) -> u32 {
        while let Some(h) = self.pending.pop() {
            self.dirty[h as usize] = false;
            let leaf = self.leaf[h as usize];
            let key = if self.covered[h as usize] {
                COVERED
            } else {
                Self::key(nodes[h as usize].top, leaf)
            };
            let mut i = leaf as usize;
            self.keys[i] = key;
            while i > 1 {
                i /= 2;
                let least = self.keys[2 * i].min(self.keys[2 * i + 1]);
                if self.keys[i] == least {
                    break;
                }
                self.keys[i] = least;
            }
        }
        match self.keys[1] {
            COVERED => ROOT,
            key => self.header[key as u32 as usize - self.size],
        }
    }
}

/// How the solver finds the item with the fewest options at each search node. Every choice
/// picks the same item (ties to the item declared first, or with a seed to the first in the
/// seed's order), so node counts and the order of the solutions do not depend on it; only the
/// time does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ItemChoice {
    /// [`ItemChoice::Tree`] for problems with at least [`ItemChoice::TREE_FROM`] primary items
    /// whose covers change few items' lengths, [`ItemChoice::Scan`] for the others: where the
    /// mean cover changes `t` lengths (an option of `k` items in an item's list changes `k - 1`
    /// of them when hidden), the tree's O(t log items) a node must cost less than the scan's
    /// O(items). One-option items (t = 0) take the tree; N-Queens, whose covers change nearly
    /// every item's length, keeps the scan at every size.
    #[default]
    Auto,
    /// One pass over the uncovered primary items per search node, as Knuth's DLX1 does: the
    /// fastest for small problems, where the pass is short and the updates carry no extra work.
    Scan,
    /// A tournament tree over the primary items, updated as lengths change: O(log items) per
    /// item whose length changed, instead of O(items) per node, with or without a seed.
    Tree,
}

impl ItemChoice {
    /// The number of primary items from which [`ItemChoice::Auto`] uses the tree.
    pub const TREE_FROM: usize = 1024;
}

impl DancingLinks {
    /// Chooses how the search finds the item with the fewest options (see [`ItemChoice`]). A
    /// search in progress starts over.
    pub(crate) fn set_item_choice(&mut self, choice: ItemChoice) {
        self.restart();
        let primary = self.primary.iter().filter(|&&p| p).count();
        let per_cover = self.length_changes / self.primary.len().max(1) as u64;
        let log_items = u64::from(usize::BITS - primary.leading_zeros());
        self.tracking = match choice {
            ItemChoice::Auto => {
                primary >= ItemChoice::TREE_FROM && per_cover * log_items < primary as u64
            }
            ItemChoice::Scan => false,
            ItemChoice::Tree => true,
        };
        if self.tracking && self.tree.leaf.is_empty() {
            self.tree = ItemTree::new(&self.primary, &self.ranks);
        }
    }

    /// Whether the search finds its items with the tree (see [`ItemChoice`]).
    pub(crate) fn uses_item_tree(&self) -> bool {
        self.tracking
    }

    /// [`DancingLinks::choose_item`] by the tree: the same item, in O(log items) per item touched
    /// since the last choice. Debug builds check it against the scan now and then.
    pub(super) fn choose_from_tree(&mut self) -> u32 {
        let item = self.tree.least(&self.nodes);
        debug_assert!(
            !self.stats.nodes.is_power_of_two() || item == self.choose_item(),
            "the item tree disagrees with the scan"
        );
        item
    }

    /// The uncovered primary item with the fewest options, by one pass over them; ties go to
    /// the first in the list (the item declared first), or with a seed to the first in the
    /// seed's order.
    pub(super) fn choose_item(&self) -> u32 {
        let mut best = ROOT;
        let mut fewest = i32::MAX;
        let mut k = self.link(ROOT).next;
        if self.ranks.is_empty() {
            while k != ROOT {
                let len = self.node(k).top;
                if len < fewest {
                    best = k;
                    fewest = len;
                    if len == 0 {
                        break;
                    }
                }
                k = self.link(k).next;
            }
        } else {
            let mut least = u64::MAX;
            while k != ROOT {
                let key =
                    (u64::from(self.node(k).top as u32) << 32) | u64::from(self.ranks[k as usize]);
                if key < least {
                    best = k;
                    least = key;
                }
                k = self.link(k).next;
            }
        }
        best
    }
}
