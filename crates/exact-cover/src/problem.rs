//! Exact cover problems: named items, colors and options, as a user states them.
//!
//! A [`Problem`] is built once with a [`Builder`] (or read from Knuth's text format, see
//! [`crate::format`]) and never changes; a [`crate::Solver`] turns it into dancing links.
//! Items, options and colors are named by `u32` newtypes that index the problem's tables in
//! the order they were added.

use std::collections::HashMap;
use std::fmt;

use crate::error::Error;

/// An item (a column of the matrix), by the order it was declared: primary and secondary items
/// share one numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct ItemId(pub u32);

/// An option (a row of the matrix), by the order it was added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct OptionId(pub u32);

/// A color a secondary item may carry in an option, by the order it was first named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct ColorId(pub u32);

impl ItemId {
    /// The index into [`Problem::items`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl OptionId {
    /// The index into the problem's options.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for OptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Whether an item must be covered exactly once or at most once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// Covered by exactly one option of every solution.
    Primary,
    /// Covered by at most one option, or by several options that give it the same color.
    Secondary,
}

/// An item's name and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The name, as in the text format.
    pub name: String,
    /// Primary or secondary.
    pub kind: ItemKind,
}

/// One item of an option, with the color the option gives it (secondary items only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item.
    pub item: ItemId,
    /// Its color in this option; `None` means the option takes the item for itself.
    pub color: Option<ColorId>,
}

impl From<ItemId> for Entry {
    fn from(item: ItemId) -> Self {
        Entry { item, color: None }
    }
}

impl From<(ItemId, ColorId)> for Entry {
    fn from((item, color): (ItemId, ColorId)) -> Self {
        Entry {
            item,
            color: Some(color),
        }
    }
}

/// An exact cover problem: find every set of options that covers each primary item exactly
/// once and each secondary item at most once, where options that give a secondary item the
/// same color may share it (Knuth's XCC, exact covering with colors).
///
/// ```
/// use nqueens_exact_cover::{Problem, Solver};
/// let mut b = Problem::builder();
/// let [a, c, d] = ["a", "c", "d"].map(|n| b.primary(n).unwrap());
/// b.option([a, d]).unwrap();
/// b.option([c]).unwrap();
/// b.option([a, c]).unwrap();
/// b.option([d]).unwrap();
/// let problem = b.build();
/// assert_eq!(Solver::new(&problem).count(), Ok(2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub(crate) items: Vec<Item>,
    pub(crate) colors: Vec<String>,
    /// The entries of every option, back to back.
    pub(crate) entries: Vec<Entry>,
    /// Option `k` is `entries[starts[k]..starts[k + 1]]`.
    pub(crate) starts: Vec<u32>,
    pub(crate) primary_count: usize,
}

impl Problem {
    /// An empty builder.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Every item, in declaration order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// One item.
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.index()]
    }

    /// The item with this name, if any. O(items).
    pub fn item_by_name(&self, name: &str) -> Option<ItemId> {
        self.items
            .iter()
            .position(|item| item.name == name)
            .map(|i| ItemId(i as u32))
    }

    /// How many items are primary.
    pub fn primary_count(&self) -> usize {
        self.primary_count
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The entries of one option, in the order they were given.
    pub fn option(&self, id: OptionId) -> &[Entry] {
        let k = id.index();
        &self.entries[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Every option id, in order.
    pub fn option_ids(&self) -> impl ExactSizeIterator<Item = OptionId> + use<> {
        (0..self.option_count() as u32).map(OptionId)
    }

    /// The total number of entries over all options (the ones of the 0/1 matrix).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// A color's name.
    pub fn color_name(&self, id: ColorId) -> &str {
        &self.colors[id.0 as usize]
    }

    /// Whether some option gives an item a color.
    pub fn has_colors(&self) -> bool {
        self.entries.iter().any(|e| e.color.is_some())
    }

    /// One option as a line of the text format: item names separated by spaces, `item:color`
    /// where the option gives a color.
    pub fn option_text(&self, id: OptionId) -> String {
        let mut line = String::new();
        for (i, entry) in self.option(id).iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&self.item(entry.item).name);
            if let Some(color) = entry.color {
                line.push(':');
                line.push_str(self.color_name(color));
            }
        }
        line
    }
}

/// Builds a [`Problem`]: declare items (and colors), then add options.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    items: Vec<Item>,
    item_index: HashMap<String, ItemId>,
    colors: Vec<String>,
    color_index: HashMap<String, ColorId>,
    entries: Vec<Entry>,
    starts: Vec<u32>,
    /// `seen[item]` is the number of the option being added that last used the item (plus
    /// one), to find repeats in O(1).
    seen: Vec<u32>,
}

/// Checks that a name can be written in the text format.
pub(crate) fn check_name(name: &str) -> Result<(), Error> {
    let reason = if name.is_empty() {
        "names must not be empty"
    } else if name.chars().any(char::is_whitespace) {
        "names must not contain spaces"
    } else if name.contains(':') || name.contains('|') {
        "names must not contain ':' or '|'"
    } else {
        return Ok(());
    };
    Err(Error::InvalidName {
        name: name.to_string(),
        reason,
    })
}

impl Builder {
    fn item(&mut self, name: &str, kind: ItemKind) -> Result<ItemId, Error> {
        check_name(name)?;
        if self.item_index.contains_key(name) {
            return Err(Error::DuplicateItem {
                name: name.to_string(),
            });
        }
        let index = u32::try_from(self.items.len())
            .ok()
            .filter(|&i| i < MAX_ITEMS)
            .ok_or(Error::TooLarge {
                what: "items",
                max: u64::from(MAX_ITEMS),
            })?;
        let id = ItemId(index);
        self.items.push(Item {
            name: name.to_string(),
            kind,
        });
        self.item_index.insert(name.to_string(), id);
        self.seen.push(0);
        Ok(id)
    }

