//! Knuth's text format for exact cover problems (the `.dlx` files of his DLX programs).
//!
//! ```text
//! | Lines whose first non-blank character is '|' are comments; blank lines are ignored.
//! A B C D E | F G      <- the item line: primary items, '|', secondary items
//! C E F                <- then one option per line: the items it covers
//! A D G:red            <- ITEM:COLOR gives a secondary item a color (XCC, as in DLX2)
//! ```
//!
//! Names are any non-blank characters except `:` and `|` (Knuth's programs also limit them to
//! eight characters; this reader does not). When every item is primary, the `|` may be left
//! out. Every error names the 1-based line and column of the offending token.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::error::Error;
use crate::problem::{ColorId, Entry, ItemKind, Problem, check_name};

/// The whitespace-separated tokens of a line, each with its 1-based column in characters.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut column = 0usize;
    let mut rest = line;
    std::iter::from_fn(move || {
        let skipped = rest.len() - rest.trim_start().len();
        column += rest[..skipped].chars().count();
        rest = &rest[skipped..];
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        let at = column + 1;
        column += token.chars().count();
        rest = &rest[end..];
        Some((at, token))
    })
}

/// Whether a line carries no data: blank, or a comment.
fn is_comment(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.is_empty() || trimmed.starts_with('|')
}

fn at(line: usize, column: usize, reason: Error) -> Error {
    Error::Parse {
        line,
        column,
        reason: Box::new(reason),
    }
}

impl Problem {
    /// Reads a problem in Knuth's format (see the [module documentation](crate::format)).
    ///
    /// ```
    /// use exact_cover::Problem;
    /// let p = Problem::parse("| a comment\nx y | z\nx z:red\ny z:red\n").unwrap();
    /// assert_eq!(p.primary_count(), 2);
    /// assert_eq!(p.option_count(), 2);
    /// let err = Problem::parse("x | y\ny\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2, column 1: the option has no primary item, so it could never be chosen");
    /// ```
    pub fn parse(text: &str) -> Result<Problem, Error> {
        let mut builder = Problem::builder();
        let mut kinds: Vec<ItemKind> = Vec::new();
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (number, item_line) = lines
            .by_ref()
            .find(|(_, l)| !is_comment(l))
            .ok_or(Error::NoItemLine)?;
        let mut kind = ItemKind::Primary;
        for (column, token) in tokens(item_line) {
            let (column, name) = match token.strip_prefix('|') {
                Some(rest) => {
                    if kind == ItemKind::Secondary {
                        return Err(at(number, column, Error::SecondBar));
                    }
                    kind = ItemKind::Secondary;
                    (column + 1, rest)
                }
                None => (column, token),
            };
            if name.is_empty() {
                continue;
            }
            let declared = match kind {
                ItemKind::Primary => builder.primary(name),
                ItemKind::Secondary => builder.secondary(name),
            };
            declared.map_err(|e| at(number, column, e))?;
            kinds.push(kind);
        }

        let mut colors: HashMap<&str, ColorId> = HashMap::new();
        let mut entries: Vec<Entry> = Vec::new();
        // `used[item]` is the line that last used the item, to find repeats.
        let mut used = vec![0usize; kinds.len()];
        for (number, line) in lines {
            if is_comment(line) {
                continue;
            }
            entries.clear();
            let mut primary = false;
            let mut first_column = 0;
            for (column, token) in tokens(line) {
                if first_column == 0 {
                    first_column = column;
                }
                let (name, color) = match token.split_once(':') {
                    None => (token, None),
                    Some((name, color)) => {
                        let reason = if name.is_empty() {
                            Some("the item name is missing")
                        } else if color.is_empty() {
                            Some("the color is missing after ':'")
                        } else if color.contains(':') {
                            Some("a color must not contain ':'")
                        } else {
                            None
                        };
                        if let Some(reason) = reason {
                            let token = token.to_string();
                            return Err(at(number, column, Error::BadColor { token, reason }));
                        }
                        (name, Some(color))
                    }
                };
                let item = builder.item_by_name(name).ok_or_else(|| {
                    at(
                        number,
                        column,
                        Error::UnknownItem {
                            name: name.to_string(),
                        },
                    )
                })?;
                let kind = kinds[item.index()];
                if std::mem::replace(&mut used[item.index()], number) == number {
                    let name = name.to_string();
                    return Err(at(number, column, Error::RepeatedItem { name }));
                }
                let color = match color {
                    None => None,
                    Some(_) if kind == ItemKind::Primary => {
                        let name = name.to_string();
                        return Err(at(number, column, Error::ColorOnPrimary { name }));
                    }
                    Some(color) => Some(match colors.get(color) {
                        Some(&id) => id,
                        None => {
                            let id = builder.color(color).map_err(|e| {
                                let column = column + name.chars().count() + 1;
                                at(number, column, e)
                            })?;
                            colors.insert(color, id);
                            id
                        }
                    }),
                };
                primary |= kind == ItemKind::Primary;
                entries.push(Entry { item, color });
            }
            if !primary {
                return Err(at(number, first_column, Error::NoPrimaryItem));
            }
            builder
                .option(entries.iter().copied())
                .map_err(|e| at(number, first_column, e))?;
        }
        Ok(builder.build())
    }

