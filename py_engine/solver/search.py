"""Where every search for a play starts (``_search``): the dynamic program as it is, or
with wrap-around runs, the circle of numbers cut at one place after another, each search
with a budget, until one ends within it.
"""

from __future__ import annotations

from .dp import _OutOfBudget, _run_dp
from .problem import _NUMBERS, COLOURS, MIRROR, NEG, N, _Problem, _Result

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

# Searches that gave up at their ``effort`` (not the wrap-around cuts' own budgets, after
# which another cut goes on to an exact answer): ``solve`` reads it before and after to
# say whether its play is proven best.
_GAVE_UP = [0]


def _give_up() -> None:
    """Count a search given up at its effort (or not made, with no effort left)."""
    _GAVE_UP[0] += 1


def _first_cut(problem: _Problem) -> int:
    """Where the circle is cut first: between the two neighbouring numbers that hold the
    fewest tiles together (table and rack, every colour), so that few runs can cross it."""
    per = [
        sum(problem.table[c * N + n] + problem.rack[c * N + n] for c in range(COLOURS))
        for n in range(N)
    ]
    pair = [per[n] + per[(n + 1) % N] for n in range(N)]
    return (min(range(N), key=lambda n: (pair[n], n)) + 1) % N


# Without wrap-around runs the search goes from 13 down to 1 (``problem.MIRROR``). Which
# way it goes changes what it must explore before its bounds (each colour on its own)
# cut a branch: on 300 positions from hard-bot rounds (seed 2024) going down took the
# states met from 249,892 to 157,441 and the median solve from 1.42 to 1.13 ms (CPU),
# with a play 2.68 -> 2.01 ms, without one 0.94 -> 0.66 ms; on 300 random positions
# 336,501 -> 229,483 states, the median the same (1.49, 1.48 ms). Players open with high
# tiles, so tables are dense at the top, where plays that each colour alone allows but
# the colours together do not are refuted at once going down, and only after every
# arrangement of the numbers below going up. (The better way for each position would
# have taken 104,273 states; neither where the rack's tiles lie nor where the table's do,
# nor trying one way then the other within budgets, came near it.)

# The cuts tried after the first, as steps from the busiest number.
_STEPS = (0, 2, 4, 1, 3, -1, 5, 6, -2, 7, -3, -4, -5)


# Per cut (and MIRROR), the face each face of the rotated problem is (see ``_rotated``).
_ORDERS = [
    [c * N + numbers[n] - 1 for c in range(COLOURS) for n in range(1, N + 1)]
    for numbers in _NUMBERS
]


def _rotated(problem: _Problem, shift: int) -> _Problem:
    """``problem`` with the circle of numbers cut before ``shift + 1`` instead of 1."""
    order = _ORDERS[shift]
    table, rack = problem.table, problem.rack
    return _Problem(
        [table[f] for f in order],
        [rack[f] for f in order],
        problem.table_jokers,
        problem.rack_jokers,
        problem.wrap,
        problem.cap,
        shift,
        problem.joker,
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
        problem = _rotated(problem, MIRROR)  # from 13 down: see MIRROR
        if effort is None:
            return _run_dp(problem, floor, enough=enough)
        try:
            return _run_dp(problem, floor, effort, enough)
        except _OutOfBudget as stop:
            _give_up()
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
                _give_up()
                return found
            if len(tried) == 1:
                shifts = [(stop.busiest + k) % N for k in _STEPS]
            shifts = [s for s in shifts if s not in tried] or shifts
            if (len(tried) - 1) % WRAP_TRIES == 0:  # the first, then every WRAP_TRIES
                budget *= WRAP_GROWTH
            continue
        return result if result is not None else found
