"""How To Play tells a first-time player what the game's words and codes mean: the tile
codes of the log and the messages (K is black), who starts, the joker limits, that the
opening turn may not touch the table. Its text scrolls to the end, on a phone too, and
Close gives the focus back to the button that opened it."""

from __future__ import annotations

from playwright.sync_api import expect
from test_play import LEVELS

FACTS = [
    # The tile codes.
    "So R7 is red 7 and K12 is black 12; J is a joker.",
    "whoever draws a joker, or ties for the highest, draws again",
    "A tile is worth its number.",
    # Jokers: what they count as, and how many a set may hold.
    "in R9 R10 J the joker is R11, worth 11",
    "A set may hold at most two jokers, and a group of three tiles at most one.",
    # Who starts, and the opening turn.
    "each player draws a tile and the highest number goes first",
    "In that turn you may not touch the sets already on the table.",
    "From your next turn on you may add tiles to any set on the table",
    # Taking a joker back (RULES.md: a joker may move to another set, never to a rack).
    "It must be in a valid set when you confirm: jokers never go back to a rack.",
    # A blocked round (RULES.md: racks 12, 30, 47 score +53, -18, -35).
    "If the pool runs dry and nobody can play, the lowest rack wins: each other player loses"
    " the difference between their rack's value and the lowest, and the winner gains the sum"
    " of those differences.",
]


def test_how_to_play_explains_codes_starts_jokers_and_the_opening(app):
    page = app.page
    app.new_game(1, LEVELS)
    opener = app.button("How To Play")
    opener.click()
    dialog = page.get_by_role("dialog", name="How To Play")
    expect(dialog).to_be_visible()
    for fact in FACTS:
        expect(dialog).to_contain_text(fact)
    expect(dialog).to_contain_text("The total is shown while you arrange")  # still there

    rules = dialog.get_by_role("region", name="The rules")
    last = dialog.locator("#howto-variants li").last
    try:
        for viewport in ({"width": 1280, "height": 860}, {"width": 390, "height": 844}):
            page.set_viewport_size(viewport)
            # The rules are longer than their region, which scrolls (End, from the
            # keyboard) to the last variant; Close stays on screen.
            assert rules.evaluate("r => r.scrollHeight > r.clientHeight + 50"), viewport
            rules.focus()
            page.keyboard.press("Home")
            expect(last).not_to_be_in_viewport()
            page.keyboard.press("End")
            expect(last).to_be_in_viewport()
            page.wait_for_function(
                "() => { const r = document.querySelector('#howto-dialog .howto-body');"
                " return r.scrollTop + r.clientHeight >= r.scrollHeight - 1; }"
            )
            expect(dialog.get_by_role("button", name="Close")).to_be_in_viewport(ratio=1)
            box = dialog.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
