"""Constraint programming (the workspace's ``cp`` crate), in OR-Tools CP-SAT's shape, so that a
CP-SAT program over integer variables, all-different and ``!=`` ports by changing its import::

    from nqueens import cp as cp_model

    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[i] + i for i in range(n))
    model.add_all_different(q[i] - i for i in range(n))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, callback)

Supported: ``new_int_var(lo, hi, name)``, expressions ``x + c`` / ``x - c`` / ``c + x``,
``add_all_different`` (a list, a generator or several arguments), ``add(a != b)`` between
expressions or with a constant, ``add(x == c)``. Statuses are CP-SAT's: ``OPTIMAL`` (the search
finished, or found the one solution asked for), ``FEASIBLE`` (a callback stopped it, or a time
limit after a solution), ``INFEASIBLE``, ``UNKNOWN``. The CamelCase names of older OR-Tools
versions (``NewIntVar``, ``AddAllDifferent``, ``Value``, ``StopSearch``, ...) work too.

Searches release the GIL between callbacks and answer Ctrl-C.
"""

from __future__ import annotations

import operator
from typing import Any, Iterable, List, Optional, Tuple, Union

from ._nqueens import cp_search as _search

__all__ = [
    "CpModel",
    "CpSolver",
    "CpSolverSolutionCallback",
    "IntVar",
    "OPTIMAL",
    "FEASIBLE",
    "INFEASIBLE",
    "UNKNOWN",
    "MODEL_INVALID",
]

UNKNOWN = 0
MODEL_INVALID = 1
FEASIBLE = 2
INFEASIBLE = 3
OPTIMAL = 4
_NAMES = {UNKNOWN: "UNKNOWN", MODEL_INVALID: "MODEL_INVALID", FEASIBLE: "FEASIBLE", INFEASIBLE: "INFEASIBLE", OPTIMAL: "OPTIMAL"}


class _Expr:
    """``var + offset``."""

    __slots__ = ("_var", "_offset")

    def __init__(self, var: "IntVar", offset: int) -> None:
        self._var = var
        self._offset = offset

    def _term(self) -> Tuple["IntVar", int]:
        return self._var, self._offset

    def __add__(self, other: int) -> "_Expr":
        if isinstance(other, bool) or not isinstance(other, int):
            return NotImplemented
        return _Expr(self._var, self._offset + other)

    __radd__ = __add__

    def __sub__(self, other: int) -> "_Expr":
        if isinstance(other, bool) or not isinstance(other, int):
            return NotImplemented
        return _Expr(self._var, self._offset - other)

    def __ne__(self, other: Any) -> "_Relation":  # type: ignore[override]
        return _Relation("!=", self, other)

    def __eq__(self, other: Any) -> "_Relation":  # type: ignore[override]
        return _Relation("==", self, other)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        if self._offset == 0:
            return repr(self._var)
        sign = "+" if self._offset > 0 else "-"
        return f"{self._var!r} {sign} {abs(self._offset)}"


class IntVar(_Expr):
    """An integer variable with domain ``lo..hi`` (both included)."""

    __slots__ = ("_index", "_lo", "_hi", "_name", "_model")

    def __init__(self, model: "CpModel", index: int, lo: int, hi: int, name: str) -> None:
        super().__init__(self, 0)
        self._model = model
        self._index = index
        self._lo = lo
        self._hi = hi
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def index(self) -> int:
        """The variable's 0-based position in its model."""
        return self._index

    def __repr__(self) -> str:
        return self._name or f"x{self._index}"

    def __hash__(self) -> int:
        return id(self)


class _Relation:
    def __init__(self, op: str, left: _Expr, right: Any) -> None:
        self.op = op
        self.left = left
        self.right = right

    def __bool__(self) -> bool:
        # `x == y` in a dict lookup or `in` test means identity, as in CP-SAT.
        same = self.left is self.right
        return same if self.op == "==" else not same


def _term(expr: Any) -> Tuple[int, int]:
    if not isinstance(expr, _Expr):
        raise TypeError(f"expected a variable or 'variable + constant', not {expr!r}")
    var, offset = expr._term()
    return var._index, offset


class Constraint:
    """A posted constraint (returned by the ``add_*`` methods)."""


