"""A phone-sized viewport with touch: tap-to-place a whole opening, no sideways scroll."""

import game_twin as twin
from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def test_phone_touch_opening(browser, site, requests_seen, tmp_path):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    requests_seen.watch(context)
    page = context.new_page()
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app = GamePage(page)
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = app.rack.locator(".tile").first.bounding_box()
    assert box["width"] >= 30 and box["height"] >= 40  # readable, and a finger can hit it
    for tiles in sets:
        index = len(app.table_ids())
        app.tile(tiles[0]).tap()
        app.button("+ New Set").tap()
        for n, tile_id in enumerate(tiles[1:], start=2):
            app.tile(tile_id).tap()
            page.get_by_role("button", name=f"Put here: Set {index + 1}, end").tap()
            expect(app.set_box(index).locator(".tile")).to_have_count(n)
    total = sum(twin.value(twin.new_game(seed, LEVELS)["rack"], s) for s in sets)
    expect(page.locator("#turn-info")).to_contain_text(f"Opening: {total} of 30")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    app.button("Confirm Play").tap()
    app.wait_for_turn()
    assert not {i for s in sets for i in s} & set(app.rack_ids())
    context.close()
