"""Computer opponents at four levels, and the hint for the human.

- ``easy``: lays sets from its own rack and adds tiles to the ends of table sets; never
  rearranges; now and then it overlooks a play, as a beginner does.
- ``medium``: adds to and splits table sets with simple rearrangements (taking a spare tile
  from a long set, swapping a joker out), but not the full search.
- ``hard``: the exact solver every turn: the most tiles ("greedy optimal").
- ``expert``: the exact solver plus strategy. With two players and a rack of 5 tiles or
  fewer it weighs the plays of the best size, and drawing when the best play is 1 or 2
  tiles, by short rollouts (both sides greedy for two turns each, over deals of the
  unseen tiles; a rollout still going is scored by how often a greedy player with those
  rack sizes went on to win). With an opponent close to going out it picks, among the
  plays of the best size, the one whose leftover rack does best next turn, less the
  chance that the table it leaves lets them go out. Racks it samples for the opponent who moved last
  agree with that move: one who drew had nothing to lay on this table, one who played
  has nothing left to lay on it. It goes out whenever it can.

Every level sees only what its player may see: its rack, the table, the number of tiles
the others hold, whether each has opened and drew or played last, and the size of the
pool. Each turn is deterministic given ``rng``.

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
from .expert.chances import _win_chance
from .rounds import Round
from .rules import Rules
from .sets import read_set
from .solver import Play, can_play, closed_states, solve
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
    others_opened: tuple[bool, ...] = ()  # whether each of them has opened, same order
    # each one's last move, same order: "draw", "play" (after they had opened), else None
    others_last: tuple[str | None, ...] = ()
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
            others_opened=tuple(game.opened[p] for p in order if not game.resigned[p]),
            others_last=tuple(_last_move(game, p) for p in order if not game.resigned[p]),
            history=_turns_of(game, next(p for p in order if not game.resigned[p]))
            if history
            else (),
        )

    def unseen(self) -> list[Tile]:
        """Tiles this player cannot see: the other racks and the pool."""
        seen = {t.id for t in self.rack} | {t.id for r in self.table for t in r}
        return [t for t in DECK if t.id not in seen]


def _last_move(game: Round, player: int) -> str | None:
    """``player``'s last move, when it tells something about their rack: "draw", or "play"
    when they had opened before it (an opening leaves tiles that may fit the table)."""
    plays = 0
    last = None
    for action in game.actions:
        if action.get("player") != player:
            continue
        kind = action.get("action")
        if kind == "play":
            plays += 1
        last = kind if kind in ("draw", "play") and (kind == "draw" or plays > 1) else None
    return last


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


def hint(game: Round, player: int) -> Play | None:
    """The best play for ``player`` now (the exact solver), or None when there is none."""
    view = View.of(game, player)
    play = _best(view)
    if not play.found:
        return None
    return replace(play, table=settle_table(view.table, play.table, view.rules))


def _best(view: View, rack: Sequence[Tile] | None = None, layout: bool = True) -> Play:
    return solve(
        view.table,
        view.rack if rack is None else rack,
        opened=view.opened,
        rules=view.rules,
        threshold=view.threshold,
        layout=layout,
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


def _rack_sets(rack: list[Tile], rules: Rules) -> Table:
    """New sets from the rack alone (the most tiles)."""
    play = solve([], rack, opened=True, rules=rules)
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
    if medium or rng.random() < 0.85:
        laid = _rack_sets(rack, rules)
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
                laid = _rack_sets(rack, rules)
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
RACK_TRIES = 40  # sampled racks tried per deal to find one that agrees with the opponent
# The look-ahead's solves give up after closing the groups of this many states, with the
# best play found by then (see ``solve``): a rollout only estimates, and a few positions
# with wrap-around runs would take the exact search a second or more each.
LOOKAHEAD_EFFORT = 5000
# And one decision's look-ahead takes no further sample (a deal of the rollouts, a draw or a
# rack for the opponent) once its searches together have closed the groups of this many
# states, a count, so the same moves on every machine; the samples it finished decide.
# Unbounded, 60 two-player rounds (1,855 expert moves) had 85 moves spend over 10,000 and
# 9 over 30,000, the most 73,251 states: 1.7 s in CPython, about twice that in the page on
# a laptop and several times that on a phone. A budget of 10,000 cost the expert 1.4
# points against hard (7 rounds of 1,000 won, 21 lost): 25,000 cuts only the longest.
THINK_EFFORT = 25_000


def _expert(view: View, rng: random.Random) -> Table | None:
    """The most tiles, as hard plays, with two changes:

    - Endgame, two players and a rack of ROLLOUT_RACK or fewer: it weighs the plays of the
      best size, and drawing, by short rollouts over deals of the unseen tiles.
    - With an opponent close to going out: of the plays of the best size, the one whose
      leftover rack does best next turn, less the chance that the table it leaves lets that
      opponent go out.

    Racks sampled for the opponent who moved last agree with what they did: a greedy
    player who drew had nothing to play on this table, and one who played has nothing
    left to play on it. Going out is always taken. The look-ahead takes no further sample
    once its searches have spent THINK_EFFORT (the samples it finished decide)."""
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
    search = _Search()
    if ROLLOUT and len(view.others) == 1 and len(view.rack) <= ROLLOUT_RACK:
        return _rollout_choice(view, _same_size_plays(view, best, search), rng, search)
    if min(view.others, default=99) > DANGER and view.pool:
        return best.table
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
            rack = _deal(view, unseen, rng, close, search)[0]
            outs.append(
                [_look(c.table, rack, True, view.rules).count == len(rack) for c in candidates]
            )
        for k in range(len(candidates)):
            scores[k] -= DENY_WEIGHT * sum(row[k] for row in outs) / len(outs)
    choice = max(range(len(candidates)), key=lambda k: (scores[k], -k))
    return best.table if choice == 0 else _laid_out(view, candidates[choice])


def _deal(
    view: View,
    unseen: list[Tile],
    rng: random.Random,
    size: int | None = None,
    search: _Search | None = None,
) -> tuple[list[Tile], list[Tile]]:
    """A rack for the next player (``size`` tiles, by default all they hold) and the pool
    order, from the unseen tiles. When that player has opened and moved last (two
    players), the rack agrees with a greedy player's move: after a draw, the rack less one
    tile has no play on this table; after a play, the rack has none left. Racks that agree
    are looked for among RACK_TRIES shuffles; ``search``, shared by the deals of one
    decision, stops the looking for the rest of it once a deal found none."""
    size = view.others[0] if size is None else size
    last = view.others_last[0] if view.others_last else None
    tiles = list(unseen)
    rng.shuffle(tiles)
    opened = view.others_opened[0] if view.others_opened else False
    if len(view.others) != 1 or not opened or last not in ("draw", "play") or size > view.others[0]:
        return tiles[:size], tiles[size:]
    if search is not None and search.hopeless:
        return tiles[:size], tiles[size:]
    need = size - 1 if last == "draw" and size == view.others[0] else size
    for _ in range(RACK_TRIES):
        if not can_play(view.table, tiles[:need], view.rules, LOOKAHEAD_EFFORT):
            break
        rng.shuffle(tiles)
    else:
        if search is not None:
            search.hopeless = True
    return tiles[:size], tiles[size:]


@dataclass(slots=True)
class _Search:
    """One decision's look-ahead: whether racks that agree are too rare here to look for
    (a deal just failed to find one in RACK_TRIES shuffles), and what its searches have
    spent since it began."""

    hopeless: bool = False
    start: int = field(default_factory=closed_states)

    def over(self) -> bool:
        """Whether the searches have spent THINK_EFFORT: take no further sample."""
        return closed_states() - self.start >= THINK_EFFORT

    def samples(self, n: int) -> Iterator[int]:
        """Number a look-ahead's samples 1, 2, ... up to ``n``: the first always, each
        further one only while effort is left (on leaving, the last number is how many
        were taken)."""
        for k in range(1, n + 1):
            if k > 1 and self.over():
                return
            yield k


ROLLOUT = True  # two players, small rack: choose by short greedy rollouts
ROLLOUT_RACK = 5  # racks of this many tiles or fewer
ROLLOUTS = 4  # sampled deals of the unseen tiles
HORIZON = 2  # turns each simulated after this one
CONSIDER_DRAW = 2  # weigh drawing when the best play places this many tiles or fewer


def _rollout_choice(
    view: View, candidates: list[Play], rng: random.Random, search: _Search
) -> Table | None:
    """Two players: weigh each candidate (and drawing, when the best play is small) by
    playing the round on for a few turns, both sides greedy, over deals of the unseen
    tiles sampled for the opponent's rack and the pool (the same deals for every
    candidate). A round won in the rollout counts 1; one still going, the chance that
    hard-against-hard rounds give a player with these rack sizes (``_WIN_CHANCE``).
    Once ``search`` has spent its effort, the deals played out for every option decide
    (the first always is)."""
    unseen = view.unseen()
    opp_open = view.others_opened[0] if view.others_opened else True
    options: list[Play | None] = list(candidates)
    if CONSIDER_DRAW and candidates[0].count <= CONSIDER_DRAW and view.pool:
        options.append(None)
    scores = [0.0] * len(options)
    for k in search.samples(ROLLOUTS):
        opp, deal_pool = _deal(view, unseen, rng, search=search)
        row = []
        for option in options:
            if k > 1 and search.over():
                break
            if option is None:  # the tile drawn is the next the rollout would deal
                pool = list(deal_pool)
                table, rack = view.table, [*view.rack, pool.pop()]
            else:
                pool = deal_pool
                placed = {t.id for t in option.placed}
                table, rack = option.table, [t for t in view.rack if t.id not in placed]
            row.append(_rollout(view.rules, table, rack, opp, opp_open, pool))
        if len(row) < len(options):
            break  # this deal was not played out for every option: left out
        scores = [total + score for total, score in zip(scores, row, strict=True)]
    best = max(range(len(options)), key=lambda k: (scores[k], -k))
    choice = options[best]
    if choice is None:
        return None
    return choice.table if best == 0 else _laid_out(view, choice)


def _rollout(
    rules: Rules, table: Table, mine: list[Tile], opp: list[Tile], opp_open: bool, pool: list[Tile]
) -> float:
    """From just after my turn: the opponent moves, then I, greedily, HORIZON times."""
    pool = list(pool)
    for _ in range(HORIZON):
        play = _look(table, opp, opp_open, rules)
        if play.found:
            placed = {t.id for t in play.placed}
            table, opp, opp_open = play.table, [t for t in opp if t.id not in placed], True
            if not opp:
                return 0.0
        elif pool:
            opp = [*opp, pool.pop()]
        play = _look(table, mine, True, rules)
        if play.found:
            placed = {t.id for t in play.placed}
            table, mine = play.table, [t for t in mine if t.id not in placed]
            if not mine:
                return 1.0
        elif pool:
            mine = [*mine, pool.pop()]
    return 1.0 - _win_chance(len(opp), len(mine))  # the opponent is to move


def _look(table: Table, rack: list[Tile], opened: bool, rules: Rules) -> Play:
    """The greedy play the look-ahead assumes: the solver's, tiles only, within
    LOOKAHEAD_EFFORT."""
    return solve(table, rack, opened=opened, rules=rules, layout=False, effort=LOOKAHEAD_EFFORT)


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
            view.table, [t for t in view.rack if t.id != tile.id], view.opened, view.rules
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
            count = _look(play.table, [*rack, tile], True, view.rules).count
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
