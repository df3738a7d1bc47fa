"""nqueens.cp: the CP-SAT shape; enumeration, a stopping callback, statuses."""

import pytest

from nqueens import cp as cp_model


def queens_model(n):
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[i] + i for i in range(n))
    model.add_all_different([q[i] - i for i in range(n)])
    return model, q


class Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, variables, stop_after=None):
        super().__init__()
        self.variables = variables
        self.stop_after = stop_after
        self.solutions = []

    def on_solution_callback(self):
        self.solutions.append([self.value(v) for v in self.variables])
        if self.stop_after is not None and len(self.solutions) >= self.stop_after:
            self.stop_search()


def test_enumerates_all_solutions():
    model, q = queens_model(8)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    collector = Collector(q)
    status = solver.solve(model, collector)
    assert status == cp_model.OPTIMAL and solver.status_name(status) == "OPTIMAL"
    assert len(collector.solutions) == 92 == len({tuple(s) for s in collector.solutions})
    assert collector.solution_count == 92
    assert solver.wall_time >= 0


def test_a_callback_stops_the_search():
    model, q = queens_model(10)
    collector = Collector(q, stop_after=3)
    status = cp_model.CpSolver().search_for_all_solutions(model, collector)
    assert status == cp_model.FEASIBLE
    assert len(collector.solutions) == 3


def test_one_solution_and_values():
    model, q = queens_model(12)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    values = [solver.value(x) for x in q]
    assert len(set(values)) == 12
    assert solver.value(q[0] + 3) == values[0] + 3


def test_infeasible_and_not_equal():
    model, q = queens_model(3)
    assert cp_model.CpSolver().solve(model) == cp_model.INFEASIBLE
    model = cp_model.CpModel()
    x = model.new_int_var(0, 2, "x")
    y = model.new_int_var(0, 2, "y")
    model.add(x != y)
    model.add(x != 0)
    model.add(y == 0)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert solver.value(y) == 0 and solver.value(x) in (1, 2)


def test_camel_case_names():
    model = cp_model.CpModel()
    x = model.NewIntVar(0, 3, "x")
    model.AddAllDifferent([x, x + 1])
    solver = cp_model.CpSolver()
    assert solver.StatusName(solver.Solve(model)) == "OPTIMAL"
    assert solver.Value(x) == 0


def test_errors():
    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    with pytest.raises(TypeError):
        model.add(3)
    with pytest.raises(ValueError):
        model.add(x == x + 1)
    with pytest.raises(ValueError, match="empty"):
        model.new_int_var(3, 0, "y")
        cp_model.CpSolver().solve(model)
    other = cp_model.CpModel()
    with pytest.raises(ValueError, match="another model"):
        other.add_all_different([x])
    with pytest.raises(TypeError):
        cp_model.CpSolver().solve(model, object())


def test_an_empty_domain_is_refused_at_once():
    model = cp_model.CpModel()
    with pytest.raises(ValueError, match=r"new_int_var\(5, 1\): the domain 5\.\.1 is empty"):
        model.new_int_var(5, 1, "x")
    model.new_int_var(3, 3, "y")  # one value is a domain


def test_bounds_that_are_not_integers_are_refused_at_once():
    model = cp_model.CpModel()
    with pytest.raises(TypeError, match=r"new_int_var: lb must be an integer, not 'a'"):
        model.new_int_var("a", "b", "x")
    with pytest.raises(TypeError, match=r"ub must be an integer, not 2\.5"):
        model.new_int_var(0, 2.5, "x")
    # Anything with __index__ is an integer.
    class Three:
        def __index__(self):
            return 3

    x = model.new_int_var(1, Three(), "x")
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL and 1 <= solver.value(x) <= 3


def test_a_callback_whose_init_skips_the_base_init_works():
    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self, variables):  # no super().__init__()
            self.variables = variables
            self.firsts = []

        def on_solution_callback(self):
            self.firsts.append(self.value(self.variables[0]))

    model, q = queens_model(6)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    counter = Counter(q)
    assert solver.solve(model, counter) == cp_model.OPTIMAL
    assert counter.solution_count == 4 == len(counter.firsts)
    assert sorted(counter.firsts) == [1, 2, 3, 4]
    # Another instance starts from zero: the defaults are not shared state.
    again = Counter(q)
    solver.solve(model, again)
    assert again.solution_count == 4 and counter.solution_count == 4


def test_the_cp_sat_example_scripts_calls_work(capsys):
    # What the N-Queens examples of the CP-SAT documentation call beside solving.
    model, q = queens_model(8)
    assert model.validate() == "" and model.Validate() == ""
    solver = cp_model.CpSolver()
    solver.parameters.log_search_progress = True
    solver.parameters.enumerate_all_solutions = True
    collector = Collector(q)
    assert solver.solve(model, collector) == cp_model.OPTIMAL
    logged = capsys.readouterr().out
    assert "CpSolverResponse summary:" in logged and "status: OPTIMAL" in logged
    stats = solver.response_stats()
    assert stats == solver.ResponseStats()
    assert "solutions: 92" in stats and f"branches: {solver.num_branches}" in stats
    assert f"conflicts: {solver.num_conflicts}" in stats
    # Quiet unless asked.
    solver.parameters.log_search_progress = False
    solver.solve(model)
    assert capsys.readouterr().out == ""
