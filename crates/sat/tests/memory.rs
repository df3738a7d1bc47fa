//! What the crate allocates, measured by a counting allocator: a header's claims cost nothing,
//! a long line or token costs nothing beyond a bounded piece of it, and a big allocation that
//! fails is an error, not an abort.
//!
//! The allocator counts, per thread, the bytes live since [`measure`] began and their peak,
//! and refuses (returns null for) any allocation that would take the live bytes past the cap
//! `measure` sets, as an exhausted machine would. Each test measures on its own thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use nqueens_sat::{
    ClauseCounter, ClauseSink, Cnf, LimitReached, Limits, Lit, Options, Outcome, Solver, Var,
    parse_dimacs, read_dimacs,
};
use nqueens_support::SplitMix64;

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

#[test]
fn memory_the_system_refuses_is_an_error_not_an_abort() {
    // A clause naming variable 2^31 - 1 needs ~300 GB of per-variable arrays: refused by the
    // capped allocator as by a real machine, it must come back as an error.
    let text = "p cnf 2147483647 1\n2147483647 0\n";
    let (error, _) = measure(64 * MIB, || {
        let mut solver = Solver::new();
        let error = read_dimacs(text.as_bytes(), &mut solver).unwrap_err();
        assert_eq!(solver.num_vars(), 0);
        assert_eq!(
            solver.solve(),
            Outcome::Unknown(LimitReached::Memory),
            "a solver out of memory answers nothing"
        );
        // It stays out of memory and drops what it is given, without panicking.
        solver.add_clause(&[Lit::from_dimacs(1).unwrap()]);
        assert_eq!(solver.num_vars(), 0);
        assert!(solver.status().is_err());
        error.to_string()
    });
    let expected_mib = Solver::estimated_bytes(&ClauseCounter {
        vars: i32::MAX as u32,
        ..ClauseCounter::default()
    }) >> 20;
    assert!(error.starts_with("the solver needs about "), "{error}");
    let mib: u64 = error["the solver needs about ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(mib > 100_000 && mib <= expected_mib, "{mib} MiB, {error}");

    // The same through ensure_vars, reserve and enumerate.
    measure(64 * MIB, || {
        let mut solver = Solver::new();
        solver.ensure_vars(1_000_000_000);
        assert!(solver.status().is_err());
        let vars = [Var::from_index(0)];
        assert_eq!(
            solver.enumerate(&vars, |_| std::ops::ControlFlow::Continue(())),
            nqueens_sat::Enumeration::Unknown(nqueens_sat::Stopped::new(LimitReached::Memory, 0))
        );

        let mut solver = Solver::new();
        let size = ClauseCounter {
            vars: 1000,
            clauses: 100_000_000,
            lits: 300_000_000,
            binary: 0,
        };
        let error = solver.reserve(&size).unwrap_err().to_string();
        assert!(error.starts_with("the solver needs about "), "{error}");
    });
}

/// A formula of `vars` variables: `binary` random binary clauses and `long` random clauses of
/// 3 to 12 literals.
fn random_formula(vars: u32, binary: u32, long: u32, seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let mut cnf = Cnf::new();
    cnf.ensure_vars(vars);
    let lit = |rng: &mut SplitMix64| Lit::new(Var::from_index(rng.below(vars)), rng.below(2) == 1);
    for _ in 0..binary {
        let clause = [lit(&mut rng), lit(&mut rng)];
        cnf.add_clause(&clause);
    }
    for _ in 0..long {
        let size = 3 + rng.below(10);
        let clause: Vec<Lit> = (0..size).map(|_| lit(&mut rng)).collect();
        cnf.add_clause(&clause);
    }
    cnf
}

#[test]
fn the_estimate_is_close_to_what_a_solver_takes() {
    for (vars, binary, long) in [
        (200_000, 600_000, 0),
        (50_000, 0, 200_000),
        (100_000, 300_000, 100_000),
    ] {
        let cnf = random_formula(vars, binary, long, u64::from(vars));
        let mut size = ClauseCounter::default();
        cnf.add_to(&mut size);
        let estimate = Solver::estimated_bytes(&size) as isize;
        for reserve in [false, true] {
            let (_, peak) = measure(isize::MAX, || {
                let mut solver = Solver::new();
                if reserve {
                    solver.reserve(&size).unwrap();
                }
                cnf.add_to(&mut solver);
                solver.set_limits(Limits {
                    conflicts: Some(2000),
                    ..Limits::default()
                });
                let _ = solver.solve();
                assert!(solver.status().is_ok());
            });
            eprintln!(
                "{vars} vars, {binary} binary, {long} long, reserve {reserve}: estimate {estimate}, peak {peak} ({:.2})",
                estimate as f64 / peak as f64
            );
            assert!(
                peak <= estimate && estimate <= 3 * peak,
                "estimate {estimate} bytes, peak {peak}"
            );
        }
    }
}

/// Every simplification pass on (`Options::eliminate`, `substitute`, `probe`).
fn simplifying() -> Options {
    Options {
        eliminate: true,
        substitute: true,
        probe: true,
        ..Options::default()
    }
}

/// What the passes hold while they run is in the estimate for a solver that runs them.
#[test]
fn the_estimate_with_simplification_covers_its_passes() {
    let cnf = random_formula(100_000, 0, 60_000, 5);
    let mut size = ClauseCounter::default();
    cnf.add_to(&mut size);
    let estimate = Solver::estimated_bytes_with(&simplifying(), &size) as isize;
    let (eliminated, peak) = measure(isize::MAX, || {
        let mut solver = Solver::with_options(simplifying());
        cnf.add_to(&mut solver);
        solver.set_limits(Limits {
            conflicts: Some(2000),
            ..Limits::default()
        });
        let _ = solver.solve();
        assert!(solver.status().is_ok());
        *solver.stats()
    });
    eprintln!("simplifying: estimate {estimate}, peak {peak}, {eliminated}");
    let eliminated = eliminated.eliminated_vars;
    assert!(eliminated > 0);
    assert!(
        peak <= estimate && estimate <= 3 * peak,
        "estimate {estimate} bytes, peak {peak}"
    );
}

/// A memory cap the solver fits under but elimination's copy of the clauses does not: the
/// solve answers `Unknown(Memory)` (and the solver reports the error), never an abort; the
/// same with substitution and probing before it.
#[test]
fn simplification_past_a_memory_cap_is_out_of_memory_not_an_abort() {
    let cnf = random_formula(50_000, 0, 200_000, 3);
    let (_, plain) = measure(isize::MAX, || {
        let mut solver = Solver::new();
        cnf.add_to(&mut solver);
        solver.set_limits(Limits {
            conflicts: Some(1),
            ..Limits::default()
        });
        solver.solve()
    });
    for options in [
        Options {
            eliminate: true,
            ..Options::default()
        },
        simplifying(),
    ] {
        let (outcome, _) = measure(plain + MIB, || {
            let mut solver = Solver::with_options(options.clone());
            cnf.add_to(&mut solver);
            assert!(solver.status().is_ok(), "the formula itself fits");
            let outcome = solver.solve();
            assert!(solver.status().is_err());
            outcome
        });
        assert_eq!(
            outcome,
            Outcome::Unknown(LimitReached::Memory),
            "{options:?}"
        );
    }
}
