//! [`Shard`]: one part of a count split K ways, and the error of reading one. A module of its
//! own, below the shard files' reading and merging ([`super::shard`]) and the errors that name
//! a shard.

use std::fmt;
use std::str::FromStr;

use crate::engines::counter::tasks::TaskId;

/// One part of a count split K ways (`1/1` is the whole count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// The whole task list.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Part `index` of `count` (1-based), if `1 ≤ index ≤ count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (1..=count)
            .contains(&index)
            .then_some(Shard { index, count })
    }

    /// Which part, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// Into how many parts the count is split.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether task `id` belongs to this shard.
    pub fn contains(self, id: TaskId) -> bool {
        id.0 % self.count == self.index - 1
    }

    /// The number of tasks of a list of `len` this shard counts.
    pub fn len_of(self, len: usize) -> usize {
        let (index, count) = (self.index as usize, self.count as usize);
        len / count + usize::from(len % count >= index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The error of parsing a shard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard '{0}': expected I/K with 1 ≤ I ≤ K, such as 2/8")]
pub struct ShardSyntax(pub String);

impl FromStr for Shard {
    type Err = ShardSyntax;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (index, count) = s.split_once('/').ok_or_else(|| ShardSyntax(s.into()))?;
        let number = |t: &str| {
            // Digits only: no sign, no spaces.
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            t.parse::<u32>().ok()
        };
        number(index)
            .zip(number(count))
            .and_then(|(i, k)| Shard::new(i, k))
            .ok_or_else(|| ShardSyntax(s.into()))
    }
}
