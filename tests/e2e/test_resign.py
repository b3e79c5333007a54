"""Resigning asks first, ends the round for the player, and counts in the statistics."""

from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def rounds_played(page) -> int:
    page.get_by_text("Your statistics").click()
    stats = page.locator("#stats")
    value = stats.locator("dt:text-is('Rounds played') + dd").text_content()
    page.get_by_text("Your statistics").click()
    return int(value)


def test_resign_with_confirmation_and_statistics(app):
    page = app.page
    seed, _ = opening_deal()
    if page.locator("#menu-new-game").is_visible() or page.locator("#round-dialog[open]").count():
        app.new_game(seed, LEVELS)
        page.locator("#menu-new-game").click()
    before = rounds_played(page)
    app.button("Start Game").click()
    app.wait_for_turn()
    # Changing one's mind costs nothing.
    app.button("Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this round?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Keep Playing").click()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")
    # Resign for real: the round ends, the computer wins it.
    app.button("Resign").click()
    dialog.get_by_role("button", name="Resign").click()
    app.wait_for_turn()
    scores = page.get_by_role("dialog")
    expect(scores).to_contain_text("by resignation")
    expect(scores.get_by_role("row", name="Computer 1")).to_have_class("winner")
    scores.get_by_role("button", name="New Game").click()
    assert rounds_played(page) == before + 1
