"""The expert's two-player choice once it has opened: the max play, a few other plays of the
same size, plays that keep one of its tiles back, or drawing, chosen by a learned model of
each option's advantage over the max play, from what the opponent's turns say they hold.

``bots`` plays the rest of the expert (the opening, going out, three and four players);
this package imports nothing above the solver.
"""

from __future__ import annotations

from typing import Protocol

from ..rules import Rules
from ..solver import Play
from ..tiles import Tile
from .features import Position, look, option_row, quick_fits
from .guess import face_chances, tile_weights
from .model import advantage, weights

__all__ = ["Seen", "choose", "options"]

ALTERNATIVES = 2  # other plays of the max play's size
HOLDS = 3  # plays one tile short of it
RECENT = 4  # the opponent's last turns since opening that ``opp_drew`` counts


class Seen(Protocol):
    """What the choice reads of a player's view (``bots.View``)."""

    table: list[list[Tile]]
    rack: list[Tile]
    rules: Rules
    others: tuple[int, ...]
    pool: int
    history: tuple[tuple[str, list[list[Tile]]], ...]

    def unseen(self) -> list[Tile]: ...


def options(view: Seen, best: Play) -> list[Play]:
    """``best``, then up to ALTERNATIVES other plays of its size and HOLDS plays one tile
    short, each the best play of the rack less one of best's tiles (one per face, low
    numbers first)."""
    found = [best]
    seen = {frozenset(t.id for t in best.placed)}
    faces = set()
    alternatives = holds = 0
    for tile in sorted(best.placed, key=lambda t: (t.is_joker, t.number or 0)):
        if tile.face in faces:
            continue
        faces.add(tile.face)
        other = look(view.table, [t for t in view.rack if t.id != tile.id], view.rules)
        key = frozenset(t.id for t in other.placed)
        if not other.found or key in seen:
            continue
        if other.count == best.count and alternatives < ALTERNATIVES:
            alternatives += 1
        elif other.count == best.count - 1 and holds < HOLDS:
            holds += 1
        else:
            continue
        seen.add(key)
        found.append(other)
    return found


def choose(view: Seen, best: Play) -> Play | None:
    """The option to take (``best`` itself, another play, or None: draw) when ``best``
    is found and does not go out: the one the model puts furthest above the max play, if
    by more than its margin."""
    choices: list[Play | None] = list(options(view, best))
    if view.pool:
        choices.append(None)
    if len(choices) == 1:
        return best
    unseen = view.unseen()
    n_opp = view.others[0]
    chances = face_chances(unseen, tile_weights(unseen, view.history, view.rules), n_opp)
    mass_now = sum(chances.get(f, 0.0) for f in quick_fits(view.table, view.rules.wrap_runs))
    recent = [kind for kind, _ in view.history if kind in ("draw", "play")][-RECENT:]
    position = Position(
        len(view.rack), n_opp, view.pool, best.count, mass_now,
        recent.count("draw"), int(bool(recent) and recent[-1] == "draw"),
    )  # fmt: skip
    rows = [
        option_row(view.table, view.rack, o, best, chances, n_opp, mass_now, view.rules)
        for o in choices
    ]
    chosen, most = 0, weights()["margin"]
    for k in range(1, len(choices)):
        gain = advantage(position, rows[k], rows[0])
        if gain > most:
            chosen, most = k, gain
    return choices[chosen]
