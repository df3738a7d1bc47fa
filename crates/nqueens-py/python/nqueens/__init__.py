"""N-Queens every way, from Rust: ``import nqueens``.

Rows and columns are **0-based** everywhere in this package (Python's convention): a solution
is the tuple of the column of each row's queen, and a fixed queen (``fixed=``) or a blocked
square (``blocked=``: no queen may stand there) is a ``(row, col)`` pair with both in
``range(n)``. Error messages come from the Rust library and the CLI, which name
squares 1-based as ``ROW:COL``.

- :func:`solve`, :func:`solutions` (lazy), :func:`count` (an exact int, with progress),
  :func:`count_shard` / :func:`merge` (a count split over machines), :func:`verify`;
  ``fixed=`` and ``blocked=`` take any iterable of pairs (a list, a set, a generator).
- :class:`Solution`: a sequence of columns that orders and compares by them, with its
  problem's ``fixed`` queens and ``blocked`` squares, a Unicode ``str()`` (``♛`` fixed, ``×``
  blocked, as the CLI draws it), ``to_matrix()``, ``to_svg()`` and a picture in Jupyter;
  :func:`svg_grid` draws many boards at once.
- :func:`read_board`: the board of a file's text, as the CLI's ``--fix-file`` reads it (any
  board the tool writes), as keyword arguments for :func:`solve` and the others.
- :func:`trace`: a search replayed step by step (backtracking, dancing links, CP), the
  engines' own steps, as the web page shows them.
- :data:`METHODS`: the method names, what each is and which jobs it does.
- Submodules, there after ``import nqueens``: :mod:`nqueens.xc` (exact cover, as the
  ``exactcover``/``xcover`` packages), :mod:`nqueens.sat` (a CDCL SAT solver, as PySAT),
  :mod:`nqueens.cp` (constraint programming, as OR-Tools CP-SAT).
- ``__version__``: the package's version.

Long calls release the GIL, so other Python threads keep running, and answer Ctrl-C
(``KeyboardInterrupt``) within a fraction of a second.
"""

from __future__ import annotations

import json as _json
import sys as _sys
import typing as _typing

from . import cp, sat, xc
from ._nqueens import (
    METHODS,
    Solution,
    Solutions,
    Trace,
    __version__,
    _live_searches,
    _merge_json,
    count,
    count_shard,
    read_board,
    solutions,
    solve,
    svg_grid,
    trace,
    verify,
)

__all__ = [
    "METHODS",
    "Solution",
    "Solutions",
    "count",
    "count_shard",
    "cp",
    "merge",
    "read_board",
    "sat",
    "solutions",
    "solve",
    "svg_grid",
    "Trace",
    "trace",
    "verify",
    "xc",
]


def _public_dir(module: _typing.Any) -> _typing.Callable[[], _typing.List[str]]:
    """A module's ``__dir__``: its public names (``__all__``) and its dunders, not the helpers
    and typing names it imports."""
    return lambda: sorted(
        set(module.__all__) | {name for name in vars(module) if name.startswith("__")}
    )


def merge(shards: _typing.Iterable[_typing.Union[_typing.Mapping[str, _typing.Any], str]]) -> int:
    """Adds up the results of all shards of one count (dicts from :func:`count_shard`, or the
    CLI's JSON lines as strings) and returns the total number of solutions.

    Raises ``ValueError`` when the shards do not make up one count (a shard missing or given
    twice, shards of different boards or splits), with the CLI's message.
    """
    texts = [s if isinstance(s, str) else _json.dumps(dict(s)) for s in shards]
    total, _unique = _merge_json(texts)
    return total


# ``dir(nqueens)``, ``dir(nqueens.xc)`` and the rest show what the modules offer
# (module-level ``__dir__``, PEP 562).
for _module in (xc, sat, cp):
    _module.__dir__ = _public_dir(_module)
__dir__ = _public_dir(_sys.modules[__name__])
del _module