class CpModel:
    """A model: integer variables and constraints over them."""

    def __init__(self) -> None:
        self._vars: List[IntVar] = []
        self._domains: List[Tuple[int, int]] = []
        self._all_different: List[List[Tuple[int, int]]] = []
        self._not_equal: List[Tuple[Tuple[int, int], Tuple[int, int]]] = []
        self._fixed: List[Tuple[int, int]] = []
        self._removed: List[Tuple[int, int]] = []

    def new_int_var(self, lb: int, ub: int, name: str = "") -> IntVar:
        """A new variable with values ``lb..ub`` (both included); a bound that is not an
        integer raises ``TypeError`` and ``lb > ub`` (an empty domain) ``ValueError``, here,
        not when the model is solved."""
        lb, ub = _bound(lb, "lb"), _bound(ub, "ub")
        if lb > ub:
            raise ValueError(f"new_int_var({lb}, {ub}): the domain {lb}..{ub} is empty (lb > ub)")
        var = IntVar(self, len(self._vars), lb, ub, name)
        self._vars.append(var)
        self._domains.append((lb, ub))
        return var

    def _own(self, index: int) -> int:
        return index

    def add_all_different(self, *expressions: Union[_Expr, Iterable[_Expr]]) -> Constraint:
        """All expressions take different values. Takes a list, a generator, or several
        expressions as arguments."""
        items: List[Any]
        first = expressions[0] if len(expressions) == 1 else None
        if first is not None and not isinstance(first, _Expr):
            items = list(first)
        else:
            items = list(expressions)
        self._all_different.append([self._check(_term(e), e) for e in items])
        return Constraint()

    def _check(self, term: Tuple[int, int], expr: Any) -> Tuple[int, int]:
        var = expr._var
        if var._model is not self:
            raise ValueError(f"variable {var!r} belongs to another model")
        return term

    def add(self, relation: Any) -> Constraint:
        """Posts ``a != b`` (expressions or a constant) or ``x == c``."""
        if not isinstance(relation, _Relation):
            raise TypeError(f"add takes a relation such as 'x != y', not {relation!r}")
        left = self._check(_term(relation.left), relation.left)
        right = relation.right
        if isinstance(right, _Expr):
            right_term = self._check(_term(right), right)
            if relation.op == "!=":
                self._not_equal.append((left, right_term))
                return Constraint()
            raise ValueError("only '!=' is supported between two expressions ('==' only with a constant)")
        if isinstance(right, bool) or not isinstance(right, int):
            raise TypeError(f"expected an expression or an int on the right, not {right!r}")
        var, offset = left
        if relation.op == "!=":
            self._removed.append((var, right - offset))
        else:
            self._fixed.append((var, right - offset))
        return Constraint()

    def validate(self) -> str:
        """CP-SAT's model check: an empty string for a valid model. Here every malformed
        piece (an empty domain, a variable of another model, an unsupported relation) is
        refused when it is added, so a model that exists is valid and this returns ``""``."""
        return ""

    # CamelCase, as older OR-Tools versions spell them.
    NewIntVar = new_int_var
    Validate = validate
    AddAllDifferent = add_all_different
    Add = add