    /// Declares a primary item (covered exactly once).
    pub fn primary(&mut self, name: &str) -> Result<ItemId, Error> {
        self.item(name, ItemKind::Primary)
    }

    /// Declares a secondary item (covered at most once, or shared under one color).
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, Error> {
        self.item(name, ItemKind::Secondary)
    }

    /// The item with this name, if declared.
    pub fn item_by_name(&self, name: &str) -> Option<ItemId> {
        self.item_index.get(name).copied()
    }

    /// The color with this name, created on first use.
    pub fn color(&mut self, name: &str) -> Result<ColorId, Error> {
        if let Some(&id) = self.color_index.get(name) {
            return Ok(id);
        }
        check_name(name)?;
        let id = ColorId(self.colors.len() as u32);
        self.colors.push(name.to_string());
        self.color_index.insert(name.to_string(), id);
        Ok(id)
    }

    /// Adds an option covering `entries` (items, or `(item, color)` pairs for colored secondary
    /// items). The option needs at least one primary item, no item twice, and colors on
    /// secondary items only.
    pub fn option<E: Into<Entry>>(
        &mut self,
        entries: impl IntoIterator<Item = E>,
    ) -> Result<OptionId, Error> {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let number = u32::try_from(self.starts.len())
            .ok()
            .filter(|&k| k <= MAX_OPTIONS)
            .ok_or(Error::TooLarge {
                what: "options",
                max: u64::from(MAX_OPTIONS),
            })?;
        let begin = self.entries.len();
        let result = self.push_entries(entries, number);
        if let Err(err) = result {
            self.entries.truncate(begin);
            // Forget the marks of the failed option so that the next option can use its items.
            for seen in &mut self.seen {
                if *seen == number {
                    *seen = 0;
                }
            }
            return Err(err);
        }
        if self.entries.len() > MAX_ENTRIES {
            self.entries.truncate(begin);
            return Err(Error::TooLarge {
                what: "nodes",
                max: MAX_ENTRIES as u64,
            });
        }
        self.starts.push(self.entries.len() as u32);
        Ok(OptionId(number - 1))
    }

    fn push_entries<E: Into<Entry>>(
        &mut self,
        entries: impl IntoIterator<Item = E>,
        number: u32,
    ) -> Result<(), Error> {
        let mut any = false;
        let mut primary = false;
        for entry in entries {
            let entry = entry.into();
            any = true;
            let item = self.items.get(entry.item.index()).ok_or(Error::BadId {
                what: "item",
                index: entry.item.0,
            })?;
            if let Some(color) = entry.color {
                if color.0 as usize >= self.colors.len() {
                    return Err(Error::BadId {
                        what: "color",
                        index: color.0,
                    });
                }
                if item.kind == ItemKind::Primary {
                    return Err(Error::ColorOnPrimary {
                        name: item.name.clone(),
                    });
                }
            }
            primary |= item.kind == ItemKind::Primary;
            let seen = &mut self.seen[entry.item.index()];
            if *seen == number {
                return Err(Error::RepeatedItem {
                    name: item.name.clone(),
                });
            }
            *seen = number;
            self.entries.push(entry);
        }
        if !any {
            return Err(Error::EmptyOption);
        }
        if !primary {
            return Err(Error::NoPrimaryItem);
        }
        Ok(())
    }

    /// The finished problem.
    pub fn build(mut self) -> Problem {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let primary_count = self
            .items
            .iter()
            .filter(|i| i.kind == ItemKind::Primary)
            .count();
        Problem {
            items: self.items,
            colors: self.colors,
            entries: self.entries,
            starts: self.starts,
            primary_count,
        }
    }
}

/// Items, options and nodes must fit the solver's 32-bit links (with room for headers and
/// spacers, and signed spacer marks).
const MAX_ITEMS: u32 = 1 << 28;
const MAX_OPTIONS: u32 = 1 << 28;
const MAX_ENTRIES: usize = 1 << 30;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_rejects_bad_options() {
        let mut b = Problem::builder();
        let a = b.primary("a").unwrap();
        let x = b.secondary("x").unwrap();
        let red = b.color("red").unwrap();
        assert!(matches!(b.primary("a"), Err(Error::DuplicateItem { .. })));
        assert!(matches!(b.primary("a b"), Err(Error::InvalidName { .. })));
        assert!(matches!(b.secondary("x:y"), Err(Error::InvalidName { .. })));
        assert!(matches!(
            b.option(Vec::<ItemId>::new()),
            Err(Error::EmptyOption)
        ));
        assert!(matches!(b.option([x]), Err(Error::NoPrimaryItem)));
        assert_eq!(
            b.option([a, a]).unwrap_err().to_string(),
            "item 'a' appears twice in the option"
        );
        assert!(matches!(
            b.option([Entry::from((a, red))]),
            Err(Error::ColorOnPrimary { .. })
        ));
        // Failed options leave no trace.
        let o = b.option([Entry::from(a), Entry::from((x, red))]).unwrap();
        assert_eq!(o, OptionId(0));
        let p = b.build();
        assert_eq!(p.option_count(), 1);
        assert_eq!(p.option_text(o), "a x:red");
        assert_eq!(p.primary_count(), 1);
    }
}
