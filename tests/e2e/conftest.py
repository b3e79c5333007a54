"""Browser tests: the built dist/ served on loopback under a sub-path, driven in
Debian's Chromium through Playwright. One server, one browser and one shared page for
the session, so the Pyodide boot happens once; each test starts its own game through
the page's own "New Game" screen."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("RUMMIKUB_DIST") or ROOT / "dist")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
BASE = "/rummikub/"
BOOT_TIMEOUT_MS = 90_000


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
    # The same-origin check looks at everything the session fetched: it goes last.
    last = [i for i in items if i.name.startswith("test_every_request_stays_on_the_page_origin")]
    for item in last:
        items.remove(item)
        items.append(item)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, build_module):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (.ci/run installs Debian chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": list(build_module.CHROMIUM_ARGS),
    }


@pytest.fixture(scope="session")
def site(build_module):
    """The URL of dist/ served under a sub-path, as on a GitHub Pages project site."""
    if not (DIST / "index.html").exists():
        pytest.fail("dist/ is not built: run `python3 build.py test`")
    server = build_module.serve_in_thread(DIST, BASE)
    yield build_module.site_url(server)
    server.shutdown()
    server.server_close()


class Requests:
    """Every URL a context asked for (page and workers alike)."""

    def __init__(self, site: str):
        self.origin = urlsplit(site)[:2]
        self.urls: list[str] = []

    def watch(self, context) -> None:
        context.on("request", lambda r: self.urls.append(r.url))

    def foreign(self) -> list[str]:
        local = ("data:", "blob:", "about:")
        return [u for u in self.urls if not u.startswith(local) and urlsplit(u)[:2] != self.origin]


@pytest.fixture(scope="session")
def requests_seen(site):
    return Requests(site)


def open_booted_page(context, site: str, requests_seen):
    """A page of ``context`` at the site, its requests watched and its uncaught errors
    kept in ``page.page_errors``, once the engine has booted."""
    requests_seen.watch(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    page.page_errors = errors
    return page


@pytest.fixture(scope="session")
def shared_page(browser, site, requests_seen):
    """One desktop page for the session, booted once."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    yield open_booted_page(context, site, requests_seen)
    context.close()


@pytest.fixture
def app(shared_page):
    from game_page import GamePage

    yield GamePage(shared_page)
    assert shared_page.page_errors == [], shared_page.page_errors


@pytest.fixture(scope="module")
def phone_viewport():
    """The phone's screen for the module's `phone`: an iPhone 13's, 390x844 (a module
    overrides this fixture for another)."""
    return {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def phone(browser, site, requests_seen, phone_viewport):
    """A touch phone's page of its own for the module, booted once."""
    from game_page import GamePage

    context = browser.new_context(
        viewport=phone_viewport, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = open_booted_page(context, site, requests_seen)
    yield GamePage(page)
    assert page.page_errors == [], page.page_errors
    context.close()
