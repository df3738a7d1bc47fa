//! Solves a DIMACS file and prints the answer (a model checked against the formula), the solver's counters and the time taken.
//!
//! `cargo run --release -p nqueens-sat --example solve_dimacs -- FILE [FLAGS]`
//!
//! Flags, for comparing settings on one build (the counters are deterministic):
//! `--conflicts N` (give up after N conflicts), `--time SECS`, `--no-target` (no target
//! phases), `--balanced` (a stable mode as long as the focused one before it, in
//! propagations: `Options::balanced_modes`), `--margin-percent N` (focused mode restarts when
//! recent LBDs exceed N % of the long-run average; default 125), `--bump-reasons` (bump the
//! variables of the learnt clause's reasons too: `Options::bump_reasons`), `--rephase N` (the first rephase interval; 0: never), `--no-walk` (rephase
//! without walks), `--walk-effort N` (clause visits per thousand propagations), `--no-shrink`
//! (learnt clauses minimised only), `--seed N` (a nonzero seed varies the first decisions: a
//! small random initial activity per variable), `--eliminate` (bounded variable elimination
//! before the search), `--rounds` (and again during the search, with a growing bound:
//! `--bound N` its cap, `--elim-interval N` the conflicts between rounds), `--substitute`
//! (equivalent-literal substitution first), `--probe` (failed-literal probing first),
//! `--congruence` (with `--substitute`: congruence closure on gates before each
//! substitution), `--vivify` (learnt-clause vivification after reductions), `--vivify-effort N`
//! (its propagations per thousand of the search's), `--delay N` (no pass before the first
//! restart after N conflicts), `--model` (print the model's `v` lines, as
//! `scripts/bench-sat-compare` reads them from a wrapper that drops the `sat` word). The
//! `nqueens sat` command has one switch for them, `--simplify` (every pass named here): these
//! settings are compared here, one by one.

use std::fs::File;
use std::io::BufReader;
use std::time::{Duration, Instant};

use nqueens_sat::{Cnf, Limits, Options, Outcome, Solver, read_dimacs};

const USAGE: &str = "usage: solve_dimacs FILE [--conflicts N] [--time SECS] [--no-target] [--balanced] \
     [--margin-percent N] [--bump-reasons] [--rephase N] \
     [--no-walk] [--walk-effort N] [--no-shrink] [--seed N] [--eliminate] [--rounds] \
     [--bound N] [--elim-interval N] [--factor] [--substitute] [--probe] [--congruence] [--vivify] \
     [--vivify-effort N] [--delay N] [--model]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or(USAGE)?;
    let mut options = Options::default();
    let mut limits = Limits::default();
    let mut print_model = false;
    while let Some(flag) = args.next() {
        let mut value = || -> Result<u64, Box<dyn std::error::Error>> {
            Ok(args.next().ok_or(USAGE)?.parse()?)
        };
        match flag.as_str() {
            "--conflicts" => limits.conflicts = Some(value()?),
            "--time" => limits.time = Some(Duration::from_secs(value()?)),
            "--no-target" => options.target_phases = false,
            "--balanced" => options.balanced_modes = true,
            "--bump-reasons" => options.bump_reasons = true,
            "--margin-percent" => {
                if let nqueens_sat::Restarts::Switching { margin, .. } = &mut options.restarts {
                    *margin = value()? as f64 / 100.0;
                }
            }
            "--no-shrink" => options.shrink = false,
            "--eliminate" => options.eliminate = true,
            "--factor" => (options.eliminate, options.factor) = (true, true),
            "--rounds" => (options.eliminate, options.eliminate_rounds) = (true, true),
            "--bound" => options.eliminate_bound = u32::try_from(value()?)?,
            "--elim-interval" => options.eliminate_interval = value()?,
            "--rephase" => options.rephase_interval = value()?,
            "--no-walk" => options.walk = false,
            "--walk-effort" => options.walk_effort = value()?,
            "--seed" => options.seed = value()?,
            "--substitute" => options.substitute = true,
            "--probe" => options.probe = true,
            "--congruence" => options.congruence = true,
            "--vivify" => options.vivify = true,
            "--vivify-effort" => options.vivify_effort = value()?,
            "--delay" => options.simplify_delay = value()?,
            "--model" => print_model = true,
            _ => return Err(USAGE.into()),
        }
    }
    let start = Instant::now();
    let mut solver = Solver::with_options(options);
    solver.set_limits(limits);
    let mut cnf = Cnf::new();
    read_dimacs(BufReader::new(File::open(&path)?), &mut cnf)?;
    cnf.add_to(&mut solver);
    let parsed = start.elapsed();
    let outcome = solver.solve();
    let total = start.elapsed();
    let answer = match &outcome {
        // The model is checked against the formula as read (outside the time taken).
        Outcome::Sat(model) if !cnf.is_satisfied_by(model) => {
            "WRONG (the model falsifies a clause)"
        }
        Outcome::Sat(_) => "SATISFIABLE",
        Outcome::Unsat => "UNSATISFIABLE",
        Outcome::Unknown(_) => "UNKNOWN",
    };
    println!("s {answer}");
    if let (true, Outcome::Sat(model)) = (print_model, &outcome) {
        let lits: Vec<String> = (0..model.len())
            .map(|v| {
                let v = v as i64 + 1;
                if model.values()[v as usize - 1] {
                    v
                } else {
                    -v
                }
                .to_string()
            })
            .collect();
        for chunk in lits.chunks(16) {
            println!("v {}", chunk.join(" "));
        }
        println!("v 0");
    }
    println!("c {}", solver.stats());
    println!(
        "c parse {:.3} s, total {:.3} s",
        parsed.as_secs_f64(),
        total.as_secs_f64()
    );
    Ok(())
}
