"""The exact move solver: the play that places the most rack tiles.

Among plays placing the most rack tiles it picks the highest total value placed (a joker
counts as the tile it stands for), and among those it keeps as many table sets unchanged
as it can. Before opening it lays new sets from the rack only, worth at least the threshold.

>>> from .tiles import parse_tiles
>>> play = solve([parse_tiles("R3 R4 R5")], parse_tiles("R6 J B1"), opened=True)
>>> [[t.code for t in row] for row in play.table], [t.code for t in play.placed]
([['R3', 'R4', 'R5', 'R6', 'J']], ['R6', 'J'])
>>> solve([], parse_tiles("R10 B10 K10 R1"), opened=False).value
30

How it works: a dynamic program over the numbers 1..13 (after van Rijn, Takes and Vis,
2015). Going up the numbers, the state holds, for each colour, the lengths (0, 1, 2 or
"3 or more") of the at most two runs of that colour still open, and how many jokers have
been used. At each number every tile of that number either extends or starts a run or
goes into a group of that number; groups are closed at once. Table tiles must all be used,
rack tiles may be. The states are searched depth first with branch and bound: a state's
potential is its score plus an upper bound on what can follow (each colour on its own,
computed backwards once per colour, with the jokers shared out among the colours), so the
best play is usually found first and then proved. Wrap-around runs add "tail" runs that
start at 1 and "head" runs that must reach 13, matched up per colour; as the numbers then
make a circle, a search that runs long gives up and the circle is cut elsewhere (the
numbers renamed, their values kept), until one search ends within its budget. Locked
joker sets are taken out of the search, each joker either left alone or swapped for a
tile it stands for. Fewest sets changed comes last: with the play's placed tiles, the
table sets to break are searched exactly by iterative deepening (``_Fewest``) when few
placed tiles share sets with table tiles, within a budget; otherwise table sets are kept
whole where the play's own arrangement easily allows (``_keep_sets``).
"""

from __future__ import annotations

import gc
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, islice, product
from operator import itemgetter
from typing import Any

from .rules import Rules, RulesError
from .sets import read_set
from .tiles import FACE_KEY, JOKER_KEY, Face, Tile, TileError, assign_ids, face_signature

__all__ = [
    "Play",
    "SolverInputError",
    "arrangeable",
    "can_play",
    "clear_bound_cache",
    "solve",
    "solve_json",
]

N = 13
COLOURS = 4
SCALE = 1024  # score = tiles placed * SCALE + value placed

# Run slot values. 0 is an empty slot; 1, 2, 3 are open runs of that length (3 = 3 or
# more, may end); with wrap-around runs also tails (started at 1) and heads (reach 13).
EMPTY, T1, T2, HEAD = 0, 4, 5, 6

# State key fields (bit offsets): four colour "locals" of 8 bits, then table jokers used,
# rack jokers used, group counts of this number (colours with 2 tiles / 1 tile in groups),
# and the opening value (capped at the threshold).
SH_TJ, SH_RJ, SH_D, SH_S, SH_V = 32, 34, 36, 39, 42
COLOUR_SHIFT = (0, 8, 16, 24)


class SolverInputError(ValueError):
    """A position the solver cannot take (for example a tile given twice)."""


@dataclass(frozen=True, slots=True)
class Play:
    """A solver answer: the whole table at the end of the turn and the rack tiles placed.

    ``placed`` is empty (and ``table`` the table as it was) when there is no play.
    ``value`` is the total the placed tiles count for (a joker as the tile it stands for);
    before opening it is the opening total. ``changed`` counts table sets not kept whole.
    """

    table: list[list[Tile]]
    placed: list[Tile]
    value: int
    changed: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def count(self) -> int:
        return len(self.placed)

    @property
    def found(self) -> bool:
        return bool(self.placed)

    def to_json(self) -> dict[str, Any]:
        return {
            "table": [[t.code for t in row] for row in self.table],
            "placed": [t.code for t in self.placed],
            "value": self.value,
        }


# ----- the local (per colour) states and their moves -------------------------------------

_LOCALS: list[tuple[tuple[int, int], int, int]] = []
_LOCAL_INDEX: dict[tuple[tuple[int, int], int, int], int] = {}


def _local(slots: tuple[int, int], k1: int = 0, k2: int = 0) -> int:
    key = (slots if slots[0] <= slots[1] else (slots[1], slots[0]), k1, k2)
    index = _LOCAL_INDEX.get(key)
    if index is None:
        index = len(_LOCALS)
        _LOCALS.append(key)
        _LOCAL_INDEX[key] = index
    return index


_local((0, 0))  # index 0: nothing open, so the empty state is key 0


_FINAL_OK: dict[int, bool] = {}


def _local_final_ok(local: int) -> bool:
    ok = _FINAL_OK.get(local)
    if ok is None:
        (a, b), k1, k2 = _LOCALS[local]
        ok = _FINAL_OK[local] = (
            k1 == 0 and k2 == 0 and a in (0, 3, T2, HEAD) and b in (0, 3, T2, HEAD)
        )
    return ok


@dataclass(frozen=True, slots=True)
class _Move:
    """What one colour does at one number: slot actions and how its tiles are used."""

    old: int
    new: int
    real: int  # real tiles of this face used (runs + groups)
    group: int  # of which into groups at this number (0..2)
    jokers: int  # jokers used in this colour's runs at this number
    actions: tuple[tuple[int, str, int], ...]  # (old slot value, action, new slot value)
    index: int = field(compare=False)  # its place in _MOVE_LIST


# Slot actions: "idle", "start", "tail", "head", "cont", "end", "tend".
_FILLS = {"start": 1, "tail": 1, "head": 1, "cont": 1}


def _slot_actions(value: int, n: int, wrap: bool) -> list[tuple[str, int]]:
    if value == EMPTY:
        acts = [("idle", EMPTY), ("start", 1)]
        if wrap and n == 1:
            acts.append(("tail", T1))
        if wrap and n >= 2:
            acts.append(("head", HEAD))
        return acts
    if value in (1, 2):
        return [("cont", value + 1)]
    if value == 3:
        return [("cont", 3), ("end", EMPTY)]
    if value == T1:
        return [("cont", T2), ("tend", EMPTY)]
    if value == T2:
        return [("cont", T2), ("tend", EMPTY)]
    return [("cont", HEAD)]  # a head runs on to 13


_MOVES_CACHE: dict[tuple[int, int, int, int, bool], list[_Move]] = {}
# Every move made, by its index: the options the search keeps name a move by its index,
# so they are tuples of numbers only, which the cyclic garbage collector stops scanning
# after its first look (tuples holding a move it would scan at every full collection).
_MOVE_LIST: list[_Move] = []


def _moves(n: int, local: int, t: int, r: int, wrap: bool) -> list[_Move]:
    """Every move of one colour at number ``n`` from ``local`` with ``t`` table tiles
    (which must be used) and ``r`` rack tiles (which may be) of that face."""
    key = (n, local, t, r, wrap)
    cached = _MOVES_CACHE.get(key)
    if cached is not None:
        return cached
    (a, b), k1, k2 = _LOCALS[local]
    moves: list[_Move] = []
    seen: set[tuple[int, int, int, int]] = set()
    for (act_a, new_a), (act_b, new_b) in product(
        _slot_actions(a, n, wrap), _slot_actions(b, n, wrap)
    ):
        acts = (act_a, act_b)
        # Ending a run and starting another of the same colour at once is the same as
        # carrying the first run on, which leaves more choices later.
        if "end" in acts and "start" in acts:
            continue
        news = [new_a, new_b]
        # A normal run still shorter than 3 must be able to reach 3 by 13.
        if any(v in (1, 2) and n + 3 - v > N for v in news):
            continue
        if n == N and any(v in (1, 2, T1) for v in news):
            continue
        nk1, nk2 = k1, k2
        for act, old in ((act_a, a), (act_b, b)):
            if act == "tend":
                if old == T1:
                    nk1 += 1
                else:
                    nk2 += 1
        ok = True
        for act in acts:
            if act != "head":
                continue
            # A head b..13 joins a tail 1..a that ended before b; a tail of length 1
            # needs a head of length 2 or more.
            if n <= N - 1 and nk1:
                nk1 -= 1
            elif nk2:
                nk2 -= 1
            else:
                ok = False
        if not ok:
            continue
        fills = sum(_FILLS.get(act, 0) for act in acts)
        new = _local((new_a, new_b), nk1, nk2)
        if new_a <= new_b:
            actions = ((a, act_a, new_a), (b, act_b, new_b))
        else:
            actions = ((b, act_b, new_b), (a, act_a, new_a))
        for real_run in range(fills + 1):
            jokers = fills - real_run
            for group in range(3):
                real = real_run + group
                if not t <= real <= t + r:
                    continue
                sig = (new, real, group, jokers)
                if sig in seen:
                    continue
                seen.add(sig)
                mv = _Move(local, new, real, group, jokers, actions, len(_MOVE_LIST))
                _MOVE_LIST.append(mv)
                moves.append(mv)
    _MOVES_CACHE[key] = moves
    return moves


@cache
def _group_partitions(d: int, s: int, j: int) -> list[list[int]] | None:
    """Groups from ``d`` colours with two tiles, ``s`` colours with one tile and ``j``
    jokers: a list of groups, each a list of colour slots (-1 a joker), or None."""
    colours = [2] * d + [1] * s
    best: list[list[int]] | None = None

    def place(i: int, groups: list[list[int]]) -> bool:
        nonlocal best
        if i == len(colours):
            # Jokers: fill groups so each is legal (3-tile group: at most one joker).
            return finish(groups)
        # Each copy of colour i goes to a different group.
        need = colours[i]
        options = list(range(len(groups) + need))
        for chosen in combinations(options, need):
            new_groups = [list(g) for g in groups]
            fine = True
            for g in chosen:
                if g < len(new_groups):
                    new_groups[g].append(i)
                else:
                    if g != len(new_groups):
                        fine = False
                        break
                    new_groups.append([i])
            if fine and place(i + 1, new_groups):
                return True
        return False

    def finish(groups: list[list[int]]) -> bool:
        nonlocal best
        jokers_left = j
        out = []
        for g in groups:
            out.append(list(g))
        # Give jokers where they are needed, then anywhere legal.
        for g in out:
            if len(g) < 2:
                return False
            while len(g) < 3:
                if not jokers_left:
                    return False
                g.append(-1)
                jokers_left -= 1
        for g in out:
            while jokers_left and len(g) < 4:
                g.append(-1)
                jokers_left -= 1
        if jokers_left:
            return False
        for g in out:
            reals = len([c for c in g if c >= 0])
            jok = len(g) - reals
            if len(g) > 4 or len(g) < 3 or (len(g) == 3 and jok > 1) or reals < 2:
                return False
        best = out
        return True

    if place(0, []):
        return best
    return None


