"""The engine's worker starts from the build's memory snapshot (Python with the engine
imported), and boots plainly (Pyodide, then the engine's wheel) whenever the snapshot is
missing, damaged, of another build or refused by the runtime: the game starts all the
same. The snapshot holds no game: a game comes from a new deal or the save."""

from __future__ import annotations

import gzip
import json

import pytest
from conftest import BOOT_TIMEOUT_MS, DIST
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS

BOOT_INFO_JS = "() => { const i = window.__rummikub.engine.bootInfo; return [i.boot, i.refused]; }"


def build_info() -> dict:
    source = (DIST / "web" / "build-info.js").read_text()
    return json.loads(source[source.index("{") : source.rindex("}") + 1])


def snapshot() -> tuple[dict, bytes]:
    """The build's snapshot entry and its file's bytes (gzip)."""
    info = build_info()["snapshot"]
    return info, (DIST / info["path"]).read_bytes()


def serve_to_the_engine(context, body: bytes | None) -> None:
    """The engine's worker gets ``body`` for the snapshot (None: a 404); the service
    worker's install, which caches the build, gets the real file."""

    def answer(route):
        if route.request.service_worker:
            route.continue_()
        elif body is None:
            route.fulfill(status=404)
        else:
            route.fulfill(status=200, body=body, content_type="application/octet-stream")

    context.route("**/engine/snapshot-*", answer)


def booted_game(context, site: str):
    """A page of ``context`` with the engine booted and a new game dealt."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    page.get_by_role("button", name="Start Game").click()
    page.wait_for_selector("body[data-turn=mine], body[data-turn=theirs]", timeout=60_000)
    expect(page.get_by_role("region", name="Your rack").locator(".tile")).to_have_count(14)
    assert errors == [], errors
    return page


def test_the_engine_starts_from_its_snapshot_with_no_game_in_it(browser, site):
    context = browser.new_context()
    page = context.new_page()
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate(BOOT_INFO_JS) == ["snapshot", None]
    # No game in the engine until the page deals one.
    answer = page.evaluate("window.__rummikub.engine.call({cmd: 'view'})")
    assert answer["error"].startswith("No game"), answer
    context.close()


def test_a_saved_game_comes_back_from_the_save(browser, site):
    """After a reload the engine starts from the snapshot again, which holds no game:
    the game played on is the save's, rack and pool as they were."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app = GamePage(page)
    app.new_game(7, LEVELS)
    app.draw_or_pass()
    app.wait_for_turn()
    view = "window.__rummikub.state.view"
    rack, pool = app.rack_ids(), page.evaluate(f"{view}.pool")
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    assert page.evaluate(BOOT_INFO_JS) == ["snapshot", None]
    assert sorted(app.rack_ids()) == sorted(rack) and len(rack) == 15
    assert page.evaluate(f"{view}.pool") == pool
    context.close()


def _repack(memory: bytes) -> bytes:
    return gzip.compress(memory, compresslevel=1)


def damaged(how: str) -> bytes | None:
    info, zipped = snapshot()
    if how == "missing":
        return None
    if how == "cut short":
        return zipped[: len(zipped) // 2]
    if how == "damaged":
        middle = len(zipped) // 2
        return (
            zipped[:middle]
            + bytes(b ^ 0xFF for b in zipped[middle : middle + 64])
            + zipped[middle + 64 :]
        )
    memory = gzip.decompress(zipped)
    header = info["header"]
    if how == "of another build":
        other = f"rummikub engine snapshot {'0' * len(info['key'])}".encode().ljust(header)
        return _repack(other + memory[header:])
    if how == "refused by the runtime":  # ours, but not a snapshot Pyodide takes
        return _repack(memory[:header] + b"\0" * 16 + memory[header + 16 :])
    raise ValueError(how)


REASONS = {
    "missing": "HTTP 404",
    "cut short": "truncated",
    "damaged": "not valid",
    "of another build": "not this build's",
    "refused by the runtime": "magic number",
}


@pytest.mark.parametrize("how", list(REASONS))
def test_without_a_usable_snapshot_the_engine_boots_plainly(browser, site, how):
    context = browser.new_context()
    serve_to_the_engine(context, damaged(how))
    page = booted_game(context, site)
    boot, refused = page.evaluate(BOOT_INFO_JS)
    assert boot == "plain", (boot, refused)
    assert refused and REASONS[how] in refused, refused
    context.close()
