"""An exact oracle for the solver's third tie-break: the fewest table sets changed.

Test-side only; it shares nothing with the solver's search. Like the integer program of
tests/test_solver_oracle.py it lists every set that can lie on a table (runs of 3 to 5,
groups of 3 or 4, up to two jokers where the rules allow) and chooses how many of each to
lay. On top of those generic sets, each ORIGINAL table set ``s`` gets a binary ``keep_s``:
"set ``s`` is still on the table exactly as it was". A kept set uses exactly its own faces
(copies of one face are interchangeable, and so are the two jokers); every other table tile
must end in a generic set, rack tiles may. The solver counts a table set as kept when a set
of its answer has the same faces (jokers as one face), so a generic set that happens to
repeat an original one would count as kept too: the oracle's maximum of the ``keep_s`` is
the right number to compare with ``len(table) - play.changed``.

The objective is the solver's, lexicographically, in three integer programs solved to
optimality (``mip_rel_gap`` 0):

1. most rack tiles placed;
2. with that count, the most points taken off the rack: rack tiles at face value and each
   rack joker at the rules' joker penalty, wherever it stands. Table jokers and rack jokers
   are two rows, and each set (generic or kept) comes in one version per number of rack
   jokers in it;
3. with count and value fixed, most original sets kept.

Only positions after opening (before it the table is left alone) and without locked jokers.
Wrap-around runs are supported (runs may pass from 13 to 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from set_shapes import real_faces, set_shapes

from py_engine.rules import Rules
from py_engine.sets import read_set
from py_engine.tiles import Tile

FACES = 52
TABLE_JOKER = 52  # row of the table jokers
RACK_JOKER = 53  # row of the rack jokers
ROWS = 54


def face_index(tile: Tile) -> int:
    """0..51 for a numbered tile (colour * 13 + number - 1)."""
    return int(tile.colour) * 13 + tile.number - 1  # type: ignore[arg-type, operator]


def face_code(index: int) -> str:
    return "RBYK"[index // 13] + str(index % 13 + 1)


@dataclass(frozen=True)
class Template:
    """One generic set: its real faces, table jokers, rack jokers, and a readable layout
    (codes, ``J`` for a joker)."""

    faces: tuple[int, ...]
    table_jokers: int
    rack_jokers: int
    codes: tuple[str, ...]


@cache
def templates(wrap: bool) -> tuple[Template, ...]:
    """Every generic set, one per (faces, table jokers, rack jokers)."""
    best: dict[tuple, Template] = {}
    for cells, spots in set_shapes(wrap):
        faces = real_faces(cells, spots)
        jokers = len(spots)
        codes = tuple(
            "J" if i in spots else face_code(c * 13 + n - 1) for i, (c, n) in enumerate(cells)
        )
        for rack_jokers in range(jokers + 1):
            key = (faces, jokers - rack_jokers, rack_jokers)
            best.setdefault(key, Template(faces, jokers - rack_jokers, rack_jokers, codes))
    return tuple(best.values())


@dataclass
class OracleAnswer:
    count: int  # rack tiles placed
    value: int  # value placed
    kept: int  # original table sets kept (maximum)
    changed: int  # len(table) - kept: the fewest table sets changed
    arrangement: list[list[str]]  # the final table, in codes (kept sets first)
    kept_sets: list[int]  # indices of the original sets kept


def _kept_versions(row: Sequence[Tile], wrap: bool, rack_jokers: int) -> range:
    """The rack jokers a kept set may hold: one version for each way its jokers split
    between table and rack jokers."""
    assert read_set(row, wrap).valid, [t.code for t in row]
    return range(min(sum(t.is_joker for t in row), rack_jokers) + 1)


def min_changed(
    table: Sequence[Sequence[Tile]], rack: Sequence[Tile], rules: Rules | None = None
) -> OracleAnswer:
    """The best play after opening by (tiles placed, value placed, sets kept), exactly."""
    rules = rules or Rules()
    if rules.locked_jokers:
        raise ValueError("the locked-joker variant is not modelled")
    wrap = rules.wrap_runs
    gens = templates(wrap)
    table_count = np.zeros(ROWS)
    rack_count = np.zeros(ROWS)
    for row in table:
        for t in row:
            table_count[TABLE_JOKER if t.is_joker else face_index(t)] += 1
    for t in rack:
        rack_count[RACK_JOKER if t.is_joker else face_index(t)] += 1
    rack_jokers = int(rack_count[RACK_JOKER])

    # Columns: generic sets (0..2 each), kept-set versions (binary), rack tiles used per face.
    columns: list[np.ndarray] = []
    values: list[float] = []
    counts: list[float] = []  # rack tiles each column places (rack jokers only; faces below)
    upper: list[float] = []
    for g in gens:
        if g.rack_jokers > rack_jokers:
            continue
        col = np.zeros(ROWS)
        for f in g.faces:
            col[f] += 1
        col[TABLE_JOKER] = g.table_jokers
        col[RACK_JOKER] = g.rack_jokers
        columns.append(col)
        values.append(g.rack_jokers * rules.joker_penalty)
        counts.append(g.rack_jokers)
        upper.append(2)
    used_gens = [g for g in gens if g.rack_jokers <= rack_jokers]
    n_gen = len(columns)
    kept_cols: list[tuple[int, int]] = []  # (original set, rack jokers in it)
    for s, row in enumerate(table):
        jokers = sum(t.is_joker for t in row)
        for b in _kept_versions(row, wrap, rack_jokers):
            col = np.zeros(ROWS)
            for t in row:
                if not t.is_joker:
                    col[face_index(t)] += 1
            col[TABLE_JOKER] = jokers - b
            col[RACK_JOKER] = b
            columns.append(col)
            values.append(b * rules.joker_penalty)
            counts.append(b)
            upper.append(1)
            kept_cols.append((s, b))
    n_sets = len(columns)
    # Rack tiles used, one column per face: the sets' faces = table faces + rack faces used.
    for f in range(FACES):
        col = np.zeros(ROWS)
        col[f] = -1
        columns.append(col)
        values.append(f % 13 + 1)
        counts.append(1)
        upper.append(rack_count[f])
    matrix = np.column_stack(columns)
    n = matrix.shape[1]
    value_row = np.array(values, dtype=float)
    count_row = np.array(counts, dtype=float)
    keep_row = np.zeros(n)
    keep_row[n_gen:n_sets] = 1

    rows = [matrix[:FACES], matrix[TABLE_JOKER : TABLE_JOKER + 1], matrix[RACK_JOKER:]]
    lower = [table_count[:FACES], table_count[TABLE_JOKER:RACK_JOKER], np.zeros(1)]
    high = [table_count[:FACES], table_count[TABLE_JOKER:RACK_JOKER], np.array([rack_jokers])]
    # At most one version of each kept set.
    for s in range(len(table)):
        row = np.zeros(n)
        for k, (s2, _) in enumerate(kept_cols):
            if s2 == s:
                row[n_gen + k] = 1
        rows.append(row[None, :])
        lower.append(np.zeros(1))
        high.append(np.ones(1))
    bounds = Bounds(np.zeros(n), np.array(upper, dtype=float))
    integrality = np.ones(n)
    options = {"mip_rel_gap": 0.0}

    def best(objective: np.ndarray) -> tuple[int, np.ndarray]:
        constraint = LinearConstraint(np.vstack(rows), np.concatenate(lower), np.concatenate(high))
        result = milp(
            -objective,
            constraints=constraint,
            integrality=integrality,
            bounds=bounds,
            options=options,
        )
        if result.status == 4:
            # HiGHS now and then stops with "Solve error" after presolve; once more without it.
            result = milp(
                -objective,
                constraints=constraint,
                integrality=integrality,
                bounds=bounds,
                options={**options, "presolve": False},
            )
        assert result.status == 0, result.message  # keeping the table as it is is feasible
        return round(-result.fun), np.round(result.x).astype(int)

    count, _ = best(count_row)
    rows.append(count_row[None, :])
    lower.append(np.array([count]))  # (at least: nothing places more)
    high.append(np.array([np.inf]))
    value, _ = best(value_row)
    rows.append(value_row[None, :])
    lower.append(np.array([value]))
    high.append(np.array([np.inf]))
    kept, x = best(keep_row)

    arrangement: list[list[str]] = []
    kept_sets = []
    for k, (s, _) in enumerate(kept_cols):
        if x[n_gen + k]:
            kept_sets.append(s)
            arrangement.append([t.code for t in table[s]])
    for j, g in enumerate(used_gens):
        arrangement.extend([list(g.codes)] * int(x[j]))
    return OracleAnswer(count, value, kept, len(table) - kept, arrangement, sorted(kept_sets))
