"""Exact cover (Knuth's Algorithm X with dancing links, and colours), from Rust.

Options are given the way Python users write them: a mapping from any hashable label to an
iterable of hashable items, or a list of item lists (labelled by their 0-based index). Items
listed in ``secondary`` may be covered at most once instead of exactly once, and an option may
give a secondary item a colour as ``(item, colour)``: options that agree on the colour can share
the item. Everything else is primary. Solutions are lists of option labels.

Three shapes are offered:

- :class:`ExactCover` (this package's own, also the ``exactcover`` package's shape: the object
  is itself an iterator over solutions, ``random=True`` shuffles the search);
- ``ExactCover.from_dlx(text)`` for Knuth's text format;
- :class:`Problem` / :class:`Solver` in the ``xcover``-style shape with ``add_row`` and
  ``solve_single``/``solve`` returning rows as sets of items.

Searches run in Rust with the GIL released and answer Ctrl-C. A problem that cannot be built (an
option with no item, an unhashable label or item, an unknown item, an item twice in an option, a
malformed text) raises ``ValueError`` with the library's message.
"""

from __future__ import annotations

import random as _random
from typing import Any, Dict, Hashable, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union

from ._nqueens import Compiled as _Compiled

__all__ = ["ExactCover", "Problem", "Solver"]

_RESERVED = set(" \t\r\n\v\f:|")


def _name(label: Any, taken: Set[str], fallback: str) -> str:
    """A name for the text format: the label's str() when it is usable and new."""
    text = str(label)
    if text and len(text) <= 64 and not (_RESERVED & set(text)) and text not in taken:
        return text
    name = fallback
    while name in taken:
        name += "'"
    return name


