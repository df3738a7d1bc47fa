"""The N-Queens API: counts against OEIS, laziness, stopping, signals, the GIL, errors."""

import gc
import threading
import time

import pytest

import nqueens

# OEIS A000170 and A002562.
TOTAL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]
UNIQUE = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955]


@pytest.mark.parametrize("n", range(1, 15))
def test_count_matches_oeis(n):
    assert nqueens.count(n) == TOTAL[n - 1]
    assert nqueens.count(n, unique=True) == UNIQUE[n - 1]
    assert type(nqueens.count(n)) is int


@pytest.mark.parametrize("unique", [False, True])
def test_a_count_no_one_would_wait_for_is_refused_at_once_with_the_estimate(unique):
    # The library's guard, as the CLI gives it: beyond the counter, auto refuses to start.
    start = time.monotonic()
    with pytest.raises(ValueError) as refused:
        nqueens.count(33, unique=unique)
    assert time.monotonic() - start < 5
    message = str(refused.value)
    assert "n = 33 is beyond the counter (it covers n ≤ 32" in message
    assert "years on" in message and "ask for a search method by name" in message
    assert "--" not in message  # no command-line flags in Python


@pytest.mark.parametrize("method", ["backtrack", "dlx", "sat", "cp"])
def test_count_by_other_methods(method):
    assert nqueens.count(8, method=method) == 92


@pytest.mark.parametrize("n", range(1, 11))
def test_solutions_enumerate_oeis_and_verify(n):
    seen = set()
    for s in nqueens.solutions(n):
        nqueens.verify(s)
        nqueens.verify(list(s))
        assert len(s) == n and s.n == n
        seen.add(s)
    assert len(seen) == TOTAL[n - 1]


@pytest.mark.parametrize("method", ["dlx", "dlx-gadgets", "sat", "cp", "backtrack"])
def test_every_enumerating_method_finds_the_92(method):
    found = {s.columns for s in nqueens.solutions(8, method=method)}
    assert len(found) == 92
    for columns in found:
        nqueens.verify(columns)


def test_fixed_queens_are_kept_and_0_based():
    fixed = [(0, 0)]
    all_ = list(nqueens.solutions(8, fixed=fixed))
    assert len(all_) == 4
    assert all(s[0] == 0 for s in all_)
    assert nqueens.count(8, fixed=fixed) == 4
    s = nqueens.solve(30, fixed=[(0, 5), (29, 7)])
    assert s[0] == 5 and s[29] == 7
    nqueens.verify(s, fixed=[(0, 5), (29, 7)])
    assert s.fixed == [(0, 5), (29, 7)]
    assert "♛" in str(s)


def test_first_of_a_big_board_comes_at_once(idle):
    start = time.perf_counter()
    first = next(nqueens.solutions(64, method="dlx", seed=1))
    assert time.perf_counter() - start < 0.1
    nqueens.verify(first)
    assert idle()


def test_breaking_out_stops_and_frees_the_search(idle):
    iterator = nqueens.solutions(14)
    taken = [next(iterator) for _ in range(3)]
    assert len(set(taken)) == 3
    assert nqueens._live_searches() == 1
    del iterator
    gc.collect()
    assert idle(2.0), "the search thread kept running after its iterator was dropped"
    # Breaking out of a for loop over an unnamed iterator frees it the same way.
    for i, _ in enumerate(nqueens.solutions(16)):
        if i == 10:
            break
    gc.collect()
    assert idle(2.0)
    # close() stops it even while a reference remains.
    it = nqueens.solutions(16)
    next(it)
    it.close()
    assert idle(2.0)
    assert next(it, None) is None


def test_limit_and_seed():
    assert len(list(nqueens.solutions(10, limit=7))) == 7
    assert list(nqueens.solutions(10, limit=0)) == []
    a = [s.columns for s in nqueens.solutions(20, method="dlx", seed=3, limit=3)]
    b = [s.columns for s in nqueens.solutions(20, method="dlx", seed=3, limit=3)]
    c = [s.columns for s in nqueens.solutions(20, method="dlx", seed=4, limit=3)]
    assert a == b and a != c


def test_solve_every_method():
    for name, info in nqueens.METHODS.items():
        if "solve" not in info["jobs"]:
            continue
        s = nqueens.solve(12, method=name, seed=1)
        assert s is not None, name
        nqueens.verify(s)
    assert nqueens.solve(3) is None
    big = nqueens.solve(1000)
    nqueens.verify(big)


def test_methods_say_what_they_do():
    assert set(nqueens.METHODS) >= {"auto", "backtrack", "dlx", "sat", "cp", "counter", "construct", "local"}
    assert "count" in nqueens.METHODS["counter"]["jobs"]
    assert "solutions" not in nqueens.METHODS["counter"]["jobs"]
    assert nqueens.METHODS["dlx"]["about"].startswith("exact cover")


