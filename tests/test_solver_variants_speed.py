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
from py_engine.solver import dp, fewest, locked, search, solve
from py_engine.solver.greedy import _easy_score
from py_engine.solver.problem import _NUMBERS, NEG, SCALE, _counts, _Problem
from py_engine.tiles import assign_ids, parse_tiles
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
    run_dp = dp._run_dp

    def run_cut(problem, floor=NEG, budget=None, enough=None):
        if problem.wrap and not problem.shift:
            problem = search._rotated(problem, shift)
        return run_dp(problem, floor, enough=enough)

    monkeypatch.setattr(search, "_first_cut", lambda problem: 0)  # then cut as above
    for caller in (search, fewest):  # the searches for the play and for fewest sets changed
        monkeypatch.setattr(caller, "_run_dp", run_cut)


def test_the_first_cut_is_where_fewest_runs_can_cross():
    table = parse_tiles("R1 R2 R3 R4 R5 R6 B9 B10 B11 B12 B13 B1 Y3 Y4 Y5")
    rack = parse_tiles("K10 K11 K12")
    counts, jokers = _counts(table)
    rcounts, rjokers = _counts(rack)
    problem = _Problem(counts, rcounts, jokers, rjokers, True)
    # 7 and 8 hold no tile: cut between them, so the search goes 8, 9, ..., 13, 1, ..., 7.
    assert search._first_cut(problem) == 7
    assert _NUMBERS[7][1] == 8


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


def test_after_the_first_cut_the_cuts_follow_its_busiest_number_and_budgets_serve_two(
    monkeypatch,
):
    # Each of the first five searches gives up, each naming another busiest number; the
    # cuts after the first follow the first one's (7) round the circle only, and the
    # budget doubles after the first search, then after every WRAP_TRIES more.
    run_dp = dp._run_dp
    calls: list[tuple[int, int | None]] = []

    def give_up(problem, floor=NEG, budget=None, enough=None):
        calls.append((problem.shift, budget))
        if len(calls) <= 5:
            raise dp._OutOfBudget(None, [7, 2, 11, 4, 9][len(calls) - 1])
        return run_dp(problem, floor, budget, enough)

    monkeypatch.setattr(search, "_first_cut", lambda problem: 0)
    monkeypatch.setattr(search, "_run_dp", give_up)
    table = [parse_tiles("R12 R13 R1"), parse_tiles("B7 B8 B9")]
    play = solve(table, parse_tiles("R2 B10"), opened=True, rules=WRAP, layout=False)
    assert sorted(t.code for t in play.placed) == ["B10", "R2"]
    b = search.WRAP_BUDGET
    # 7 + (0, 2, 4, 1, 3, ...) of _STEPS: 7, 9, 11, 8, 10; two searches to each budget.
    assert calls == [(0, b), (7, 2 * b), (9, 2 * b), (11, 4 * b), (8, 4 * b), (10, 8 * b)]
    assert (search.WRAP_TRIES, search.WRAP_GROWTH) == (2, 2)


@pytest.mark.parametrize("budget", [1, 40, 300])
def test_searches_that_give_up_still_return_the_best_play(monkeypatch, budget):
    expected = [answer(pos) for pos in positions(40, f"budget:{budget}")]
    monkeypatch.setattr(search, "WRAP_BUDGET", budget)
    solver.clear_bound_cache()
    assert [answer(pos) for pos in positions(40, f"budget:{budget}")] == expected


@pytest.mark.parametrize("budget", [1, 40])
def test_can_play_agrees_when_searches_give_up(monkeypatch, budget):
    # can_play's search stops at its first play, so a search that gives up has found
    # none yet, and the next cut of the circle goes on looking.
    monkeypatch.setattr(search, "WRAP_BUDGET", budget)
    answers = set()
    for pos in positions(60, f"can-play:{budget}"):
        found = solve(pos.table, pos.rack, opened=True, rules=WRAP).found
        assert solver.can_play(pos.table, pos.rack, WRAP) == found, pos.codes()
        answers.add(found)
    assert answers == {True, False}


def test_an_opening_found_after_giving_up(monkeypatch):
    monkeypatch.setattr(search, "WRAP_BUDGET", 1)
    play = solve([], parse_tiles("K12 K13 K1 R5 B5 Y5"), opened=False, rules=WRAP)
    assert play.count == 6 and play.value == 12 + 13 + 1 + 15


def test_arrangeable_after_giving_up(monkeypatch):
    monkeypatch.setattr(search, "WRAP_BUDGET", 1)
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
    search_all = locked._solve_open

    def without_beat(*args, **kw):  # every search as if nothing had been found yet
        if len(args) > 6:
            args = (*args[:6], NEG, *args[7:])
        return search_all(*args, **kw)

    monkeypatch.setattr(locked, "_solve_open", without_beat)
    assert answers() == expected


