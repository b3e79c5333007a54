"""Computer opponents at four levels, and the hint for the human.

- ``easy``: lays sets from its own rack and adds tiles to the ends of table sets; never
  rearranges; now and then it overlooks a play, as a beginner does.
- ``medium``: adds to and splits table sets with simple rearrangements (taking a spare tile
  from a long set, swapping a joker out), but not the full search.
- ``hard``: the solver every turn: the most tiles ("greedy optimal"), within MOVE_EFFORT.
- ``expert``: the solver plus strategy, going out whenever it can. With two players,
  once opened, it chooses among the max play, other plays of the same size, plays one tile
  short and drawing, by a learned model of each one's advantage over the max play that
  reads the opponent's rack from all their turns (``py_engine/expert``). With three or
  four, it plays as hard does unless an opponent is close to going out: then, of the plays
  of the best size, the one whose leftover rack does best next turn, less the chance that
  the table it leaves lets them go out.

Every level sees only what its player may see: its rack, the table, the number of tiles
the others hold, the size of the pool and (the expert) the next player's turns so far.
Each turn is deterministic given ``rng``, and its searches are bounded by counts of
work (MOVE_EFFORT, and the expert's look-ahead efforts), never the clock.

>>> from .rounds import Round
>>> game = Round(seed=3)
>>> turn = choose_turn(game, game.current, "hard", random.Random(1))
>>> turn.table is None or game.check(turn.table).ok
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import expert
from .rounds import Round
from .rules import Rules
from .sets import read_set
from .solver import Play, closed_states, solve
from .tiles import DECK, Tile
from .turns import check_turn, describe_play, play_steps, settle_table

__all__ = ["LEVELS", "MEASURE_LEVELS", "BotTurn", "choose_turn", "hint"]

LEVELS = ("easy", "medium", "hard", "expert")
# Levels for measuring only (the arena), never offered in the page: hard with a little
# noise, to tell the expert's gain over hard from exploiting hard's being predictable.
MEASURE_LEVELS = ("hard-noisy",)

Table = list[list[Tile]]


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's decision: the table at the end of its turn (None: it draws, or passes when
    the pool is empty), the rack tiles it placed, the tile moves for animation and a
    narration line."""

    table: Table | None
    placed: list[Tile] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    narration: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "table": None if self.table is None else [[t.id for t in r] for r in self.table],
            "placed": [t.id for t in self.placed],
            "steps": self.steps,
            "narration": self.narration,
        }


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know when it is their turn."""

    table: Table
    rack: list[Tile]
    opened: bool
    threshold: int
    rules: Rules
    others: tuple[int, ...]  # rack sizes of the other active players, in turn order
    pool: int
    # the next player's turns, oldest first, as ``_turns_of`` tells them (the expert's)
    history: tuple[tuple[str, Table], ...] = ()

    @classmethod
    def of(cls, game: Round, player: int, history: bool = False) -> View:
        n = game.players
        order = [(player + k) % n for k in range(1, n)]
        return cls(
            table=[list(r) for r in game.table],
            rack=list(game.racks[player]),
            opened=game.opened[player],
            threshold=game.threshold(player),
            rules=game.rules,
            others=tuple(len(game.racks[p]) for p in order if not game.resigned[p]),
            pool=len(game.pool),
            history=_turns_of(game, next(p for p in order if not game.resigned[p]))
            if history
            else (),
        )

    def unseen(self) -> list[Tile]:
        """Tiles this player cannot see: the other racks and the pool."""
        seen = {t.id for t in self.rack} | {t.id for r in self.table for t in r}
        return [t for t in DECK if t.id not in seen]


def _turns_of(game: Round, player: int) -> tuple[tuple[str, Table], ...]:
    """``player``'s turns, oldest first, each with the table it tells about: "open" and
    "play" with the table they left, "wait" (a draw before opening) and "draw" (after)
    with the table they drew on. A penalty is a draw."""
    table: Table = []
    opened = False
    turns = []
    for action in game.actions:
        kind = action.get("action")
        if kind == "play":
            table = [[DECK[i] for i in row] for row in action["table"]]
            if action.get("player") == player:
                turns.append(("play" if opened else "open", table))
                opened = True
        elif kind in ("draw", "penalty") and action.get("player") == player:
            turns.append(("draw" if opened else "wait", table))
    return tuple(turns)


# ----- the levels ------------------------------------------------------------------------


def choose_turn(
    game: Round, player: int, level: str, rng: random.Random, name: str | None = None
) -> BotTurn:
    """The turn ``level`` plays for ``player`` (whose turn it must be)."""
    if level not in LEVELS and level not in MEASURE_LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    view = View.of(game, player, history=level == "expert")
    table = _LEVELS[level](view, rng)
    name = name or f"Computer {player}"
    if table is not None:
        check = check_turn(
            view.table,
            table,
            view.rack,
            opened=view.opened,
            rules=view.rules,
            threshold=view.threshold,
        )
        if not check.ok:  # pragma: no cover - a bot bug must never cost the game
            table = None
        else:
            table = settle_table(view.table, check.table, view.rules)
            return BotTurn(
                table,
                list(check.placed),
                play_steps(view.table, table),
                describe_play(name, view.table, table),
            )
    return BotTurn(None, [], [], f"{name} {'drew a tile' if view.pool else 'passed'}")


# Every move's own search (the hint, hard's play, expert's best play, easy's and medium's
# opening and rack sets) gives up after closing the groups of this many states and takes
# the best play found by then (``Play.proven`` False): a count, so the same move on every
# machine. No position met in bot rounds came near it; the slowest ones built to be slow
# (an unopened rack with no reachable opening, a big rack under a threshold of 200) take
# about 1.5 s in CPython with it, and minutes without (benchmarks/worst_positions.py).
MOVE_EFFORT = 50_000


def hint(game: Round, player: int) -> Play:
    """The best play for ``player`` now (the solver's, within MOVE_EFFORT: ``proven`` says
    whether it is the best), its table settled; ``found`` is False when there is none."""
    view = View.of(game, player)
    play = _best(view)
    if not play.found:
        return play
    return replace(play, table=settle_table(view.table, play.table, view.rules))


def _best(view: View, rack: Sequence[Tile] | None = None, layout: bool = True) -> Play:
    return solve(
        view.table,
        view.rack if rack is None else rack,
        opened=view.opened,
        rules=view.rules,
        threshold=view.threshold,
        layout=layout,
        effort=MOVE_EFFORT,
    )


def _laid_out(view: View, play: Play) -> Table:
    """The table for ``play`` (one found with ``layout=False``) with its tiles laid out as
    the solver lays out a play: fewest table sets changed."""
    return _best(view, play.placed).table


def _hard(view: View, rng: random.Random) -> Table | None:
    play = _best(view)
    return play.table if play.found else None


NOISE = 0.2  # hard-noisy: the share of its turns with a play (once opened) it plays worse


def _hard_noisy(view: View, rng: random.Random) -> Table | None:
    """Hard, except that one turn in five that it has a play once opened (and cannot go
    out), it keeps one tile of its best play, chosen at random, on its rack and plays the
    best play without it (or draws when there is none)."""
    play = _best(view)
    if not play.found:
        return None
    if view.opened and play.count < len(view.rack) and rng.random() < NOISE:
        kept = rng.choice(play.placed)
        play = _best(view, [t for t in view.rack if t.id != kept.id])
        return play.table if play.found else None
    return play.table


# ----- easy and medium: simple moves on the table as it lies ------------------------------


def _valid(row: Sequence[Tile], rules: Rules) -> bool:
    return read_set(row, rules.wrap_runs).valid


def _rack_sets(rack: list[Tile], rules: Rules, until: int) -> Table:
    """New sets from the rack alone (the most tiles), the search giving up once
    ``closed_states()`` reaches ``until`` (a move's searches share MOVE_EFFORT)."""
    effort = until - closed_states()
    if effort <= 0:
        return []
    play = solve([], rack, opened=True, rules=rules, effort=effort)
    return play.table if play.found else []


def _add_to_ends(table: Table, rack: list[Tile], rules: Rules, notice: float, rng) -> bool:
    """Add rack tiles to the ends of runs and to groups; True when something was added."""
    changed = False
    for tile in list(rack):
        if tile.is_joker:
            continue  # beginners and medium players keep jokers for new sets
        for i, row in enumerate(table):
            for candidate in ([*row, tile], [tile, *row]):
                reading = read_set(candidate, rules.wrap_runs)
                # At an end and in order: the set's own tiles keep their places.
                if reading.valid and list(reading.tiles) == candidate:
                    if notice < 1 and rng.random() > notice:
                        break
                    table[i] = candidate
                    rack.remove(tile)
                    changed = True
                    break
            if tile not in rack:
                break
    return changed


def _split_runs(table: Table, rack: list[Tile], rules: Rules) -> bool:
    """Put a rack tile into the middle of a run by splitting it: R3..R8 + R5 ->
    R3 R4 R5 and R5 R6 R7 R8."""
    for tile in list(rack):
        if tile.is_joker:
            continue
        for i, row in enumerate(table):
            reading = read_set(row, rules.wrap_runs)
            if reading.kind != "run" or reading.colour != tile.colour:
                continue
            tiles = list(reading.tiles)
            for cut in range(2, len(tiles) - 2):
                if reading.numbers[cut] != tile.number:
                    continue
                left, right = [*tiles[:cut], tile], tiles[cut:]
                if _valid(left, rules) and _valid(right, rules):
                    table[i] = left
                    table.append(right)
                    rack.remove(tile)
                    return True
    return False


def _spare_tiles(table: Table, rules: Rules) -> list[tuple[int, Tile]]:
    """Tiles a set can give away and stay valid: the ends of long runs, any tile of a
    four-tile group."""
    spares = []
    for i, row in enumerate(table):
        if len(row) < 4:
            continue
        reading = read_set(row, rules.wrap_runs)
        ends = [reading.tiles[0], reading.tiles[-1]] if reading.kind == "run" else reading.tiles
        for tile in ends:
            rest = [t for t in reading.tiles if t.id != tile.id]
            if not tile.is_joker and _valid(rest, rules):
                spares.append((i, tile))
    return spares


def _borrow(table: Table, rack: list[Tile], rules: Rules) -> bool:
    """Make a new set from two rack tiles and one spare table tile."""
    spares = _spare_tiles(table, rules)
    reals = [t for t in rack if not t.is_joker]
    for a in range(len(reals)):
        for b in range(a + 1, len(reals)):
            for i, spare in spares:
                trio = [reals[a], reals[b], spare]
                if _valid(trio, rules):
                    table[i] = [t for t in table[i] if t.id != spare.id]
                    table.append(list(read_set(trio, rules.wrap_runs).tiles))
                    rack.remove(reals[a])
                    rack.remove(reals[b])
                    return True
    return False


def _swap_joker(table: Table, rack: list[Tile], rules: Rules) -> bool:
    """Swap a rack tile for a table joker it can replace, then use the joker at once
    (with two rack tiles, or at the end of a run). Unlocked tables only."""
    if rules.locked_jokers:
        return False
    for i, row in enumerate(table):
        reading = read_set(row, rules.wrap_runs)
        for pos, joker in enumerate(reading.tiles):
            if not joker.is_joker:
                continue
            faces = reading.joker_faces(pos)
            for tile in rack:
                if tile.is_joker or tile.face not in faces:
                    continue
                new_row = list(reading.tiles)
                new_row[pos] = tile
                if not _valid(new_row, rules):
                    continue
                rest = [t for t in rack if t.id != tile.id]
                home = _joker_home(table, i, new_row, joker, rest, rules)
                if home is None:
                    continue
                table[:] = home[0]
                for used in [tile, *home[1]]:
                    rack.remove(used)
                return True
    return False


def _joker_home(
    table: Table, i: int, new_row: list[Tile], joker: Tile, rack: list[Tile], rules: Rules
) -> tuple[Table, list[Tile]] | None:
    trial = [list(r) for r in table]
    trial[i] = new_row
    reals = [t for t in rack if not t.is_joker]
    for a in range(len(reals)):
        for b in range(a + 1, len(reals)):
            trio = [reals[a], reals[b], joker]
            if _valid(trio, rules):
                return [*trial, list(read_set(trio, rules.wrap_runs).tiles)], [reals[a], reals[b]]
    for k, row in enumerate(trial):
        for candidate in ([*row, joker], [joker, *row]):
            if _valid(candidate, rules):
                trial[k] = list(read_set(candidate, rules.wrap_runs).tiles)
                return trial, []
    return None


def _simple_turn(view: View, rng: random.Random, medium: bool) -> Table | None:
    rules = view.rules
    if not view.opened:
        # Opening: the sets it sees in its rack (a beginner sometimes misses it).
        if not medium and rng.random() < 0.2:
            return None
        play = _best(view)
        return play.table if play.found else None
    notice = 1.0 if medium else 0.75
    table = [list(r) for r in view.table]
    rack = list(view.rack)
    until = closed_states() + MOVE_EFFORT
    if medium or rng.random() < 0.85:
        laid = _rack_sets(rack, rules, until)
        placed = {t.id for r in laid for t in r}
        table.extend(laid)
        rack = [t for t in rack if t.id not in placed]
    progress = True
    while progress and rack:
        progress = _add_to_ends(table, rack, rules, notice, rng)
        if medium and not progress:
            progress = (
                _split_runs(table, rack, rules)
                or _borrow(table, rack, rules)
                or _swap_joker(table, rack, rules)
            )
            if progress:
                # New room may let more rack sets form.
                laid = _rack_sets(rack, rules, until)
                placed = {t.id for r in laid for t in r}
                table.extend(laid)
                rack = [t for t in rack if t.id not in placed]
        if not medium:
            progress = progress and rng.random() < 0.9
    if len(rack) == len(view.rack):
        return None
    return table


def _easy(view: View, rng: random.Random) -> Table | None:
    return _simple_turn(view, rng, medium=False)


def _medium(view: View, rng: random.Random) -> Table | None:
    return _simple_turn(view, rng, medium=True)


# ----- expert -----------------------------------------------------------------------------

SAMPLES = 6  # sampled draws per candidate play
ALTERNATIVES = 6  # other plays of the same size weighed against the solver's first
DANGER = 4  # an opponent with this many tiles or fewer may go out soon
GO_OUT_BONUS = 5.0
DENY = 3  # with an opponent this close to going out, weigh what the table gives them
DENY_SAMPLES = 10
DENY_WEIGHT = 10.0
# The look-ahead's solves give up after closing the groups of this many states, with the
# best play found by then (see ``solve``): a look-ahead only estimates, and a few positions
# with wrap-around runs would take the exact search a second or more each.
LOOKAHEAD_EFFORT = 5000
# And one decision's look-ahead takes no further sample (a draw or a rack for an opponent)
# once its searches together have closed the groups of this many states, a count, so the
# same moves on every machine; the samples it finished decide. (Measured on the two-player
# rollouts this expert had until session 31: 25,000 cut only the longest decisions.)
THINK_EFFORT = 25_000
# A sample once begun is finished, so a decision could still run past THINK_EFFORT (a
# deny sample looks at every candidate): no look-ahead search starts that could take the
# decision past THINK_LIMIT; the look-ahead is dropped there and the best play made, as
# hard makes it.
THINK_LIMIT = 100_000


class _OutOfThought(Exception):
    """A look-ahead stopped at THINK_LIMIT."""


def _expert(view: View, rng: random.Random) -> Table | None:
    """The most tiles, as hard plays, but going out whenever it can, and:

    - Two players, once opened: the choice of ``expert.choose`` among the max play, other
      plays of its size, plays one tile short and drawing, by a learned model of each
      one's advantage, reading the opponent's rack from all their turns.
    - Three or four players, with an opponent close to going out: of the plays of the best
      size, the one whose leftover rack does best next turn, less the chance that the
      table it leaves lets that opponent go out. The look-ahead takes no further sample
      once its searches have spent THINK_EFFORT (the samples it finished decide), and is
      dropped for the best play at THINK_LIMIT."""
    best = _best(view)
    if not best.found:
        return None
    if best.count == len(view.rack) or not view.opened:
        return best.table  # going out, or opening: take it
    if len(view.others) == 1:
        choice = expert.choose(view, best)
        if choice is None:
            return None
        return best.table if choice is best else _laid_out(view, choice)
    try:
        return _look_ahead(view, best, rng, _Search())
    except _OutOfThought:
        return best.table


def _look_ahead(view: View, best: Play, rng: random.Random, search: _Search) -> Table | None:
    """Three or four players, once the expert has its best play (see ``_expert``)."""
    if min(view.others, default=99) > DANGER and view.pool:
        return best.table
    search = _Search()
    candidates = _same_size_plays(view, best, search)
    if len(candidates) == 1:
        return best.table
    unseen = view.unseen()
    draws = [rng.choice(unseen) for _ in range(SAMPLES)] if unseen else []
    scores = _next_turns(view, candidates, draws, search)
    close = min(view.others, default=99)
    if DENY and close <= DENY and unseen:
        outs = []  # for each rack sampled, whether each candidate lets it go out
        for _ in search.samples(DENY_SAMPLES):
            rack = _deal(unseen, rng, close)
            outs.append(
                [
                    _look(c.table, rack, True, view.rules, search).count == len(rack)
                    for c in candidates
                ]
            )
        for k in range(len(candidates)):
            scores[k] -= DENY_WEIGHT * sum(row[k] for row in outs) / len(outs)
    choice = max(range(len(candidates)), key=lambda k: (scores[k], -k))
    return best.table if choice == 0 else _laid_out(view, candidates[choice])


def _deal(unseen: list[Tile], rng: random.Random, size: int) -> list[Tile]:
    """A rack of ``size`` tiles for an opponent, drawn from the unseen tiles."""
    tiles = list(unseen)
    rng.shuffle(tiles)
    return tiles[:size]


@dataclass(slots=True)
class _Search:
    """One decision's look-ahead: what its searches have spent since it began."""

    start: int = field(default_factory=closed_states)

    def over(self) -> bool:
        """Whether the searches have spent THINK_EFFORT: take no further sample."""
        return closed_states() - self.start >= THINK_EFFORT

    def effort(self) -> int:
        """The effort of the look-ahead's next search: LOOKAHEAD_EFFORT; raises
        ``_OutOfThought`` when that could take the decision past THINK_LIMIT."""
        if closed_states() - self.start + LOOKAHEAD_EFFORT > THINK_LIMIT:
            raise _OutOfThought
        return LOOKAHEAD_EFFORT

    def samples(self, n: int) -> Iterator[int]:
        """Number a look-ahead's samples 1, 2, ... up to ``n``: the first always, each
        further one only while effort is left (on leaving, the last number is how many
        were taken)."""
        for k in range(1, n + 1):
            if k > 1 and self.over():
                return
            yield k


def _look(
    table: Table, rack: list[Tile], opened: bool, rules: Rules, search: _Search | None = None
) -> Play:
    """The greedy play the look-ahead assumes: the solver's, tiles only, within
    LOOKAHEAD_EFFORT (``search``, the decision's, may stop the look-ahead first)."""
    effort = LOOKAHEAD_EFFORT if search is None else search.effort()
    return solve(table, rack, opened=opened, rules=rules, layout=False, effort=effort)


def _same_size_plays(view: View, best: Play, search: _Search) -> list[Play]:
    """``best`` and up to ALTERNATIVES other plays placing as many tiles, each found by
    leaving one of best's tiles on the rack (laid out anyhow: see ``_laid_out``), while
    ``search`` has effort left."""
    found = [best]
    seen = {frozenset(t.id for t in best.placed)}
    for tile in sorted(best.placed, key=lambda t: (t.is_joker, t.number or 0)):
        if len(found) > ALTERNATIVES or search.over():
            break
        other = _look(
            view.table, [t for t in view.rack if t.id != tile.id], view.opened, view.rules, search
        )
        key = frozenset(t.id for t in other.placed)
        if other.count == best.count and key not in seen:
            seen.add(key)
            found.append(other)
    return found


def _next_turns(view: View, plays: list[Play], draws: list[Tile], search: _Search) -> list[float]:
    """For each play, the tiles the leftover rack can place on the table it leaves,
    averaged over the sampled draws (the same draws for every play), with a bonus when
    they would all go: going out is what wins the round. Once ``search`` has spent its
    effort, the draws tried for every play so far (the first always is)."""
    racks = []
    for play in plays:
        placed = {t.id for t in play.placed}
        racks.append([t for t in view.rack if t.id not in placed])
    totals = [0.0] * len(plays)
    tried = 0
    for tried in search.samples(len(draws)):
        tile = draws[tried - 1]
        for k, (play, rack) in enumerate(zip(plays, racks, strict=True)):
            count = _look(play.table, [*rack, tile], True, view.rules, search).count
            totals[k] += count + (GO_OUT_BONUS if count == len(rack) + 1 else 0)
    return [total / max(1, tried) for total in totals]


_LEVELS = {
    "easy": _easy,
    "medium": _medium,
    "hard": _hard,
    "expert": _expert,
    "hard-noisy": _hard_noisy,
}


# ----- describing a turn ---------------------------------------------------------------
