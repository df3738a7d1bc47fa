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
//! out. A UTF-8 byte-order mark at the start is skipped. Every error names the 1-based line and
//! column (in characters) of the offending token, and quotes input only through
//! [`nqueens_support::excerpt`]: at most 200 characters, control characters escaped.
//!
//! [`Problem::read`] reads from a stream and bounds what it takes: a line of at most
//! [`MAX_LINE_BYTES`] (room for a million items with long names on the item line), and at
//! most [`MAX_INPUT_BYTES`] in all, so an endless or enormous input (a device, a pipe from a
//! runaway program) ends in an error, not in memory exhaustion. The problem built is a
//! constant factor of the bytes read.

use std::io::{self, BufRead, Read, Write};

use nqueens_support::{Position, strip_bom, strip_bom_bytes};

use crate::error::Error;
use crate::problem::{Builder, Entry, ItemKind, Problem, check_name};

/// The longest line [`Problem::read`] accepts, in bytes.
pub const MAX_LINE_BYTES: usize = 1 << 24;

/// The most bytes [`Problem::read`] reads in all: 64 MiB. A problem takes up to about 40 bytes
/// of memory per byte of its text once a solver is built for it (measured on one-item options,
/// `a` lines: 1.3 GB for 32 MiB), so this keeps every input below about 3 GB, while the
/// largest N-Queens problem the `dlx` method takes, `xc-export 1000`, is 21 MB.
pub const MAX_INPUT_BYTES: u64 = 1 << 26;

/// The whitespace-separated tokens of a line, each with its 1-based column in characters.
fn tokens(line: &str) -> impl Iterator<Item = (u64, &str)> {
    let mut column = 0u64;
    let mut rest = line;
    std::iter::from_fn(move || {
        let skipped = rest.len() - rest.trim_start().len();
        column += rest[..skipped].chars().count() as u64;
        rest = &rest[skipped..];
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        let at = column + 1;
        column += token.chars().count() as u64;
        rest = &rest[end..];
        Some((at, token))
    })
}

/// Whether a line carries no data: blank, or a comment.
fn is_comment(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.is_empty() || trimmed.starts_with('|')
}

fn at(line: u64, column: u64, reason: Error) -> Error {
    Error::Parse {
        at: Position { line, column },
        reason: Box::new(reason),
    }
}

/// The reader's state between lines: the problem so far.
#[derive(Default)]
struct Parser {
    builder: Builder,
    /// By item: primary or secondary. Empty until the item line is read.
    kinds: Vec<ItemKind>,
    item_line_read: bool,
    /// `used[item]` is the line that last used the item, to find repeats.
    used: Vec<u64>,
    /// The entries of the option being read.
    entries: Vec<Entry>,
}

impl Parser {
    /// Reads line `number` (1-based), without its line break.
    fn line(&mut self, number: u64, line: &str) -> Result<(), Error> {
        if is_comment(line) {
            Ok(())
        } else if self.item_line_read {
            self.option_line(number, line)
        } else {
            self.item_line_read = true;
            self.item_line(number, line)
        }
    }

    fn item_line(&mut self, number: u64, line: &str) -> Result<(), Error> {
        let mut kind = ItemKind::Primary;
        for (column, token) in tokens(line) {
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
                ItemKind::Primary => self.builder.primary(name),
                ItemKind::Secondary => self.builder.secondary(name),
            };
            declared.map_err(|e| at(number, column, e))?;
            self.kinds.push(kind);
        }
        self.used = vec![0; self.kinds.len()];
        Ok(())
    }

    fn option_line(&mut self, number: u64, line: &str) -> Result<(), Error> {
        self.entries.clear();
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
            let item = self.builder.item_by_name(name).ok_or_else(|| {
                at(
                    number,
                    column,
                    Error::UnknownItem {
                        name: name.to_string(),
                    },
                )
            })?;
            let kind = self.kinds[item.index()];
            if std::mem::replace(&mut self.used[item.index()], number) == number {
                let name = name.to_string();
                return Err(at(number, column, Error::RepeatedItem { name }));
            }
            let color = match color {
                None => None,
                Some(_) if kind == ItemKind::Primary => {
                    let name = name.to_string();
                    return Err(at(number, column, Error::ColorOnPrimary { name }));
                }
                Some(color) => Some(self.builder.color(color).map_err(|e| {
                    let column = column + name.chars().count() as u64 + 1;
                    at(number, column, e)
                })?),
            };
            primary |= kind == ItemKind::Primary;
            self.entries.push(Entry { item, color });
        }
        if !primary {
            return Err(at(number, first_column, Error::NoPrimaryItem));
        }
        self.builder
            .option(self.entries.iter().copied())
            .map_err(|e| at(number, first_column, e))?;
        Ok(())
    }

    fn finish(self) -> Result<Problem, Error> {
        if !self.item_line_read {
            return Err(Error::NoItemLine);
        }
        Ok(self.builder.build())
    }
}

