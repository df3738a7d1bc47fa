//! The reader's and the writer's unit tests.

use std::io;

use nqueens_support::{EXCERPT_CHARS, Position};

use super::*;
use crate::cnf::{ClauseSink, Cnf};
use crate::lit::Lit;

fn parse_err(text: &str) -> String {
    parse_dimacs(text).unwrap_err().to_string()
}

#[test]
fn integers_print_like_display() {
    for value in [0, 7, -7, 1234567890, i64::MIN, i64::MAX] {
        let mut buf = Vec::new();
        push_int(&mut buf, value);
        assert_eq!(String::from_utf8(buf).unwrap(), value.to_string());
    }
}

#[test]
fn clauses_may_span_and_share_lines() {
    let cnf = parse_dimacs("p cnf 4 3\n1 2\n -3 0 4 0\n\n0\n").unwrap();
    let clauses: Vec<Vec<i32>> = cnf
        .clauses()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    assert_eq!(clauses, vec![vec![1, 2, -3], vec![4], vec![]]);
}

#[test]
fn comments_blank_lines_and_the_satlib_end_marker() {
    let text = "c hello\n\np cnf 2 1\nc inside\n  1 -2 0\n%\n0\n\n";
    let cnf = parse_dimacs(text).unwrap();
    assert_eq!(cnf.len(), 1);
    assert_eq!(cnf.num_vars(), 2);
}

