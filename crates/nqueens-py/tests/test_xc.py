"""nqueens.xc: exact cover from labels, from Knuth's text, in the three shapes."""

import gc
import time

import pytest

from nqueens import xc

KNUTH = """\
| Knuth's example from Dancing Links
A B C D E | F G
C E F
A D G
B C F
A D
B G
D E G
"""


def queens_options(n):
    """N-Queens as exact cover: rows and columns primary, diagonals secondary."""
    options = {}
    for r in range(n):
        for c in range(n):
            options[(r, c)] = [("row", r), ("col", c), ("diag", r + c), ("anti", r - c)]
    secondary = [("diag", d) for d in range(2 * n - 1)] + [("anti", d) for d in range(-n + 1, n)]
    return options, secondary


def test_labels_and_hashable_items():
    cover = xc.ExactCover({"A": ["a", "d"], "B": ["c"], "C": ["a", "c"], "D": ["d"]})
    assert cover.count() == 2
    assert sorted(sorted(s) for s in cover.solutions()) == [["A", "B"], ["C", "D"]]
    assert cover.stats["solutions"] == 2 and cover.stats["nodes"] > 0


def test_queens_with_secondary_items():
    for n, total in [(6, 4), (8, 92)]:
        options, secondary = queens_options(n)
        cover = xc.ExactCover(options, secondary=secondary)
        assert cover.count() == total
        for solution in cover.solutions(limit=5):
            assert sorted(r for r, _ in solution) == list(range(n))


def test_list_of_item_lists_is_labelled_by_index():
    cover = xc.ExactCover([[1, 2], [3], [1, 3], [2]])
    assert sorted(sorted(s) for s in cover.solutions()) == [[0, 1], [2, 3]]


def test_colours_let_options_share_a_secondary_item():
    options = {"x": ["p", ("s", "red")], "y": ["q", ("s", "red")], "z": ["q", ("s", "blue")]}
    cover = xc.ExactCover(options, secondary=["s"])
    assert [sorted(s) for s in cover.solutions()] == [["x", "y"]]


def test_primary_items_no_option_covers_leave_no_solution():
    assert xc.ExactCover({"A": [1]}, primary=[1, 2]).count() == 0
    with pytest.raises(ValueError, match="unknown item"):
        xc.ExactCover({"A": [3]}, primary=[1, 2])


def test_knuth_text():
    cover = xc.ExactCover.from_dlx(KNUTH)
    solutions = list(cover.solutions())
    assert len(solutions) == 1
    assert sorted(cover.option_text(o) for o in solutions[0]) == ["A D", "B G", "C E F"]
    assert cover.items == ["A", "B", "C", "D", "E", "F", "G"]


def test_errors_are_value_errors_with_the_library_message():
    with pytest.raises(ValueError, match="line 2, column 3: unknown item 'c'"):
        xc.ExactCover.from_dlx("a b\na c\n")
    with pytest.raises(ValueError, match="an option must list at least one item"):
        xc.ExactCover({"A": []})
    with pytest.raises(ValueError, match="hashable"):
        xc.ExactCover([[["unhashable"]]])
    with pytest.raises(ValueError, match="appears twice"):
        xc.ExactCover({"A": [1, 1]})
    with pytest.raises(ValueError, match="no primary item"):
        xc.ExactCover({"A": ["s"]}, secondary=["s"])


def test_iterator_shape_and_seeds():
    options, secondary = queens_options(8)
    assert sum(1 for _ in xc.ExactCover(options, secondary=secondary)) == 92
    first = next(xc.ExactCover(options, secondary=secondary, seed=5))
    again = next(xc.ExactCover(options, secondary=secondary, seed=5))
    assert first == again
    shuffled = {tuple(sorted(next(xc.ExactCover(options, secondary=secondary, random=True)))) for _ in range(10)}
    assert len(shuffled) > 1
    assert xc.ExactCover({"A": [1]}).first() == ["A"]
    assert xc.ExactCover({"A": [1]}, primary=[1, 2]).first() is None


def test_breaking_out_frees_the_search(idle):
    options, secondary = queens_options(12)
    for i, _ in enumerate(xc.ExactCover(options, secondary=secondary).solutions()):
        if i == 3:
            break
    gc.collect()
    assert idle(2.0)


def langford_options(n):
    """Langford pairs: the two copies of i stand i squares apart; none exist for n = 14."""
    return {
        (i, j): [("value", i), ("slot", j), ("slot", j + i + 1)]
        for i in range(1, n + 1)
        for j in range(2 * n - i - 1)
    }


