"""The exact solver on hand-made positions; every answer goes through the turn check."""

from __future__ import annotations

import gc
import io
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_positions import random_position

from py_engine.cli import solve_json, solve_main
from py_engine.rules import Rules
from py_engine.solver import Play, arrangeable, can_play, solve
from py_engine.tiles import Tile, assign_ids
from py_engine.turns import check_turn


def position(table: list[str], rack: str) -> tuple[list[list[Tile]], list[Tile]]:
    rows = assign_ids([row.split() for row in table] + [rack.split()])
    return rows[:-1], rows[-1]


def best(
    table: list[str], rack: str, *, opened: bool = True, rules: Rules | None = None, **kw
) -> Play:
    before, tiles = position(table, rack)
    play = solve(before, tiles, opened=opened, rules=rules, **kw)
    if play.placed:
        check = check_turn(before, play.table, tiles, opened=opened, rules=rules, **kw)
        assert check.ok, check.errors
        assert {t.id for t in check.placed} == {t.id for t in play.placed}
        if not opened:
            assert check.opening_value == play.value
    else:
        assert play.table == before
    return play


def codes(tiles) -> list[str]:
    return sorted(t.code for t in tiles)


def rows(play: Play) -> list[list[str]]:
    return sorted(sorted(t.code for t in row) for row in play.table)


def test_adds_to_a_run_and_moves_the_joker_along():
    play = best(["R3 R4 R5"], "R6 J B1")
    assert codes(play.placed) == ["J", "R6"]
    assert play.value == 6 + 30  # the joker takes its penalty off the rack


def test_no_play_leaves_the_table_as_it_was():
    play = best(["R3 R4 R5"], "B1 Y9")
    assert not play.found and play.value == 0


def test_opening_needs_the_threshold():
    assert not best([], "R1 R2 R3", opened=False).found
    play = best([], "R10 B10 K10 R1", opened=False)
    assert codes(play.placed) == ["B10", "K10", "R10"] and play.value == 30


def test_opening_counts_a_joker_as_the_tile_it_stands_for():
    play = best([], "K13 J J", opened=False)
    assert play.value == 36 and play.count == 3


def test_opening_leaves_the_table_alone_and_respects_50():
    rules = Rules(opening=50)
    play = best(["R3 R4 R5"], "R6 B10 Y10 K10 R11 R12 R13", opened=False, rules=rules)
    assert play.value >= 50
    assert ["R3", "R4", "R5"] in rows(play)
    assert "R6" not in codes(play.placed)


def test_opening_uses_the_eased_threshold():
    assert not best([], "R5 R6 R7 B1 B2 B3", opened=False).found
    play = best([], "R5 R6 R7 B1 B2 B3", opened=False, threshold=20)
    assert play.count == 6


def test_joker_is_retrieved_and_moved_to_another_set():
    # R6 takes the joker's place in the run; the joker joins B9 Y9.
    play = best(["R5 J R7"], "R6 B9 Y9")
    assert codes(play.placed) == ["B9", "R6", "Y9"]


def test_two_jokers_in_one_run_but_not_in_a_three_tile_group():
    play = best([], "R13 J J")
    assert play.count == 3
    assert rows(play) == [["J", "J", "R13"]]
    play = best([], "R13 B13 J J")
    assert play.count == 4


def test_ties_on_count_go_to_the_most_points_off_the_rack():
    play = best([], "J R1 R2 K12 K13")
    assert codes(play.placed) == ["J", "K12", "K13"] and play.value == 30 + 25


def test_a_joker_goes_down_before_a_twelve_when_only_one_can():
    # B12 Y12 K12 takes R12 or the joker, not both: the joker is 30 points off the rack,
    # or the rules' penalty.
    play = best(["B12 Y12 K12"], "R12 J")
    assert codes(play.placed) == ["J"] and play.value == 30
    play = best(["B12 Y12 K12"], "R12 J", rules=Rules(joker_penalty=10))
    assert codes(play.placed) == ["R12"] and play.value == 12


