//! The instance files of the completion family's published sets (CSPLib problems 79 and 80,
//! after Gent, Jefferson and Nightingale, "Complexity of n-Queens Completion", JAIR 2017):
//!
//! - **Blocked n-Queens**, Essence parameter files as the ASP competitions used them:
//!   `letting n = 28` and `letting blocks = [[1,1], [1,2], …]`, the blocked squares 1-based
//!   `[row, column]`;
//! - **Excluded diagonals**: `n = 15`, `numdiags = 29` and `diags = [[14, 0], [6, 1], …]`, where
//!   `[d, 1]` excludes the sum diagonal row + column = d and `[d, 0]` the difference diagonal
//!   row − column = d − (n − 1), squares 0-based. The first k pairs form a valid instance for
//!   every k, so a reader takes the first [`Options::diagonals`] of them (all by default). An
//!   excluded diagonal is a line of blocked squares, so both kinds become a [`Problem`] with
//!   blocked squares.
//!
//! The grammar is the part of Essence these files use: assignments `[letting] NAME = VALUE`
//! (`be` for `=` too) of the names above, `n`, `blocks`, `diags` and `numdiags` (another name
//! is refused at its line and column, so that a misspelt `blocks` is not read as a board with
//! no blocked square), a VALUE a whole number or a bracketed list of values (a comma before
//! the closing bracket allowed), `$` starting a
//! comment to the end of the line, and a `language ESSENCE' 1.0` line skipped. Errors give the
//! 1-based line and column, as for the other formats. Cost: linear in the file.

use nqueens_support::{Position, excerpt, strip_bom};
use thiserror::Error;

use crate::board::{Problem, ProblemError, Queen};

/// A malformed instance file, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{position}: {message}")]
pub struct ParseError {
    /// Where.
    pub position: Position,
    /// What is wrong.
    pub message: String,
}

/// How to read an instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// For an excluded-diagonals file: take the first this many pairs (`None`: all).
    pub diagonals: Option<usize>,
}

/// The names an instance file may give; any other is refused where it stands.
const NAMES: [&str; 4] = ["n", "blocks", "diags", "numdiags"];

/// Whether `text` looks like an instance of this module rather than a partial-board file: its
/// first word (past comments and the `language` line) is a name followed by `=`, `be`, or
/// `letting`.
pub fn looks_like(text: &str) -> bool {
    let mut lexer = Lexer::new(strip_bom(text));
    match lexer.next() {
        Ok(Some(Token::Word(w, _))) if w == "letting" || w == "language" => true,
        Ok(Some(Token::Word(_, _))) => matches!(lexer.next(), Ok(Some(Token::Equals(_)))),
        _ => false,
    }
}

/// Reads an instance file (see the [module documentation](self)).
pub fn parse(text: &str, options: Options) -> Result<Problem, ParseError> {
    let mut lexer = Lexer::new(strip_bom(text));
    let values = assignments(&mut lexer)?;
    let get = |name: &str| values.iter().find(|(n, _, _)| n == name);
    let Some((_, n_at, n_value)) = get("n") else {
        return Err(ParseError {
            position: lexer.end(),
            message: "no board size: expected 'n = N' (or 'letting n = N')".into(),
        });
    };
    let n = match n_value {
        Value::Number(v, _) if *v >= 1 && *v <= i64::from(u32::MAX) => *v as u32,
        other => {
            return Err(ParseError {
                position: other.position(*n_at),
                message: "n must be a whole number ≥ 1".into(),
            });
        }
    };
    let mut blocked = Vec::new();
    let mut kinds = 0;
    if let Some((_, at, value)) = get("blocks") {
        kinds += 1;
        blocked = blocked_squares(value, *at, n)?;
    }
    if let Some((_, at, value)) = get("diags") {
        kinds += 1;
        let numdiags = get("numdiags").map(|(_, count_at, count)| (count, *count_at));
        exclude_diagonals(value, *at, numdiags, n, options.diagonals, &mut blocked)?;
    } else if options.diagonals.is_some() {
        // Said where the file shows what it is instead: its blocks, or its end.
        return Err(match get("blocks") {
            Some((_, at, _)) => ParseError {
                position: *at,
                message: "a number of diagonals was asked for, but this is a blocked n-Queens file (blocks, not diags)".into(),
            },
            None => ParseError {
                position: lexer.end(),
                message: "a number of diagonals was asked for, but the file has no diags".into(),
            },
        });
    }
    if kinds == 0 {
        return Err(ParseError {
            position: lexer.end(),
            message:
                "no instance: expected 'blocks' (blocked n-Queens) or 'diags' (excluded diagonals)"
                    .into(),
        });
    }
    Problem::with_blocks(n, [], blocked).map_err(|e| ParseError {
        position: *n_at,
        message: e.to_string(),
    })
}

