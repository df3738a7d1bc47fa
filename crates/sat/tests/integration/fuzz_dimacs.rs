//! The DIMACS reader against mutated inputs: no input makes it panic or hang, every error is
//! one short line with a position inside the input, the answer does not depend on how the input
//! is buffered, and every input it accepts writes back to a formula that reads the same.
//!
//! The suite runs [`SUITE_CASES`] cases from a fixed seed. The longer run is ignored by
//! default; it was run once with
//!
//! ```text
//! SAT_FUZZ_CASES=200000 cargo test -p nqueens-sat --profile checked --test integration fuzz_dimacs:: -- --ignored
//! ```
//!
//! (on 2026-11-23, a 2-core machine loaded by other builds) and found no panic, no abort and no
//! hang: 200,000 cases in 8.0 s, 11,097 accepted (solved, and written back identically), the
//! rest refused with one-line messages, and every answer the same through buffers of 1, 2, 3
//! and 7 bytes.

use std::io::BufReader;
use std::panic;

use nqueens_sat::{Cnf, Limits, Outcome, Solver, read_dimacs, write_dimacs};
use nqueens_support::SplitMix64;

/// Cases in the suite's run.
const SUITE_CASES: u64 = 3000;

/// Well-formed inputs to mutate: comments, clauses across lines, the SATLIB end marker, CRLF,
/// a byte-order mark, empty clauses, tabs.
const SEEDS: &[&str] = &[
    "p cnf 3 2\n1 -3 0\n2 3 -1 0\n",
    "c a comment\np cnf 5 4\n1 2\n -3 0 4 0\n\n-5 1 0 0\n",
    "c SATLIB\np cnf 4 3\n 1 -2 0\n2 3 -4 0\n-1 0\n%\n0\n\n",
    "p cnf 2 3\r\n1 2 0\r\n-1 2 0\r\n-2 0\r\n",
    "\u{feff}p cnf 3 1\n1\t2\t3 0\n",
    "p cnf 0 1\n0\n",
    "c é ü\np  cnf  6  5\n1 -2 0 3 -4 0 5 -6 0\n-1 -3 -5 0 2 4 6 0\n",
];

/// Bytes worth inserting: the format's own, blanks, controls, non-ASCII, a BOM's first byte.
const INTERESTING: &[u8] = b" \t\r\n0123456789-%pcnf\x00\x1b\x7f\xef\xbb\xbf\xff\xc3";

fn mutate(rng: &mut SplitMix64, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        let len = bytes.len() as u32;
        let at = |rng: &mut SplitMix64| rng.below(len + 1) as usize;
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len) as usize;
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => {
                let b = INTERESTING[rng.below(INTERESTING.len() as u32) as usize];
                bytes.insert(at(rng), b);
            }
            2 if len > 0 => {
                bytes.remove(rng.below(len) as usize);
            }
            3 => bytes.truncate(at(rng)),
            4 => {
                // A big or extreme number.
                let numbers: [&[u8]; 6] = [
                    b"2147483647",
                    b"-2147483648",
                    b"99999999999999999999999",
                    b"9223372036854775807",
                    b"00000000000000000000001",
                    b"4294967296",
                ];
                let number = numbers[rng.below(6) as usize];
                let i = at(rng);
                bytes.splice(i..i, number.iter().copied());
            }
            5 if len > 0 => {
                // Repeat a piece (long lines, many clauses).
                let i = rng.below(len) as usize;
                let j = (i + 1 + rng.below(16) as usize).min(bytes.len());
                let piece = bytes[i..j].to_vec();
                for _ in 0..1 + rng.below(64) {
                    bytes.splice(i..i, piece.iter().copied());
                }
            }
            6 => {
                let headers: [&[u8]; 4] = [
                    b"p cnf 2147483647 3\n",
                    b"p cnf 3 18446744073709551615\n",
                    b"p cnf 1000000000 1\n",
                    b"p cnf\n",
                ];
                let header = headers[rng.below(4) as usize];
                let i = at(rng);
                bytes.splice(i..i, header.iter().copied());
            }
            7 if len > 1 => {
                let (i, j) = (rng.below(len) as usize, rng.below(len) as usize);
                bytes.swap(i, j);
            }
            _ => {
                let b = rng.below(256) as u8;
                bytes.insert(at(rng), b);
            }
        }
    }
    bytes
}

/// What one input did.
enum Verdict {
    Accepted,
    Refused,
}

