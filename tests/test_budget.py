"""Every search has a budget (issue 37, item 7): a solve given an ``effort`` closes the
groups of at most that many states in all (its opening search, every way of swapping
locked jokers, the wrap-around cuts, the layout), says whether its play is proven best,
and answers a legal play; the hint, every computer level and ``solve --budget`` use one.
The times these bounds come to are measured in benchmarks/worst_positions.py, not here.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_positions import ITEM_7_WRAP, SLOW, WRAP, hint_game
from solver_positions import random_position
from test_cli import ROOT

from py_engine import bots, bridge
from py_engine.rules import Rules
from py_engine.sets import read_set
from py_engine.solver import SolverInputError, arrangeable, can_play, closed_states, solve
from py_engine.turns import check_turn

VARIANTS = {
    "standard": Rules(),
    "wrap": Rules(wrap_runs=True),
    "locked": Rules(locked_jokers=True),
    "both": Rules(wrap_runs=True, locked_jokers=True),
}
NO_OPENING = {"table": [], "placed": [], "value": 0, "proven": False, "note": "no opening"}


def spent(work):
    """``work()`` and the states its searches closed."""
    before = closed_states()
    answer = work()
    return answer, closed_states() - before


def assert_legal(table, rack, play, opened, rules, threshold=None):
    if not play.found:
        assert play.table == table and not play.placed
        return
    check = check_turn(table, play.table, rack, opened=opened, rules=rules, threshold=threshold)
    assert check.ok, check.errors


@pytest.mark.parametrize("slow", SLOW, ids=[s.name for s in SLOW])
def test_each_slow_position_stops_at_its_effort_with_a_legal_answer(slow):
    table, rack = slow.position()
    threshold = slow.rules.opening
    play, states = spent(
        lambda: solve(
            table, rack, opened=slow.opened, rules=slow.rules, threshold=threshold, effort=3000
        )
    )
    assert states <= 3000
    assert play.proven == (states < 3000)  # these need more, but the locked one
    assert_legal(table, rack, play, slow.opened, slow.rules, threshold)


def test_item_7_through_the_hint_answers_within_the_move_effort_not_proven():
    # Exact, this hint took 116 s: no opening is reachable, and proving it is the work.
    hint_game(ITEM_7_WRAP)
    reply, states = spent(lambda: json.loads(bridge.call('{"cmd": "hint"}')))
    assert reply == {"table": None, "placed": [], "steps": [], "proven": False}
    assert states == bots.MOVE_EFFORT  # gave up there, having closed no more


def test_item_7_through_solve_budget_answers_not_proven_and_exact_lines_proven():
    lines = [ITEM_7_WRAP.line(), SLOW[1].line(), '{"rack": ["R10", "B10", "K10", "R1"]}']
    result = subprocess.run(
        [sys.executable, "-m", "py_engine", "solve", "--budget", str(bots.MOVE_EFFORT)],
        input="\n".join(lines).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0 and result.stderr == b""
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert answers[:2] == [NO_OPENING, NO_OPENING]
    assert answers[2]["proven"] is True and answers[2]["value"] == 30


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**9),
    variant=st.sampled_from(sorted(VARIANTS)),
    opened=st.booleans(),
    effort=st.sampled_from([1, 20, 300]),
)
def test_a_bounded_solve_closes_at_most_its_effort_and_is_proven_only_when_exact(
    seed, variant, opened, effort
):
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    pos = random_position(rng, rules=rules, opened=opened, rack_size=rng.randint(1, 30))
    exact = solve(pos.table, pos.rack, opened=opened, rules=rules)
    assert exact.proven
    play, states = spent(
        lambda: solve(pos.table, pos.rack, opened=opened, rules=rules, effort=effort)
    )
    assert states <= effort
    assert (play.count, play.value) <= (exact.count, exact.value)
    if play.proven:
        assert (play.count, play.value) == (exact.count, exact.value)
    assert_legal(pos.table, pos.rack, play, opened, rules)
    ample = solve(pos.table, pos.rack, opened=opened, rules=rules, effort=10**9)
    assert ample.proven and (ample.count, ample.value) == (exact.count, exact.value)


def test_locked_jokers_share_one_effort_among_the_ways_of_swapping():
    slow = SLOW[-1]  # two locked joker groups: nine ways to search
    table, rack = slow.position()
    exact = solve(table, rack, opened=True, rules=slow.rules)
    for effort in (1, 100, 1000):
        before = closed_states()
        play = solve(table, rack, opened=True, rules=slow.rules, effort=effort)
        assert closed_states() - before <= effort and not play.proven
        assert play.count <= exact.count
        assert_legal(table, rack, play, True, slow.rules)
    _, states = spent(lambda: can_play(table, rack[:3], slow.rules, effort=50))
    assert states <= 50


def test_arrangeable_with_an_effort_gives_up_or_answers_exactly():
    table, rack = SLOW[5].position()  # 49 tiles: not all can be laid out
    tiles = [t for row in table for t in row] + rack
    laid, states = spent(lambda: arrangeable(tiles, Rules(wrap_runs=True), effort=200))
    assert laid is None and states <= 200
    few = tiles[:6]
    assert arrangeable(few, effort=200) == arrangeable(few)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_level_s_move_shares_the_move_effort(monkeypatch, level):
    # A rack of 49 tiles after the opening: laying its sets takes the exact search over
    # 120,000 states; each level's searches together close at most MOVE_EFFORT.
    monkeypatch.setattr(bots, "MOVE_EFFORT", 2000)
    slow = SLOW[5]
    hint_game(slow)
    game = bridge._session.round  # type: ignore[union-attr]
    turn, states = spent(lambda: bots.choose_turn(game, 0, level, random.Random(4)))
    assert states <= 2000 and (level == "easy" or states == 2000)  # it was needed
    assert turn.table is not None and game.check(turn.table).ok


def test_the_expert_drops_its_look_ahead_at_think_limit_for_the_best_play(by_hand, monkeypatch):
    # Three players, the next at 2 tiles: the expert would weigh its two plays of the best
    # size (either K7) by a look-ahead. With no room for a look-ahead search under
    # THINK_LIMIT, it makes the best play, as hard does.
    game = by_hand.rigged(
        ["K7 K7 R1 B12 Y9 R11 B2", "B1 Y2", "R2 R4 B6 Y13 K1 K3 K5 K9"],
        ["R7 B7 Y7"],
        opened=[True, True, True],
    )
    free = bots.choose_turn(game, 0, "expert", random.Random("x"))
    monkeypatch.setattr(bots, "THINK_LIMIT", bots.LOOKAHEAD_EFFORT - 1)
    looked = []
    monkeypatch.setattr(bots, "solve", lambda *a, **kw: looked.append(kw) or solve(*a, **kw))
    held = bots.choose_turn(game, 0, "expert", random.Random("x"))
    hard = bots.choose_turn(game, 0, "hard", random.Random("x"))
    assert [kw["effort"] for kw in looked] == [bots.MOVE_EFFORT, bots.MOVE_EFFORT]  # no more
    assert held.to_json() == hard.to_json()
    assert free.table is not None and held.table is not None and game.check(held.table).ok


def test_an_opening_search_with_an_effort_answers_sets_worth_the_threshold():
    slow = SLOW[4]  # 42 low tiles: 146 is within reach, 200 is not
    table, rack = slow.position()
    play = solve(table, rack, opened=False, rules=slow.rules, threshold=120, effort=20000)
    assert play.found and play.value >= 120
    assert all(read_set(row, True).valid for row in play.table)


def test_an_effort_of_nothing_answers_nothing_and_a_negative_one_is_refused():
    table, rack = SLOW[5].position()
    play, states = spent(lambda: solve(table, rack, opened=True, rules=WRAP, effort=0))
    assert states == 0 and not play.found and not play.proven
    with pytest.raises(SolverInputError, match="0 or more"):
        solve(table, rack, opened=True, effort=-1)
