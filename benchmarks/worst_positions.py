"""Benchmark: the slowest positions known (tests/slow_positions.py), with a budget and without.

    .venv/bin/python benchmarks/worst_positions.py [--budget 50000] [--cli] [--exact] [--only N]

For each position, the solver's answer within ``--budget`` states (the hint's and every
computer level's budget, ``bots.MOVE_EFFORT``, by default) through ``solve`` and through
the bridge's ``hint``, as the page asks for it (and with ``--cli`` through ``python -m
py_engine solve --budget``, a process of its own): CPU and wall seconds, states closed, tiles
placed and whether the play is proven best. ``--exact`` solves each without a budget too
(with an effort no search reaches, so that its states are counted: some take minutes;
``--only N`` runs the N-th position alone). Each solve starts with the solver's caches
cleared, as in a new process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from slow_positions import SLOW, Slow, hint_game

from py_engine import bots, bridge
from py_engine.solver import Play, clear_caches, closed_states, solve


def timed(work):
    """(answer, CPU seconds, wall seconds, states closed) of ``work()``, caches cleared."""
    clear_caches()
    states, cpu, wall = closed_states(), time.process_time(), time.perf_counter()
    answer = work()
    return (
        answer,
        time.process_time() - cpu,
        time.perf_counter() - wall,
        closed_states() - states,
    )


UNREACHED = 10**12  # an effort no search reaches: exact, its states counted


def solved(slow: Slow, effort: int) -> Play:
    """``slow`` solved within ``effort``."""
    table, rack = slow.position()
    rules = slow.rules
    return solve(
        table, rack, opened=slow.opened, rules=rules, threshold=rules.opening, effort=effort
    )


def cli(slow: Slow, budget: int) -> tuple[str, float, float, None, int, bool]:
    """``python -m py_engine solve --budget`` on ``slow``, a process of its own: its CPU
    and wall seconds (starting Python and importing the engine included)."""
    command = [sys.executable, "-m", "py_engine", "solve", "--budget", str(budget)]
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    result = subprocess.run(command, input=slow.line().encode(), capture_output=True, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_seconds = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    answer = json.loads(result.stdout)
    return "solve --budget", cpu_seconds, wall, None, len(answer["placed"]), answer["proven"]


def show(how: str, cpu: float, wall: float, states: int | None, placed: int, proven: bool) -> None:
    counted = "-" if states is None else f"{states:,}"  # (not seen in another process)
    print(
        f"  {how:<16} {cpu:7.2f} s CPU {wall:7.2f} s wall {counted:>9} states"
        f"  placed {placed:>2}  {'proven' if proven else 'not proven'}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=bots.MOVE_EFFORT)
    parser.add_argument("--exact", action="store_true", help="also solve without a budget")
    parser.add_argument("--only", type=int, help="the N-th position alone (from 1)")
    parser.add_argument("--cli", action="store_true", help="also time solve --budget, a process")
    args = parser.parse_args(argv)
    chosen = SLOW if args.only is None else [SLOW[args.only - 1]]
    print(f"budget {args.budget:,} states (bots.MOVE_EFFORT {bots.MOVE_EFFORT:,})")
    for slow in chosen:
        print(slow.name)
        play, cpu, wall, states = timed(lambda: solved(slow, args.budget))  # noqa: B023
        show("solve, budget", cpu, wall, states, play.count, play.proven)
        if args.cli:
            show(*cli(slow, args.budget))
        if args.budget == bots.MOVE_EFFORT:
            hint_game(slow)
            reply, cpu, wall, states = timed(lambda: json.loads(bridge.call('{"cmd": "hint"}')))
            show("bridge hint", cpu, wall, states, len(reply["placed"]), reply["proven"])
        if args.exact:
            play, cpu, wall, states = timed(lambda: solved(slow, UNREACHED))  # noqa: B023
            show("solve, exact", cpu, wall, states, play.count, play.proven)
    return 0


if __name__ == "__main__":
    sys.exit(main())