/// Reads `input`; checks the error's form, or the accepted formula's round trip and solves it
/// (with a conflict limit: the point is that nothing panics or aborts, not the answer).
fn check(input: &[u8]) -> Verdict {
    let lines = input.split(|&b| b == b'\n').count() as u64;
    let mut cnf = Cnf::new();
    let result = read_dimacs(input, &mut cnf);
    // The same input through buffers of 1 to 7 bytes, so tokens, line breaks and the
    // byte-order mark are split across reads: the same answer.
    for capacity in [1, 2, 3, 7] {
        let mut chunked = Cnf::new();
        let again = read_dimacs(BufReader::with_capacity(capacity, input), &mut chunked);
        match (&result, &again) {
            (Ok(a), Ok(b)) => assert!(a == b && chunked == cnf, "buffers of {capacity}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "buffers of {capacity}"),
            _ => panic!("buffers of {capacity}: {result:?} but {again:?}"),
        }
    }
    match result {
        Err(error) => {
            let message = error.to_string();
            assert!(!message.contains('\n'), "two lines: {message:?}");
            // At most 200 characters of input, each escaped to at most 6 (`\u{9f}`).
            assert!(
                message.chars().count() < 6 * 200 + 200,
                "too long: {message:?}"
            );
            assert!(
                !message.chars().any(|c| c.is_control()),
                "a control character: {message:?}"
            );
            if let Some(position) = error.position() {
                assert!(
                    (1..=lines).contains(&position.line) && position.column >= 1,
                    "{position} outside the input's {lines} lines: {message}"
                );
            }
            Verdict::Refused
        }
        Ok(header) => {
            assert_eq!(cnf.len() as u64, header.clauses);
            let mut written = Vec::new();
            write_dimacs(&mut written, &cnf).unwrap();
            let again = nqueens_sat::parse_dimacs(std::str::from_utf8(&written).unwrap()).unwrap();
            assert_eq!(again, cnf, "the written formula reads differently");

            let mut solver = Solver::new();
            solver.set_limits(solver_limits());
            let mut direct = Solver::new();
            direct.set_limits(solver_limits());
            read_dimacs(input, &mut direct).unwrap();
            cnf.add_to(&mut solver);
            for solver in [&mut solver, &mut direct] {
                if let Outcome::Sat(model) = solver.solve() {
                    assert!(cnf.is_satisfied_by(&model));
                }
            }
            Verdict::Accepted
        }
    }
}

fn solver_limits() -> Limits {
    Limits {
        conflicts: Some(1000),
        ..Limits::default()
    }
}

/// Runs `cases` mutated inputs from `seed`; returns how many were accepted.
fn run(seed: u64, cases: u64) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut accepted = 0;
    for case in 0..cases {
        let base = SEEDS[rng.below(SEEDS.len() as u32) as usize];
        let input = mutate(&mut rng, base.as_bytes());
        let result = panic::catch_unwind(|| check(&input));
        match result {
            Ok(Verdict::Accepted) => accepted += 1,
            Ok(Verdict::Refused) => {}
            Err(_) => panic!(
                "case {case} (seed {seed}) failed on {:?}",
                String::from_utf8_lossy(&input)
            ),
        }
    }
    accepted
}

#[test]
fn mutated_inputs_never_panic_and_errors_are_one_line() {
    let accepted = run(0x5EED_D1AC, SUITE_CASES);
    // The mutations must exercise both paths.
    assert!(
        accepted > SUITE_CASES / 50 && accepted < SUITE_CASES / 2,
        "{accepted} of {SUITE_CASES} accepted"
    );
}

/// A mutated input without its line breaks, repeated for ever: the reader must end, with an
/// error (a line or clause too long, or whatever the text first breaks), never read on. This
/// is what `nqueens sat /dev/zero` did before lines were bounded.
#[test]
fn endless_mutated_inputs_end_in_an_error() {
    let mut rng = SplitMix64::new(0xE4D1_E550);
    for case in 0..6 {
        let base = SEEDS[rng.below(SEEDS.len() as u32) as usize];
        let mut piece = mutate(&mut rng, base.as_bytes());
        piece.retain(|&b| b != b'\n');
        if piece.is_empty() {
            piece.push(0);
        }
        let endless = piece.into_iter().cycle();
        let input = BufReader::new(Endless(endless));
        let result = read_dimacs(input, &mut Cnf::new());
        assert!(result.is_err(), "case {case}: accepted an endless input");
    }
    // The devices and endless pipes themselves.
    for byte in [0, b' ', b'7', 0x80] {
        let error = read_dimacs(
            BufReader::new(Endless(std::iter::repeat(byte))),
            &mut Cnf::new(),
        )
        .unwrap_err();
        assert_eq!(error.line(), Some(1), "{byte}: {error}");
    }
}

/// A reader of an endless iterator of bytes.
struct Endless<I>(I);

impl<I: Iterator<Item = u8>> std::io::Read for Endless<I> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for byte in buf.iter_mut() {
            *byte = self.0.next().unwrap_or(0);
        }
        Ok(buf.len())
    }
}

/// The long run: `SAT_FUZZ_CASES` cases (100,000 by default). See the module documentation.
#[test]
#[ignore = "long: run with --ignored"]
fn mutated_inputs_long_run() {
    let cases = std::env::var("SAT_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let start = std::time::Instant::now();
    let accepted = run(0xF022_2026, cases);
    eprintln!(
        "{cases} cases, {accepted} accepted, {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
