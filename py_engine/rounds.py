"""Rounds and matches: dealing, turn order, drawing, passing, the clock, resigning,
the end of a round, scoring, and cumulative match scores.

A :class:`Round` is one deal played to its end; a :class:`Match` is a series of rounds
until a player's total reaches the target. Both are driven by a small set of verbs
(``play``, ``draw``, ``pass_``, ``timeout``, ``resign``) that either succeed or raise
:class:`IllegalAction` and change nothing.

>>> game = Round(Rules(), seed=7)
>>> len(game.racks[0]), len(game.pool)
(14, 78)
>>> first = game.current
>>> _ = game.draw()
>>> game.current == 1 - first, game.turn
(True, 2)
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .limits import MAX_NAME, MAX_SAVE_CHARS, JSONLimitError, quote, read_json, write_json
from .rules import Rules, RulesError
from .tiles import DECK, Tile, TileError, shuffled_deck
from .turns import TurnCheck, TurnProblem, check_turn

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "IllegalAction",
    "Match",
    "Outcome",
    "Reason",
    "Round",
    "SaveError",
    "blocked_scores",
    "went_out_scores",
]

HAND_SIZE = 14
PENALTY_TILES = 3
SAVE_FORMAT = "rummikub-save"
SAVE_VERSION = 1
SAVE_KEYS = ("format", "version", "seed", "rules", "players", "rounds")
PLAYER_KEYS = ("name", "kind", "level")


class IllegalAction(ValueError):
    """An action the rules do not allow now. The game is left exactly as it was."""

    def __init__(self, message: str, problems: Sequence[TurnProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class SaveError(ValueError):
    """A saved game that is corrupt, foreign or from an unknown format version."""


class Reason(Enum):
    """Why a round ended."""

    WENT_OUT = "went_out"
    BLOCKED = "blocked"
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class Outcome:
    reason: Reason
    winner: int | None
    rack_values: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "rack_values": list(self.rack_values),
            "scores": list(self.scores),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            Reason(data["reason"]),
            data["winner"],
            tuple(data["rack_values"]),
            tuple(data["scores"]),
        )


def went_out_scores(winner: int, rack_values: Sequence[int]) -> tuple[int, ...]:
    """A player went out: each other player loses their rack value, the winner gains the sum.

    >>> went_out_scores(0, [0, 5, 10, 3])
    (18, -5, -10, -3)
    """
    return tuple(
        sum(v for j, v in enumerate(rack_values) if j != winner) if i == winner else -v
        for i, v in enumerate(rack_values)
    )


def blocked_scores(
    winner: int | None, rack_values: Sequence[int], no_winner: bool = False
) -> tuple[int, ...]:
    """Pool empty and everyone passed: the lowest rack wins the differences.

    >>> blocked_scores(0, [12, 30, 47])
    (53, -18, -35)
    >>> blocked_scores(None, [12, 30, 47], no_winner=True)
    (-12, -30, -47)
    """
    if no_winner or winner is None:
        return tuple(-v for v in rack_values)
    low = rack_values[winner]
    losses = [max(0, v - low) for v in rack_values]
    return tuple(sum(losses) if i == winner else -loss for i, loss in enumerate(losses))


def _ids(rows: Sequence[Sequence[Tile]]) -> list[list[int]]:
    return [[t.id for t in row] for row in rows]


class Round:
    """One deal of Rummikub, from the who-starts draw to its outcome."""

    def __init__(self, rules: Rules | None = None, seed: int | str = 0) -> None:
        self.rules = rules or Rules()
        self.seed = seed
        rng = random.Random(f"rummikub-round:{seed}")
        n = self.rules.players
        self.who_starts, self.first = _who_starts(rng, n)
        deck = shuffled_deck(rng)
        self.racks: list[list[Tile]] = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n)]
        self.pool: list[Tile] = deck[n * HAND_SIZE :]
        self.table: list[list[Tile]] = []
        self.current = self.first
        self.turn = 1
        self.opened = [False] * n
        self.waits = [0] * n  # own turns ended without opening (easing variant)
        self.passes = 0  # passes in a row while the pool is empty
        self.last_call_left: int | None = None
        self.resigned = [False] * n
        self.outcome: Outcome | None = None
        self.actions: list[dict[str, Any]] = []
        # The tiles each player drew at their last turn: none when it was a play or a pass.
        self.drawn: list[list[Tile]] = [[] for _ in range(n)]

    # ----- what a player may know -------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def threshold(self, player: int) -> int:
        """The opening total this player needs now."""
        return self.rules.opening_threshold(self.waits[player])

    def rack_value(self, player: int) -> int:
        return sum(
            self.rules.joker_penalty if t.is_joker else t.rack_value for t in self.racks[player]
        )

    def active_players(self) -> list[int]:
        return [p for p in range(self.players) if not self.resigned[p]]

    def check(self, table: Sequence[Sequence[Tile]], player: int | None = None) -> TurnCheck:
        """Check a proposed end-of-turn table for the current player; changes nothing."""
        self._require_turn(player)
        return self._check(table)

    def _check(self, table: Sequence[Sequence[Tile]]) -> TurnCheck:
        p = self.current
        return check_turn(
            self.table,
            table,
            self.racks[p],
            opened=self.opened[p],
            rules=self.rules,
            threshold=self.threshold(p),
        )

    # ----- the verbs ----------------------------------------------------------------

    def play(self, table: Sequence[Sequence[Tile]], player: int | None = None) -> TurnCheck:
        """Lay down: ``table`` is the whole table at the end of the turn."""
        self._require_turn(player)
        check = self._check(table)
        if not check.ok:
            raise IllegalAction(check.refusal, check.errors)
        self._apply_play(check)
        self._log({"action": "play", "table": _ids(check.table)})
        self._end_turn(played=True)
        return check

    def draw(self, player: int | None = None) -> Tile:
        """Take one tile from the pool instead of playing."""
        self._require_turn(player)
        if not self.pool:
            raise IllegalAction("The pool is empty: pass instead of drawing")
        tile = self._take_from_pool(1)[0]
        self._log({"action": "draw"})
        self._end_turn(played=False)
        return tile

    def pass_(self, player: int | None = None) -> None:
        """With the pool empty, a player who cannot or will not play passes."""
        self._require_turn(player)
        if self.pool:
            raise IllegalAction("You may only pass when the pool is empty; draw instead")
        self.passes += 1
        self.drawn[self.current] = []
        self._log({"action": "pass"})
        self._end_turn(played=False, passed=True)

    def draw_or_pass(self, player: int | None = None) -> Tile | None:
        """Draw when the pool has tiles, else pass."""
        if self.pool:
            return self.draw(player)
        self.pass_(player)
        return None

    def timeout(
        self, table: Sequence[Sequence[Tile]] | None, player: int | None = None
    ) -> tuple[str, list[Tile]]:
        """The turn clock ran out with ``table`` in progress (None: nothing was touched).

        Untouched: an ordinary draw (or pass). Fully legal: played. Otherwise the table
        snaps back and the player draws three penalty tiles (as many as the pool has).
        Returns what happened (``"draw"``, ``"pass"``, ``"play"``, ``"penalty"``) and the
        tiles drawn.
        """
        self._require_turn(player)
        if table is not None and _same_sets(table, self.table):
            table = None  # only moved about within sets, or put back: nothing was played
        if table is None:
            drawn = self.draw_or_pass()
            return ("draw", [drawn]) if drawn else ("pass", [])
        if self._check(table).ok:
            self.play(table)
            return "play", []
        return "penalty", self._penalty()

    def _penalty(self) -> list[Tile]:
        # Snap back (the table was never changed) and draw the penalty tiles.
        drawn = self._take_from_pool(PENALTY_TILES)
        if not drawn:
            self.passes += 1  # nothing left to draw: the turn counts as a pass
        self._log({"action": "penalty"})
        self._end_turn(played=False, passed=not drawn)
        return drawn

    def resign(self, player: int) -> None:
        """``player`` leaves the round; their rack is scored as an ordinary loser's."""
        if self.outcome is not None:
            raise IllegalAction("The round is over")
        if type(player) is not int or not 0 <= player < self.players:
            raise IllegalAction(f"There is no player {quote(player)}")
        if self.resigned[player]:
            raise IllegalAction("That player has already resigned")
        n, here = self.players, self.current
        if self.last_call_left is not None:
            # The players still owed a last turn, the current one first; this one's is lost.
            owed = [p for p in ((here + i) % n for i in range(n)) if not self.resigned[p]]
            if player in owed[: self.last_call_left]:
                self.last_call_left -= 1
        if player != here:
            # A pass of theirs in the current run of passes no longer counts.
            passers = [p for p in ((here - 1 - i) % n for i in range(n)) if not self.resigned[p]]
            if player in passers[: self.passes]:
                self.passes -= 1
        self.resigned[player] = True
        self.drawn[player] = []  # out of the round: nothing of theirs to tell
        self._log({"action": "resign", "player": player})
        active = self.active_players()
        if len(active) == 1:
            self._finish(Reason.RESIGNED, active[0])
            return
        if self.last_call_left == 0:
            self._finish_blocked()
            return
        if player == self.current:
            self.passes = 0
            self._advance()

    # ----- internals -------------------------------------------------------------------

    def _require_turn(self, player: int | None) -> None:
        if self.outcome is not None:
            raise IllegalAction("The round is over")
        if player is not None and player != self.current:
            raise IllegalAction("It is not your turn")

    def _log(self, action: dict[str, Any]) -> None:
        if "player" not in action:
            action = {"player": self.current, **action}
        self.actions.append(action)

    def _take_from_pool(self, count: int) -> list[Tile]:
        drawn = [self.pool.pop() for _ in range(min(count, len(self.pool)))]
        self.racks[self.current].extend(drawn)
        self.drawn[self.current] = drawn
        return drawn

    def _apply_play(self, check: TurnCheck) -> None:
        p = self.current
        placed = {t.id for t in check.placed}
        self.racks[p] = [t for t in self.racks[p] if t.id not in placed]
        self.table = check.table
        self.opened[p] = True
        self.drawn[p] = []

    def _end_turn(self, played: bool, passed: bool = False) -> None:
        p = self.current
        if not played and not self.opened[p]:
            self.waits[p] += 1
        if not passed:
            self.passes = 0
        if not self.racks[p]:
            self._finish(Reason.WENT_OUT, p)
            return
        active = self.active_players()
        if self.last_call_left is not None:
            self.last_call_left -= 1
            if self.last_call_left <= 0:
                self._finish_blocked()
                return
        elif self.rules.last_call and not self.pool:
            self.last_call_left = len(active)
        if self.passes >= len(active):
            self._finish_blocked()
            return
        self._advance()

    def _advance(self) -> None:
        n = self.players
        nxt = (self.current + 1) % n
        while self.resigned[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt
        self.turn += 1

    def _finish_blocked(self) -> None:
        if self.rules.no_winner_when_blocked:
            self._finish(Reason.BLOCKED, None)
            return
        values = [self.rack_value(p) for p in range(self.players)]
        # Lowest rack wins; a tie goes to the tied player who would have played next.
        order = [(self.current + 1 + i) % self.players for i in range(self.players)]
        contenders = [p for p in order if not self.resigned[p]]
        self._finish(Reason.BLOCKED, min(contenders, key=lambda p: values[p]))

    def _finish(self, reason: Reason, winner: int | None) -> None:
        values = tuple(self.rack_value(p) for p in range(self.players))
        if reason is Reason.BLOCKED:
            scores = blocked_scores(winner, values, self.rules.no_winner_when_blocked)
        else:
            assert winner is not None
            scores = went_out_scores(winner, values)
        self.outcome = Outcome(reason, winner, values, scores)

    # ----- saving -----------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything about the round, as JSON data (including hidden information)."""
        return {
            "seed": self.seed,
            "first": self.first,
            "racks": _ids(self.racks),
            "table": _ids(self.table),
            "pool": [t.id for t in self.pool],
            "current": self.current,
            "turn": self.turn,
            "opened": list(self.opened),
            "waits": list(self.waits),
            "passes": self.passes,
            "last_call_left": self.last_call_left,
            "resigned": list(self.resigned),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "actions": [dict(a) for a in self.actions],
        }

    def apply(self, action: dict[str, Any]) -> None:
        """Replay one logged action (see :attr:`actions`)."""
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a JSON object")
        if self.outcome is not None:
            raise IllegalAction("The round is over")
        kind = action.get("action")
        player = action.get("player")
        if kind == "resign":
            self.resign(player)  # type: ignore[arg-type]
            return
        if player != self.current:
            raise IllegalAction(f"action out of turn: {quote(action)}")
        if kind == "play":
            self.play(tiles_from_ids(action.get("table")))
        elif kind == "draw":
            self.draw()
        elif kind == "pass":
            self.pass_()
        elif kind == "penalty":
            self._penalty()
        else:
            raise IllegalAction(f"unknown action {quote(kind)}")

    def tile_places(self) -> dict[int, str]:
        """Where each of the 106 tiles is: ``pool``, ``rack N`` or ``table``."""
        places: dict[int, str] = {}
        for where, tiles in [
            ("pool", self.pool),
            *((f"rack {p}", rack) for p, rack in enumerate(self.racks)),
            ("table", [t for row in self.table for t in row]),
        ]:
            for t in tiles:
                if t.id in places:
                    raise AssertionError(f"{t!r} is in {places[t.id]} and {where}")
                places[t.id] = where
        return places


def _same_sets(a: Sequence[Sequence[Tile]], b: Sequence[Sequence[Tile]]) -> bool:
    def key(rows: Sequence[Sequence[Tile]]) -> list[list[int]]:
        return sorted(sorted(t.id for t in row) for row in rows)

    return key(a) == key(b)


def tiles_from_ids(rows: Any) -> list[list[Tile]]:
    """A table given as lists of tile ids, checked; at most the game's 106 tiles in all
    (so a huge table is refused before it is read, and cannot make a huge answer)."""
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise IllegalAction("a table must be a list of sets, each a list of tile ids")
    if len(rows) > len(DECK) or sum(map(len, rows)) > len(DECK):
        raise IllegalAction(f"a table holds at most the game's {len(DECK)} tiles")
    try:
        return [[Tile(i) for i in row] for row in rows]
    except TileError as error:
        raise IllegalAction(str(error)) from None


def _who_starts(rng: random.Random, players: int) -> tuple[list[list[tuple[int, Tile]]], int]:
    """Each player draws a tile; the highest number starts; a joker or a tie draws again.

    Whoever drew a joker draws again (the others' numbers stand); players tied for the
    highest number draw again among themselves. Returns every draw (in rounds, for the
    tile-flip animation) and the starter.
    """
    deck = shuffled_deck(rng)
    draws: list[list[tuple[int, Tile]]] = []
    contenders = list(range(players))
    standing: dict[int, int] = {}  # the number each player still in the contest holds
    while True:
        this_round = []
        for p in contenders:
            tile = deck.pop()
            this_round.append((p, tile))
            if tile.is_joker:
                standing.pop(p, None)
            else:
                standing[p] = tile.number or 0
        draws.append(this_round)
        jokers = [p for p, tile in this_round if tile.is_joker]
        if jokers:
            contenders = jokers
        else:
            top = max(standing.values())
            contenders = [p for p in sorted(standing) if standing[p] == top]
            if len(contenders) == 1:
                return draws, contenders[0]
            standing = {p: top for p in contenders}
        if len(deck) < len(contenders):  # pragma: no cover - cannot happen with 106 tiles
            deck = shuffled_deck(rng)


class Match:
    """A series of rounds until a player's total reaches the target (0: one round)."""

    def __init__(
        self, rules: Rules | None = None, seed: int = 0, players: list[dict] | None = None
    ) -> None:
        self.rules = rules or Rules()
        self.seed = seed
        self.players = players or [{"name": f"Player {i + 1}"} for i in range(self.rules.players)]
        if len(self.players) != self.rules.players:
            raise RulesError("the players list must match rules.players")
        self.rounds: list[Round] = [Round(self.rules, self._round_seed(0))]

    def _round_seed(self, index: int) -> str:
        return f"{self.seed}:{index}"

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def history(self) -> list[tuple[int, ...]]:
        return [r.outcome.scores for r in self.rounds if r.outcome]

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.rules.players
        for scores in self.history:
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
        return totals

    @property
    def is_over(self) -> bool:
        """The round is over and a total has reached the target (every round counts,
        a resigned one too: resigning gives up the round, not the match).

        >>> match = Match(seed=1)
        >>> match.round.resign(0)
        >>> match.round.is_over, match.is_over, match.totals[0] < 0
        (True, False, True)
        """
        if not self.round.is_over:
            return False
        if self.rules.target == 0:
            return True
        return max(self.totals) >= self.rules.target

    @property
    def winner(self) -> int | None:
        """The highest total once the match is over (a tie goes to the earlier seat)."""
        if not self.is_over:
            return None
        totals = self.totals
        return max(range(len(totals)), key=lambda p: (totals[p], -p))

    def next_round(self) -> Round:
        if not self.round.is_over:
            raise IllegalAction("The round is still being played")
        if self.is_over:
            raise IllegalAction("The match is over")
        self.rounds.append(Round(self.rules, self._round_seed(len(self.rounds))))
        return self.round

    # ----- saving -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "rules": self.rules.to_json(),
            "players": self.players,
            "rounds": [r.state() for r in self.rounds],
        }

    def dumps(self) -> str:
        return write_json(self.to_json(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, data: Any) -> Match:
        """Restore a match by replaying each round's actions from its seed, then check
        that the result is exactly the saved state. (Saves from when a resignation ended
        the whole match have this same format; such a match now goes on to its next round.)"""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("this is not a saved Rummikub game")
        version = data.get("version")
        if type(version) is not int or version != SAVE_VERSION:  # 1.0 and true are not 1
            raise SaveError(f"unknown saved-game version {quote(version)}")
        unknown = sorted(map(str, set(data) - set(SAVE_KEYS)))
        if unknown:
            raise SaveError(f"the saved game is corrupt (an unknown field {quote(unknown[0])})")
        try:
            if not isinstance(data["rules"], dict):  # a save always writes every rule
                raise SaveError("the saved game is corrupt (its rules)")
            rules = Rules.from_json(data["rules"])
            players = data["players"]
            if not _saved_players_ok(players, rules.players):
                raise SaveError("the saved game is corrupt (its players)")
            seed = data["seed"]
            if type(seed) is not int:
                raise SaveError("the saved game is corrupt (its seed)")
            match = cls(rules, seed, players)
            rounds = data["rounds"]
            if not isinstance(rounds, list) or not rounds:
                raise SaveError("the saved game has no rounds")
            for index, saved in enumerate(rounds):
                if index:
                    match.next_round()
                for action in saved["actions"]:
                    match.round.apply(action)
                # Compared as JSON text: as Python values 1.0 and true would equal 1.
                if _as_text(match.round.state()) != _as_text(saved):
                    raise SaveError("the saved game is corrupt: its state does not match its moves")
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise SaveError(f"the saved game is corrupt ({error})") from None
        return match

    @classmethod
    def loads(cls, text: str) -> Match:
        return cls.from_json(parse_save(text))


def parse_save(text: str) -> Any:
    """The JSON data of a saved game's text (checked by :meth:`Match.from_json`), read
    within the bounds of :mod:`py_engine.limits`."""
    try:
        return read_json(text, MAX_SAVE_CHARS)
    except JSONLimitError as error:
        raise SaveError(f"the saved game is {error}") from None


def _saved_players_ok(players: Any, count: int) -> bool:
    """A save's players: ``count`` objects of short text fields (the bridge checks their
    kinds and levels, and that the game has one human)."""
    return (
        isinstance(players, list)
        and len(players) == count
        and all(
            isinstance(p, dict)
            and set(p) <= set(PLAYER_KEYS)
            and all(isinstance(v, str) and 0 < len(v) <= MAX_NAME for v in p.values())
            for p in players
        )
    )


def _as_text(data: Any) -> str:
    return json.dumps(data, sort_keys=True)
