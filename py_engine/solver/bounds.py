"""Upper bounds on what can still be placed: each colour on its own, computed backwards
over the numbers once per colour and kept across solves (``_colour_bounds``), with room
in groups relaxed to what partners or jokers could allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import count, islice, product
from typing import Any

from .moves import _GROUP_OK, _PLACES, _local_final_ok, _moves
from .problem import _NUMBERS, COLOURS, NEG, SCALE, N, _Problem


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
    kept = _ROOMS[jokers]
    t, r = problem.table, problem.rack
    per_number = []
    for n in range(N):
        # The copies of the number's four faces, table and rack (at most two: the game
        # has two of each), as one number in base 3.
        code = (
            (t[n] + r[n]) * 27
            + (t[N + n] + r[N + n]) * 9
            + (t[2 * N + n] + r[2 * N + n]) * 3
            + t[3 * N + n]
            + r[3 * N + n]
        )
        rooms = kept[code]
        if rooms is None:
            counts = (code // 27, code // 9 % 3, code // 3 % 3, code % 3)
            rooms = kept[code] = _number_rooms(counts, jokers)
        per_number.append(rooms)
    return [per_number[n][c] for c in range(COLOURS) for n in range(N)]


# ``_number_rooms`` by the jokers (0..2), then by the four colours' copies in base 3.
_ROOMS: list[list[tuple[tuple[int, int, int], ...] | None]] = [[None] * 81 for _ in range(3)]


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


# Colours' bounds kept. Bots gain nothing from more: 4 expert-vs-hard rounds took 9.7 s of
# CPU with 2,048 kept (137 MB peak) and 9.1 s with 256 (45 MB), and memory matters in the
# browser, on phones above all. (Measured when each entry also kept the search's option
# lists, some 35 KB on late-game positions; the search now builds none.)
BOUND_CACHE_SIZE = 256
_BOUND_CACHE: dict[tuple, tuple[list[dict[int, int]], list[dict[int, tuple[int, ...]]]]] = {}


def clear_bound_cache() -> None:
    """Forget the per-colour bounds of earlier solves, so the next solve starts as on a
    fresh position (the benchmark's ``--cold``)."""
    _BOUND_CACHE.clear()
    _SUFFIXES.clear()
    _SAME.clear()


# The locals a colour can reach at the next number from those it can reach at this one,
# with the moves (``_relaxed_moves``) of each of those: the bounds then go down the layers
# without working out moves again. At most REACH_KEPT kept (about 700 bytes each), then all
# forgotten: 300 random positions make about 2,700.
REACH_KEPT = 1 << 13
_RelaxedMoves = tuple[tuple[int, int, int], ...]  # relaxed moves: (new local, halves, rack tiles)
_REACH: dict[tuple, tuple[tuple[int, ...], tuple[tuple[int, _RelaxedMoves], ...]]] = {}


def _colour_bounds(
    problem: _Problem, c: int, rooms: list[tuple[int, int, int]]
) -> tuple[list[dict[int, int]], list[dict[int, tuple[int, ...]]]]:
    """For one colour alone, ``F[n][local]``: the most its rack tiles can still add after
    number ``n`` from that run state (NEG when its table tiles cannot all be used). Groups
    are relaxed (allowed wherever other colours or jokers could join) and the colour may
    use every joker; so this is an upper bound, and NEG is exact infeasibility. Also
    returns the same per half-jokers this colour may still use (``V[n][local][u]``, left
    empty without jokers): a joker in a run costs the colour two halves, a joker joining a
    group costs each colour in that group one half (a group has at least two colours), so
    shares of the jokers that add up to at most the jokers left never undercount what a
    play can do."""
    jokers = 2 * (problem.table_jokers + problem.rack_jokers)  # in halves
    wrap = problem.wrap
    lo = c * N
    hi = lo + N
    key = (
        tuple(problem.table[lo:hi]),
        tuple(problem.rack[lo:hi]),
        tuple(rooms[lo:hi]),
        jokers,
        wrap,
        problem.shift,
    )
    cached = _BOUND_CACHE.get(key)
    if cached is not None:
        return cached
    numbers = _NUMBERS[problem.shift]
    faces = tuple(zip(key[0], key[1], key[2], strict=True))
    ends, layers = _reach_up(faces, jokers, wrap)
    bounds, vectors = _bounds_down(ends, layers, jokers, numbers)
    if len(_BOUND_CACHE) >= BOUND_CACHE_SIZE:
        # Forget the older half (a dict keeps the order entries were made in).
        for old in list(islice(_BOUND_CACHE, BOUND_CACHE_SIZE // 2)):
            del _BOUND_CACHE[old]
    _BOUND_CACHE[key] = (bounds, vectors)
    return _BOUND_CACHE[key]


def _reach_up(
    faces: tuple[tuple[int, int, tuple[int, int, int]], ...], jokers: int, wrap: bool
) -> tuple[tuple[int, ...], list[tuple[tuple[int, _RelaxedMoves], ...]]]:
    """Going up the numbers, the locals one colour can reach (ignoring jokers' limits)
    with the relaxed moves of each: per number, (local, its moves) for every local reached
    before it; and the locals reached after 13. ``faces``: per number, (table copies, rack
    copies, group room); ``jokers`` in halves."""
    here: tuple[int, ...] = (0,)
    layers: list[tuple[tuple[int, _RelaxedMoves], ...]] = []
    places = _PLACES[wrap]
    for n in range(N):
        place = places[n + 1]
        reach_key = (place, faces[n], jokers, wrap, here)
        known = _REACH.get(reach_key)
        if known is None:
            t, r, room = faces[n]
            relaxed_key = (place, t, r, room, jokers, wrap)
            table = _RELAXED.get(relaxed_key)
            if table is None:
                table = _RELAXED[relaxed_key] = {}
            found: set[int] = set()
            pairs = []
            for local in here:
                moves = table.get(local)
                if moves is None:
                    moves = table[local] = _relaxed_moves(place, local, t, r, room, jokers, wrap)
                found.update(new for new, _, _ in moves)
                pairs.append((local, moves))
            # Tuples of numbers only, so the cyclic garbage collector stops scanning them
            # after its first look (lists and sets it would scan at every full collection).
            known = _REACH[reach_key] = (tuple(sorted(found)), tuple(pairs))
        here = known[0]
        layers.append(known[1])
    if len(_REACH) > REACH_KEPT:
        _REACH.clear()
    return here, layers


# The layers of bounds already worked out, going down: the same layer (the same tuple of
# ``_REACH``: its number's tiles and the locals reached above it) below the same layers
# gives the same bounds, whatever the colour and the numbers above (on the 300 hard-bot
# positions, a third of the layers). By (the layers below, the layer's own id, the gain a
# tile there adds): (this suffix's own id, the layer, kept so that its id is not reused,
# its vectors, its bounds). The dicts are shared, never changed. At most SUFFIXES_KEPT.
SUFFIXES_KEPT = 1 << 13
_SUFFIXES: dict[tuple, tuple[int, Any, dict, dict[int, int]]] = {}
_SUFFIX_IDS = count()
# The numbers of the bounds worked out, by what they are (the vectors, or without jokers
# the bounds, local by local): a layer's bounds are numbered as any equal ones before
# them, so the layers above them are found kept whatever lies below (on the 300 hard-bot
# positions, 4,473 of the 11,015 layers not found kept by the layers below them). At most
# SUFFIXES_KEPT, then all forgotten (the numbers themselves are never given twice).
_SAME: dict[tuple, int] = {}


def _bounds_down(
    ends: tuple[int, ...],
    layers: list[tuple[tuple[int, _RelaxedMoves], ...]],
    jokers: int,
    numbers: tuple[int, ...],
) -> tuple[list[dict[int, int]], list[dict[int, tuple[int, ...]]]]:
    """Going down the ``layers`` from the locals ``ends`` reached after 13, the best
    future per local (``bounds``) and, with jokers, per local and halves left
    (``vectors``); place n holds ``numbers[n]``."""
    if len(_SUFFIXES) > SUFFIXES_KEPT:
        # Forget the older half (a dict keeps the order entries were made in).
        for old in list(islice(_SUFFIXES, SUFFIXES_KEPT // 2)):
            del _SUFFIXES[old]
    bounds: list[dict[int, int]] = [{}] * (N + 1)
    vectors: list[dict[int, tuple[int, ...]]] = [{}] * (N + 1)
    suffix: Any = (ends, jokers)
    kept = _SUFFIXES.get(suffix)
    if kept is None:
        if jokers:
            end = {local: (0 if _local_final_ok(local) else NEG,) * (jokers + 1) for local in ends}
            flat = {local: best[jokers] for local, best in end.items()}
        else:
            end = {}  # (No jokers: the vectors, only read when sharing jokers, stay empty.)
            flat = {local: 0 if _local_final_ok(local) else NEG for local in ends}
        kept = _SUFFIXES[suffix] = (next(_SUFFIX_IDS), None, end, flat)
    suffix, _, after, bounds[N] = kept
    vectors[N] = after
    for n in range(N, 0, -1):
        layer = layers[n - 1]
        gain_per = SCALE + numbers[n]
        key = (suffix, id(layer), gain_per)
        kept = _SUFFIXES.get(key)
        if kept is None:
            flat = {}
            if not jokers:
                before = after
                _layer_flat(layer, bounds[n].get, gain_per, flat)
            elif jokers == 4:
                before = _layer_five(layer, after.get, gain_per, flat)
            elif jokers == 2:
                before = _layer_three(layer, after.get, gain_per, flat)
            else:
                before = _layer_any(layer, after.get, gain_per, jokers + 1, flat)
            # Layers met as they stand below other layers often give the same bounds:
            # the layer above is then found kept if these are numbered by what they are.
            same = tuple(before.items()) if jokers else tuple(flat.items())
            number = _SAME.get(same)
            if number is None:
                if len(_SAME) >= SUFFIXES_KEPT:
                    _SAME.clear()
                number = _SAME[same] = next(_SUFFIX_IDS)
            kept = _SUFFIXES[key] = (number, layer, before, flat)
        suffix, _, after, bounds[n - 1] = kept
        vectors[n - 1] = after
    return bounds, vectors


def _layer_flat(
    layer: Sequence[tuple[int, Sequence[tuple[int, int, int]]]],
    get: Any,
    gain_per: int,
    flat: dict[int, int],
) -> None:
    """Without jokers: per local, the best over its moves of the rack tiles they place
    now plus what the new local can add (NEG when no move leads anywhere)."""
    for local, moves in layer:
        best = NEG
        for new, _used, tiles in moves:
            value = get(new, NEG)
            if value > NEG:
                value += tiles * gain_per
                if value > best:
                    best = value
        flat[local] = best


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
