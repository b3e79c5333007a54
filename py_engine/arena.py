"""Bot-versus-bot rounds with mirrored deals, to show the levels' order.

    python -m py_engine arena --players hard,expert --games 1000 --seed 1

Each deal is played once per seating: with two players, twice with the seats swapped;
with three or four, once per order of the seats (6 or 24 times; rotations alone are not
enough, as the player who sits after a weak one gains a lot). So every bot gets the same
tiles and the same places in the turn order as the others. ``--games`` is the number of
rounds. Prints, per level, the round win rate with a 95% (Wilson) confidence interval, the
mean round score, the rounds that ended blocked, and the mean think time per move.

>>> stats = run_arena(["hard", "easy"], rounds=2, seed=5, workers=1)
>>> sorted(stats), sum(s.rounds for s in stats.values())
(['easy', 'hard'], 4)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from .bots import LEVELS, MEASURE_LEVELS, BotTurn, choose_turn
from .limits import JSONLimitError, read_json
from .rounds import Reason, Round
from .rules import Rules, RulesError

__all__ = ["LevelStats", "bot_turns", "main", "play_round", "run_arena", "wilson"]

MAX_TURNS = 2000  # a safety net; a round ends long before (the pool runs dry)


@dataclass
class LevelStats:
    rounds: int = 0
    wins: int = 0
    score: int = 0
    blocked: int = 0
    moves: int = 0
    think: float = 0.0
    tiles_left: int = 0

    def add(self, other: LevelStats) -> None:
        for name in ("rounds", "wins", "score", "blocked", "moves", "think", "tiles_left"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.rounds)
        return {
            "rounds": self.rounds,
            "win_rate": self.wins / self.rounds if self.rounds else 0.0,
            "ci95": [low, high],
            "mean_score": self.score / self.rounds if self.rounds else 0.0,
            "blocked": self.blocked,
            "think_ms": 1000 * self.think / self.moves if self.moves else 0.0,
        }


@dataclass
class RoundResult:
    levels: list[str]
    winner: int | None
    scores: list[int]
    blocked: bool
    moves: list[int] = field(default_factory=list)
    think: list[float] = field(default_factory=list)
    tiles_left: list[int] = field(default_factory=list)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_turns(
    game: Round, levels: Sequence[str], seed: str, max_turns: int = MAX_TURNS
) -> Iterator[tuple[int, BotTurn, float]]:
    """Play ``game`` out between bots, ``levels[i]`` in seat ``i``, each turn deterministic:
    its random generator is seeded ``f"{seed}:{game.turn}"``. Yields each turn once chosen
    and before it is made, as (player, turn, seconds spent choosing it), so a caller can
    still read the position it was chosen in; then plays it (or draws, or passes).

    >>> game = Round(seed=4)
    >>> moves = sum(1 for _ in bot_turns(game, ["hard", "hard"], "doc"))
    >>> game.is_over and moves > 14
    True
    """
    for _ in range(max_turns):
        if game.is_over:
            return
        player = game.current
        rng = random.Random(f"{seed}:{game.turn}")
        start = time.perf_counter()
        turn = choose_turn(game, player, levels[player], rng)
        yield player, turn, time.perf_counter() - start
        if turn.table is not None:
            game.play(turn.table, player=player)
        else:
            game.draw_or_pass(player=player)


def play_round(levels: Sequence[str], rules: Rules, seed: str) -> RoundResult:
    """One round with ``levels[i]`` in seat ``i``."""
    game = Round(rules.with_(players=len(levels)), seed=seed)
    moves = [0] * len(levels)
    think = [0.0] * len(levels)
    for player, _turn, seconds in bot_turns(game, levels, seed):
        think[player] += seconds
        moves[player] += 1
    outcome = game.outcome
    if outcome is None:  # pragma: no cover - the safety net
        return RoundResult(list(levels), None, [0] * len(levels), True, moves, think)
    return RoundResult(
        list(levels),
        outcome.winner,
        list(outcome.scores),
        outcome.reason is Reason.BLOCKED,
        moves,
        think,
        [len(r) for r in game.racks],
    )


def _seatings(players: Sequence[str]) -> list[list[str]]:
    """Every seating of the players (every order, not only rotations: who sits after whom
    matters a lot with three or four players)."""
    return [list(p) for p in dict.fromkeys(permutations(players))]


def _job(args: tuple[list[str], dict[str, Any], str]) -> RoundResult:
    levels, rules, seed = args
    return play_round(levels, Rules.from_json(rules), seed)


def run_arena(
    players: Sequence[str],
    rounds: int,
    seed: int | str = 1,
    rules: Rules | None = None,
    workers: int = 2,
    progress: bool = False,
) -> dict[str, LevelStats]:
    """Play about ``rounds`` rounds (whole deals, every seating) and total them per level."""
    rules = rules or Rules()
    seatings = _seatings(players)
    deals = max(1, math.ceil(rounds / len(seatings)))
    jobs = [
        (levels, rules.to_json(), f"arena:{seed}:{deal}")
        for deal in range(deals)
        for levels in seatings
    ]
    stats = {level: LevelStats() for level in dict.fromkeys(players)}
    if workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            results = pool.imap(_job, jobs, chunksize=2)
            _collect(results, stats, len(jobs), progress)
    else:
        _collect(map(_job, jobs), stats, len(jobs), progress)
    return stats


def _collect(results, stats: dict[str, LevelStats], total: int, progress: bool) -> None:
    for done, result in enumerate(results, 1):
        for seat, level in enumerate(result.levels):
            s = LevelStats(
                rounds=1,
                wins=int(result.winner == seat),
                score=result.scores[seat],
                blocked=int(result.blocked),
                moves=result.moves[seat],
                think=result.think[seat],
                tiles_left=result.tiles_left[seat] if result.tiles_left else 0,
            )
            stats[level].add(s)
        if progress and done % 50 == 0:
            print(f"  {done}/{total} rounds", file=sys.stderr, flush=True)


def format_table(stats: dict[str, LevelStats], players: Sequence[str]) -> str:
    lines = [
        f"players: {', '.join(players)}",
        "level    rounds  win rate  95% CI           mean score  blocked  think/move",
    ]
    for level, s in stats.items():
        d = s.to_json()
        low, high = d["ci95"]
        lines.append(
            f"{level:<8} {s.rounds:>6}  {d['win_rate'] * 100:6.1f}%  "
            f"[{low * 100:5.1f}%, {high * 100:5.1f}%]  {d['mean_score']:>10.1f}  "
            f"{s.blocked:>7}  {d['think_ms']:>7.1f} ms"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m py_engine arena", description=__doc__)
    parser.add_argument("--players", default="hard,expert", help="levels, one per seat")
    parser.add_argument("--games", type=int, default=1000, help="rounds to play")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--rules", default=None, help="rules as a JSON object")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    unknown = [p for p in players if p not in LEVELS + MEASURE_LEVELS]
    if unknown or not 2 <= len(players) <= 4:
        print(
            f"--players needs 2 to 4 of: {', '.join(LEVELS + MEASURE_LEVELS)} "
            f"(got {args.players!r})",
            file=sys.stderr,
        )
        return 2
    try:
        rules = Rules.from_json(read_json(args.rules)) if args.rules else Rules()
    except (JSONLimitError, RulesError) as error:
        print(f"--rules: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    stats = run_arena(players, args.games, args.seed, rules, args.workers, args.progress)
    if args.json:
        print(json.dumps({level: s.to_json() for level, s in stats.items()}))
    else:
        print(format_table(stats, players))
        print(f"({time.perf_counter() - start:.0f} s)")
    return 0
