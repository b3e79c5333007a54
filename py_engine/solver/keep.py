"""Keeping table sets whole where the play's own arrangement easily allows (``_keep_sets``,
when the exact search for fewest sets changed is not tried or gives up), and counting the
table sets an answer changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..rules import Rules
from ..sets import read_set
from ..sets import valid_ids as _is_set
from ..tiles import FACE_KEY, JOKER_KEY, Tile, face_signature

# Keeping a table set whole may need the tiles left around it laid out again: tried for
# up to this many tiles, as one set or two sets of three (``_lay_out_small``).
RELAYOUT_LIMIT = 6


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
    keeper = _Keeper(rows, rules)
    for row, sig in zip(table, table_sigs, strict=True):
        # (Without tiles taken out, every table tile is in the arrangement.)
        if taken_ids and any(t.id in taken_ids or t.id not in keeper.where for t in row):
            continue
        keeper.keep(row, sig)
    return keeper.kept, [r for r in keeper.sets if r is not None]


class _Keeper:
    """The play's arrangement as ``_keep_sets`` takes table sets out of it whole: its sets
    (None once given up), where each tile is, the tiles of each face, the sets of each
    face signature, and the table sets kept so far."""

    def __init__(self, rows: list[list[Tile]], rules: Rules) -> None:
        # (A placed joker scores its penalty wherever it stands: sets laid out again keep
        # the play's value.)
        self.wrap = rules.wrap_runs
        self.sets: list[list[Tile] | None] = [list(r) for r in rows]
        self.where: dict[int, int] = {t.id: i for i, r in enumerate(rows) for t in r}
        self.by_face: dict[int, list[int]] = {}
        for r in rows:
            for t in r:
                self.by_face.setdefault(FACE_KEY[t.id], []).append(t.id)
        self.by_sig: dict[tuple[int, ...], list[int]] = {}
        for i, r in enumerate(rows):
            self.by_sig.setdefault(face_signature(r), []).append(i)
        self.kept: list[list[Tile]] = []
        self.claimed: set[int] = set()
        # Undo log of the swaps tried for one table set: (set, position, tile), (id, set).
        self.undo_sets: list[tuple[list[Tile], int, Tile]] = []
        self.undo_where: list[tuple[int, int]] = []

    def keep(self, row: list[Tile], sig: tuple[int, ...]) -> bool:
        """Keep table set ``row`` (face signature ``sig``) whole if the arrangement lets
        it: swapped out of a set of the same faces, or out of the sets holding its faces
        with what they leave laid out again. Whether it was kept."""
        self.claimed.clear()
        match = self._same_faces(row, sig)
        if match is not None:
            for tile in row:
                ok = self._swap_into(tile, match)
                assert ok
            self._take_out(row, [match], [])
            return True
        # Take each tile from the set that shares most faces with the row.
        share: dict[int, int] = {}
        for fk in set(sig):
            for tid in self.by_face.get(fk, []):
                home = self.where[tid]
                share[home] = share.get(home, 0) + 1
        if JOKER_KEY not in sig and self._left_too_broken(sig, share):
            return False
        self.undo_sets.clear()
        self.undo_where.clear()
        laid = None
        if self._swap_row(row, share):
            touched = sorted({self.where[t.id] for t in row})
            laid = self._lay_out_rest(row, touched)
        if laid is None:
            for target, j, tile in reversed(self.undo_sets):
                target[j] = tile
            for tid, i in reversed(self.undo_where):
                self.where[tid] = i
            return False
        self._take_out(row, touched, laid)
        return True

    def _same_faces(self, row: list[Tile], sig: tuple[int, ...]) -> int | None:
        """A set of the arrangement with the faces of ``row`` that can give way to it."""
        sets = self.sets
        return next((i for i in self.by_sig.get(sig, []) if sets[i] is not None), None)

    def _left_too_broken(self, sig: tuple[int, ...], share: dict[int, int]) -> bool:
        """Without jokers the row's faces differ, so each tile comes from the first of its
        homes: when that leaves a set of one or two tiles and more tiles than can be laid
        out again (or fewer than a set), the row cannot be kept (most rows tried), and the
        swaps need not be made and undone."""
        by_face, where = self.by_face, self.where
        taken: dict[int, int] = {}
        for fk in sig:
            ids = by_face[fk]
            home = (
                where[ids[0]]
                if len(ids) == 1
                else max({where[t] for t in ids}, key=share.__getitem__)
            )
            taken[home] = taken.get(home, 0) + 1
        lefts = [len(self.sets[i]) - k for i, k in taken.items()]  # type: ignore[arg-type]
        # A set of one or two tiles left means the leftovers must be laid out again
        # together: not when there are more than that allows, or fewer than a set.
        return any(0 < k < 3 for k in lefts) and not 3 <= sum(lefts) <= RELAYOUT_LIMIT

    def _swap_row(self, row: list[Tile], share: dict[int, int]) -> bool:
        """Swap each tile of ``row`` into a set holding its face, those sharing most
        faces with the row first; False when one cannot be."""
        by_face, where = self.by_face, self.where
        for tile in row:
            ids = by_face[FACE_KEY[tile.id]]
            if len(ids) == 1:
                homes: Any = (where[ids[0]],)
            else:
                homes = sorted({where[tid] for tid in ids}, key=share.__getitem__, reverse=True)
            for i in homes:
                if self._swap_into(tile, i):
                    break
            else:
                return False
        return True

    def _lay_out_rest(self, row: list[Tile], touched: list[int]) -> list[list[Tile]] | None:
        """What the ``touched`` sets hold besides ``row``, laid out in valid sets, or None."""
        wrap = self.wrap
        removed = {t.id for t in row}
        leftovers = [[t for t in self.sets[i] if t.id not in removed] for i in touched]  # type: ignore[union-attr]
        laid: list[list[Tile]] | None = None
        if all(not r or _is_set([t.id for t in r], wrap) for r in leftovers):
            laid = [r for r in leftovers if r]
        elif sum(map(len, leftovers)) <= RELAYOUT_LIMIT:
            laid = _lay_out_small([t for r in leftovers for t in r], wrap)
        return laid

    def _take_out(self, row: list[Tile], emptied: list[int], laid: list[list[Tile]]) -> None:
        """Keep ``row``: the sets it was taken from go, and ``laid`` takes their place."""
        sets, where = self.sets, self.where
        self.kept.append(row)
        for i in emptied:
            sets[i] = None
        for t in row:
            del where[t.id]
            self.by_face[FACE_KEY[t.id]].remove(t.id)
        for r in laid:
            sets.append(r)
            for t in r:
                where[t.id] = len(sets) - 1
            self.by_sig.setdefault(face_signature(r), []).append(len(sets) - 1)

    def _swap_into(self, tile: Tile, i: int) -> bool:
        """Put ``tile`` into set ``i`` in place of a copy of its face not yet claimed."""
        sets, where, claimed, fkey = self.sets, self.where, self.claimed, FACE_KEY
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
                self.undo_sets.append((home, h, tile))
                self.undo_sets.append((target, j, other))
                self.undo_where.append((oid, where[oid]))
                self.undo_where.append((tid, k))
                home[h] = other
                where[oid] = k
                target[j] = tile
                where[tid] = i
            claimed.add(tid)
            return True
        return False


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