/// The assignments of an instance file, `[letting] NAME = VALUE`, each name known and given
/// once, in the order they come.
fn assignments(lexer: &mut Lexer<'_>) -> Result<Vec<(String, Position, Value)>, ParseError> {
    let mut values: Vec<(String, Position, Value)> = Vec::new();
    while let Some(token) = lexer.next()? {
        let (name, at) = match token {
            Token::Word(w, _) if w == "language" => {
                lexer.skip_line();
                continue;
            }
            Token::Word(w, _) if w == "letting" => match lexer.next()? {
                Some(Token::Word(name, at)) => (name, at),
                other => return Err(unexpected(other, "a name after 'letting'", lexer)),
            },
            Token::Word(name, at) => (name, at),
            other => return Err(unexpected(Some(other), "a name, like n", lexer)),
        };
        if !NAMES.contains(&name.as_str()) {
            // A misspelt `blocks` must not leave an unblocked board.
            return Err(ParseError {
                position: at,
                message: format!(
                    "unknown name '{}': an instance gives n and blocks, or n, diags and numdiags",
                    excerpt(&name)
                ),
            });
        }
        match lexer.next()? {
            Some(Token::Equals(_)) => {}
            other => return Err(unexpected(other, &format!("'=' after {name}"), lexer)),
        }
        let value = lexer.value()?;
        if values.iter().any(|(seen, _, _)| *seen == name) {
            return Err(ParseError {
                position: at,
                message: format!("{name} is given twice"),
            });
        }
        values.push((name, at, value));
    }
    Ok(values)
}

/// The squares of a `blocks` list: 1-based `[row, column]` pairs, each on the n×n board.
fn blocked_squares(value: &Value, at: Position, n: u32) -> Result<Vec<Queen>, ParseError> {
    let mut blocked = Vec::new();
    for (pair, position) in pairs(value, at, "blocks")? {
        let square = |v: i64| u32::try_from(v - 1).ok();
        let (Some(row), Some(col)) = (square(pair[0]), square(pair[1])) else {
            return Err(ParseError {
                position,
                message: format!(
                    "[{}, {}] is not a square: blocks are 1-based [row, column]",
                    pair[0], pair[1]
                ),
            });
        };
        let square = Queen::new(row, col);
        if row >= n || col >= n {
            return Err(ParseError {
                position,
                message: ProblemError::BlockedOffBoard { square, n }.to_string(),
            });
        }
        blocked.push(square);
    }
    Ok(blocked)
}

/// Adds to `blocked` the squares of the first `diagonals` (all by default) pairs of a `diags`
/// list, each distinct diagonal once, after checking them against `numdiags` and the board,
/// and the memory they need against the machine's.
fn exclude_diagonals(
    value: &Value,
    at: Position,
    numdiags: Option<(&Value, Position)>,
    n: u32,
    diagonals: Option<usize>,
    blocked: &mut Vec<Queen>,
) -> Result<(), ParseError> {
    let all = pairs(value, at, "diags")?;
    if let Some((count, count_at)) = numdiags {
        if !matches!(count, Value::Number(c, _) if *c == all.len() as i64) {
            return Err(ParseError {
                position: count.position(count_at),
                message: format!(
                    "numdiags must be the number of pairs in diags, {}",
                    all.len()
                ),
            });
        }
    }
    let take = diagonals.unwrap_or(all.len());
    if take > all.len() {
        return Err(ParseError {
            position: at,
            message: format!("{take} diagonals asked for, but diags lists {}", all.len()),
        });
    }
    let last = 2 * i64::from(n) - 2;
    // A diagonal is up to n squares: each is expanded once, and only if the machine can
    // hold all of them (a board of 4·10⁹ rows, or one line repeated 300,000 times, must
    // be a clean refusal, not an abort).
    let mut unique = std::collections::HashSet::new();
    let mut squares = 0u64;
    for (pair, position) in &all[..take] {
        let [d, kind] = *pair;
        if !(0..=last).contains(&d) || !(0..=1).contains(&kind) {
            return Err(ParseError {
                position: *position,
                message: format!(
                    "[{d}, {kind}] is not a diagonal: expected [d, 1] (row + column = d) or [d, 0] (row − column = d − {}), d from 0 to {last}",
                    n - 1
                ),
            });
        }
        if unique.insert(*pair) {
            // Both kinds of line through square d of the first row and column have
            // n − |d − (n − 1)| squares.
            squares += u64::from(n) - (d - (i64::from(n) - 1)).unsigned_abs();
        }
    }
    // The squares, and the sorted copy the problem keeps.
    let bytes = squares.saturating_mul(2 * std::mem::size_of::<Queen>() as u64);
    if nqueens_support::memory_available().is_some_and(|available| bytes > available)
        || blocked.try_reserve(squares as usize).is_err()
    {
        return Err(ParseError {
            position: at,
            message: format!(
                "the excluded diagonals block {squares} squares of the {n}×{n} board: about {} MiB, more than could be allocated",
                bytes.div_ceil(1 << 20)
            ),
        });
    }
    let mut expanded = std::collections::HashSet::new();
    for (pair, _) in &all[..take] {
        let [d, kind] = *pair;
        if !expanded.insert(*pair) {
            continue;
        }
        for row in 0..i64::from(n) {
            let col = if kind == 1 {
                d - row
            } else {
                row - (d - (i64::from(n) - 1))
            };
            if (0..i64::from(n)).contains(&col) {
                blocked.push(Queen::new(row as u32, col as u32));
            }
        }
    }
    Ok(())
}

