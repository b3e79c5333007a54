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
