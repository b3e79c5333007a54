"""What the expert's choice reads of each option (a play, or drawing): numbers a learned
model weighs, all from what the player may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import Rules
from ..sets import read_set
from ..solver import Play, solve
from ..tiles import Tile
from .chances import _win_chance

Table = Sequence[Sequence[Tile]]
LOOK_EFFORT = 5000  # as the expert's look-ahead: a search gives up after this many states

# The option's numbers, in the model's order (see ``option_row``).
OPTION = ("draw", "hold", "alt", "reserve", "goout", "opp_mass", "opp_new", "mine_live",
          "wc", "jokers_kept", "laid", "rest")  # fmt: skip
FLAGS = ("draw", "hold", "alt", "goout")  # compared as they are, not against the max play's
POSITION = ("n_me", "n_opp", "pool", "best", "mass_now", "opp_drew", "opp_last_draw")


def look(table: Table, rack: Sequence[Tile], rules: Rules) -> Play:
    """The most tiles ``rack`` could lay on ``table`` once opened, within LOOK_EFFORT."""
    return solve(table, rack, opened=True, rules=rules, layout=False, effort=LOOK_EFFORT)


def quick_fits(table: Table, wrap: bool = False) -> set[int]:
    """Faces (0..51) a tile could be laid with alone on ``table`` the simple ways: at a
    run's end, in a run's middle by splitting it, as a group's fourth colour."""
    live = set()
    for row in table:
        reading = read_set(row, wrap)
        if reading.kind == "run":
            base = int(reading.colour) * 13  # type: ignore[arg-type]
            numbers = reading.numbers
            if numbers[0] > 1:
                live.add(base + numbers[0] - 2)
            if numbers[-1] < 13:
                live.add(base + numbers[-1])
            for i in range(2, len(numbers) - 2):
                live.add(base + numbers[i] - 1)
        elif reading.kind == "group" and len(row) == 3:
            used = {t.colour for t in row if not t.is_joker}
            live.update(c * 13 + reading.number - 1 for c in range(4) if c not in used)  # type: ignore[operator]
    return live


@dataclass(frozen=True, slots=True)
class Position:
    """What the choice reads of the position, the same for every option."""

    n_me: int  # my rack
    n_opp: int  # theirs
    pool: int
    best: int  # tiles the max play lays
    mass_now: float  # of their tiles, about how many fit the table alone now
    opp_drew: int  # their draws among their last 4 turns since opening
    opp_last_draw: int  # 1 when their last turn was a draw


def option_row(
    table: Table,
    rack: Sequence[Tile],
    option: Play | None,
    best: Play,
    chances: dict[int, float],
    n_opp: int,
    mass_now: float,
    rules: Rules,
) -> dict[str, float]:
    """One option's numbers: what it lays and keeps, what the rack kept could lay next
    turn on the table it leaves (``reserve``; ``goout`` when that is all of it), about how
    many of the opponent's tiles fit that table alone (``opp_mass``, and ``opp_new`` more
    than now), and the win chance its rack sizes give."""
    if option is None:
        after, kept, laid = table, list(rack), 0
    else:
        placed = {t.id for t in option.placed}
        after, kept, laid = option.table, [t for t in rack if t.id not in placed], option.count
    reserve = look(after, kept, rules).count if kept else 0
    live = quick_fits(after, rules.wrap_runs)
    mass = sum(chances.get(f, 0.0) for f in live)
    return {
        "draw": int(option is None),
        "hold": int(option is not None and option.count < best.count),
        "alt": int(option is not None and option is not best and option.count == best.count),
        "laid": laid,
        "rest": len(kept),
        "reserve": reserve,
        "goout": int(bool(kept) and reserve == len(kept)),
        "opp_mass": mass,
        "opp_new": mass - mass_now,
        "mine_live": sum(1 for t in kept if not t.is_joker and t.id % 52 in live),
        "wc": _win_chance(n_opp, len(kept) + (1 if option is None else 0)),
        "jokers_kept": sum(t.is_joker for t in kept),
    }
