"""Browser tests: the built dist/ served on loopback under a sub-path, driven in
Debian's Chromium through Playwright. One server, one browser and one page for the
whole session, so the (slow) Pyodide boot happens once."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("RUMMIKUB_DIST") or ROOT / "dist")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
BASE = "/rummikub/"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _load_build_module():
    spec = importlib.util.spec_from_file_location("rummikub_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def site():
    """The URL of dist/ served under a sub-path, as on a GitHub Pages project site."""
    if not (DIST / "index.html").exists():
        pytest.skip("dist/ is not built: run `python3 build.py test`")
    build = _load_build_module()
    server = build.serve_in_thread(DIST, BASE)
    yield build.site_url(server)
    server.shutdown()
    server.server_close()
