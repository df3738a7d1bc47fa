//! The crate's error type.

use nqueens_support::{Position, excerpt};
use thiserror::Error;

/// Everything that can go wrong while building, reading or solving an exact cover problem.
///
/// Parse errors wrap the underlying reason in [`Error::Parse`] with the 1-based line and column
/// of the offending token, so every message is one line. Names and tokens from the input are
/// quoted through [`nqueens_support::excerpt`] (at most 200 characters, control characters
/// escaped), so a hostile file can neither flood the terminal nor send it escape sequences:
///
/// ```
/// let err = nqueens_exact_cover::Problem::parse("a b\na c\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 3: unknown item 'c'");
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// An item or color name is empty or holds a character the text format reserves.
    #[error("'{}' cannot be a name: {reason}", excerpt(.name))]
    InvalidName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Two items have the same name.
    #[error("item '{}' is declared twice", excerpt(.name))]
    DuplicateItem {
        /// The repeated name.
        name: String,
    },
    /// An option names an item that was never declared.
    #[error("unknown item '{}'", excerpt(.name))]
    UnknownItem {
        /// The name given.
        name: String,
    },
    /// An [`crate::ItemId`], [`crate::OptionId`] or [`crate::ColorId`] from another problem.
    #[error("{what} {index} does not belong to this problem")]
    BadId {
        /// "item", "option" or "color".
        what: &'static str,
        /// The index it holds.
        index: u32,
    },
    /// An option with no item at all.
    #[error("an option must list at least one item")]
    EmptyOption,
    /// An option made only of secondary items: Algorithm X branches on primary items, so it
    /// could never be chosen (Knuth's programs drop such options with a warning).
    #[error("the option has no primary item, so it could never be chosen")]
    NoPrimaryItem,
    /// The same item twice in one option.
    #[error("item '{}' appears twice in the option", excerpt(.name))]
    RepeatedItem {
        /// The repeated item.
        name: String,
    },
    /// A color on a primary item (only secondary items have colors).
    #[error("primary item '{}' cannot have a color (only secondary items do)", excerpt(.name))]
    ColorOnPrimary {
        /// The item.
        name: String,
    },
    /// A malformed `item:color` token.
    #[error("'{}' is not ITEM or ITEM:COLOR: {reason}", excerpt(.token))]
    BadColor {
        /// The token as written.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The input has no line naming the items.
    #[error(
        "no item line: the first line that is not a comment must list the primary items, then '|', then the secondary items"
    )]
    NoItemLine,
    /// The item line holds `|` more than once.
    #[error("'|' appears twice in the item line")]
    SecondBar,
    /// The problem is too large for 32-bit node indices, or the input for the reader.
    #[error("the problem is too large: more than {max} {what}")]
    TooLarge {
        /// "items", "options", "nodes" or "bytes of input".
        what: &'static str,
        /// The limit.
        max: u64,
    },
    /// A preselected option clashes with an earlier one.
    #[error("option {option} cannot be selected: item '{}' is already covered", excerpt(.item))]
    Conflict {
        /// The option (0-based, in the order options were added).
        option: u32,
        /// An item it shares with an option selected before.
        item: String,
    },
    /// The bit engine was asked for a problem it does not take.
    #[error("the bit engine does not take this problem: {reason}")]
    DoesNotFit {
        /// Why: too many primary items, or tables too large.
        reason: String,
    },
    /// Options can only be preselected before the search starts.
    #[error("options can only be preselected before the search starts")]
    SearchStarted,
    /// A line longer than the reader accepts ([`crate::format::MAX_LINE_BYTES`]).
    #[error("the line is longer than {max} bytes")]
    LineTooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// Input that is not UTF-8 text.
    #[error("the text is not UTF-8")]
    NotUtf8,
    /// A parse error, with the position (1-based line, column in characters) of the offending
    /// token.
    #[error("{at}: {reason}")]
    Parse {
        /// Where.
        at: Position,
        /// What is wrong there.
        reason: Box<Error>,
    },
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
