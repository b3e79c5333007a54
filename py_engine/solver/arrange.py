"""Laying given tiles out as valid sets by backtracking (``_arrange_plain``), faster than
the dynamic program on the small layouts the search for fewest sets changed tests.
"""

from __future__ import annotations

from itertools import combinations

from .problem import COLOURS, N, _each_could_fit

# The steps a layout may take (all the layouts of one search for fewest sets changed
# together: see FEWEST_TILES in fewest.py).
PLAIN_STEPS = 5_000


class _GiveUp(Exception):
    """A bounded search ran out of its budget."""


def _arrange_plain(
    counts: list[int], jokers: int = 0, steps: list[int] | None = None, wrap: bool = False
) -> list[list[int]] | None:
    """All of these tiles (counts per face, and ``jokers``) as valid sets: a list of sets
    of faces (-1 a joker), or None. The lowest tile left (by number) must be the lowest
    real tile of its set: a group of its number, or a run of 3 to 5 (longer runs split
    into those) whose places below its number hold jokers (with wrap-around runs, places
    past 13 hold higher numbers, real tiles or jokers). Ways that failed are remembered.
    Each try takes a step from ``steps[0]`` (PLAIN_STEPS by default); raises ``_GiveUp``
    when none are left.

    The tiles left are one integer, two bits a face in the order (number, colour), so
    its lowest bit set is a tile of the lowest number."""
    if not jokers and not any(counts):
        return []
    if not _each_could_fit(counts, jokers, wrap):
        return None
    state = 0
    for f, k in enumerate(counts):
        if k:
            c, i = divmod(f, N)
            state += k << 2 * (i * COLOURS + c)
    failed: set[int] = set()
    out: list[list[int]] = []
    steps = [PLAIN_STEPS] if steps is None else steps

    def place(state: int, j: int) -> bool:
        steps[0] -= 1
        if steps[0] < 0:
            raise _GiveUp
        if not state:
            return not j
        key = state << 2 | j
        if key in failed:
            return False
        slot = ((state & -state).bit_length() - 1) >> 1
        i = slot // COLOURS
        cap = 2 if j > 2 else j
        # What can be tried depends only on the tiles of numbers i to i + 4 (a run is at
        # most 5 long; a group is of number i) and, with wrap-around runs, of the four
        # numbers up to 13, where a run that wraps round below i can reach.
        window = state >> 8 * i & _WINDOW
        if wrap:
            window |= state >> 8 * (N - 4) << 40
        near = ((window << 6 | slot) << 3 | cap << 1) | wrap
        tries = _TRIES.get(near)
        if tries is None:
            if len(_TRIES) >= TRIES_KEPT:
                _TRIES.clear()
            shape = _shape(state, slot, cap, wrap)
            tries = _TRIES_BY_SHAPE.get(shape)
            if tries is None:
                tries = _TRIES_BY_SHAPE[shape] = _tries(state, slot, cap, wrap)
            _TRIES[near] = tries
        for taken, faces, used in tries:
            out.append(faces)
            if place(state - taken, j - used):
                return True
            out.pop()
        failed.add(key)
        return False

    try:
        found = place(state, jokers)
    finally:
        # ``place`` refers to itself: freed now, by reference counting, rather than by the
        # cyclic collector later.
        place = None  # type: ignore[assignment]
    # (Copies: the sets tried are kept for later layouts.)
    return [list(faces) for faces in out] if found else None


# The sets ``_arrange_plain`` tries for its lowest tile, by the tiles near it, its place
# and the jokers it may use (at most TRIES_KEPT kept, then all forgotten).
_WINDOW = (1 << 40) - 1
_TRIES: dict[int, list[tuple[int, list[int], int]]] = {}
TRIES_KEPT = 4096


# The same, by what they depend on (``_shape``): far fewer kinds than the tiles near a
# tile (answering the 300 hard-bot positions in one process, 7,155 lists were built by
# the tiles near, 1,515 by what they depend on). Never forgotten: 52 places, 3 joker
# counts, 2 variants and at most 4,096 ways for the tiles that matter to be there or not.
_TRIES_BY_SHAPE: dict[int, list[tuple[int, list[int], int]]] = {}


