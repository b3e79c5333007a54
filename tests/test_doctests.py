"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib
from pathlib import Path

import pytest
from test_solver import DOCTESTED

MODULES = ["limits", "tiles", "rules", "sets", "turns", "rounds", "bridge"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"py_engine.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_module_with_examples_has_them_run():
    # Found by walking the package (the solver's modules too): a new module with examples
    # must be named in MODULES or in test_solver.py's DOCTESTED.
    engine = Path(importlib.import_module("py_engine").__file__).parent
    with_examples = set()
    for path in sorted(engine.rglob("*.py")):
        parts = path.relative_to(engine).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name == "__main__":
            continue  # runs the command line when imported
        module = importlib.import_module(f"py_engine.{name}" if name else "py_engine")
        if any(test.examples for test in doctest.DocTestFinder().find(module)):
            with_examples.add(name)
    assert "solver" in with_examples and "tiles" in with_examples
    missing = with_examples - set(MODULES) - set(DOCTESTED)
    assert not missing, f"their examples never run: {sorted(missing)}"
