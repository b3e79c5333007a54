"""Tiles: identity, notation and the 106-tile deck.

Every physical tile has an id from 0 to 105. Numbered tiles are
``id = copy * 52 + colour * 13 + (number - 1)``; the two jokers are 104 and 105.

>>> Tile.parse("R5").code
'R5'
>>> Tile(104).is_joker
True
>>> [t.code for t in parse_tiles("K13 J")]
['K13', 'J']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from .limits import quote

__all__ = [
    "CODES",
    "DECK",
    "FACE_KEY",
    "JOKER_IDS",
    "JOKER_KEY",
    "Colour",
    "Face",
    "Tile",
    "TileError",
    "assign_ids",
    "face_signature",
    "parse_face",
    "parse_tiles",
    "shuffled_deck",
]


class TileError(ValueError):
    """A tile code or tile id that does not name a tile of the game."""


class Colour(IntEnum):
    RED = 0
    BLUE = 1
    YELLOW = 2
    BLACK = 3

    @property
    def letter(self) -> str:
        return "RBYK"[self]

    @property
    def word(self) -> str:
        return ("red", "blue", "yellow", "black")[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        index = "RBYK".find(letter.upper())
        if index < 0 or len(letter) != 1:
            raise TileError(f"unknown colour {quote(letter)} (use R, B, Y or K)")
        return cls(index)


JOKER_IDS = (104, 105)
COPIES = 2


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """What a tile shows, without its identity: a colour and a number, or a joker.

    Jokers have ``colour`` and ``number`` set to None.
    """

    colour: Colour | None
    number: int | None

    @property
    def is_joker(self) -> bool:
        return self.number is None

    @property
    def code(self) -> str:
        if self.number is None or self.colour is None:
            return "J"
        return f"{self.colour.letter}{self.number}"

    @property
    def label(self) -> str:
        if self.number is None or self.colour is None:
            return "joker"
        return f"{self.colour.word} {self.number}"

    @property
    def value(self) -> int:
        """Face value; a joker's value depends on where it stands (see ``sets``)."""
        return self.number or 0

    def __str__(self) -> str:
        return self.code


JOKER = Face(None, None)


def parse_face(code: str) -> Face:
    """Parse ``R5``, ``k13`` or ``J`` into a :class:`Face`.

    >>> parse_face("Y12")
    Face(colour=<Colour.YELLOW: 2>, number=12)
    """
    if not isinstance(code, str):
        raise TileError(f"a tile code must be text, not {type(code).__name__}")
    text = code.strip().upper()
    if text in ("J", "JOKER"):
        return JOKER
    if len(text) < 2:
        raise TileError(f"unknown tile {quote(code)}")
    colour = Colour.from_letter(text[0]) if text[0] in "RBYK" else None
    # isdigit alone lets through "²" (int() then fails) and non-ASCII digits.
    if colour is None or not (text[1:].isascii() and text[1:].isdigit()):
        raise TileError(f"unknown tile {quote(code)}")
    number = int(text[1:])
    if not 1 <= number <= 13:
        raise TileError(f"unknown tile {quote(code)}: numbers run from 1 to 13")
    return Face(colour, number)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One physical tile, identified by its id (0..105)."""

    id: int

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or isinstance(self.id, bool) or not 0 <= self.id <= 105:
            raise TileError(f"unknown tile id {quote(self.id)}")

    @classmethod
    def parse(cls, code: str, copy: int = 0) -> Tile:
        """The given copy (0 or 1) of the tile with this code."""
        return cls.of(parse_face(code), copy)

    @classmethod
    def of(cls, face: Face, copy: int = 0) -> Tile:
        if copy not in (0, 1):
            raise TileError(f"there are only two copies of {face.code}")
        if face.is_joker:
            return cls(JOKER_IDS[copy])
        assert face.colour is not None and face.number is not None
        return cls(copy * 52 + int(face.colour) * 13 + face.number - 1)

    @property
    def is_joker(self) -> bool:
        return self.id >= 104

    @property
    def face(self) -> Face:
        return _FACES[self.id]

    @property
    def colour(self) -> Colour | None:
        return self.face.colour

    @property
    def number(self) -> int | None:
        return self.face.number

    @property
    def code(self) -> str:
        return CODES[self.id]

    @property
    def label(self) -> str:
        return self.face.label

    @property
    def rack_value(self) -> int:
        """Face value; a joker is scored by the rules' joker penalty instead."""
        return self.face.value

    def to_json(self) -> dict:
        face = self.face
        return {
            "id": self.id,
            "code": face.code,
            "color": face.colour.word if face.colour is not None else None,
            "number": face.number,
            "joker": face.is_joker,
            "label": face.label,
        }

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.id}:{self.code})"


def _face_of_id(tile_id: int) -> Face:
    if tile_id >= 104:
        return JOKER
    rest = tile_id % 52
    return Face(Colour(rest // 13), rest % 13 + 1)


_FACES = tuple(_face_of_id(i) for i in range(106))
# Each tile id's code, as written in answers.
CODES = tuple(face.code for face in _FACES)
DECK: tuple[Tile, ...] = tuple(Tile(i) for i in range(106))
# The first copy's id of each code as written in answers (other spellings, and what is
# not a tile, go through ``parse_face``): reading a position is then a look-up a tile.
_FIRST_ID = {CODES[i]: i for i in range(52)} | {"J": JOKER_IDS[0]}

# A tile id's face as a small int, where copies of a face (and the two jokers) are alike:
# 0..51 by id, JOKER_KEY for either joker. For keeping table sets whole and settling a
# table, which match sets face for face.
JOKER_KEY = 52
FACE_KEY: tuple[int, ...] = (*(i % 52 for i in range(104)), JOKER_KEY, JOKER_KEY)


def face_signature(row: Iterable[Tile]) -> tuple[int, ...]:
    """A set's faces (``FACE_KEY``), sorted: copies of a face, and the two jokers, alike."""
    return tuple(sorted([FACE_KEY[t.id] for t in row]))


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Tiles for codes given as ``"R5 B5 J"`` or ``["R5", "B5", "J"]``.

    Repeated codes get the second copy; a third copy is an error.
    """
    codes = text.split() if isinstance(text, str) else list(text)
    return assign_ids([codes])[0]


def assign_ids(rows: Iterable[Iterable[str]], taken: set[int] | None = None) -> list[list[Tile]]:
    """Give every code in ``rows`` a distinct physical tile, first copies first.

    ``taken`` holds ids already in use elsewhere; it is updated.
    """
    used = bytearray(len(DECK))  # (flags by id: a command-line solve reads 50 tiles a line)
    if taken:
        for tid in taken:
            used[tid] = 1
    first_id = _FIRST_ID
    deck = DECK
    result = []
    for row in rows:
        tiles = []
        for code in row:
            first = first_id.get(code) if type(code) is str else None
            if first is None:
                first = Tile.of(parse_face(code)).id
            # The second copy: 52 ids on, or the other joker.
            if used[first]:
                tid = first + 1 if first >= 104 else first + 52
                if used[tid]:
                    raise TileError(f"there are only two {CODES[first]} tiles in the game")
            else:
                tid = first
            used[tid] = 1
            tiles.append(deck[tid])
        result.append(tiles)
    if taken is not None:
        taken.update(t.id for row in result for t in row)
    return result


def shuffled_deck(rng: random.Random) -> list[Tile]:
    """All 106 tiles in a random order drawn from ``rng``."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck
