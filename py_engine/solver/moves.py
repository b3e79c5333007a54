"""The move model: per colour, the state of its at most two open runs (a "local"), every
move a colour can make at one number (slot actions on its runs, tiles into groups), and
which groups a number's tiles and jokers can make.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from .problem import N

# Run slot values. 0 is an empty slot; 1, 2, 3 are open runs of that length (3 = 3 or
# more, may end); with wrap-around runs also tails (started at 1) and heads (reach 13).
EMPTY, T1, T2, HEAD = 0, 4, 5, 6

# Every local met, by its index (a state key holds one index per colour): its two slot
# values, lower first, and how many tails of length 1 and of 2 or more have ended waiting
# for a head. Never forgotten: the states and options kept name locals by index.
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


def _place(n: int, wrap: bool) -> int:
    """The place that stands for place ``n`` in the tables of moves: a colour's moves
    depend on its place only near the ends (from 12 on, a run shorter than 3 can no
    longer be left open; with wrap-around runs, tails start at 1), so every other place
    has the moves of place 11, and the tables keep them once."""
    return n if n >= N - 1 or (wrap and n == 1) else N - 2


# The place standing for each place 1..13 (index 0 unused), without and with wrap-around
# runs.
_PLACES = {wrap: [_place(n, wrap) for n in range(N + 1)] for wrap in (False, True)}


def _moves(n: int, local: int, t: int, r: int, wrap: bool) -> list[_Move]:
    """Every move of one colour at number ``n`` from ``local`` with ``t`` table tiles
    (which must be used) and ``r`` rack tiles (which may be) of that face."""
    n = _place(n, wrap)
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
