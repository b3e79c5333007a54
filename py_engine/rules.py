"""One object holding every rule setting of RULES.md, with its JSON names.

>>> Rules.from_json({"opening": 50}).opening
50
>>> Rules().to_json()["target"]
200
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .limits import quote

__all__ = ["Rules", "RulesError"]


class RulesError(ValueError):
    """A rules setting that does not exist or has an impossible value."""


# The largest value of each number rule. The page offers openings of 30 and 50, joker
# penalties of 25 and 30 and targets up to 300; these leave room for any real game and
# keep every score far inside the whole numbers JavaScript holds exactly.
LIMITS = {"opening": 200, "joker_penalty": 200, "target": 100_000, "players": 4}


@dataclass(frozen=True, slots=True)
class Rules:
    opening: int = 30
    joker_penalty: int = 30
    wrap_runs: bool = False
    locked_jokers: bool = False
    easing_opening: bool = False
    last_call: bool = False
    no_winner_when_blocked: bool = False
    turn_seconds: int | None = None
    target: int = 200
    players: int = 2

    def __post_init__(self) -> None:
        for name in (
            "wrap_runs",
            "locked_jokers",
            "easing_opening",
            "last_call",
            "no_winner_when_blocked",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rule {name} must be true or false")
        for name, most in LIMITS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(f"rule {name} must be a whole number of 0 or more")
            if value > most:
                raise RulesError(f"rule {name} must be at most {most:,}")
        if not 2 <= self.players <= 4:
            raise RulesError("a game has 2, 3 or 4 players")
        seconds = self.turn_seconds
        if seconds is not None and (
            not isinstance(seconds, int) or isinstance(seconds, bool) or not 5 <= seconds <= 3600
        ):
            raise RulesError("rule turn_seconds must be null (no clock) or 5 to 3600 seconds")

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError("rules must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            names = ", ".join(sorted(known))
            raise RulesError(f"unknown rule {quote(unknown[0])}; known rules: {names}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def with_(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    def opening_threshold(self, turns_without_opening: int) -> int:
        """The opening total a player needs, given their turns ended without opening.

        With the easing variant it drops by 5 after every 2 such turns, never below 10.
        """
        if not self.easing_opening:
            return self.opening
        eased = self.opening - 5 * (turns_without_opening // 2)
        return max(min(10, self.opening), eased)
