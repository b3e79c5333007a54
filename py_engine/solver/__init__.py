"""The exact move solver: the play that places the most rack tiles.

Among plays placing the most rack tiles it picks those taking the most points off the rack
(face values, a joker at the rules' joker penalty wherever it stands: what a rack left at
the end of the round costs), and among those it keeps as many table sets unchanged as it
can. Before opening it lays new sets from the rack only, worth at least the threshold.

>>> from ..tiles import parse_tiles
>>> play = solve([parse_tiles("R3 R4 R5")], parse_tiles("R6 J B1"), opened=True)
>>> [[t.code for t in row] for row in play.table], [t.code for t in play.placed], play.value
([['R3', 'R4', 'R5', 'R6', 'J']], ['R6', 'J'], 36)
>>> solve([], parse_tiles("R10 B10 K10 R1"), opened=False).value
30

How it works: a dynamic program over the numbers 1..13 (after van Rijn, Takes and Vis,
2015). Going up the numbers, the state holds, for each colour, the lengths (0, 1, 2 or
"3 or more") of the at most two runs of that colour still open, and how many jokers have
been used. At each number every tile of that number either extends or starts a run or
goes into a group of that number; groups are closed at once. Table tiles must all be used,
rack tiles may be. The states are searched depth first with branch and bound: a state's
potential is its score plus an upper bound on what can follow (each colour on its own,
computed backwards once per colour, with the jokers shared out among the colours), so the
best play is usually found first and then proved. Wrap-around runs add "tail" runs that
start at 1 and "head" runs that must reach 13, matched up per colour; as the numbers then
make a circle, a search that runs long gives up and the circle is cut elsewhere (the
numbers renamed, their values kept), until one search ends within its budget. Locked
joker sets are taken out of the search, each joker either left alone or swapped for a
tile it stands for. Fewest sets changed comes last: with the play's placed tiles, the
table sets to break are searched exactly by iterative deepening (``_Fewest``) when few
placed tiles share sets with table tiles, within a budget; otherwise table sets are kept
whole where the play's own arrangement easily allows (``_keep_sets``).

The modules, each importing only those before it: ``problem`` (a position as copies per
face, and the ``Play`` answered), ``moves`` (a colour's run states and its moves at one
number), ``bounds`` (the per-colour bounds), ``dp`` (the branch and bound), ``search``
(where every search starts; the cuts of the wrap-around circle), ``read_back`` (a search's
path back into sets of tiles), ``arrange``, ``fewest`` and ``keep`` (fewest table sets
changed), ``opened`` and ``locked`` (the play once opened, and with locked joker sets),
``greedy`` (a play found greedily, for ``can_play``); this one holds the entry points.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from ..rules import Rules
from ..sets import read_set
from ..tiles import Tile
from .arrange import _TRIES, _TRIES_BY_SHAPE
from .bounds import _REACH, _RELAXED, _ROOMS, _group_room, _number_rooms, clear_bound_cache
from .dp import _TEMPLATES, closed_states
from .fewest import _THREES
from .greedy import _easy_score
from .locked import _jokers_locked, _solve_locked
from .moves import _FINAL_OK, _MOVE_LIST, _MOVES_CACHE
from .opened import _solve_open
from .problem import SCALE, Play, SolverInputError, _counts, _each_could_fit, _Problem
from .read_back import _ORDERED_ACTIONS, _assign, _read_back
from .search import _GAVE_UP, _search

__all__ = [
    "Play",
    "SolverInputError",
    "arrangeable",
    "can_play",
    "clear_bound_cache",
    "clear_caches",
    "closed_states",
    "solve",
]


_DEFAULT_RULES = Rules()  # (frozen: one for every call given none)


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    *,
    opened: bool,
    rules: Rules | None = None,
    threshold: int | None = None,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    """The best play for this position (see the module docstring for "best").

    ``threshold`` is the opening total needed (default ``rules.opening``). With
    ``layout=False`` the table sets changed are not kept fewest: the same tiles go down
    (same count and value; under locked jokers, possibly other tiles of the same count and
    value), laid out in some valid arrangement. For look-ahead that reads only which tiles
    are placed: in the expert's, the layout took about half the time.

    ``effort`` bounds the work: the solve's searches together (the play's, every way of
    swapping locked jokers, the layout's) give up after closing the groups of that many
    states (a count, so the answer does not depend on the clock) and answer the best play
    found by then, which is usually the best but may place fewer tiles, or none, with
    ``proven`` False. Without it the answer is exact however long it takes: a few
    positions built to be slow (an unopened rack of 34 low tiles, no opening to find)
    take minutes. The hint and every computer level use it, the expert's rollouts with a
    small one: a rollout only estimates."""
    if effort is not None and effort < 0:
        raise SolverInputError("the effort must be a count of states, 0 or more")
    given_up = _GAVE_UP[0]
    with _gc_paused():
        play = _solve(table, rack, opened, rules, threshold, layout, effort)
    return play if _GAVE_UP[0] == given_up else replace(play, proven=False)


def can_play(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules | None = None,
    effort: int | None = None,
) -> bool:
    """Whether a player who has opened can place any rack tile: ``solve(...).found``,
    sooner. A play found greedily answers at once (about 4 in 5 racks that have a play,
    sampled for a bot's opponent); otherwise the search stops at the first play it meets
    instead of proving the best. With ``effort`` (look-ahead, as in ``solve``: all its
    searches together) a search that gives up before meeting a play answers False.

    >>> from ..tiles import parse_tiles
    >>> can_play([parse_tiles("R3 R4 R5")], parse_tiles("B1 R6")), can_play([], parse_tiles("B1"))
    (True, False)
    """
    rules = rules or _DEFAULT_RULES
    table, rack = _position(table, rack)
    if not rack:
        return False
    # A tile added greedily: most plays, found at once. The greedy play leaves every set
    # holding a joker as it is, so it is a play under locked jokers and wrap-around too.
    if _easy_score(table, rack) >= SCALE:
        return True
    if not _jokers_locked(table, rules):
        return _any_play(table, rack, rules, effort)
    # Locked: most plays leave the joker sets alone, and those are found without the
    # swaps; the full search answers the rest.
    start = closed_states()
    free = [row for row in table if not any(t.is_joker for t in row)]
    if _any_play(free, rack, rules, effort):
        return True
    left = None if effort is None else effort - (closed_states() - start)
    if left is not None and left <= 0:
        return False
    return solve(table, rack, opened=True, rules=rules, layout=False, effort=left).found


def arrangeable(
    tiles: Sequence[Tile], rules: Rules | None = None, effort: int | None = None
) -> list[list[Tile]] | None:
    """An arrangement of all ``tiles`` into valid sets, or None when there is none (with
    ``effort``, as in ``solve``: or when the search gave up before finding one).

    >>> from ..tiles import parse_tiles
    >>> [[t.code for t in row] for row in arrangeable(parse_tiles("R1 R2 R3 J B3 Y3"))]
    [['B3', 'Y3', 'J'], ['R1', 'R2', 'R3']]
    """
    rules = rules or _DEFAULT_RULES
    if not tiles:
        return []
    counts, jokers = _counts(tiles)
    if not _each_could_fit(counts, jokers, rules.wrap_runs):
        return None
    problem = _Problem(counts, [0] * len(counts), jokers, 0, rules.wrap_runs)
    result = _search(problem, effort=effort)
    if result is None:
        return None
    shapes = _read_back(problem, result)
    rows, _ = _assign(shapes, tiles, [])
    return rows


def clear_caches() -> None:
    """Forget all that earlier solves kept: the bounds, and the tables of moves, steps and
    options built as positions needed them, as in a new process (for a benchmark that
    times the same positions again; the answers never depend on them). The closings and
    closable tables stay: a new process makes them all at import."""
    clear_bound_cache()
    kept_tables = (_REACH, _RELAXED, _TEMPLATES)
    for kept in (*kept_tables, _MOVES_CACHE, _FINAL_OK, _TRIES, _TRIES_BY_SHAPE, _THREES):
        kept.clear()
    _MOVE_LIST.clear()  # the options naming moves by index are all forgotten above
    _ORDERED_ACTIONS.clear()
    _number_rooms.cache_clear()
    _group_room.cache_clear()
    for rooms in _ROOMS:
        rooms[:] = [None] * len(rooms)


def _solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    opened: bool,
    rules: Rules | None,
    threshold: int | None,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    rules = rules or _DEFAULT_RULES
    threshold = rules.opening if threshold is None else threshold
    table, rack = _position(table, rack)
    if not rack:
        return Play(table, [], 0)
    if not opened:
        return _solve_opening(table, rack, rules, threshold, effort)
    if _jokers_locked(table, rules):
        return _solve_locked(table, rack, rules, layout, effort)
    return _solve_open(table, rack, rules, layout=layout, effort=effort) or Play(table, [], 0)


def _solve_opening(
    table: list[list[Tile]], rack: list[Tile], rules: Rules, threshold: int, effort: int | None
) -> Play:
    counts, jokers = _counts(rack)
    cap = max(threshold, 0)
    problem = _Problem(
        [0] * len(counts), counts, 0, jokers, rules.wrap_runs, cap, 0, rules.joker_penalty
    )
    result = _search(problem, SCALE - 1, effort=effort)
    if result is None or result.score < SCALE:
        return Play(table, [], 0, notes=("no opening",))
    shapes = _read_back(problem, result)
    rows, placed = _assign(shapes, [], rack)
    # The opening total, a joker counting as the tile it stands for (the search tracked
    # it up to the threshold; its score counted the points off the rack).
    value = sum(read_set(row, rules.wrap_runs).value for row in rows)
    return Play([*table, *rows], placed, value)


def _any_play(
    table: list[list[Tile]], rack: list[Tile], rules: Rules, effort: int | None = None
) -> bool:
    """Whether the rack can place a tile on ``table`` (all of whose sets may be
    rearranged): the search stops at the first play it meets."""
    tcounts, tj = _counts([t for row in table for t in row])
    rcounts, rj = _counts(rack)
    problem = _Problem(tcounts, rcounts, tj, rj, rules.wrap_runs)
    with _gc_paused():
        result = _search(problem, SCALE - 1, enough=SCALE, effort=effort)
    return result is not None and result.score >= SCALE


def _position(
    table: Sequence[Sequence[Tile]], rack: Sequence[Tile]
) -> tuple[list[list[Tile]], list[Tile]]:
    """The table and rack as fresh lists, once checked that no tile is in two places."""
    table = [list(row) for row in table]
    rack = list(rack)
    ids = [t.id for row in table for t in row] + [t.id for t in rack]
    if len(set(ids)) != len(ids):
        raise SolverInputError("a tile appears twice in the position")
    return table, rack


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off meanwhile (as it was found, after): the search
    makes many short-lived tuples and dicts that reference counting frees, and the
    collector would only scan them again and again."""
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            if not gc.get_freeze_count():
                # What the solve made and kept (the new entries of its tables, thousands
                # of tuples) goes straight to the oldest generation, with the young
                # generation's count set back: a young collection as soon as the
                # collector is on again would only scan it once more, at every solve.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
