//! Solving on the page: a method the page offers, found by name, run with one thread and a
//! node budget ([`SOLVE_NODES`]), asked for its `index`-th solution; the answer carries the
//! engine's work counters.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use nqueens_solver::{Engine, Job, Method, Outcome, Problem};
use serde_json::{Value, json};

use super::{METHODS, config};

fn method_named(name: &str) -> Result<Method, String> {
    let method: Method = name
        .parse()
        .map_err(|e: nqueens_solver::methods::UnknownMethod| {
            format!(
                "{e} (the page offers {})",
                METHODS
                    .iter()
                    .map(|m| m.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    if !METHODS.contains(&method) {
        return Err(format!("the page does not offer the method '{name}'"));
    }
    Ok(method)
}

/// The `index`-th solution: enumerating methods skip `index` solutions, local search takes
/// seed + `index`, the construction knows one solution only.
pub(super) fn solve(
    problem: &Problem,
    method: &str,
    seed: Option<u64>,
    index: u64,
) -> Result<Value, String> {
    let method = method_named(method)?;
    let (seed, skip) = match method {
        Method::Local => (Some(seed.unwrap_or(0).wrapping_add(index)), 0),
        Method::Construct if index > 0 => {
            return Err(
                "the construction knows one solution for each n; pick another method for the next"
                    .into(),
            );
        }
        _ => (seed, index),
    };
    let job = if skip == 0 { Job::Solve } else { Job::List };
    let mut engine = method
        .engine_for(job, problem, &config(seed))
        .map_err(|e| e.to_string())?;
    // A search a limit ended answers its reason, no outcome.
    let stopped = |e: nqueens_solver::EngineError| match e.stopped() {
        Some(stopped) => Ok(Err(stopped.reason)),
        None => Err(e.to_string()),
    };
    let outcome = if skip == 0 {
        match engine.solve(problem) {
            Ok(outcome) => Ok(outcome),
            Err(e) => stopped(e)?,
        }
    } else {
        let mut found = None;
        let mut seen = 0;
        let end = engine.for_each(problem, &mut |s| {
            if seen == skip {
                found = Some(s.clone());
                return ControlFlow::Break(());
            }
            seen += 1;
            ControlFlow::Continue(())
        });
        match (found, end) {
            (Some(solution), _) => Ok(Outcome::Found(solution)),
            (None, Err(e)) => stopped(e)?,
            (None, Ok(_)) => {
                return Ok(json!({
                    "method": method.name(),
                    "outcome": "none",
                    "message": format!("the board has only {seen} solutions"),
                    "stats": stats(engine.as_ref()),
                }));
            }
        }
    };
    let stats = stats(engine.as_ref());
    Ok(match outcome {
        Ok(Outcome::Found(solution)) => {
            if let Err(v) = nqueens_solver::verify(problem, &solution) {
                return Err(format!("{method} gave a wrong solution: {v}"));
            }
            json!({
                "method": method.name(),
                "outcome": "found",
                "columns": solution.columns().iter().map(|c| c + 1).collect::<Vec<_>>(),
                "stats": stats,
            })
        }
        Ok(Outcome::NoSolution) => json!({
            "method": method.name(),
            "outcome": "none",
            "message": "the board has no completion",
            "stats": stats,
        }),
        Err(reason) => json!({
            "method": method.name(),
            "outcome": "gave_up",
            "message": format!("{method} gave up: {reason}"),
            "stats": stats,
        }),
    })
}

fn stats(engine: &dyn Engine) -> BTreeMap<&'static str, u64> {
    engine
        .stats()
        .iter()
        .map(|(name, value)| (name, u64::try_from(value).unwrap_or(u64::MAX)))
        .collect()
}
