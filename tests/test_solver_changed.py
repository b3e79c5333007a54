"""The solver's third tie-break (fewest table sets changed) against an exact oracle.

``changed_oracle.min_changed`` solves (tiles placed, value placed, table sets kept)
lexicographically with integer programs. The solver is exact on the first two, and its
answer must realise them on its own table. On the third it searches exactly, with the
play's own placed tiles, when at most ``FEWEST_TILES`` of them share sets with table
tiles, within a budget (README, "Solver"): with room to search it finds the minimum;
with the shipped budget it finds it on most small plays; it must never claim fewer
changes than the minimum, and its count of changed sets must be what its table shows.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from changed_oracle import min_changed
from solver_positions import random_position

from py_engine.rules import Rules
from py_engine.solver import arrange, fewest, solve
from py_engine.tiles import Tile, assign_ids
from py_engine.turns import check_turn


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


def _small_plays(seed: str, wrap: bool, count: int, most: int):
    """``count`` positions after opening with a play, racks of 1 to ``most`` tiles."""
    rules = Rules(wrap_runs=wrap)
    rng = random.Random(seed)
    found = 0
    while found < count:
        p = random_position(rng, opened=True, rules=rules, rack_size=rng.randint(1, most))
        if not p.table:
            continue
        play = solve(p.table, p.rack, opened=True, rules=rules)
        if play.found:
            found += 1
            yield p, play


def _checked(p, play) -> int:
    """The oracle's fewest changes, after checking the play against it and the rules."""
    exact = min_changed(p.table, p.rack, p.rules)
    assert (play.count, play.value) == (exact.count, exact.value), p.codes()
    assert play.changed == _changed_on_table(p.table, play.table), p.codes()
    assert play.changed >= exact.changed, p.codes()
    check = check_turn(p.table, play.table, p.rack, opened=True, rules=p.rules)
    assert check.ok, (check.errors, p.codes())
    return exact.changed


def test_one_tile_placed_breaks_only_the_two_sets_it_needs():
    # R4 goes into R4 Y4 K4, taken from K1 K2 K3 K4 and Y4 Y5 Y6 Y7: two sets change.
    # The best play's own arrangement laid the whole table out as groups (21 changed).
    rows = [row.split() for row in (
        "K9 K10 K11 K12", "B10 B11 B12 B13", "B4 B5 B6 B7 B8 B9", "B13 R13 K13", "B3 B4 B5 B6",
        "Y11 Y12 Y13", "B8 K8 R8", "Y4 Y5 Y6 Y7", "Y10 Y11 Y12", "R2 B2 Y2", "Y5 Y6 Y7",
        "R6 R7 R8", "K4 K5 K6 K7 K8", "B2 R2 Y2", "R3 R4 R5 R6 R7", "Y3 K3 R3 B3",
        "K10 Y10 R10", "B9 B10 B11", "K1 K2 K3 K4", "B1 Y1 R1", "R9 R10 R11 R12",
        "Y1 K1 B1", "Y13 K13 R13", "Y9 K9 R9", "K12 R12 B12",
    )]  # fmt: skip
    tiles = assign_ids([*rows, ["R4"]])
    table, rack = tiles[:-1], tiles[-1]
    play = solve(table, rack, opened=True)
    assert play.count == 1 and play.changed == 2
    assert _changed_on_table(table, play.table) == 2
    assert check_turn(table, play.table, rack, opened=True).ok


@pytest.mark.parametrize("wrap", [False, True])
def test_with_room_to_search_the_fewest_sets_are_changed(monkeypatch, wrap):
    # The search is exact; only its budget stops it. With a large one it finds the
    # oracle's minimum on every small play.
    monkeypatch.setattr(fewest, "FEWEST_CHECKS", 20_000)
    monkeypatch.setattr(fewest, "FEWEST_SEARCHES", 20_000)
    monkeypatch.setattr(fewest, "FEWEST_NODES", 200_000)
    monkeypatch.setattr(arrange, "PLAIN_STEPS", 10**7)
    for p, play in _small_plays(f"room:{wrap}", wrap, 12, 4):
        assert play.changed == _checked(p, play), p.codes()


@pytest.mark.parametrize(("wrap", "least"), [(False, 30), (True, 27)])
def test_with_the_shipped_budget_most_small_plays_change_fewest_sets(wrap, least):
    # Racks of 1-6 tiles on random tables: 32 and 29 of 40 (before the search: 12 and 7).
    exact = sum(
        play.changed == _checked(p, play) for p, play in _small_plays(f"fewest:{wrap}", wrap, 40, 6)
    )
    assert exact >= least


def test_a_search_that_gives_up_keeps_the_play_and_keeps_sets_whole_where_easy(monkeypatch):
    monkeypatch.setattr(fewest, "FEWEST_CHECKS", 0)
    for p, play in _small_plays("gives up", False, 15, 6):
        _checked(p, play)


def test_plays_placing_jokers_agree_with_the_oracle():
    # Small plays with jokers: a placed joker scores its penalty wherever it stands, so
    # fewest sets changed may lay it anywhere.
    rules = Rules()
    rng = random.Random(5)
    checked = 0
    while checked < 20:
        p = random_position(rng, jokers=True, opened=True, rules=rules, rack_size=rng.randint(1, 6))
        play = solve(p.table, p.rack, opened=True, rules=rules)
        if not any(t.is_joker for t in play.placed):
            continue
        checked += 1
        _checked(p, play)


@pytest.mark.parametrize("locked", [False, True])
def test_a_play_of_rack_tiles_only_leaves_the_table_as_it_was(locked):
    # R3 B3 K3 go down as a set of their own. The search then has no placed tile left to
    # fit, and an empty layout is a layout: no table set changes (it once reported the
    # dynamic program's own arrangement, with 4 sets changed, as the fewest).
    rows = [row.split() for row in (
        "K7 K8 K9", "B10 R10 Y10", "R1 B1 K1", "K11 R11 Y11", "R5 R6 R7", "R6 R7 R8",
        "K8 K9 K10 K11 K12 K13", "B11 R11 Y11", "K13 R13 B13", "B9 Y9 R9", "K2 B2 J",
    )]  # fmt: skip
    tiles = assign_ids([*rows, ["K3", "B7", "R3", "B3"]])
    table, rack = tiles[:-1], tiles[-1]
    rules = Rules(locked_jokers=locked)
    play = solve(table, rack, opened=True, rules=rules)
    assert play.count == 3 and play.changed == 0
    assert _changed_on_table(table, play.table) == 0
    assert check_turn(table, play.table, rack, opened=True, rules=rules).ok