/// The `[a, b]` pairs of a list value, with their positions.
fn pairs(value: &Value, at: Position, name: &str) -> Result<Vec<([i64; 2], Position)>, ParseError> {
    let Value::List(items, _) = value else {
        return Err(ParseError {
            position: value.position(at),
            message: format!("{name} must be a list of pairs, like [[1, 2], [3, 4]]"),
        });
    };
    items
        .iter()
        .map(|item| match item {
            Value::List(pair, p) => match pair.as_slice() {
                [Value::Number(a, _), Value::Number(b, _)] => Ok(([*a, *b], *p)),
                _ => Err(ParseError {
                    position: *p,
                    message: format!("each entry of {name} must be a pair of whole numbers"),
                }),
            },
            other => Err(ParseError {
                position: other.position(at),
                message: format!("each entry of {name} must be a pair, like [1, 2]"),
            }),
        })
        .collect()
}

fn unexpected(token: Option<Token>, expected: &str, lexer: &Lexer<'_>) -> ParseError {
    match token {
        Some(token) => ParseError {
            position: token.position(),
            message: format!("expected {expected}, found {}", token.describe()),
        },
        None => ParseError {
            position: lexer.end(),
            message: format!("expected {expected}, found the end of the file"),
        },
    }
}

/// A value: a number or a list, with where it starts.
#[derive(Clone, Debug)]
enum Value {
    Number(i64, Position),
    List(Vec<Value>, Position),
}

impl Value {
    fn position(&self, _default: Position) -> Position {
        match self {
            Value::Number(_, p) | Value::List(_, p) => *p,
        }
    }
}

#[derive(Clone, Debug)]
enum Token {
    Word(String, Position),
    Number(i64, Position),
    Equals(Position),
    Open(Position),
    Close(Position),
    Comma(Position),
}

impl Token {
    fn position(&self) -> Position {
        match self {
            Token::Word(_, p)
            | Token::Number(_, p)
            | Token::Equals(p)
            | Token::Open(p)
            | Token::Close(p)
            | Token::Comma(p) => *p,
        }
    }

    fn describe(&self) -> String {
        match self {
            Token::Word(w, _) => format!("'{}'", excerpt(w)),
            Token::Number(v, _) => format!("the number {v}"),
            Token::Equals(_) => "'='".into(),
            Token::Open(_) => "'['".into(),
            Token::Close(_) => "']'".into(),
            Token::Comma(_) => "','".into(),
        }
    }
}