def _bound(value: Any, which: str) -> int:
    """A domain bound as an int: any integer (``operator.index``: int, bool, NumPy's integers),
    nothing else."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"new_int_var: {which} must be an integer, not {value!r}") from None


class CpSolverSolutionCallback:
    """Subclass and implement ``on_solution_callback()``; inside it, ``self.value(x)`` reads a
    value of the current solution and ``self.stop_search()`` ends the search. A subclass whose
    ``__init__`` does not call this one's works too: the state starts from the class's
    defaults."""

    _values: Optional[List[int]] = None
    _stop = False
    _count = 0

    def __init__(self) -> None:
        self._values: Optional[List[int]] = None
        self._stop = False
        self._count = 0

    def on_solution_callback(self) -> None:
        handler = getattr(self, "OnSolutionCallback", None)
        if handler is not None:
            handler()

    def value(self, expression: Any) -> int:
        """The value of a variable or ``variable + constant`` in the current solution."""
        return _value(self._values, expression)

    def stop_search(self) -> None:
        """Stops the search after this callback."""
        self._stop = True

    @property
    def solution_count(self) -> int:
        """Solutions seen so far."""
        return self._count

    def _hook(self, values: List[int]) -> bool:
        self._values = values
        self._count += 1
        self.on_solution_callback()
        return self._stop

    Value = value
    StopSearch = stop_search

    def SolutionCount(self) -> int:  # noqa: N802 (CP-SAT's name)
        return self._count


def _value(values: Optional[List[int]], expression: Any) -> int:
    if values is None:
        raise ValueError("there is no solution to read a value from")
    if isinstance(expression, int):
        return expression
    var, offset = _term(expression)
    return values[var] + offset


class _Parameters:
    def __init__(self) -> None:
        self.enumerate_all_solutions = False
        self.max_time_in_seconds: Optional[float] = None
        self.random_seed = 0
        self.num_workers = 1
        self.num_search_workers = 1
        # Print the search's summary when it ends (CP-SAT logs its progress to stdout).
        self.log_search_progress = False
        self.log_to_stdout = True


class CpSolver:
    """Solves a :class:`CpModel`; ``parameters`` holds ``enumerate_all_solutions``,
    ``max_time_in_seconds``, ``random_seed`` and ``log_search_progress`` (print
    :meth:`response_stats` when a search ends)."""

    def __init__(self) -> None:
        self.parameters = _Parameters()
        self._status = UNKNOWN
        self._values: Optional[List[int]] = None
        self._wall = 0.0
        self._branches = 0
        self._conflicts = 0
        self._solutions = 0

    def solve(self, model: CpModel, callback: Optional[CpSolverSolutionCallback] = None, *, solution_callback: Optional[CpSolverSolutionCallback] = None) -> int:
        """Searches the model: for one solution, or for all with
        ``parameters.enumerate_all_solutions`` (each handed to ``callback``). Returns a status."""
        callback = callback or solution_callback
        enumerate_all = bool(self.parameters.enumerate_all_solutions)
        hook = None
        if callback is not None:
            if not hasattr(callback, "_hook"):
                raise TypeError(f"the callback must subclass CpSolverSolutionCallback, not {type(callback).__name__}")
            hook = callback._hook
        limit = self.parameters.max_time_in_seconds
        seed = self.parameters.random_seed
        status, values, found, wall, nodes, failures = _search(
            model._domains,
            model._all_different,
            model._not_equal,
            model._fixed,
            model._removed,
            enumerate_all,
            hook,
            None if limit is None else float(limit),
            int(seed) if seed else 0,
        )
        self._values = values
        self._wall = wall
        self._branches = nodes
        self._conflicts = failures
        self._solutions = found
        if status == "complete":
            self._status = OPTIMAL if found else INFEASIBLE
        elif status == "first":
            self._status = OPTIMAL
        elif status == "stopped":
            self._status = FEASIBLE
        else:
            self._status = FEASIBLE if found else UNKNOWN
        if self.parameters.log_search_progress and self.parameters.log_to_stdout:
            print(self.response_stats(), flush=True)
        return self._status

    def response_stats(self) -> str:
        """The last search's summary, in the shape of CP-SAT's ``CpSolverResponse summary``."""
        return "\n".join(
            [
                "CpSolverResponse summary:",
                f"status: {self.status_name()}",
                f"conflicts: {self._conflicts}",
                f"branches: {self._branches}",
                f"solutions: {self._solutions}",
                f"walltime: {self._wall:.6f}",
            ]
        )

    def search_for_all_solutions(self, model: CpModel, callback: CpSolverSolutionCallback) -> int:
        """Visits every solution with ``callback`` (as ``enumerate_all_solutions = True``)."""
        saved = self.parameters.enumerate_all_solutions
        self.parameters.enumerate_all_solutions = True
        try:
            return self.solve(model, callback)
        finally:
            self.parameters.enumerate_all_solutions = saved

    def value(self, expression: Any) -> int:
        """The value in the last solution found."""
        return _value(self._values, expression)

    def status_name(self, status: Optional[int] = None) -> str:
        """``"OPTIMAL"``, ``"FEASIBLE"``, ``"INFEASIBLE"``, ``"UNKNOWN"`` or ``"MODEL_INVALID"``."""
        return _NAMES[self._status if status is None else status]

    @property
    def wall_time(self) -> float:
        """Seconds the last search took."""
        return self._wall

    @property
    def num_branches(self) -> int:
        return self._branches

    @property
    def num_conflicts(self) -> int:
        return self._conflicts

    Solve = solve
    SearchForAllSolutions = search_for_all_solutions
    Value = value
    StatusName = status_name
    ResponseStats = response_stats

    def WallTime(self) -> float:  # noqa: N802 (CP-SAT's name)
        return self._wall
