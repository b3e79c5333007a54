#!/usr/bin/env python3
"""The one entry point: build the static site, serve it, run the tests.

    python3 build.py                 # build dist/
    python3 build.py serve [--port N] [--base /rummikub/]
    python3 build.py test [pytest args...]   # no args: browser and engine tests side by side

Standard library only, so it runs on a bare Python 3.11+.
"""

from __future__ import annotations

import argparse
import base64
import csv
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
import zipfile
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
VENV = ROOT / ".venv"
ENGINE_PACKAGE = "py_engine"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# Only what the page loads: no source maps, typings, consoles or the CommonJS build.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Headless Debian Chromium as the browser tests and benchmarks start it: without the
# background-networking flags it keeps trying hosts this closed network refuses.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
# The engine's memory snapshot (see engine_snapshot): made by this Node script, kept
# between builds under the npm packages' cache, named by what it is made from.
SNAPSHOT_SCRIPT = ROOT / "tools" / "engine_snapshot.mjs"
SNAPSHOT_CACHE = ROOT / "node_modules" / ".cache" / "engine-snapshot"
SNAPSHOT_HEADER = 64  # bytes before Pyodide's own snapshot: "rummikub engine snapshot <key>"
# Pinned deterministic timestamp for wheel entries (1980-01-01, the zip epoch).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def log(msg: str) -> None:
    print(f"build: {msg}", flush=True)


# ---------------------------------------------------------------- pyodide runtime


def npm_pins() -> dict[str, str]:
    """The exact versions package.json pins (runtime and test-only packages alike)."""
    data = json.loads((ROOT / "package.json").read_text())
    return {**data.get("dependencies", {}), **data.get("devDependencies", {})}


def pinned_pyodide_version() -> str:
    return npm_pins()["pyodide"]


def ensure_node_modules() -> Path:
    """`npm ci` (from package-lock.json) when a pinned package is missing or differs:
    pyodide for the page, axe-core for the accessibility tests."""
    stale = []
    for name, want in npm_pins().items():
        pkg = ROOT / "node_modules" / name / "package.json"
        have = json.loads(pkg.read_text())["version"] if pkg.exists() else None
        if have != want:
            stale.append(f"{name}@{want}")
    if stale:
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("build: npm is needed once to fetch " + ", ".join(stale))
        log(f"npm ci ({', '.join(stale)})")
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True
        )
    return PYODIDE_DIR


def slim_lockfile(src: Path) -> dict:
    """The Pyodide lock file with no packages: the engine has no dependencies and
    is loaded by URL, so the page never needs the 350-package index (and can never
    be sent to a CDN for a package by name)."""
    lock = json.loads(src.read_text())
    return {"info": lock["info"], "packages": {}}


# ---------------------------------------------------------------- engine wheel


