"""N-Queens by backtracking, printing each solution as a 0/1 matrix.

The backtracking write-up's program prints every board as a matrix of 0s and 1s. Here the
search is the package's bitboard backtracking (``method="backtrack"``), and the write-up's own
recursive function is kept alongside to show that both list the same boards in the same order.

    python backtracking_matrices.py [N]
"""

import sys

import nqueens


def plain_backtracking(n):
    """The write-up's recursion: place row by row, checking earlier rows."""
    columns = []

    def safe(c):
        r = len(columns)
        return all(c != cc and abs(c - cc) != r - rr for rr, cc in enumerate(columns))

    def place():
        if len(columns) == n:
            yield list(columns)
            return
        for c in range(n):
            if safe(c):
                columns.append(c)
                yield from place()
                columns.pop()

    yield from place()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    solutions = list(nqueens.solutions(n, method="backtrack"))
    assert [list(s) for s in solutions] == list(plain_backtracking(n))
    for i, solution in enumerate(solutions, 1):
        print(f"solution {i}:")
        for row in solution.to_matrix():
            print(" ".join(map(str, row)))
        print()
    print(f"{len(solutions)} solutions of {n}-queens")


if __name__ == "__main__":
    main()
