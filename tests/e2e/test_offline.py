"""After one visit the game loads and plays with the network off (service worker)."""

import re
import shutil
import threading

import pytest
from conftest import BASE, BOOT_TIMEOUT_MS, DIST
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def booted_and_cached(page, url: str | None = None) -> None:
    """Go to ``url`` (or reload), until the engine has booted and the service worker,
    its cache complete, controls the page."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
        timeout=60_000,
    )


def test_offline_after_one_visit(browser, site, requests_seen):
    context = browser.new_context()
    requests_seen.watch(context)
    page = context.new_page()
    booted_and_cached(page, site)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    # The engine started from its snapshot, from the service worker's cache.
    assert page.evaluate("window.__rummikub.engine.bootInfo.boot") == "snapshot"
    app = GamePage(page)
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    for tiles in sets:
        app.tap_new_set(tiles)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    assert not {i for s in sets for i in s} & set(app.rack_ids())
    # A manifest makes it installable.
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["name"] == "Rummikub" and manifest["start_url"] == "../"
    context.close()


def test_a_new_build_replaces_the_cached_one_when_the_player_accepts(
    browser, tmp_path, build_module
):
    """Serve a copy of dist/, visit it, then put a "new build" in its place: the page
    offers the update, and after it the whole page comes from the new build."""
    root = tmp_path / "site"
    shutil.copytree(DIST, root)
    server = build_module.serve_in_thread(root, BASE)
    try:
        context = browser.new_context()
        page = context.new_page()
        booted_and_cached(page, build_module.site_url(server))
        # The new build: another fingerprint, and a page that says which it is.
        sw = (root / "sw.js").read_text()
        old = re.search(r'const BUILD = "([0-9a-f]+)"', sw).group(1)
        (root / "sw.js").write_text(sw.replace(old, "0" * len(old)))
        index = (root / "index.html").read_bytes()
        new_index = index.replace(b"<head>", b'<head>\n<meta name="build" content="new">')
        (root / "index.html").write_bytes(new_index)
        # The new build's worker knows the new page's integrity (the old one's refused).
        sri = build_module.subresource_integrity
        sw = (root / "sw.js").read_text()
        (root / "sw.js").write_text(sw.replace(sri(index), sri(new_index)))
        # Still the old build until the player says so.
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        banner = page.get_by_role("status").filter(has_text="A new version")
        expect(banner).to_be_visible(timeout=60_000)
        assert page.locator('meta[name="build"]').count() == 0
        banner.get_by_role("button", name="Update").click()
        page.wait_for_selector('meta[name="build"][content="new"]', state="attached")
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        caches = page.evaluate("caches.keys()")
        assert caches == ["rummikub-" + "0" * len(old)]
        context.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("profile", ["fresh context", "persistent profile"])
def test_a_first_visit_downloads_each_file_once(
    profile, browser, browser_type, browser_type_launch_args, build_module, tmp_path
):
    """On a first visit the 13 MB of the build came down twice (every file answered 200
    to the page, then again to the service worker's install); then the install checked
    each file with the server instead (304s), but a private window's memory cache keeps
    no 9 MB file, so there the runtime's .wasm still came twice. The engine's worker now
    puts the files it boots from into the build's cache as they arrive, and the install
    keeps them: each file is asked for once, in a fresh context as with a disk cache."""
    server = build_module.make_server(DIST, 0, BASE)
    handler = server.RequestHandlerClass.func  # the server's own handler class
    answers: list[tuple[str, int]] = []
    handler.log_request = lambda self, code="-", size="-": answers.append(
        (self.path.split("?", 1)[0], int(getattr(code, "value", code)))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        if profile == "fresh context":
            context = browser.new_context()
        else:
            context = browser_type.launch_persistent_context(
                tmp_path / "profile", **browser_type_launch_args
            )
        page = context.new_page()
        booted_and_cached(page, build_module.site_url(server))
        cached = page.evaluate(
            "caches.keys().then((k) => caches.open(k[0]))"
            ".then((c) => c.keys()).then((r) => r.map((q) => new URL(q.url).pathname))"
        )
        context.close()
    finally:
        server.shutdown()
        server.server_close()
    whole = [path for path, code in answers if code == 200]
    twice = sorted({path for path in whole if whole.count(path) > 1})
    assert not twice, (twice, answers)
    # The files the engine booted from were asked for once each (not even checked
    # again), and are in the service worker's cache.
    for name in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "engine/snapshot-"):
        asked = [(path, code) for path, code in answers if name in path]
        assert len(asked) == 1 and asked[0][1] == 200, (name, answers)
        assert any(name in path for path in cached), cached


# Until the service worker's install has failed (its worker redundant). A registration
# with no installing worker is not enough: it has none while its script is fetched.
# Before the page's scripts run: the service worker's first install, as the page registers
# it, marked on window when it fails (its worker turns redundant). Looked for from the
# registration itself, so a failure that came before the test looks is seen too.
WATCH_INSTALL_JS = """{
  const sw = navigator.serviceWorker;
  const register = sw.register.bind(sw);
  sw.register = async (...args) => {
    const registration = await register(...args);
    const worker = registration.installing;
    const failed = () => worker.state === "redundant" && (window.__swInstallFailed = true);
    if (worker && !failed()) worker.addEventListener("statechange", failed);
    return registration;
  };
}"""


def test_a_file_not_of_the_build_is_never_cached(browser, tmp_path, build_module):
    """The worker's install checks each file's bytes against the build's (Subresource
    Integrity): a host still serving an older file (a deploy not yet everywhere) fails
    the install, and the page plays on from the network; once the host serves the
    build's file, the next visit installs it."""
    root = tmp_path / "site"
    shutil.copytree(DIST, root)
    css = root / "web" / "style.css"
    right = css.read_bytes()
    css.write_bytes(right + b"\n/* an older file */\n")
    server = build_module.serve_in_thread(root, BASE)
    try:
        context = browser.new_context()
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(WATCH_INSTALL_JS)
        page.goto(build_module.site_url(server))
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        # The install is tried, and fails: no worker takes the page, nothing is cached
        # (not even the files the engine's worker put into the cache as it booted).
        page.wait_for_function("window.__swInstallFailed === true", timeout=60_000)
        assert page.evaluate("navigator.serviceWorker.controller") is None
        assert page.evaluate("caches.keys()") == []
        # The game plays on from the network.
        app = GamePage(page)
        seed, _ = opening_deal()
        app.new_game(seed, LEVELS)
        app.button("Draw").click()
        app.wait_for_turn()
        # The build's own file served: the next visit caches the build.
        css.write_bytes(right)
        booted_and_cached(page)
        assert len(page.evaluate("caches.keys()")) == 1
        assert errors == [], errors
        context.close()
    finally:
        server.shutdown()
        server.server_close()
