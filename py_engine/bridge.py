"""The bridge the web page calls: JSON strings in, JSON strings out.

One game lives here (the worker hosts one page). Every request is an object with a
``cmd``; every answer is an object, or ``{"error": "..."}`` when the request was refused,
in which case nothing changed. The view a player receives hides what they may not see:
the other racks and the order of the pool. A request is read within the bounds of
:mod:`py_engine.limits` (length, nesting, numbers: no NaN in, none out), and a loaded save
must hold a game a new game could have become.

>>> import json
>>> answer = json.loads(call('{"cmd": "new_game", "seed": 1, "players": ['
...     '{"name": "You", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]}'))
>>> len(answer["view"]["rack"]), answer["view"]["pool"]
(14, 78)
>>> json.loads(call("{oops"))["error"][:20]
'The request is not v'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from . import bots
from .bots import LEVELS
from .limits import MAX_NAME, JSONLimitError, quote, read_json, write_json
from .rounds import IllegalAction, Match, Round, SaveError, parse_save, tiles_from_ids
from .rules import Rules, RulesError
from .sets import read_set
from .tiles import Tile, TileError
from .turns import TurnCheck, describe_play, narrate_play, play_steps

__all__ = ["LEVELS", "BridgeError", "call"]

LOG_LINES = 50
MAX_LOG_LINE = 10_000  # characters; the longest the engine writes is some hundreds


class BridgeError(ValueError):
    """A request the bridge cannot take (malformed, or not possible now)."""


class Session:
    """The game in progress and what the page has been told about it.

    One device may be passed round the table: any seat may be a person (``kind``
    "human"), and the others computers. With one person the log addresses them as "You";
    with several, everyone is named, and what only one of them may see (the tile they
    drew) is a private line of the log, shown in their own view alone.
    """

    def __init__(self, match: Match, log: list[Any] | None = None) -> None:
        self.match = match
        # Every player as a new game makes them (a loaded save's too): a known kind, a
        # bot's known level, a name of at most 24 characters. So whoever must act next
        # can: a person through the page, a bot through bot_turn.
        for i, p in enumerate(match.players):
            if player_entry(p, i, saved=True) != p:
                raise BridgeError(f"player {i + 1} has fields a new game does not make")
        self.people = [i for i, p in enumerate(match.players) if p["kind"] == "human"]
        if not self.people:
            raise BridgeError("a game needs at least one person")
        self.log: list[Any] = log or []
        # The lines the request in hand added to the log, as anyone at the table may read
        # them: what a page shows while the device is handed over (``told``).
        self.told: list[str] = []
        self.last_call_told: int | None = None  # the round whose last call the log told

    @property
    def round(self) -> Round:
        return self.match.round

    @property
    def shared(self) -> bool:
        """Several people share the device: each sees only their own rack."""
        return len(self.people) > 1

    def name(self, player: int) -> str:
        return str(self.match.players[player].get("name") or f"Player {player + 1}")

    def who(self, player: int, start: bool = True) -> str:
        """How the log names ``player``: the one person of a game is "You" ("you" within a
        sentence), everyone else by name."""
        if player in self.people and not self.shared:
            return "You" if start else "you"
        return self.name(player)

    def subject(self, player: int, verb: str) -> str:
        """``Computer 1 starts`` but ``You start``: the one person is addressed as "You"."""
        if player in self.people and not self.shared:
            return f"You {_SECOND_PERSON.get(verb, verb)}"
        return f"{self.name(player)} {verb}"

    def say(self, line: str, player: int | None = None, own: str | None = None) -> None:
        """Log ``line`` for everyone; with ``own``, ``player`` sees that instead (what only
        they may know, on a shared device)."""
        self.told.append(line)
        entry: Any = line
        if own is not None and own != line:
            # With one person nobody else reads the log: their own line is the line.
            entry = {"seat": player, "own": own, "all": line} if self.shared else own
        self.log.append(entry)
        del self.log[:-LOG_LINES]

    def log_for(self, viewer: int | None) -> list[str]:
        """The log as ``viewer`` may read it (None: anyone at the table)."""
        return [
            line if isinstance(line, str) else line["own" if line["seat"] == viewer else "all"]
            for line in self.log
        ]

    def next_person(self) -> int | None:
        """The person who acts next: the current player, or the first person after them in
        turn order still in the round (None when the round is over or none is left)."""
        game = self.round
        if game.is_over:
            return None
        active = set(game.active_players())
        for step in range(game.players):
            seat = (game.current + step) % game.players
            if seat in active and seat in self.people:
                return seat
        return None

    def seat(self, request: dict[str, Any], acting: bool = True) -> int | None:
        """Whom a request is for: its ``seat``, which must be a person's. Without one, the
        one person of the game; on a shared device, the person whose turn it is for an
        action, and nobody in particular (the view anyone may see) otherwise."""
        if "seat" in request and request["seat"] is not None:
            seat = request["seat"]
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.people:
                raise BridgeError(
                    f"seat must be a person's seat: {', '.join(map(str, self.people))}"
                )
            return seat
        if not self.shared:
            return self.people[0]
        if acting:
            if self.round.current in self.people:
                return self.round.current
            raise BridgeError("It is not a person's turn")
        return None

    def save(self) -> str:
        data = self.match.to_json()
        data["log"] = self.log
        return write_json(data, separators=(",", ":"), sort_keys=True)


_session: Session | None = None
_SECOND_PERSON = {"starts": "start"}


# ----- JSON shapes -----------------------------------------------------------------------


def _set_json(row: Sequence[Tile], rules: Rules) -> dict[str, Any]:
    """A table set as the view shows it; ``locked`` with the locked-joker-sets variant
    when it holds a joker (RULES.md: it may then change only by a joker's swap)."""
    reading = read_set(row, rules.wrap_runs)
    return {
        "tiles": [t.to_json() for t in row],
        "kind": reading.kind,
        "value": reading.value,
        "stands_for": list(reading.stands_for),
        "locked": rules.locked_jokers and any(t.is_joker for t in row),
    }


def view(session: Session, me: int | None) -> dict[str, Any]:
    """What the person in seat ``me`` may see of the game; with ``me`` None, what anyone
    at the table may see (no rack: the view shown while the device is handed over)."""
    match, game = session.match, session.round
    totals = match.totals
    next_person = session.next_person()
    return {
        "me": me,
        "people": list(session.people),
        # Whom the device goes to before anything of a rack is shown: the person who acts
        # next, when they are not the one looking (several people only).
        "hand_over": next_person if session.shared and next_person != me else None,
        "players": [
            {
                "name": session.name(p),
                "kind": info.get("kind"),
                "level": info.get("level"),
                "rack_count": len(game.racks[p]),
                "score": totals[p],
                "opened": game.opened[p],
                "resigned": game.resigned[p],
                "threshold": game.threshold(p),
            }
            for p, info in enumerate(match.players)
        ],
        "rack": [] if me is None else [t.to_json() for t in game.racks[me]],
        # what the player drew at their last turn, so a reloaded page can still say it
        "drawn": [] if game.is_over or me is None else [t.to_json() for t in game.drawn[me]],
        "table": [_set_json(row, game.rules) for row in game.table],
        "pool": len(game.pool),
        # the pool ran dry under "last call": each player has one turn left, the engine's rule
        "last_call": game.last_call_left is not None,
        "current": game.current,
        "turn": game.turn,
        "threshold": None if me is None else game.threshold(me),
        "opened": None if me is None else game.opened[me],
        "round": len(match.rounds),
        "round_over": game.is_over,
        "outcome": (
            {**game.outcome.to_json(), "totals": totals, "racks": _final_racks(game)}
            if game.outcome
            else None
        ),
        "match_over": match.is_over,
        "winner": match.winner,
        "history": [list(s) for s in match.history],
        "rules": match.rules.to_json(),
        "log": session.log_for(me),
    }


def _final_racks(game: Round) -> list[list[dict[str, Any]]]:
    # Once the round is over every rack is shown, as at a real table.
    return [[t.to_json() for t in rack] for rack in game.racks]


def _check_json(check: TurnCheck, wrap: bool) -> dict[str, Any]:
    return {
        "ok": check.ok,
        "placed": [t.id for t in check.placed],
        "errors": [e.to_json() for e in check.errors],
        "opening_value": check.opening_value,
        "threshold": check.threshold,
        "sets": [
            {
                "valid": r.valid,
                "kind": r.kind,
                "value": r.value if r.valid else 0,
                "stands_for": list(r.stands_for),
                # The row as the engine reads it (put in order when laid out of order):
                # stands_for goes with these ids, which may differ from the row sent.
                "order": [t.id for t in r.tiles],
                "message": r.problem,
            }
            for r in check.readings
        ],
    }


# ----- requests ----------------------------------------------------------------------------


def _need_session() -> Session:
    if _session is None:
        raise BridgeError("No game has been started")
    return _session


def _flag(request: dict[str, Any], key: str, default: bool = False) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise BridgeError(f"{key!r} must be true or false")
    return value


def _table_arg(request: dict[str, Any], key: str = "table") -> list[list[Tile]]:
    if key not in request:
        raise BridgeError(f"The request needs {key!r}")
    return tiles_from_ids(request[key])


def player_entry(p: Any, i: int, saved: bool = False, shared: bool = False) -> dict[str, Any]:
    """Player ``i`` as the game keeps them: ``{"name", "kind"}`` and a bot's ``"level"``.

    For a new game a missing name gets a default ("You" for the one person; "Player 2"
    when several people share the device, ``shared``, who the log names) and a long one
    is cut to 24 characters; a saved player (``saved``) must already be so, as the save
    compares this entry with what it holds.
    """
    if not isinstance(p, dict) or p.get("kind") not in ("human", "bot"):
        shown = f" (kind {quote(p.get('kind'))})" if isinstance(p, dict) and "kind" in p else ""
        raise BridgeError(f"player {i + 1} must be {{'kind': 'human' or 'bot', ...}}{shown}")
    name = p.get("name")
    if saved and not (isinstance(name, str) and 0 < len(name) <= MAX_NAME):
        raise BridgeError(f"player {i + 1}'s name must be text of 1 to {MAX_NAME} characters")
    if name is not None and not isinstance(name, str):
        raise BridgeError(f"player {i + 1}'s name must be text")
    person = f"Player {i + 1}" if shared else "You"
    name = name or (person if p["kind"] == "human" else f"Computer {i}")
    entry = {"name": name[:MAX_NAME], "kind": p["kind"]}
    if p["kind"] == "bot":
        level = p.get("level", None if saved else "hard")
        if level not in LEVELS:
            raise BridgeError(f"unknown level {quote(level)}; levels: {', '.join(LEVELS)}")
        entry["level"] = level
    return entry


def _new_game(request: dict[str, Any]) -> dict[str, Any]:
    global _session
    players = request.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise BridgeError("players must be a list of 2 to 4 players")
    people = sum(isinstance(p, dict) and p.get("kind") == "human" for p in players)
    clean = [player_entry(p, i, shared=people > 1) for i, p in enumerate(players)]
    # A person is named in the log, the scores and the hand-over, and their statistics
    # are kept by name: one called as another player (in any case) could not be told
    # apart. (Computers may share a name: a request may give one entry for every seat.)
    names = [entry["name"].casefold() for entry in clean]
    for entry, name in zip(clean, names, strict=True):
        if entry["kind"] == "human" and names.count(name) > 1:
            raise BridgeError(
                f"two players are called {quote(entry['name'])}: each person needs a name"
                " of their own"
            )
    if not isinstance(request.get("rules") or {}, dict):
        raise BridgeError("rules must be a JSON object")
    rules_json = dict(request.get("rules") or {})
    rules_json.setdefault("players", len(clean))
    rules = Rules.from_json(rules_json)
    if rules.players != len(clean):
        raise BridgeError("rules.players does not match the number of players")
    seed = request.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BridgeError("seed must be a whole number or null")
    session = Session(Match(rules, seed, clean))
    viewer = session.seat(request, acting=False)
    _announce_start(session)
    _session = session
    return {"view": view(session, viewer), "who_starts": _who_starts_json(session.round)}


def _announce_start(session: Session) -> None:
    game = session.round
    session.say(f"Round {len(session.match.rounds)}: {session.subject(game.first, 'starts')}")


def _who_starts_json(game: Round) -> list[list[dict[str, Any]]]:
    return [[{"player": p, "tile": t.to_json()} for p, t in draw] for draw in game.who_starts]


def _view(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    return {"view": view(session, session.seat(request, acting=False))}


def _check(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    check = session.round.check(_table_arg(request), player=session.seat(request))
    return _check_json(check, session.round.rules.wrap_runs)


def _after_turn(
    session: Session, events: list[dict[str, Any]], viewer: int | None
) -> dict[str, Any]:
    game = session.round
    # The turn that emptied the pool began the last call: every active player is owed one
    # more turn (the count only falls from there). Said once in the log.
    if (
        not game.outcome
        and game.last_call_left is not None
        and game.last_call_left == len(game.active_players())
        and session.last_call_told != len(session.match.rounds)
    ):
        session.last_call_told = len(session.match.rounds)
        session.say("The pool is empty: last call, every player has one more turn")
    if game.outcome:
        out = game.outcome
        if out.winner is None:
            session.say("The round is over: blocked, no winner")
        # Told in the past, as the score screen tells it ("went out and won the round").
        elif out.reason.value == "went_out":
            session.say(f"{session.subject(out.winner, 'went')} out and won the round")
        else:
            session.say(f"{session.subject(out.winner, 'won')} the round")
    return {"view": view(session, viewer), "events": events, "told": list(session.told)}


def _play(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    game = session.round
    me = session.seat(request)
    before = [list(row) for row in game.table]
    table = _table_arg(request)
    game.play(table, player=me)
    session.say(describe_play(session.who(me), before, game.table))
    return _after_turn(session, [{"type": "play", "player": me}], me)


def _draw(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    me = session.seat(request)
    tile = session.round.draw_or_pass(player=me)
    if tile is None:
        session.say(session.subject(me, "passed"))
        return _after_turn(session, [{"type": "pass", "player": me}], me)
    drew = session.subject(me, "drew")
    session.say(f"{drew} a tile", me, own=f"{drew} {_drawn(tile)}")
    return _after_turn(session, [{"type": "draw", "player": me, "tiles": [tile.to_json()]}], me)


def _drawn(*tiles: Tile) -> str:
    """The player's own draw, as their log says it: "B5", "a joker", "R1 J K2"."""
    if len(tiles) == 1 and tiles[0].is_joker:
        return "a joker"
    return " ".join(t.code for t in tiles)


def _timeout(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    game = session.round
    me = session.seat(request)
    table = None if request.get("table") is None else _table_arg(request)
    if not _flag(request, "touched", table is not None):
        table = None
    before = [list(row) for row in game.table]
    what, drawn = game.timeout(table, player=me)
    you = session.who(me, start=False)
    s = "" if len(drawn) == 1 else "s"
    lines = {  # what everyone may read; the drawn tiles are told to the player alone
        "draw": f"Time ran out: {you} drew a tile",
        "pass": f"Time ran out: {you} passed",
        "play": f"Time ran out: {describe_play(you, before, game.table)}",
        "penalty": "Time ran out: the table snapped back and "
        + (
            f"{you} drew {len(drawn)} penalty tile{s}"
            if drawn
            else "the pool is empty, so there was no penalty"
        ),
    }
    own = lines[what]
    if drawn:
        own = (
            f"Time ran out: {you} drew {_drawn(*drawn)}"
            if what == "draw"
            else f"{own}: {_drawn(*drawn)}"
        )
    session.say(lines[what], me, own=own)
    event = {"type": "timeout", "outcome": what, "player": me}
    event["tiles"] = [t.to_json() for t in drawn]
    return _after_turn(session, [event], me)


def _bot_turn(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    game = session.round
    if game.is_over:
        raise IllegalAction("The round is over")
    player = game.current
    info = session.match.players[player]
    if info.get("kind") != "bot":
        raise BridgeError("It is not a computer player's turn")
    seed = f"{session.match.seed}:{len(session.match.rounds)}:{game.turn}"
    # "quick": the page's watchdog stopped a turn that ran too long; play it at the
    # quickest level so the game goes on.
    level = "easy" if _flag(request, "quick") else info["level"]
    name = session.name(player)
    turn = bots.choose_turn(game, player, level, random.Random(seed), name=name)
    if turn.table is not None:
        game.play(turn.table, player=player)
        action = "play"
    else:
        action = "draw" if game.draw_or_pass(player=player) is not None else "pass"
    narration = turn.narration
    result = {
        "player": player,
        "action": action,
        "table": [[t.id for t in row] for row in game.table],
        "placed": [t.id for t in turn.placed],
        "steps": turn.steps,
        "narration": narration,
    }
    session.say(narration)
    viewer = session.seat(request, acting=False)
    answer = _after_turn(session, [{"type": result["action"], "player": player}], viewer)
    answer["turn"] = result
    return answer


def _hint(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    game = session.round
    me = session.seat(request)
    if game.is_over or game.current != me:
        raise IllegalAction("It is not your turn")
    best = bots.hint(game, me)
    if not best.found:
        return {"table": None, "placed": [], "steps": [], "proven": best.proven}
    # What to do, in words: "lay R10 B10 Y10 and add K7 to K4 K5 K6", and the tiles
    # placed in the order the words name them.
    said, placed = narrate_play(None, game.table, best.table)
    return {
        "table": [[t.id for t in row] for row in best.table],
        "placed": [t.id for t in placed],
        "steps": play_steps(game.table, best.table),
        "said": said,
        "proven": best.proven,
    }


def _resign(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    if session.shared and request.get("seat") is None:
        raise BridgeError("With several people, resign needs the 'seat' of the one resigning")
    me = session.seat(request)
    session.round.resign(me)
    session.say(session.subject(me, "resigned"))
    return _after_turn(session, [{"type": "resign", "player": me}], me)


def _next_round(request: dict[str, Any]) -> dict[str, Any]:
    session = _need_session()
    session.match.next_round()
    _announce_start(session)
    viewer = session.seat(request, acting=False)
    return {"view": view(session, viewer), "who_starts": _who_starts_json(session.round)}


def _save(request: dict[str, Any]) -> dict[str, Any]:
    return {"save": _need_session().save()}


def _load(request: dict[str, Any]) -> dict[str, Any]:
    global _session
    text = request.get("save")
    if not isinstance(text, str):
        raise BridgeError("load needs the saved game as a JSON string in 'save'")
    data = parse_save(text)  # parsed once: the match and the page's log both come from it
    log = data.pop("log", []) if isinstance(data, dict) else []
    match = Match.from_json(data)
    if (
        not isinstance(log, list)
        or len(log) > LOG_LINES
        or not all(_log_line(line, match) for line in log)
    ):
        raise SaveError("the saved game is corrupt (its log)")
    try:
        session = Session(match, log)
        viewer = session.seat(request, acting=False)
    except BridgeError as error:
        raise SaveError(f"the saved game is corrupt ({error})") from None
    _session = session
    return {"view": view(session, viewer)}


def _log_line(line: Any, match: Match) -> bool:
    """Whether ``line`` is a line of a saved log: a string, or a line with a private
    version for one seat (see :meth:`Session.say`)."""
    if isinstance(line, str):
        return len(line) <= MAX_LOG_LINE
    return (
        isinstance(line, dict)
        and set(line) == {"seat", "own", "all"}
        and all(isinstance(line[k], str) and len(line[k]) <= MAX_LOG_LINE for k in ("own", "all"))
        and isinstance(line["seat"], int)
        and not isinstance(line["seat"], bool)
        and 0 <= line["seat"] < len(match.players)
    )


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "new_game": _new_game,
    "view": _view,
    "check": _check,
    "play": _play,
    "draw": _draw,
    "timeout": _timeout,
    "bot_turn": _bot_turn,
    "hint": _hint,
    "resign": _resign,
    "next_round": _next_round,
    "save": _save,
    "load": _load,
}


def call(request: str) -> str:
    """Answer one JSON request with one JSON answer (see the module docstring)."""
    try:
        data = read_json(request)  # bounded in length, depth and numbers before it is read
    except JSONLimitError as error:
        return _error(f"The request is {error}")
    if not isinstance(data, dict):
        return _error("The request must be a JSON object")
    cmd = data.get("cmd")
    handler = HANDLERS.get(cmd) if isinstance(cmd, str) else None
    if handler is None:
        return _error(f"Unknown command {quote(cmd)}; commands: {', '.join(HANDLERS)}")
    if _session is not None:
        _session.told = []  # what this request adds to the log, told afresh
    try:
        return write_json(handler(data))
    except IllegalAction as error:
        return _error(str(error), [p.to_json() for p in error.problems])
    except (BridgeError, SaveError, RulesError, TileError) as error:
        return _error(str(error))
    except Exception as error:  # a bug: answer it rather than kill the worker's reply
        return _error(f"Internal error in {cmd}: {type(error).__name__}: {error}")


MAX_ERROR = 500  # characters of an error message; each names a bad value by a short prefix


def _error(message: str, problems: list[dict[str, Any]] | None = None) -> str:
    if len(message) > MAX_ERROR:
        message = message[: MAX_ERROR - 1] + "…"
    answer: dict[str, Any] = {"error": message}
    if problems:
        answer["errors"] = problems
    return write_json(answer)