def test_fewest_table_sets_are_changed():
    play = best(["R3 R4 R5", "R6 R7 R8"], "R9")
    assert play.changed == 1
    assert ["R3", "R4", "R5"] in rows(play)


def test_untouched_sets_stay_whole_in_a_big_table():
    table = ["R1 R2 R3", "B5 B6 B7 B8", "Y10 B10 K10", "K1 K2 K3", "R11 R12 R13"]
    play = best(table, "B9")
    assert play.changed == 1
    assert len(play.table) == 5


def test_tiles_that_join_one_set_leave_every_other_set_where_it_was():
    # R6 and R7 extend the second of three sets: it is laid out again in its place, the
    # sets around it untouched, one set changed; B13 has nowhere to go.
    play = best(["B1 Y1 K1", "R3 R4 R5", "K9 K10 K11"], "R6 B13 R7")
    assert [[t.code for t in row] for row in play.table] == [
        ["B1", "Y1", "K1"],
        ["R3", "R4", "R5", "R6", "R7"],
        ["K9", "K10", "K11"],
    ]
    assert play.changed == 1 and [t.code for t in play.placed] == ["R6", "R7"]


def test_the_tiles_placed_are_the_racks_own_first_copies_first():
    # Two R6s and a joker on the rack: one R6 (the first copy) and the joker go down, as
    # the search counted them, and the other R6 stays.
    table, rack = position(["R3 R4 R5"], "R6 R6 J")
    play = solve(table, rack, opened=True)
    assert [t.id for t in play.placed] == [rack[0].id, rack[2].id]
    assert check_turn(table, play.table, rack, opened=True).ok


def test_the_quick_search_for_fewest_sets_falls_back_to_the_full_one(monkeypatch):
    # Plays of up to five tiles are first laid out by the search for fewest sets changed
    # over all their tiles, within a small budget (``fewest.QUICK``); with none, every
    # play is read back and laid out as before: the same tiles and value, a legal table.
    from py_engine.solver import opened

    rng = random.Random(5)
    positions = [random_position(rng, opened=True, rack_size=rng.randint(1, 6)) for _ in range(40)]
    quick = [solve(p.table, p.rack, opened=True) for p in positions]
    monkeypatch.setattr(opened, "QUICK", (0, 0, 0, 0))
    full = [solve(p.table, p.rack, opened=True) for p in positions]
    assert sum(1 for play in quick if play.found) >= 20
    for p, a, b in zip(positions, quick, full, strict=True):
        assert (a.count, a.value) == (b.count, b.value)
        for play in (a, b):
            if play.found:
                assert check_turn(p.table, play.table, p.rack, opened=True).ok


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_layout_tries_depend_only_on_what_their_shape_reads(data):
    # ``arrange._tries`` is kept by ``_shape``: two layouts whose lowest tile is the same
    # and which agree on the tiles the shape reads (its number in every colour, its colour
    # up to four numbers on, round the circle with wrap-around runs), present or not,
    # get the same sets to try, whatever else they hold and however many copies.
    from py_engine.solver.arrange import _shape, _tries

    wrap = data.draw(st.booleans())
    cap = data.draw(st.integers(0, 2))
    slot = data.draw(st.integers(0, 51))
    i, c = divmod(slot, 4)

    def cells() -> int:
        state = data.draw(st.integers(1, 2)) << 2 * slot
        for n in range(i, 13):
            for o in range(4):
                if (n, o) != (i, c):
                    state += data.draw(st.integers(0, 2)) << 2 * (n * 4 + o)
        return state

    first, second = cells(), cells()
    # The second takes the first's presence wherever the shape reads.
    read = [(i, o) for o in range(4) if o != c]
    read += [(i + d, c) for d in range(1, 5) if i + d < 13]
    read += [(i - d + 13, c) for d in range(1, 5) if wrap and i - d < 0]
    for n, o in read:
        at = 2 * (n * 4 + o)
        mine, theirs = first >> at & 3, second >> at & 3
        if bool(mine) != bool(theirs):
            second += ((1 if mine else 0) - theirs) << at
    assert _shape(first, slot, cap, wrap) == _shape(second, slot, cap, wrap)
    assert _tries(first, slot, cap, wrap) == _tries(second, slot, cap, wrap)


