"""The command-line tool: ``python -m py_engine validate``, JSON lines in and out, one answer
line per input line, errors as ``{"error": "..."}`` lines without stopping."""

import io
import json
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