/// The deepest list nesting a value may have (the files need two).
const MAX_DEPTH: usize = 8;

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: u64,
    column: u64,
    /// A token read ahead by [`Lexer::value`].
    pending: Option<Token>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.char_indices().peekable(),
            line: 1,
            column: 1,
            pending: None,
        }
    }

    fn here(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn end(&self) -> Position {
        self.here()
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(&(_, c)) = self.chars.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn next(&mut self) -> Result<Option<Token>, ParseError> {
        if let Some(token) = self.pending.take() {
            return Ok(Some(token));
        }
        loop {
            let Some(&(_, c)) = self.chars.peek() else {
                return Ok(None);
            };
            let at = self.here();
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '$' => self.skip_line(),
                '=' => {
                    self.bump();
                    return Ok(Some(Token::Equals(at)));
                }
                '[' => {
                    self.bump();
                    return Ok(Some(Token::Open(at)));
                }
                ']' => {
                    self.bump();
                    return Ok(Some(Token::Close(at)));
                }
                ',' => {
                    self.bump();
                    return Ok(Some(Token::Comma(at)));
                }
                c if c == '-' || c.is_ascii_digit() => {
                    let mut text = String::new();
                    text.push(c);
                    self.bump();
                    while let Some(&(_, d)) = self.chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        text.push(d);
                        self.bump();
                    }
                    let value = text.parse::<i64>().map_err(|_| ParseError {
                        position: at,
                        message: format!("'{}' is not a whole number", excerpt(&text)),
                    })?;
                    return Ok(Some(Token::Number(value, at)));
                }
                c if c.is_alphabetic() || c == '_' => {
                    let mut word = String::new();
                    while let Some(&(_, d)) = self.chars.peek() {
                        if !(d.is_alphanumeric() || d == '_' || d == '\'') {
                            break;
                        }
                        word.push(d);
                        self.bump();
                    }
                    if word == "be" {
                        return Ok(Some(Token::Equals(at)));
                    }
                    return Ok(Some(Token::Word(word, at)));
                }
                other => {
                    return Err(ParseError {
                        position: at,
                        message: format!(
                            "'{}' has no place in an instance file",
                            excerpt(other.encode_utf8(&mut [0; 4]))
                        ),
                    });
                }
            }
        }
    }

    /// A value: a number, or `[` values separated by commas `]`.
    fn value(&mut self) -> Result<Value, ParseError> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.next()? {
            Some(Token::Number(v, at)) => Ok(Value::Number(v, at)),
            Some(Token::Open(at)) => {
                if depth == MAX_DEPTH {
                    return Err(ParseError {
                        position: at,
                        message: format!("lists nested deeper than {MAX_DEPTH}"),
                    });
                }
                let mut items = Vec::new();
                match self.next()? {
                    Some(Token::Close(_)) => return Ok(Value::List(items, at)),
                    token => self.pending = token,
                }
                loop {
                    items.push(self.value_at(depth + 1)?);
                    match self.next()? {
                        // A comma before the closing bracket is allowed (the ASP competition's
                        // files have one).
                        Some(Token::Comma(_)) => match self.next()? {
                            Some(Token::Close(_)) => return Ok(Value::List(items, at)),
                            token => self.pending = token,
                        },
                        Some(Token::Close(_)) => return Ok(Value::List(items, at)),
                        other => return Err(unexpected(other, "',' or ']'", self)),
                    }
                }
            }
            other => Err(unexpected(other, "a number or a list", self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::naive;

    const BLOCKED: &str =
        "language ESSENCE' 1.0\n$ a comment\nletting n = 4\nletting blocks = [[1,2],\n[4,3]]\n";
    const DIAGONALS: &str = "n =  5\nnumdiags =  3\ndiags =  [[4, 1], [6, 0], [0, 0]]\n";

    #[test]
    fn blocked_queens_param_files_read_1_based() {
        assert!(looks_like(BLOCKED));
        let p = parse(BLOCKED, Options::default()).unwrap();
        assert_eq!(p.n(), 4);
        assert_eq!(p.blocked(), [Queen::new(0, 1), Queen::new(3, 2)]);
        assert!(p.fixed().is_empty());
        // The same with `be` and no `letting`, all on one line.
        let q = parse("n be 4 blocks = [[1, 2], [4, 3],]", Options::default()).unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn excluded_diagonals_become_lines_of_blocked_squares_first_k_only() {
        assert!(looks_like(DIAGONALS));
        let all = parse(DIAGONALS, Options::default()).unwrap();
        // [4, 1]: r + c = 4 (5 squares); [6, 0]: r − c = 2 (3 squares, one of them 3:1 on the
        // first); [0, 0]: r − c = −4 (the corner 0:4, on the first too).
        assert_eq!(all.blocked().len(), 5 + 3 + 1 - 2);
        assert!(all.is_blocked(0, 4) && all.is_blocked(4, 0) && all.is_blocked(2, 0));
        assert!(all.blocked().iter().all(|q| q.row + q.col == 4
            || q.row as i64 - q.col as i64 == 2
            || q.row as i64 - q.col as i64 == -4));
        let first = parse(DIAGONALS, Options { diagonals: Some(1) }).unwrap();
        assert_eq!(first.blocked().len(), 5);
        // A line given again blocks nothing more, and costs nothing more.
        let repeated = format!("n = 5\ndiags = [{}[6, 0]]\n", "[4, 1], ".repeat(10_000));
        let twice = parse(&repeated, Options::default()).unwrap();
        assert_eq!(twice.blocked().len(), 5 + 3 - 1);
        let none = parse(DIAGONALS, Options { diagonals: Some(0) }).unwrap();
        assert_eq!(naive::count(&none), 10);
    }

    #[test]
    fn malformed_files_get_a_position() {
        let err = |text: &str, options: Options| parse(text, options).unwrap_err().to_string();
        assert_eq!(
            err(
                "letting n = 4\nletting blocks = [[1,2] [2,3]]\n",
                Options::default()
            ),
            "line 2, column 25: expected ',' or ']', found '['"
        );
        assert_eq!(
            err(
                "letting n = 4\nletting blocks = [[1,5]]\n",
                Options::default()
            ),
            "line 2, column 19: blocked square 1:5 is off the 4×4 board (rows and columns run from 1 to 4)"
        );
        assert_eq!(
            err("letting n = 4\nletting foo = 3\n", Options::default()),
            "line 2, column 9: unknown name 'foo': an instance gives n and blocks, or n, diags and numdiags"
        );
        assert_eq!(
            err("n = 4\n  block = [[1,2]]\n", Options::default()),
            "line 2, column 3: unknown name 'block': an instance gives n and blocks, or n, diags and numdiags"
        );
        assert_eq!(
            err("letting blocks = [[1,2]]\n", Options::default()),
            "line 2, column 1: no board size: expected 'n = N' (or 'letting n = N')"
        );
        assert_eq!(
            err(
                "n = 5\nnumdiags = 4\ndiags = [[4, 1]]\n",
                Options::default()
            ),
            "line 2, column 12: numdiags must be the number of pairs in diags, 1"
        );
        assert_eq!(
            err(DIAGONALS, Options { diagonals: Some(4) }),
            "line 3, column 1: 4 diagonals asked for, but diags lists 3"
        );
        assert_eq!(
            err("n = 5\ndiags = [[9, 1]]\n", Options::default()),
            "line 2, column 10: [9, 1] is not a diagonal: expected [d, 1] (row + column = d) or [d, 0] (row − column = d − 4), d from 0 to 8"
        );
        assert_eq!(
            err(BLOCKED, Options { diagonals: Some(1) }),
            "line 4, column 9: a number of diagonals was asked for, but this is a blocked n-Queens file (blocks, not diags)"
        );
        assert_eq!(
            err("n = 5\nn = 6\nblocks = []\n", Options::default()),
            "line 2, column 1: n is given twice"
        );
        assert_eq!(
            err("n = 5 ; blocks = []", Options::default()),
            "line 1, column 7: ';' has no place in an instance file"
        );
        assert_eq!(
            err("n = 0\nblocks = []", Options::default()),
            "line 1, column 5: n must be a whole number ≥ 1"
        );
        assert_eq!(
            err("n = 4\n", Options::default()),
            "line 2, column 1: no instance: expected 'blocks' (blocked n-Queens) or 'diags' (excluded diagonals)"
        );
        assert!(!looks_like("8\n1:3\n"));
        assert!(!looks_like("4\n. Q . .\n"));
    }

    /// Mangled files get an answer or a positioned error, never a panic (a fixed seed).
    #[test]
    fn fuzzed_files_get_an_answer_or_a_clean_error() {
        let mut rng = nqueens_support::SplitMix64::new(80);
        let alphabet = b"[],= 0123456789-$\nletingnbloksdia'";
        for case in 0..4000 {
            let base = if case % 2 == 0 { BLOCKED } else { DIAGONALS };
            let mut bytes = base.as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() as u32) as usize;
                bytes[at] = alphabet[rng.below(alphabet.len() as u32) as usize];
            }
            let text = String::from_utf8_lossy(&bytes);
            let diagonals = (rng.below(3) == 0).then(|| rng.below(5) as usize);
            if let Err(e) = parse(&text, Options { diagonals }) {
                assert!(e.position.line >= 1 && !e.message.is_empty(), "{text:?}");
            }
        }
        // Deep nesting is refused, not a stack overflow.
        let deep = format!("n = 4\nblocks = {}", "[".repeat(100_000));
        assert!(parse(&deep, Options::default()).is_err());
    }
}