def test_table_tiles_are_all_used_even_when_rearranged():
    # The run must give up both ends to two new groups; R5 R6 R7 alone would be left
    # over if the run were shorter, so only two of the four fit there.
    play = best(["R4 R5 R6 R7 R8 R9 R10"], "B4 Y4 B10 Y10")
    assert play.count == 4 and play.changed == 1
    assert best(["R4 R5 R6 R7"], "B4 Y4 B7 Y7").count == 2


def test_wrap_around_runs():
    assert not best([], "R12 R13 R1").found
    play = best([], "R12 R13 R1", rules=Rules(wrap_runs=True))
    assert play.count == 3
    play = best(["K11 K12 K13"], "K1 K2", rules=Rules(wrap_runs=True))
    assert play.count == 2


def test_wrap_around_tail_and_head_join():
    rules = Rules(wrap_runs=True)
    play = best([], "Y13 Y1 J B5", rules=rules)
    assert play.count == 3  # Y13 Y1 J (Y2) or J Y13 Y1 (Y12)


def test_locked_joker_sets():
    rules = Rules(locked_jokers=True)
    # Unlocked, R8 would extend the run; locked, the set may not grow.
    assert best(["R5 J R7"], "R8").found
    assert not best(["R5 J R7"], "R8", rules=rules).found
    # Swapping R6 for the joker is allowed, when the joker finds another set.
    assert not best(["R5 J R7"], "R6", rules=rules).found
    play = best(["R5 J R7", "B9 B10 B11"], "R6", rules=rules)
    assert codes(play.placed) == ["R6"]
    assert ["R5", "R6", "R7"] in rows(play)


def test_locked_joker_swap_is_found_beside_rack_tiles_that_cannot_go_down():
    # The swap is the only play; K13 and Y9 fit nowhere, which must not hide it.
    rules = Rules(locked_jokers=True)
    table, tiles = position(["R4 J R6", "B1 B2 B3"], "R5 K13 Y9")
    play = solve(table, tiles, opened=True, rules=rules)
    assert codes(play.placed) == ["R5"]
    assert ["R4", "R5", "R6"] in rows(play)
    assert check_turn(table, play.table, tiles, opened=True, rules=rules).ok


def test_locked_three_tile_group_swaps_either_missing_colour():
    rules = Rules(locked_jokers=True)
    play = best(["R5 B5 J", "K1 K2 K3"], "K5", rules=rules)
    assert codes(play.placed) == ["K5"]
    assert ["B5", "K5", "R5"] in rows(play)


def test_arrangeable():
    assert arrangeable([]) == []
    _, tiles = position([], "R1 R2 R4")
    assert arrangeable(tiles) is None
    _, tiles = position([], "R1 R2 R3 R4 B4 Y4")
    laid = arrangeable(tiles)
    assert laid is not None and sorted(t.id for r in laid for t in r) == sorted(t.id for t in tiles)


@pytest.mark.parametrize("seed", range(3))
def test_random_positions_pass_the_turn_check(seed: int):
    rng = random.Random(seed)
    for _ in range(40):
        pos = random_position(rng)
        play = solve(pos.table, pos.rack, opened=pos.opened, rules=pos.rules)
        if play.found:
            check = check_turn(pos.table, play.table, pos.rack, opened=pos.opened, rules=pos.rules)
            assert check.ok, (check.errors, pos.codes())


# The standard rules and each variant that changes what the search may do.
EACH_RULES = pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(wrap_runs=True), Rules(locked_jokers=True)],
    ids=["standard", "wrap", "locked"],
)


