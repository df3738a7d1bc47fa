//! Classic exact cover problems, generated: pentomino packing, Langford pairs and Sudoku, and
//! one trivial family made to be large ([`singletons`]). They are the test fixtures and
//! benchmarks of this crate, and examples of encodings.
//!
//! Item names stay within eight characters, so the problems can also be fed to Knuth's DLX
//! programs for comparison.

use crate::error::Error;
use crate::problem::{ColorId, Entry, ItemId, Problem};

/// The twelve pentominoes in Conway's letters, each as five (row, column) cells.
pub const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a shape, each shifted to touch
/// row 0 and column 0 and sorted, in a fixed order.
pub fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut all: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut shape: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                let r = if t & 1 != 0 { -r } else { r };
                let c = if t & 2 != 0 { -c } else { c };
                (r, c)
            })
            .collect();
        let min_r = shape.iter().map(|p| p.0).min().unwrap_or(0);
        let min_c = shape.iter().map(|p| p.1).min().unwrap_or(0);
        for p in &mut shape {
            *p = (p.0 - min_r, p.1 - min_c);
        }
        shape.sort_unstable();
        if !all.contains(&shape) {
            all.push(shape);
        }
    }
    all
}

/// The name of the cell at `row`, `col` in the pentomino problems: `r{row}c{col}`, 0-based.
pub fn cell_name(row: usize, col: usize) -> String {
    format!("r{row}c{col}")
}

/// Packing the twelve pentominoes into a `rows`×`cols` box (rows·cols must be 60 for a
/// solution to exist): items are the twelve pieces, then the cells row by row; options are
/// every placement of every orientation of each piece, piece by piece, then by orientation,
/// then by position (row-major).
///
/// The 6×10 box has 9,356 solutions (2,339 up to the box's four symmetries), the 3×20 box 8
/// (2 up to symmetry).
pub fn pentominoes(rows: usize, cols: usize) -> Result<Problem, Error> {
    let mut b = Problem::builder();
    let pieces: Vec<ItemId> = PENTOMINOES
        .iter()
        .map(|(name, _)| b.primary(&name.to_string()))
        .collect::<Result<_, _>>()?;
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            cells.push(b.primary(&cell_name(r, c))?);
        }
    }
    for (piece, (_, shape)) in pieces.iter().zip(PENTOMINOES.iter()) {
        for orientation in orientations(shape) {
            let height = orientation.iter().map(|p| p.0).max().unwrap_or(0) as usize + 1;
            let width = orientation.iter().map(|p| p.1).max().unwrap_or(0) as usize + 1;
            for r in 0..(rows + 1).saturating_sub(height) {
                for c in 0..(cols + 1).saturating_sub(width) {
                    let placed = orientation
                        .iter()
                        .map(|&(dr, dc)| cells[(r + dr as usize) * cols + c + dc as usize]);
                    b.option(std::iter::once(*piece).chain(placed))?;
                }
            }
        }
    }
    Ok(b.build())
}

/// Langford pairs: place two copies of each of 1..=n in 2n slots so that the two copies of k
/// have k numbers between them. Items are `1`..`n`, then slots `s1`..`s2n` (1-based); the
/// option `k sI sJ` puts the copies of k in slots I and J = I + k + 1.
///
/// Every arrangement and its reversal are both counted: n = 7 has 52 solutions, 26 up to
/// reversal; n ≡ 1 or 2 (mod 4) has none.
pub fn langford(n: usize) -> Result<Problem, Error> {
    let mut b = Problem::builder();
    let values: Vec<ItemId> = (1..=n)
        .map(|k| b.primary(&k.to_string()))
        .collect::<Result<_, _>>()?;
    let slots: Vec<ItemId> = (1..=2 * n)
        .map(|s| b.primary(&format!("s{s}")))
        .collect::<Result<_, _>>()?;
    for k in 1..=n {
        for first in 0..(2 * n).saturating_sub(k + 1) {
            b.option([values[k - 1], slots[first], slots[first + k + 1]])?;
        }
    }
    Ok(b.build())
}

/// A 9×9 Sudoku as exact cover. `grid` holds 81 cells row by row: a digit 1–9 for a clue,
/// `0` or `.` for an empty cell (other characters, like spaces and newlines, are skipped).
/// Items: `pRC` (cell R,C has a digit), `rRD`, `cCD`, `bBD` (row, column, box has digit D),
/// 1-based. Each empty cell has nine options `pRC rRD cCD bBD`, each clue only its own.
///
/// # Panics
/// If `grid` does not hold exactly 81 cells.
pub fn sudoku(grid: &str) -> Problem {
    let cells: Vec<u8> = grid
        .bytes()
        .filter_map(|ch| match ch {
            b'1'..=b'9' => Some(ch - b'0'),
            b'0' | b'.' => Some(0),
            _ => None,
        })
        .collect();
    assert_eq!(cells.len(), 81, "a Sudoku grid has 81 cells");
    let mut b = Problem::builder();
    let mut declare = |prefix: char| -> Vec<ItemId> {
        (1..=9)
            .flat_map(|x| (1..=9).map(move |y| (x, y)))
            .map(|(x, y)| {
                b.primary(&format!("{prefix}{x}{y}"))
                    .expect("fresh, valid names")
            })
            .collect()
    };
    let (p, r, c, x) = (declare('p'), declare('r'), declare('c'), declare('b'));
    for row in 0..9 {
        for col in 0..9 {
            let clue = cells[row * 9 + col];
            let square = row / 3 * 3 + col / 3;
            for d in 1..=9u8 {
                if clue != 0 && clue != d {
                    continue;
                }
                let d = usize::from(d) - 1;
                b.option([
                    p[row * 9 + col],
                    r[row * 9 + d],
                    c[col * 9 + d],
                    x[square * 9 + d],
                ])
                .expect("four distinct primary items");
            }
        }
    }
    b.build()
}

