//! The pictures the page shows: the gallery of every solution of a small board grouped by
//! symmetry class (one backtracking enumeration, O(solutions · n)), and a board as SVG, drawn
//! by the library's renderer when complete and square by square (O(n²)) while partial.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use nqueens_solver::board::symmetry;
use nqueens_solver::formats::render;
use nqueens_solver::{Job, Method, Problem, Queen, Solution};
use serde_json::{Value, json};

use super::{MAX_GALLERY_N, config};

/// Every solution of the empty board, grouped by symmetry class: each class's canonical form
/// and its members, classes in the order their first member was found.
pub(super) fn gallery(problem: &Problem) -> Result<Value, String> {
    if problem.n() > MAX_GALLERY_N {
        return Err(format!(
            "the gallery shows boards up to n = {MAX_GALLERY_N}"
        ));
    }
    let mut engine = Method::Backtrack.build(Job::List, problem, &config(None));
    let mut order: Vec<Solution> = Vec::new();
    let mut classes: BTreeMap<Vec<u32>, Vec<Vec<u32>>> = BTreeMap::new();
    engine
        .for_each(problem, &mut |s| {
            let canonical = symmetry::canonical(s);
            let one_based = |s: &Solution| s.columns().iter().map(|c| c + 1).collect::<Vec<_>>();
            let members = classes
                .entry(canonical.columns().to_vec())
                .or_insert_with(|| {
                    order.push(canonical.clone());
                    Vec::new()
                });
            members.push(one_based(s));
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    let total: usize = classes.values().map(Vec::len).sum();
    let classes: Vec<Value> = order
        .iter()
        .map(|canonical| {
            let members = &classes[canonical.columns()];
            json!({
                "canonical": canonical.columns().iter().map(|c| c + 1).collect::<Vec<_>>(),
                "members": members,
            })
        })
        .collect();
    Ok(json!({ "n": problem.n(), "total": total, "classes": classes }))
}

/// The board as SVG: a complete solution through the library's renderer (as `nqueens solve
/// --format svg` draws it), a partial board in the same colours with the queens placed so far
/// and its blocked squares crossed out.
pub(super) fn svg(problem: &Problem, queens: &[Queen]) -> String {
    let style = render::SvgStyle::default();
    let n = problem.n();
    let mut columns = vec![u32::MAX; n as usize];
    for q in problem.fixed().iter().chain(queens) {
        columns[q.row as usize] = q.col;
    }
    if columns.iter().all(|&c| c != u32::MAX) {
        let solution = Solution::from_columns(columns);
        if nqueens_solver::verify(problem, &solution).is_ok() {
            return render::svg(problem, &[solution], &style);
        }
    }
    let cell = 40u64;
    let margin = 16u64;
    let side = u64::from(n) * cell + 2 * margin;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{side}\" viewBox=\"0 0 {side} {side}\">\n"
    );
    for row in 0..u64::from(n) {
        for col in 0..u64::from(n) {
            let fill = if (row + col) % 2 == 0 {
                "#f0d9b5"
            } else {
                "#b58863"
            };
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\"/>\n",
                margin + col * cell,
                margin + row * cell
            ));
        }
    }
    // Crossed as the library's renderer crosses them, in the queens' colour.
    for square in problem.blocked() {
        let (x, y) = (
            margin + u64::from(square.col) * cell,
            margin + u64::from(square.row) * cell,
        );
        let (near, far) = (cell / 4, cell - cell / 4);
        out.push_str(&format!(
            "<path class=\"blocked\" d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#1a1a1a\" stroke-width=\"{}\"><title>blocked {square}</title></path>\n",
            x + near,
            y + near,
            x + far,
            y + far,
            x + far,
            y + near,
            x + near,
            y + far,
            cell / 12
        ));
    }
    let fixed: std::collections::HashSet<Queen> = problem.fixed().iter().copied().collect();
    for q in problem.fixed().iter().chain(queens) {
        let fill = if fixed.contains(q) {
            "#b3261e"
        } else {
            "#1a1a1a"
        };
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"><title>{q}</title></circle>\n",
            margin + u64::from(q.col) * cell + cell / 2,
            margin + u64::from(q.row) * cell + cell / 2,
            cell * 3 / 8
        ));
    }
    out.push_str("</svg>\n");
    out
}
