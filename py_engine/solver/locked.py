"""Locked joker sets: each set holding a joker stays as it is or has its jokers swapped
for tiles they stand for, and every way is searched with the other sets free.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from ..rules import Rules
from ..sets import read_set
from ..tiles import Face, Tile
from .dp import closed_states
from .opened import _solve_open
from .problem import NEG, SCALE, Play
from .search import _give_up


def _jokers_locked(table: Sequence[Sequence[Tile]], rules: Rules) -> bool:
    """Whether this table's joker sets are locked (the rule on, and a joker there)."""
    return rules.locked_jokers and any(t.is_joker for row in table for t in row)


def _solve_locked(
    table: list[list[Tile]],
    rack: list[Tile],
    rules: Rules,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    """Locked joker sets: each set holding a joker stays, or has jokers swapped out for
    the tiles they stand for; freed jokers go into other sets. With ``effort``, the
    searches of all the ways together close the groups of at most that many states: the
    ways left when it is spent are not searched (and the play is not proven best)."""
    locked = [row for row in table if any(t.is_joker for t in row)]
    free_rows = [row for row in table if not any(t.is_joker for t in row)]
    best: Play | None = None
    best_key: tuple[int, int, int] | None = None
    start = closed_states()
    for combo in product(*(_swap_options(row, rules) for row in locked)):
        left = None if effort is None else effort - (closed_states() - start)
        if left is not None and left <= 0:
            _give_up()
            break
        fixed = [row for row, _, _ in combo]
        demand = [(face, i, pos) for i, (_, swaps, _) in enumerate(combo) for face, pos in swaps]
        loose = [j for _, _, jokers in combo for j in jokers]
        swapped = sum(1 for _, swaps, _ in combo if swaps)
        # Only a play as good as the best so far can win (on fewer sets changed): the
        # search need not look at the others.
        beat = NEG if best_key is None else best_key[0] * SCALE + best_key[1]
        play = _solve_open(free_rows, rack, rules, fixed, demand, loose, beat, layout, left)
        if play is None:
            continue
        changed = play.changed + swapped
        key = (play.count, play.value, -changed)
        if best_key is None or key > best_key:
            best_key, best = key, Play(play.table, play.placed, play.value, changed)
    return best or Play(table, [], 0)


def _swap_options(
    row: list[Tile], rules: Rules
) -> list[tuple[list[Tile], list[tuple[Face, int]], list[Tile]]]:
    """Ways a locked set may end the turn: (its row, (face, position) swaps, jokers freed)."""
    reading = read_set(row, rules.wrap_runs)
    options: list[tuple[list[Tile], list[tuple[Face, int]], list[Tile]]] = [(list(row), [], [])]
    tiles = list(reading.tiles)
    joker_positions = [i for i, t in enumerate(tiles) if t.is_joker]
    for size in range(1, len(joker_positions) + 1):
        for positions in combinations(joker_positions, size):
            freed = [tiles[i] for i in positions]
            if reading.kind == "run":
                faces = [Face(reading.colour, reading.numbers[i]) for i in positions]
                options.append((tiles, list(zip(faces, positions, strict=True)), freed))
                continue
            missing = sorted(reading.joker_faces(positions[0]))
            for chosen in combinations(missing, size):
                options.append((tiles, list(zip(chosen, positions, strict=True)), freed))
    return options
