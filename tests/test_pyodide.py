"""The hostile cases of tests/hostile.py inside the project's own Pyodide, under Node:
its stack gives out at a nesting depth CPython survives (about 5,000 levels killed it, as
a fatal error, before the engine bounded its input), so what holds in CPython is checked
here too. tests/pyodide_calls.mjs loads dist/ as the page's worker does: booted plainly,
and from the build's memory snapshot."""

from __future__ import annotations

import json
import os
import random
import subprocess
import zipfile
from pathlib import Path

import hostile
import pytest

ROOT = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("RUMMIKUB_DIST") or ROOT / "dist")
HARNESS = ROOT / "tests" / "pyodide_calls.mjs"


def _check_dist() -> None:
    """dist/ built, from the engine as it is now (a stale wheel would test old code)."""
    wheels = sorted((DIST / "wheels").glob("*.whl")) if (DIST / "wheels").is_dir() else []
    if len(wheels) != 1:
        pytest.fail("dist/ is not built: run `python3 build.py test`")
    with zipfile.ZipFile(wheels[0]) as wheel:
        built = {n: wheel.read(n) for n in wheel.namelist() if n.startswith("py_engine/")}
    source = {  # what build.py packs: every file of the package (the expert's weights too)
        p.relative_to(ROOT).as_posix(): p.read_bytes()
        for p in (ROOT / "py_engine").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
    }
    if built != source:
        pytest.fail("dist/ is stale (its engine differs from py_engine/): run `python3 build.py`")


class PyodideDied(AssertionError):
    """The call threw in JavaScript instead of answering (the harness loaded a new runtime)."""


@pytest.fixture(scope="module", params=["plain boot", "snapshot"])
def pyodide_call(request):
    """Calls into the built engine in Pyodide: booted and given the wheel, or started from
    the build's memory snapshot, as the page's worker starts when it can."""
    _check_dist()
    how = ["snapshot"] if request.param == "snapshot" else []
    node = subprocess.Popen(
        ["node", str(HARNESS), str(DIST), *how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert json.loads(node.stdout.readline()) == {"ready": True}
    deaths = []

    def call(text: str) -> str:
        node.stdin.write(json.dumps(text) + "\n")
        node.stdin.flush()
        answer = json.loads(node.stdout.readline())
        if "threw" in answer:
            deaths.append(answer)
            raise PyodideDied(f"Pyodide threw (fatal: {answer['fatal']}): {answer['threw']}")
        return answer["reply"]

    call.deaths = deaths
    yield call
    node.stdin.close()
    assert node.wait(timeout=60) == 0


def test_hostile_requests_are_refused_inside_pyodide(pyodide_call):
    failures = hostile.run_requests(pyodide_call, hostile.hostile_requests())
    assert failures == []
    assert pyodide_call.deaths == []


def test_tampered_saves_inside_pyodide(pyodide_call):
    saves = hostile.base_saves(pyodide_call)
    seed = random.randrange(2**32)  # a new one each run, told on failure
    tampered = hostile.all_tampered(saves, seed=seed, per_save=40)
    counts, failures = hostile.run_saves(pyodide_call, saves, tampered)
    assert failures == [], f"tampered with seed {seed}"
    assert pyodide_call.deaths == []
    assert counts["refused"] > 100 and counts["accepted"] >= 6, counts


def _expert_game(call) -> list[str]:
    """A person who only draws against the expert, through the bridge: every answer."""
    request = {"players": [{"kind": "human"}, {"kind": "bot", "level": "expert"}], "seed": 38}
    answers = [call(json.dumps({"cmd": "new_game", **request}))]
    for _ in range(80):
        view = json.loads(answers[-1])["view"]
        if view["round_over"]:
            break
        cmd = "bot_turn" if view["current"] == 1 else "draw"
        answers.append(call(json.dumps({"cmd": cmd})))
    return answers


def test_the_expert_plays_the_same_moves_inside_pyodide(pyodide_call):
    # Its two-player choice reads the weights shipped in the wheel (advantage.json): the
    # same moves as in CPython, once it has opened and chooses among its options.
    from py_engine import bridge

    inside = _expert_game(pyodide_call)
    assert inside == _expert_game(bridge.call)
    turns = [json.loads(a).get("turn") for a in inside]
    plays = [t for t in turns if t and t["player"] == 1 and t["action"] == "play"]
    assert len(plays) >= 2  # it opened, then played again: a choice made with the model
    assert pyodide_call.deaths == []
