"""Starting over: a new game in the middle of a match asks first (never when the match
is over), and a Draw over tiles being arranged says that they were put back. The start
screen says what each computer level plays like."""

from __future__ import annotations

import re

import game_twin as twin
from game_page import hold_engine, unhold_engine
from playwright.sync_api import expect
from test_play import LEVELS, computer_play_deal, opening_deal


def test_a_new_game_mid_match_asks_before_abandoning_it(app):
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    # Changing one's mind costs nothing: the game is still there.
    app.to_start_screen()
    app.button("Start Game").click()
    dialog = page.get_by_role("dialog", name="Abandon this game?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("It is round 1")
    dialog.get_by_role("button", name="Keep Playing").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")
    assert app.rack_ids() == rack
    # Abandoning for real starts the new game.
    app.to_start_screen()
    more = page.locator("details.more", has_text="More options").locator("summary")
    more.click()
    page.get_by_label("Deal number").fill(str(seed + 1000))
    more.click()
    app.button("Start Game").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Abandon and Start").click()
    app.wait_for_turn()
    assert page.evaluate("window.__rummikub.state.view.round") == 1
    assert sorted(app.rack_ids()) != sorted(rack)


def test_no_question_once_the_match_is_over(app):
    page = app.page
    seed, _ = opening_deal()
    # Another deal than test_resign.py's: statistics count a round with the same deal
    # and the same scores once.
    app.new_game(seed + 1000, LEVELS, target=0)
    app.button("Resign").click()
    resign = page.get_by_role("dialog", name="Resign this round?")
    resign.get_by_role("button", name="Resign").click()
    over = page.get_by_role("dialog", name="Game Over")
    expect(over).to_be_visible()
    over.get_by_role("button", name="New Game").click()
    app.button("Start Game").click()
    expect(page.get_by_role("dialog", name="Abandon this game?")).to_be_hidden()
    app.wait_for_turn()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")


def test_draw_over_an_arrangement_says_it_was_put_back(app):
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    app.tap_new_set(sets[0][:2])
    app.button("Draw").click()
    expect(page.locator("#message")).to_contain_text("Your arrangement was put back; you drew")
    app.wait_for_turn()
    # Each tile back at its place on the rack (they went to its end), the drawn one after.
    assert app.rack_ids()[: len(rack)] == rack and len(app.rack_ids()) == len(rack) + 1
    # A plain draw says only what was drawn.
    app.button("Draw").click()
    expect(page.locator("#message")).to_contain_text("You drew")
    expect(page.locator("#message")).not_to_contain_text("put back")
    app.wait_for_turn()


def test_back_to_game_is_in_view_and_escape_goes_back(app):
    """New Game mid-match at 1280x800: the way back to the game is at the top of the
    start screen, in view without scrolling (it was under the form, at y 866), and
    Escape goes back too."""
    page = app.page
    seed, _ = opening_deal()
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        app.new_game(seed, LEVELS)
        rack = app.rack_ids()
        page.locator("#menu-new-game").click()
        back = app.button("Back to Game")
        expect(back).to_be_visible()
        box = back.bounding_box()
        assert box["y"] + box["height"] <= 800, box
        assert page.evaluate("document.querySelector('main').scrollTop") == 0
        expect(page.locator("#resume-where")).to_contain_text("round 1")
        back.click()
        expect(page.locator("body")).to_have_attribute("data-turn", "mine")
        # Escape on the start screen goes back to the game, as the button does.
        page.locator("#menu-new-game").click()
        expect(page.get_by_role("heading", name="New Game")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#game-screen")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-turn", "mine")
        assert app.rack_ids() == rack
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})


