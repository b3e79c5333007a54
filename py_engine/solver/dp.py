"""The dynamic program over the numbers 1..13: a depth-first branch and bound over the
states of the four colours' runs and the groups of each number (``_run_dp``), trying
each colour's moves at each step from templates kept across positions.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from .bounds import _colour_bounds, _group_rooms
from .moves import _GROUP_OK, _PLACES, _local_final_ok, _moves, _place
from .problem import _NUMBERS, COLOURS, NEG, SCALE, N, _Problem, _Result

# State key fields (bit offsets): four colour "locals" of 8 bits, then table jokers used,
# rack jokers used, group counts of this number (colours with 2 tiles / 1 tile in groups),
# and the opening value (capped at the threshold).
SH_TJ, SH_RJ, SH_D, SH_S, SH_V = 32, 34, 36, 39, 42
COLOUR_SHIFT = (0, 8, 16, 24)


# The templates (``_templates``) by the face (``_face_code``: its place, colour, copies and
# the variant), then by the local and the jokers left (``local << 4 | table jokers left
# << 2 | rack jokers left``, each counted up to two): the search looks up a step's once
# per solve, then each local's by one small number.
_TEMPLATES: dict[int, dict[int, list[tuple]]] = {}


def _face_code(place: int, c: int, t: int, r: int, wrap: bool) -> int:
    return (((place << 2 | c) << 2 | t) << 2 | r) << 1 | wrap


def _templates(
    n: int, c: int, local: int, t: int, r: int, wrap: bool, tj: int, rj: int
) -> list[tuple]:
    """The moves of colour ``c`` at place ``n`` from ``local`` as the search tries them:
    (new local, key delta, real rack tiles placed, tiles counted in an opening's value,
    move (its index in _MOVE_LIST), table jokers, rack jokers), one per way to take a
    move's jokers from the table's and the rack's, with at most ``tj`` and ``rj`` of them
    (jokers left; a move takes two at most, so more counts as two), in the search's order
    (``_template_order``). The search adds what the rack tiles placed are worth at the
    number the place holds and the colour's bound after the move (a rack joker's score is
    counted before the search, wherever it goes); an opening's value counts a joker as the
    tile it stands for. Kept by the place as the moves are (``_place``)."""
    code = _face_code(_place(n, wrap), c, t, r, wrap)
    kept = _TEMPLATES.get(code)
    if kept is None:
        kept = _TEMPLATES[code] = {}
    found = kept.get(local << 4 | tj << 2 | rj)
    if found is None:
        sh = COLOUR_SHIFT[c]
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
                found.append(
                    (mv.new, delta + (a << SH_TJ) + (b << SH_RJ), used, used + b, mv.index, a, b)
                )
        found.sort(key=_template_order)
        kept[local << 4 | tj << 2 | rj] = found
    return found


# The order the search tries a step's templates in, the same on every position: most rack
# tiles placed first, then fewest jokers. Until session 4 of issue 41 the search built, per
# position, lists of options sorted by potential (what each adds plus the bound after it);
# building them took a third of a median solve outside the bounds (350 of 1,080 us, 60
# hard-bot positions around the median, bounds kept). The fixed order meets no more states
# on the 300 hard-bot positions (88,189 steps of the search against 89,996 in potential
# order; most jokers first 95,540; the moves' own order 103,759).
def _template_order(template: tuple) -> tuple[int, int]:
    return (-template[2], template[5] + template[6])


def _LONG_ORDER(option: tuple) -> tuple[int, int, int]:
    return (-option[0], option[2][4], option[2][5])


# A search that has met more states than this at one number's closing goes on with each
# step's options sorted by potential, per state (``_run_dp``'s ``long_search``): built once
# per step and state, they pay off when states are met again and again, and the first
# option cut ends the step, where in the fixed order every template is looked at. Searches
# with wrap-around runs do so from the start. On the slowest of 300 random wrap-around
# positions (seed 2024, position 286), in instructions counted by callgrind for the solve:
# 1.79G with main's sorted lists, 2.60G in the fixed order throughout, 1.94G so. Switching
# after 20 states made the median hard-bot solve 2% slower; after 200, no change.
LONG_SEARCH = 200


_CLOSINGS: dict[int, list[tuple[int, int, int, tuple[int, int, int, int]]]] = {}


def _closings(key: int) -> list[tuple[int, int, int, tuple[int, int, int, int]]]:
    """The ways to close the groups of one number, by ``key``: (table jokers in the game
    << 2 | rack jokers) << 14 | the number << 10 | the state key's fields from SH_TJ (table
    and rack jokers used so far, colours with two tiles and with one tile in the groups).
    Each way: (key delta, potential delta (none: a rack joker's score is counted before the
    search), value gained (for an opening's total), (d, s, table jokers, rack jokers
    joining))."""
    found = _CLOSINGS.get(key)
    if found is None:
        table_jokers, rack_jokers = key >> 16, (key >> 14) & 3
        n = (key >> 10) & 15
        tj, rj = key & 3, (key >> 2) & 3
        d, s = (key >> (SH_D - SH_TJ)) & 7, (key >> (SH_S - SH_TJ)) & 7
        found = []
        for jg in range(3):
            if not _GROUP_OK.get((d, s, jg), False):
                continue
            for a in range(jg + 1):
                b = jg - a
                if tj + a > table_jokers or rj + b > rack_jokers:
                    continue
                delta = (a << SH_TJ) + (b << SH_RJ) - (d << SH_D) - (s << SH_S)
                found.append((delta, 0, b * n, (d, s, a, b)))
        _CLOSINGS[key] = found
    return found


# Per search step (four per number), with and without wrap-around runs: its colour, place,
# face and the part of its face's code in ``_TEMPLATES`` that does not depend on the
# tiles (``_face_code``).
_STEP_FACES = {
    wrap: [
        (
            i & 3,
            (i >> 2) + 1,
            (i & 3) * N + (i >> 2),
            _face_code(_PLACES[wrap][(i >> 2) + 1], i & 3, 0, 0, wrap),
        )
        for i in range(N * COLOURS)
    ]
    for wrap in (False, True)
}
# By the jokers in the game (table << 2 | rack), then by the jokers used (a state key's
# four bits from SH_TJ): the jokers left as the templates count them (each up to two).
_JOKERS_LEFT = [
    [
        min(2, max(0, (split >> 2) - (js & 3))) << 2 | min(2, max(0, (split & 3) - (js >> 2)))
        for js in range(16)
    ]
    for split in range(16)
]
# Per cut of the numbers (and MIRROR): what a rack tile placed at each place scores.
_UNITS = [[SCALE + numbers[n] if n else 0 for n in range(N + 1)] for numbers in _NUMBERS]

# Per search step (four per number): the number whose groups the step closes (0 for none).
_STEP_CLOSES = [i // COLOURS + 1 if i % COLOURS == COLOURS - 1 else 0 for i in range(N * COLOURS)]
_NO_STEPS = [0] * (N * COLOURS)


# Whether the groups begun at a number can still close, by the state key's fields from
# SH_TJ (jokers used, colours with two and with one tile in groups: 10 bits), given how
# many tiles (0..2) each colour still to move there could add to groups, and the jokers in
# the game: (the colours' room, table jokers, rack jokers) -> a tuple of 1,024 bools.
_CLOSABLE: dict[tuple[tuple[int, ...], int, int], tuple[bool, ...]] = {}


def _closable(rooms: tuple[int, ...], table_jokers: int, rack_jokers: int) -> tuple[bool, ...]:
    """``_CLOSABLE``'s table for colours still to move with these ``rooms`` (sorted)."""
    key = (rooms, table_jokers, rack_jokers)
    found = _CLOSABLE.get(key)
    if found is None:
        adds = {(0, 0)}  # (colours adding two tiles, colours adding one)
        for room in rooms:
            adds = {(d + (g == 2), s + (g == 1)) for d, s in adds for g in range(room + 1)}
        # The jokers left to join groups, by the bits of the jokers used (table, rack).
        lefts = [table_jokers - (b & 3) + rack_jokers - (b >> 2) for b in range(16)]
        never = (False,) * 16
        rows: list[bool] = []
        for s in range(8):  # the key's fields: s, d, then the jokers used (16 ways)
            for d in range(8):
                if d + s > COLOURS:
                    rows.extend(never)
                    continue
                can = [any(_GROUPS_WITH.get((d + a, s + b, j)) for a, b in adds) for j in range(3)]
                rows.extend([left >= 0 and can[left if left < 2 else 2] for left in lefts])
        rows_kept = tuple(rows)
        # Many keys share a table: one tuple each (a tuple of 1,024 is 8 kB).
        found = _CLOSABLE[key] = _CLOSABLE_ROWS.setdefault(rows_kept, rows_kept)
    return found


