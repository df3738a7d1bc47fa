//! The slow, obviously right solver: every subset of the options, checked against the
//! definition. It is the oracle the dancing links are tested against, for problems with up to
//! about 20 options (it costs O(2^options · entries)).

use crate::problem::{ItemKind, OptionId, Problem};

/// Every solution of `problem`, by brute force: each solution's options in increasing order,
/// and the solutions in increasing lexicographic order.
///
/// A subset of the options is a solution when every primary item lies in exactly one of them,
/// and every secondary item either lies in at most one of them or has the same color in all
/// the options it lies in.
///
/// # Panics
/// If the problem has more than 24 options.
pub fn solutions(problem: &Problem) -> Vec<Vec<OptionId>> {
    let options = problem.option_count();
    assert!(options <= 24, "the brute-force oracle is for tiny problems");
    let mut found = Vec::new();
    let mut uses: Vec<u32> = vec![0; problem.items().len()];
    let mut colors: Vec<Option<Option<u32>>> = vec![None; problem.items().len()];
    for subset in 0u32..(1 << options) {
        uses.fill(0);
        colors.fill(None);
        let mut clash = false;
        for k in (0..options).filter(|k| subset >> k & 1 == 1) {
            for entry in problem.option(OptionId(k as u32)) {
                let item = entry.item.index();
                uses[item] += 1;
                let color = entry.color.map(|c| c.0);
                match colors[item] {
                    None => colors[item] = Some(color),
                    // A second use is fine only for a secondary item, colored alike both times.
                    Some(earlier) => clash |= color.is_none() || earlier != color,
                }
            }
        }
        let covered = problem
            .items()
            .iter()
            .zip(&uses)
            .all(|(item, &n)| item.kind == ItemKind::Secondary || n == 1);
        if covered && !clash {
            found.push(
                (0..options as u32)
                    .filter(|k| subset >> k & 1 == 1)
                    .map(OptionId)
                    .collect(),
            );
        }
    }
    found.sort();
    found
}