def test_ctrl_c_interrupts_a_long_search_that_finds_nothing(idle, ctrl_c):
    # About 10 s of search with no solution to pause at: the stop must reach the solver itself.
    problem = xc.ExactCover(langford_options(14))
    press = ctrl_c(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        problem.count()
    assert time.monotonic() - start < 1.0
    press.join()
    assert idle(2.0), "the interrupted search kept running"


def test_ctrl_c_interrupts_an_enumeration_between_solutions(idle, ctrl_c):
    # The iterator waits for a solution that never comes; after Ctrl-C the dropped iterator
    # must stop the search itself, not wait for it to reach a solution.
    press = ctrl_c(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in xc.ExactCover(langford_options(14)).solutions():
            pass
    assert time.monotonic() - start < 1.0
    press.join()
    gc.collect()
    assert idle(2.0), "the abandoned search kept running"


def test_problem_and_solver_shape():
    problem = xc.Problem(primary=[1, 2, 3, 4], secondary=["s"])
    assert problem.add_row([1, 2, "s"]) == 0
    problem.add_row([3, 4, "s"])
    problem.add_row([3, 4])
    problem.add_row([1])
    problem.add_row([2])
    one = xc.Solver(limit=1).solve_single(problem)
    assert one is not None and set().union(*one) >= {1, 2, 3, 4}
    every = xc.Solver().solve(problem)
    for solution in every:
        covered = [item for row in solution for item in row]
        assert sorted(x for x in covered if x != "s") == [1, 2, 3, 4]
        assert covered.count("s") <= 1
    assert sorted(sorted(len(row) for row in s) for s in every) == [[1, 1, 2], [1, 1, 3], [2, 3]]
    assert len(every) == 3
    assert len(xc.Solver(limit=2).solve(problem)) == 2


def test_add_row_refuses_an_unknown_item_at_the_row_that_names_it():
    problem = xc.Problem(["a", "b"], secondary=["s"])
    assert problem.add_row(["a", ("s", "red")]) == 0
    assert problem.add_row(["b", "s"]) == 1
    with pytest.raises(ValueError, match=r"row 2: unknown item 'c' \(not among the primary or secondary items\)"):
        problem.add_row(["a", "c"])
    with pytest.raises(ValueError, match="row 2: items must be hashable"):
        problem.add_row([["a"]])
    assert len(problem.rows) == 2  # nothing half-added
    assert problem.add_row(["b"]) == 2
    found = xc.Solver().solve_single(problem)
    assert found is not None
    assert {frozenset(row) for row in found} == {frozenset({"a", ("s", "red")}), frozenset({"b"})}


def queens_cover(n):
    """N-Queens as exact cover, the first write-up's way: options labelled by their square."""
    options = {
        (r, c): [f"r{r}", f"c{c}", ("a", r + c), ("b", r - c)] for r in range(n) for c in range(n)
    }
    secondary = [("a", s) for s in range(2 * n - 1)] + [("b", d) for d in range(-n + 1, n)]
    return xc.ExactCover(options, secondary=secondary)


def test_preselected_options_are_in_every_solution_like_fixed_queens():
    cover = queens_cover(8)
    assert cover.count() == 92
    # A queen in the corner: as many completions as the CLI counts for --fix 1:1.
    assert cover.count(select=[(0, 0)]) == 4
    solutions = list(cover.solutions(select=[(0, 0)]))
    assert len(solutions) == 4
    assert all((0, 0) in s and len(s) == 8 for s in solutions)
    first = cover.first(select=[(0, 0), (1, 4)])
    assert first is not None and {(0, 0), (1, 4)} <= set(first)
    # Two queens that attack each other cannot both be selected; an unknown label is named.
    with pytest.raises(ValueError, match="selecting option"):
        cover.count(select=[(0, 0), (1, 1)])
    with pytest.raises(ValueError, match="selecting option"):
        cover.solutions(select=[(0, 0), (0, 5)])
    with pytest.raises(ValueError, match=r"no option labelled \(9, 9\)"):
        cover.first(select=[(9, 9)])


def test_one_solution_is_fast_whatever_the_order_of_the_items():
    """The first write-up's script: items in natural order, one solution asked for. The
    declared order alone takes over 300 million nodes at n = 64; the race of orders about a
    hundred, and the same answer every time."""
    n = 64
    problem = xc.Problem([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)],
                         secondary=[("a", s) for s in range(2 * n - 1)] + [("b", d) for d in range(-n + 1, n)])
    for r in range(n):
        for c in range(n):
            problem.add_row([f"r{r}", f"c{c}", ("a", r + c), ("b", r - c)])
    [solution] = xc.Solver(limit=1).solve(problem)
    queens = sorted((int(next(i for i in row if str(i)[0] == "r")[1:]),
                     int(next(i for i in row if str(i)[0] == "c")[1:])) for row in solution)
    assert [r for r, _ in queens] == list(range(n))
    assert sorted(c for _, c in queens) == list(range(n))
    assert len({r + c for r, c in queens}) == n and len({r - c for r, c in queens}) == n

    cover = queens_cover(n)
    first = cover.first()
    assert first is not None and len(first) == n
    assert cover.stats["nodes"] < 100_000, cover.stats
    assert "restarts" in cover.stats
    assert cover.first() == first
    # A seed is that order alone; the declared order stays the order of `solutions()`.
    assert cover.first(seed=3) is not None
    small = queens_cover(6)
    assert small.first() == next(small.solutions())