_CLOSABLE_ROWS: dict[tuple[bool, ...], tuple[bool, ...]] = {}


# Whether groups of d colours with two tiles and s with one can close with at most j jokers.
_GROUPS_WITH = {
    (d, s, j): any(_GROUP_OK.get((d, s, k), False) for k in range(j + 1))
    for d in range(5)
    for s in range(5)
    for j in range(3)
}


_CLOSABLE_AT: dict[int, tuple[tuple[bool, ...] | None, ...]] = {}


def _closable_at(key: int) -> tuple[tuple[bool, ...] | None, ...]:
    """The ``_closable`` tables of a number's four steps (None at the last colour's), by
    the copies there of colours 1, 2 and 3 (two bits each) << 4 | the jokers in the game
    (table << 2 | rack)."""
    table_jokers, rack_jokers = (key >> 2) & 3, key & 3
    copies = [(key >> shift) & 3 for shift in (8, 6, 4)]  # colours 1, 2, 3
    ways = [_closable(tuple(sorted(copies[c:])), table_jokers, rack_jokers) for c in range(3)]
    found = _CLOSABLE_AT[key] = (*ways, None)
    return found


def _fill_group_tables() -> None:
    """Every closing (``_closings``) and every table of groups that can still close
    (``_closable_at``), made at import: a few thousand small entries in all (about 25 ms
    in CPython), where a new process would otherwise make them as its first positions need
    them, each at some tens of microseconds."""
    for table_jokers in range(3):
        for rack_jokers in range(3 - table_jokers):  # a game has two jokers
            split = table_jokers << 2 | rack_jokers
            for c1, c2, c3 in product(range(3), repeat=3):
                _closable_at(c1 << 8 | c2 << 6 | c3 << 4 | split)
            for n in range(1, N + 1):
                for tj, rj, d in product(
                    range(table_jokers + 1), range(rack_jokers + 1), range(COLOURS + 1)
                ):
                    for s in range(COLOURS + 1 - d):
                        fields = s << (SH_S - SH_TJ) | d << (SH_D - SH_TJ) | rj << 2 | tj
                        _closings(split << 14 | n << 10 | fields)


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
    per-colour bounds, and the score of every rack joker: it scores the same wherever it
    goes, so the score counts them all from the start and takes off those left unused).
    Children are tried most rack tiles first (``_template_order``), a branch that cannot
    beat the best play found is cut, and a state already explored with as good a
    potential is not explored again, so the search is exact.

    With a ``budget`` the search gives up (raising ``_OutOfBudget``) after closing the
    groups of that many states. With ``enough`` it stops at the first play scoring that
    much (not then the best).
    """
    # One long function on purpose: the inner loop (``search``) and the bounds it takes
    # (``joker_bound``) are closures over this search's tables (the bounds, the states
    # seen, the best so far), which they read as fast as locals; as module functions they
    # would take them as arguments or attributes on each of the millions of calls a slow
    # search makes.
    rooms = _group_rooms(problem)
    both = [_colour_bounds(problem, c, rooms) for c in range(COLOURS)]
    bounds = [b for b, _ in both]
    vectors = [v for _, v in both]
    start = sum(b[0].get(0, NEG) for b in bounds)
    if start <= NEG // 2:
        return None
    joker_score = problem.joker_score
    start += problem.rack_jokers * joker_score
    cap = problem.cap
    opening = cap is not None
    numbers = _NUMBERS[problem.shift]
    table, rack, wrap = problem.table, problem.rack, problem.wrap
    jt_max, jr_max = problem.table_jokers, problem.rack_jokers
    jokers = jt_max + jr_max
    jokers_split = jt_max << 2 | jr_max  # part of the keys of closings and closable tables
    close_prefix = jokers_split << 14  # part of the keys of closings (_closings)
    halves = 2 * jokers
    # Per number: a step for each of colours 0..2, then one for colour 3 that also
    # closes the groups of the number.
    steps = N * COLOURS
    # score, final key, path; a play must score above ``floor`` (SCALE - 1 when only a
    # play placing a tile counts: then the search never has to find the plays placing
    # nothing, and it proves there is no play as soon as no branch can place a tile).
    best: list[Any] = [floor, -1, None]
    final_ok = _local_final_ok
    # By the jokers used (the state key's 4 bits), the jokers left as the templates count
    # them.
    jokers_left = _JOKERS_LEFT[jokers_split]

    # A long search meets states again: their joker bounds (less the potential) are kept
    # by number, from the switch to ``long_search`` on; a short one meets a state at one
    # number's closing about once.
    corrections: list[dict[int, int]] = []

    def joker_bound(n: int, key: int, pot: int) -> int:
        """A tighter bound than ``pot`` after number ``n``: the jokers left shared out
        among the colours (in halves), instead of each colour counting on all of them."""
        if corrections:
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
        shared = v0[0] + v1[0] + v2[0] + v3[0]
        # Halves left: 0, 2 or 4 (a game has two jokers); none in most calls.
        left = halves - 2 * (((key >> SH_TJ) & 3) + ((key >> SH_RJ) & 3))
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
        if corrections:
            corrections[n][key] = shared - loose
        return pot - loose + shared

    check_jokers = _STEP_CLOSES if jokers or budget is not None else _NO_STEPS
    last = steps - 1
    if budget is None:
        close_bound = joker_bound
    else:
        left = [budget]

        def close_bound(n: int, key: int, pot: int) -> int:
            """``joker_bound``, counting the states whose groups are closed against the
            budget."""
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

    # Once a search has met more than LONG_SEARCH states at one step, it goes on in
    # ``long_search``, with each step's options per state kept (``ordered``, empty until
    # then).
    ordered: list[dict[int, list[tuple[int, tuple]]]] = []
    # What a rack tile placed at each place scores; the closing taken at each number (the
    # path holds the colours' templates).
    units = _UNITS[problem.shift]
    infos: list[Any] = [None] * (N + 1)

    def finish(key: int, pot: int) -> None:
        """A play found: kept when it beats the best, with its path: per step (two
        zeros, the real rack tiles placed, move, table jokers, rack jokers), and at a
        number's last colour its closing's (d, s, table jokers, rack jokers) too, as
        ``_read_back`` and ``opened._placed_tiles`` read it."""
        if (key >> SH_TJ) & 3 != jt_max or (cap is not None and (key >> SH_V) < cap):
            return
        if not all(final_ok((key >> sh) & 255) for sh in COLOUR_SHIFT):
            return
        score = pot - (jr_max - ((key >> SH_RJ) & 3)) * joker_score
        if score > best[0]:
            best[0], best[1] = score, key
            best[2] = [
                (0, 0, tm[2], tm[4], tm[5], tm[6], infos[(k >> 2) + 1])
                if k & 3 == 3
                else (0, 0, tm[2], tm[4], tm[5], tm[6])
                for k, tm in enumerate(path)
            ]

    def new_templates(c: int, n: int, local: int, js: int) -> list[tuple]:
        """Colour ``c``'s templates at place ``n`` from ``local`` with the jokers used
        ``js``, made and kept the first time a search meets them (``_templates``)."""
        f = c * N + n - 1
        left = jokers_left[js]
        return _templates(n, c, local, table[f], rack[f], wrap, left >> 2, left & 3)

    def go_long() -> None:
        """From now on the search keeps each step's options and joker bounds per state
        (``long_search``)."""
        ordered.extend({} for _ in range(steps))
        corrections.extend({} for _ in range(N + 1))

    def step_options(i: int, key: int, local: int, js: int, here: int) -> list[tuple]:
        """A long search's options at step ``i`` from ``key`` (its colour's ``local``, the
        jokers used ``js``), kept under ``here`` in ``ordered``: the templates its bounds
        allow, best potential first, as (potential delta, key delta, template); at a
        number's last colour, each with each way to close the number's groups, as
        (potential delta, key delta, template, the closing's (d, s, table jokers, rack
        jokers), the value a closing's jokers add to an opening)."""
        kept, c, n, before, get, unit, _ = step_info[i]
        templates = kept.get(local << 4 | jokers_left[js])
        if templates is None:
            templates = new_templates(c, n, local, js)
        old = before.get(local, NEG)
        found: list[tuple] = [
            (tm[2] * unit + after - old, tm[1], tm)
            for tm in templates
            for after in (get(tm[0], NEG),)
            if after > NEG
        ]
        # Best potential first; among equals, the moves' own order (as before the fixed
        # order: a long wrap-around search's cuts depend on which play it meets first).
        found.sort(key=_LONG_ORDER)
        if c == COLOURS - 1:
            # (A closing adds nothing to the potential: still best first.)
            ways = close_prefix | numbers[n] << 10
            found = [
                (delta, moved + closing[0], tm, closing[3], closing[2])
                for delta, moved, tm in found
                for closing in _CLOSINGS.get(ways | ((key + moved) >> SH_TJ) & 1023)
                or _closings(ways | ((key + moved) >> SH_TJ) & 1023)
            ]
        ordered[i][here] = found
        return found

    def search(i: int, key: int, pot: int) -> None:
        while True:
            if ordered:
                long_search(i, key, pot)
                return
            kept, c, n, before, get, unit, closable = step_info[i]
            local = (key >> (c << 3)) & 255
            js = (key >> SH_TJ) & 15
            if i & 3 == 3 and len(seen[i + 1]) > LONG_SEARCH:
                go_long()
                continue
            templates = kept.get(local << 4 | jokers_left[js])
            if templates is None:
                templates = new_templates(c, n, local, js)
            old = before.get(local, NEG)
            seen_next = seen[i + 1]
            # The last template (at a number's last colour, its last closing) is taken by
            # this loop, not by a call: nothing is left to do here after it (half the
            # steps of a median solve have a single option).
            final = templates[-1] if templates and i != last else None
            if c != 3:
                for tm in templates:
                    after = get(tm[0], NEG)
                    if after <= NEG:
                        continue
                    child = pot + tm[2] * unit + after - old
                    if child <= best[0]:
                        continue
                    nk = key + tm[1]
                    if not closable[(nk >> SH_TJ) & 1023]:
                        continue
                    if opening and tm[3]:
                        v = key >> SH_V
                        nk += (min(cap, v + tm[3] * numbers[n]) - v) << SH_V
                    if seen_next.get(nk, NEG) >= child:
                        continue
                    seen_next[nk] = child
                    path[i] = tm
                    if tm is final:
                        break
                    search(i + 1, nk, child)
                    if best[0] >= ceiling:
                        return
                else:
                    return
                i, key, pot = i + 1, nk, child
                continue
            check = check_jokers[i]
            ways = close_prefix | numbers[n] << 10
            go_on = False
            for tm in templates:
                after = get(tm[0], NEG)
                if after <= NEG:
                    continue
                child = pot + tm[2] * unit + after - old
                if child <= best[0]:
                    continue
                moved = key + tm[1]
                closings = _CLOSINGS.get(ways | (moved >> SH_TJ) & 1023)
                if closings is None:
                    closings = _closings(ways | (moved >> SH_TJ) & 1023)
                final_closing = closings[-1] if tm is final and closings else None
                for closing in closings:
                    nk = moved + closing[0]
                    if opening and (tm[3] or closing[2]):
                        v = key >> SH_V
                        nk += (min(cap, v + tm[3] * numbers[n] + closing[2]) - v) << SH_V
                    if seen_next.get(nk, NEG) >= child:
                        continue
                    seen_next[nk] = child
                    if check and close_bound(check, nk, child) <= best[0]:
                        continue
                    path[i] = tm
                    infos[n] = closing[3]
                    if closing is final_closing:
                        go_on = True
                        break
                    if i == last:
                        finish(nk, child)
                    else:
                        search(i + 1, nk, child)
                    if best[0] >= ceiling:
                        return
            if not go_on:
                return
            i, key, pot = i + 1, nk, child

    def long_search(i: int, key: int, pot: int) -> None:
        """``search`` once the search is long (``ordered``): the same, each step's options
        kept per state (``step_options``), best potential first, so that the first cut
        ends the step."""
        while True:
            c = i & 3
            local = (key >> (c << 3)) & 255
            js = (key >> SH_TJ) & 15
            here = local << 4 | js
            if c == COLOURS - 1:
                here = here << 6 | (key >> SH_D) & 63  # (the groups begun)
            opts = ordered[i].get(here)
            if opts is None:
                opts = step_options(i, key, local, js, here)
            seen_next = seen[i + 1]
            closable = closable_at[i]
            check = check_jokers[i]
            bar = best[0]
            final = opts[-1] if opts and i != last else None
            for option in opts:
                child = pot + option[0]
                if child <= bar:
                    return
                nk = key + option[1]
                if closable is not None and not closable[(nk >> SH_TJ) & 1023]:
                    continue
                tm = option[2]
                if opening and (tm[3] or (closable is None and option[4])):
                    v = key >> SH_V
                    gain = tm[3] * numbers[(i >> 2) + 1] + (0 if closable else option[4])
                    nk += (min(cap, v + gain) - v) << SH_V
                if seen_next.get(nk, NEG) >= child:
                    continue
                seen_next[nk] = child
                if check and close_bound(check, nk, child) <= bar:
                    continue
                path[i] = tm
                if closable is None:
                    infos[(i >> 2) + 1] = option[3]
                if option is final:
                    break
                if i == last:
                    finish(nk, child)
                else:
                    long_search(i + 1, nk, child)
                bar = best[0]
                if bar >= ceiling:
                    return
            else:
                return
            i, key, pot = i + 1, nk, child

    # The root bound with the jokers shared out; no rack tile can be placed below SCALE.
    # (A caller asking for less, such as a swap of a rack tile for a locked joker whose
    # other rack tiles cannot go down, still needs the table laid out again.)
    ceiling = joker_bound(0, 0, start) if jokers else start
    if enough is not None:
        ceiling = min(ceiling, enough)
    try:
        if ceiling < SCALE and floor >= SCALE - 1 and (problem.rack_jokers or any(problem.rack)):
            return None
        # The search's own tables, made only now (a position refuted at the root needs
        # none): per step, the states seen, and the path taken.
        seen: list[dict[int, int]] = [{} for _ in range(steps + 1)]
        path: list[Any] = [None] * steps
        # Per step before a number's last colour: whether the groups begun can still close
        # with what the colours still to move there could add (a state whose cannot has no
        # way on; seen here, the search does not try its children only to find none). None
        # at the last colour's step, where the closings themselves decide.
        have = [t + r for t, r in zip(table, rack, strict=True)]
        closable_at: list[tuple[bool, ...] | None] = []
        for n in range(N):
            here = have[N + n] << 8 | have[2 * N + n] << 6 | have[3 * N + n] << 4 | jokers_split
            ways = _CLOSABLE_AT.get(here)
            closable_at.extend(_closable_at(here) if ways is None else ways)
        # Per step: its face's templates (``_TEMPLATES``), colour, place, the colour's
        # bounds before and after it, what a rack tile placed there scores, and the
        # closable table.
        step_info = [
            (
                _TEMPLATES.get(code) or _TEMPLATES.setdefault(code, {}),
                c,
                n,
                bounds[c][n - 1],
                bounds[c][n].get,
                units[n],
                closable,
            )
            for (c, n, f, place_code), closable in zip(_STEP_FACES[wrap], closable_at, strict=True)
            for code in (place_code | table[f] << 3 | rack[f] << 1,)
        ]
        if wrap:
            # (Wrap-around searches are long, and cut the circle again when they give up:
            # they keep their options from the start.)
            go_long()
        search(0, 0, start)
    finally:
        if budget is not None:
            _CLOSED[0] += budget - max(0, left[0])
        # The closures refer to each other (and ``search`` to itself): freed now, by
        # reference counting, rather than by the cyclic collector later.
        search = long_search = step_options = new_templates = finish = None  # type: ignore[assignment]
        joker_bound = close_bound = None  # type: ignore[assignment]
    if best[2] is None:
        return None
    return _Result(best[0], best[1], best[2], bounds, problem.shift)


_fill_group_tables()