@EACH_RULES
def test_without_the_layout_the_same_play_goes_down_in_a_legal_table(rules: Rules):
    # layout=False, for look-ahead, skips only keeping table sets whole: the same count
    # and value (and, but for locked jokers' swaps, the same tiles) in a table the turn
    # check accepts, changing at least as many sets.
    rng = random.Random(31)
    looser = 0
    for _ in range(60):
        pos = random_position(rng, rules=rules, jokers=True, opened=True)
        laid = solve(pos.table, pos.rack, opened=True, rules=rules)
        quick = solve(pos.table, pos.rack, opened=True, rules=rules, layout=False)
        assert (quick.count, quick.value) == (laid.count, laid.value), pos.codes()
        if not rules.locked_jokers:
            assert {t.id for t in quick.placed} == {t.id for t in laid.placed}
        if quick.found:
            check = check_turn(pos.table, quick.table, pos.rack, opened=True, rules=rules)
            assert check.ok, (check.errors, pos.codes())
            assert quick.changed >= laid.changed
            looser += quick.changed > laid.changed
    assert looser > 5  # the layout is really skipped


@EACH_RULES
def test_can_play_says_whether_the_solver_finds_a_play(rules: Rules):
    rng = random.Random(17)
    answers = set()
    for _ in range(150):
        size = rng.choice([1, 2, 3, 4, 6, 10])
        pos = random_position(rng, rules=rules, opened=True, rack_size=size)
        found = solve(pos.table, pos.rack, opened=True, rules=rules).found
        assert can_play(pos.table, pos.rack, rules) == found, pos.codes()
        answers.add(found)
    assert answers == {True, False}


@pytest.mark.parametrize("wrap", [False, True])
def test_can_play_with_locked_jokers_on_the_table(wrap: bool):
    rules = Rules(locked_jokers=True, wrap_runs=wrap)
    # The joker's set may not grow, and R8 R9 cannot go down alone.
    assert not can_play(*position(["R5 J R7"], "R8 R9"), rules)
    assert can_play(*position(["R5 J R7"], "R8 R9"), Rules(wrap_runs=wrap))
    # Added greedily to a set without a joker.
    assert can_play(*position(["R5 J R7", "B9 B10 B11"], "K13 B12"), rules)
    # Only by the search, among the sets without a joker: B6 splits B3-B8.
    assert can_play(*position(["R5 J R7", "B3 B4 B5 B6 B7 B8"], "B6 K13"), rules)
    # Only by swapping R6 for the joker, which then joins B9-B11.
    assert can_play(*position(["R5 J R7", "B9 B10 B11"], "R6 K13"), rules)
    assert not can_play(*position(["R5 J R7"], "R6 K13"), rules)
    # Random positions: the same answer as the solver's.
    rng = random.Random(f"locked-can-play:{wrap}")
    answers = set()
    for _ in range(120):
        pos = random_position(
            rng, rules=rules, jokers=True, opened=True, rack_size=rng.choice([1, 2, 3, 5])
        )
        found = solve(pos.table, pos.rack, opened=True, rules=rules).found
        assert can_play(pos.table, pos.rack, rules) == found, pos.codes()
        answers.add(found)
    assert answers == {True, False}


def test_can_play_by_hand():
    table, rack = position(["R3 R4 R5", "B7 Y7 K7"], "R9 B1")
    assert not can_play(table, rack)
    table, rack = position(["R3 R4 R5", "B7 Y7 K7"], "R9 B1 R6")  # R3-R6, greedily
    assert can_play(table, rack)
    table, rack = position(["R3 R4 R5 R6", "B7 Y7 K7"], "B6")  # split: R3-R5, R6 B6 ...
    assert not can_play(table, rack)
    table, rack = position(["R3 R4 R5 R6", "B6 Y6 K6"], "J")  # only by the search
    assert can_play(table, rack)
    assert not can_play(table, [])


