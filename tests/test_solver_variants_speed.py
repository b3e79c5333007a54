"""The wrap-around search's cuts and budgets (benchmarks/solver.py measures their speed).

With wrap-around runs the numbers are a circle, and the solver may cut it anywhere: every
cut must find a play as good, read back as the right tiles, and a search that gives up at
its budget and tries other cuts must still return the best play.
"""

from __future__ import annotations

import random

import pytest
from solver_positions import random_position

from py_engine import solver
from py_engine.rules import Rules
from py_engine.sets import read_set
from py_engine.solver import solve
from py_engine.tiles import parse_tiles
from py_engine.turns import check_turn

WRAP = Rules(wrap_runs=True)


def positions(count: int, seed: str):
    rng = random.Random(seed)
    for _ in range(count):
        yield random_position(rng, rules=WRAP, rack_size=rng.randint(1, 16))


def answer(pos):
    play = solve(pos.table, pos.rack, opened=pos.opened, rules=WRAP)
    if play.found:
        if pos.opened:
            check = check_turn(pos.table, play.table, pos.rack, opened=True, rules=WRAP)
            assert check.ok, check.errors
        else:
            laid = play.table[len(pos.table) :]
            assert all(read_set(row, True).valid for row in laid)
            assert sorted(t.id for row in laid for t in row) == sorted(t.id for t in play.placed)
    return play.count, play.value


def cut_at(monkeypatch, shift: int) -> None:
    """Make every wrap-around search cut the circle after ``shift`` (and run to the end)."""
    run_dp = solver._run_dp

    def run_cut(problem, floor=solver.NEG, budget=None, enough=None):
        if problem.wrap and not problem.shift:
            problem = solver._rotated(problem, shift)
        return run_dp(problem, floor, enough=enough)

    monkeypatch.setattr(solver, "_run_dp", run_cut)


@pytest.mark.parametrize("shift", range(1, 13))
def test_every_cut_of_the_circle_finds_as_good_a_play(monkeypatch, shift):
    expected = [answer(pos) for pos in positions(12, f"cuts:{shift}")]
    cut_at(monkeypatch, shift)
    solver.clear_bound_cache()
    assert [answer(pos) for pos in positions(12, f"cuts:{shift}")] == expected


def test_a_cut_reads_back_the_numbers_it_moved(monkeypatch):
    cut_at(monkeypatch, 7)
    table = [parse_tiles("R12 R13 R1"), parse_tiles("B7 B8 B9")]
    rack = parse_tiles("R2 B6 B10 K5 Y5 R5")
    play = solve(table, rack, opened=True, rules=WRAP)
    assert sorted(t.code for t in play.placed) == ["B10", "B6", "K5", "R2", "R5", "Y5"]
    assert play.value == 2 + 6 + 10 + 15
    assert check_turn(table, play.table, rack, opened=True, rules=WRAP).ok


@pytest.mark.parametrize("budget", [1, 40, 300])
def test_searches_that_give_up_still_return_the_best_play(monkeypatch, budget):
    expected = [answer(pos) for pos in positions(40, f"budget:{budget}")]
    monkeypatch.setattr(solver, "WRAP_BUDGET", budget)
    solver.clear_bound_cache()
    assert [answer(pos) for pos in positions(40, f"budget:{budget}")] == expected


@pytest.mark.parametrize("budget", [1, 40])
def test_can_play_agrees_when_searches_give_up(monkeypatch, budget):
    # can_play's search stops at its first play, so a search that gives up has found
    # none yet, and the next cut of the circle goes on looking.
    monkeypatch.setattr(solver, "WRAP_BUDGET", budget)
    answers = set()
    for pos in positions(60, f"can-play:{budget}"):
        found = solve(pos.table, pos.rack, opened=True, rules=WRAP).found
        assert solver.can_play(pos.table, pos.rack, WRAP) == found, pos.codes()
        answers.add(found)
    assert answers == {True, False}


def test_an_opening_found_after_giving_up(monkeypatch):
    monkeypatch.setattr(solver, "WRAP_BUDGET", 1)
    play = solve([], parse_tiles("K12 K13 K1 R5 B5 Y5"), opened=False, rules=WRAP)
    assert play.count == 6 and play.value == 12 + 13 + 1 + 15


def test_arrangeable_after_giving_up(monkeypatch):
    monkeypatch.setattr(solver, "WRAP_BUDGET", 1)
    rows = solver.arrangeable(parse_tiles("Y12 Y13 Y1 Y2 R7 B7 K7"), WRAP)
    assert rows is not None and sorted(len(r) for r in rows) == [3, 4]
    assert solver.arrangeable(parse_tiles("Y12 Y13 Y2 R7 B7"), WRAP) is None


@pytest.mark.parametrize("wrap", [False, True])
def test_locked_jokers_searches_that_must_beat_the_best_so_far_change_nothing(monkeypatch, wrap):
    # Each way of swapping locked jokers is searched only for plays as good as the best
    # found so far; searching every way in full must give as good an answer.
    rules = Rules(locked_jokers=True, wrap_runs=wrap)

    def answers():
        rng = random.Random(f"locked:{wrap}")
        out = []
        for _ in range(30):
            pos = random_position(
                rng, rules=rules, opened=True, jokers=True, rack_size=rng.randint(1, 16)
            )
            play = solve(pos.table, pos.rack, opened=True, rules=rules)
            if play.found:
                check = check_turn(pos.table, play.table, pos.rack, opened=True, rules=rules)
                assert check.ok, check.errors
            out.append((play.count, play.value))
        return out

    expected = answers()
    search_all = solver._solve_open

    def without_beat(*args, **kw):  # every search as if nothing had been found yet
        if len(args) > 6:
            args = (*args[:6], solver.NEG, *args[7:])
        return search_all(*args, **kw)

    monkeypatch.setattr(solver, "_solve_open", without_beat)
    assert answers() == expected
