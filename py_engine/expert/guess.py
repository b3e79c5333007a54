"""What the opponent of a two-player round holds, read from every turn of theirs: a greedy
player who drew had nothing to lay on that table, one who played had nothing left to lay on
the table they left, so a tile they still hold fitted none of those tables since it came.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules
from ..solver import can_play
from ..tiles import Tile

Table = Sequence[Sequence[Tile]]

JOKER_FACE = 52
FIT_EFFORT = 5000  # each one-tile search gives up after this many states (a count)
# A tile that fitted a table they then faced is kept at this weight rather than ruled out:
# a player who is not greedy (a person, or a level that misses plays) may have held it.
MISS = 0.05
# The weight of the tiles dealt them against that of each tile they drew since: most of a
# rack late in the round is still from the deal, as a greedy player lays what it draws.
DEALT = 40.0
_FITS: dict[tuple[tuple[int, ...], bool, bool], frozenset[int]] = {}
_FITS_KEPT = 4096  # tables remembered (cleared when full): the answers never depend on it


def face(tile: Tile) -> int:
    """A tile's face as 0..51, or JOKER_FACE: copies alike."""
    return JOKER_FACE if tile.is_joker else tile.id % 52


def fits_alone(table: Table, rules: Rules) -> frozenset[int]:
    """The faces a player who has opened could lay alone on ``table`` (a tile of that face
    not already on it), found by the solver. Only the table's faces matter, as the whole
    table may be rearranged, so the answer is kept per faces."""
    key = (
        tuple(sorted(face(t) for row in table for t in row)),
        rules.wrap_runs,
        rules.locked_jokers,
    )
    found = _FITS.get(key)
    if found is None:
        on_table = {t.id for row in table for t in row}
        live = set()
        for f in range(JOKER_FACE + 1):
            copies = (Tile(104), Tile(105)) if f == JOKER_FACE else (Tile(f), Tile(f + 52))
            tile = next((t for t in copies if t.id not in on_table), None)
            if tile is not None and can_play(table, [tile], rules, FIT_EFFORT):
                live.add(f)
        if len(_FITS) >= _FITS_KEPT:
            _FITS.clear()
        found = _FITS[key] = frozenset(live)
    return found


def tile_weights(
    unseen: Sequence[Tile], turns: Sequence[tuple[str, Table]], rules: Rules
) -> list[float]:
    """A weight for each unseen tile to be on the opponent's rack, from their ``turns``
    (oldest first; "open", "play": the table they left; "draw", "wait": the table they drew
    on, after opening or before). A tile came in their deal or at one of their draws; since
    then, each table they faced after opening on which its face fitted alone makes it MISS
    times as likely."""
    fitted = [fits_alone(t, rules) if kind in ("draw", "play") else None for kind, t in turns]
    came = [(DEALT, 0)] + [
        (1.0, i + 1) for i, (kind, _) in enumerate(turns) if kind in ("draw", "wait")
    ]
    by_face: dict[int, float] = {}
    weights = []
    for tile in unseen:
        f = face(tile)
        if f not in by_face:
            kept = [1.0] * (len(turns) + 1)  # kept[i]: held through turns i.. unseen
            for i in range(len(turns) - 1, -1, -1):
                live = fitted[i]
                kept[i] = kept[i + 1] * (MISS if live is not None and f in live else 1.0)
            by_face[f] = sum(prior * kept[start] for prior, start in came)
        weights.append(by_face[f])
    return weights


def face_chances(unseen: Sequence[Tile], weights: Sequence[float], size: int) -> dict[int, float]:
    """For each face, about how many tiles of it the opponent holds (``size`` tiles in
    all, shared by weight; a tile at most once)."""
    total = sum(weights) or 1.0
    chances: dict[int, float] = {}
    for tile, weight in zip(unseen, weights, strict=True):
        f = face(tile)
        chances[f] = chances.get(f, 0.0) + min(1.0, size * weight / total)
    return chances
