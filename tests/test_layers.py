"""The engine's imports run one way: down through its layers, never up, beside or round.

Read from the source (every module parsed, imports inside functions too), so a module
that would import upward fails here before anything runs it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "py_engine"

# Bottom up (limits: the bounds every input is read within). A module imports only from
# layers below its own, never from one beside it (tiles and rules know nothing of each
# other; nor do bridge and cli). The solver and expert packages are each one layer, their
# modules importing one another without a cycle.
LAYERS = [
    {"py_engine"},
    {"py_engine.limits"},
    {"py_engine.tiles", "py_engine.rules"},
    {"py_engine.sets"},
    {"py_engine.turns"},
    {"py_engine.rounds"},
    {"py_engine.solver"},
    {"py_engine.expert"},
    {"py_engine.bots"},
    {"py_engine.arena"},
    {"py_engine.bridge", "py_engine.cli"},
    {"py_engine.__main__"},
]
SOLVER = "py_engine.solver"
PACKAGES = (SOLVER, "py_engine.expert")


def module_names() -> dict[str, Path]:
    """Every module of the engine by its dotted name (a package by its own name)."""
    names = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The engine modules that module ``name`` imports, relative imports resolved; for
    ``from X import y``, X.y when that is a module, else X."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "py_engine")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "py_engine":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return found


def package_of(name: str) -> str | None:
    """The package of PACKAGES that module ``name`` is in (or is), if any."""
    return next((p for p in PACKAGES if name == p or name.startswith(p + ".")), None)


def in_solver(name: str) -> bool:
    return package_of(name) == SOLVER


def layer(name: str) -> int | None:
    home = package_of(name) or name
    return next((i for i, names in enumerate(LAYERS) if home in names), None)


def graph() -> dict[str, set[str]]:
    names = module_names()
    known = set(names)
    return {name: imports(name, path, known) - {name} for name, path in names.items()}


def test_every_module_has_a_layer():
    unplaced = [name for name in graph() if layer(name) is None]
    assert not unplaced, f"put these in LAYERS: {unplaced}"


def test_the_graph_is_read_from_the_source():
    edges = graph()
    # A few imports known to be there, of each kind: a sibling, a name from a package,
    # a submodule by ``from . import``, two dots up, and inside a function.
    assert "py_engine.tiles" in edges["py_engine.sets"]
    assert SOLVER in edges["py_engine.bots"]
    assert "py_engine.bots" in edges["py_engine.bridge"]
    assert f"{SOLVER}.arrange" in edges[f"{SOLVER}.fewest"]
    assert "py_engine.tiles" in edges[f"{SOLVER}.problem"]
    assert "py_engine.arena" in edges["py_engine.cli"]
    assert len([n for n in edges if in_solver(n)]) >= 8


def test_imports_run_only_downward():
    wrong = []
    for name, targets in graph().items():
        for target in targets:
            if package_of(name) and package_of(name) == package_of(target):
                continue  # within a package: the next test
            if layer(target) >= layer(name):  # type: ignore[operator]
                wrong.append(f"{name} imports {target}")
    assert not wrong, wrong


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_has_no_import_cycle(package):
    edges = {
        name: {t for t in targets if package_of(t) == package}
        for name, targets in graph().items()
        if package_of(name) == package
    }
    assert edges[package]  # the package imports its modules
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        assert name not in trail, " -> ".join([*trail[trail.index(name) :], name])
        if name in done:
            return
        for target in sorted(edges[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(edges):
        visit(name, [])