class ExactCover:
    """An exact cover problem (see the module documentation).

    ``ExactCover(options, *, secondary=(), primary=None, random=False, seed=None)``

    - ``options``: a mapping ``label -> items`` or a sequence of item lists (labels 0, 1, ...).
    - ``secondary``: the secondary items; an option gives one a colour as ``(item, colour)``.
    - ``primary``: the primary items, to fix their order (ties in the search go to the earlier
      one) or to require items no option covers (then there is no solution); by default every
      item met in the options that is not secondary, in order of appearance.
    - ``random`` / ``seed``: the order used when the object itself is iterated (``next(ec)``):
      ``random=True`` draws a seed, ``seed=k`` repeats one.
    """

    def __init__(
        self,
        options: Union[Mapping[Hashable, Iterable[Hashable]], Sequence[Iterable[Hashable]]],
        *,
        secondary: Iterable[Hashable] = (),
        primary: Optional[Iterable[Hashable]] = None,
        random: bool = False,
        seed: Optional[int] = None,
    ) -> None:
        try:
            pairs = list(options.items()) if isinstance(options, Mapping) else list(enumerate(options))
            secondary_items = list(dict.fromkeys(secondary))
            secondary_set = set(secondary_items)
            primary_items: List[Hashable] = [] if primary is None else list(dict.fromkeys(primary))
            index: Dict[Hashable, int] = {item: i for i, item in enumerate(primary_items)}
            known_primary = primary is not None
            rows: List[List[Tuple[int, int]]] = []
            colours: Dict[Hashable, int] = {}
            pending: List[List[Tuple[str, Hashable, Optional[int]]]] = []
            for label, items in pairs:
                hash(label)
                if isinstance(items, (str, bytes)):
                    items = [items]
                entries: List[Tuple[str, Hashable, Optional[int]]] = []
                for entry in items:
                    if entry in secondary_set:
                        entries.append(("s", entry, None))
                    elif (
                        isinstance(entry, tuple)
                        and len(entry) == 2
                        and entry[0] in secondary_set
                        and entry not in index
                    ):
                        colour = colours.setdefault(entry[1], len(colours))
                        entries.append(("s", entry[0], colour))
                    else:
                        if entry not in index:
                            if known_primary:
                                raise ValueError(f"option {label!r}: unknown item {entry!r}")
                            index[entry] = len(primary_items)
                            primary_items.append(entry)
                        entries.append(("p", entry, None))
                pending.append(entries)
        except TypeError as error:
            raise ValueError(f"labels and items must be hashable: {error}") from None
        n_primary = len(primary_items)
        secondary_index = {item: n_primary + i for i, item in enumerate(secondary_items)}
        for entries in pending:
            rows.append(
                [
                    (index[item] if kind == "p" else secondary_index[item], -1 if colour is None else colour)
                    for kind, item, colour in entries
                ]
            )
        taken: Set[str] = set()
        names = []
        for i, item in enumerate(primary_items + secondary_items):
            name = _name(item, taken, f"#{i}")
            taken.add(name)
            names.append(name)
        colour_taken: Set[str] = set()
        colour_names = []
        for i, colour_label in enumerate(colours):
            name = _name(colour_label, colour_taken, f"c{i}")
            colour_taken.add(name)
            colour_names.append(name)
        labels = [label for label, _ in pairs]
        self._labels: Dict[Any, int] = {label: i for i, label in enumerate(labels)}
        self._items = primary_items + secondary_items
        self._compiled = _Compiled.build(
            names, n_primary, colour_names, rows, labels, [repr(label) for label in labels]
        )
        self._init_order(random, seed)

    def _init_order(self, random: bool, seed: Optional[int]) -> None:
        if seed is None and random:
            seed = _random.getrandbits(64)
        self._seed = seed
        self._iterator: Optional[Iterator[List[Any]]] = None

    @classmethod
    def from_dlx(cls, text: str, *, random: bool = False, seed: Optional[int] = None) -> "ExactCover":
        """A problem in Knuth's text format (as the CLI's ``xc`` reads it): the first line lists
        the primary items, then ``|`` and the secondary items; each later line is an option
        (``item`` or ``item:colour`` tokens); ``|`` starts a comment line. Options are labelled
        0, 1, 2, ... (0-based) in order; ``option_text(label)`` gives an option back."""
        self = cls.__new__(cls)
        self._compiled = _Compiled.parse(text)
        self._labels = {i: i for i in range(self._compiled.option_count())}
        primary, secondary = self._compiled.item_names()
        self._items = [*primary, *secondary]
        self._init_order(random, seed)
        return self

    def option_text(self, label: int) -> str:
        """The option labelled ``label`` (0-based, for problems from :meth:`from_dlx`) in the
        text format."""
        return self._compiled.option_text(label)

    def _selected(self, select: Iterable[Any]) -> List[int]:
        """The option indices of the labels in ``select``."""
        indices = []
        for label in select:
            try:
                indices.append(self._labels[label])
            except (KeyError, TypeError):
                raise ValueError(f"select: there is no option labelled {label!r}") from None
        return indices

    def solutions(
        self, *, limit: Optional[int] = None, seed: Optional[int] = None, select: Iterable[Any] = ()
    ) -> Iterator[List[Any]]:
        """The solutions, lazily, as lists of option labels (in the order the search chose
        them). ``seed`` randomises the order of the search (the same seed, the same order);
        ``limit`` stops after that many. ``select`` puts the options with these labels into
        every solution first, as the write-ups do for queens already on the board (an option
        that clashes with another selected one raises ``ValueError``). Breaking out of the loop
        stops the search."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        if seed is not None and seed < 0:
            raise ValueError(f"the seed must be >= 0, not {seed}")
        return self._compiled.solutions(limit, seed, self._selected(select))

    def first(self, seed: Optional[int] = None, select: Iterable[Any] = ()) -> Optional[List[Any]]:
        """One solution (a list of labels) containing the ``select`` options, or ``None``.

        Without a seed the search races orders: the declared order for a while, then a random
        one for as long, each round twice as long, the declared order resuming where it
        paused. A problem whose declared order is slow by accident (the N-Queens items in
        natural order: minutes at n = 64) is solved in milliseconds, at worst it costs about
        twice the plain search, and the answer is the same every time. ``solutions()`` keeps
        the declared order; with a seed, ``first`` is the first solution of that seed's order."""
        if seed is not None and seed < 0:
            raise ValueError(f"the seed must be >= 0, not {seed}")
        return self._compiled.first(seed, self._selected(select))

    def count(self, select: Iterable[Any] = ()) -> int:
        """The number of solutions (an exact int) containing the ``select`` options."""
        return self._compiled.count(None, self._selected(select))

    @property
    def stats(self) -> Dict[str, int]:
        """The counters of the last search: ``nodes`` (items branched on), ``updates`` (link
        updates, as Knuth counts them), ``solutions`` and ``restarts`` (random orders that
        :meth:`first` tried and gave up)."""
        return self._compiled.stats()

    @property
    def items(self) -> List[Any]:
        """The items, primary first."""
        return list(self._items)

    def __iter__(self) -> "ExactCover":
        return self

    def __next__(self) -> List[Any]:
        if self._iterator is None:
            self._iterator = self.solutions(seed=self._seed)
        return next(self._iterator)