    /// Writes the problem in Knuth's format, after `comment` (one `| ` line per line of it).
    /// Primary items come first on the item line, then `|` and the secondary items (the `|` is
    /// left out when there are none).
    pub fn write_knuth(&self, comment: Option<&str>, out: &mut impl Write) -> io::Result<()> {
        if let Some(comment) = comment {
            for line in comment.lines() {
                writeln!(out, "| {line}")?;
            }
        }
        let names = |kind| {
            self.items
                .iter()
                .filter(move |i| i.kind == kind)
                .map(|i| i.name.as_str())
        };
        let primary: Vec<&str> = names(ItemKind::Primary).collect();
        let secondary: Vec<&str> = names(ItemKind::Secondary).collect();
        write!(out, "{}", primary.join(" "))?;
        if !secondary.is_empty() {
            write!(out, " | {}", secondary.join(" "))?;
        }
        writeln!(out)?;
        for option in self.option_ids() {
            writeln!(out, "{}", self.option_text(option))?;
        }
        Ok(())
    }

    /// The problem in Knuth's format, as a string.
    ///
    /// ```
    /// use exact_cover::Problem;
    /// let text = "a b | x\na x:1\nb x:1\n";
    /// assert_eq!(Problem::parse(text).unwrap().to_knuth(), text);
    /// ```
    pub fn to_knuth(&self) -> String {
        let mut out = Vec::new();
        self.write_knuth(None, &mut out)
            .expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("names are UTF-8")
    }
}

/// Checks a name for the text format (for callers that build names themselves).
pub fn validate_name(name: &str) -> Result<(), Error> {
    check_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Problem::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn tokens_know_their_columns() {
        let t: Vec<_> = tokens("  ab\tc  déf g").collect();
        assert_eq!(t, [(3, "ab"), (6, "c"), (9, "déf"), (13, "g")]);
    }

    #[test]
    fn errors_have_positions() {
        assert_eq!(
            err(""),
            "no item line: the first line that is not a comment must list the primary items, then '|', then the secondary items"
        );
        assert_eq!(err("| only\n\n"), err(""));
        assert_eq!(
            err("a | b | c"),
            "line 1, column 7: '|' appears twice in the item line"
        );
        assert_eq!(err("a a"), "line 1, column 3: item 'a' is declared twice");
        assert_eq!(
            err("a b:c"),
            "line 1, column 3: 'b:c' cannot be a name: names must not contain ':' or '|'"
        );
        assert_eq!(err("a b\n| c\na  x"), "line 3, column 4: unknown item 'x'");
        assert_eq!(
            err("a b\nb a b"),
            "line 2, column 5: item 'b' appears twice in the option"
        );
        assert_eq!(
            err("a | x\na x:"),
            "line 2, column 3: 'x:' is not ITEM or ITEM:COLOR: the color is missing after ':'"
        );
        assert_eq!(
            err("a | x\na :r"),
            "line 2, column 3: ':r' is not ITEM or ITEM:COLOR: the item name is missing"
        );
        assert_eq!(
            err("a | x\na x:r:s"),
            "line 2, column 3: 'x:r:s' is not ITEM or ITEM:COLOR: a color must not contain ':'"
        );
        assert_eq!(
            err("a | x\na:r x"),
            "line 2, column 1: primary item 'a' cannot have a color (only secondary items do)"
        );
        assert_eq!(
            err("a | x\na x:r|s"),
            "line 2, column 5: 'r|s' cannot be a name: names must not contain ':' or '|'"
        );
    }

    #[test]
    fn bar_may_touch_a_name() {
        let p = Problem::parse("a |b c\na b\n").unwrap();
        assert_eq!(p.primary_count(), 1);
        assert_eq!(p.to_knuth(), "a | b c\na b\n");
        let all_primary = Problem::parse("a b\na\nb\n").unwrap();
        assert_eq!(all_primary.to_knuth(), "a b\na\nb\n");
    }

    #[test]
    fn comments_are_written_as_bar_lines() {
        let p = Problem::parse("a\na\n").unwrap();
        let mut out = Vec::new();
        p.write_knuth(Some("two\nlines"), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "| two\n| lines\na\na\n");
    }
}