/// The simplest large problem: `n` primary items `x0`, `x1`, …, each covered by one option of
/// its own, so the one solution takes every option. The search goes straight down, one node
/// per item, without a single dead end; what it measures is the cost of choosing an item
/// among many (with a scan over the uncovered items at every node, it costs n²/2 steps).
///
/// ```
/// use nqueens_exact_cover::{Solver, instances};
/// let problem = instances::singletons(1000).unwrap();
/// let mut solver = Solver::new(&problem);
/// assert_eq!(solver.count(), Ok(1));
/// assert_eq!(solver.stats().nodes, 1000);
/// ```
pub fn singletons(n: usize) -> Result<Problem, Error> {
    let mut b = Problem::builder();
    for i in 0..n {
        let item = b.primary(&format!("x{i}"))?;
        b.option([item])?;
    }
    Ok(b.build())
}

/// An edge-matching puzzle as exact cover with colors (Knuth's XCC): `n`×`n` square tiles,
/// each side painted one of `colors` colors, to be placed on an `n`×`n` board, turned as
/// needed, so that touching sides have the same color and the sides on the border are blank.
///
/// The tiles are cut from a board painted at random from `seed` (blank border, interior edges
/// in colors `1..=colors`), so the puzzle has a solution, and with it its turns by a quarter,
/// a half and three quarters (a square board): the count is a multiple of four.
///
/// Items: tiles `t0`, `t1`, … and cells `r{R}c{C}` are primary; the interior edges are
/// secondary, `h{R}c{C}` below cell (R, C) and `v{R}c{C}` to its right. An option puts one
/// tile on one cell in one turn that leaves blank sides exactly on the border, and gives each
/// interior edge around the cell the color of the side that touches it: two neighbours can
/// both be placed only if they give their shared edge the same color.
///
/// ```
/// use nqueens_exact_cover::{Solver, instances};
/// let problem = instances::edge_matching(3, 2, 1).unwrap();
/// let count = Solver::new(&problem).count().unwrap();
/// assert!(count >= 4 && count % 4 == 0);
/// ```
pub fn edge_matching(n: usize, colors: u32, seed: u64) -> Result<Problem, Error> {
    let mut rng = nqueens_support::SplitMix64::new(seed);
    let mut paint = |interior: bool| {
        if interior {
            1 + rng.below(colors.max(1))
        } else {
            0
        }
    };
    // below[r][c]: the edge under cell (r, c); right[r][c]: the edge to its right.
    let below: Vec<Vec<u32>> = (0..n)
        .map(|r| (0..n).map(|_| paint(r + 1 < n)).collect())
        .collect();
    let right: Vec<Vec<u32>> = (0..n)
        .map(|_| (0..n).map(|c| paint(c + 1 < n)).collect())
        .collect();
    // Each tile's sides, clockwise from the top.
    let mut tiles = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let top = if r == 0 { 0 } else { below[r - 1][c] };
            let left = if c == 0 { 0 } else { right[r][c - 1] };
            tiles.push([top, right[r][c], below[r][c], left]);
        }
    }

    let mut b = Problem::builder();
    let tile_items: Vec<ItemId> = (0..n * n)
        .map(|t| b.primary(&format!("t{t}")))
        .collect::<Result<_, _>>()?;
    let cell_items: Vec<ItemId> = (0..n * n)
        .map(|k| b.primary(&cell_name(k / n, k % n)))
        .collect::<Result<_, _>>()?;
    let mut h_edges = vec![None; n * n];
    let mut v_edges = vec![None; n * n];
    for r in 0..n {
        for c in 0..n {
            if r + 1 < n {
                h_edges[r * n + c] = Some(b.secondary(&format!("h{r}c{c}"))?);
            }
            if c + 1 < n {
                v_edges[r * n + c] = Some(b.secondary(&format!("v{r}c{c}"))?);
            }
        }
    }
    let palette: Vec<ColorId> = (1..=colors.max(1))
        .map(|k| b.color(&k.to_string()))
        .collect::<Result<_, _>>()?;
    let color = |side: u32| palette[side as usize - 1];
    for (t, sides) in tiles.iter().enumerate() {
        let mut turns: Vec<[u32; 4]> = Vec::new();
        for q in 0..4 {
            let turned = [0, 1, 2, 3].map(|s| sides[(s + 4 - q) % 4]);
            if !turns.contains(&turned) {
                turns.push(turned);
            }
        }
        for r in 0..n {
            for c in 0..n {
                let border = [r == 0, c + 1 == n, r + 1 == n, c == 0];
                for [top, right, bottom, left] in &turns {
                    let fits = [*top, *right, *bottom, *left]
                        .iter()
                        .zip(border)
                        .all(|(&side, edge)| (side == 0) == edge);
                    if !fits {
                        continue;
                    }
                    let mut entries = vec![
                        Entry::from(tile_items[t]),
                        Entry::from(cell_items[r * n + c]),
                    ];
                    if r > 0 {
                        entries.push(Entry::from((
                            h_edges[(r - 1) * n + c].expect("interior"),
                            color(*top),
                        )));
                    }
                    if let Some(edge) = v_edges[r * n + c] {
                        entries.push(Entry::from((edge, color(*right))));
                    }
                    if let Some(edge) = h_edges[r * n + c] {
                        entries.push(Entry::from((edge, color(*bottom))));
                    }
                    if c > 0 {
                        entries.push(Entry::from((
                            v_edges[r * n + c - 1].expect("interior"),
                            color(*left),
                        )));
                    }
                    b.option(entries)?;
                }
            }
        }
    }
    Ok(b.build())
}
