"""Fewest table sets changed, exactly: with the play's placed tiles, which table sets to
break so that they and the placed tiles can be laid out, by iterative deepening within a
budget (``_Fewest``).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..rules import Rules
from ..tiles import FACE_KEY, JOKER_KEY, Tile
from . import arrange
from .arrange import _arrange_plain, _GiveUp
from .dp import _OutOfBudget, _run_dp, closed_states
from .problem import COLOURS, NEG, N, _counts, _Problem
from .read_back import _assign, _read_back

# The exact search for the arrangement changing fewest table sets (``_Fewest``) is tried
# when the play's tiles that share a set with table tiles are at most FEWEST_TILES. It
# gives up after FEWEST_NODES choices of sets or FEWEST_CHECKS layout tests (by
# backtracking, arrange.PLAIN_STEPS steps in all, then by the dynamic program: at most
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
# The same search is first tried for all the placed tiles, before the play's own
# arrangement is read back (``opened._solve_open``), within a small budget of its own:
# (choices of sets, layout tests, runs of the dynamic program, backtracking steps). When
# that runs out, the play is read back and searched as above. Chosen on the 300 hard-bot
# positions and 300 random ones: see QUICK in docs/solver-notes.md.
QUICK = (40, 16, 0, 1000)


# The other two faces of each set of three holding a face (``_Fewest._threes``), by the
# face and the variant.
_THREES: dict[tuple[int, bool], list[tuple[int, int]]] = {}


class _Fewest:
    """Which table sets to break so that the given placed tiles, and the tiles of just
    those sets, can be laid out (every other table set kept as it is): the same tiles
    placed, so the same value (a placed joker scores its penalty wherever it stands).

    An answer changing k sets keeps the others whole, so it exists exactly when the
    placed tiles and the tiles of some k sets can be laid out alone. The sets to break
    are found by iterative deepening on k, each depth searched in full, so the first
    answer found changes fewest sets. A placed tile that no set of three (a run of three
    or a group, jokers standing in) could hold among the tiles laid out needs one of the
    sets holding a tile that such a set lacks (or a joker) broken: the search branches
    on those, for the tile with the fewest, and cuts when placed tiles needing disjoint
    helpers outnumber the depth left. Once every placed tile could be held, an exact test
    (backtracking, then the dynamic program once its steps have run out) says whether
    all can; if not, a set next to the tiles laid out (a tile of the same number,
    or of the same colour within 4, or a joker) is broken too. A minimal choice of sets
    grows that way one set at a time: each of its sets shares a set of the arrangement
    with a placed tile or with another of its sets, or it could be kept.
    """

    def __init__(
        self,
        table: list[list[Tile]],
        placed: list[Tile],
        rules: Rules,
        effort: int | None = None,
        limits: tuple[int, int, int, int] | None = None,
    ):
        self.table = table
        self.wrap = rules.wrap_runs
        self.placed = placed
        self.pcounts, self.pj = _counts(placed)
        self.set_faces = [[FACE_KEY[t.id] for t in row] for row in table]
        # (A joker's face is JOKER_KEY, above every tile's.)
        self.set_jokers = [faces.count(JOKER_KEY) for faces in self.set_faces]
        holders: list[list[int]] = [[] for _ in range(COLOURS * N + 1)]
        for i, faces in enumerate(self.set_faces):
            for f in faces:
                # (A set holds two tiles of a face only as two jokers.)
                if not holders[f] or holders[f][-1] != i:
                    holders[f].append(i)
        self.holders = holders
        self.weight = [0] * len(table)
        self.weighed = False  # (without ``weigh``, sets are tried in the order found)
        self.pfaces = [f for f in range(COLOURS * N) if self.pcounts[f]]
        self.near: dict[int, list[int]] = {}  # face -> faces of the sets of three holding it
        self.close: dict[int, list[int]] = {}  # face -> sets that could share a set with it
        self.checks = 0
        self.searches = 0
        # Its budget: choices of sets, layout tests, runs of the dynamic program, and all
        # its layouts' backtracking steps (the budget's home); by default the module's.
        if limits is None:
            limits = (FEWEST_NODES, FEWEST_CHECKS, FEWEST_SEARCHES, arrange.PLAIN_STEPS)
        self.max_nodes, self.max_checks, self.max_searches, steps = limits
        self.steps = [steps]
        self.nodes = 0
        self.memo: dict[frozenset[int], Any] = {}
        # The solve's effort left (see ``solve``): its layouts by the dynamic program
        # close the groups of at most that many states in all.
        self.until = None if effort is None else closed_states() + effort

    def weigh(self, answer: list[list[Tile]]) -> None:
        """Try first the table sets whose tiles share a set of ``answer`` with placed tiles."""
        self.weighed = True
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
            # Other colours with a tile of this number (written out: read at every node).
            here = (avail[i] > 0) + (avail[N + i] > 0) + (avail[2 * N + i] > 0)
            others = here + (avail[3 * N + i] > 0) - (avail[f] > 0)
            if others + (jokers > 0) >= 2:
                if jokers or avail[f] < 2 or self._two_fit(f, avail):
                    continue
                found.append(-1 - f)
                continue
            # A run of three through f: the two other tiles of some window there, jokers
            # standing in for those missing.
            base = c * N
            fits = False
            for s in range(i - 2, i + 1):
                if not wrap and (s < 0 or s + 2 >= N):
                    continue
                missing = 0
                for m in (s, s + 1, s + 2):
                    if m != i and not avail[base + m % N]:
                        missing += 1
                if missing <= jokers:
                    fits = True
                    break
            if not fits:
                found.append(f)
                continue
            if not jokers and avail[f] >= 2 and not self._two_fit(f, avail):
                found.append(-1 - f)
        return found

    def _threes(self, f: int) -> list[tuple[int, int]]:
        """The other two faces of each set of three holding face ``f``."""
        threes = _THREES.get((f, self.wrap))
        if threes is None:
            c, i = divmod(f, N)
            threes = list(combinations([o * N + i for o in range(COLOURS) if o != c], 2))
            for s in range(i - 2, i + 1):
                if not self.wrap and (s < 0 or s + 2 >= N):
                    continue
                a, b = (c * N + m % N for m in range(s, s + 3) if m % N != i)
                threes.append((a, b))
            _THREES[f, self.wrap] = threes
        return threes

    def _two_fit(self, f: int, avail: list[int]) -> bool:
        """Whether two sets of three, sharing no tile, could each hold a tile of ``f``."""
        usable = [(a, b) for a, b in self._threes(f) if avail[a] and avail[b]]
        for k, (a, b) in enumerate(usable):
            for a2, b2 in usable[k:]:
                need: dict[int, int] = {}
                for g in (a, b, a2, b2):
                    need[g] = need.get(g, 0) + 1
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
        """The placed tiles and the broken sets' tiles laid out: (None, sets of faces, -1
        a joker) by backtracking, or (problem, result) by the dynamic program once the
        backtracking's steps have run out; None when they cannot be. A placed joker scores
        its penalty wherever it stands, so any layout keeps the play's value."""
        if broken in self.memo:
            return self.memo[broken]
        self.checks += 1
        if self.checks > self.max_checks:
            raise _GiveUp
        counts, jokers = self._avail(broken)
        try:
            plain = _arrange_plain(counts, jokers, self.steps, self.wrap)
        except _GiveUp:
            self.steps[0] = 0
        else:
            found = None if plain is None else (None, plain)
            self.memo[broken] = found
            return found
        self.searches += 1
        if self.searches > self.max_searches:
            raise _GiveUp
        states = FEWEST_STATES
        if self.until is not None:
            states = min(states, self.until - closed_states())
            if states <= 0:
                raise _GiveUp
        problem = _Problem(counts, [0] * len(counts), jokers, 0, self.wrap)
        try:  # one cut of the number circle, a bounded search: exact when it ends
            result = _run_dp(problem, NEG, states)
        except _OutOfBudget:
            raise _GiveUp from None
        found = None if result is None else (problem, result)
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
        if self.nodes > self.max_nodes:
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
        if self.weighed:
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
        broken, (problem, result) = answer
        rows = [row for s, row in enumerate(self.table) if s not in broken]
        tiles = [t for s in sorted(broken) for t in self.table[s]] + list(self.placed)
        if problem is None:
            shapes = [[(0, f, "T" if f < 0 else "") for f in faces] for faces in result]
        else:
            shapes = _read_back(problem, result)
        laid_out, _ = _assign(shapes, tiles, [])
        return rows + laid_out


