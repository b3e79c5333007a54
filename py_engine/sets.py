"""Sets (melds): is a row of tiles a group or a run, what each joker stands for, its value.

>>> from py_engine.tiles import parse_tiles
>>> reading = read_set(parse_tiles("R9 R10 J"))
>>> reading.kind, reading.stands_for, reading.value
('run', (None, None, 'R11'), 30)
>>> read_set(parse_tiles("K13 J J")).codes()
['J', 'J', 'K13']
>>> read_set(parse_tiles("R5 R5 B5")).problem
'a group cannot repeat a colour'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .tiles import Colour, Face, Tile

__all__ = ["SetReading", "read_set", "set_value", "valid_ids"]

GROUP = "group"
RUN = "run"


@dataclass(frozen=True, slots=True)
class SetReading:
    """What a row of tiles is.

    ``tiles`` is the row as it should be stored: as given when it was in order, else
    put in order with the jokers where they are worth most. ``numbers`` gives the
    number each position counts as (jokers included); ``stands_for`` the code each
    joker stands for (``"B5/K5"`` when a 3-tile group leaves two colours open) and
    None for real tiles.
    """

    tiles: tuple[Tile, ...]
    kind: str | None
    numbers: tuple[int, ...]
    stands_for: tuple[str | None, ...]
    problem: str | None = None
    colour: Colour | None = None
    number: int | None = None

    @property
    def valid(self) -> bool:
        return self.problem is None

    @property
    def value(self) -> int:
        return sum(self.numbers)

    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def joker_faces(self, position: int) -> frozenset[Face]:
        """The real tiles that may replace the joker at ``position``."""
        if self.kind == RUN:
            return frozenset({Face(self.colour, self.numbers[position])})
        if self.kind == GROUP:
            used = {t.colour for t in self.tiles if not t.is_joker}
            return frozenset(Face(c, self.number) for c in Colour if c not in used)
        return frozenset()


def _wrap(n: int) -> int:
    return (n - 1) % 13 + 1


def _invalid(tiles: Sequence[Tile], problem: str) -> SetReading:
    numbers = tuple(t.number or 0 for t in tiles)
    return SetReading(tuple(tiles), None, numbers, (None,) * len(tiles), problem)


def _as_group(tiles: Sequence[Tile], reals: list[Tile]) -> SetReading | str:
    jokers = len(tiles) - len(reals)
    number = reals[0].number
    assert number is not None
    if any(t.number != number for t in reals):
        return "a group must be one number"
    if len(tiles) > 4:
        return "a group has at most 4 tiles"
    if len({t.colour for t in reals}) != len(reals):
        return "a group cannot repeat a colour"
    if len(tiles) == 3 and jokers == 2:
        return "a 3-tile group can hold only one joker"
    missing = [c for c in Colour if c not in {t.colour for t in reals}]
    if len(missing) == jokers:
        # Each joker's colour is determined (a 4-tile group, or 3 colours shown).
        codes = iter(Face(c, number).code for c in missing)
        stands = tuple(None if not t.is_joker else next(codes) for t in tiles)
    else:
        either = "/".join(Face(c, number).code for c in missing)
        stands = tuple(None if not t.is_joker else either for t in tiles)
    return SetReading(tuple(tiles), GROUP, (number,) * len(tiles), stands, number=number)


def _run_numbers(start: int, length: int, wrap: bool) -> tuple[int, ...] | None:
    if length > 13:
        return None
    if not wrap and (start < 1 or start + length - 1 > 13):
        return None
    return tuple(_wrap(start + i) for i in range(length))


def _missing_numbers(held: set[int], wrap: bool) -> list[int]:
    """The fewest numbers that would make ``held`` (one colour, no repeats) consecutive,
    in run order. With wrap-around runs the numbers are a ring: of equally short ways,
    the one that does not cross from 13 to 1, else the one starting lowest."""
    if not wrap:
        return [num for num in range(min(held), max(held) + 1) if num not in held]
    best: tuple[int, bool, list[int]] | None = None
    for start in sorted(held):
        length = max((h - start) % 13 for h in held) + 1
        missing = [_wrap(start + i) for i in range(length) if _wrap(start + i) not in held]
        key = (len(missing), start + length - 1 > 13)
        if best is None or key < best[:2]:
            best = (*key, missing)
    assert best is not None
    return best[2]


def _numbers_text(numbers: list[int]) -> str:
    """``[6]`` -> "6", ``[2, 3, 4, 6]`` -> "2 to 4 and 6", ``[13, 1]`` -> "13 and 1"."""
    stretches: list[list[int]] = []
    for num in numbers:
        if stretches and num == stretches[-1][-1] + 1:
            stretches[-1].append(num)
        else:
            stretches.append([num])
    items: list[str] = []
    for stretch in stretches:
        if len(stretch) >= 3:
            items.append(f"{stretch[0]} to {stretch[-1]}")
        else:
            items.extend(str(num) for num in stretch)
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _as_run(tiles: Sequence[Tile], reals: list[Tile], wrap: bool) -> SetReading | str:
    colour = reals[0].colour
    if any(t.colour != colour for t in reals):
        return "a run must be one colour"
    numbers_held = [t.number for t in reals]
    if len(set(numbers_held)) != len(numbers_held):
        return "a run cannot repeat a number"
    n = len(tiles)
    if n > 13:
        return "a run has at most 13 tiles"

    def reading(order: Sequence[Tile], numbers: tuple[int, ...]) -> SetReading:
        stands = tuple(
            Face(colour, num).code if t.is_joker else None
            for t, num in zip(order, numbers, strict=True)
        )
        return SetReading(tuple(order), RUN, numbers, stands, colour=colour)

    # In order: read by position.
    first = next(i for i, t in enumerate(tiles) if not t.is_joker)
    assert tiles[first].number is not None
    numbers = _run_numbers(tiles[first].number - first, n, wrap)
    if numbers is not None and all(
        t.is_joker or t.number == num for t, num in zip(tiles, numbers, strict=True)
    ):
        return reading(tiles, numbers)

    # Out of order: the ascending arrangement worth most, jokers filling the gaps.
    held = set(numbers_held)
    best: tuple[int, tuple[int, ...]] | None = None
    for start in range(1, 14):
        numbers = _run_numbers(start, n, wrap)
        if numbers is None or not held <= set(numbers):
            continue
        if best is None or sum(numbers) > best[0]:
            best = (sum(numbers), numbers)
    if best is None:
        if not wrap and isinstance(_as_run(tiles, reals, wrap=True), SetReading):
            return "a run cannot go past 13 (1 is always low)"
        missing = _missing_numbers(held, wrap)
        text = f"{_numbers_text(missing)} {'is' if len(missing) == 1 else 'are'} missing"
        jokers_held = n - len(reals)
        if jokers_held:
            text += f", more than {'the joker' if jokers_held == 1 else 'the two jokers'} can fill"
        return f"a run needs consecutive numbers ({text})"
    numbers = best[1]
    by_number = {t.number: t for t in reals}
    jokers = iter(t for t in tiles if t.is_joker)
    order = [by_number[num] if num in by_number else next(jokers) for num in numbers]
    return reading(order, numbers)


def read_set(tiles: Sequence[Tile], wrap: bool = False) -> SetReading:
    """Read a row of tiles as a group or a run (see RULES.md, "Sets")."""
    tiles = tuple(tiles)
    if len(tiles) < 3:
        return _invalid(tiles, "a set needs at least 3 tiles")
    reals = [t for t in tiles if not t.is_joker]
    if len(tiles) - len(reals) > 2:
        return _invalid(tiles, "a set can hold at most two jokers")
    group = _as_group(tiles, reals)
    if isinstance(group, SetReading):
        return group
    run = _as_run(tiles, reals, wrap)
    if isinstance(run, SetReading):
        return run
    # Neither: explain the reading the player most likely meant.
    same_number = len({t.number for t in reals}) == 1
    same_colour = len({t.colour for t in reals}) == 1
    if same_number and len(reals) > 1:
        return _invalid(tiles, group)
    if same_colour:
        return _invalid(tiles, run)
    return _invalid(
        tiles,
        "this is neither a group (one number, different colours) "
        "nor a run (consecutive numbers, one colour)",
    )


def set_value(tiles: Sequence[Tile], wrap: bool = False) -> int:
    """The points a valid set is worth (jokers count as the tile they stand for)."""
    reading = read_set(tiles, wrap)
    if not reading.valid:
        raise ValueError(reading.problem)
    return reading.value


def valid_ids(ids: Sequence[int], wrap: bool = False) -> bool:
    """Whether tiles with these ids form a valid set, as ``read_set`` reads them, without
    reading them (several times sooner: for checking many sets).

    >>> valid_ids([0, 1, 104]), valid_ids([0, 13, 26, 39, 104])
    (True, False)
    """
    size = len(ids)
    if size < 3:
        return False
    faces = [i % 52 for i in ids if i < 104]
    jokers = size - len(faces)
    if jokers > 2:
        return False
    numbers = {f % 13 for f in faces}
    colours = {f // 13 for f in faces}
    if (
        len(numbers) == 1
        and size <= 4
        and len(colours) == len(faces)
        and not (size == 3 and jokers == 2)
    ):
        return True
    if len(colours) != 1 or len(numbers) != len(faces) or size > 13:
        return False
    if not wrap:
        return max(numbers) - min(numbers) < size
    ordered = sorted(numbers)
    gap = max(b - a for a, b in zip(ordered, [*ordered[1:], ordered[0] + 13], strict=True))
    return 13 - gap + 1 <= size