def test_solution_is_a_sequence_with_pictures():
    s = nqueens.Solution([1, 3, 0, 2])
    assert list(s) == [1, 3, 0, 2] and s.columns == (1, 3, 0, 2)
    assert s[0] == 1 and s[-1] == 2 and s[1:3] == (3, 0) and 3 in s
    with pytest.raises(IndexError):
        s[4]
    assert s == nqueens.Solution((1, 3, 0, 2)) and s != nqueens.Solution([2, 0, 3, 1])
    assert len({s, nqueens.Solution([1, 3, 0, 2])}) == 1
    assert str(s) == "· ♕ · ·\n· · · ♕\n♕ · · ·\n· · ♕ ·"
    assert repr(s) == "Solution([1, 3, 0, 2])"
    assert s.to_matrix() == [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]
    svg = s.to_svg(cell=10, queen="red")
    assert svg.startswith("<svg") and svg.count('href="#queen"') == 4 and 'fill="red"' in svg
    assert s._repr_svg_().startswith("<svg")
    grid = nqueens.svg_grid(nqueens.solutions(6), columns=2, cell=8, margin=4)
    assert grid.count("<title>solution") == 4
    with pytest.raises(ValueError, match="not a colour"):
        s.to_svg(light="url(x)")
    with pytest.raises(ValueError):
        nqueens.svg_grid([])


def test_verify_names_the_attacking_queens():
    with pytest.raises(ValueError, match=r"queens \(0, 0\) and \(1, 1\) attack each other along a diagonal"):
        nqueens.verify([0, 1, 2, 3])
    with pytest.raises(ValueError, match="along a column"):
        nqueens.verify([1, 3, 1, 2])
    with pytest.raises(ValueError, match=r"fixed queen \(0, 2\) was moved: row 0 has its queen on \(0, 1\)"):
        nqueens.verify([1, 3, 0, 2], fixed=[(0, 2)])
    with pytest.raises(ValueError):
        nqueens.verify([0, -1])
    # Python speaks 0-based everywhere, errors included.
    with pytest.raises(ValueError, match=r"^the queen on row 0 is in column 5, off the 2-column board \(0-based\)$"):
        nqueens.verify([5, 1])
    assert nqueens.verify([1, 3, 0, 2]) is None


def test_bad_arguments_are_value_or_type_errors():
    for call in [
        lambda: nqueens.count(0),
        lambda: nqueens.count(-3),
        lambda: nqueens.solve(8, method="dancing"),
        lambda: nqueens.solve(8, fixed=[(0, 0), (1, 1)]),
        lambda: nqueens.solve(8, fixed=[(8, 0)]),
        lambda: nqueens.solve(8, fixed=[(-1, 0)]),
        lambda: nqueens.solutions(8, method="counter"),
        lambda: nqueens.solutions(65, method="backtrack"),
        lambda: nqueens.count(33, method="counter"),
        lambda: nqueens.count_shard(8, 3, 3),
        lambda: nqueens.count(8, threads=0),
        lambda: nqueens.solve(8, time_limit=-1),
    ]:
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError, match="unknown method 'dancing'"):
        nqueens.solve(8, method="dancing")
    with pytest.raises(ValueError, match=r"^fixed queens \(0, 0\) and \(1, 1\) are on the same diagonal$"):
        nqueens.solve(8, fixed=[(0, 0), (1, 1)])
    with pytest.raises(TypeError):
        nqueens.count("8")
    with pytest.raises(TypeError):
        nqueens.solve(8, fixed=[0, 1])


def test_progress_reports_tasks():
    calls = []
    assert nqueens.count(15, progress=lambda done, total: calls.append((done, total))) == TOTAL[14]
    assert calls, "progress was never called"
    assert calls[-1][0] == calls[-1][1] > 0
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


