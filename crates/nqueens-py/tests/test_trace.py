"""nqueens.trace: a search replayed step by step, the engines' own steps."""

import pytest

import nqueens


def board_at_solutions(trace, fixed=()):
    """The boards the steps draw at each solution: queens placed and removed (exact cover
    starts with the fixed queens, which it preselects), or CP's single-value domains."""
    board = [None] * trace.n
    if trace.method == "dlx":
        for row, col in fixed:
            board[row] = col
    for row, mask in enumerate(trace.start):
        if mask & (mask - 1) == 0:
            board[row] = mask.bit_length() - 1
    found = []
    for step in trace:
        if step["t"] == "place":
            assert board[step["r"]] is None
            board[step["r"]] = step["c"]
        elif step["t"] == "remove":
            assert board[step["r"]] == step["c"]
            board[step["r"]] = None
        elif step["t"] in ("assign", "refute"):
            board = [m.bit_length() - 1 if m & (m - 1) == 0 and m else None for m in step["d"]]
        elif step["t"] == "solution" and trace.method == "sat":
            found.append(tuple(step["columns"]))
        elif step["t"] == "solution":
            assert None not in board
            assert tuple(board) == tuple(step["columns"])
            found.append(tuple(board))
    return found


@pytest.mark.parametrize("method", ["backtrack", "dlx", "cp", "sat"])
def test_a_whole_replay_meets_the_92_and_counts_the_nodes_of_the_search(method):
    trace = nqueens.trace(8, method=method, all=True)
    found = board_at_solutions(trace)
    assert len(found) == 92 == trace.solutions
    assert set(found) == {tuple(s) for s in nqueens.solutions(8, method="backtrack")}
    for columns in found:
        nqueens.verify(columns)
    assert not trace.truncated
    assert sum(step["node"] for step in trace) == trace.nodes > 92


@pytest.mark.parametrize("method", ["backtrack", "dlx", "cp", "sat"])
def test_a_first_solution_replay_ends_at_the_solution_solve_finds(method):
    fixed = [(0, 1)]
    trace = nqueens.trace(8, method=method, fixed=fixed, seed=4)
    assert trace[len(trace) - 1]["t"] == "solution"
    (columns,) = board_at_solutions(trace, fixed)
    assert columns == tuple(nqueens.solve(8, method=method, fixed=fixed, seed=4))
    assert columns[0] == 1


def test_the_node_budget_cuts_a_replay_short():
    trace = nqueens.trace(12, method="cp", all=True, max_nodes=300)
    assert trace.truncated
    assert trace.nodes == sum(step["node"] for step in trace) <= 300
    assert "cut short" in repr(trace)


def test_a_replay_refuses_what_it_cannot_show():
    with pytest.raises(ValueError, match="backtrack, dlx, cp or sat"):
        nqueens.trace(8, method="local")
    with pytest.raises(ValueError, match="up to n = 64"):
        nqueens.trace(65, method="cp")
    with pytest.raises(ValueError, match="max_nodes"):
        nqueens.trace(8, max_nodes=-1)
    with pytest.raises(ValueError, match="0-based"):
        nqueens.trace(8, fixed=[(8, 0)])


def test_a_sat_replay_shows_decisions_conflicts_and_learnt_clauses():
    trace = nqueens.trace(8, method="sat", all=True)
    kinds = {step["t"] for step in trace}
    assert {"decide", "conflict", "learn", "solution"} <= kinds
    decisions = [step for step in trace if step["t"] == "decide"]
    assert len(decisions) == trace.nodes
    assert all(0 <= d["r"] < 8 and 0 <= d["c"] < 8 and d["level"] >= 1 for d in decisions)
    for step in trace:
        if step["t"] == "learn":
            assert 0 <= step["backjump"] and 1 <= step["lbd"] <= step["size"]


def test_the_repr_counts_in_words_and_dlx_items_are_named_as_xc_export_names_them():
    import re

    trace = nqueens.trace(1, method="backtrack")
    assert re.search(r": \d+ steps?, 1 node, 1 solution>$", repr(trace)), repr(trace)
    trace = nqueens.trace(6, method="dlx", all=True)
    assert re.search(r": \d+ steps, \d+ nodes, 4 solutions>$", repr(trace)), repr(trace)
    items = {step["item"] for step in trace if "item" in step}
    # The items of the encoding as `nqueens xc-export 6` declares them: r and c counted from 1,
    # a the anti-diagonal ROW + COL, b the diagonal ROW - COL.
    names = {f"r{i}" for i in range(1, 7)} | {f"c{i}" for i in range(1, 7)}
    names |= {f"a{s}" for s in range(2, 13)} | {f"b{d}" for d in range(-5, 6)}
    assert items <= names
    assert {name[0] for name in items} == {"r", "c", "a", "b"}
    # A branch on row rK places its queens on the step's 0-based row K - 1.
    placed = 0
    for i, step in enumerate(trace):
        if step["t"] == "branch" and step["item"].startswith("r"):
            following = trace[i + 1]
            if following["t"] == "place":
                assert following["r"] == int(step["item"][1:]) - 1
                placed += 1
    assert placed > 0
