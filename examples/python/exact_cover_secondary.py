"""N-Queens as exact cover with secondary items, at n = 64, with an SVG tile of solutions.

The exact-cover write-up's program, ported to ``nqueens.xc``: each square is an option covering
its row and its column (primary items: each exactly once) and its two diagonals (secondary
items: each at most once, since most diagonals stay empty). Different seeds shuffle the search
and give different boards; the program draws a few in one SVG picture.

    python exact_cover_secondary.py [N] [BOARDS] [OUT.svg]

Rows and columns are 0-based, as everywhere in the package.
"""

import sys
import time

import nqueens
from nqueens.xc import ExactCover


def queens_cover(n):
    options = {}
    for r in range(n):
        for c in range(n):
            options[(r, c)] = [f"R{r}", f"C{c}", f"A{r + c}", f"B{r - c + n - 1}"]
    diagonals = [f"A{d}" for d in range(2 * n - 1)] + [f"B{d}" for d in range(2 * n - 1)]
    return ExactCover(options, secondary=diagonals)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    boards = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    out = sys.argv[3] if len(sys.argv) > 3 else f"queens-{n}.svg"
    cover = queens_cover(n)
    solutions = []
    for seed in range(1, boards + 1):
        start = time.perf_counter()
        squares = cover.first(seed=seed)
        elapsed = time.perf_counter() - start
        columns = [c for _, c in sorted(squares)]
        nqueens.verify(columns)
        solutions.append(nqueens.Solution(columns))
        print(f"seed {seed}: a {n}-queens solution in {elapsed * 1000:.1f} ms ({cover.stats['nodes']} nodes)")
    with open(out, "w", encoding="utf-8") as f:
        f.write(nqueens.svg_grid(solutions, columns=2, cell=6, margin=8))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
