"""N-Queens every way, from Rust: ``import nqueens``.

Rows and columns are **0-based** everywhere in this package (Python's convention): a solution
is the tuple of the column of each row's queen, and a fixed queen (``fixed=``) or a blocked
square (``blocked=``: no queen may stand there) is a ``(row, col)`` pair with both in
``range(n)``. Error messages come from the Rust library and the CLI, which name
squares 1-based as ``ROW:COL``.

- :func:`solve`, :func:`solutions` (lazy), :func:`count` (an exact int, with progress),
  :func:`count_shard` / :func:`merge` (a count split over machines), :func:`verify`.
- :class:`Solution`: a sequence of columns with a Unicode ``str()``, ``to_matrix()``,
  ``to_svg()`` and a picture in Jupyter; :func:`svg_grid` draws many boards at once.
- :func:`trace`: a search replayed step by step (backtracking, dancing links, CP), the
  engines' own steps, as the web page shows them.
- :data:`METHODS`: the method names, what each is and which jobs it does.
- Submodules: :mod:`nqueens.xc` (exact cover, as the ``exactcover``/``xcover`` packages),
  :mod:`nqueens.sat` (a CDCL SAT solver, as PySAT), :mod:`nqueens.cp` (constraint
  programming, as OR-Tools CP-SAT).

Long calls release the GIL, so other Python threads keep running, and answer Ctrl-C
(``KeyboardInterrupt``) within a fraction of a second.
"""

from __future__ import annotations

import json as _json
from typing import Any, Iterable, Mapping, Union

from ._nqueens import (
    METHODS,
    Solution,
    Solutions,
    Trace,
    _live_searches,
    _merge_json,
    count,
    count_shard,
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
    "merge",
    "solutions",
    "solve",
    "svg_grid",
    "Trace",
    "trace",
    "verify",
]


def merge(shards: Iterable[Union[Mapping[str, Any], str]]) -> int:
    """Adds up the results of all shards of one count (dicts from :func:`count_shard`, or the
    CLI's JSON lines as strings) and returns the total number of solutions.

    Raises ``ValueError`` when the shards do not make up one count (a shard missing or given
    twice, shards of different boards or splits), with the CLI's message.
    """
    texts = [s if isinstance(s, str) else _json.dumps(dict(s)) for s in shards]
    total, _unique = _merge_json(texts)
    return total