def project_metadata() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def build_wheel(out_dir: Path) -> Path:
    """Build the engine as a py3-none-any wheel with the standard library alone.

    The engine is pure Python with no dependencies, so a wheel is a zip of the
    package plus three metadata files. Doing it here keeps the build offline,
    deterministic (fixed timestamps, sorted entries) and well under a second,
    where `pip wheel` would first fetch setuptools into an isolated environment.
    """
    meta = project_metadata()
    name, version = meta["name"], meta["version"]
    dist_name = name.replace("-", "_")
    info_dir = f"{dist_name}-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    # RUMMIKUB_ENGINE_DIR swaps in another copy of the package (front-end development).
    pkg_dir = Path(os.environ.get("RUMMIKUB_ENGINE_DIR") or ROOT / ENGINE_PACKAGE)
    for path in sorted(pkg_dir.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        arc = f"{ENGINE_PACKAGE}/{path.relative_to(pkg_dir).as_posix()}"
        files.append((arc, path.read_bytes()))
    if not any(arc == f"{ENGINE_PACKAGE}/__init__.py" for arc, _ in files):
        sys.exit(f"build: {ENGINE_PACKAGE}/__init__.py not found; nothing to package")

    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {meta.get('description', '')}",
        f"Requires-Python: {meta.get('requires-python', '>=3.11')}",
    ]
    files.append((f"{info_dir}/METADATA", ("\n".join(metadata) + "\n").encode()))
    wheel_txt = (
        "Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files.append((f"{info_dir}/WHEEL", wheel_txt.encode()))
    files.append((f"{info_dir}/top_level.txt", f"{ENGINE_PACKAGE}\n".encode()))

    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for arc, data in files:
        writer.writerow([arc, _record_hash(data), len(data)])
    writer.writerow([f"{info_dir}/RECORD", "", ""])
    files.append((f"{info_dir}/RECORD", record.getvalue().encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for arc, data in files:
            info = zipfile.ZipInfo(arc, ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return wheel


# ---------------------------------------------------------------- engine snapshot


def snapshot_key(runtime: Path, wheel: Path) -> str:
    """What a snapshot is made from: the runtime's files (its memory refers into the
    standard library's zip), the engine's wheel and the script that makes it."""
    digest = hashlib.sha256()
    for path in [*(runtime / name for name in PYODIDE_FILES), wheel, SNAPSHOT_SCRIPT]:
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


def snapshot_header(key: str) -> bytes:
    return f"rummikub engine snapshot {key}".encode().ljust(SNAPSHOT_HEADER)


def engine_snapshot(runtime: Path, wheel: Path) -> tuple[str, Path, int] | None:
    """Pyodide's memory with the engine imported, made under Node from the runtime in
    dist/ (node_modules/.cache keeps the last one made, so a build of the same engine
    takes none of the 5-7 s of CPU it takes to make): its key, the file (gzip, our header
    inside) and its length unzipped. None with no Node (the page then boots plainly)."""
    key = snapshot_key(runtime, wheel)
    kept = SNAPSHOT_CACHE / f"{key}.bin"
    if not kept.exists():
        node = shutil.which("node")
        if node is None:
            log("no node: the page will boot without the engine's snapshot")
            return None
        log(f"making the engine's snapshot {key} (node {SNAPSHOT_SCRIPT.relative_to(ROOT)})")
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "snapshot"
            subprocess.run(
                [node, str(SNAPSHOT_SCRIPT), str(runtime), str(wheel), str(raw)], check=True
            )
            data = snapshot_header(key) + raw.read_bytes()
        # Zipped here: a static host may send a .bin as it is (GitHub Pages does not
        # compress every type), and the worker unzips it with DecompressionStream.
        zipped = gzip.compress(data, compresslevel=6, mtime=0)
        SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
        for old in SNAPSHOT_CACHE.iterdir():
            old.unlink(missing_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(zipped)
        partial.replace(kept)  # whole or not there, should two builds make it at once
    # gzip's last four bytes: the length unzipped (modulo 4 GiB; it is 31.5 MB).
    with kept.open("rb") as zipped:
        zipped.seek(-4, os.SEEK_END)
        length = int.from_bytes(zipped.read(4), "little")
    return key, kept, length


# ---------------------------------------------------------------- site


def build(dist: Path = DIST) -> Path:
    """Assemble dist/: index.html, web/, pyodide/ (runtime), wheels/ (engine)."""
    pyodide = ensure_node_modules()
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)

    shutil.copy2(ROOT / "index.html", dist / "index.html")
    shutil.copytree(ROOT / "web", dist / "web", ignore=shutil.ignore_patterns(".*", "*~", "sw.js"))

    rt = dist / "pyodide"
    rt.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, rt / name)
    (rt / "pyodide-lock.json").write_text(json.dumps(slim_lockfile(pyodide / "pyodide-lock.json")))

    wheel = build_wheel(dist / "wheels")
    snapshot = engine_snapshot(rt, wheel)
    if snapshot is not None:
        key, kept, length = snapshot
        snapshot_path = f"engine/snapshot-{key}.bin"
        (dist / "engine").mkdir()
        shutil.copy2(kept, dist / snapshot_path)

    # A fingerprint of everything the page loads, used to version caches.
    fingerprint = hashlib.sha256()
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        fingerprint.update(path.relative_to(dist).as_posix().encode())
        fingerprint.update(hashlib.sha256(path.read_bytes()).digest())
    # The files the engine's worker may fetch while it boots, by size: it counts their
    # bytes as they arrive, for the page's progress (the runtime's .mjs is imported, not
    # fetched, so it is not among them).
    fetched = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", f"wheels/{wheel.name}"]
    if snapshot is not None:
        fetched.append(snapshot_path)
    build_info = {
        "wheel": f"wheels/{wheel.name}",
        "pyodide": pinned_pyodide_version(),
        "version": project_metadata()["version"],
        "build": fingerprint.hexdigest()[:12],
        "sizes": {name: (dist / name).stat().st_size for name in fetched},
        # The worker boots from this when it can (unzipped: `length` bytes, the first
        # SNAPSHOT_HEADER of them naming `key`), else loads the wheel.
        "snapshot": None
        if snapshot is None
        else {"path": snapshot_path, "key": key, "length": length, "header": SNAPSHOT_HEADER},
    }
    (dist / "web" / "build-info.js").write_text(
        "// Written by build.py; do not edit.\n"
        f"export const BUILD = {json.dumps(build_info, indent=2)};\n"
    )
    write_service_worker(dist, build_info["build"])
    size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    log(f"dist/ ready ({size / 1e6:.1f} MB, engine {wheel.name}, build {build_info['build']})")
    return dist


def subresource_integrity(data: bytes) -> str:
    """The Subresource Integrity value of ``data`` ("sha256-" and the base64 digest)."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def write_service_worker(dist: Path, build_id: str) -> None:
    """dist/sw.js: the offline cache of every file the page loads, named by the build,
    each with its integrity value, so that the cache can only hold this build's bytes."""
    paths = sorted(p for p in dist.rglob("*") if p.is_file())
    files = [[p.relative_to(dist).as_posix(), subresource_integrity(p.read_bytes())] for p in paths]
    files.insert(0, ["./", subresource_integrity((dist / "index.html").read_bytes())])
    source = (ROOT / "web" / "sw.js").read_text()
    source = source.replace('"__BUILD__"', json.dumps(build_id))
    source = source.replace('["__FILES__"]', json.dumps(files, indent=2))
    (dist / "sw.js").write_text(source)


# ---------------------------------------------------------------- serving


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files from one folder, optionally under a sub-path (like a GitHub
    Pages project site), with the MIME types Pyodide needs."""

    base = "/"
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
        ".whl": "application/zip",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
    }

    def translate_path(self, path: str) -> str:
        rel = path.split("?", 1)[0].split("#", 1)[0]
        if self.base != "/":
            if not rel.startswith(self.base):
                return str(Path(self.directory) / "__outside_base__")
            rel = "/" + rel[len(self.base) :]
        return super().translate_path(rel)

    def _redirect_to_base(self) -> bool:
        if self.base != "/" and self.path.split("?", 1)[0] == self.base.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.base)
            self.end_headers()
            return True
        return False

    def do_GET(self) -> None:
        if not self._redirect_to_base():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._redirect_to_base():
            super().do_HEAD()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if os.environ.get("BUILD_SERVE_LOG"):
            super().log_message(format, *args)


def make_server(
    root: Path = DIST, port: int = 0, base: str = "/", host: str = "127.0.0.1"
) -> http.server.ThreadingHTTPServer:
    """A threaded static server for `root`; port 0 picks a free port."""
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    handler = type("Handler", (SiteHandler,), {"base": base})
    server = http.server.ThreadingHTTPServer(
        (host, port), functools.partial(handler, directory=str(root))
    )
    server.daemon_threads = True
    server.base = base  # type: ignore[attr-defined]
    return server


def site_url(server: http.server.ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}{server.base}"  # type: ignore[attr-defined]


def serve(port: int, base: str) -> None:
    build()
    server = make_server(DIST, port, base)
    print(f"Serving dist/ at {site_url(server)}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def serve_in_thread(root: Path = DIST, base: str = "/") -> http.server.ThreadingHTTPServer:
    """Start a server on a free loopback port in a daemon thread (used by the tests)."""
    server = make_server(root, 0, base)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---------------------------------------------------------------- tests


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """Create .venv with the pinned test extras; reinstall when pyproject.toml changes."""
    py = venv_python()
    if not py.exists():
        log("creating .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    stamp = VENV / ".build-py-stamp"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != want:
        log("pip install -e .[test]")
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", ".[test]"],
            cwd=ROOT,
            check=True,
        )
        stamp.write_text(want)
    return py


# With no arguments, the two halves of the suite run side by side. The browser tests are
# one pytest with one browser, and they leave about a third of two cores idle (the page's
# animations and pauses); the engine tests (about 5 minutes of one core) fill it in a
# second pytest, at a lower priority, so that the browser tests lose little of their pace
# (17.2 minutes beside it here, 15.3 alone, 17.9 at the same priority). One after the
# other, the two took 20.5 minutes here and 27.5 on CI.
BROWSER_TESTS = ("tests/e2e",)
ENGINE_TESTS = ("tests", "--ignore=tests/e2e")


def run_tests(pytest_args: list[str]) -> int:
    py = ensure_venv()
    build()
    env = dict(os.environ, RUMMIKUB_DIST=str(DIST))
    if not pytest_args:
        return run_both_halves(py, env)
    cmd = [str(py), "-m", "pytest", *pytest_args]
    log(" ".join(cmd[1:]))
    return subprocess.call(cmd, cwd=ROOT, env=env)


def lower_priority() -> None:
    """In the engine half's process, before pytest starts: the browser half goes first."""
    os.nice(10)


def run_both_halves(py: Path, env: dict[str, str]) -> int:
    """The browser tests, shown as they run, with the engine tests beside them, whose
    report is shown after theirs. Fails when either half fails."""
    pytest = [str(py), "-m", "pytest"]
    log(f"-m pytest {' '.join(BROWSER_TESTS)}, and beside it -m pytest {' '.join(ENGINE_TESTS)}")
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as engine_report:
        engine = subprocess.Popen(
            [*pytest, *ENGINE_TESTS],
            cwd=ROOT,
            env=env,
            stdout=engine_report,
            stderr=subprocess.STDOUT,
            preexec_fn=lower_priority if hasattr(os, "nice") else None,
        )
        try:
            browser_code = subprocess.call([*pytest, *BROWSER_TESTS], cwd=ROOT, env=env)
        finally:
            engine_code = engine.wait()
        engine_report.seek(0)
        log("the engine tests' report:")
        sys.stdout.write(engine_report.read())
    log(f"browser tests {_outcome(browser_code)}, engine tests {_outcome(engine_code)}")
    return browser_code or engine_code


def _outcome(code: int) -> str:
    return "passed" if code == 0 else f"failed (pytest exit {code})"


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build dist/ (the default)")
    p_serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument("--base", default="/", help="serve under this sub-path, e.g. /rummikub/")
    p_test = sub.add_parser("test", help="build, then run pytest (engine and browser tests)")
    p_test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed to pytest")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["test"] and not {"-h", "--help"} & set(argv[1:2]):
        # Everything after "test" goes to pytest as it is, options included ("-k x",
        # "-m e2e"), which argparse would take for options of its own and refuse.
        rest = argv[1:]
        return run_tests(rest[1:] if rest[:1] == ["--"] else rest)
    args = parser.parse_args(argv)

    if args.command == "serve":
        serve(args.port, args.base)
        return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
