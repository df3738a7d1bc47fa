"""A CDCL SAT solver (the workspace's ``sat`` crate), in PySAT's shape.

Literals are DIMACS integers: variable ``v`` (from 1, as in DIMACS) is ``v``, its negation
``-v``. ::

    from nqueens.sat import Solver
    with Solver(bootstrap_with=[[1, 2], [-1, 2]]) as s:
        s.solve()                      # True
        s.get_model()                  # [-1, 2] (or [1, 2])
        s.solve(assumptions=[-2])      # False
        s.get_core()                   # [-2]

Solves release the GIL and answer Ctrl-C. A ``proof=`` path receives a DRAT proof of every
unsatisfiable answer (check it with ``drat-trim formula.cnf proof.drat``).

``True`` and ``False`` are always proven answers. A search that ends without one raises:
``MemoryError`` when the formula does not fit in memory, ``KeyboardInterrupt`` on Ctrl-C;
only :meth:`Solver.solve_limited` answers ``None``, when its conflict budget ran out (PySAT's
convention).

Incremental use: clauses may be added between solves, and each solve takes its own
assumptions; what the solver learnt stays. A sequence of related queries, each asking which
literals are forced::

    s = Solver(bootstrap_with=[[1, 2, 3], [-1, -2], [-2, -3], [-1, -3]])
    forced = [lit for lit in (1, -1, 2, -2, 3, -3) if not s.solve(assumptions=[-lit])]
    # [] : exactly one of 1, 2, 3 is true, and any one may be
    s.add_clause([-3])
    s.solve(assumptions=[-1, -2])      # False
    s.get_core()                       # [-1, -2] (or a part of it: these cannot hold together)
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Optional

from ._nqueens import Core as _Core

__all__ = ["Solver"]


class Solver:
    """``Solver(name=None, bootstrap_with=None, *, proof=None, seed=0)``

    ``name`` is accepted for PySAT compatibility and ignored (there is one solver);
    ``bootstrap_with`` is an iterable of clauses (or an object with a ``clauses`` attribute, as
    PySAT's ``CNF``); ``proof`` a path for a DRAT proof; ``seed`` varies the first decisions.
    """

    def __init__(
        self,
        name: Optional[str] = None,
        bootstrap_with: Optional[Iterable[Iterable[int]]] = None,
        *,
        proof: Optional[str] = None,
        seed: int = 0,
        **_pysat_options: Any,
    ) -> None:
        if seed < 0:
            raise ValueError(f"the seed must be >= 0, not {seed}")
        self._budget: Optional[int] = None
        self._core = _Core(seed, proof)
        if bootstrap_with is not None:
            self.append_formula(bootstrap_with)

    @classmethod
    def from_dimacs(cls, text: str, **kwargs: Any) -> "Solver":
        """A solver holding the clauses of a DIMACS CNF text (``p cnf V C`` header, clauses
        ending in 0). Malformed text raises ``ValueError`` naming the line."""
        solver = cls(**kwargs)
        solver._core.add_dimacs(text)
        return solver

    def add_clause(self, clause: Iterable[int], no_return: bool = True) -> None:
        """Adds a clause (an iterable of nonzero ints)."""
        self._core.add_clause(_ints(clause))

    def append_formula(self, formula: Any, no_return: bool = True) -> None:
        """Adds every clause of ``formula`` (an iterable of clauses, or an object with a
        ``clauses`` attribute)."""
        clauses = getattr(formula, "clauses", formula)
        for clause in clauses:
            self._core.add_clause(_ints(clause))

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        """Whether the formula has a model with every literal of ``assumptions`` true. Then
        :meth:`get_model` gives it; otherwise :meth:`get_core` gives the assumptions that
        failed. Both answers are proven: a search that cannot finish raises instead
        (``MemoryError``, ``KeyboardInterrupt``)."""
        result = self._core.solve(_ints(assumptions), None)
        assert result is not None
        return result

    def solve_limited(self, assumptions: Iterable[int] = (), expect_interrupt: bool = False) -> Optional[bool]:
        """As :meth:`solve`, within the budget of :meth:`conf_budget`: ``None`` when it ran
        out first (and :meth:`get_status` is then ``None`` too)."""
        budget, self._budget = self._budget, None
        return self._core.solve(_ints(assumptions), budget)

    def conf_budget(self, budget: Optional[int] = -1) -> None:
        """Limits the next :meth:`solve_limited` to ``budget`` conflicts (-1: none)."""
        self._budget = None if budget is None or budget < 0 else budget

    def get_model(self) -> Optional[List[int]]:
        """The last model: for each variable 1..n, ``v`` if true, ``-v`` if false."""
        return self._core.get_model()

    def get_core(self) -> Optional[List[int]]:
        """After an unsatisfiable :meth:`solve`, the assumptions that together with the formula
        have no model (empty when the formula alone has none)."""
        return self._core.get_core()

    def get_status(self) -> Optional[bool]:
        """The answer of the last solve (``None`` before the first)."""
        return self._core.get_status()

    def enum_models(self, assumptions: Iterable[int] = (), limit: Optional[int] = None) -> Iterator[List[int]]:
        """Every model, lazily: after each, a clause blocking it is added (so the solver
        keeps them afterwards, as PySAT's does)."""
        assumptions = _ints(assumptions)
        found = 0
        while (limit is None or found < limit) and self.solve(assumptions):
            model = self.get_model()
            assert model is not None
            found += 1
            yield model
            self.add_clause([-lit for lit in model])

    def nof_vars(self) -> int:
        """The largest variable used."""
        return self._core.nof_vars()

    def nof_clauses(self) -> int:
        """The number of clauses added."""
        return self._core.nof_clauses()

    def accum_stats(self) -> Dict[str, int]:
        """Work counters: decisions, conflicts, propagations, restarts."""
        return dict(self._core.stats())

    def delete(self) -> None:
        """Flushes the proof (the solver itself is freed with the object)."""
        self._core.finish_proof()

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.delete()


def _ints(literals: Iterable[int]) -> List[int]:
    result = []
    for lit in literals:
        if isinstance(lit, bool) or not isinstance(lit, int):
            raise TypeError(f"a literal is a nonzero int, not {lit!r}")
        result.append(lit)
    return result