impl Problem {
    /// Reads a problem in Knuth's format (see the [module documentation](crate::format)).
    ///
    /// ```
    /// use nqueens_exact_cover::Problem;
    /// let p = Problem::parse("| a comment\nx y | z\nx z:red\ny z:red\n").unwrap();
    /// assert_eq!(p.primary_count(), 2);
    /// assert_eq!(p.option_count(), 2);
    /// let err = Problem::parse("x | y\ny\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2, column 1: the option has no primary item, so it could never be chosen");
    /// ```
    pub fn parse(text: &str) -> Result<Problem, Error> {
        let mut parser = Parser::default();
        for (number, line) in strip_bom(text).lines().enumerate() {
            parser.line(number as u64 + 1, line)?;
        }
        parser.finish()
    }

    /// Reads a problem in Knuth's format from a stream, line by line, taking at most
    /// [`MAX_LINE_BYTES`] per line and [`MAX_INPUT_BYTES`] in all; text that is not UTF-8 is
    /// an error at the line and column where it stops being so.
    ///
    /// ```
    /// use nqueens_exact_cover::Problem;
    /// let p = Problem::read("\u{feff}a b\r\na\r\nb\r\n".as_bytes()).unwrap();
    /// assert_eq!(p.option_count(), 2);
    /// let err = Problem::read(&b"a b\na \xff\n"[..]).unwrap_err();
    /// assert_eq!(err.to_string(), "line 2, column 3: the text is not UTF-8");
    /// ```
    pub fn read(input: impl Read) -> Result<Problem, Error> {
        Self::read_bounded(input, MAX_LINE_BYTES, MAX_INPUT_BYTES)
    }