_GROUP_OK: dict[tuple[int, int, int], bool] = {
    (d, s, j): (d + s + j == 0) or _group_partitions(d, s, j) is not None
    for d in range(5)
    for s in range(5)
    for j in range(3)
    if d + s <= 4
}


# ----- the dynamic program ------------------------------------------------------------------


@dataclass(slots=True)
class _Problem:
    table: list[int]  # per face (colour * 13 + number - 1): table copies, must be used
    rack: list[int]  # per face: rack copies, may be used
    table_jokers: int
    rack_jokers: int
    wrap: bool = False
    cap: int | None = None  # opening mode: the value to reach
    # With wrap-around runs the numbers are a circle, so the search may cut it anywhere:
    # place n of the search holds number (n - 1 + shift) % 13 + 1 (see ``_rotated``).
    shift: int = 0


# The number each place 1..13 of the search holds, per shift (index 0 unused).
_NUMBERS = [(0, *((n - 1 + shift) % N + 1 for n in range(1, N + 1))) for shift in range(N)]


@dataclass(slots=True)
class _Result:
    score: int
    final: int
    path: list[Any]
    bounds: list[list[dict[int, int]]]
    shift: int = 0


NEG = -(10**9)
# Keeping a table set whole may need the tiles left around it laid out again: tried for
# up to this many tiles, as one set or two sets of three (``_lay_out_small``).
RELAYOUT_LIMIT = 6
JOKER_BEST = SCALE + N  # the most a rack joker can add


@cache
def _group_room(others: tuple[int, ...], jokers: int) -> int:
    """How many tiles of one colour (0, 1 or 2) can go into groups of one number, when
    the other colours have ``others`` tiles there (each 0..2) and ``jokers`` jokers join."""
    best = 0
    for g in (1, 2):
        for use in product(*(range(k + 1) for k in others)):
            d = (g == 2) + sum(1 for u in use if u == 2)
            s_ = (g == 1) + sum(1 for u in use if u == 1)
            if any(_GROUP_OK.get((d, s_, j), False) for j in range(jokers + 1)):
                best = g
                break
    return best


def _group_rooms(problem: _Problem) -> list[tuple[int, int, int]]:
    """Per face, how many of its tiles could at most go into groups of its number with
    0, 1 or 2 jokers joining them (the other colours' tiles there as partners)."""
    jokers = min(2, problem.table_jokers + problem.rack_jokers)
    table, rack = problem.table, problem.rack
    rooms: list[tuple[int, int, int]] = [(0, 0, 0)] * (COLOURS * N)
    for n in range(N):
        counts = tuple(min(2, table[c * N + n] + rack[c * N + n]) for c in range(COLOURS))
        if not any(counts):
            continue
        for c, room in enumerate(_number_rooms(counts, jokers)):
            rooms[c * N + n] = room
    return rooms


@cache
def _number_rooms(counts: tuple[int, ...], jokers: int) -> tuple[tuple[int, int, int], ...]:
    """``_group_rooms`` for one number: per colour with ``counts`` tiles (0..2) there."""
    out = []
    for c in range(COLOURS):
        if not counts[c]:
            out.append((0, 0, 0))
            continue
        others = tuple(sorted(counts[o] for o in range(COLOURS) if o != c))
        out.append(tuple(_group_room(others, min(k, jokers)) for k in range(3)))
    return tuple(out)  # type: ignore[return-value]


# Colours' bounds kept (with their options, some 35 KB each on late-game positions, so
# about 9 MB at most). Bots gain nothing from more: 4 expert-vs-hard rounds took 9.7 s of
# CPU with 2,048 kept (137 MB peak) and 9.1 s with 256 (45 MB), and memory matters in the
# browser, on phones above all.
BOUND_CACHE_SIZE = 256
_BOUND_CACHE: dict[
    tuple, tuple[list[dict[int, int]], list[dict[int, tuple[int, ...]]], dict[int, list]]
] = {}


def clear_bound_cache() -> None:
    """Forget the per-colour bounds (and the search options kept with them) of earlier
    solves, so the next solve starts as on a fresh position (the benchmark's ``--cold``)."""
    _BOUND_CACHE.clear()


def clear_caches() -> None:
    """Forget all that earlier solves kept: the bounds, and the tables of moves, steps,
    options and closings built as positions needed them, as in a new process (for a
    benchmark that times the same positions again; the answers never depend on them)."""
    clear_bound_cache()
    for kept in (_REACH, _RELAXED, _TEMPLATES, _CLOSINGS, _MOVES_CACHE, _FINAL_OK, _TRIES):
        kept.clear()
    _MOVE_LIST.clear()  # the options naming moves by index are all forgotten above
    _ORDERED_ACTIONS.clear()
    _number_rooms.cache_clear()
    _group_room.cache_clear()


# The locals a colour can reach at the next number from those it can reach at this one,
# with the moves (``_relaxed_moves``) of each of those: the bounds then go down the layers
# without working out moves again. At most REACH_KEPT kept (about 700 bytes each), then all
# forgotten: 300 random positions make about 2,700.
REACH_KEPT = 1 << 13
_RelaxedMoves = tuple[tuple[int, int, int], ...]  # relaxed moves: (new local, halves, rack tiles)
_REACH: dict[tuple, tuple[tuple[int, ...], tuple[tuple[int, _RelaxedMoves], ...]]] = {}


