"""Hostile input for the bridge, and the checks its answers must pass: deep nesting, NaN,
numbers out of range, huge values, and saves corrupted or tampered with (bits flipped,
fields deleted or retyped, unknown kinds, huge names). Shared by the CPython tests
(tests/test_hostile.py) and the same cases run inside Pyodide (tests/test_pyodide.py),
whose stack gives out at a depth CPython survives.

Every function here drives the bridge through ``call``: request text in, reply text out,
as the page's worker does, so the same cases run in both runtimes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from py_engine.rules import Rules

Call = Callable[[str], str]

HUMAN = {"name": "You", "kind": "human"}
BOT = {"name": "Bot", "kind": "bot", "level": "easy"}
MAX_ERROR = 500  # the bridge cuts its error messages to this (bridge.MAX_ERROR)


def _no_constant(name: str) -> Any:
    raise ValueError(f"the reply holds {name}, which JSON.parse refuses")


def strict_reply(text: Any) -> dict[str, Any]:
    """A reply as the page's ``JSON.parse`` reads it: an object, no NaN or Infinity; an
    error is ``{"error": text, "errors"?: [...]}`` with a short message."""
    assert isinstance(text, str), f"the reply is not text: {text!r:.200}"
    reply = json.loads(text, parse_constant=_no_constant)
    assert isinstance(reply, dict), f"the reply is not an object: {text[:200]}"
    if "error" in reply:
        assert set(reply) <= {"error", "errors"}, text[:300]
        assert isinstance(reply["error"], str), text[:300]
        assert 0 < len(reply["error"]) <= MAX_ERROR, f"{len(reply['error'])}-char error"
    return reply


def request(cmd: str, **fields: Any) -> str:
    return json.dumps({"cmd": cmd, **fields})


def deep(depth: int, inner: str = "", kinds: str = "[") -> str:
    """JSON text nested ``depth`` levels (``kinds`` "[", "{" or "[{" mixed), or unclosed
    when ``inner`` is None."""
    opens = "".join(kinds[i % len(kinds)] for i in range(depth))
    if kinds == "{":
        return '{"a":' * depth + (inner or "1") + "}" * depth
    closes = "".join("]" if c == "[" else "}" for c in reversed(opens))
    return opens.replace("{", '{"a":') + inner + closes


# ----- requests refused whatever the game -----------------------------------------------


def hostile_requests() -> list[tuple[str, str]]:
    """(label, request text): each must be refused, and change nothing."""
    big = 10**4000
    cases = [
        # Item 1 of issue 37: about 5,000 deep killed Pyodide (CPython refused it cleanly).
        *(
            (f"cmd nested {n} deep ({kinds})", '{"cmd":' + deep(n, kinds=kinds) + "}")
            for n in (21, 1_000, 5_000, 100_000)
            for kinds in ("[", "{", "[{")
        ),
        ("unclosed 100,000 [", "[" * 100_000),
        ("unclosed 100,000 {", '{"a":' * 100_000),
        ("check table 5,000 deep", request("check", table=[]).replace("[]", deep(5_000))),
        ("new_game players 5,000 deep", '{"cmd":"new_game","players":' + deep(5_000) + "}"),
        ("rules 5,000 deep", '{"cmd":"new_game","rules":' + deep(5_000, kinds="{") + "}"),
        # Item 2: NaN and Infinity in, and numbers beyond what JavaScript holds.
        ("NaN seed", _new_game_with("seed", "NaN")),
        ("Infinity seed", _new_game_with("seed", "Infinity")),
        ("-Infinity seed", _new_game_with("seed", "-Infinity")),
        ("1e400 seed", _new_game_with("seed", "1e400")),
        ("4,001-digit seed", _new_game_with("seed", str(big))),
        ("2**53 seed", _new_game_with("seed", str(2**53))),
        ("17-digit seed", _new_game_with("seed", "1" + "0" * 16)),
        ("-1e400 tile", '{"cmd":"check","table":[[-1e400]]}'),
        ("NaN in rules", '{"cmd":"new_game","rules":{"opening":NaN}}'),
        ("target 10**4000", '{"cmd":"new_game","rules":{"target":' + str(big) + "}}"),
        ("target 100,001", request("new_game", players=[HUMAN, _bot()], rules={"target": 100_001})),
        ("target true", request("new_game", players=[HUMAN, _bot()], rules={"target": True})),
        ("opening 30.0", request("new_game", players=[HUMAN, _bot()], rules={"opening": 30.0})),
        ("seed 1.0", request("new_game", seed=1.0, players=[HUMAN, _bot()])),
        ("seed true", request("new_game", seed=True, players=[HUMAN, _bot()])),
        # Item 8: a huge value is quoted by a short prefix; a huge check is refused.
        ("1 MB tile code", request("check", table=[["R" * 1_000_000]])),
        ("1 MB command", request("x" * 1_000_000)),
        ("1 MB level", request("new_game", players=[HUMAN, _bot("e" * 1_000_000)])),
        ("1 MB rule name", request("new_game", rules={"r" * 1_000_000: 1})),
        ("200,000 one-tile sets", request("check", table=[[0]] * 200_000)),
        ("200,000 empty sets", request("check", table=[[]] * 200_000)),
        ("107 tiles in a set", request("check", table=[[*range(106), 0]])),
        ("over 4 MB", request("view", pad="x" * 4_000_001)),
        # Names, kinds and flags.
        ("name a number", request("new_game", players=[{**HUMAN, "name": 7}, _bot()])),
        ("name an object", request("new_game", players=[{**HUMAN, "name": {"a": 1}}, _bot()])),
        ("kind alien", request("new_game", players=[HUMAN, {"kind": "alien"}])),
        ("kind missing", request("new_game", players=[HUMAN, {"level": "easy"}])),
        ("no person", request("new_game", players=[BOT, BOT])),
        ("quick 1", request("bot_turn", quick=1)),
        ("touched 'yes'", request("timeout", table=[[0]], touched="yes")),
        ("request not an object", "[1, 2]"),
        ("request not text", "null"),
        ("lone surrogate cmd", '{"cmd":"\\ud800"}'),
    ]
    return cases


def _new_game_with(key: str, raw: str) -> str:
    """A new game request, good but for ``key``, whose value is the raw JSON text ``raw``."""
    good = {"cmd": "new_game", "players": [HUMAN, _bot()], key: 0}
    return json.dumps(good).replace(f'"{key}": 0', f'"{key}": {raw}')


def _bot(level: str = "easy") -> dict[str, Any]:
    return {"name": "Bot", "kind": "bot", "level": level}


# ----- saves -------------------------------------------------------------------------------


def base_saves(call: Call) -> list[tuple[str, str]]:
    """Real saves to tamper with: a fresh game, one played a while (plays and draws, a
    second round), and a four-player game with every level and every variant on."""
    saves = []
    strict_reply(call(request("new_game", seed=3, players=[HUMAN, _bot()])))
    saves.append(("fresh", _save(call)))
    players = [HUMAN, _bot("easy"), _bot("medium")]
    strict_reply(call(request("new_game", seed=5, players=players, rules={"target": 50})))
    _play_a_while(call, 60)
    saves.append(("played", _save(call)))
    variants = {
        "opening": 50,
        "joker_penalty": 25,
        "wrap_runs": True,
        "locked_jokers": True,
        "easing_opening": True,
        "last_call": True,
        "no_winner_when_blocked": True,
        "turn_seconds": 60,
        "target": 0,
    }
    four = [HUMAN, _bot("easy"), _bot("medium"), _bot("hard")]
    strict_reply(call(request("new_game", seed=8, players=four, rules=variants)))
    _play_a_while(call, 12)
    saves.append(("variants", _save(call)))
    return saves


def _save(call: Call) -> str:
    return strict_reply(call(request("save")))["save"]


def _play_a_while(call: Call, turns: int) -> None:
    """Draws for the human, easy bot turns (quick), next rounds: a game that has moved."""
    for _ in range(turns):
        view = strict_reply(call(request("view")))["view"]
        if view["match_over"]:
            return
        if view["round_over"]:
            strict_reply(call(request("next_round")))
        elif view["current"] == view["me"]:
            strict_reply(call(request("draw")))
        else:
            strict_reply(call(request("bot_turn", quick=True)))


RETYPED = [None, True, False, 0, -1, 1.0, 2**53 - 1, "", "x", [], {}, [[]], "A" * 100_000]
RAW = ["NaN", "Infinity", "-Infinity", "1e400", "1" * 4_400, deep(5_000), deep(100_000)]


def _paths(data: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path to a value in JSON data."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*path, i))


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _replaced(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(data))
    parent = _at(copy, path[:-1])
    parent[path[-1]] = value
    return copy


def _raw(data: Any, path: tuple, text: str) -> str:
    """The save with the value at ``path`` replaced by raw JSON text (NaN, deep nesting)."""
    marker = "\u0000raw\u0000"
    return json.dumps(_replaced(data, path, marker)).replace(json.dumps(marker), text)


def tampered_saves(base: str, rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` corruptions of the save ``base``: the named tamperings of issue 37 first,
    then bits flipped, fields deleted, retyped and replaced by raw NaN or deep nesting."""
    data = json.loads(base)
    player = next(i for i, p in enumerate(data["players"]) if p["kind"] == "human")
    bot = 1 - player if player < 2 else 0
    named = [
        ("kind alien", ("players", bot, "kind"), "alien"),
        ("kind -Infinity", ("players", bot, "kind"), "\u0000-Infinity"),
        ("human level NaN", ("players", player, "level"), "\u0000NaN"),
        ("human level easy", ("players", player, "level"), "easy"),
        ("bot level unknown", ("players", bot, "level"), "godlike"),
        ("name 1 MB", ("players", player, "name"), "N" * 1_000_000),
        ("name 25 chars", ("players", player, "name"), "N" * 25),
        ("name empty", ("players", player, "name"), ""),
        ("name a number", ("players", player, "name"), 7),
        ("name an object", ("players", player, "name"), {"first": "A"}),
        ("version 1.0", ("version",), 1.0),
        ("version true", ("version",), True),
        ("version '1'", ("version",), "1"),
        ("target 10**4000", ("rules", "target"), "\u0000" + "1" + "0" * 4000),
        ("target 100,001", ("rules", "target"), 100_001),
        ("target NaN", ("rules", "target"), "\u0000NaN"),
        ("seed 3.0", ("seed",), float(data["seed"])),
        ("seed text", ("seed",), str(data["seed"])),
        ("log NaN", ("log",), "\u0000[NaN]"),
        ("log 51 lines", ("log",), ["a line"] * 51),
        ("log line 20,000 chars", ("log",), ["L" * 20_000]),
        ("log deep", ("log",), "\u0000" + deep(5_000)),
        ("seed 100,000 deep", ("seed",), "\u0000" + deep(100_000)),
        ("players 8,000 deep", ("players",), "\u0000" + deep(8_000, kinds="[{")),
        ("extra field", ("cheat",), True),
        ("current 1.0", ("rounds", 0, "current"), float(data["rounds"][0]["current"])),
        ("turn true", ("rounds", 0, "turn"), True),
        # Harmless: these must load, and play.
        ("a log line rewritten", ("log", 0), "Round 1: who knows who starts"),
        ("a good new name", ("players", player, "name"), "Zoë 🀄"),
    ]
    out = []
    for label, path, value in named:
        if isinstance(value, str) and value.startswith("\u0000"):
            out.append((label, _raw(data, path, value[1:])))
        else:
            out.append((label, json.dumps(_replaced(data, path, value))))
    out.append(("the whole save 100,000 deep", deep(100_000)))
    # "kind" -> "kInd", the one-bit flip of the issue, and a player with no kind at all.
    out.append(("kind flipped to kInd", base.replace('"kind":"bot"', '"kInd":"bot"', 1)))
    no_kind = json.loads(base)
    del no_kind["players"][bot]["kind"]
    out.append(("kind missing", json.dumps(no_kind)))
    while len(out) < count:
        out.append(random_tampering(base, rng))
    return out