def _shape(state: int, slot: int, cap: int, wrap: bool) -> int:
    """What ``_tries`` reads of ``state`` for the tile at ``slot``: which other colours
    have a tile of its number, and which numbers above it (up to four on, and with
    wrap-around runs up to four on round the circle past 13) its colour has a tile of."""
    i, c = divmod(slot, COLOURS)
    here = state >> 2 * i * COLOURS
    mask = 0
    for o in range(COLOURS):
        if o != c and here >> 2 * o & 3:
            mask |= 1 << o
    for d in range(1, 5):
        if i + d < N and state >> 2 * ((i + d) * COLOURS + c) & 3:
            mask |= 1 << (3 + d)
        if wrap and i - d < 0 and state >> 2 * ((i - d + N) * COLOURS + c) & 3:
            mask |= 1 << (7 + d)
    return ((mask << 6 | slot) << 2 | cap) << 1 | wrap


def _tries(state: int, slot: int, cap: int, wrap: bool) -> list[tuple[int, list[int], int]]:
    """The sets to try for the tile at ``slot`` (the lowest left in ``state``) with up to
    ``cap`` jokers: (tiles taken, faces, jokers), groups first, then runs."""
    i, c = divmod(slot, COLOURS)
    first = c * N + i
    one = 1 << 2 * slot
    others = [
        (o * N + i, 1 << 2 * (i * COLOURS + o))
        for o in range(COLOURS)
        if o != c and state >> 2 * (i * COLOURS + o) & 3
    ]
    if not cap and not wrap:
        return _tries_plain(state, i, c, first, one, others)
    tries: list[tuple[int, list[int], int]] = []  # (tiles taken, faces, jokers)
    for size in (3, 2, 1):
        for chosen in combinations(others, size):
            taken = one + sum(bit for _, bit in chosen)
            faces = [first, *(f for f, _ in chosen)]
            for g in range(cap + 1):
                total = 1 + size + g
                if 3 <= total <= 4 and not (total == 3 and g == 2):
                    tries.append((taken, faces + [-1] * g, g))
    if wrap:
        for length in (3, 4, 5):
            for at in range(length):
                runs = [(one, [first], 0)]
                for q in (*range(at - 1, -1, -1), *range(at + 1, length)):
                    n = (i - at + q) % N
                    bit = 1 << 2 * (n * COLOURS + c)
                    real = n > i and state & (bit * 3)
                    grown = []
                    for taken, faces, used in runs:
                        cell = c * N + n
                        if real:
                            grown.append(
                                (
                                    taken + bit,
                                    [cell, *faces] if q < at else [*faces, cell],
                                    used,
                                )
                            )
                        if used < cap:
                            grown.append(
                                (taken, [-1, *faces] if q < at else [*faces, -1], used + 1)
                            )
                    runs = grown
                tries.extend(runs)
    for below in range(0 if wrap else min(cap, i) + 1):
        runs = [(one, [-1] * below + [first], below)]
        for m in range(i + 1, min(i + 5 - below, N)):
            bit = 1 << 2 * (m * COLOURS + c)
            real = bool(state & (bit * 3))
            grown = []
            for taken, faces, used in runs:
                if real:
                    grown.append((taken + bit, [*faces, c * N + m], used))
                if used < cap:
                    grown.append((taken, [*faces, -1], used + 1))
            runs = grown
            tries.extend(run for run in runs if len(run[1]) >= 3)
    return tries


def _tries_plain(
    state: int, i: int, c: int, first: int, one: int, others: list[tuple[int, int]]
) -> list[tuple[int, list[int], int]]:
    """``_tries`` without jokers or wrap-around runs (most layouts), the same sets in the
    same order: groups of four, then of three, then the runs of 3 to 5 up from the tile."""
    tries: list[tuple[int, list[int], int]] = []
    for size in (3, 2):
        for chosen in combinations(others, size):
            taken = one + sum(bit for _, bit in chosen)
            tries.append((taken, [first, *(f for f, _ in chosen)], 0))
    taken, faces = one, [first]
    for m in range(i + 1, min(i + 5, N)):
        bit = 1 << 2 * (m * COLOURS + c)
        if not state & (bit * 3):
            break
        taken, faces = taken + bit, [*faces, c * N + m]
        if len(faces) >= 3:
            tries.append((taken, faces, 0))
    return tries
