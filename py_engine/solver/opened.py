"""The best play once opened (``_solve_open``): table and rack searched together, the
answer read back into tiles, then laid out to change as few table sets as it can.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules
from ..tiles import Face, Tile, face_signature
from .dp import closed_states
from .fewest import _fewest_changed
from .keep import _changed, _keep_sets
from .problem import NEG, SCALE, N, Play, _counts, _Problem
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
    shapes = _read_back(problem, result)
    rest_table = [t for t in table_tiles if t.id not in taken_ids]
    rest_rack = [t for t in rack if t.id not in taken_ids]
    rows, placed = _assign(shapes, rest_table, rest_rack)
    kept: list[list[Tile]] = []
    sigs = [face_signature(row) for row in table]
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
    value = result.score % SCALE + sum(t.number for t in forced_rack)  # type: ignore[misc]
    return Play([*fixed_rows, *kept, *rows], [*forced_rack, *placed], value, changed)


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