#[test]
fn every_malformation_names_its_position() {
    assert_eq!(parse_err(""), "no 'p cnf VARIABLES CLAUSES' header");
    assert_eq!(parse_err("c only\n"), "no 'p cnf VARIABLES CLAUSES' header");
    assert_eq!(
        parse_err("c x\n  1 2 0\np cnf 2 1\n"),
        "line 2, column 3: '1' before the 'p cnf VARIABLES CLAUSES' header"
    );
    assert_eq!(
        parse_err("p cnf 2\n"),
        "line 1, column 1: bad header 'p cnf 2'; expected 'p cnf VARIABLES CLAUSES' with \
         at most 2147483647 variables"
    );
    assert!(parse_err("p dnf 2 1\n").starts_with("line 1, column 1: bad header 'p dnf 2 1'"));
    assert!(parse_err("p cnf -2 1\n").starts_with("line 1, column 1: bad header"));
    assert!(parse_err("p cnf 2147483648 1\n").starts_with("line 1, column 1: bad header"));
    assert!(parse_dimacs("p cnf 2147483647 0\n").is_ok());
    assert_eq!(
        parse_err("p cnf 2 1\n p cnf 2 1\n"),
        "line 2, column 2: a second 'p' header"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n1 x 0\n"),
        "line 2, column 3: 'x' is not a literal"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n1 -2 0\n\n  -3 0\n"),
        "line 4, column 3: more clauses than the 1 the header declares"
    );
    assert_eq!(
        parse_err("p cnf 2 2\n1 -2 0\n"),
        "line 2, column 7: the input ends after 1 clauses; the header declares 2"
    );
    assert_eq!(
        parse_err("p cnf 2 2\n1 -2 0"),
        "line 2, column 7: the input ends after 1 clauses; the header declares 2"
    );
    assert_eq!(
        parse_err("p cnf 2 2\n1 0\n\n-2\n1\n"),
        "line 4, column 1: the clause starting here is missing its terminating 0"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n99999999999999999999999 0\n"),
        "line 2, column 1: literal 99999999999999999999999 is out of range; the header \
         declares 2 variables"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n1\t-3 0\n"),
        "line 2, column 3: literal -3 is out of range; the header declares 2 variables"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n1 0 %\n"),
        "line 2, column 5: '%' is not a literal"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n% 1\n"),
        "line 2, column 1: '%' is not a literal"
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    assert_eq!(
        parse_err("p cnf 2 1\nc é\né 0\n"),
        "line 3, column 1: 'é' is not a literal"
    );
    assert_eq!(
        parse_err("p cnf 2 1\n1 éé x 0\n"),
        "line 2, column 3: 'éé' is not a literal"
    );
    let error = parse_dimacs("p cnf 2 1\n1 2 ü 0\n").unwrap_err();
    assert_eq!(error.position(), Some(Position { line: 2, column: 5 }));
    assert_eq!(error.line(), Some(2));
}

#[test]
fn quotes_are_short_and_escaped() {
    assert_eq!(
        parse_err("p cnf 2 1\n1 \u{7}\u{1b}[31m 0\n"),
        "line 2, column 3: '\\u{7}\\u{1b}[31m' is not a literal"
    );
    assert_eq!(
        parse_err("p cnf 2 1\u{1b}]0;title\u{7}\n"),
        "line 1, column 1: bad header 'p cnf 2 1\\u{1b}]0;title\\u{7}'; expected 'p cnf \
         VARIABLES CLAUSES' with at most 2147483647 variables"
    );
    // A token of 1,000 characters is quoted as its first 200 and an ellipsis, whatever
    // the script.
    for c in ['y', 'é', '€', '𝄞'] {
        let long = format!("p cnf 1 1\n{} 0\n", c.to_string().repeat(1000));
        let quoted = format!("{}…", c.to_string().repeat(EXCERPT_CHARS));
        assert_eq!(
            parse_err(&long),
            format!("line 2, column 1: '{quoted}' is not a literal")
        );
    }
    let short = format!("p cnf 1 1\n{} 0\n", "y".repeat(EXCERPT_CHARS));
    assert!(!parse_err(&short).contains('…'));
    let header = format!("p cnf 1 1 {}\n1 0\n", "z".repeat(5000));
    let error = parse_err(&header);
    assert!(
        error.contains(&format!("'p cnf 1 1 {}…'", "z".repeat(190))),
        "{error}"
    );
    assert!(error.chars().count() < EXCERPT_CHARS + 150, "{error}");
    // Invalid UTF-8 is quoted lossily.
    let error = read_dimacs(&b"p cnf 1 1\n\xff\xfe 0\n"[..], &mut Cnf::new());
    assert_eq!(
        error.unwrap_err().to_string(),
        "line 2, column 1: '\u{fffd}\u{fffd}' is not a literal"
    );
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let cnf = parse_dimacs("\u{feff}p cnf 2 1\n1 -2 0\n").unwrap();
    assert_eq!(cnf.to_string(), "p cnf 2 1\n1 -2 0\n");
    let cnf = parse_dimacs("\u{feff}c made by an editor\np cnf 1 1\n1 0\n").unwrap();
    assert_eq!(cnf.len(), 1);
    // Not counted in columns; elsewhere it is not blank.
    assert_eq!(
        parse_err("\u{feff}1 0\n"),
        "line 1, column 1: '1' before the 'p cnf VARIABLES CLAUSES' header"
    );
    let mut cnf = Cnf::new();
    let partial = read_dimacs(&b"\xEF\xBBp cnf 1 1\n1 0\n"[..], &mut cnf).unwrap_err();
    assert_eq!(
        partial.to_string(),
        "line 1, column 1: '\u{fffd}' before the 'p cnf VARIABLES CLAUSES' header"
    );
    assert_eq!(
        parse_err("p cnf 1 1\n\u{feff}1 0\n"),
        "line 2, column 1: '\u{feff}1' is not a literal"
    );
}

#[test]
fn the_writer_checks_its_header() {
    let mut writer = DimacsWriter::new(
        Vec::new(),
        Header {
            vars: 2,
            clauses: 1,
        },
        &["hi"],
    );
    writer.add_clause(&[Lit::from_dimacs(-2).unwrap(), Lit::from_dimacs(1).unwrap()]);
    let out = writer.finish().unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "c hi\np cnf 2 1\n-2 1 0\n");

    let mut writer = DimacsWriter::new(
        Vec::new(),
        Header {
            vars: 2,
            clauses: 1,
        },
        &[],
    );
    writer.add_clause(&[Lit::from_dimacs(3).unwrap()]);
    assert_eq!(
        writer.finish().unwrap_err().to_string(),
        "the header declares 2 variables and 1 clauses, but the formula has 3 variables and \
         1 clauses"
    );
}