def _colour_bounds(
    problem: _Problem, c: int, rooms: list[tuple[int, int, int]]
) -> tuple[list[dict[int, int]], list[dict[int, tuple[int, ...]]], dict[int, list]]:
    """For one colour alone, ``F[n][local]``: the most its rack tiles can still add after
    number ``n`` from that run state (NEG when its table tiles cannot all be used). Groups
    are relaxed (allowed wherever other colours or jokers could join) and the colour may
    use every joker; so this is an upper bound, and NEG is exact infeasibility. Also
    returns the same per half-jokers this colour may still use (``V[n][local][u]``, left
    empty without jokers): a
    joker in a run costs the colour two halves, a joker joining a group costs each colour
    in that group one half (a group has at least two colours), so shares of the jokers
    that add up to at most the jokers left never undercount what a play can do. The third
    part is a dict where the search keeps the options it builds from these bounds, so a
    colour met again (the same tiles, in another solve) reuses them."""
    jokers = 2 * (problem.table_jokers + problem.rack_jokers)  # in halves
    wrap = problem.wrap
    lo = c * N
    faces = tuple(
        zip(problem.table[lo : lo + N], problem.rack[lo : lo + N], rooms[lo : lo + N], strict=True)
    )
    numbers = _NUMBERS[problem.shift]
    key = (faces, jokers, wrap, problem.shift)
    cached = _BOUND_CACHE.get(key)
    if cached is not None:
        return cached
    # Locals reachable going up, ignoring jokers' limits, each with its moves.
    reach: list[tuple[int, ...]] = [(0,)]
    layers: list[tuple[tuple[int, _RelaxedMoves], ...]] = []
    for n in range(N):
        here = reach[-1]
        reach_key = (n, faces[n], jokers, wrap, here)
        known = _REACH.get(reach_key)
        if known is None:
            t, r, room = faces[n]
            relaxed_key = (n + 1, t, r, room, jokers, wrap)
            table = _RELAXED.get(relaxed_key)
            if table is None:
                table = _RELAXED[relaxed_key] = {}
            found: set[int] = set()
            pairs = []
            for local in here:
                moves = table.get(local)
                if moves is None:
                    moves = table[local] = _relaxed_moves(n + 1, local, t, r, room, jokers, wrap)
                found.update(new for new, _, _ in moves)
                pairs.append((local, moves))
            # Tuples of numbers only, so the cyclic garbage collector stops scanning them
            # after its first look (lists and sets it would scan at every full collection).
            known = _REACH[reach_key] = (tuple(sorted(found)), tuple(pairs))
        reach.append(known[0])
        layers.append(known[1])
    if len(_REACH) > REACH_KEPT:
        _REACH.clear()
    # Best future per (local, jokers left), going down.
    bounds: list[dict[int, int]] = [{} for _ in range(N + 1)]
    vectors: list[dict[int, tuple[int, ...]]] = [{} for _ in range(N + 1)]
    if not jokers:
        flat = {local: 0 if _local_final_ok(local) else NEG for local in reach[N]}
        bounds[N] = flat
        for n in range(N, 0, -1):
            gain_per = SCALE + numbers[n]
            before_flat: dict[int, int] = {}
            get = flat.get
            for local, moves in layers[n - 1]:
                best = NEG
                for new, _used, tiles in moves:
                    value = get(new, NEG)
                    if value > NEG:
                        value += tiles * gain_per
                        if value > best:
                            best = value
                before_flat[local] = best
            flat = before_flat
            bounds[n - 1] = flat
        # (No jokers: the vectors, only read when sharing jokers, stay empty.)
    else:
        after = {
            local: (0 if _local_final_ok(local) else NEG,) * (jokers + 1) for local in reach[N]
        }
        vectors[N] = after
        bounds[N] = {local: best[jokers] for local, best in after.items()}
        size = jokers + 1
        for n in range(N, 0, -1):
            gain_per = SCALE + numbers[n]
            flat = bounds[n - 1]
            if size == 5:
                before = _layer_five(layers[n - 1], after.get, gain_per, flat)
            elif size == 3:
                before = _layer_three(layers[n - 1], after.get, gain_per, flat)
            else:
                before = _layer_any(layers[n - 1], after.get, gain_per, size, flat)
            after = before
            vectors[n - 1] = before
    if len(_BOUND_CACHE) >= BOUND_CACHE_SIZE:
        # Forget the older half (a dict keeps the order entries were made in).
        for old in list(islice(_BOUND_CACHE, BOUND_CACHE_SIZE // 2)):
            del _BOUND_CACHE[old]
    _BOUND_CACHE[key] = (bounds, vectors, {})
    return _BOUND_CACHE[key]


# The vectors of a layer, going down: per local, the best over its moves of the rack tiles
# they place now plus what the new local can add with the halves left. Infeasible entries
# stay far below HALF_NEG (NEG plus a few gains). Written out for one and two jokers
# (3 and 5 entries), the usual cases, since this loop is most of a bound's cost. Each also
# fills ``flat`` with the scalar bound (all halves), exactly NEG where infeasible.
HALF_NEG = NEG // 2


def _layer_five(
    layer: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
    get: Any,
    gain_per: int,
    flat: dict[int, int],
) -> dict:
    out = {}
    for local, moves in layer:
        b0 = b1 = b2 = b3 = b4 = NEG
        for new, used, tiles in moves:
            future = get(new)
            if future is None:
                continue
            f0, f1, f2, f3, f4 = future
            if tiles:
                g = tiles * gain_per
                f0 += g
                f1 += g
                f2 += g
                f3 += g
                f4 += g
            if not used:
                if f0 > b0:
                    b0 = f0
                if f1 > b1:
                    b1 = f1
                if f2 > b2:
                    b2 = f2
                if f3 > b3:
                    b3 = f3
                if f4 > b4:
                    b4 = f4
            elif used == 1:
                if f0 > b1:
                    b1 = f0
                if f1 > b2:
                    b2 = f1
                if f2 > b3:
                    b3 = f2
                if f3 > b4:
                    b4 = f3
            elif used == 2:
                if f0 > b2:
                    b2 = f0
                if f1 > b3:
                    b3 = f1
                if f2 > b4:
                    b4 = f2
            elif used == 3:
                if f0 > b3:
                    b3 = f0
                if f1 > b4:
                    b4 = f1
            elif f0 > b4:
                b4 = f0
        out[local] = (b0, b1, b2, b3, b4)
        flat[local] = b4 if b4 > HALF_NEG else NEG
    return out


def _layer_three(
    layer: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
    get: Any,
    gain_per: int,
    flat: dict[int, int],
) -> dict:
    out = {}
    for local, moves in layer:
        b0 = b1 = b2 = NEG
        for new, used, tiles in moves:
            future = get(new)
            if future is None:
                continue
            f0, f1, f2 = future
            if tiles:
                g = tiles * gain_per
                f0 += g
                f1 += g
                f2 += g
            if not used:
                if f0 > b0:
                    b0 = f0
                if f1 > b1:
                    b1 = f1
                if f2 > b2:
                    b2 = f2
            elif used == 1:
                if f0 > b1:
                    b1 = f0
                if f1 > b2:
                    b2 = f1
            elif f0 > b2:
                b2 = f0
        out[local] = (b0, b1, b2)
        flat[local] = b2 if b2 > HALF_NEG else NEG
    return out


def _layer_any(
    layer: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
    get: Any,
    gain_per: int,
    size: int,
    flat: dict[int, int],
) -> dict:
    out = {}
    for local, moves in layer:
        best = [NEG] * size
        for new, used, tiles in moves:
            future = get(new)
            if future is None:
                continue
            g = tiles * gain_per
            for u in range(used, size):
                if future[u - used] + g > best[u]:
                    best[u] = future[u - used] + g
        out[local] = tuple(best)
        flat[local] = best[-1] if best[-1] > HALF_NEG else NEG
    return out


# Per number, colour counts, group room, jokers and wrap: the relaxed moves of each local
# state met (``_relaxed_moves``).
_RELAXED: dict[tuple[int, int, int, tuple[int, int, int], int, bool], dict[int, _RelaxedMoves]] = {}


def _relaxed_moves(
    n: int, local: int, t: int, r: int, room: tuple[int, int, int], jokers: int, wrap: bool
) -> _RelaxedMoves:
    """The moves the per-colour bound allows at number ``n`` from ``local``: (new local,
    half-jokers used, rack tiles used), ... ``jokers`` is in halves."""
    room0, room1, room2 = room
    best: dict[tuple[int, int], int] = {}
    for mv in _moves(n, local, t, r, wrap):
        # a group place beyond what real partners allow takes jokers too
        group = mv.group
        extra = 0 if group <= room0 else 1 if group <= room1 else 2 if group <= room2 else 9
        used = 2 * mv.jokers + extra
        if used <= jokers:
            k = (mv.new, used)
            tiles = mv.real - t
            if best.get(k, -1) < tiles:
                best[k] = tiles
    # A move to the same local using fewer jokers for as many tiles wins.
    moves = []
    for (new, used), tiles in best.items():
        for u in range(used):
            if best.get((new, u), -1) >= tiles:
                break
        else:
            moves.append((new, used, tiles))
    return tuple(moves)


_POT = itemgetter(1)  # an option's potential delta (options are tried highest first)

_TEMPLATES: dict[tuple[int, int, int, int, int, bool, int, int, int], list[tuple]] = {}


def _templates(
    n: int, c: int, local: int, t: int, r: int, wrap: bool, number: int, tj: int, rj: int
) -> list[tuple]:
    """The options of colour ``c`` at place ``n`` (holding ``number``) from ``local`` less
    their bounds: (new local, key delta, potential delta before bounds, value gained, move
    (its index in _MOVE_LIST), table jokers, rack jokers), one per way to take a move's
    jokers from the table's and the rack's, with at most ``tj`` and ``rj`` of them (jokers
    left; a move takes two at most, so more counts as two)."""
    key = (n, c, local, t, r, wrap, number, tj, rj)
    found = _TEMPLATES.get(key)
    if found is None:
        sh = COLOUR_SHIFT[c]
        unit = SCALE + number
        found = []
        for mv in _moves(n, local, t, r, wrap):
            delta = (mv.new - local) << sh
            if mv.group:
                delta += (1 << SH_D) if mv.group == 2 else (1 << SH_S)
            used = mv.real - t
            for a in range(mv.jokers + 1):
                b = mv.jokers - a
                if a > tj or b > rj:
                    continue
                pot = (used + b) * unit - b * JOKER_BEST
                gain = (used + b) * number
                found.append(
                    (mv.new, delta + (a << SH_TJ) + (b << SH_RJ), pot, gain, mv.index, a, b)
                )
        _TEMPLATES[key] = found
    return found


_CLOSINGS: dict[tuple[int, ...], list[tuple[int, int, int, tuple[int, int, int, int]]]] = {}


def _closings(
    n: int, d: int, s: int, js: int, table_jokers: int, rack_jokers: int
) -> list[tuple[int, int, int, tuple[int, int, int, int]]]:
    """The ways to close the groups of number ``n`` made of ``d`` colours with two tiles
    and ``s`` with one, jokers ``js`` used so far: (key delta, potential delta, value
    gained, (d, s, table jokers, rack jokers joining))."""
    key = (n, d, s, js, table_jokers, rack_jokers)
    found = _CLOSINGS.get(key)
    if found is None:
        tj, rj = js & 3, js >> 2
        found = []
        for jg in range(3):
            if not _GROUP_OK.get((d, s, jg), False):
                continue
            for a in range(jg + 1):
                b = jg - a
                if tj + a > table_jokers or rj + b > rack_jokers:
                    continue
                delta = (a << SH_TJ) + (b << SH_RJ) - (d << SH_D) - (s << SH_S)
                found.append((delta, b * (SCALE + n) - b * JOKER_BEST, b * n, (d, s, a, b)))
        _CLOSINGS[key] = found
    return found


# Per search step (four per number): the colour's shift in the key, and how its options
# are cached (the last colour's depend on the groups so far too); the number whose groups
# the step closes (0 for none).
_STEP_SHIFT = [COLOUR_SHIFT[i % COLOURS] for i in range(N * COLOURS)]
_STEP_WIDTH = [10 if i % COLOURS == COLOURS - 1 else 4 for i in range(N * COLOURS)]
_STEP_MASK = [1023 if i % COLOURS == COLOURS - 1 else 15 for i in range(N * COLOURS)]
_STEP_CLOSES = [i // COLOURS + 1 if i % COLOURS == COLOURS - 1 else 0 for i in range(N * COLOURS)]
_NO_STEPS = [0] * (N * COLOURS)


class _OutOfBudget(Exception):
    """A search stopped at its budget, with the best play it had found (or None), and the
    number where it met the most states."""

    def __init__(self, partial: _Result | None, busiest: int) -> None:
        super().__init__()
        self.partial = partial
        self.busiest = busiest


# States whose groups bounded searches have closed since the module was loaded: a
# look-ahead reads it before and after to know what it has spent, a count that does not
# depend on the clock (``closed_states``).
_CLOSED = [0]


def closed_states() -> int:
    """How many states' groups the bounded searches (those given an ``effort``, and the
    cuts of a wrap-around circle) have closed so far, in all: the difference between two
    readings is what the searches between them spent."""
    return _CLOSED[0]


def _run_dp(
    problem: _Problem, floor: int = NEG, budget: int | None = None, enough: int | None = None
) -> _Result | None:
    """The best play: a depth-first branch and bound over the DP's layers.

    Going up the numbers (each number: its four colours, then its groups), a state is a
    key; its potential is the score so far plus an upper bound on what can follow (the
    per-colour bounds, and every unused rack joker at its best). Children are tried best
    potential first, a branch that cannot beat the best play found is cut, and a state
    already explored with as good a potential is not explored again. So the first play
    found is usually the best one when the bound is tight, and the search is exact.

    With a ``budget`` the search gives up (raising ``_OutOfBudget``) after closing the
    groups of that many states. With ``enough`` it stops at the first play scoring that
    much (not then the best).
    """
    rooms = _group_rooms(problem)
    both = [_colour_bounds(problem, c, rooms) for c in range(COLOURS)]
    bounds = [b for b, _, _ in both]
    vectors = [v for _, v, _ in both]
    shared = [o for _, _, o in both]
    start = sum(b[0].get(0, NEG) for b in bounds)
    if start <= NEG // 2:
        return None
    start += problem.rack_jokers * JOKER_BEST
    cap = problem.cap
    numbers = _NUMBERS[problem.shift]
    table, rack, wrap = problem.table, problem.rack, problem.wrap
    jt_max, jr_max = problem.table_jokers, problem.rack_jokers
    jokers = jt_max + jr_max
    jokers_split = jt_max << 2 | jr_max  # part of the keys of options kept with the bounds
    halves = 2 * jokers
    # Per number: a step for each of colours 0..2, then one for colour 3 that also
    # closes the groups of the number.
    steps = N * COLOURS
    option_cache: list[dict[int, list]] = [{} for _ in range(steps)]
    seen: list[dict[int, int]] = [{} for _ in range(steps + 1)]
    path: list[Any] = [None] * steps
    # score, final key, path; a play must score above ``floor`` (SCALE - 1 when only a
    # play placing a tile counts: then the search never has to find the plays placing
    # nothing, and it proves there is no play as soon as no branch can place a tile).
    best: list[Any] = [floor, -1, None]
    final_ok = _local_final_ok
    move_list = _MOVE_LIST

    def children(i: int, key: int) -> list:
        n, c = i // COLOURS + 1, i % COLOURS
        local = (key >> COLOUR_SHIFT[c]) & 255
        js = (key >> SH_TJ) & 15
        known = shared[c]
        base_key = ((i << 8 | local) << 4 | js) << 4 | jokers_split
        base = known.get(base_key)
        if base is None:
            # The colour's options here: (key delta, potential delta, value gained, move,
            # table jokers, rack jokers), best potential first.
            f = c * N + n - 1
            tj, rj = jt_max - (js & 3), jr_max - (js >> 2)
            templates = _templates(
                n, c, local, table[f], rack[f], wrap, numbers[n], min(tj, 2), min(rj, 2)
            )
            colour_bounds = bounds[c]
            old = colour_bounds[n - 1].get(local, NEG)
            get = colour_bounds[n].get
            base = []
            for new, delta, pot, value, mv, a, b in templates:
                after = get(new, NEG)
                if after > NEG:
                    base.append((delta, pot + after - old, value, mv, a, b))
            if len(base) > 1:
                base.sort(key=_POT, reverse=True)
            known[base_key] = base
        if c < COLOURS - 1:
            option_cache[i][local << 4 | js] = base
            return base
        # The last colour of the number, then its groups closed (jokers joining them).
        d, s = (key >> SH_D) & 7, (key >> SH_S) & 7
        close_key = 1 << 40 | base_key << 6 | d << 3 | s
        opts = known.get(close_key)
        if opts is not None:
            option_cache[i][local << 10 | ((key >> SH_TJ) & 1023)] = opts
            return opts
        opts = []
        number = numbers[n]
        for o in base:
            group = move_list[o[3]].group
            d2, s2 = d + (group == 2), s + (group == 1)
            js2 = js + o[4] + (o[5] << 2)
            closings = _CLOSINGS.get((number, d2, s2, js2, jt_max, jr_max))
            if closings is None:
                closings = _closings(number, d2, s2, js2, jt_max, jr_max)
            for delta, dp, gv, info in closings:
                opts.append((o[0] + delta, o[1] + dp, o[2] + gv, o[3], o[4], o[5], info))
        if len(opts) > 1:
            opts.sort(key=_POT, reverse=True)
        known[close_key] = opts
        option_cache[i][local << 10 | ((key >> SH_TJ) & 1023)] = opts
        return opts

    def finish(key: int, pot: int) -> None:
        if (key >> SH_TJ) & 3 != jt_max or (cap is not None and (key >> SH_V) < cap):
            return
        if not all(final_ok((key >> sh) & 255) for sh in COLOUR_SHIFT):
            return
        score = pot - (jr_max - ((key >> SH_RJ) & 3)) * JOKER_BEST
        if score > best[0]:
            best[0], best[1], best[2] = score, key, list(path)

    corrections: list[dict[int, int]] = [{} for _ in range(N + 1)]

    def joker_bound(n: int, key: int, pot: int) -> int:
        """A tighter bound than ``pot`` after number ``n``: the jokers left shared out
        among the colours (in halves), instead of each colour counting on all of them."""
        known = corrections[n].get(key)
        if known is not None:
            return pot + known
        v0 = vectors[0][n].get(key & 255)
        v1 = vectors[1][n].get((key >> 8) & 255)
        v2 = vectors[2][n].get((key >> 16) & 255)
        v3 = vectors[3][n].get((key >> 24) & 255)
        if v0 is None or v1 is None or v2 is None or v3 is None:
            return NEG
        loose = v0[halves] + v1[halves] + v2[halves] + v3[halves]
        # Halves left: 0, 2 or 4 (a game has two jokers).
        left = halves - 2 * (((key >> SH_TJ) & 3) + ((key >> SH_RJ) & 3))
        shared = v0[0] + v1[0] + v2[0] + v3[0]
        if left == 2:
            # One joker left: two halves to one colour, or one half to each of two.
            a, b, c, d = v0[1] - v0[0], v1[1] - v1[0], v2[1] - v2[0], v3[1] - v3[0]
            shared += max(
                v0[2] - v0[0],
                v1[2] - v1[0],
                v2[2] - v2[0],
                v3[2] - v3[0],
                a + b,
                a + c,
                a + d,
                b + c,
                b + d,
                c + d,
            )
        elif left:
            # Both jokers left (four halves): the most colours 0 and 1 can add sharing u
            # halves (p0..p4), the same for colours 2 and 3 (q0..q4), then the best split.
            p0 = v0[0] + v1[0]
            p1 = max(v0[0] + v1[1], v0[1] + v1[0])
            p2 = max(v0[0] + v1[2], v0[1] + v1[1], v0[2] + v1[0])
            p3 = max(v0[0] + v1[3], v0[1] + v1[2], v0[2] + v1[1], v0[3] + v1[0])
            p4 = max(v0[0] + v1[4], v0[1] + v1[3], v0[2] + v1[2], v0[3] + v1[1], v0[4] + v1[0])
            q0 = v2[0] + v3[0]
            q1 = max(v2[0] + v3[1], v2[1] + v3[0])
            q2 = max(v2[0] + v3[2], v2[1] + v3[1], v2[2] + v3[0])
            q3 = max(v2[0] + v3[3], v2[1] + v3[2], v2[2] + v3[1], v2[3] + v3[0])
            q4 = max(v2[0] + v3[4], v2[1] + v3[3], v2[2] + v3[2], v2[3] + v3[1], v2[4] + v3[0])
            shared = max(p0 + q4, p1 + q3, p2 + q2, p3 + q1, p4 + q0)
        corrections[n][key] = shared - loose
        return pot - loose + shared

    step_shift, step_width, step_mask = _STEP_SHIFT, _STEP_WIDTH, _STEP_MASK
    check_jokers = _STEP_CLOSES if jokers or budget is not None else _NO_STEPS
    last = steps - 1
    close_bound = joker_bound
    if budget is not None:
        left = [budget]

        def close_bound(n: int, key: int, pot: int) -> int:
            left[0] -= 1
            if left[0] < 0:
                met = [sum(len(s) for s in seen[4 * k + 1 : 4 * k + 5]) for k in range(N)]
                raise _OutOfBudget(
                    _Result(best[0], best[1], best[2], bounds, problem.shift)
                    if best[2] is not None
                    else None,
                    numbers[max(range(N), key=met.__getitem__) + 1],
                )
            return joker_bound(n, key, pot) if jokers else pot

    def search(i: int, key: int, pot: int) -> None:
        opts = option_cache[i].get(
            ((key >> step_shift[i]) & 255) << step_width[i] | ((key >> SH_TJ) & step_mask[i])
        )
        if opts is None:
            opts = children(i, key)
        seen_next = seen[i + 1]
        v = key >> SH_V if cap is not None else 0
        check = check_jokers[i]
        for option in opts:
            child = pot + option[1]
            if child <= best[0]:
                break
            nk = key + option[0]
            if cap is not None and option[2]:
                nv = min(cap, v + option[2])
                nk += (nv - v) << SH_V
            if seen_next.get(nk, NEG) >= child:
                continue
            seen_next[nk] = child
            if check and close_bound(check, nk, child) <= best[0]:
                continue
            path[i] = option
            if i == last:
                finish(nk, child)
            else:
                search(i + 1, nk, child)
            if best[0] >= ceiling:
                return  # the upper bound is reached: nothing can beat it

    # The root bound with the jokers shared out; no rack tile can be placed below SCALE.
    # (A caller asking for less, such as a swap of a rack tile for a locked joker whose
    # other rack tiles cannot go down, still needs the table laid out again.)
    ceiling = joker_bound(0, 0, start) if jokers else start
    if enough is not None:
        ceiling = min(ceiling, enough)
    try:
        if ceiling < SCALE and floor >= SCALE - 1 and (problem.rack_jokers or any(problem.rack)):
            return None
        search(0, 0, start)
    finally:
        if budget is not None:
            _CLOSED[0] += budget - max(0, left[0])
        # The closures refer to each other (and ``search`` to itself): freed now, by
        # reference counting, rather than by the cyclic collector later.
        search = children = finish = joker_bound = close_bound = None  # type: ignore[assignment]
    if best[2] is None:
        return None
    return _Result(best[0], best[1], best[2], bounds, problem.shift)


# With wrap-around runs the search may cut the circle of numbers anywhere, and how long it
# takes depends much on where: on one position from 20 ms to 3 s by the cut. The states
# pile up at a few numbers where the colours' bounds, each colour on its own, promise too
# much; cutting the circle just after the number where the most states were met usually
# puts those numbers last, where the bounds are tight (over 42 positions slow with the
# usual cut, that cut took a median 6,500 states' groups closed, the usual one 54,000). So
# the search cuts first where the fewest runs can cross (``_first_cut``), gives up after
# closing the groups of WRAP_BUDGET states, then cuts after the busiest number, then
# further on round the circle (the busy numbers often run on past it), the budget growing
# WRAP_GROWTH times after the first search, then after every WRAP_TRIES more. On 54 slow
# positions, each timed with every cut, that order after the first kept the worst to
# 84,000 states' groups closed (the busiest, then one after, two after, one before, ...:
# 116,000; fixed cuts spread round the circle: 154,000; the usual cut alone: 300,000). The
# first cut used to be after 13: on 195 random positions after the opening (seed 2024, CPU
# time, same answers) the new first cut and the busiest number of each search took the
# total from 11.7 to 2.3 s and the slowest from 9.1 s to 0.19 s; on 870 solves of over 20
# ms met in the expert's look-ahead, 62.7 to 43.3 s.
#
# Until session 21 each later search that gave up had its own busiest number tried next
# (sometimes a cut costing ten times the best: in one expert move, 96,000 states' groups
# closed for nothing), the first budget was 12,000 and every search doubled it. Chosen on
# 156 exact solves of over 30 ms met in 100 rounds of expert against hard with wrap-around
# runs (30 with locked jokers too) and checked on 251 from 80 other rounds: the same
# answers, the states' groups closed 3.21M -> 2.83M in all, the worst solve's 215,000 ->
# 110,000 and its time 2.3 -> 1.2 s (the 156: 1.42M -> 1.35M, 208,000 -> 58,000).
WRAP_BUDGET = 16000
WRAP_GROWTH = 2
WRAP_TRIES = 2


def _first_cut(problem: _Problem) -> int:
    """Where the circle is cut first: between the two neighbouring numbers that hold the
    fewest tiles together (table and rack, every colour), so that few runs can cross it."""
    per = [
        sum(problem.table[c * N + n] + problem.rack[c * N + n] for c in range(COLOURS))
        for n in range(N)
    ]
    pair = [per[n] + per[(n + 1) % N] for n in range(N)]
    return (min(range(N), key=lambda n: (pair[n], n)) + 1) % N


# The cuts tried after the first, as steps from the busiest number.
_STEPS = (0, 2, 4, 1, 3, -1, 5, 6, -2, 7, -3, -4, -5)


def _rotated(problem: _Problem, shift: int) -> _Problem:
    """``problem`` with the circle of numbers cut before ``shift + 1`` instead of 1."""
    numbers = _NUMBERS[shift]
    order = [c * N + numbers[n] - 1 for c in range(COLOURS) for n in range(1, N + 1)]
    return _Problem(
        [problem.table[f] for f in order],
        [problem.rack[f] for f in order],
        problem.table_jokers,
        problem.rack_jokers,
        problem.wrap,
        problem.cap,
        shift,
    )


def _search(
    problem: _Problem, floor: int = NEG, enough: int | None = None, effort: int | None = None
) -> _Result | None:
    """``_run_dp``; with wrap-around runs, cut the circle of numbers at one place after
    another (see WRAP_BUDGET), each search with a budget and the best play found so far as
    its floor, until one search ends within its budget: that one is exact.

    With ``effort`` (look-ahead only) the searches together close the groups of at most
    about that many states; past it, the best play found so far is the answer (None when
    none was), which may not be the best."""
    if not problem.wrap:
        if effort is None:
            return _run_dp(problem, floor, enough=enough)
        try:
            return _run_dp(problem, floor, effort, enough)
        except _OutOfBudget as stop:
            return stop.partial
    found: _Result | None = None
    budget = WRAP_BUDGET
    spent = 0
    shifts = [_first_cut(problem)]
    shift = 0
    tried: set[int] = set()
    while True:
        shift = shifts.pop(0) if shifts else shift
        tried.add(shift)
        allowed = budget if effort is None else min(budget, effort - spent)
        try:
            result = _run_dp(_rotated(problem, shift) if shift else problem, floor, allowed, enough)
        except _OutOfBudget as stop:
            if stop.partial is not None and stop.partial.score > floor:
                found, floor = stop.partial, stop.partial.score
            spent += allowed
            if effort is not None and spent >= effort:
                return found
            if len(tried) == 1:
                shifts = [(stop.busiest + k) % N for k in _STEPS]
            shifts = [s for s in shifts if s not in tried] or shifts
            if (len(tried) - 1) % WRAP_TRIES == 0:  # the first, then every WRAP_TRIES
                budget *= WRAP_GROWTH
            continue
        return result if result is not None else found


# ----- reading the play back ----------------------------------------------------------------


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
    return [
        [(numbers[n], -1 if face < 0 else face - n + numbers[n], kind) for n, face, kind in row]
        for row in sets
    ]


_ACTION_ORDER = {"end": 0, "tend": 0, "cont": 1, "idle": 1, "start": 2, "tail": 2, "head": 3}
# A move's slot actions in the order they are applied, without the idle ones.
_ORDERED_ACTIONS: dict[tuple[tuple[int, str, int], ...], tuple[tuple[int, str, int], ...]] = {}


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
        actions = _ORDERED_ACTIONS.get(mv.actions)
        if actions is None:
            # Ends first: a tail that ends here may be joined by a head that starts here.
            actions = _ORDERED_ACTIONS[mv.actions] = tuple(
                a for a in sorted(mv.actions, key=lambda a: _ACTION_ORDER[a[1]]) if a[1] != "idle"
            )
        if actions:
            _runs_at(n, c, mv, option[4], option[5], actions, sets, open_runs, tails)
        if c == COLOURS - 1:
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
            slot = next(s for s in pool if _slot_value(s) == old_value)
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
    length = len(slot.items)
    if slot.kind == "head":
        return HEAD
    if slot.kind == "tail":
        return T1 if length == 1 else T2
    return min(length, 3)


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


# ----- problems from positions ---------------------------------------------------------------


def _counts(tiles: Sequence[Tile]) -> tuple[list[int], int]:
    counts = [0] * (COLOURS * N)
    jokers = 0
    for tile in tiles:
        # A tile's id is copy * 52 + colour * 13 + number - 1; the jokers are 104 and 105.
        if tile.id >= 104:
            jokers += 1
        else:
            counts[tile.id % 52] += 1
    return counts, jokers


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


def arrangeable(tiles: Sequence[Tile], rules: Rules | None = None) -> list[list[Tile]] | None:
    """An arrangement of all ``tiles`` into valid sets, or None when there is none.

    >>> from .tiles import parse_tiles
    >>> [[t.code for t in row] for row in arrangeable(parse_tiles("R1 R2 R3 J B3 Y3"))]
    [['R3', 'B3', 'Y3'], ['R1', 'R2', 'J']]
    """
    rules = rules or Rules()
    if not tiles:
        return []
    counts, jokers = _counts(tiles)
    if not _each_could_fit(counts, jokers, rules.wrap_runs):
        return None
    problem = _Problem(counts, [0] * len(counts), jokers, 0, rules.wrap_runs)
    result = _search(problem)
    if result is None:
        return None
    shapes = _read_back(problem, result)
    rows, _ = _assign(shapes, tiles, [])
    return rows


def _each_could_fit(counts: list[int], jokers: int, wrap: bool) -> bool:
    """A quick necessary test: every tile has neighbours (or jokers) for some run or group."""
    if sum(counts) + jokers < 3:
        return False
    for f, k in enumerate(counts):
        if not k:
            continue
        c, i = divmod(f, N)
        others = sum(1 for o in range(COLOURS) if o != c and counts[o * N + i])
        if others + jokers >= 2:
            continue
        fits = False
        for start in range(i - 2, i + 1):
            if not wrap and (start < 0 or start + 2 >= N):
                continue
            missing = sum(1 for m in range(start, start + 3) if not counts[c * N + m % N])
            if missing <= jokers:
                fits = True
                break
        if not fits:
            return False
    return True


def _position(
    table: Sequence[Sequence[Tile]], rack: Sequence[Tile]
) -> tuple[list[list[Tile]], list[Tile]]:
    """The table and rack as fresh lists, once checked that no tile is in two places."""
    table = [list(row) for row in table]
    rack = list(rack)
    ids = [t.id for row in table for t in row] + [t.id for t in rack]
    if len(set(ids)) != len(ids):
        raise SolverInputError("a tile appears twice in the position")
    return table, rack


def _jokers_locked(table: Sequence[Sequence[Tile]], rules: Rules) -> bool:
    """Whether this table's joker sets are locked (the rule on, and a joker there)."""
    return rules.locked_jokers and any(t.is_joker for row in table for t in row)


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    *,
    opened: bool,
    rules: Rules | None = None,
    threshold: int | None = None,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    """The best play for this position (see the module docstring for "best").

    ``threshold`` is the opening total needed (default ``rules.opening``). With
    ``layout=False`` the table sets changed are not kept fewest: the same tiles go down
    (same count and value; under locked jokers, possibly other tiles of the same count and
    value), laid out in some valid arrangement. For look-ahead that reads only which tiles
    are placed: in the expert's, the layout took about half the time.

    ``effort`` is for look-ahead too: once opened, the search gives up after closing the
    groups of about that many states (a count, so the answer does not depend on the
    clock) and answers the best play found by then, which is usually the best but may
    place fewer tiles, or none. The expert's rollouts use it: a few positions with
    wrap-around runs take the exact search a second, and a rollout only estimates."""
    with _gc_paused():
        return _solve(table, rack, opened, rules, threshold, layout, effort)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off meanwhile (as it was found, after): the search
    makes many short-lived tuples and dicts that reference counting frees, and the
    collector would only scan them again and again."""
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            if not gc.get_freeze_count():
                # What the solve made and kept (the new entries of its tables, thousands
                # of tuples) goes straight to the oldest generation, with the young
                # generation's count set back: a young collection as soon as the
                # collector is on again would only scan it once more, at every solve.
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def can_play(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules | None = None,
    effort: int | None = None,
) -> bool:
    """Whether a player who has opened can place any rack tile: ``solve(...).found``,
    sooner. A play found greedily answers at once (about 4 in 5 racks that have a play,
    sampled for a bot's opponent); otherwise the search stops at the first play it meets
    instead of proving the best. With ``effort`` (look-ahead, as in ``solve``) a search
    that gives up before meeting a play answers False.

    >>> from .tiles import parse_tiles
    >>> can_play([parse_tiles("R3 R4 R5")], parse_tiles("B1 R6")), can_play([], parse_tiles("B1"))
    (True, False)
    """
    rules = rules or Rules()
    table, rack = _position(table, rack)
    if not rack:
        return False
    # A tile added greedily: most plays, found at once. The greedy play leaves every set
    # holding a joker as it is, so it is a play under locked jokers and wrap-around too.
    if _easy_score(table, rack) >= SCALE:
        return True
    if not _jokers_locked(table, rules):
        return _any_play(table, rack, rules, effort)
    # Locked: most plays leave the joker sets alone, and those are found without the
    # swaps; the full search answers the rest.
    free = [row for row in table if not any(t.is_joker for t in row)]
    if _any_play(free, rack, rules, effort):
        return True
    return solve(table, rack, opened=True, rules=rules, layout=False, effort=effort).found


def _any_play(
    table: list[list[Tile]], rack: list[Tile], rules: Rules, effort: int | None = None
) -> bool:
    """Whether the rack can place a tile on ``table`` (all of whose sets may be
    rearranged): the search stops at the first play it meets."""
    tcounts, tj = _counts([t for row in table for t in row])
    rcounts, rj = _counts(rack)
    problem = _Problem(tcounts, rcounts, tj, rj, rules.wrap_runs)
    with _gc_paused():
        result = _search(problem, SCALE - 1, enough=SCALE, effort=effort)
    return result is not None and result.score >= SCALE


def _solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    opened: bool,
    rules: Rules | None,
    threshold: int | None,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    rules = rules or Rules()
    threshold = rules.opening if threshold is None else threshold
    table, rack = _position(table, rack)
    if not rack:
        return Play(table, [], 0)
    if not opened:
        return _solve_opening(table, rack, rules, threshold)
    if _jokers_locked(table, rules):
        return _solve_locked(table, rack, rules, layout, effort)
    return _solve_open(table, rack, rules, layout=layout, effort=effort) or Play(table, [], 0)


def _solve_opening(table: list[list[Tile]], rack: list[Tile], rules: Rules, threshold: int) -> Play:
    counts, jokers = _counts(rack)
    problem = _Problem([0] * len(counts), counts, 0, jokers, rules.wrap_runs, max(threshold, 0))
    result = _search(problem, SCALE - 1)
    if result is None or result.score < SCALE:
        return Play(table, [], 0, notes=("no opening",))
    shapes = _read_back(problem, result)
    rows, placed = _assign(shapes, [], rack)
    value = result.score % SCALE
    return Play([*table, *rows], placed, value)


def _solve_open(
    table: list[list[Tile]],
    rack: list[Tile],
    rules: Rules,
    fixed: Sequence[Sequence[Tile]] = (),
    demand: Sequence[tuple[Face, int, int]] = (),
    loose: Sequence[Tile] = (),
    beat: int = NEG,
    layout: bool = True,
    effort: int | None = None,
) -> Play | None:
    """After opening: ``table`` sets may be rearranged, ``fixed`` sets stay (first in the
    answer). Each ``demand`` (face, fixed set, position) takes a tile of that face out of
    the tiles to put it in that place (a locked joker swapped for its tile); ``loose``
    table tiles (freed jokers) must end in a set. Returns None when nothing can be placed,
    or nothing scoring (tiles * SCALE + value) at least ``beat``. ``layout=False`` skips
    keeping table sets whole, and ``effort`` bounds the search (see ``solve``)."""
    table_tiles = [t for row in table for t in row] + list(loose)
    tcounts, tj = _counts(table_tiles)
    rcounts, rj = _counts(rack)
    forced_rack: list[Tile] = []
    taken_ids: set[int] = set()
    fixed_rows = [list(row) for row in fixed]
    for face, fi, pos in demand:
        f = int(face.colour) * N + face.number - 1  # type: ignore[arg-type, operator]
        # A table copy is never worse: the rack copy can stand in for it elsewhere.
        if tcounts[f]:
            tcounts[f] -= 1
            tile = next(t for t in table_tiles if t.face == face and t.id not in taken_ids)
        elif rcounts[f]:
            rcounts[f] -= 1
            tile = next(t for t in rack if t.face == face and t.id not in taken_ids)
            forced_rack.append(tile)
        else:
            return None
        taken_ids.add(tile.id)
        fixed_rows[fi][pos] = tile
    problem = _Problem(tcounts, rcounts, tj, rj, rules.wrap_runs)
    forced = sum(SCALE + t.number for t in forced_rack)  # type: ignore[operator]
    if forced_rack:
        result = _search(problem, beat - forced - 1 if beat > NEG else NEG, effort=effort)
    else:
        # (A greedy play's score as the floor, as ``can_play`` finds one, cost more on
        # most positions than the branches it cut saved: the median solve was about 5%
        # slower with it, the slowest tenth about 4% faster.)
        result = _search(problem, max(SCALE - 1, beat - 1), effort=effort)
    if result is None:
        return None
    if result.score < SCALE and not forced_rack:
        return None
    shapes = _read_back(problem, result)
    rest_table = [t for t in table_tiles if t.id not in taken_ids]
    rest_rack = [t for t in rack if t.id not in taken_ids]
    rows, placed = _assign(shapes, rest_table, rest_rack)
    # Keep as many table sets whole as the best play allows.
    # Fewest table sets changed: exactly when the search can say (see ``_Fewest``), else
    # as many sets kept whole as the play's own arrangement easily allows.
    kept: list[list[Tile]] = []
    sigs = [face_signature(row) for row in table]
    changed = _changed(sigs, rows)
    if changed and layout:
        fewest = (
            None
            if demand or loose
            else _fewest_changed(table, rows, placed, result.score % SCALE, rules, changed)
        )
        if fewest is not None:
            if fewest is not rows:
                rows, changed = fewest, _changed(sigs, fewest)
        else:
            kept, rows = _keep_sets(table, sigs, rows, placed, taken_ids, rules)
            changed = _changed(sigs, [*kept, *rows])
    value = result.score % SCALE + sum(t.number for t in forced_rack)  # type: ignore[misc]
    return Play([*fixed_rows, *kept, *rows], [*forced_rack, *placed], value, changed)


def _easy_score(table: list[list[Tile]], rack: list[Tile]) -> int:
    """The score of a play found greedily (rack tiles added to the ends of table runs and
    to groups of three, no jokers, no wrap-around): a lower bound on the best play's score,
    so ``can_play`` answers at once when it places a tile."""
    runs: list[list[int]] = []  # colour, low, high
    groups: list[tuple[int, set[int]]] = []  # number, colours (groups of three)
    for row in table:
        if len(row) < 3 or any(t.id >= 104 for t in row):
            continue
        colours = {t.id % 52 // N for t in row}
        numbers = sorted(t.id % N + 1 for t in row)
        if len(colours) == 1:
            if numbers[-1] - numbers[0] == len(numbers) - 1 and len(set(numbers)) == len(row):
                runs.append([colours.pop(), numbers[0], numbers[-1]])
        elif len(row) == 3 and len(colours) == 3 and numbers[0] == numbers[-1]:
            groups.append((numbers[0], colours))
    left = [(t.id % 52 // N, t.id % N + 1) for t in rack if t.id < 104]
    count = value = 0
    progress = True
    while progress and left:
        progress = False
        # New sets from the rack alone: runs of distinct numbers, then groups.
        for c in range(COLOURS):
            numbers = sorted({n for c2, n in left if c2 == c})
            i = 0
            while i < len(numbers):
                j = i
                while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
                    j += 1
                if j - i >= 2:
                    for n in numbers[i : j + 1]:
                        left.remove((c, n))
                        count += 1
                        value += n
                    runs.append([c, numbers[i], numbers[j]])
                    progress = True
                i = j + 1
        for n in range(1, N + 1):
            colours = {c for c, n2 in left if n2 == n}
            if len(colours) >= 3:
                for c in colours:
                    left.remove((c, n))
                count += len(colours)
                value += n * len(colours)
                if len(colours) == 3:
                    groups.append((n, colours))
                progress = True
        for tile in list(left):
            c, n = tile
            for run in runs:
                if run[0] == c and (run[2] == n - 1 or run[1] == n + 1):
                    if run[2] == n - 1:
                        run[2] = n
                    else:
                        run[1] = n
                    break
            else:
                for number, colours in groups:
                    if number == n and c not in colours and len(colours) == 3:
                        colours.add(c)
                        break
                else:
                    continue
            left.remove(tile)
            count += 1
            value += n
            progress = True
    return count * SCALE + value


def _is_set(ids: Sequence[int], wrap: bool) -> bool:
    """Whether tiles with these ids form a valid set (as ``read_set`` reads them)."""
    size = len(ids)
    if size < 3:
        return False
    faces = [i % 52 for i in ids if i < 104]
    jokers = size - len(faces)
    if jokers > 2:
        return False
    numbers = {f % N for f in faces}
    colours = {f // N for f in faces}
    if (
        len(numbers) == 1
        and size <= 4
        and len(colours) == len(faces)
        and not (size == 3 and jokers == 2)
    ):
        return True
    if len(colours) != 1 or len(numbers) != len(faces) or size > N:
        return False
    if not wrap:
        return max(numbers) - min(numbers) < size
    ordered = sorted(numbers)
    gap = max(b - a for a, b in zip(ordered, [*ordered[1:], ordered[0] + N], strict=True))
    return N - gap + 1 <= size


def _lay_out_small(tiles: list[Tile], wrap: bool) -> list[list[Tile]] | None:
    """All of up to six ``tiles`` as valid sets (one set, or two of three), or None."""
    if len(tiles) > RELAYOUT_LIMIT or len(tiles) < 3:
        return [] if not tiles else None
    if _is_set([t.id for t in tiles], wrap):
        return [list(read_set(tiles, wrap).tiles)]
    if len(tiles) == 6:
        first, rest = tiles[0], tiles[1:]
        for pair in combinations(range(len(rest)), 2):
            one = [first, rest[pair[0]], rest[pair[1]]]
            two = [t for k, t in enumerate(rest) if k not in pair]
            if _is_set([t.id for t in one], wrap) and _is_set([t.id for t in two], wrap):
                return [list(read_set(one, wrap).tiles), list(read_set(two, wrap).tiles)]
    return None


def _keep_sets(
    table: list[list[Tile]],
    table_sigs: list[tuple[int, ...]],
    rows: list[list[Tile]],
    placed: list[Tile],
    taken_ids: set[int],
    rules: Rules,
) -> tuple[list[list[Tile]], list[list[Tile]]]:
    """Rearrange the best play's tiles so that table sets stay whole where they can.

    Each table set is tried in turn. Copies of one face (and the two jokers) are
    interchangeable, so a table set whose faces form a set of the arrangement is kept by
    swapping copies. Otherwise it is kept when the arrangement's sets that hold its faces
    can be laid out again without it (``table_sigs``: the table sets' ``face_signature``).
    Returns the kept sets as they were and the rows of the rest.
    """
    wrap = rules.wrap_runs
    fkey = FACE_KEY
    # A rack joker counts as the tile it stands for: a set laid out again must not move
    # one to a cheaper place than the play's value counts it at.
    jokers = sum(1 for t in placed if t.is_joker)
    worth = _joker_worth(rows, jokers, rules) if jokers else 0
    sets: list[list[Tile] | None] = [list(r) for r in rows]
    where: dict[int, int] = {t.id: i for i, r in enumerate(rows) for t in r}
    by_face: dict[int, list[int]] = {}
    for r in rows:
        for t in r:
            by_face.setdefault(fkey[t.id], []).append(t.id)
    by_sig: dict[tuple[int, ...], list[int]] = {}
    for i, r in enumerate(rows):
        by_sig.setdefault(face_signature(r), []).append(i)
    kept: list[list[Tile]] = []
    claimed: set[int] = set()
    # Undo log of the swaps tried for one table set: (set, position, tile) and (id, set).
    undo_sets: list[tuple[list[Tile], int, Tile]] = []
    undo_where: list[tuple[int, int]] = []

    def swap_into(tile: Tile, i: int) -> bool:
        """Put ``tile`` into set ``i`` in place of a copy of its face not yet claimed."""
        target = sets[i]
        assert target is not None
        tid = tile.id
        if tid in claimed:
            return False
        fk = fkey[tid]
        for j, other in enumerate(target):
            oid = other.id
            if fkey[oid] != fk or oid in claimed:
                continue
            if oid != tid:
                k = where[tid]
                home = sets[k]
                assert home is not None
                h = home.index(tile)
                undo_sets.append((home, h, tile))
                undo_sets.append((target, j, other))
                undo_where.append((oid, where[oid]))
                undo_where.append((tid, k))
                home[h] = other
                where[oid] = k
                target[j] = tile
                where[tid] = i
            claimed.add(tid)
            return True
        return False

    for row, sig in zip(table, table_sigs, strict=True):
        # (Without tiles taken out, every table tile is in the arrangement.)
        if taken_ids and any(t.id in taken_ids or t.id not in where for t in row):
            continue
        claimed.clear()
        match = next((i for i in by_sig.get(sig, []) if sets[i] is not None), None)
        if match is not None and jokers and JOKER_KEY in sig:
            # The same faces, but a joker may stand for a cheaper tile in the table's row.
            others = [r for i, r in enumerate(sets) if r is not None and i != match]
            if _joker_worth([*kept, row, *others], jokers, rules) < worth:
                match = None
        if match is not None:
            for tile in row:
                ok = swap_into(tile, match)
                assert ok
            sets[match] = None
            kept.append(row)
            for t in row:
                del where[t.id]
                by_face[fkey[t.id]].remove(t.id)
            continue
        # Take each tile from the set that shares most faces with the row.
        share: dict[int, int] = {}
        for fk in set(sig):
            for tid in by_face.get(fk, []):
                share[where[tid]] = share.get(where[tid], 0) + 1
        if JOKER_KEY not in sig:
            # Without jokers the row's faces differ, so each tile comes from the first of
            # its homes: when that leaves a set of one or two tiles and more tiles than can
            # be laid out again (or fewer than a set), the row cannot be kept (most rows
            # tried), and the swaps need not be made and undone.
            taken: dict[int, int] = {}
            for fk in sig:
                ids = by_face[fk]
                home = (
                    where[ids[0]]
                    if len(ids) == 1
                    else max({where[t] for t in ids}, key=share.__getitem__)
                )
                taken[home] = taken.get(home, 0) + 1
            lefts = [len(sets[i]) - k for i, k in taken.items()]  # type: ignore[arg-type]
            # A set of one or two tiles left means the leftovers must be laid out again
            # together: not when there are more than that allows, or fewer than a set.
            if any(0 < k < 3 for k in lefts) and not 3 <= sum(lefts) <= RELAYOUT_LIMIT:
                continue
        undo_sets.clear()
        undo_where.clear()
        ok = True
        for tile in row:
            ids = by_face[fkey[tile.id]]
            if len(ids) == 1:
                homes: Any = (where[ids[0]],)
            else:
                homes = sorted({where[tid] for tid in ids}, key=share.__getitem__, reverse=True)
            for i in homes:
                if swap_into(tile, i):
                    break
            else:
                ok = False
                break
        laid: list[list[Tile]] | None = None
        if ok:
            touched = sorted({where[t.id] for t in row})
            removed = {t.id for t in row}
            leftovers = [[t for t in sets[i] if t.id not in removed] for i in touched]  # type: ignore[union-attr]
            if all(not r or _is_set([t.id for t in r], wrap) for r in leftovers):
                laid = [r for r in leftovers if r]
            elif sum(map(len, leftovers)) <= RELAYOUT_LIMIT:
                laid = _lay_out_small([t for r in leftovers for t in r], wrap)
            if laid is not None and jokers:
                others = [r for i, r in enumerate(sets) if r is not None and i not in touched]
                if _joker_worth([*kept, row, *others, *laid], jokers, rules) < worth:
                    laid = None
        if laid is None:
            for target, j, tile in reversed(undo_sets):
                target[j] = tile
            for tid, i in reversed(undo_where):
                where[tid] = i
            continue
        kept.append(row)
        for i in touched:
            sets[i] = None
        for t in row:
            del where[t.id]
            by_face[fkey[t.id]].remove(t.id)
        for r in laid:
            sets.append(r)
            for t in r:
                where[t.id] = len(sets) - 1
            by_sig.setdefault(face_signature(r), []).append(len(sets) - 1)
    return kept, [r for r in sets if r is not None]


def _changed(table_sigs: Sequence[tuple[int, ...]], answer: list[list[Tile]]) -> int:
    """Table sets (given by their ``face_signature``) that no set of the answer repeats
    face for face (copies of a face, and the two jokers, are alike; each answer set
    repeats at most one table set)."""
    left: dict[tuple[int, ...], int] = {}
    for row in answer:
        sig = face_signature(row)
        left[sig] = left.get(sig, 0) + 1
    changed = 0
    for sig in table_sigs:
        k = left.get(sig)
        if k:
            left[sig] = k - 1
        else:
            changed += 1
    return changed


# ----- fewest table sets changed --------------------------------------------------------------

# The exact search for the arrangement changing fewest table sets (``_Fewest``) is tried
# when the play's tiles that share a set with table tiles are at most FEWEST_TILES. It
# gives up after FEWEST_NODES choices of sets or FEWEST_CHECKS layout tests (by
# backtracking, PLAIN_STEPS steps in all, then by the dynamic program: at most
# FEWEST_SEARCHES runs, each closing the groups of at most FEWEST_STATES states, one cut
# of the number circle), and the play's own arrangement, with sets kept whole where that
# is easy (``_keep_sets``), is used instead. Each bound keeps it deterministic (no clock).
# The backtracking took most of the time of the slowest searches: with 20,000 steps a
# wrap-around position spent 0.4 s in it; with 5,000 the slowest of 150 random small
# wrap-around plays took 378 ms in all instead of 595 ms. Measured in the README ("fewest").
FEWEST_TILES = 5
FEWEST_NODES = 800
FEWEST_CHECKS = 160
FEWEST_SEARCHES = 20
FEWEST_STATES = 2000
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
            tries = _TRIES[near] = _tries(state, slot, cap, wrap)
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


class _Fewest:
    """Which table sets to break so that the given placed tiles, and the tiles of just
    those sets, can be laid out (every other table set kept as it is) for the same value.

    An answer changing k sets keeps the others whole, so it exists exactly when the
    placed tiles and the tiles of some k sets can be laid out alone. The sets to break
    are found by iterative deepening on k, each depth searched in full, so the first
    answer found changes fewest sets. A placed tile that no set of three (a run of three
    or a group, jokers standing in) could hold among the tiles laid out needs one of the
    sets holding a tile that such a set lacks (or a joker) broken: the search branches
    on those, for the tile with the fewest, and cuts when placed tiles needing disjoint
    helpers outnumber the depth left. Once every placed tile could be held, an exact test
    (backtracking, or the dynamic program when placed jokers are to count) says
    whether all can; if not, a set next to the tiles laid out (a tile of the same number,
    or of the same colour within 4, or a joker) is broken too. A minimal choice of sets
    grows that way one set at a time: each of its sets shares a set of the arrangement
    with a placed tile or with another of its sets, or it could be kept.
    """

    def __init__(self, table: list[list[Tile]], placed: list[Tile], value: int, rules: Rules):
        self.table = table
        self.wrap = rules.wrap_runs
        self.placed = placed
        self.value = value
        self.pcounts, self.pj = _counts(placed)
        self.real_value = sum(t.number for t in placed if not t.is_joker)  # type: ignore[misc]
        self.set_faces = [[FACE_KEY[t.id] for t in row] for row in table]
        self.set_jokers = [sum(1 for t in row if t.id >= 104) for row in table]
        holders: list[list[int]] = [[] for _ in range(COLOURS * N + 1)]
        for i, faces in enumerate(self.set_faces):
            for f in set(faces):
                holders[f].append(i)
        self.holders = holders
        self.weight = [0] * len(table)
        self.pfaces = [f for f in range(COLOURS * N) if self.pcounts[f]]
        self.near: dict[int, list[int]] = {}  # face -> faces of the sets of three holding it
        self.close: dict[int, list[int]] = {}  # face -> sets that could share a set with it
        self.checks = 0
        self.searches = 0
        self.steps = [PLAIN_STEPS]
        self.nodes = 0
        self.memo: dict[frozenset[int], Any] = {}

    def weigh(self, answer: list[list[Tile]]) -> None:
        """Try first the table sets whose tiles share a set of ``answer`` with placed tiles."""
        placed_ids = {t.id for t in self.placed}
        where = {t.id: s for s, row in enumerate(self.table) for t in row}
        for row in answer:
            if any(t.id in placed_ids for t in row):
                for t in row:
                    s = where.get(t.id)
                    if s is not None:
                        self.weight[s] += 1

    def _avail(self, broken: frozenset[int]) -> tuple[list[int], int]:
        """The faces (counts) and jokers laid out when ``broken`` are broken."""
        avail = list(self.pcounts)
        jokers = self.pj
        for s in broken:
            for f in self.set_faces[s]:
                if f < JOKER_KEY:
                    avail[f] += 1
            jokers += self.set_jokers[s]
        return avail, jokers

    def _uncovered(self, avail: list[int], jokers: int) -> list[int]:
        """The placed faces that no set of three could hold among ``avail`` and jokers;
        without jokers, also (as ``-1 - face``) a placed face laid out twice whose two
        tiles could not each have a set of three, sharing no tile."""
        wrap = self.wrap
        found = []
        for f in self.pfaces:
            c, i = divmod(f, N)
            others = sum(1 for o in range(COLOURS) if o != c and avail[o * N + i])
            if others + min(jokers, 1) >= 2:
                if jokers or avail[f] < 2 or self._two_fit(f, avail):
                    continue
                found.append(-1 - f)
                continue
            for s in range(i - 2, i + 1):
                if not wrap and (s < 0 or s + 2 >= N):
                    continue
                missing = sum(1 for m in range(s, s + 3) if m % N != i and not avail[c * N + m % N])
                if missing <= jokers:
                    break
            else:
                found.append(f)
                continue
            if not jokers and avail[f] >= 2 and not self._two_fit(f, avail):
                found.append(-1 - f)
        return found

    def _threes(self, f: int) -> list[tuple[int, int]]:
        """The other two faces of each set of three holding face ``f``."""
        c, i = divmod(f, N)
        threes = list(combinations([o * N + i for o in range(COLOURS) if o != c], 2))
        for s in range(i - 2, i + 1):
            if not self.wrap and (s < 0 or s + 2 >= N):
                continue
            a, b = (c * N + m % N for m in range(s, s + 3) if m % N != i)
            threes.append((a, b))
        return threes

    def _two_fit(self, f: int, avail: list[int]) -> bool:
        """Whether two sets of three, sharing no tile, could each hold a tile of ``f``."""
        usable = [(a, b) for a, b in self._threes(f) if avail[a] and avail[b]]
        for k, (a, b) in enumerate(usable):
            for a2, b2 in usable[k:]:
                need = Counter((a, b, a2, b2))
                if all(avail[g] >= n for g, n in need.items()):
                    return True
        return False

    def _helpers(self, f: int, avail: list[int]) -> list[int]:
        """Sets holding a tile that a set of three holding face ``f`` lacks, or a joker
        (for ``-1 - f``: any tile of such a set, or a joker)."""
        if f < 0:
            f = -1 - f
            found = [s for pair in self._threes(f) for g in pair for s in self.holders[g]]
            found.extend(self.holders[JOKER_KEY])
            return list(dict.fromkeys(found))
        faces = self.near.get(f)
        if faces is None:
            faces = self.near[f] = list(dict.fromkeys(g for pair in self._threes(f) for g in pair))
        found = [s for g in faces if not avail[g] for s in self.holders[g]]
        found.extend(self.holders[JOKER_KEY])
        return list(dict.fromkeys(found))

    def _neighbours(self, avail: list[int], jokers: int) -> list[int]:
        """Sets with a tile that could share a set with a tile laid out."""
        if jokers:
            return list(range(len(self.table)))
        found: dict[int, None] = {}
        close = self.close
        for f in range(COLOURS * N):
            if avail[f]:
                sets = close.get(f)
                if sets is None:
                    c, i = divmod(f, N)
                    faces = {o * N + i for o in range(COLOURS)}
                    for m in range(i - 4, i + 5):
                        if self.wrap or 0 <= m < N:
                            faces.add(c * N + m % N)
                    sets = close[f] = [s for g in sorted(faces) for s in self.holders[g]]
                found.update(dict.fromkeys(sets))
        found.update(dict.fromkeys(self.holders[JOKER_KEY]))
        return list(found)

    def _lay_out(self, broken: frozenset[int]) -> Any:
        """The placed tiles and the broken sets' tiles laid out, the placed jokers worth
        as much as the play counts them (some may take the place of a kept set's joker):
        (problem or None, result, joker places taken), or None when they cannot be."""
        if broken in self.memo:
            return self.memo[broken]
        self.checks += 1
        if self.checks > FEWEST_CHECKS:
            raise _GiveUp
        counts, jokers = self._avail(broken)
        jokers -= self.pj
        found = None
        if not self.pj:
            try:
                plain = _arrange_plain(counts, jokers, self.steps, self.wrap)
            except _GiveUp:
                self.steps[0] = 0
            else:
                found = None if plain is None else (None, plain, [])
                self.memo[broken] = found
                return found
        spots: list[tuple[int, int, int]] = []  # (number, kept set, position) of its jokers
        if self.pj:
            for s, row in enumerate(self.table):
                if s in broken or not self.set_jokers[s]:
                    continue
                reading = read_set(row, self.wrap)
                spots.extend(
                    (n, s, k)
                    for k, (t, n) in enumerate(zip(reading.tiles, reading.numbers, strict=True))
                    if t.is_joker
                )
            spots.sort(reverse=True)
        for b in range(min(self.pj, len(spots)) + 1):
            # b placed jokers take the dearest joker places of kept sets, whose jokers
            # then have to be laid out with the rest.
            need = (self.pj - b) * SCALE + self.value - self.real_value
            need -= sum(n for n, _, _ in spots[:b])
            problem = _Problem(counts, [0] * len(counts), jokers + b, self.pj - b, self.wrap)
            self.searches += 1
            if self.searches > FEWEST_SEARCHES:
                raise _GiveUp
            try:  # one cut of the number circle, a bounded search: exact when it ends
                result = _run_dp(problem, need - 1, FEWEST_STATES)
            except _OutOfBudget:
                raise _GiveUp from None
            if result is not None:
                found = (problem, result, spots[:b])
                break
        self.memo[broken] = found
        return found

    def _dfs(
        self,
        broken: frozenset[int],
        banned: frozenset[int],
        depth: int,
        avail: list[int],
        jokers: int,
    ) -> Any:
        """A choice of at most ``depth`` sets to break, including ``broken`` (which lay
        out ``avail`` and ``jokers`` with the placed tiles) and none of ``banned``:
        (broken, laid out), or None."""
        self.nodes += 1
        if self.nodes > FEWEST_NODES:
            raise _GiveUp
        out = broken | banned
        needs: list[list[int]] = []
        if jokers < 2:
            for f in self._uncovered(avail, jokers):
                helpers = [s for s in self._helpers(f, avail) if s not in out]
                if not helpers:
                    return None
                needs.append(helpers)
        if needs:
            needs.sort(key=len)
            taken: set[int] = set()
            bound = 0
            for helpers in needs:
                if taken.isdisjoint(helpers):
                    taken.update(helpers)
                    bound += 1
            if len(broken) + bound > depth:
                return None
            options = needs[0]
        else:
            found = self._lay_out(broken)
            if found is not None:
                return broken, found
            if len(broken) >= depth:
                return None
            options = [s for s in self._neighbours(avail, jokers) if s not in out]
        weight = self.weight
        options = sorted(options, key=lambda s: -weight[s])
        for k, s in enumerate(options):
            more = list(avail)
            for f in self.set_faces[s]:
                if f < JOKER_KEY:
                    more[f] += 1
            answer = self._dfs(
                broken | {s},
                banned | frozenset(options[:k]),
                depth,
                more,
                jokers + self.set_jokers[s],
            )
            if answer is not None:
                return answer
        return None

    def search(self, below: int) -> Any:
        """A choice of fewer than ``below`` sets to break, fewest first, with its layout;
        None when there is none. Raises ``_GiveUp`` when the budget runs out."""
        for depth in range(below):
            answer = self._dfs(frozenset(), frozenset(), depth, list(self.pcounts), self.pj)
            if answer is not None:
                return answer
        return None

    def play(self, answer: Any) -> list[list[Tile]]:
        """The final table: the sets ``answer`` keeps, then the tiles it lays out."""
        broken, (problem, result, spots) = answer
        rows: list[list[Tile]] = []
        freed: list[Tile] = []
        rack_jokers = [t for t in self.placed if t.is_joker]
        swapped = {(s, k) for _, s, k in spots}
        into = {s for _, s, _ in spots}
        for s, row in enumerate(self.table):
            if s in broken:
                continue
            if s not in into:
                rows.append(row)
                continue
            laid = list(read_set(row, self.wrap).tiles)
            for k in range(len(laid)):
                if (s, k) in swapped:
                    freed.append(laid[k])
                    laid[k] = rack_jokers.pop()
            rows.append(laid)
        table_tiles = [t for s in sorted(broken) for t in self.table[s]] + freed
        table_tiles += [t for t in self.placed if not t.is_joker]
        if problem is None:
            shapes = [[(0, f, "T" if f < 0 else "") for f in faces] for faces in result]
        else:
            shapes = _read_back(problem, result)
        laid_out, _ = _assign(shapes, table_tiles, rack_jokers)
        return rows + laid_out


def _fewest_changed(
    table: list[list[Tile]],
    rows: list[list[Tile]],
    placed: list[Tile],
    value: int,
    rules: Rules,
    changed: int,
) -> list[list[Tile]] | None:
    """The final table changing fewest table sets for the play laid out as ``rows``
    (``placed`` worth ``value``, ``changed`` table sets changed), or None when the search
    is not tried or gives up; ``rows`` itself when nothing changes fewer.

    The placed tiles are the play's, and its sets made of placed tiles only (without
    jokers) stay as they are: another play of the same count and value, or another use
    of those tiles, is not looked for."""
    placed_ids = {t.id for t in placed}
    own = [r for r in rows if all(t.id in placed_ids and t.id < 104 for t in r)]
    own_ids = {t.id for r in own for t in r}
    rest = [t for t in placed if t.id not in own_ids]
    if len(rest) > FEWEST_TILES:
        return None
    own_value = sum(t.number for r in own for t in r)  # type: ignore[misc]
    fewest = _Fewest(table, rest, value - own_value, rules)
    fewest.weigh(rows)
    try:
        answer = fewest.search(changed)
    except _GiveUp:
        return None
    if answer is None:
        return rows
    return [*own, *fewest.play(answer)]


def _joker_worth(rows: list[list[Tile]], jokers: int, rules: Rules) -> int:
    """What ``jokers`` placed jokers count for in these rows: the dearest joker places."""
    readings = [read_set(row, rules.wrap_runs) for row in rows]
    numbers = sorted(
        (n for r in readings for t, n in zip(r.tiles, r.numbers, strict=True) if t.is_joker),
        reverse=True,
    )
    return sum(numbers[:jokers])


def _solve_locked(
    table: list[list[Tile]],
    rack: list[Tile],
    rules: Rules,
    layout: bool = True,
    effort: int | None = None,
) -> Play:
    """Locked joker sets: each set holding a joker stays, or has jokers swapped out for
    the tiles they stand for; freed jokers go into other sets."""
    locked = [row for row in table if any(t.is_joker for t in row)]
    free_rows = [row for row in table if not any(t.is_joker for t in row)]
    best: Play | None = None
    best_key: tuple[int, int, int] | None = None
    for combo in product(*(_swap_options(row, rules) for row in locked)):
        fixed = [row for row, _, _ in combo]
        demand = [(face, i, pos) for i, (_, swaps, _) in enumerate(combo) for face, pos in swaps]
        loose = [j for _, _, jokers in combo for j in jokers]
        swapped = sum(1 for _, swaps, _ in combo if swaps)
        # Only a play as good as the best so far can win (on fewer sets changed): the
        # search need not look at the others.
        beat = NEG if best_key is None else best_key[0] * SCALE + best_key[1]
        play = _solve_open(free_rows, rack, rules, fixed, demand, loose, beat, layout, effort)
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


# ----- JSON lines --------------------------------------------------------------------------


def solve_json(data: Any) -> dict[str, Any]:
    """Answer one ``solve`` line: ``{"table", "rack", "opened", "rules", "threshold"}``."""
    try:
        if not isinstance(data, dict):
            raise SolverInputError("each line must be a JSON object")
        table_codes = data.get("table", [])
        rack_codes = data.get("rack")
        if not isinstance(table_codes, list) or not all(
            isinstance(row, list) and all(isinstance(c, str) for c in row) for row in table_codes
        ):
            raise SolverInputError("'table' must be a list of sets, each a list of tile codes")
        if not isinstance(rack_codes, list) or not all(isinstance(c, str) for c in rack_codes):
            raise SolverInputError("'rack' must be a list of tile codes")
        opened = data.get("opened", False)
        if not isinstance(opened, bool):
            raise SolverInputError("'opened' must be true or false")
        rules = Rules.from_json(data.get("rules"))
        threshold = data.get("threshold")
        if threshold is not None and (
            not isinstance(threshold, int) or isinstance(threshold, bool)
        ):
            raise SolverInputError("'threshold' must be a whole number")
        rows = assign_ids([*table_codes, rack_codes])
        table, rack = rows[:-1], rows[-1]
        for i, row in enumerate(table):
            reading = read_set(row, rules.wrap_runs)
            if not reading.valid:
                raise SolverInputError(f"Set {i + 1} on the table is not valid: {reading.problem}")
        play = solve(table, rack, opened=opened, rules=rules, threshold=threshold)
    except (SolverInputError, RulesError, TileError) as error:
        return {"error": str(error)}
    answer = play.to_json()
    if not opened and not play.found:
        answer["note"] = "no opening"
    return answer


def solve_main(lines: Any, out: Any) -> int:
    """``python -m py_engine solve``: one JSON answer line per input line."""
    errors = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            answer = solve_json(json.loads(line))
        except json.JSONDecodeError as error:
            answer = {"error": f"not valid JSON: {error}"}
        errors += "error" in answer
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return errors
