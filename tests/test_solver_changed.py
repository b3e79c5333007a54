"""The solver's third tie-break (fewest table sets changed) against an exact oracle.

``changed_oracle.min_changed`` solves (tiles placed, value placed, table sets kept)
lexicographically with integer programs. The solver is exact on the first two, and its
answer must realise them on its own table; on the third it is a heuristic (README,
"Solver"): it must never claim fewer changes than the minimum, and its count of changed
sets must be what its table shows.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from changed_oracle import min_changed
from solver_positions import random_position

from py_engine.rules import Rules
from py_engine.solver import solve
from py_engine.tiles import Tile


def _faces(row: list[Tile]) -> tuple[int, ...]:
    return tuple(sorted(52 if t.is_joker else t.id % 52 for t in row))


def _changed_on_table(table: list[list[Tile]], answer: list[list[Tile]]) -> int:
    """Table sets with no set of the same faces in the answer (each answer set matched once)."""
    left = Counter(_faces(r) for r in answer)
    kept = 0
    for row in table:
        if left[_faces(row)]:
            left[_faces(row)] -= 1
            kept += 1
    return len(table) - kept


@pytest.mark.parametrize("wrap", [False, True])
def test_the_solver_changes_no_fewer_sets_than_the_minimum_and_says_how_many(wrap):
    rules = Rules(wrap_runs=wrap)
    rng = random.Random(77 + wrap)
    checked = 0
    while checked < 25:
        p = random_position(rng, rack_size=rng.randint(1, 14), opened=True, rules=rules)
        if not p.table:
            continue
        play = solve(p.table, p.rack, opened=True, rules=rules)
        if not play.found:
            continue
        checked += 1
        exact = min_changed(p.table, p.rack, rules)
        assert (play.count, play.value) == (exact.count, exact.value), p.codes()
        assert play.changed == _changed_on_table(p.table, play.table), p.codes()
        assert play.changed >= exact.changed, p.codes()
