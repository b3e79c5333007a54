"""The arena tables recorded in docs/opponents.md: each level against the one below it, and 3- and
4-player tables, from mirrored deals.

    .venv/bin/python benchmarks/arena.py [--games 1000] [--seed 1] [--workers 2]

Takes a while (about an hour for the whole set on two cores); each table is also one
``python -m py_engine arena`` command, printed above its result.
"""

from __future__ import annotations

import argparse
import sys
import time

from py_engine.arena import format_table, run_arena

TABLES = [
    ["medium", "easy"],
    ["hard", "medium"],
    ["expert", "hard"],
    ["easy", "medium", "hard"],
    ["easy", "medium", "hard", "expert"],
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    for players in TABLES:
        games = args.games
        print(
            f"$ python -m py_engine arena --players {','.join(players)} "
            f"--games {games} --seed {args.seed}"
        )
        start = time.perf_counter()
        stats = run_arena(players, games, args.seed, workers=args.workers)
        print(format_table(stats, players))
        print(f"({time.perf_counter() - start:.0f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
