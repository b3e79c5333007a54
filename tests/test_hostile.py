"""Fuzzing the bridge as a hostile user would (issue 37), in CPython: the hostile requests and
tampered saves of tests/hostile.py, and a hypothesis state machine making random legal and
illegal calls. Every reply must be strict JSON (no NaN), a refused call must change nothing,
and every tile must be in exactly one place. tests/test_pyodide.py runs the same hostile
cases inside Pyodide.

RUMMIKUB_FUZZ=N runs N times as many examples and tampered saves (for a long run by hand;
the suite runs N=1: about 7,000 bridge calls and 420 saves, some 15 seconds)."""

from __future__ import annotations

import json
import os
import random

import hostile
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from test_properties import random_play

from py_engine import bridge

SCALE = int(os.environ.get("RUMMIKUB_FUZZ", "1"))


@pytest.fixture(autouse=True)
def no_game(monkeypatch):
    monkeypatch.setattr(bridge, "_session", None)


def test_hostile_requests_are_refused_and_change_nothing():
    cases = hostile.hostile_requests()
    assert len(cases) >= 50
    assert hostile.run_requests(bridge.call, cases) == []


def test_tampered_saves_are_refused_or_load_as_playable_games():
    saves = hostile.base_saves(bridge.call)
    seed = random.randrange(2**32)  # a new one each run, told on failure
    tampered = hostile.all_tampered(saves, seed=seed, per_save=140 * SCALE)
    counts, failures = hostile.run_saves(bridge.call, saves, tampered)
    assert failures == [], f"tampered with seed {seed}"
    # Most tamperings break the game; some (a log line, a deleted log entry, a bit of a
    # name) leave a good one, which must then load and play.
    assert counts["refused"] > 300 and counts["accepted"] >= 6, counts


# ----- the state machine ------------------------------------------------------------------

LEVELS = st.sampled_from(["easy", "medium"])
RULES = st.fixed_dictionaries(
    {},
    optional={
        "opening": st.sampled_from([30, 50]),
        "wrap_runs": st.booleans(),
        "locked_jokers": st.booleans(),
        "easing_opening": st.booleans(),
        "last_call": st.booleans(),
        "no_winner_when_blocked": st.booleans(),
        "target": st.sampled_from([0, 50, 200]),
    },
)
# Any JSON at all, for fields and requests that expect something else.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
IDS = st.lists(st.lists(st.integers(-2, 108), max_size=5), max_size=5)
CMDS = st.sampled_from(sorted(bridge.HANDLERS))
NEW_GAME = {
    "seed": st.integers(0, 2**31),
    "levels": st.lists(LEVELS, min_size=1, max_size=3),
    "seat": st.integers(0, 3),
    "rules": RULES,
}
# What the machine did, over every run of this module: the report's figures.
TALLY = {"calls": 0, "refused": 0, "loads": 0}


class BridgeMachine(RuleBasedStateMachine):
    """Random games through bridge.call: new games, legal plays, draws, bot turns, resigns,
    next rounds, save and load, tampered loads, illegal tables and requests of any JSON."""

    def __init__(self) -> None:
        super().__init__()
        bridge._session = None

    def send(self, request: dict | str) -> dict:
        text = request if isinstance(request, str) else json.dumps(request)
        session = bridge._session
        before = session.save() if session else None
        reply = hostile.strict_reply(bridge.call(text))
        TALLY["calls"] += 1
        if "error" in reply:
            TALLY["refused"] += 1
            assert bridge._session is session, "a refused call replaced the game"
            assert (session.save() if session else None) == before, reply["error"]
        return reply

    def playing(self) -> bool:
        return bridge._session is not None and not bridge._session.round.is_over

    @initialize(**NEW_GAME)
    def first_game(self, seed, levels, seat, rules):
        self.new_game(seed, levels, seat, rules)

    @rule(**NEW_GAME)
    def new_game(self, seed, levels, seat, rules):
        players = [{"kind": "bot", "level": level} for level in levels]
        players.insert(seat % (len(levels) + 1), {"kind": "human", "name": "Me"})
        assert "view" in self.send(
            {"cmd": "new_game", "seed": seed, "players": players, "rules": rules}
        )

    @precondition(playing)
    @rule(choice=st.integers(0, 2**32), turns=st.integers(1, 15))
    def moves(self, choice, turns):
        """Some turns of the game: the human plays a random legal play when one is found,
        else draws (or passes); a bot plays by bot_turn (quick half the time: easy)."""
        rng = random.Random(choice)
        for _ in range(turns):
            if not self.playing():
                return
            session = bridge._session
            game = session.round
            if game.current != session.people[0]:
                reply = self.send({"cmd": "bot_turn", "quick": rng.random() < 0.5})
            elif (table := random_play(game, rng)) is not None:
                rows = [[t.id for t in row] for row in table]
                reply = self.send({"cmd": "play", "table": rows})
            else:
                reply = self.send({"cmd": "draw"})
            assert "error" not in reply, reply

    @precondition(lambda self: bridge._session is not None)
    @rule(cmd=CMDS, table=IDS, flag=JSON)
    def any_command(self, cmd, table, flag):
        """Any command with a random table and flags: legal or not, out of turn or not."""
        if cmd not in ("new_game", "load", "hint"):  # new games and loads have rules of their own
            self.send({"cmd": cmd, "table": table, "touched": flag, "quick": flag})

    @rule(request=JSON)
    def garbage(self, request):
        self.send(request if isinstance(request, str) else json.dumps(request))

    @rule(cmd=CMDS, key=st.sampled_from(["players", "rules", "seed", "table", "save"]), value=JSON)
    def wrong_field(self, cmd, key, value):
        self.send({"cmd": cmd, key: value} if cmd != "hint" else {"cmd": "view", key: value})

    @precondition(lambda self: bridge._session is not None)
    @rule()
    def save_and_load(self):
        text = self.send({"cmd": "save"})["save"]
        view = self.send({"cmd": "view"})["view"]
        TALLY["loads"] += 1
        assert self.send({"cmd": "load", "save": text})["view"] == view
        assert self.send({"cmd": "save"})["save"] == text

    @precondition(lambda self: bridge._session is not None)
    @rule(seed=st.integers(0, 2**32))
    def tampered_load(self, seed):
        _, bad = hostile.random_tampering(bridge._session.save(), random.Random(seed))
        TALLY["loads"] += 1
        self.send({"cmd": "load", "save": bad})

    @precondition(lambda self: bridge._session is not None and bridge._session.round.is_over)
    @rule()
    def next_round(self):
        self.send({"cmd": "next_round"})

    @precondition(
        lambda self: (
            self.playing() and not bridge._session.round.resigned[bridge._session.people[0]]
        )
    )
    @rule()
    def resign(self):
        assert "error" not in self.send({"cmd": "resign"})

    @invariant()
    def every_tile_in_one_place(self):
        if bridge._session is not None:
            assert len(bridge._session.round.tile_places()) == 106


BridgeMachine.TestCase.settings = settings(
    max_examples=100 * SCALE,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_the_bridge_under_random_calls = BridgeMachine.TestCase
