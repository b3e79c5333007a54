"""What the solver works on and what it answers: a position as copies per face
(``_Problem``), the raw result of a search (``_Result``), the ``Play`` it is read into,
and the scores' scale (tiles placed first, then value).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..tiles import CODES, FACE_KEY, Tile

N = 13
COLOURS = 4
# A score is tiles placed * SCALE + the points they take off the rack (face values, a
# joker at the rules' penalty: at most 104 tiles' 728 and two jokers' 400, below SCALE).
SCALE = 2048
NEG = -(10**9)  # the score of what cannot be (table tiles left out)


class SolverInputError(ValueError):
    """A position the solver cannot take (for example a tile given twice)."""


@dataclass(frozen=True, slots=True)
class Play:
    """A solver answer: the whole table at the end of the turn and the rack tiles placed.

    ``placed`` is empty (and ``table`` the table as it was) when there is no play.
    ``value`` is the points the placed tiles take off the rack (face values, a joker at
    the rules' joker penalty); before opening it is the opening total (a joker counting
    as the tile it stands for). ``changed`` counts table sets not kept whole.
    ``proven`` is False when a search gave up at its effort first: then a better play may
    exist (and "no opening", or no play, means none was found).
    """

    table: list[list[Tile]]
    placed: list[Tile]
    value: int
    changed: int = 0
    notes: tuple[str, ...] = field(default=())
    proven: bool = True

    @property
    def count(self) -> int:
        return len(self.placed)

    @property
    def found(self) -> bool:
        return bool(self.placed)

    def to_json(self) -> dict[str, Any]:
        codes = CODES  # (each tile's code, looked up by id: ``Tile.code`` is a property)
        return {
            "table": [[codes[t.id] for t in row] for row in self.table],
            "placed": [codes[t.id] for t in self.placed],
            "value": self.value,
            "proven": self.proven,
        }


@dataclass(slots=True)
class _Problem:
    """A position as the search takes it: copies per face, jokers, the variant."""

    table: list[int]  # per face (colour * 13 + number - 1): table copies, must be used
    rack: list[int]  # per face: rack copies, may be used
    table_jokers: int
    rack_jokers: int
    wrap: bool = False
    cap: int | None = None  # opening mode: the value to reach
    # With wrap-around runs the numbers are a circle, so the search may cut it anywhere:
    # place n of the search holds number (n - 1 + shift) % 13 + 1 (``search._rotated``).
    shift: int = 0
    joker: int = 30  # what a rack joker placed scores besides SCALE: the joker penalty

    @property
    def joker_score(self) -> int:
        """The score a rack joker adds when placed, wherever it stands."""
        return SCALE + self.joker


# The number each place 1..13 of the search holds, per shift (index 0 unused); and for
# MIRROR, the numbers from 13 down to 1 (without wrap-around runs: ``search._search``).
MIRROR = N
_NUMBERS = [(0, *((n - 1 + shift) % N + 1 for n in range(1, N + 1))) for shift in range(N)]
_NUMBERS.append((0, *(N + 1 - n for n in range(1, N + 1))))


@dataclass(slots=True)
class _Result:
    """A search's best play: its score, final state key and path (one option per step),
    with the colours' bounds it used and the cut of the number circle it searched."""

    score: int
    final: int
    path: list[Any]
    bounds: list[list[dict[int, int]]]
    shift: int = 0


def _counts(tiles: Sequence[Tile]) -> tuple[list[int], int]:
    """Copies per face (colour * 13 + number - 1) of these tiles, and their jokers."""
    counts = [0] * (COLOURS * N + 1)
    face = FACE_KEY  # by id: a tile's face, the jokers' JOKER_KEY (52)
    for tile in tiles:
        counts[face[tile.id]] += 1
    jokers = counts.pop()
    return counts, jokers


def _each_could_fit(counts: list[int], jokers: int, wrap: bool) -> bool:
    """A quick necessary test: every tile has neighbours (or jokers) for some run or group."""
    if sum(counts) + jokers < 3:
        return False
    if jokers >= 2:
        return True  # (two jokers make a set with any tile)
    for f, k in enumerate(counts):
        if not k:
            continue
        c, i = divmod(f, N)
        # The colours with a tile of this number (this one too), and the jokers.
        here = (counts[i] > 0) + (counts[N + i] > 0) + (counts[2 * N + i] > 0)
        here += counts[3 * N + i] > 0
        if here + jokers >= 3:
            continue
        fits = False
        base = c * N
        for start in range(i - 2, i + 1):
            if not wrap and (start < 0 or start + 2 >= N):
                continue
            missing = 0
            for m in (start, start + 1, start + 2):
                if not counts[base + m % N]:
                    missing += 1
            if missing <= jokers:
                fits = True
                break
        if not fits:
            return False
    return True
