"""Positions built to make the solver slow (issue 37, item 7): exact, each takes from a
second to minutes; with a budget, a bounded time. For tests/test_budget.py and
benchmarks/worst_positions.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from py_engine import bridge
from py_engine.rules import Rules
from py_engine.tiles import DECK, Tile, assign_ids

# Both copies of 1-4 in every colour and both jokers: no opening reaches 107 (80 in
# tiles, the jokers at most 13 each), and the search must look at every way to prove it.
ITEM_7 = [f"{c}{n}" for c in "RBYK" for n in range(1, 5) for _ in range(2)] + ["J", "J"]
# Both copies of 1-5 in every colour but Y4 and Y5, and of 1-5 with both jokers.
LOW_38 = [f"{c}{n}" for c in "RBYK" for n in range(1, 6) for _ in range(2)][:38]
LOW_42 = [f"{c}{n}" for c in "RBYK" for n in range(1, 6) for _ in range(2)] + ["J", "J"]
# 49 tiles drawn at random (seed 1): the most laid as sets from the rack alone.
_RANDOM_49 = (
    "R1 R1 R3 R4 R4 R5 R11 R11 R13 B3 B3 B4 B4 B5 B6 B7 B7 B9 B10 B12 B12 B13 Y1 Y1 Y2 Y2 "
    "Y5 Y6 Y6 Y7 Y8 Y8 Y9 Y10 Y10 Y11 Y11 Y12 Y12 Y13 K3 K4 K5 K7 K9 K10 K12 J J"
)
RANDOM_49 = _RANDOM_49.split()


@dataclass(frozen=True)
class Slow:
    name: str
    rack: list[str]
    rules: Rules  # ``opening`` is the threshold of an unopened rack
    opened: bool = False
    table: tuple[str, ...] = ()

    def position(self) -> tuple[list[list[Tile]], list[Tile]]:
        rows = assign_ids([*(row.split() for row in self.table), self.rack])
        return rows[:-1], rows[-1]

    def line(self) -> str:
        """The position as a line for ``python -m py_engine solve``."""
        return json.dumps(
            {
                "table": [row.split() for row in self.table],
                "rack": self.rack,
                "opened": self.opened,
                "rules": self.rules.to_json(),
                "threshold": self.rules.opening,
            }
        )


WRAP = Rules(wrap_runs=True)
SLOW = [
    Slow("item 7: 34 low tiles, threshold 107, wrap-around", ITEM_7, WRAP.with_(opening=107)),
    Slow("item 7: 34 low tiles, threshold 107", ITEM_7, Rules(opening=107)),
    Slow("38 low tiles, threshold 200", LOW_38, Rules(opening=200)),
    Slow("38 low tiles, threshold 200, wrap-around", LOW_38, WRAP.with_(opening=200)),
    Slow("42 low tiles, threshold 200, wrap-around", LOW_42, WRAP.with_(opening=200)),
    Slow("49 tiles after the opening, empty table, wrap-around", RANDOM_49, WRAP, True),
    Slow(
        "40 tiles, two locked joker groups, wrap-around",
        [c for c in RANDOM_49 if c != "Y2"][:40],
        WRAP.with_(locked_jokers=True),
        True,
        ("R8 B8 J", "K2 Y2 J"),
    ),
]
ITEM_7_WRAP = SLOW[0]


def hint_game(slow: Slow) -> None:
    """A bridge game in which the person, to move, holds ``slow``'s rack and the table
    holds its sets (every other tile in the pool or the other rack)."""
    players = [{"name": "You", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "hard"}]
    request = {"cmd": "new_game", "seed": 1, "players": players, "rules": slow.rules.to_json()}
    answer = json.loads(bridge.call(json.dumps(request)))
    assert "error" not in answer, answer
    game = bridge._session.round  # type: ignore[union-attr]
    table, rack = slow.position()
    taken = {t.id for row in table for t in row} | {t.id for t in rack}
    rest = [t for t in DECK if t.id not in taken]
    game.table, game.racks, game.pool = table, [rack, rest[:14]], rest[14:]
    game.current, game.opened = 0, [slow.opened, slow.opened]