/// Reads `input` whole with a longest line of `max_line` bytes, through a buffer of
/// `capacity` bytes; the error, if any.
fn bounded(input: impl io::Read, max_line: u64, capacity: usize) -> Option<String> {
    let input = io::BufReader::with_capacity(capacity, input);
    let mut reader = match DimacsReader::with_max_line(input, max_line) {
        Ok(reader) => reader,
        Err(e) => return Some(e.to_string()),
    };
    loop {
        match reader.next_clause() {
            Ok(Some(_)) => {}
            Ok(None) => return None,
            Err(e) => return Some(e.to_string()),
        }
    }
}

#[test]
fn endless_inputs_end_at_the_line_or_clause_bound_however_buffered() {
    // Each would be read for ever without a bound: one endless token, run of blanks,
    // comment, header or clause (on one line, or over many lines, which only the clause
    // bound stops), and bytes that count as no character (UTF-8 continuation bytes).
    let endless: [(&[u8], &[u8], &str); 9] = [
        (b"", b"\0", "line 1 is longer than 100 bytes"),
        (b"", b" ", "line 1 is longer than 100 bytes"),
        (b"", b"\x80", "line 1 is longer than 100 bytes"),
        (b"c", b"x", "line 1 is longer than 100 bytes"),
        (b"p cnf 1 1", b" ", "line 1 is longer than 100 bytes"),
        (b"p cnf 1 1\n", b"7", "line 2 is longer than 100 bytes"),
        (b"p cnf 1 1\n", b"1 ", "line 2 is longer than 100 bytes"),
        (
            b"p cnf 1 1\nc ok\n",
            b"-1\n",
            "line 3, column 1: the clause starting here has more than 50 literals",
        ),
        (
            b"p cnf 1 9\n1 0\n%",
            b"\t",
            "line 3 is longer than 100 bytes",
        ),
    ];
    for (start, repeated, expected) in endless {
        for capacity in [1, 3, 64, 1 << 16] {
            let input = io::Read::chain(start, RepeatSlice(repeated, 0));
            let error = bounded(input, 100, capacity);
            assert!(
                error.as_deref().is_some_and(|e| e.starts_with(expected)),
                "{start:?} then {repeated:?} for ever, buffers of {capacity}: {error:?}"
            );
        }
    }
    // Right at the bounds is fine, and one more is not, whatever the buffer.
    let line = format!("p cnf 1 1\n{}0\n", "1 ".repeat(49));
    assert_eq!(line.lines().nth(1).unwrap().len(), 99);
    let over = format!("p cnf 1 1\n{}0\n", "1 ".repeat(51));
    for capacity in [1, 2, 7, 1 << 16] {
        assert_eq!(bounded(line.as_bytes(), 100, capacity), None);
        assert_eq!(
            bounded(over.as_bytes(), 100, capacity).as_deref(),
            Some("line 2 is longer than 100 bytes, more than a DIMACS line can need")
        );
    }
    let clause = format!("p cnf 1 1\n{}0\n", "1\n".repeat(50));
    let longer = format!("p cnf 1 1\n{}0\n", "1\n".repeat(51));
    for capacity in [1, 2, 7, 1 << 16] {
        assert_eq!(bounded(clause.as_bytes(), 100, capacity), None);
        assert_eq!(
            bounded(longer.as_bytes(), 100, capacity).as_deref(),
            Some("line 2, column 1: the clause starting here has more than 50 literals")
        );
    }
}

#[test]
fn dev_zero_is_refused_at_the_real_bound() {
    let error = read_dimacs(io::BufReader::new(io::repeat(0)), &mut Cnf::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1 is longer than 268435456 bytes, more than a DIMACS line can need"
    );
    assert_eq!(error.line(), Some(1));
}

/// `bytes` repeated for ever (the second field: where the next read starts in them).
struct RepeatSlice(&'static [u8], usize);

impl io::Read for RepeatSlice {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for byte in buf.iter_mut() {
            *byte = self.0[self.1];
            self.1 = (self.1 + 1) % self.0.len();
        }
        Ok(buf.len())
    }
}
