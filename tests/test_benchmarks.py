"""The benchmark scripts run (the figures themselves are for docs/speed.md, not for tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_slow_moves_prints_each_level_and_the_slowest_moves(capsys):
    slow_moves = load("slow_moves")
    args = ["--players", "hard,easy", "--rounds", "1", "--rules", '{"wrap_runs": true}']
    assert slow_moves.main([*args, "--show", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == '1 rounds, players hard,easy, rules {"wrap_runs": true}'
    assert out[1].startswith("hard ") and out[2].startswith("easy ")
    assert all(word in out[1] for word in ("moves", "median", "p99", "max"))
    assert len(out) == 5 and all("in deal 'w0', turn" in line for line in out[3:])


def test_solver_benchmark_times_the_command_line_and_in_process(capsys):
    solver_bench = load("solver")
    assert solver_bench.main(["--positions", "6", "--repeat", "2", "--no-reference"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0]
        == "6 positions after the opening (random, standard rules), seed 2024, fastest of 2 passes"
    )
    assert out[2].startswith("ours, command line ") and "median" in out[2]
    assert out[3].startswith("ours, in process ") and "p90" in out[3]
    assert out[4].startswith("slowest through the command line: position ")
    assert out[5].startswith('  {"table": ')


def test_solver_benchmark_warms_each_pass_on_other_positions(capsys):
    solver_bench = load("solver")
    args = ["--positions", "4", "--warm", "3", "--no-reference", "--no-line", "--cpu"]
    assert solver_bench.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "4 positions after the opening (random, standard rules), seed 2024, CPU time, "
        "each after 3 other positions"
    )
    assert out[2].startswith("ours, in process ") and "median" in out[2]


def test_solver_benchmark_counts_the_expert_solves(capsys):
    solver_bench = load("solver")
    solver_bench.expert_solves(1)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("expert moves in 1 rounds against hard: ")
    assert "solves a second over all expert moves" in out[1]


def test_worst_positions_prints_each_solve_with_its_states_and_proof(capsys):
    worst = load("worst_positions")
    assert worst.main(["--budget", "300", "--only", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("budget 300 states (bots.MOVE_EFFORT ")
    assert out[1].startswith("item 7: 34 low tiles, threshold 107")
    assert "300 states" in out[2] and out[2].endswith("not proven") and len(out) == 3


def test_solver_benchmark_checks_locked_joker_answers_read_from_codes(capsys):
    # Answers come back as codes, which name both jokers "J": the check must find the one
    # each locked set holds (the first 60 positions held a pair it used to read crosswise).
    solver_bench = load("solver")
    args = ["--rules", "locked", "--positions", "60"]
    assert solver_bench.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("ours, command line ")
