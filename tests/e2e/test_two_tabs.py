"""Two tabs of the game in one browser share its saved game: once one tab plays on, the
other stops and says so, and takes the game up from the latest save only when asked.
They used to play on unseen, each overwriting the other's save (exploratory QA: a play
confirmed in one tab vanished after the other, stale tab drew)."""

from __future__ import annotations

import re

from conftest import open_booted_page
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

SAVED = "() => localStorage.getItem('rummikub.savedGame')"


def test_a_tab_left_behind_stops_and_takes_the_game_up_when_asked(browser, site, requests_seen):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        a = GamePage(open_booted_page(context, site, requests_seen))
        seed, sets = opening_deal()
        a.new_game(seed, LEVELS)
        b = GamePage(open_booted_page(context, site, requests_seen))
        expect(b.page.locator("#message")).to_have_text("Welcome back: your game was restored.")
        rack = b.rack_ids()
        assert sorted(rack) == sorted(a.rack_ids())
        stale_b = b.page.get_by_role("dialog", name="Played in another tab")
        expect(stale_b).to_be_hidden()

        # A lays the opening: B's game is out of date, and B says so.
        for tiles in sets:
            a.tap_new_set(tiles)
        a.button("Confirm Play").click()
        a.wait_for_turn()
        expect(stale_b).to_be_visible()
        saved_by_a = a.page.evaluate(SAVED)
        # Nothing in B gets past the dialog, Escape included, and B never saves.
        b.page.keyboard.press("Escape")
        expect(stale_b).to_be_visible()
        assert b.page.evaluate(SAVED) == saved_by_a

        # Taken up in B: A's opening is on the table, and B plays on from there.
        stale_b.get_by_role("button", name="Continue Here").click()
        expect(stale_b).to_be_hidden()
        # With what the computer did since, as the other tab told it.
        expect(b.page.locator("#message")).to_have_text(
            re.compile(r"^Your game was taken up where the other tab left it\. Computer 1 \w+")
        )
        played = {i for s in sets for i in s}
        assert played <= {i for s in b.table_ids() for i in s}
        assert not played & set(b.rack_ids())
        b.wait_for_turn()
        b.button("Draw").click()
        b.wait_for_turn()
        # Now A is the one left behind.
        stale_a = a.page.get_by_role("dialog", name="Played in another tab")
        expect(stale_a).to_be_visible()
        assert a.page.evaluate(SAVED) == b.page.evaluate(SAVED)
        assert a.page.page_errors == [] and b.page.page_errors == []
    finally:
        context.close()
