"""The front end's modules import only downward, as web/api.js describes: main.js >
api.js > game/ > render.js and render/ > the shared modules > state.js, with no
circle, and none of them longer than a file read in one sitting."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "web"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+["'](\.[^"']+)["']""", re.M)
# Lower number, lower layer: a module imports only from its own layer or below.
LAYERS = {"main.js": 5, "api.js": 4, "game": 3, "render.js": 2, "render": 2, "state.js": 0}
SHARED = 1  # board.js, verdicts.js, words.js, variants.js, drag.js, roving.js, stats.js
SKIP = {"sw.js", "worker.js"}  # not modules of the page (the service worker, the engine's worker)


def modules() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.js") if p.name not in SKIP)


def name(path: Path) -> str:
    return path.relative_to(WEB).as_posix()


def layer(path: Path) -> int:
    rel = path.relative_to(WEB).parts
    return LAYERS.get(rel[0], SHARED)


def imports(path: Path) -> list[Path]:
    return [(path.parent / spec).resolve() for spec in IMPORT.findall(path.read_text())]


def test_every_import_is_of_a_module_there():
    for path in modules():
        for dep in imports(path):
            assert dep.is_file(), (name(path), dep)


def test_imports_run_only_downward():
    upward = [
        (name(path), name(dep))
        for path in modules()
        for dep in imports(path)
        if layer(dep) > layer(path)
    ]
    assert upward == []


def test_the_imports_make_no_circle():
    graph = {path: [d for d in imports(path) if d.is_file()] for path in modules()}
    done: set[Path] = set()

    def visit(path: Path, trail: list[Path]) -> None:
        assert path not in trail, [name(p) for p in [*trail, path]]
        if path in done:
            return
        for dep in graph.get(path, []):
            visit(dep, [*trail, path])
        done.add(path)

    for path in graph:
        visit(path, [])


def test_no_file_of_the_front_end_is_over_800_lines():
    lines = {name(p): len(p.read_text().splitlines()) for p in WEB.rglob("*.[jc]s*")}
    assert {path: n for path, n in lines.items() if n > 800} == {}
