"""Reading a search's answer back: the sets its path makes (runs, tails joined to heads,
groups), then a physical tile for every place in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..tiles import Tile
from .moves import _MOVE_LIST, HEAD, T1, T2, _group_partitions, _Move
from .problem import _NUMBERS, COLOURS, MIRROR, N, _Problem, _Result


@dataclass(slots=True)
class _Slot:
    """A run being built: items are (number, face index or -1 for a joker, joker kind)."""

    items: list[tuple[int, int, str]]
    kind: str = "run"  # "run", "tail" or "head"
    tail_class: int = 0
    tail: _Slot | None = None  # a head's matching tail (wrap-around runs)


def _read_back(problem: _Problem, result: _Result) -> list[list[tuple[int, int, str]]]:
    """The sets of the best play as lists of (number, face or -1, joker kind "T"/"R")."""
    sets = _build_sets(result.path)
    if not result.shift:
        return sets
    numbers = _NUMBERS[result.shift]
    sets = [
        [(numbers[n], -1 if face < 0 else face - n + numbers[n], kind) for n, face, kind in row]
        for row in sets
    ]
    if result.shift != MIRROR:
        return sets
    # Searched from 13 down: runs read back high to low (a group's tiles all one number).
    return [row[::-1] if row[0][0] != row[-1][0] else row for row in sets]


_ACTION_ORDER = {"end": 0, "tend": 0, "cont": 1, "idle": 1, "start": 2, "tail": 2, "head": 3}
# A move's slot actions in the order they are applied, without the idle ones, by the
# move's index in _MOVE_LIST.
_ORDERED_ACTIONS: dict[int, tuple[tuple[int, str, int], ...]] = {}


def _build_sets(path: list[Any]) -> list[list[tuple[int, int, str]]]:
    """The sets a search path makes: per step (colour ``c`` at number ``n``) its option's
    move and jokers, and after the last colour of a number, its groups closed."""
    sets: list[list[tuple[int, int, str]]] = []
    open_runs: list[list[_Slot]] = [[] for _ in range(COLOURS)]
    tails: list[list[_Slot]] = [[] for _ in range(COLOURS)]  # finished tails per colour
    group_tiles: list[tuple[int, int]] = []  # (colour, copies) at the current number
    for i, option in enumerate(path):
        n, c = i // COLOURS + 1, i % COLOURS
        mv = _MOVE_LIST[option[3]]
        if mv.group:
            group_tiles.append((c, mv.group))
        actions = _ORDERED_ACTIONS.get(option[3])
        if actions is None:
            # Ends first: a tail that ends here may be joined by a head that starts here.
            actions = _ORDERED_ACTIONS[option[3]] = tuple(
                a for a in sorted(mv.actions, key=lambda a: _ACTION_ORDER[a[1]]) if a[1] != "idle"
            )
        if actions:
            _runs_at(n, c, mv, option[4], option[5], actions, sets, open_runs, tails)
        if c == COLOURS - 1 and group_tiles:  # (no tile in groups: no group, nor jokers)
            _d, _s, a_t, b_r = option[6]
            sets.extend(_groups_at(n, group_tiles, ["T"] * a_t + ["R"] * b_r))
            group_tiles = []
    for c in range(COLOURS):
        for slot in open_runs[c]:
            if slot.tail is not None:
                sets.append(slot.items + slot.tail.items)
            else:
                sets.append(slot.items)
    return sets


def _runs_at(
    n: int,
    c: int,
    mv: _Move,
    a_t: int,
    b_r: int,
    actions: tuple[tuple[int, str, int], ...],
    sets: list[list[tuple[int, int, str]]],
    open_runs: list[list[_Slot]],
    tails: list[list[_Slot]],
) -> None:
    """Colour ``c``'s runs at number ``n`` after ``mv`` (``a_t`` table and ``b_r`` rack
    jokers in them): runs ended go to ``sets``, tails to ``tails``."""
    jokers = ["T"] * a_t + ["R"] * b_r
    real_left = mv.real - mv.group
    face = c * N + n - 1
    pool = list(open_runs[c])
    carried: list[_Slot] = []
    for old_value, act, _new in actions:
        if act in ("start", "tail", "head"):
            slot = _Slot([], "run" if act == "start" else act)
            if act == "head":
                slot.tail = _take_tail(tails[c], n)
        else:
            for slot in pool:
                if _slot_value(slot) == old_value:
                    break
            pool.remove(slot)
        if act == "end":
            sets.append(slot.items)
            continue
        if act == "tend":
            slot.tail_class = 1 if old_value == T1 else 2
            tails[c].append(slot)
            continue
        if real_left:
            slot.items.append((n, face, ""))
            real_left -= 1
        else:
            slot.items.append((n, -1, jokers.pop()))
        carried.append(slot)
    open_runs[c] = pool + carried


def _slot_value(slot: _Slot) -> int:
    kind = slot.kind
    if kind == "run":
        length = len(slot.items)
        return length if length < 3 else 3
    if kind == "head":
        return HEAD
    return T1 if len(slot.items) == 1 else T2


def _take_tail(tails: list[_Slot], n: int) -> _Slot:
    if n <= N - 1:
        for want in (1, 2):
            for tail in tails:
                if tail.tail_class == want:
                    tails.remove(tail)
                    return tail
    for tail in tails:
        if tail.tail_class == 2:
            tails.remove(tail)
            return tail
    raise AssertionError("no tail for a head")


def _groups_at(
    n: int, group_tiles: list[tuple[int, int]], jokers: list[str]
) -> list[list[tuple[int, int, str]]]:
    doubles = [c for c, k in group_tiles if k == 2]
    singles = [c for c, k in group_tiles if k == 1]
    if not doubles and not singles:
        return []
    parts = _group_partitions(len(doubles), len(singles), len(jokers))
    assert parts is not None
    colours = doubles + singles
    out = []
    jokers = list(jokers)
    for part in parts:
        row = [(n, colours[i] * N + n - 1, "") for i in sorted(p for p in part if p >= 0)]
        row += [(n, -1, jokers.pop()) for p in part if p < 0]
        out.append(row)
    return out


def _assign(
    shapes: list[list[tuple[int, int, str]]],
    table_tiles: Sequence[Tile],
    rack_tiles: Sequence[Tile],
) -> tuple[list[list[Tile]], list[Tile]]:
    """Give each tile slot of the shapes a physical tile: table copies first."""
    by_face: dict[int, list[Tile]] = {}
    for tile in [*table_tiles, *rack_tiles]:
        if not tile.is_joker:
            by_face.setdefault(tile.id % 52, []).append(tile)
    table_ids = {t.id for t in table_tiles}
    jokers = {
        "T": [t for t in table_tiles if t.is_joker],
        "R": [t for t in rack_tiles if t.is_joker],
    }
    rows: list[list[Tile]] = []
    placed: list[Tile] = []
    for shape in shapes:
        row = []
        for _number, face, kind in shape:
            tile = jokers[kind].pop(0) if face < 0 else by_face[face].pop(0)
            if tile.id not in table_ids:
                placed.append(tile)
            row.append(tile)
        rows.append(row)
    return rows, placed