def random_tampering(base: str, rng: random.Random) -> tuple[str, str]:
    """One random corruption of the save ``base``: a bit flipped, a field deleted or
    retyped, or a value replaced by raw NaN, a 4,400-digit number or deep nesting."""
    data = json.loads(base)
    roll = rng.random()
    path = rng.choice([p for p in _paths(data) if p])
    if roll < 0.35:
        raw = bytearray(base.encode())
        at = rng.randrange(len(raw))
        raw[at] ^= 1 << rng.randrange(8)
        return f"bit flip at byte {at}", raw.decode("utf-8", errors="replace")
    if roll < 0.55:
        del _at(data, path[:-1])[path[-1]]
        return f"deleted {path}", json.dumps(data)
    if roll < 0.85:
        value = rng.choice(RETYPED)
        return f"{path} = {json.dumps(value)[:20]}", json.dumps(_replaced(data, path, value))
    text = rng.choice(RAW)
    return f"{path} = raw {text[:12]}", _raw(data, path, text)


def _tiles_in_one_place(save: dict[str, Any]) -> None:
    state = save["rounds"][-1]
    ids = [*state["pool"], *(t for rack in state["racks"] for t in rack)]
    ids += [t for row in state["table"] for t in row]
    assert sorted(ids) == list(range(106)), "a tile is missing or in two places"