def test_random_positions_with_locked_jokers_pass_the_turn_check():
    rng = random.Random(9)
    rules = Rules(locked_jokers=True)
    found = 0
    for _ in range(60):
        pos = random_position(rng, rules=rules, jokers=True, opened=True)
        play = solve(pos.table, pos.rack, opened=True, rules=rules)
        plain = solve(pos.table, pos.rack, opened=True)
        assert play.count <= plain.count
        if play.found:
            found += 1
            check = check_turn(pos.table, play.table, pos.rack, opened=True, rules=rules)
            assert check.ok, (check.errors, pos.codes())
    assert found > 10


def test_solve_json_and_lines():
    answer = solve_json({"table": [["R3", "R4", "R5"]], "rack": ["R6", "J", "B1"], "opened": True})
    assert sorted(answer["placed"]) == ["J", "R6"]
    assert answer["value"] == 36
    assert sorted(map(sorted, answer["table"])) == [["J", "R3", "R4", "R5", "R6"]]
    none = solve_json({"table": [], "rack": ["R1"], "opened": False})
    assert none == {"table": [], "placed": [], "value": 0, "proven": True, "note": "no opening"}
    out = io.StringIO()
    lines = [
        '{"table": [], "rack": ["R1", "R2", "R3"], "opened": true}',
        "not json",
        '{"table": [["R1", "R2"]], "rack": ["R3"], "opened": true}',
        '{"rack": ["R1", "R1", "R1"], "opened": true}',
        '{"rack": ["R1"], "rules": {"opening": "x"}}',
        "",
        '{"table": [], "rack": ["K1", "K2", "K3"], "opened": true, "rules": {"wrap_runs": true}}',
    ]
    errors = solve_main(lines, out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 6 and errors == 4
    assert answers[0]["placed"] == ["R1", "R2", "R3"]
    assert all("error" in a for a in answers[1:5])
    assert answers[5]["value"] == 6


def test_solve_json_reads_a_table_set_again_under_other_rules():
    """The validity of a table set is kept between lines, by the set and the rules: a run
    through 13 to 1 is a set with wrap-around runs only, and a bad set is refused each time."""
    wrapped = {"table": [["K12", "K13", "K1"]], "rack": ["K2"], "opened": True}
    assert solve_json({**wrapped, "rules": {"wrap_runs": True}})["placed"] == ["K2"]
    refused = "Set 1 on the table is not valid: a run cannot go past 13 (1 is always low)"
    assert solve_json(wrapped) == {"error": refused}
    assert solve_json(wrapped) == {"error": refused}
    assert solve_json({**wrapped, "rules": {"wrap_runs": True}})["placed"] == ["K2"]


def test_solve_json_names_the_first_bad_table_set_among_sets_met_before(monkeypatch):
    """Sets met before are looked up all at once; the first bad one is named by its place
    and its own problem, whether it or a later bad one was met before, also when the kept
    sets are forgotten on the way."""
    from py_engine import cli
    from py_engine.sets import read_set
    from py_engine.tiles import parse_tiles

    monkeypatch.setattr(cli, "SETS_KEPT", 4)
    good = [["R3", "R4", "R5"], ["B7", "Y7", "K7"]]
    short, gap = ["R1", "B2"], ["K1", "K2", "K4"]
    problem = {tuple(c): read_set(parse_tiles(c), False).problem for c in (short, gap)}
    assert problem[tuple(short)] != problem[tuple(gap)]
    assert solve_json({"table": good, "rack": ["R6"], "opened": True})["placed"] == ["R6"]

    def answer(*table):
        return solve_json({"table": [*table], "rack": ["R6"], "opened": True})

    for first, then in ((short, gap), (gap, short)):
        for _ in range(2):  # (read, then kept: the later bad set is known the second time)
            expected = f"Set 4 on the table is not valid: {problem[tuple(first)]}"
            assert answer(*good, ["Y9", "Y10", "Y11"], first, then) == {"error": expected}
    # A bad set met before, after one met for the first time, and the same set twice.
    unseen = read_set(parse_tiles("B1 B2 B4"), False).problem
    assert answer(*good, ["B1", "B2", "B4"], gap) == {
        "error": f"Set 3 on the table is not valid: {unseen}"
    }
    assert answer(short, short) == {
        "error": f"Set 1 on the table is not valid: {problem[tuple(short)]}"
    }
    assert answer(*good)["placed"] == ["R6"]


# Modules whose docstring examples run here (tests/test_doctests.py runs the others').
DOCTESTED = ["solver", "bots", "arena"]


@pytest.mark.parametrize("name", DOCTESTED)
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"py_engine.{name}"))
    assert result.attempted > 0 and result.failed == 0


