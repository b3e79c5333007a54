"""Random positions shaped like real games, for the solver's tests and benchmark.

A table is built from random valid sets (runs and groups, some with jokers) drawn from a
shuffled deck; the rack comes from the tiles left. Everything is fixed by the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from py_engine.rules import Rules
from py_engine.tiles import DECK, Tile


@dataclass
class Position:
    table: list[list[Tile]]
    rack: list[Tile]
    opened: bool
    rules: Rules

    def codes(self) -> dict:
        return {
            "table": [[t.code for t in row] for row in self.table],
            "rack": [t.code for t in self.rack],
            "opened": self.opened,
            "rules": self.rules.to_json(),
        }


def _free(available: dict[tuple[int, int], list[Tile]], colour: int, number: int) -> Tile | None:
    tiles = available.get((colour, number))
    return tiles[-1] if tiles else None


def random_table(
    rng: random.Random, size: int, jokers: bool = True, wrap: bool = False
) -> tuple[list[list[Tile]], list[Tile]]:
    """A table of about ``size`` tiles in valid sets, and the tiles left over (shuffled)."""
    deck = list(DECK)
    rng.shuffle(deck)
    available: dict[tuple[int, int], list[Tile]] = {}
    joker_tiles = [t for t in deck if t.is_joker] if jokers else []
    for t in deck:
        if not t.is_joker:
            available.setdefault((int(t.colour), t.number), []).append(t)
    table: list[list[Tile]] = []
    used: set[int] = set()
    attempts = 0
    while sum(len(r) for r in table) < size and attempts < 400:
        attempts += 1
        if rng.random() < 0.55:
            length = rng.choice([3, 3, 3, 4, 4, 5, 6, 7])
            colour = rng.randrange(4)
            top = 13 if wrap else 14 - length
            start = rng.randint(1, top)
            numbers = [(start + i - 1) % 13 + 1 for i in range(length)]
            cells = [(colour, n) for n in numbers]
        else:
            length = rng.choice([3, 3, 4])
            number = rng.randint(1, 13)
            colours = rng.sample(range(4), length)
            cells = [(c, number) for c in colours]
        joker_at = -1
        if joker_tiles and rng.random() < 0.25:
            joker_at = rng.randrange(len(cells))
        row: list[Tile] = []
        for i, (c, n) in enumerate(cells):
            if i == joker_at:
                row.append(joker_tiles[-1])
                continue
            tile = _free(available, c, n)
            if tile is None:
                row = []
                break
            row.append(tile)
        if not row or len({t.id for t in row}) != len(row):
            continue
        for t in row:
            if t.is_joker:
                joker_tiles.pop()
            else:
                available[(int(t.colour), t.number)].remove(t)
            used.add(t.id)
        table.append(row)
    rest = [t for t in deck if t.id not in used and (jokers or not t.is_joker)]
    rng.shuffle(rest)
    return table, rest


def random_position(
    rng: random.Random,
    *,
    table_size: int | None = None,
    rack_size: int | None = None,
    jokers: bool | None = None,
    opened: bool | None = None,
    rules: Rules | None = None,
) -> Position:
    """A random position; unset arguments are drawn at random."""
    rules = rules or Rules()
    if jokers is None:
        jokers = rng.random() < 0.6
    if opened is None:
        opened = rng.random() < 0.7
    if table_size is None:
        table_size = rng.randint(0, 90)
    if rack_size is None:
        rack_size = rng.randint(1, 30)
    table, rest = random_table(rng, table_size, jokers, rules.wrap_runs)
    rack = rest[:rack_size]
    return Position(table, rack, opened, rules)