    pub(crate) fn read_bounded(
        input: impl Read,
        max_line: usize,
        max_total: u64,
    ) -> Result<Problem, Error> {
        let mut input = io::BufReader::new(input.take(max_total.saturating_add(1)));
        let mut parser = Parser::default();
        let mut buffer = Vec::new();
        let mut total = 0u64;
        for number in 1u64.. {
            buffer.clear();
            let limit = max_line as u64 + 2; // the line, "\r\n"
            let read = (&mut input).take(limit).read_until(b'\n', &mut buffer)?;
            if read == 0 {
                break;
            }
            total += read as u64;
            if total > max_total {
                return Err(Error::TooLarge {
                    what: "bytes of input",
                    max: max_total,
                });
            }
            let mut line = &buffer[..];
            if number == 1 {
                line = strip_bom_bytes(line);
            }
            let ended = line.last() == Some(&b'\n');
            line = line.strip_suffix(b"\n").unwrap_or(line);
            line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > max_line || (!ended && read as u64 == limit) {
                let column = max_line as u64 + 1;
                return Err(at(number, column, Error::LineTooLong { max: max_line }));
            }
            let text = std::str::from_utf8(line).map_err(|e| {
                let valid = std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or_default();
                at(number, valid.chars().count() as u64 + 1, Error::NotUtf8)
            })?;
            parser.line(number, text)?;
        }
        parser.finish()
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
        // A first name that starts with U+FEFF would read back as a byte-order mark.
        let first = primary.first().or(secondary.first());
        if comment.is_none() && first.is_some_and(|name| name.starts_with('\u{feff}')) {
            write!(out, " ")?;
        }
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
    /// use nqueens_exact_cover::Problem;
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
    fn a_byte_order_mark_is_skipped() {
        let p = Problem::parse("\u{feff}a b\na\nb\n").unwrap();
        assert_eq!(p.item(p.item_by_name("a").unwrap()).name, "a");
        assert_eq!(p.to_knuth(), "a b\na\nb\n");
        // Columns on the first line do not count it.
        assert_eq!(
            err("\u{feff}a a"),
            "line 1, column 3: item 'a' is declared twice"
        );
        assert_eq!(
            Problem::read("\u{feff}a\na\n".as_bytes())
                .unwrap()
                .option_count(),
            1
        );
        // Only at the start: elsewhere it is part of a name.
        assert_eq!(
            err("a\n\u{feff}a"),
            "line 2, column 1: unknown item '\u{feff}a'"
        );
        // A name that starts with one survives a round trip.
        let p = Problem::parse("\u{feff}\u{feff}a\n\u{feff}a\n").unwrap();
        assert_eq!(p.items()[0].name, "\u{feff}a");
        assert_eq!(Problem::parse(&p.to_knuth()).unwrap(), p);
    }

    #[test]
    fn quoted_input_is_short_and_harmless() {
        // An escape sequence that would retitle a terminal, in an unknown item's name.
        let message = err("a\na \u{1b}]0;pwned\u{7}");
        assert_eq!(
            message,
            "line 2, column 3: unknown item '\\u{1b}]0;pwned\\u{7}'"
        );
        assert!(!message.chars().any(char::is_control));
        // A name of a million characters is quoted in 200.
        let long = "x".repeat(1_000_000);
        let message = err(&format!("a\na {long}\n"));
        assert!(
            message.chars().count() < 300,
            "{} characters",
            message.len()
        );
        assert!(
            message.starts_with("line 2, column 3: unknown item 'xxx") && message.ends_with("…'")
        );
        let message = err(&format!("a {long} a\n"));
        assert!(message.chars().count() < 300);
        let message = err(&format!("a | x\na x:\u{1b}[2J:{long}\n"));
        assert!(
            message.chars().count() < 300 && !message.contains('\u{1b}'),
            "{message:.80}"
        );
    }

    #[test]
    fn positions_count_characters_and_lines_from_one() {
        let Error::Parse { at, .. } = Problem::parse("éé ü\n| c\nü   éé  q").unwrap_err()
        else {
            panic!("a parse error")
        };
        assert_eq!(at, Position { line: 3, column: 9 });
    }

    #[test]
    fn reading_is_bounded() {
        // An endless line (a device full of zeros, say) stops at the line limit.
        let endless = io::repeat(b'a');
        assert_eq!(
            Problem::read_bounded(endless, 1000, 1 << 20)
                .unwrap_err()
                .to_string(),
            "line 1, column 1001: the line is longer than 1000 bytes"
        );
        // Endless lines stop at the total limit.
        let lines = b"a\n".iter().copied().cycle();
        let endless = io::Cursor::new(lines.take(10_000_000).collect::<Vec<u8>>());
        assert_eq!(
            Problem::read_bounded(endless, 1000, 1 << 20)
                .unwrap_err()
                .to_string(),
            "the problem is too large: more than 1048576 bytes of input"
        );
        // Right at the limits is fine.
        let text = "a\na\r\n";
        assert!(Problem::read_bounded(text.as_bytes(), 1, 5).is_ok());
        assert!(Problem::read_bounded(text.as_bytes(), 1, 4).is_err());
        assert!(Problem::read_bounded("ab\r\nab\n".as_bytes(), 2, 100).is_ok());
        assert!(Problem::read_bounded("ab\r\nab\n".as_bytes(), 1, 100).is_err());
        assert!(Problem::read_bounded("ab\r\nab".as_bytes(), 2, 100).is_ok());
        assert_eq!(
            Problem::read("a b\r\na b\n".as_bytes())
                .unwrap()
                .option_count(),
            1
        );
        // The bytes that stop being UTF-8 are located.
        assert_eq!(
            Problem::read(&b"a b\n| ok\n\xc3\xa9 \xc3"[..])
                .unwrap_err()
                .to_string(),
            "line 3, column 3: the text is not UTF-8"
        );
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
