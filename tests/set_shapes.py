"""Every set that can lie on a table, for the test-side oracles (nothing from the solver).

Runs of 3 to 5 (a longer run splits into those) and groups of 3 or 4, each with every
choice of places for up to two jokers that the rules allow (at most one in a 3-tile group).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

Cell = tuple[int, int]  # (colour 0-3, number 1-13)


def set_shapes(wrap: bool) -> Iterator[tuple[list[Cell], tuple[int, ...]]]:
    """(cells, joker spots): the set's cells in order and the positions jokers take."""
    for cells, kind in _sets(wrap):
        size = len(cells)
        for jokers in range(3):
            if kind == "group" and size == 3 and jokers > 1:
                continue
            if size - jokers < 1:
                continue
            for spots in combinations(range(size), jokers):
                yield cells, spots


def real_faces(cells: list[Cell], spots: tuple[int, ...]) -> tuple[int, ...]:
    """The faces (colour * 13 + number - 1) of the cells not taken by a joker, sorted."""
    return tuple(sorted(c * 13 + n - 1 for i, (c, n) in enumerate(cells) if i not in spots))


def _sets(wrap: bool) -> Iterator[tuple[list[Cell], str]]:
    for colour in range(4):
        for length in (3, 4, 5):
            starts = range(1, 14) if wrap else range(1, 15 - length)
            for start in starts:
                numbers = [(start + i - 1) % 13 + 1 for i in range(length)]
                yield [(colour, n) for n in numbers], "run"
    for number in range(1, 14):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                yield [(c, number) for c in colours], "group"