def test_a_failing_progress_callback_stops_the_count(idle):
    def fail(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        nqueens.count(15, progress=fail)
    assert idle()


def test_shards_merge_to_the_count():
    shards = [nqueens.count_shard(12, i, 3) for i in range(3)]
    assert [s["shard"] for s in shards] == ["1/3", "2/3", "3/3"]
    assert sum(s["subtotal"] for s in shards) == TOTAL[11]
    assert nqueens.merge(shards) == TOTAL[11]
    with pytest.raises(ValueError, match="appears twice"):
        nqueens.merge([shards[0], shards[0], shards[2]])
    with pytest.raises(ValueError):
        nqueens.merge(shards[:2])


def test_ctrl_c_interrupts_a_long_count(idle, ctrl_c):
    press = ctrl_c(0.5)
    with pytest.raises(KeyboardInterrupt):
        nqueens.count(18)
    raised = time.monotonic()
    press.join()
    assert raised - press.sent < 0.5
    assert idle(10.0), "the interrupted count kept running"


def test_ctrl_c_interrupts_an_enumeration(idle, ctrl_c):
    press = ctrl_c(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in nqueens.solutions(17):
            pass
    assert time.monotonic() - start < 0.8
    press.join()
    gc.collect()
    assert idle(10.0)


def test_the_gil_is_released_during_a_count():
    ticks = []
    done = threading.Event()

    def other():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        start = time.monotonic()
        assert nqueens.count(15) == TOTAL[14]
        end = time.monotonic()
    finally:
        done.set()
        thread.join()
    during = [t for t in ticks if start < t < end]
    assert end - start < 0.05 or len(during) >= 5, (end - start, len(during))


def test_a_time_limit_raises_timeout(idle):
    # dlx-gadgets needs seconds for its first solution at n = 28 (in its seeded order).
    start = time.monotonic()
    with pytest.raises(TimeoutError, match="time limit"):
        nqueens.solve(28, method="dlx-gadgets", time_limit=0.1)
    assert time.monotonic() - start < 0.5
    assert idle(20.0)


def test_engines_with_limits_stop_at_once(idle, ctrl_c):
    # Backtracking honours the stop flag and the time limit itself: its thread ends with the call.
    with pytest.raises(TimeoutError):
        nqueens.solve(60, fixed=[(0, 0), (1, 2)], method="backtrack", time_limit=0.1)
    assert idle(0.5)

    press = ctrl_c(0.3)
    with pytest.raises(KeyboardInterrupt):
        nqueens.count(17, method="backtrack", threads=1)
    press.join()
    assert idle(0.5)


def test_a_solution_equals_the_list_or_tuple_of_its_columns():
    s = nqueens.solve(6)
    assert s == list(s.columns) and s == tuple(s.columns)
    assert list(s.columns) == s  # both ways round
    assert s != list(s.columns)[::-1] and s != list(s.columns) + [0] and s != "135024"
    # Equal things hash alike: a solution and its tuple are one key.
    assert hash(s) == hash(tuple(s.columns))
    assert len({s, tuple(s.columns)}) == 1


def test_blocked_squares_are_honoured_or_refused_by_every_method():
    blocked = [(0, 0), (2, 5), (4, 4), (7, 1)]
    total = nqueens.count(8, blocked=blocked, method="backtrack")
    assert 0 < total < 92
    for method in ["auto", "dlx", "sat", "cp"]:
        assert nqueens.count(8, blocked=blocked, method=method) == total
    listed = list(nqueens.solutions(8, blocked=blocked))
    assert len(listed) == total
    for s in listed:
        nqueens.verify(s, blocked=blocked)
        assert all(s[r] != c for r, c in blocked)
    s = nqueens.solve(8, blocked=blocked, fixed=[(1, 3)])
    assert s[1] == 3 and all(s[r] != c for r, c in blocked)
    assert nqueens.count(8, blocked=blocked, method="counter") == total
    # These blocked squares keep no symmetry: every solution is its own class.
    assert nqueens.count(8, blocked=blocked, unique=True) == total
    # A set the half turn maps onto itself keeps that symmetry: classes of one or two.
    turned = [(0, 1), (7, 6), (3, 5), (4, 2)]
    all_turned = list(nqueens.solutions(8, blocked=turned))
    classes = {min(tuple(s), tuple(7 - c for c in reversed(s))) for s in all_turned}
    for method in ["auto", "backtrack", "counter", "dlx", "cp"]:
        assert nqueens.count(8, blocked=turned, unique=True, method=method) == len(classes)
    with pytest.raises(ValueError, match="does not take blocked squares"):
        nqueens.solve(8, blocked=blocked, method="construct")
    with pytest.raises(ValueError, match=r"blocked square \(8, 0\) is off the 8×8 board"):
        nqueens.count(8, blocked=[(8, 0)])
    with pytest.raises(ValueError, match=r"fixed queen \(1, 3\) stands on a blocked square"):
        nqueens.solve(8, blocked=[(1, 3)], fixed=[(1, 3)])
    with pytest.raises(ValueError, match=r"the queen on \(0, 1\) stands on a blocked square"):
        nqueens.verify([1, 3, 0, 2], blocked=[(0, 1)])


def test_a_solution_carries_its_fixed_queens_and_blocked_squares_as_the_cli_draws_them():
    blocked = {(2, 2), (3, 4)}  # a set: any iterable of pairs
    s = nqueens.solve(8, blocked=blocked, fixed=iter([(0, 0)]))
    assert s.blocked == [(2, 2), (3, 4)] and s.fixed == [(0, 0)]
    text = str(s)
    rows = text.splitlines()
    assert rows[2].split()[2] == "×" and rows[3].split()[4] == "×"
    assert rows[0].split()[0] == "♛"
    # The CLI's unicode board of the same problem and solution, square for square: the
    # library's renderer, which the CLI uses, oracle of the text.
    again = nqueens.Solution(list(s), fixed=[(0, 0)], blocked=blocked)
    assert str(again) == text and again == s
    assert repr(s) == f"Solution({list(s)}, fixed=[(0, 0)], blocked=[(2, 2), (3, 4)])"
    assert eval(repr(s), {"Solution": nqueens.Solution}).blocked == s.blocked
    # The picture crosses the blocked squares out: the SVG has something drawn on them.
    plain = nqueens.Solution(list(s), fixed=[(0, 0)]).to_svg()
    assert s.to_svg() != plain and len(s.to_svg()) > len(plain)
    assert nqueens.svg_grid([s, s]) != nqueens.svg_grid([list(s), list(s)])
    # Solutions from the iterator carry them too, and verify holds a solution to its own.
    for t in nqueens.solutions(8, blocked=blocked, limit=3):
        assert t.blocked == s.blocked
        nqueens.verify(t)
    wrong = nqueens.Solution(list(s), blocked=[(0, s[0])])
    with pytest.raises(ValueError, match="blocked square"):
        nqueens.verify(wrong)
    for bad in [(0, 1), "01", 5, [(0, 1, 2)]]:
        with pytest.raises(TypeError, match=r"takes \(row, col\) pairs"):
            nqueens.solve(8, blocked=bad)


def test_solutions_order_by_their_columns():
    listed = list(nqueens.solutions(6))
    assert sorted(listed, reverse=True) == sorted(listed, key=lambda s: s.columns, reverse=True)
    a, b = sorted(listed)[:2]
    assert a < b and a <= b and b > a and b >= a and not a > b
    assert a < list(b) and a <= tuple(a)
    assert min(listed).columns == min(s.columns for s in listed)
    with pytest.raises(TypeError):
        _ = a < 3


def test_the_package_shows_what_it_has():
    import importlib.metadata

    assert nqueens.__version__ == importlib.metadata.version("nqueens")
    # The submodules are there after `import nqueens` alone.
    assert nqueens.xc.ExactCover and nqueens.cp.CpModel and nqueens.sat.Solver
    assert callable(nqueens.trace)
    for module in (nqueens, nqueens.xc, nqueens.cp, nqueens.sat):
        names = dir(module)
        for typing_name in ("Any", "Union", "Optional", "Iterable", "annotations"):
            assert typing_name not in names, (module.__name__, typing_name)
        assert set(module.__all__) <= set(names)
    assert "solve" in dir(nqueens) and "Solver" in dir(nqueens.sat)


def test_every_signature_line_names_every_parameter():
    import inspect

    for name in ["solve", "solutions", "count", "verify", "trace", "read_board"]:
        function = getattr(nqueens, name)
        params = inspect.signature(function).parameters
        shown = function.__doc__.splitlines()[0] if function.__doc__ else ""
        assert "blocked" in params or name == "read_board", name
        for param in params:
            assert param in shown or not shown.startswith(name + "("), (name, param, shown)
    assert "blocked" in str(inspect.signature(nqueens.solve))


def test_read_board_reads_what_the_cli_writes():
    s = nqueens.solve(8, blocked=[(0, 0), (2, 2)], fixed=[(1, 3)])
    drawn = str(s)
    board = nqueens.read_board(drawn)
    assert board == {"n": 8, "fixed": sorted((r, c) for r, c in enumerate(s)), "blocked": [(0, 0), (2, 2)]}
    assert nqueens.solve(**board) == s
    listed = nqueens.read_board("# a board\n8\n2:4\n!1:1\n!3:3\n")
    assert listed == {"n": 8, "fixed": [(1, 3)], "blocked": [(0, 0), (2, 2)]}
    assert nqueens.count(**listed) == nqueens.count(8, fixed=[(1, 3)], blocked=[(0, 0), (2, 2)])
    essence = nqueens.read_board("letting n = 4\nletting blocks = [[1,2], [4,3]]\n")
    assert essence == {"n": 4, "fixed": [], "blocked": [(0, 1), (3, 2)]}
    with pytest.raises(ValueError, match=r"line 1, column 5: unexpected '♕'"):
        nqueens.read_board("2 4 ♕ 3\n")
