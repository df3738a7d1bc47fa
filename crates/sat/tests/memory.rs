//! What the crate allocates, measured by a counting allocator: a header's claims cost nothing,
//! a long line or token costs nothing beyond a bounded piece of it, and a big allocation that
//! fails is an error, not an abort.
//!
//! The allocator counts, per thread, the bytes live since [`measure`] began and their peak,
//! and refuses (returns null for) any allocation that would take the live bytes past the cap
//! `measure` sets, as an exhausted machine would. Each test measures on its own thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sat::{ClauseSink, Outcome, Solver, parse_dimacs, read_dimacs};

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static CAP: Cell<isize> = const { Cell::new(isize::MAX) };
}

/// Counts `grow` more bytes on this thread; false when that would pass the cap.
fn account(grow: isize) -> bool {
    let result = LIVE.try_with(|live| {
        let now = live.get() + grow;
        if grow > 0 && now > CAP.with(Cell::get) {
            return false;
        }
        live.set(now);
        PEAK.with(|peak| peak.set(peak.get().max(now)));
        true
    });
    result.unwrap_or(true)
}

// SAFETY: every call is passed on to the system allocator unchanged; the counting around it
// touches only const-initialised thread-locals (no allocation, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !account(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !account(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        account(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !account(new_size as isize - layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: as for `alloc`; `ptr` came from `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: isize = 1 << 20;

/// Runs `f` with allocations on this thread capped at `cap` bytes; returns its result and the
/// peak bytes it held.
fn measure<T>(cap: isize, f: impl FnOnce() -> T) -> (T, isize) {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    CAP.with(|c| c.set(cap));
    let result = f();
    CAP.with(|c| c.set(isize::MAX));
    (result, PEAK.with(Cell::get))
}

/// The 32-byte file that once made `nqueens sat` ask for 48 GB.
const BILLION_VARS: &str = "p cnf 1000000000 1\n1 -2 3 -4 0\n\n";

#[test]
fn a_header_claiming_a_billion_variables_costs_nothing() {
    assert_eq!(BILLION_VARS.len(), 32);
    let (outcome, peak) = measure(64 * MIB, || {
        let mut solver = Solver::new();
        read_dimacs(BILLION_VARS.as_bytes(), &mut solver).unwrap();
        assert_eq!(solver.num_vars(), 4, "only the variables the clause uses");
        solver.solve()
    });
    assert!(matches!(outcome, Outcome::Sat(_)), "{outcome:?}");
    assert!(peak < MIB, "peak {peak} bytes");

    // Through an in-memory formula, which keeps the declared count for writing it back.
    let (outcome, peak) = measure(64 * MIB, || {
        let cnf = parse_dimacs(BILLION_VARS).unwrap();
        assert_eq!(cnf.num_vars(), 1_000_000_000);
        assert!(cnf.to_string().starts_with("p cnf 1000000000 1\n"));
        let mut solver = Solver::new();
        cnf.add_to(&mut solver);
        solver.solve()
    });
    let Outcome::Sat(model) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(model.len(), 4);
    assert!(peak < MIB, "peak {peak} bytes");
}

#[test]
fn a_header_claiming_many_clauses_costs_nothing() {
    let text = "p cnf 3 9223372036854775807\n1 2 0\n";
    let (result, peak) = measure(64 * MIB, || parse_dimacs(text).map(|cnf| cnf.len()));
    assert_eq!(
        result.unwrap_err().to_string(),
        "line 2, column 6: the input ends after 1 clauses; the header declares 9223372036854775807"
    );
    assert!(peak < MIB, "peak {peak} bytes");
}

#[test]
fn long_lines_and_long_tokens_are_not_held_in_memory() {
    // A 16 MiB comment line, a 16 MiB run of blanks inside a clause, and a literal written
    // with 16 MiB of leading zeros: the reader keeps none of them whole.
    let big = 16 << 20;
    let mut text = String::from("c ");
    text.push_str(&"x".repeat(big));
    text.push_str("\np cnf 2 2\n1");
    text.push_str(&" ".repeat(big));
    text.push_str("-2 0\n");
    text.push_str(&"0".repeat(big));
    text.push_str("2 0\n");
    let (cnf, peak) = measure(64 * MIB, || parse_dimacs(&text).unwrap());
    assert_eq!(cnf.to_string(), "p cnf 2 2\n1 -2 0\n2 0\n");
    assert!(peak < MIB, "peak {peak} bytes");

    let junk = format!("p cnf 2 1\n1 {} 0\n", "y".repeat(big));
    let (error, peak) = measure(64 * MIB, || parse_dimacs(&junk).unwrap_err().to_string());
    assert!(error.starts_with("line 2, column 3: 'yyy"), "{error}");
    assert!(error.len() < 300, "{} bytes of message", error.len());
    assert!(peak < MIB, "peak {peak} bytes");
}
