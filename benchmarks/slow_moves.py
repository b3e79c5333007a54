"""Benchmark: the slowest computer moves, per level, over whole rounds under a set of rules.

    .venv/bin/python benchmarks/slow_moves.py [--players expert,hard] [--rounds 30]
        [--rules '{"wrap_runs": true}'] [--seed w]

Plays ``--rounds`` rounds (deals ``{seed}0``, ``{seed}1``, ...; each turn seeded as the
arena seeds it, so the same moves every run) in one process and times every move's choice
(CPython wall clock). Prints, per level, the moves timed and their median, 99th percentile
and maximum, then the slowest moves with the deal and turn they came at, so one can be
replayed. The arena's mean think time hides these: a move of several seconds is rare, but
in the page it is a wait the player sees (the page runs Python about 1.5-2.5 times slower,
and cuts a move off at 30 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from py_engine.arena import bot_turns
from py_engine.rounds import Round
from py_engine.rules import Rules


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="expert,hard")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--rules", default="{}", help="rules as a JSON object")
    parser.add_argument("--seed", default="w")
    parser.add_argument("--show", type=int, default=5, help="slowest moves listed")
    args = parser.parse_args(argv)
    levels = args.players.split(",")
    rules = Rules.from_json(json.loads(args.rules)).with_(players=len(levels))
    times: dict[str, list[float]] = {level: [] for level in levels}
    slowest: list[tuple[float, str, str, int]] = []
    for k in range(args.rounds):
        seed = f"{args.seed}{k}"
        game = Round(rules, seed=seed)
        for player, _turn, seconds in bot_turns(game, levels, seed):
            times[levels[player]].append(seconds)
            slowest.append((seconds, levels[player], seed, game.turn))
    print(f"{args.rounds} rounds, players {args.players}, rules {args.rules}")
    for level, values in times.items():
        print(
            f"{level:<7} {len(values):>5} moves  median {1000 * statistics.median(values):6.1f} ms"
            f"  p99 {1000 * percentile(values, 0.99):7.0f} ms  max {1000 * max(values):7.0f} ms"
        )
    slowest.sort(reverse=True)
    for seconds, level, seed, turn in slowest[: args.show]:
        print(f"  {1000 * seconds:7.0f} ms  {level} in deal {seed!r}, turn {turn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