DEFAULT_RULES = Rules().to_json()


def _canonical(text: str) -> str:
    data = json.loads(text)
    data.setdefault("log", [])  # a save without a log loads with an empty one
    if isinstance(data.get("rules"), dict):  # and a rule it lacks takes its default
        data["rules"] = {**DEFAULT_RULES, **data["rules"]}
    return json.dumps(data, sort_keys=True)


def try_save(call: Call, base: str, text: str) -> str:
    """Load ``text`` over a game loaded from ``base``; returns "refused" or "accepted",
    or raises AssertionError.

    Refused: an error, and the game as it was. Accepted: the save comes back exactly as it
    was (nothing in it was dropped or changed to fit), every tile is in one place, and
    whoever must act next can act.
    """
    strict_reply(call(request("load", save=base)))
    before = _save(call)
    reply = strict_reply(call(request("load", save=text)))
    if "error" in reply:
        assert _save(call) == before, "a refused load changed the game"
        return "refused"
    again = _save(call)
    assert _canonical(again) == _canonical(text), "the save loaded as something else"
    _tiles_in_one_place(json.loads(again))
    view = reply["view"]
    if view["match_over"]:
        return "accepted"
    if view["round_over"]:
        act = request("next_round")
    elif view["current"] == view["me"]:
        act = request("draw")
    else:
        act = request("bot_turn", quick=True)
    acted = strict_reply(call(act))
    assert "error" not in acted, f"the loaded game is stuck: {acted['error']}"
    return "accepted"


