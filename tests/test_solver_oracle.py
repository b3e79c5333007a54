"""The solver against an independent oracle: an integer program solved by scipy's milp.

The oracle knows nothing of the solver's dynamic program. It lists every set that can lie
on a table (runs of 3 to 5, as longer runs split into those, and groups of 3 or 4, each
with up to two jokers where the rules allow), then chooses how many of each set to lay so
that every table tile is used and as many rack tiles as possible join. Both must agree on
the number of tiles placed on at least 1,000 random positions shaped like real games, and
every solver answer must pass the engine's own turn check.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp
from set_shapes import real_faces, set_shapes
from solver_positions import random_position

from py_engine.rules import Rules
from py_engine.solver import solve
from py_engine.turns import check_turn

FACES = 52
JOKER = 52


@cache
def templates(wrap: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every set shape: a (53 x sets) count matrix (row 52 counts jokers) and, per set,
    its value with each joker counted as the tile it stands for."""
    shapes: dict[tuple, int] = {}
    for cells, spots in set_shapes(wrap):
        key = (real_faces(cells, spots), len(spots))
        shapes[key] = max(shapes.get(key, 0), sum(n for _, n in cells))
    matrix = np.zeros((FACES + 1, len(shapes)))
    values = np.zeros(len(shapes))
    for j, ((faces, jokers), value) in enumerate(shapes.items()):
        for f in faces:
            matrix[f, j] += 1
        matrix[JOKER, j] = jokers
        values[j] = value
    return matrix, values


def oracle_count(position, weigh_value: bool = False) -> int:
    """Most rack tiles placeable, by integer programming (0 when there is no play).

    With ``weigh_value``: 1024 * tiles + the points they take off the rack (face values,
    a joker at the rules' penalty), the solver's tie-break."""
    matrix, values = templates(position.rules.wrap_runs)
    table = np.zeros(FACES + 1)
    rack = np.zeros(FACES + 1)
    for row in position.table:
        for t in row:
            table[JOKER if t.is_joker else int(t.colour) * 13 + t.number - 1] += 1
    for t in position.rack:
        rack[JOKER if t.is_joker else int(t.colour) * 13 + t.number - 1] += 1
    if not position.opened:
        table[:] = 0  # before opening: new sets from the rack only
    sets = matrix.shape[1]
    # Variables: how many of each set (0..2), then rack tiles used per face (0..rack).
    weights = np.ones(FACES + 1)
    if weigh_value:
        penalty = position.rules.joker_penalty
        weights = 1024 + np.array([f % 13 + 1 for f in range(FACES)] + [penalty])
    c = np.concatenate([np.zeros(sets), -weights])
    rows = [np.hstack([matrix, -np.eye(FACES + 1)])]
    lower = [table]
    upper = [table]
    if not position.opened:
        rows.append(np.concatenate([values, np.zeros(FACES + 1)])[None, :])
        lower.append(np.array([position.rules.opening]))
        upper.append(np.array([np.inf]))
    constraint = LinearConstraint(np.vstack(rows), np.concatenate(lower), np.concatenate(upper))
    bounds = Bounds(np.zeros(sets + FACES + 1), np.concatenate([np.full(sets, 2), rack]))
    result = milp(c, constraints=constraint, integrality=np.ones(sets + FACES + 1), bounds=bounds)
    if result.status != 0:
        return 0  # infeasible: no opening reaches the threshold
    return round(-result.fun)


def off_rack(tiles, rules: Rules) -> int:
    """The points these tiles take off a rack: face values, a joker at the penalty."""
    return sum(rules.joker_penalty if t.is_joker else t.number for t in tiles)


def _check(position, play) -> None:
    if not play.placed:
        assert [list(r) for r in play.table] == [list(r) for r in position.table]
        return
    check = check_turn(
        position.table, play.table, position.rack, opened=position.opened, rules=position.rules
    )
    assert check.ok, (check.errors, position.codes())
    assert sorted(t.id for t in check.placed) == sorted(t.id for t in play.placed)
    if not position.opened:
        assert check.opening_value == play.value


def _positions(seed: int, count: int, rules: Rules | None = None):
    rng = random.Random(seed)
    for _ in range(count):
        yield random_position(rng, rules=rules)


@pytest.mark.parametrize("chunk", range(10))
def test_solver_agrees_with_integer_program(chunk: int) -> None:
    """1,000 positions (100 per chunk): tables of 0-90 tiles, racks of 1-30, with and
    without jokers, opened and not."""
    for position in _positions(1000 + chunk, 100):
        play = solve(position.table, position.rack, opened=position.opened, rules=position.rules)
        _check(position, play)
        assert play.count == oracle_count(position), position.codes()
        if play.found:
            # The tie-break agrees as well: the most points off the rack.
            off = off_rack(play.placed, position.rules)
            assert play.count * 1024 + off == oracle_count(position, True), position.codes()
            if position.opened:
                assert play.value == off


def test_solver_agrees_with_integer_program_wrap_runs() -> None:
    rules = Rules(wrap_runs=True)
    for position in _positions(77, 100, rules):
        play = solve(position.table, position.rack, opened=position.opened, rules=position.rules)
        _check(position, play)
        assert play.count == oracle_count(position), position.codes()


def test_oracle_sees_a_known_answer() -> None:
    from solver_positions import Position

    from py_engine.tiles import parse_tiles

    position = Position([parse_tiles("R3 R4 R5")], parse_tiles("R6 J B1"), True, Rules())
    assert oracle_count(position) == 2