def test_the_old_game_cannot_be_resumed_while_a_new_one_starts(app):
    """Between Start Game and the new game's deal the view is still the old game's: the
    resume bar is hidden, and Escape does not bring the old game back (it did, and its
    turn clock started mid-way through starting the new game)."""
    page = app.page
    seed, _ = opening_deal()
    try:
        app.new_game(seed, LEVELS, clock=60)
        app.to_start_screen()
        expect(app.button("Back to Game")).to_be_visible()
        hold_engine(page, "new_game")  # the new game being dealt
        page.get_by_label("Turn clock").select_option("")
        app.button("Start Game").click()
        app.abandon_if_asked()
        page.wait_for_function("window.__held")
        expect(page.locator("#resume-bar")).to_be_hidden()
        page.keyboard.press("Escape")
        page.wait_for_timeout(300)
        expect(page.get_by_role("heading", name="New Game")).to_be_visible()
        expect(page.locator("#game-screen")).to_be_hidden()
        assert page.evaluate("window.__rummikub.state.clock") is None
        page.evaluate("window.__release()")
        app.wait_for_turn()
        expect(page.locator("#game-screen")).to_be_visible()
        expect(page.locator("#clock")).to_be_hidden()  # the new game has no clock
    finally:
        unhold_engine(page)


def test_back_in_the_game_the_focus_is_on_the_rack(app):
    """Back to Game and Escape hide the start screen and the control that was focused
    there: the focus goes to the rack's first tile (it fell to the page's body)."""
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    first = app.rack.locator(".tile").first
    page.locator("#menu-new-game").click()
    app.button("Back to Game").click()
    expect(page.locator("#game-screen")).to_be_visible()
    expect(first).to_be_focused()
    page.locator("#menu-new-game").click()
    page.get_by_label("Target score").focus()
    page.keyboard.press("Escape")
    expect(page.locator("#game-screen")).to_be_visible()
    expect(first).to_be_focused()


def test_each_computer_level_says_what_it_does(app):
    # The four levels were names only: nothing said what "Medium" or "Expert" plays like.
    page = app.page
    app.to_start_screen()
    page.get_by_label("Computer opponents").select_option("2")
    first, second = (page.get_by_label(f"Computer {i} level") for i in (1, 2))
    first.select_option("medium")
    expect(first).to_have_accessible_description(re.compile(r"^Adds to sets on the table"))
    first.select_option("easy")
    expect(first).to_have_accessible_description(re.compile(r"now and then it misses a play"))
    second.select_option("expert")
    expect(second).to_have_accessible_description(re.compile(r"^Plays as Hard does"))
    expect(page.locator("#level1-about")).to_be_visible()  # seen as well as read out
    second.select_option("hard")
    expect(page.locator("#level1-about")).to_have_text(re.compile(r"^Finds the play that lays"))
    expect(first).to_have_accessible_description(re.compile(r"misses a play"))  # its own


def test_a_new_game_during_a_computers_reveal_shows_its_own_tiles(app):
    """A new game started while a computer's play is coming onto the table tile by tile:
    the tiles still to come are the old game's, and none of the new game's is drawn as
    one of them (a tile of the new deal with the same id stayed hidden)."""
    page = app.page
    seed, turn, _ = computer_play_deal()
    # The play's tiles in the order they come onto the table (computers.js): the last
    # comes last.
    last = list(dict.fromkeys([s["tile"] for s in turn["steps"]] + turn["placed"]))[-1]
    # A new deal where the player starts, holding that tile.
    new_seed = next(
        s
        for s in range(1, 600)
        if (view := twin.new_game(s, LEVELS))["current"] == view["me"]
        and last in {t["id"] for t in view["rack"]}
    )
    app.new_game(seed, LEVELS, delay=1600)
    app.button("Draw").click()
    # The new game's settings made while the computer thinks, so that it starts mid-reveal.
    app.to_start_screen()
    more = page.locator("details.more", has_text="More options")
    more.locator("summary").click()
    page.get_by_label("Deal number").fill(str(new_seed))
    more.locator("summary").click()
    page.wait_for_function("window.__rummikub.state.pending.size > 0", timeout=30_000)
    app.button("Start Game").click()
    dialog = page.get_by_role("dialog", name="Abandon this game?")
    expect(dialog).to_be_visible()
    # Still revealing: the last tile still to come.
    assert page.evaluate(f"window.__rummikub.state.pending.has({last})")
    dialog.get_by_role("button", name="Abandon and Start").click()
    app.wait_for_turn()
    assert page.evaluate("window.__rummikub.state.pending.size") == 0
    app.tap_new_set([last])
    laid = app.table.locator(f'.tile[data-id="{last}"]')
    expect(laid).to_be_visible()
    expect(laid).not_to_have_class(re.compile(r"\bpending\b"))
