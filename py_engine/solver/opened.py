"""The best play once opened (``_solve_open``): table and rack searched together, then
the play laid out to change as few table sets as it can: the rack tiles it places, read
from the search's path, joined to one table set as it stands when they can be, else laid
out with the fewest table sets broken (``_Fewest``, first within a small budget); failing
that, the search's own arrangement is read back into tiles and laid out from there.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules
from ..sets import read_set, valid_ids
from ..tiles import Face, Tile, face_signature
from .arrange import _GiveUp
from .dp import SH_RJ, closed_states
from .fewest import FEWEST_TILES, QUICK, _Fewest, _fewest_changed
from .keep import _changed, _keep_sets
from .problem import _NUMBERS, COLOURS, NEG, SCALE, N, Play, _counts, _Problem, _Result
from .read_back import _assign, _read_back
from .search import _search


def _solve_open(
    table: list[list[Tile]],
    rack: list[Tile],
    rules: Rules,
    fixed: Sequence[Sequence[Tile]] = (),
    demand: Sequence[tuple[Face, int, int]] = (),
    loose: Sequence[Tile] = (),
    beat: int = NEG,
    layout: bool = True,
    effort: int | None = None,
) -> Play | None:
    """After opening: ``table`` sets may be rearranged, ``fixed`` sets stay (first in the
    answer). Each ``demand`` (face, fixed set, position) takes a tile of that face out of
    the tiles to put it in that place (a locked joker swapped for its tile); ``loose``
    table tiles (freed jokers) must end in a set. Returns None when nothing can be placed,
    or nothing scoring (tiles * SCALE + value) at least ``beat``. ``layout=False`` skips
    keeping table sets whole, and ``effort`` bounds the search and the layout together
    (see ``solve``)."""
    start = closed_states()
    table_tiles = [t for row in table for t in row] + list(loose)
    tcounts, tj = _counts(table_tiles)
    rcounts, rj = _counts(rack)
    fixed_rows = [list(row) for row in fixed]
    taken = _take_demanded(demand, table_tiles, rack, tcounts, rcounts, fixed_rows)
    if taken is None:
        return None
    forced_rack, taken_ids = taken
    problem = _Problem(tcounts, rcounts, tj, rj, rules.wrap_runs, joker=rules.joker_penalty)
    forced = sum(SCALE + t.number for t in forced_rack)  # type: ignore[operator]
    if forced_rack:
        result = _search(problem, beat - forced - 1 if beat > NEG else NEG, effort=effort)
    else:
        # (A greedy play's score as the floor, as ``can_play`` finds one, cost more on
        # most positions than the branches it cut saved: the median solve was about 5%
        # slower with it, the slowest tenth about 4% faster.)
        result = _search(problem, max(SCALE - 1, beat - 1), effort=effort)
    if result is None:
        return None
    if result.score < SCALE and not forced_rack:
        return None
    value = result.score % SCALE + sum(t.number for t in forced_rack)  # type: ignore[misc]
    if layout and not (demand or loose):
        # Few tiles placed: the table sets to break are searched for them all at once,
        # without reading the search's own arrangement back first.
        placed = _placed_tiles(result, rack)
        if len(placed) < 3:
            # Fewer than three tiles cannot make a set of their own: a table set they
            # all join, as it stands, changes fewest sets.
            joined = _join_one_set(table, placed, rules.wrap_runs)
            if joined is not None:
                return Play([*fixed_rows, *joined], placed, value, 1)
        if len(placed) <= FEWEST_TILES:
            found = _fewest_for(table, placed, rules, effort, start)
            if found is not None:
                return Play([*fixed_rows, *found[0]], placed, value, found[1])
    sigs = [face_signature(row) for row in table]
    shapes = _read_back(problem, result)
    rest_table = [t for t in table_tiles if t.id not in taken_ids]
    rest_rack = [t for t in rack if t.id not in taken_ids]
    rows, placed = _assign(shapes, rest_table, rest_rack)
    kept: list[list[Tile]] = []
    changed = _changed(sigs, rows)
    if changed and layout:
        # Fewest table sets changed: exactly when the search can say (see ``_Fewest``),
        # else as many sets kept whole as the play's own arrangement easily allows.
        fewest = (
            None
            if demand or loose
            else _fewest_changed(
                table,
                rows,
                placed,
                rules,
                changed,
                None if effort is None else effort - (closed_states() - start),
            )
        )
        if fewest is not None:
            if fewest is not rows:
                rows, changed = fewest, _changed(sigs, fewest)
        else:
            kept, rows = _keep_sets(table, sigs, rows, taken_ids, rules)
            changed = _changed(sigs, [*kept, *rows])
    return Play([*fixed_rows, *kept, *rows], [*forced_rack, *placed], value, changed)


def _placed_tiles(result: _Result, rack: list[Tile]) -> list[Tile]:
    """The rack tiles a search's play places, read from its path (the real rack tiles
    each step places, and the rack jokers its final state has used), first copies first."""
    numbers = _NUMBERS[result.shift]
    want = [0] * (COLOURS * N)
    for i, option in enumerate(result.path):
        if option[2]:
            want[(i & 3) * N + numbers[(i >> 2) + 1] - 1] += option[2]
    jokers = (result.final >> SH_RJ) & 3
    placed = []
    for tile in rack:
        if tile.id >= 104:
            if jokers:
                jokers -= 1
                placed.append(tile)
        elif want[tile.id % 52]:
            want[tile.id % 52] -= 1
            placed.append(tile)
    return placed


def _join_one_set(
    table: list[list[Tile]], placed: list[Tile], wrap: bool
) -> list[list[Tile]] | None:
    """The table with the first set that all of ``placed`` can join laid out with them
    (in its place), or None when no set can take them all."""
    ids = [t.id for t in placed]
    for s, row in enumerate(table):
        if valid_ids([*(t.id for t in row), *ids], wrap):
            return [*table[:s], list(read_set([*row, *placed], wrap).tiles), *table[s + 1 :]]
    return None


def _fewest_for(
    table: list[list[Tile]], placed: list[Tile], rules: Rules, effort: int | None, start: int
) -> tuple[list[list[Tile]], int] | None:
    """The final table changing fewest table sets for ``placed`` (``_Fewest``, within the
    QUICK budget) and the table sets it changes, or None when its search gives up (its
    budget, or the solve's ``effort`` left)."""
    fewest = _Fewest(
        table,
        placed,
        rules,
        None if effort is None else effort - (closed_states() - start),
        QUICK,
    )
    try:
        # (Breaking every set always works: the search laid all the tiles out.)
        answer = fewest.search(len(table) + 1)
    except _GiveUp:
        return None
    if answer is None:
        return None
    rows = fewest.play(answer)
    # The sets kept come first; a set broken is changed unless laid out again as it was.
    broken = [face_signature(table[s]) for s in answer[0]]
    return rows, _changed(broken, rows[len(table) - len(broken) :])


def _take_demanded(
    demand: Sequence[tuple[Face, int, int]],
    table_tiles: list[Tile],
    rack: list[Tile],
    tcounts: list[int],
    rcounts: list[int],
    fixed_rows: list[list[Tile]],
) -> tuple[list[Tile], set[int]] | None:
    """Put a tile of each ``demand`` face into its place in ``fixed_rows``, taken out of
    the counts: (the rack tiles so taken, the ids of all taken), or None when a face has
    no tile left."""
    forced_rack: list[Tile] = []
    taken_ids: set[int] = set()
    for face, fi, pos in demand:
        f = int(face.colour) * N + face.number - 1  # type: ignore[arg-type, operator]
        # A table copy is never worse: the rack copy can stand in for it elsewhere.
        if tcounts[f]:
            tcounts[f] -= 1
            tile = next(t for t in table_tiles if t.face == face and t.id not in taken_ids)
        elif rcounts[f]:
            rcounts[f] -= 1
            tile = next(t for t in rack if t.face == face and t.id not in taken_ids)
            forced_rack.append(tile)
        else:
            return None
        taken_ids.add(tile.id)
        fixed_rows[fi][pos] = tile
    return forced_rack, taken_ids
