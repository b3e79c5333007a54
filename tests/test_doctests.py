"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib

import pytest

MODULES = ["limits", "tiles", "rules", "sets", "turns", "rounds", "bridge"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"py_engine.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
