"""Benchmark: our exact solver against the published MILP solver ``rummikub-solver``.

    .venv/bin/python benchmarks/solver.py [--positions 300] [--seed 2024] [--rules wrap]
        [--source games] [--cpu] [--repeat 3]

Two position sets, both fixed by the seed: ``--source random`` (the default) builds tables
of 0-90 tiles from random valid sets and racks of 1-30 tiles from the tiles left, with and
without jokers; ``--source games`` takes the positions met in rounds played out by the
hard bot, at every turn after the player's opening, sampled across early to late game.
Both solvers are timed in the same run on the positions where their rules match: after
the opening, standard rules (the reference's opening mode counts differently and it has
no wrap-around or locked-joker variants). Prints median, 90th percentile and maximum for
both, the ratio of medians, and how often both place the same number of tiles. ``--cpu``
times the CPU this process used instead of wall time, which moves less when other work
shares the machine. ``--repeat K`` makes K passes over the positions, ours then the
reference's in each (ours forgetting before each later pass all that earlier solves
kept, as a new process would), and pools each solver's times: a machine that runs slower for a
while then weighs on both (our Python search is the more sensitive to a busy neighbour:
its median moved by half from one run to the next while the reference's held).

``--rules wrap`` (wrap-around runs) and ``--rules locked`` (locked joker sets) time our
solver alone on the same kinds of positions under those rules: the reference has neither
variant, so there is nothing to compare with, and the figures stand on their own.

The solver keeps per-colour bounds from earlier solves. The hard-bot positions were all
solved once by the bot while the rounds were played, so by default our solver meets them
with those bounds kept; ``--cold`` forgets them before each of our solves, as for a
position never seen before (the random positions are new either way).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from solver_positions import random_position

from py_engine.rules import Rules
from py_engine.solver import clear_bound_cache, clear_caches, solve
from py_engine.turns import check_turn


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def reference_id(tile) -> int:
    """The reference numbers tiles 1..52 by colour then number, and the joker 53."""
    if tile.is_joker:
        return 53
    return int(tile.colour) * 13 + tile.number


def _has_jokers(pos) -> bool:
    return any(t.is_joker for r in pos.table for t in r) or any(t.is_joker for t in pos.rack)


RULES = {
    "standard": Rules(),
    "wrap": Rules(wrap_runs=True),
    "locked": Rules(locked_jokers=True),
}


def game_positions(count: int, seed: int, rules: Rules | None = None) -> list:
    """Positions met by opened players in rounds played by the hard bot."""
    from solver_positions import Position

    from py_engine.arena import bot_turns
    from py_engine.rounds import Round

    rules = rules or Rules()
    found: list = []
    deal = 0
    while len(found) < count * 3:
        game = Round(rules, seed=f"bench:{seed}:{deal}")
        deal += 1
        for p, _turn, _seconds in bot_turns(game, ["hard"] * game.players, f"{seed}:{deal}"):
            if game.opened[p]:
                found.append(
                    Position([list(r) for r in game.table], list(game.racks[p]), True, rules)
                )
    rng = random.Random(seed)
    return rng.sample(found, count)


def _time_ours(positions: list, clock: Any, cold: bool, counts: list[int] | None) -> list[float]:
    """Our solve time per position (each answer through the engine's turn check; the
    tiles placed added to ``counts`` when given)."""
    times = []
    for pos in positions:
        if cold:
            clear_bound_cache()
        start = clock()
        play = solve(pos.table, pos.rack, opened=True, rules=pos.rules)
        times.append(clock() - start)
        if counts is not None:
            counts.append(play.count)
        if play.found:
            check = check_turn(pos.table, play.table, pos.rack, opened=True, rules=pos.rules)
            assert check.ok, check.errors
    return times


def _time_reference(ruleset: Any, positions: list, clock: Any, answers: list[int]) -> list[float]:
    """The reference's solve time per position (the tiles it places added to ``answers``)."""
    times = []
    for pos in positions:
        state = ruleset.new_game()
        table_ids = [reference_id(t) for row in pos.table for t in row]
        if table_ids:
            state.add_table(*table_ids)
        state.add_rack(*(reference_id(t) for t in pos.rack))
        state.initial = False
        start = clock()
        answer = ruleset.solve(state)
        times.append(clock() - start)
        answers.append(len(answer.tiles) if answer else 0)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--source", choices=["random", "games"], default="random")
    parser.add_argument(
        "--rules",
        choices=sorted(RULES),
        default="standard",
        help="variant (no reference but standard)",
    )
    parser.add_argument("--no-reference", action="store_true", help="time our solver only")
    parser.add_argument(
        "--cold", action="store_true", help="forget kept bounds before each of our solves"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="passes over the positions, ours then the reference's in each; the figures pool them",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time CPU used by this process (steadier on a shared machine) instead of wall time",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter

    rng = random.Random(args.seed)
    rules = RULES[args.rules]
    if args.source == "games":
        positions = game_positions(args.positions, args.seed, rules)
    else:
        positions = [random_position(rng, opened=True, rules=rules) for _ in range(args.positions)]
    reference = None
    if args.rules == "standard" and not args.no_reference:
        from rummikub_solver import RuleSet

        reference = RuleSet()
        warm = reference.new_game()
        warm.add_rack(1, 2, 3)
        warm.initial = False
        reference.solve(warm)
    sizes = [(sum(len(r) for r in pos.table), len(pos.rack)) for pos in positions]
    ours: list[float] = []
    theirs: list[float] = []
    counts: list[int] = []
    agree = 0
    passes: list[tuple[float, float | None]] = []
    for k in range(args.repeat):
        if k:
            clear_caches()  # a later pass meets the positions as new, as in a new process
        mine = _time_ours(positions, clock, args.cold, counts if not k else None)
        ours += mine
        if reference is None:
            passes.append((statistics.median(mine), None))
            continue
        answers: list[int] = []
        other = _time_reference(reference, positions, clock, answers)
        theirs += other
        if not k:
            agree = sum(a == c for a, c in zip(answers, counts, strict=True))
        passes.append((statistics.median(mine), statistics.median(other)))

    def show(name: str, times: list[float]) -> None:
        print(
            f"{name:<18} median {statistics.median(times) * 1000:8.2f} ms   "
            f"p90 {percentile(times, 0.9) * 1000:8.2f} ms   "
            f"p95 {percentile(times, 0.95) * 1000:8.2f} ms   max {max(times) * 1000:8.2f} ms"
        )

    print(
        f"{len(positions)} positions after the opening ({args.source}, {args.rules} rules), "
        f"seed {args.seed}"
        + (", kept bounds forgotten before each solve" if args.cold else "")
        + (", CPU time" if args.cpu else "")
        + (f", {args.repeat} passes pooled" if args.repeat > 1 else "")
    )
    print(
        f"table tiles {min(s[0] for s in sizes)}-{max(s[0] for s in sizes)}, "
        f"rack tiles {min(s[1] for s in sizes)}-{max(s[1] for s in sizes)}, "
        f"{sum(1 for p in positions if _has_jokers(p))} with jokers"
    )
    show("py_engine.solver", ours)
    large = [t for t, s in zip(ours, sizes * args.repeat, strict=True) if s[0] >= 60]
    if large:
        show(f"  (tables >= 60: {len(large)})", large)
    if args.rules != "standard":
        print(f"no reference: rummikub-solver has no {args.rules} variant")
        return 0
    if reference is None:
        return 0

    show("rummikub-solver", theirs)
    ratio = statistics.median(theirs) / statistics.median(ours)
    if len(passes) > 1:
        shown = [
            f"{a * 1000:.2f} / {(b or 0) * 1000:.2f} ms / {(b or 0) / a:.1f}x" for a, b in passes
        ]
        print("per pass, medians ours / reference / ratio: " + ", ".join(shown))
    print(f"ratio of medians (reference / ours): {ratio:.1f}x")
    print(f"same number of tiles placed: {agree}/{len(positions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
