"""The turn clock stands still while a dialog the player opened is up (How To Play, from
its button or the variants, Resign's question) and while they are on the start screen
(New Game, their statistics), then runs on with the time it had, a reload included.
Issue 42: How To Play open on a 30 s clock, the turn timed out under it ("Time ran out:
you drew black 10")."""

import re

import pytest
from game_page import GamePage
from playwright.sync_api import expect
from test_clock import SECONDS, WAIT_MS, seconds_left, with_short_clock
from test_play import LEVELS, opening_deal
from test_saved_game import reload

PAST_THE_CLOCK_MS = (SECONDS + 2) * 1000  # longer than the whole clock


def held_past_the_clock(app, stand_still, shut) -> None:
    """``stand_still`` opens what stands the clock still; once the clock's whole time has
    gone by, nothing timed out; ``shut`` closes it; then the clock runs on from the time it
    had (not a second more) until the turn times out."""
    page = app.page
    before = seconds_left(page)
    stand_still()
    page.wait_for_timeout(PAST_THE_CLOCK_MS)
    expect(page.locator("#message")).not_to_contain_text("Time ran out")
    shut()
    expect(page.get_by_role("timer")).to_be_visible()
    assert 0 < seconds_left(page) <= before
    assert page.evaluate("document.body.dataset.turn") == "mine"
    expect(page.locator("#message")).to_contain_text("Time ran out: you drew", timeout=WAIT_MS)


@pytest.mark.parametrize(
    ("opener", "dialog", "shut"),
    [("How To Play", "How To Play", "Close"), ("Resign", "Resign this round?", "Keep Playing")],
)
def test_a_dialog_the_player_opened_stands_the_clock_still(app, site, opener, dialog, shut):
    with_short_clock(app, site)
    box = app.page.get_by_role("dialog", name=dialog)
    held_past_the_clock(
        app,
        lambda: (app.button(opener).click(), expect(box).to_be_visible()),
        lambda: box.get_by_role("button", name=shut).click(),
    )


def test_the_start_screen_stands_the_clock_still(app, site):
    """New Game during a turn (where the statistics are), then Back to Game."""
    with_short_clock(app, site)
    held_past_the_clock(app, app.to_start_screen, lambda: app.button("Back to Game").click())


def test_a_reload_under_a_dialog_keeps_the_time_the_clock_had(app):
    """The time kept in the browser while the clock stands still is the time it had, not
    a deadline going by: a reload with How To Play up (and a while after) gives it back."""
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, clock=30)
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^0:(30|29)$"))
    app.button("How To Play").click()
    expect(page.get_by_role("dialog", name="How To Play")).to_be_visible()
    before = seconds_left(page)
    page.wait_for_timeout(PAST_THE_CLOCK_MS)
    reload(page)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    # A second or two for the reload itself: the clock runs from when the game is back.
    assert before - 2 <= seconds_left(page) <= before
