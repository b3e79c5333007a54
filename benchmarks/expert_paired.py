"""A level against another on the arena's mirrored two-player deals, round by round, so two
versions of a level can be compared on the same rounds (the rounds that changed hands).

    .venv/bin/python benchmarks/expert_paired.py --level expert --vs hard --rounds 1000 \
        --seed holdout --out new.json [--against old.json]

Prints the win rate with its 95% (Wilson) interval, the level's think per move in CPU time
(mean, median, 99th percentile, slowest; CPython, this machine) and, with ``--against``, the
paired difference against a file this script wrote for the other version: the rounds
won that the other lost, and lost that it won. Run it from another checkout
(``PYTHONPATH=that/checkout``) to measure that checkout's engine.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool

from py_engine.arena import bot_turns, wilson
from py_engine.rounds import Round
from py_engine.rules import Rules


def _deal(args: tuple[str, str, str, int]) -> tuple[int, list[int], list[float]]:
    """Deal ``deal`` played twice, seats swapped: whether ``level`` won each, and the
    CPU seconds of each of its moves."""
    level, vs, seed, deal = args
    won, thinks = [], []
    for levels in ([level, vs], [vs, level]):
        name = f"arena:{seed}:{deal}"
        game = Round(Rules().with_(players=2), seed=name)
        me = levels.index(level)
        start = time.process_time()
        for player, _turn, _seconds in bot_turns(game, levels, name):
            if player == me:  # CPU time since the last move was chosen: this choice and the
                thinks.append(time.process_time() - start)  # last move's check, a few ms
            start = time.process_time()
        outcome = game.outcome
        won.append(int(outcome is not None and outcome.winner == me))
    return deal, won, thinks


def paired(mine: dict[str, list[int]], theirs: dict[str, list[int]]) -> str:
    """The paired difference of two runs on the rounds both played."""
    gained = lost = n = wins_a = wins_b = 0
    for deal in sorted(set(mine) & set(theirs), key=int):
        for a, b in zip(mine[deal], theirs[deal], strict=True):
            n += 1
            wins_a, wins_b = wins_a + a, wins_b + b
            gained, lost = gained + (a > b), lost + (a < b)
    if not n:
        return "no rounds in common"
    diff = (wins_a - wins_b) / n
    se = math.sqrt(max(0.0, gained + lost - (gained - lost) ** 2 / n)) / n
    return (
        f"paired on {n} rounds: this {wins_a / n:.1%}, the other {wins_b / n:.1%}, "
        f"{100 * diff:+.1f} ± {196 * se:.1f} points ({gained} rounds won that it had lost, "
        f"{lost} lost that it had won)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--vs", default="hard")
    parser.add_argument("--rounds", type=int, default=1000, help="rounds: two per deal")
    parser.add_argument("--seed", default="holdout")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write each deal's results here (JSON)")
    parser.add_argument("--against", help="a file written by --out for the other version")
    args = parser.parse_args(argv)
    jobs = [(args.level, args.vs, args.seed, d) for d in range(math.ceil(args.rounds / 2))]
    results: dict[str, list[int]] = {}
    thinks: list[float] = []
    with Pool(args.workers) as pool:
        for deal, won, seconds in pool.imap_unordered(_deal, jobs):
            results[str(deal)] = won
            thinks.extend(seconds)
    wins = sum(sum(w) for w in results.values())
    n = 2 * len(results)
    low, high = wilson(wins, n)
    ms = sorted(1000 * s for s in thinks)
    print(f"{args.level} against {args.vs}, seed {args.seed!r}: {n} rounds")
    print(f"  won {wins} ({wins / n:.1%}, 95% CI {low:.1%}-{high:.1%})")
    print(
        f"  think per move over {len(ms)} moves: mean {statistics.fmean(ms):.1f} ms, "
        f"median {statistics.median(ms):.1f} ms, p99 {ms[int(0.99 * (len(ms) - 1))]:.1f} ms, "
        f"slowest {ms[-1]:.0f} ms"
    )
    if args.out:
        with open(args.out, "w") as out:
            json.dump(results, out)
    if args.against:
        with open(args.against) as other:
            print("  " + paired(results, json.load(other)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
