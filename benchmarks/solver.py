"""Benchmark: our exact solver against the published MILP solver ``rummikub-solver``.

    .venv/bin/python benchmarks/solver.py [--positions 300] [--seed 2024] [--source games]
        [--rules wrap] [--repeat 3] [--cpu] [--warm 300] [--expert 4]

Two position sets, both fixed by the seed: ``--source random`` (the default) builds tables
of 0-90 tiles from random valid sets and racks of 1-30 tiles from the tiles left, with and
without jokers; ``--source games`` takes the positions met in rounds played out by the
hard bot, at every turn after the player's opening, sampled across early to late game.

Ours is timed twice: through its command line (``python -m py_engine solve``, one process
kept running, one JSON line written and its answer line read per position, timed from the
write to the read) and in process (``solve`` called). The lines are made before a pass and
the answers parsed and checked after it: between two lines the benchmark only writes one
and reads the answer line, so that its own work (building a line, parsing an answer, the
turn check) does not leave the solver's caches colder for the next line. (The reference,
in this process, still builds each position's input and reads its answer between two
timed solves, outside its timing.) The reference is timed in this
process in its best mode: one ``RuleSet`` kept (its integer programs built once), the
tile-count mode, only its ``solve`` call timed. All in the same run, on the positions
where the rules match: after the opening, standard rules (the reference's opening mode
counts differently and it has no wrap-around or locked-joker variants).

``--repeat K`` makes K passes, each with a new command-line process and our kept tables
forgotten in process (as a new process would), and keeps for each position and each
solver its fastest pass: a neighbour on a shared machine only ever adds time. ``--cpu``
times CPU instead of the wall clock: ours in process and the reference by this process's
CPU, the command line by its process's CPU (``/proc/PID/schedstat``), which leaves out
the pipe. Prints median, 90th percentile and maximum, the ratios of medians, the slowest
position, and how the answers compare: the same number of tiles, and the value (the
points taken off the rack, a joker at the rules' penalty: docs/solver.md) at least the
reference's, whose tile-count mode does not look at value.

``--warm N`` has each pass first solve N other positions (the next seed's, none of the timed
ones), untimed, in process and through the command line: a long-running process's steady
state, its tables of moves and options filled, where each pass otherwise starts as a new
process does.

``--rules wrap`` (wrap-around runs) and ``--rules locked`` (locked joker sets) time our
solver alone. ``--expert R`` plays R seeded rounds of expert against hard and counts the
solver calls each expert move makes (``solve`` and ``can_play``), and prints how many
solves a second a move performs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from solver_positions import Position, random_position

from py_engine.rules import Rules
from py_engine.solver import clear_caches, solve
from py_engine.turns import check_codes

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def reference_id(tile) -> int:
    """The reference numbers tiles 1..52 by colour then number, and the joker 53."""
    if tile.is_joker:
        return 53
    return int(tile.colour) * 13 + tile.number


def _has_jokers(pos: Position) -> bool:
    return any(t.is_joker for r in pos.table for t in r) or any(t.is_joker for t in pos.rack)


RULES = {
    "standard": Rules(),
    "wrap": Rules(wrap_runs=True),
    "locked": Rules(locked_jokers=True),
}


def game_positions(count: int, seed: int, rules: Rules | None = None) -> list[Position]:
    """Positions met by opened players in rounds played by the hard bot."""
    from py_engine.arena import bot_turns
    from py_engine.rounds import Round

    rules = rules or Rules()
    found: list[Position] = []
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


class CommandLine:
    """Our solver through its command line: one ``python -m py_engine solve`` process, a
    JSON line written and its answer line read per position."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "py_engine", "solve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            cwd=ROOT,
        )
        # (Kept open and read in place: a file opened and read in Python per line would be
        # more of this process's work between two lines.)
        self.stat = os.open(f"/proc/{self.process.pid}/schedstat", os.O_RDONLY)
        try:
            self.ask(b'{"rack": ["R1"], "opened": true}\n', False)  # started and imported
        except BaseException:
            self.process.kill()
            self.close()
            raise

    def cpu(self) -> float:
        """The process's CPU time so far, in seconds (nanoseconds in ``schedstat``)."""
        return int(os.pread(self.stat, 100, 0).split()[0]) / 1e9

    def ask_raw(self, line: bytes, cpu: bool) -> tuple[bytes, float]:
        """The answer line to one line, unread, and the time it took (the process's CPU
        with ``cpu``)."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        before = self.cpu() if cpu else 0.0
        start = time.perf_counter()
        stdin.write(line)
        answer = stdout.readline()
        seconds = time.perf_counter() - start
        if cpu:
            seconds = self.cpu() - before
        return answer, seconds

    def ask(self, line: bytes, cpu: bool) -> tuple[dict[str, Any], float]:
        """The answer to one line and the time it took (the process's CPU with ``cpu``)."""
        answer, seconds = self.ask_raw(line, cpu)
        return json.loads(answer), seconds

    def close(self) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait()
        finally:
            os.close(self.stat)


def value_off_rack(codes: list[str], rules: Rules) -> int:
    """The points these placed tiles take off a rack: face values, a joker its penalty."""
    return sum(rules.joker_penalty if c == "J" else int(c[1:]) for c in codes)


def _time_line(
    positions: list[Position], cpu: bool, answers: list[dict] | None, warm: list[Position] = ()
) -> list[float]:
    """Our time per position through the command line, once the process has answered the
    ``warm`` positions, untimed. The lines are made first and the answers parsed after the
    last (each through the engine's turn check; kept in ``answers`` when given)."""
    warm_lines = [json.dumps(pos.codes()).encode() + b"\n" for pos in warm]
    asked = [pos.codes() for pos in positions]
    lines = [json.dumps(codes).encode() + b"\n" for codes in asked]
    line = CommandLine()
    times = []
    raw = []
    try:
        warm_answers = [line.ask_raw(text, False)[0] for text in warm_lines]
        for text in lines:
            answer, seconds = line.ask_raw(text, cpu)
            times.append(seconds)
            raw.append(answer)
    finally:
        line.close()
    for text in warm_answers:
        assert "error" not in json.loads(text), text
    for pos, codes, text in zip(positions, asked, raw, strict=True):
        answer = json.loads(text)
        assert "error" not in answer, answer
        if answers is not None:
            answers.append(answer)
            if answer["placed"]:
                # (The turn check for codes, as the command line's ``validate`` reads them:
                # copies, jokers and locked joker sets told apart by where they stand.)
                check = check_codes(
                    codes["table"], answer["table"], codes["rack"], opened=True, rules=pos.rules
                )
                assert check.ok, check.errors
    return times


def _time_ours(positions: list[Position], clock: Any) -> list[float]:
    """Our solve time per position, in process."""
    times = []
    for pos in positions:
        start = clock()
        solve(pos.table, pos.rack, opened=True, rules=pos.rules)
        times.append(clock() - start)
    return times


def _time_reference(
    ruleset: Any, positions: list[Position], clock: Any, answers: list[list[int]] | None
) -> list[float]:
    """The reference's solve time per position (the tiles it places kept in ``answers``)."""
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
        if answers is not None:
            answers.append([int(t) for t in answer.tiles] if answer else [])
    return times


def _reference_codes(ids: list[int]) -> list[str]:
    return ["J" if i == 53 else "RBYK"[(i - 1) // 13] + str((i - 1) % 13 + 1) for i in ids]


def _compare(ours: list[dict], theirs: list[list[int]], rules: Rules) -> str:
    """How our answers compare with the reference's, tile count and value."""
    same = higher = lower = fewer = more = 0
    for answer, ids in zip(ours, theirs, strict=True):
        if len(answer["placed"]) != len(ids):
            fewer += len(answer["placed"]) < len(ids)
            more += len(answer["placed"]) > len(ids)
            continue
        mine = value_off_rack(answer["placed"], rules)
        other = value_off_rack(_reference_codes(ids), rules)
        same += mine == other
        higher += mine > other
        lower += mine < other
    return (
        f"same number of tiles placed: {len(ours) - fewer - more}/{len(ours)} "
        f"(ours fewer {fewer}, more {more}); of those, value off the rack the same "
        f"{same}, ours higher {higher}, ours lower {lower}"
    )


def _show(name: str, times: list[float]) -> None:
    print(
        f"{name:<22} median {statistics.median(times) * 1000:8.3f} ms   "
        f"p90 {percentile(times, 0.9) * 1000:8.3f} ms   max {max(times) * 1000:8.2f} ms"
    )


def _fastest(passes: list[list[float]]) -> list[float]:
    return [min(times) for times in zip(*passes, strict=True)]


def _worst(positions: list[Position], times: list[float], others: dict[str, list[float]]) -> None:
    k = max(range(len(times)), key=times.__getitem__)
    pos = positions[k]
    shown = ", ".join(f"{name} {t[k] * 1000:.2f} ms" for name, t in others.items())
    print(f"slowest through the command line: position {k} ({shown})")
    print("  " + json.dumps({"table": pos.codes()["table"], "rack": pos.codes()["rack"]}))


def expert_solves(rounds: int, seed: str = "x") -> None:
    """Count the solver calls of each expert move over ``rounds`` seeded rounds of expert
    against hard, and print the solves per second a move performs."""
    import py_engine.bots as bots
    from py_engine.arena import bot_turns
    from py_engine.expert import features, guess
    from py_engine.rounds import Round

    calls = [0]
    inner = [0.0]

    def counted(function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                inner[0] += time.perf_counter() - start

        return call

    # every solver entry an expert move reaches: its own play and the three- and four-player
    # look-ahead (bots), the two-player options (features) and the guess's fits (guess)
    places = [(bots, "solve"), (features, "solve"), (guess, "can_play")]
    real = [getattr(module, name) for module, name in places]
    for (module, name), function in zip(places, real, strict=True):
        setattr(module, name, counted(function))
    moves: list[tuple[int, float, float]] = []  # solver calls, move seconds, solver seconds
    try:
        for k in range(rounds):
            game = Round(Rules(), seed=f"{seed}{k}")
            levels = ["expert", "hard"]
            calls[0], inner[0] = 0, 0.0
            for player, _turn, seconds in bot_turns(game, levels, f"{seed}{k}"):
                if levels[player] == "expert" and calls[0]:
                    moves.append((calls[0], seconds, inner[0]))
                calls[0], inner[0] = 0, 0.0
    finally:
        for (module, name), function in zip(places, real, strict=True):
            setattr(module, name, function)
    count = [m[0] for m in moves]
    total_calls, total_time = sum(count), sum(m[1] for m in moves)
    big = [m for m in moves if m[0] >= 20]
    print(
        f"expert moves in {rounds} rounds against hard: {len(moves)}; solver calls per move "
        f"median {statistics.median(count):.0f}, max {max(count)}, {total_calls} in all"
    )
    print(
        f"  {total_calls / total_time:,.0f} solves a second over all expert moves "
        f"({sum(m[2] for m in moves) / total_time:.0%} of their time in the solver)"
    )
    if big:
        rates = [m[0] / m[1] for m in big]
        print(
            f"  moves of 20 calls or more ({len(big)}): median {statistics.median(rates):,.0f}"
            " solves a second"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--source", choices=["random", "games"], default="random")
    parser.add_argument("--rules", choices=sorted(RULES), default="standard")
    parser.add_argument("--no-reference", action="store_true", help="time our solver only")
    parser.add_argument("--no-line", action="store_true", help="not through the command line")
    parser.add_argument("--repeat", type=int, default=1, help="passes; each position's fastest")
    parser.add_argument("--cpu", action="store_true", help="CPU time instead of the wall clock")
    parser.add_argument("--expert", type=int, default=0, help="rounds of expert moves counted")
    parser.add_argument(
        "--warm",
        type=int,
        default=0,
        help="other positions (the next seed's) each pass solves first, untimed",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter

    rng = random.Random(args.seed)
    rules = RULES[args.rules]
    if args.source == "games":
        positions = game_positions(args.positions, args.seed, rules)
    else:
        positions = [random_position(rng, opened=True, rules=rules) for _ in range(args.positions)]
    warm: list[Position] = []
    if args.warm:
        if args.source == "games":
            warm = game_positions(args.warm, args.seed + 1, rules)
        else:
            other = random.Random(args.seed + 1)
            warm = [random_position(other, opened=True, rules=rules) for _ in range(args.warm)]
        seen = {json.dumps(pos.codes()) for pos in positions}
        warm = [pos for pos in warm if json.dumps(pos.codes()) not in seen]
    reference = None
    if args.rules == "standard" and not args.no_reference:
        from rummikub_solver import RuleSet

        reference = RuleSet()
        _time_reference(reference, positions[:3], clock, None)  # its programs built
    passes: dict[str, list[list[float]]] = {"in process": [], "command line": [], "reference": []}
    line_answers: list[dict] = []
    ref_answers: list[list[int]] = []
    for k in range(args.repeat):
        clear_caches()  # each pass meets the positions as new, as a new process would
        _time_ours(warm, clock)
        passes["in process"].append(_time_ours(positions, clock))
        if not args.no_line:
            answers = line_answers if not k else None
            passes["command line"].append(_time_line(positions, args.cpu, answers, warm))
        if reference is not None:
            passes["reference"].append(
                _time_reference(reference, positions, clock, ref_answers if not k else None)
            )
    times = {name: _fastest(p) for name, p in passes.items() if p}

    sizes = [(sum(len(r) for r in pos.table), len(pos.rack)) for pos in positions]
    print(
        f"{len(positions)} positions after the opening ({args.source}, {args.rules} rules), "
        f"seed {args.seed}"
        + (", CPU time" if args.cpu else "")
        + (f", fastest of {args.repeat} passes" if args.repeat > 1 else "")
        + (f", each after {len(warm)} other positions" if warm else "")
    )
    print(
        f"table tiles {min(s[0] for s in sizes)}-{max(s[0] for s in sizes)}, "
        f"rack tiles {min(s[1] for s in sizes)}-{max(s[1] for s in sizes)}, "
        f"{sum(1 for p in positions if _has_jokers(p))} with jokers"
    )
    if "command line" in times:
        _show("ours, command line", times["command line"])
    _show("ours, in process", times["in process"])
    if "reference" in times:
        _show("rummikub-solver 1.0.0", times["reference"])
        theirs = statistics.median(times["reference"])
        for name in ("command line", "in process"):
            if name in times:
                ratio = theirs / statistics.median(times[name])
                print(f"ratio of medians, reference / ours {name}: {ratio:.1f}x")
        if line_answers:
            print(_compare(line_answers, ref_answers, rules))
    elif args.rules != "standard":
        print(f"no reference: rummikub-solver has no {args.rules} variant")
    if "command line" in times:
        _worst(positions, times["command line"], times)
    if args.expert:
        expert_solves(args.expert)
    return 0


if __name__ == "__main__":
    sys.exit(main())