def _fewest_changed(
    table: list[list[Tile]],
    rows: list[list[Tile]],
    placed: list[Tile],
    rules: Rules,
    changed: int,
    effort: int | None = None,
) -> list[list[Tile]] | None:
    """The final table changing fewest table sets for the play laid out as ``rows``
    (``placed`` the rack tiles, ``changed`` table sets changed), or None when the search
    is not tried or gives up (its own budget, or the solve's ``effort`` left, spent);
    ``rows`` itself when nothing changes fewer.

    The placed tiles are the play's, and its sets made of placed tiles only stay as they
    are: another play of the same count and value, or another use of those tiles, is not
    looked for."""
    placed_ids = {t.id for t in placed}
    own = [r for r in rows if all(t.id in placed_ids for t in r)]
    own_ids = {t.id for r in own for t in r}
    rest = [t for t in placed if t.id not in own_ids]
    if len(rest) > FEWEST_TILES:
        return None
    if changed == 1 and len(rest) < 3:
        # Changing no table set would need the placed tiles that share sets with table
        # tiles to make sets alone, and fewer than three cannot: one set changed is
        # fewest (about two in five of the plays near the median solve, each spared
        # building the search's tables).
        return rows
    fewest = _Fewest(table, rest, rules, effort)
    fewest.weigh(rows)
    try:
        answer = fewest.search(changed)
    except _GiveUp:
        return None
    if answer is None:
        return rows
    return [*own, *fewest.play(answer)]