def run_saves(call: Call, saves: list[tuple[str, str]], tampered: list[tuple[str, str, str]]):
    """Every tampered save (base label, label, text) tried; returns the counts of refused
    and accepted ones, and the failures as (label, what went wrong)."""
    bases = dict(saves)
    counts = {"refused": 0, "accepted": 0}
    failures = []
    for base, label, text in tampered:
        try:
            counts[try_save(call, bases[base], text)] += 1
        except (AssertionError, ValueError, KeyError, TypeError) as error:
            failures.append((f"{base}: {label}", str(error)[:300]))
    return counts, failures


def run_requests(call: Call, cases: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each request must be refused, with the game (a save) as it was; returns failures."""
    strict_reply(call(request("new_game", seed=2, players=[HUMAN, _bot()])))
    before = _save(call)
    failures = []
    for label, text in cases:
        try:
            reply = strict_reply(call(text))
            assert "error" in reply, "accepted"
            assert _save(call) == before, "the refusal changed the game"
        except (AssertionError, ValueError, KeyError, TypeError) as error:
            failures.append((label, str(error)[:300]))
            strict_reply(call(request("load", save=before)))
    return failures


def all_tampered(saves: list[tuple[str, str]], seed: int, per_save: int):
    """(base label, label, text) for ``per_save`` tamperings of each save."""
    rng = random.Random(seed)
    return [
        (name, label, text)
        for name, base in saves
        for label, text in tampered_saves(base, rng, per_save)
    ]
