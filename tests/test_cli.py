"""The command-line tool: ``python -m py_engine validate``, JSON lines in and out, one answer
line per input line, errors as ``{"error": "..."}`` lines without stopping."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from py_engine.cli import json_lines, validate

ROOT = Path(__file__).resolve().parents[1]


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "py_engine", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def line(**fields):
    return json.dumps(fields)


EXAMPLE = line(
    before=[["R3", "R4", "R5"]], after=[["R3", "R4", "R5", "R6"]], rack=["R6", "B1"], opened=True
)


def test_the_issue_example_answers_exactly():
    result = run("validate", stdin=EXAMPLE + "\n")
    assert result.returncode == 0
    assert result.stdout.decode() == '{"ok": true, "placed": ["R6"], "errors": []}\n'
    assert result.stderr == b""


BAD_AND_GOOD = [
    # (input line, expected answer)
    (EXAMPLE, {"ok": True, "placed": ["R6"], "errors": []}),
    ("{oops", "error:not valid JSON"),
    (
        line(after=[["R10", "B10", "J"]], rack=["R10", "B10", "J", "K1"]),
        {"ok": True, "placed": ["R10", "B10", "J"], "errors": [], "opening_value": 30},
    ),
    ("[1, 2]", {"error": "each line must be a JSON object"}),
    (line(after=[["R14", "R13", "R12"]], rack=["R13", "R12"]), "error:unknown tile 'R14'"),
    (
        line(before=[["R5", "B5", "Y5"]], after=[["R5", "B5", "Y5"]], rack=["R5", "R5"]),
        {"error": "there are only two R5 tiles in the game"},
    ),
    (
        line(
            before=[["K7", "K8", "K9"]],
            after=[["K7", "K8", "K9"], ["R7", "R8", "R9"]],
            rack=["R7", "R8"],
            opened=True,
        ),
        {
            "ok": False,
            "placed": ["R7", "R8"],
            "errors": [{"set": None, "message": "R9 is not in your rack"}],
        },
    ),
    (
        line(after=[["R7", "R8", "R9"]], rack=["R7", "R8", "R9"], opened=False),
        {
            "ok": False,
            "placed": ["R7", "R8", "R9"],
            "errors": [{"set": None, "message": "Your opening totals 24 points; 30 are needed"}],
            "opening_value": 24,
        },
    ),
    (line(rack=["R1"]), {"error": "'after' must be a list of sets, each a list of tile codes"}),
    (line(after=[["R1", 2, "R3"]], rack=[]), "error:'after' must be a list of sets"),
    (line(after=[], rack="R1 R2"), {"error": "'rack' must be a list of tile codes"}),
    (line(after=[], rack=[], opened="yes"), {"error": "'opened' must be true or false"}),
    (line(after=[], rack=[], rules={"cheat": 1}), "error:unknown rule 'cheat'"),
    (line(after=[], rack=[], rules={"opening": -1}), "error:rule opening must be"),
    (
        line(after=[], rack=[], threshold="ten"),
        {"error": "'threshold' must be a whole number from 0 to 200"},
    ),
    (line(after=[["R²", "R3", "R4"]], rack=["R3", "R4"]), "error:unknown tile"),
    ("[" * 100_000, "error:nested too deeply"),
    ("42", {"error": "each line must be a JSON object"}),
    (
        line(
            before=[["R1", "R2", "R3"], ["B9", "Y9", "K9"]],
            after=[["R1", "R2", "R3"], ["B9", "Y9", "K9"], ["R7", "R7", "R8"]],
            rack=["R7", "R7", "R8"],
            opened=True,
        ),
        {
            "ok": False,
            "placed": ["R7", "R7", "R8"],
            "errors": [{"set": 2, "message": "Set 3: a run cannot repeat a number"}],
        },
    ),
    (
        line(
            after=[["R12", "R13", "R1"]],
            rack=["R12", "R13", "R1"],
            opened=True,
            rules={"wrap_runs": True},
        ),
        {"ok": True, "placed": ["R12", "R13", "R1"], "errors": []},
    ),
    (
        line(after=[["R7", "R8", "R9"]], rack=["R7", "R8", "R9"], threshold=20),
        {"ok": True, "placed": ["R7", "R8", "R9"], "errors": [], "opening_value": 24},
    ),
    (EXAMPLE, {"ok": True, "placed": ["R6"], "errors": []}),
]


def check_answers(answers, cases):
    assert len(answers) == len(cases)
    for (sent, expected), answer in zip(cases, answers, strict=True):
        if isinstance(expected, str):
            prefix = expected.removeprefix("error:")
            assert set(answer) == {"error"}, (sent[:80], answer)
            assert answer["error"].startswith(prefix), (sent[:80], answer)
        else:
            assert answer == expected, sent[:80]


def test_one_answer_line_per_input_line_bad_lines_included():
    stdin = "".join(sent + "\n" for sent, _ in BAD_AND_GOOD)
    result = run("validate", stdin=stdin)
    assert result.returncode == 1, result.stderr.decode()[-2000:]  # some lines were refused
    assert result.stderr == b""
    out = result.stdout.decode().splitlines()
    check_answers([json.loads(text) for text in out], BAD_AND_GOOD)


def test_the_answer_keys_come_in_the_documented_order():
    result = run("validate", stdin=BAD_AND_GOOD[2][0] + "\n")
    assert result.stdout.decode() == (
        '{"ok": true, "placed": ["R10", "B10", "J"], "errors": [], "opening_value": 30}\n'
    )


def test_opening_value_is_present_only_when_the_player_had_not_opened():
    opened = json.loads(run("validate", stdin=EXAMPLE + "\n").stdout)
    assert "opening_value" not in opened
    not_opened = line(
        before=[["R3", "R4", "R5"]],
        after=[["R3", "R4", "R5"], ["K11", "K12", "K13"]],
        rack=["K11", "K12", "K13"],
    )
    answer = json.loads(run("validate", stdin=not_opened + "\n").stdout)
    assert answer == {
        "ok": True,
        "placed": ["K11", "K12", "K13"],
        "errors": [],
        "opening_value": 36,
    }


def test_blank_lines_are_skipped_and_a_missing_final_newline_is_fine():
    result = run("validate", stdin="\n" + EXAMPLE + "\n\n   \n" + EXAMPLE)
    assert (
        result.stdout.decode().splitlines() == ['{"ok": true, "placed": ["R6"], "errors": []}'] * 2
    )


def test_bytes_that_are_not_utf8_get_an_error_line():
    result = run("validate", stdin=b'\xff\xfe{"after": []}\n' + EXAMPLE.encode() + b"\n")
    assert result.returncode == 1
    out = [json.loads(text) for text in result.stdout.decode().splitlines()]
    assert len(out) == 2
    assert out[0] == {"error": "not valid UTF-8: invalid start byte at byte 0"}
    assert out[1]["ok"] is True


def test_an_empty_input_gives_no_output():
    result = run("validate", stdin="")
    assert (result.returncode, result.stdout) == (0, b"")


def test_help_and_unknown_tools():
    assert run("--help").returncode == 0
    assert b"validate" in run("--help").stdout
    assert run().returncode == 2
    unknown = run("juggle")
    assert unknown.returncode == 2
    assert b"unknown tool 'juggle'" in unknown.stderr


# The same answers in-process (fast, and with the error count).


def test_solve_takes_only_a_budget_of_states():
    line = '{"rack": ["R10", "B10", "K10", "R1"]}\n'
    for bad in (["--budget"], ["--budget", "0"], ["--budget", "x"], ["--budget", "1e9"], ["-q"]):
        result = run("solve", *bad, stdin=line)
        assert result.returncode == 2 and result.stdout == b""
        assert b"--budget N" in result.stderr
    result = run("solve", "--budget", "5", stdin=line)
    assert result.returncode == 0  # each number of the search closes states: 13 at least
    assert json.loads(result.stdout) == {
        "table": [],
        "placed": [],
        "value": 0,
        "proven": False,
        "note": "no opening",
    }
    result = run("solve", "--budget", "100", stdin=line)
    assert json.loads(result.stdout)["proven"] is True


def test_json_lines_counts_the_errors():
    out = io.StringIO()
    errors = json_lines(validate, [sent + "\n" for sent, _ in BAD_AND_GOOD], out)
    answers = [json.loads(text) for text in out.getvalue().splitlines()]
    check_answers(answers, BAD_AND_GOOD)
    expected = sum(isinstance(e, str) or "error" in e for _, e in BAD_AND_GOOD)
    assert errors == sum("error" in a for a in answers) == expected == 14


@pytest.mark.parametrize(
    ("data", "placed"),
    [
        ({"after": [["R1", "R2", "R3"]], "rack": ["R1", "R2", "R3"], "opened": True}, 3),
        ({"before": [], "after": [["B4", "B5", "B6", "J"]], "rack": ["B4", "B5", "B6", "J"]}, 4),
    ],
)
def test_validate_in_process(data, placed):
    answer = validate(data)
    assert len(answer["placed"]) == placed


# ----- hostile input (issue 37): every line answered, no traceback, exit status 1 ----------

GOOD = {
    "validate": (EXAMPLE, {"ok": True, "placed": ["R6"], "errors": []}),
    "solve": (line(table=[["R3", "R4", "R5"]], rack=["R6"], opened=True), None),
}
HOSTILE_LINES = [
    b'{"after": [], "rack": [], "threshold": ' + b"1" * 4_400 + b"}",  # int() raised a ValueError
    b'{"after": [], "rack": [], "threshold": 9007199254740992}',
    b'{"after": [], "rack": [], "threshold": 1e400}',
    b'{"after": [], "rack": [], "threshold": NaN}',
    b'{"after": [], "rack": [], "threshold": -Infinity}',
    b'{"after": [], "rack": [], "threshold": true}',
    b'{"after": [], "rack": [], "opened": 1}',
    b'{"after": [], "rack": ["R\xff\xfe"]}',  # invalid UTF-8 inside a string
    b"\xc3\x28",
    b"\xef\xbb\xbf" + EXAMPLE.encode(),  # a byte-order mark: not JSON
    b"\x00\x00",
    b'{"rack": ["\\ud800"], "after": []}',
    b'{"rack": ["' + b"R" * 500_000 + b'"], "after": []}',
    b'{"rack": [], "after": [], "pad": "' + b"x" * 1_000_001 + b'"}',
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b"[" * 21 + b"]" * 21,
    b'{"after": [], "rack": [], "rules": {"target": ' + b"9" * 5_000 + b"}}",
    b'{"after": [], "rack": [], "rules": {"' + b"r" * 100_000 + b'": 1}}',
    b'{"after": [], "rack": [], "rules": []}',
    b'{"after": [[[["R1"]]]], "table": [[[["R1"]]]], "rack": []}',
    b'{"after": {"R1": 1}, "table": {"R1": 1}, "rack": []}',
    b"null",
    b'"text"',
    b"{}",
    b"{oops",
]
# Refused by one tool's own checks (the solver's threshold bound is another matter).
HOSTILE_TO = {"validate": [b'{"after": [], "rack": [], "threshold": 201}'], "solve": []}


@pytest.mark.parametrize("tool", ["validate", "solve"])
@pytest.mark.parametrize("encoding", [None, "utf-8:strict", "ascii:strict"])
def test_hostile_lines_each_get_an_error_line_and_the_tool_goes_on(tool, encoding):
    """One shared line loop answers every tool: each hostile line gets a short error line
    (no traceback, under any PYTHONIOENCODING), the good line after them is answered, and
    the exit status says that lines were refused."""
    good, expected = GOOD[tool]
    hostile = [*HOSTILE_LINES, *HOSTILE_TO[tool]]
    stdin = b"\r\n".join([*hostile, good.encode()]) + b"\n"
    env = dict(os.environ, PYTHONIOENCODING=encoding) if encoding else None
    result = subprocess.run(
        [sys.executable, "-m", "py_engine", tool],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    assert result.stderr == b""
    assert result.returncode == 1
    answers = [json.loads(text, parse_constant=float) for text in result.stdout.splitlines()]
    assert len(answers) == len(hostile) + 1
    for sent, answer in zip(hostile, answers, strict=False):
        assert set(answer) == {"error"}, (sent[:60], answer)
        assert 0 < len(answer["error"]) <= 500, sent[:60]
    assert "error" not in answers[-1]
    if expected is not None:
        assert answers[-1] == expected


def test_the_exit_status_is_0_only_when_every_line_was_answered():
    assert run("validate", stdin=EXAMPLE + "\n" + EXAMPLE + "\n").returncode == 0
    assert run("validate", stdin=EXAMPLE + "\n{oops\n").returncode == 1
    assert run("validate", stdin="").returncode == 0
    assert b"Exit status: 0 when every line was answered, 1 when" in run("--help").stdout


def test_json_lines_takes_bytes_and_answers_a_bug_as_an_error_line():
    def buggy(data):
        raise KeyError("a bug")

    out = io.StringIO()
    assert json_lines(buggy, [b"{}\n", b"\xff\n", b"   \n"], out) == 2
    assert [json.loads(text) for text in out.getvalue().splitlines()] == [
        {"error": "internal error: KeyError: 'a bug'"},
        {"error": "not valid UTF-8: invalid start byte at byte 0"},
    ]


def _faults_over_deep_calls(times: int = 200, depth: int = 60) -> int:
    """Minor page faults while a call tree of ``depth`` frames of about 500 bytes (30 KB in
    all, more than one 16 KiB chunk of CPython's frame stack) is made ``times`` times."""
    import resource

    def deep(n):
        return deep(n - 1) if n else 0

    deep.__code__ = deep.__code__.replace(co_stacksize=60)  # (a frame of about 500 bytes)

    who = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)  # (this thread's alone)
    before = resource.getrusage(who).ru_minflt
    for _ in range(times):
        deep(depth)
    return resource.getrusage(who).ru_minflt - before


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or sys.implementation.name != "cpython",
    reason="counts the page faults of CPython's frame stack chunks on Linux",
)
def test_the_tools_run_where_deep_searches_map_no_new_frame_stack(monkeypatch):
    """Each call tree crossing the edge of a 16 KiB chunk maps a new chunk, touches it and
    unmaps it at the return (so, in a long-running ``solve``, did the solver's search
    about 8 times a position). Run as the tools run (``_with_room``), it stays in room
    claimed once."""
    from py_engine import cli

    assert cli._with_room.__code__.co_stacksize == cli._ROOMY_STACK
    callers = []
    monkeypatch.setattr(cli, "_main", lambda argv: callers.append(sys._getframe(1).f_code) or 0)
    assert cli.main(["solve"]) == 0 and callers == [cli._with_room.__code__]
    _faults_over_deep_calls(1)  # (the code warmed up)
    plain = _faults_over_deep_calls()
    roomy = cli._with_room(lambda: _faults_over_deep_calls())
    assert plain >= 200 and roomy < 20, (plain, roomy)
