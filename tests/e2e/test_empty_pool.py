"""Once the pool is empty the Draw button says what it does: Pass."""

from __future__ import annotations

import re

import game_twin as twin
from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage
from playwright.sync_api import expect


def saved_game_with_an_empty_pool(last_call: bool = False) -> str:
    """A two-player game in which both sides drew until the pool ran dry, the human's
    turn next (made by the engine, saved as the page saves it)."""
    return twin.saved_game({"last_call": last_call}, empty_pool=True)


def test_draw_becomes_pass_when_the_pool_is_empty(app):
    page = app.page
    page.evaluate(
        "text => localStorage.setItem('rummikub.savedGame', text)", saved_game_with_an_empty_pool()
    )
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#pool-count")).to_have_text("0")
    expect(page.locator("#turn-info")).to_have_text(re.compile(r"^Your turn"))  # no last call
    expect(app.button("Draw")).to_have_count(0)
    racks = len(app.rack_ids())
    app.button("Pass").click()
    app.wait_for_turn()
    assert len(app.rack_ids()) == racks  # nothing was drawn
    expect(page.locator("#log")).to_contain_text("passed")


def test_last_call_names_the_players_last_turn(app):
    """With "Last call when the pool runs dry" on, each player has one more turn once the
    pool is empty: the turn line says this one is the player's last, and after it the
    round ends, the score screen saying so (not that nobody could play: the computer
    may have laid tiles in its last turn)."""
    page = app.page
    page.evaluate(
        "text => localStorage.setItem('rummikub.savedGame', text)",
        saved_game_with_an_empty_pool(last_call=True),
    )
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#pool-count")).to_have_text("0")
    expect(page.locator("#turn-info")).to_have_text(re.compile(r"^Your last turn"))
    app.button("Pass").click()
    app.wait_for_turn()
    expect(page.locator("#round-dialog")).to_be_visible()
    expect(page.locator("#round-reason")).to_have_text(
        re.compile(r"^The pool ran dry and every player had a last turn; (you|Computer 1) had")
    )
    page.locator("#round-dialog").get_by_role("button", name="New Game").click()