# A position met in the expert's look-ahead (wrap-around runs, two jokers on the table)
# whose exact search closes many states: placing R9 and B1 needs the table laid out anew.
SLOW_TABLE = [
    "R1 B1 Y1 K1",
    "B3 Y3 K3",
    "R2 J R4 R5 R6",
    "K4 K5 K6",
    "B4 B5 J B7",
    "R5 R6 R7 R8",
    "Y5 Y6 Y7 Y8",
    "R9 Y9 K9",
    "K3 K4 K5 K6 K7 K8 K9",
    "R10 B10 Y10",
    "B7 B8 B9 B10",
    "Y7 Y8 Y9 Y10",
    "R11 K11 B11",
    "R11 K11 Y11",
    "R12 B12 K12",
    "R13 Y13 K13",
    "Y13 Y1 Y2",
]


def test_effort_bounds_the_search_and_still_answers_a_legal_play():
    rows = assign_ids([row.split() for row in SLOW_TABLE] + [["Y5", "B1", "R9"]])
    table, rack = rows[:-1], rows[-1]
    exact = solve(table, rack, opened=True, rules=WRAP, layout=False)
    assert (exact.count, exact.value) == (2, 10)
    counts = []
    for effort in (1, 100, 2000, 20000, 10**9):
        play = solve(table, rack, opened=True, rules=WRAP, layout=False, effort=effort)
        assert (play.count, play.value) <= (exact.count, exact.value)
        if play.found:
            assert check_turn(table, play.table, rack, opened=True, rules=WRAP).ok
        counts.append(play.count)
    assert counts[0] < 2 and counts[-1] == 2  # gave up short of the best; then found it


def test_can_play_with_an_effort_says_no_when_it_gives_up_first():
    # No greedy play: K11 goes down only as K6 K7 K8, K9 K10 K11 and K10 K11 K12, the
    # second K10 taken from the group of four, which the search must find.
    rows = [
        "R7 R8 R9 R10 R11 R12 R13",
        "Y4 Y5 Y6 Y7 Y8",
        "Y3 Y4 Y5",
        "Y11 Y12 Y13",
        "K10 Y10 R10 B10",
        "B2 B3 B4 B5 B6 B7 B8",
        "K6 K7 K8 K9 K10 K11 K12",
        "R5 K11 Y1",
    ]
    rows = assign_ids(row.split() for row in rows)
    table, rack = rows[:-1], rows[-1]
    assert _easy_score(table, rack) < SCALE
    assert solver.can_play(table, rack)
    assert solver.can_play(table, rack, effort=10**9)
    assert not solver.can_play(table, rack, effort=1)


@pytest.mark.parametrize("rules", [Rules(), Rules(locked_jokers=True)], ids=["standard", "locked"])
def test_effort_without_wrap_around(rules):
    rng = random.Random(f"effort:{rules.locked_jokers}")
    short = 0
    for _ in range(40):
        pos = random_position(rng, rules=rules, opened=True, table_size=rng.randint(30, 90))
        exact = solve(pos.table, pos.rack, opened=True, rules=rules, layout=False)
        same = solve(pos.table, pos.rack, opened=True, rules=rules, layout=False, effort=10**9)
        assert (same.count, same.value) == (exact.count, exact.value)
        play = solve(pos.table, pos.rack, opened=True, rules=rules, layout=False, effort=1)
        assert (play.count, play.value) <= (exact.count, exact.value), pos.codes()
        if play.found:
            check = check_turn(pos.table, play.table, pos.rack, opened=True, rules=rules)
            assert check.ok, (check.errors, pos.codes())
        short += (play.count, play.value) < (exact.count, exact.value)
    assert short  # the effort really stops some searches


def test_bounded_searches_count_the_states_they_close_and_exact_ones_do_not():
    # closed_states() is what a look-ahead reads to know what its searches have spent:
    # a bounded search adds what it closed (never more than its effort), the same count
    # each time (no clock in it); an exact search without wrap-around adds nothing (with
    # it, its cuts of the circle are bounded searches too, and count).
    rows = assign_ids([row.split() for row in SLOW_TABLE] + [["Y5", "B1", "R9"]])
    table, rack = rows[:-1], rows[-1]
    spent = []
    for rules, effort in ((Rules(), None), (WRAP, 300), (WRAP, 300), (WRAP, None)):
        before = solver.closed_states()
        solve(table, rack, opened=True, rules=rules, layout=False, effort=effort)
        spent.append(solver.closed_states() - before)
    assert spent[0] == 0
    assert spent[1] == spent[2] == 300  # gave up at its effort, both times
    assert spent[3] > 300  # the exact search's cuts, each within its budget
    before = solver.closed_states()
    solver.can_play(table, rack[:1], WRAP, effort=50)  # Y5: no greedy play to find
    assert 0 < solver.closed_states() - before <= 50