def _off_rack(play: Play, rules: Rules) -> int:
    """The points the placed tiles take off the rack: face values, a joker its penalty."""
    return sum(rules.joker_penalty if t.is_joker else t.number for t in play.placed)


def test_a_placed_joker_counts_its_penalty_wherever_it_stands():
    # The joker could stand for R13 (next to R11 R12) or a 10: the same 30 off the rack
    # either way, so the table sets are kept as they were wherever that is easiest.
    table = [
        "R10 R11 R12", "B10 B11 B12 B13", "Y8 Y9 Y10", "R9 Y9 K9", "K9 K10 K11",
        "R11 Y11 K11", "B12 Y12 K12", "B13 Y13 K13",
    ]  # fmt: skip
    play = best(table, "Y10 J")
    assert play.count == 2 and play.value == 10 + 30 and play.changed == 1
    # K12 K13 J wraps round (the joker is K1): it stays as it was, the rack joker joins
    # R5 B5 wherever it stands.
    rules = Rules(wrap_runs=True)
    play = best(["K12 K13 J"], "R5 B5 J", rules=rules)
    assert play.count == 3 and play.value == 40 and play.changed == 0
    assert ["J", "K12", "K13"] in rows(play)


@pytest.mark.parametrize("penalty", [30, 25])
def test_the_value_of_every_play_is_the_points_off_the_rack(penalty):
    # Random positions whose best play lays a rack joker.
    rules = Rules(joker_penalty=penalty)
    rng = random.Random(31)
    checked = 0
    while checked < 50:
        p = random_position(rng, jokers=True, opened=True, rules=rules)
        play = solve(p.table, p.rack, opened=True, rules=rules)
        if not any(t.is_joker for t in play.placed):
            continue
        checked += 1
        assert _off_rack(play, rules) == play.value, p.codes()
        assert check_turn(p.table, play.table, p.rack, opened=True, rules=rules).ok


@pytest.mark.parametrize("wrap", [False, True])
def test_the_backtracking_layout_agrees_with_the_dynamic_program(wrap):
    # The search for fewest sets changed tests small layouts by backtracking
    # (``_arrange_plain``); it must say what the dynamic program says, and lay out
    # every tile in valid sets.
    from py_engine.solver.arrange import _arrange_plain, _GiveUp
    from py_engine.solver.keep import _is_set
    from py_engine.solver.problem import _Problem
    from py_engine.solver.search import _search

    rng = random.Random(8 + wrap)
    near = [0, 1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 24, 25, 26, 27, 28, 38, 39, 40, 41, 51]
    tried = 0
    for _ in range(1500):
        counts = [0] * 52
        for _ in range(rng.randint(3, 14)):
            f = rng.randrange(52) if rng.random() < 0.5 else rng.choice(near)
            counts[f] = min(2, counts[f] + 1)
        jokers = rng.choice([0, 0, 1, 2])
        try:
            sets = _arrange_plain(counts, jokers, None, wrap)
        except _GiveUp:
            continue
        tried += 1
        problem = _Problem(counts, [0] * 52, jokers, 0, wrap)
        assert (sets is None) == (_search(problem, -1) is None), (counts, jokers)
        if sets is not None:
            assert sorted(f for s in sets for f in s if f >= 0) == sorted(
                f for f in range(52) for _ in range(counts[f])
            )
            assert sum(s.count(-1) for s in sets) == jokers
            assert all(_is_set([f if f >= 0 else 104 for f in s], wrap) for s in sets)
    assert tried > 1400