class Problem:
    """An exact cover problem built row by row: ``Problem(primary, secondary=())`` then
    ``add_row(items)`` for each option (rows are numbered from 0 in order)."""

    def __init__(self, primary: Iterable[Hashable], secondary: Iterable[Hashable] = ()) -> None:
        self.primary = list(primary)
        self.secondary = list(secondary)
        self.rows: List[List[Hashable]] = []
        # The items add_row checks against, rebuilt when the item lists grow.
        self._known: Set[Hashable] = set()
        self._known_sizes = (-1, -1)

    def add_row(self, items: Iterable[Hashable]) -> int:
        """Adds an option; returns its 0-based row number. Every item must be one of the
        primary or secondary items (a secondary one may come as ``(item, colour)``): an unknown
        item raises ``ValueError`` here, at the row that names it."""
        row = list(items)
        if self._known_sizes != (len(self.primary), len(self.secondary)):
            self._known = set(self.primary) | set(self.secondary)
            self._known_sizes = (len(self.primary), len(self.secondary))
        known = self._known
        for entry in row:
            try:
                ok = entry in known or (
                    isinstance(entry, tuple) and len(entry) == 2 and entry[0] in self.secondary
                )
            except TypeError as error:
                raise ValueError(f"row {len(self.rows)}: items must be hashable: {error}") from None
            if not ok:
                raise ValueError(
                    f"row {len(self.rows)}: unknown item {entry!r} (not among the primary or secondary items)"
                )
        self.rows.append(row)
        return len(self.rows) - 1

    def _cover(self) -> ExactCover:
        return ExactCover(self.rows, primary=self.primary, secondary=self.secondary)


class Solver:
    """Solves a :class:`Problem`: ``Solver(limit=None)``; ``solve_single(problem)`` gives one
    solution, ``solve(problem)`` a list of up to ``limit`` of them. A solution is a list of rows,
    each row the set of its items."""

    def __init__(self, limit: Optional[int] = None, seed: Optional[int] = None) -> None:
        self.limit = limit
        self.seed = seed

    def _rows(self, problem: Problem, labels: List[int]) -> List[Set[Hashable]]:
        return [set(problem.rows[i]) for i in labels]

    def solve_single(self, problem: Problem) -> Optional[List[Set[Hashable]]]:
        """One solution, or ``None``."""
        found = problem._cover().first(seed=self.seed)
        return None if found is None else self._rows(problem, found)

    def solve(self, problem: Problem) -> List[List[Set[Hashable]]]:
        """Up to ``limit`` solutions (all when ``limit`` is ``None``). With ``limit=1`` this is
        :meth:`solve_single`'s search, fast whatever the order of the items."""
        if self.limit == 1:
            found = self.solve_single(problem)
            return [] if found is None else [found]
        cover = problem._cover()
        return [self._rows(problem, s) for s in cover.solutions(limit=self.limit, seed=self.seed)]
