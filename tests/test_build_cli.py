"""build.py's command line: what reaches pytest after ``test``."""

from __future__ import annotations

import pytest


@pytest.fixture
def build(build_module, monkeypatch):
    """build.py with ``run_tests`` only noting what it was given (in ``build.calls``)."""
    calls: list[list[str]] = []
    monkeypatch.setattr(build_module, "run_tests", lambda args: calls.append(list(args)) or 0)
    monkeypatch.setattr(build_module, "calls", calls, raising=False)
    return build_module


@pytest.mark.parametrize(
    ("argv", "pytest_args"),
    [
        (["test"], []),
        (["test", "tests/test_cli.py"], ["tests/test_cli.py"]),
        # options first: argparse used to refuse these ("unrecognized arguments: -m")
        (["test", "-m", "e2e"], ["-m", "e2e"]),
        (["test", "-k", "joker", "-x", "tests"], ["-k", "joker", "-x", "tests"]),
        (["test", "--", "-q", "tests/e2e"], ["-q", "tests/e2e"]),
    ],
)
def test_everything_after_test_goes_to_pytest_in_order(build, argv, pytest_args) -> None:
    assert build.main(argv) == 0
    assert build.calls == [pytest_args]


def test_test_help_is_build_pys_own(build, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        build.main(["test", "--help"])
    assert exit_.value.code == 0
    assert "passed to pytest" in capsys.readouterr().out
    assert build.calls == []


class FakeRun:
    """``subprocess`` as ``run_both_halves`` uses it: the engine half (Popen) writes a
    report and ends with ``engine``, the browser half (call) with ``browser``."""

    STDOUT = -2

    def __init__(self, browser: int, engine: int):
        self.codes = {"browser": browser, "engine": engine}
        self.commands: list[tuple[str, list[str]]] = []

    def Popen(self, cmd, stdout, **_):
        self.commands.append(("Popen", cmd))
        stdout.write("12 passed in 3.00s\n")
        return type("Engine", (), {"wait": lambda _self: self.codes["engine"]})()

    def call(self, cmd, **_):
        self.commands.append(("call", cmd))
        return self.codes["browser"]


def verdict(half: str, code: int) -> str:
    return f"{half} tests passed" if code == 0 else f"{half} tests failed (pytest exit {code})"


@pytest.mark.parametrize(
    ("browser", "engine", "code"), [(0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 2, 1)]
)
def test_with_no_arguments_both_halves_run_side_by_side(
    build_module, monkeypatch, capsys, browser, engine, code
):
    fake = FakeRun(browser, engine)
    monkeypatch.setattr(build_module, "subprocess", fake)
    assert build_module.run_both_halves(build_module.Path("python"), {}) == code
    (started, engine_cmd), (waited, browser_cmd) = fake.commands
    # The engine half starts first, in the background; the browser half runs in front.
    assert started == "Popen" and engine_cmd[-2:] == ["tests", "--ignore=tests/e2e"]
    assert waited == "call" and browser_cmd[-1] == "tests/e2e"
    out = capsys.readouterr().out
    assert "12 passed in 3.00s" in out
    assert verdict("browser", browser) in out
    assert verdict("engine", engine) in out