def test_forgetting_what_earlier_solves_kept_changes_no_answer():
    # ``clear_caches`` (for the benchmark's later passes) empties every table the solver
    # fills as it goes, and the answers after it are the same, tile for tile.
    from py_engine import solver
    from py_engine.solver.arrange import _TRIES, _TRIES_BY_SHAPE
    from py_engine.solver.bounds import _BOUND_CACHE, _REACH, _RELAXED, _ROOMS, _SAME
    from py_engine.solver.dp import _CLOSABLE, _CLOSABLE_AT, _CLOSINGS, _TEMPLATES
    from py_engine.solver.fewest import _THREES
    from py_engine.solver.moves import _MOVE_LIST, _MOVES_CACHE

    rng = random.Random(12)
    positions = [random_position(rng, rules=Rules(wrap_runs=k % 2 == 1)) for k in range(30)]

    def answers() -> list:
        plays = [solve(p.table, p.rack, opened=p.opened, rules=p.rules) for p in positions]
        return [([[t.id for t in row] for row in play.table], play.value) for play in plays]

    group_tables = (len(_CLOSINGS), len(_CLOSABLE), len(_CLOSABLE_AT))
    before = answers()
    solver.clear_caches()
    assert not (_REACH or _TEMPLATES or _RELAXED or _BOUND_CACHE or _SAME)
    assert not (_TRIES or _TRIES_BY_SHAPE or _THREES or any(any(r) for r in _ROOMS))
    assert not (_MOVES_CACHE or _MOVE_LIST)
    assert answers() == before
    # The closings and closable tables, made whole at import, are kept (as a new process
    # has them) and no solve adds to them: every key a search can meet is there.
    assert (len(_CLOSINGS), len(_CLOSABLE), len(_CLOSABLE_AT)) == group_tables == (2925, 114, 162)


def test_solves_make_no_cyclic_garbage():
    # A solve hands what it made and kept straight to the collector's oldest generation
    # (``_gc_paused``), where garbage waits for a full collection: so it must make none.
    # Every rule set, opened or not, with the look-ahead's budget, and ``can_play``.
    positions = []
    for k, rules in enumerate([Rules(), Rules(wrap_runs=True), Rules(locked_jokers=True)]):
        rng = random.Random(40 + k)
        positions += [random_position(rng, opened=j % 3 != 0, rules=rules) for j in range(40)]
    gc.collect()
    gc.disable()  # so the solves leave the collector alone, and their garbage stays young
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for p in positions:
            solve(p.table, p.rack, opened=p.opened, rules=p.rules)
            solve(p.table, p.rack, opened=p.opened, rules=p.rules, layout=False, effort=300)
            if p.opened:
                can_play(p.table, p.rack, p.rules, 300)
        found = gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert found == 0, kinds


def test_a_solve_leaves_the_collector_as_it_found_it(monkeypatch):
    table, rack = assign_ids([["R3", "R4", "R5"]]), [Tile.parse("R6"), Tile.parse("B1")]
    calls: list[str] = []
    freeze, unfreeze = gc.freeze, gc.unfreeze
    monkeypatch.setattr(gc, "freeze", lambda: (calls.append("freeze"), freeze())[1])
    monkeypatch.setattr(gc, "unfreeze", lambda: (calls.append("unfreeze"), unfreeze())[1])
    # On: on again after, what the solve kept handed to the oldest generation.
    assert gc.isenabled()
    solve(table, rack, opened=True)
    assert gc.isenabled()
    assert calls == ["freeze", "unfreeze"]
    # Off: off after, and nothing moved.
    calls.clear()
    gc.disable()
    try:
        solve(table, rack, opened=True)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert calls == []
    # Objects someone froze stay frozen: the solve leaves the generations alone.
    freeze()
    try:
        solve(table, rack, opened=True)
        assert calls == []
        assert gc.get_freeze_count() > 0
    finally:
        unfreeze()
