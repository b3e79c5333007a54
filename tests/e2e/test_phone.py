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


# Each visible button of the open dialog, select and checkbox of the start form: its
# name and its box's height and width.
TARGETS_JS = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility())
  .map((e) => { const r = e.getBoundingClientRect();
    return {name: e.textContent.trim() || e.name, height: r.height, width: r.width}; })"""


def test_dialog_buttons_and_start_choices_take_a_finger(phone):
    # On a phone a dialog's buttons ("Next Round" the one pressed most) were 35 px tall,
    # the start screen's selects 31 px and a variant's box 18 px.
    page = phone.page
    seed, _ = opening_deal()
    phone.new_game(seed, LEVELS, target=0)
    phone.button("Resign").tap()
    page.get_by_role("dialog", name="Resign this round?").get_by_role("button", name="Resign").tap()
    dialog = page.get_by_role("dialog", name="Game Over")
    expect(dialog).to_be_visible()
    buttons = page.evaluate(TARGETS_JS, "dialog[open] .dialog-buttons button")
    assert buttons and all(b["height"] >= 44 for b in buttons), buttons
    dialog.get_by_role("button", name="New Game").tap()
    more = page.locator("details.more", has_text="More options")
    more.locator("summary").tap()
    selects = page.evaluate(TARGETS_JS, "#start-form select")
    assert len(selects) >= 5 and all(s["height"] >= 44 for s in selects), selects
    boxes = page.evaluate(TARGETS_JS, "#start-form input[type=checkbox]")
    assert boxes and all(b["height"] >= 22 and b["width"] >= 22 for b in boxes), boxes
    more.locator("summary").tap()
