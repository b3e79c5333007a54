"""The keyboard focus never falls to the page when the control holding it goes away.

A button pressed from the keyboard that is then disabled or hidden (Confirm Play and Draw
while the computers play, Reset Turn, the last Undo, Hint, the last Next Step, New
Game, Next Round) used to leave the focus on <body>: a screen reader lost its place and Tab
started again from the top of the page."""

from __future__ import annotations

import re

from conftest import BOOT_TIMEOUT_MS
from game_page import watch, watched
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

# Where the focus is: "body", "rack" (a rack tile), "table", or the element's id.
WHERE_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.closest("#rack")) return "rack";
  if (a.closest("#sets")) return "table";
  return a.id || a.tagName;
}"""


def where(page) -> str:
    return page.evaluate(WHERE_JS)


def press(app, name: str) -> None:
    """Press a button from the keyboard (focused, then Enter)."""
    app.button(name).focus()
    app.page.keyboard.press("Enter")


def test_confirm_play_and_draw_keep_the_focus_on_the_rack_while_the_computers_play(app):
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    for tiles in sets:
        app.tap_new_set(tiles)
    # Every change to the page from the press to the player's next turn: the focus is
    # never on the page itself.
    watch(page, "__where", f"() => window.__where.push(({WHERE_JS})())")
    press(app, "Confirm Play")
    app.wait_for_turn()
    seen = watched(page, "__where")
    assert seen and "body" not in seen, seen
    assert seen[-1] == "rack", seen
    watch(page, "__where", f"() => window.__where.push(({WHERE_JS})())")
    press(app, "Draw")
    app.wait_for_turn()
    seen = watched(page, "__where")
    assert seen and "body" not in seen, seen
    assert where(page) == "rack"


def test_a_refused_play_leaves_the_focus_on_confirm_play(app):
    """Confirm Play is disabled while the engine checks the play: the focus went on to
    the rack and stayed there when the play was refused, so a second Enter picked up a
    tile."""
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.tap_new_set(sets[0][:1])  # one tile alone: refused
    press(app, "Confirm Play")
    expect(page.locator("#message")).to_contain_text("Not played")
    expect(app.button("Confirm Play")).to_be_focused()
    app.button("Reset Turn").click()


def test_reset_turn_and_the_last_undo_leave_the_focus_on_the_rack(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.tap_new_set(sets[0])
    press(app, "Reset Turn")
    expect(app.button("Reset Turn")).to_be_disabled()
    assert where(app.page) == "rack"
    app.tap_new_set(sets[0][:1])
    press(app, "Undo")
    expect(app.button("Undo")).to_be_disabled()
    assert where(app.page) == "rack"


def test_hint_hands_the_focus_to_next_hint_step_and_the_last_step_to_confirm_play(app):
    """Next Step takes Hint's place while a hint is laid out: the focus goes with it
    (not to the rack), and after the last step to Confirm Play, Hint back in its place."""
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    press(app, "Hint")
    step = app.button("Next Step")
    expect(step).to_be_visible()
    expect(app.button("Hint")).to_be_hidden()
    expect(step).to_be_focused()
    for _ in range(20):
        if not step.is_visible():
            break
        step.focus()
        page.keyboard.press("Enter")
    expect(step).to_be_hidden()
    expect(app.button("Confirm Play")).to_be_enabled()
    expect(app.button("Confirm Play")).to_be_focused()
    expect(app.button("Hint")).to_be_visible()


def test_the_turns_tab_stop_follows_the_lit_action(app):
    """The turn's bar of buttons is one Tab stop. Issue 42: it stayed on Draw, where the
    player had last been in it, while Confirm Play was the lit action."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.tile(app.rack_ids()[0]).focus()
    app.tab_to_region(app.button("Draw"), back=True)
    expect(app.button("Draw")).to_be_focused()  # nothing laid: Confirm Play is off
    app.tab_to_region(app.rack)
    for tiles in sets:
        app.tap_new_set(tiles)
    expect(app.button("Confirm Play")).to_have_class(re.compile(r"\bprimary\b"))
    app.tile(app.rack_ids()[0]).focus()
    app.tab_to_region(app.button("Draw"), back=True)
    expect(app.button("Confirm Play")).to_be_focused()


def test_new_game_and_next_round_keep_the_focus(app):
    page = app.page
    # A deal of its own: the statistics count a round once (by its moves), and
    # test_resign resigns at once in opening_deal()'s deal and counts it.
    app.new_game(4242, LEVELS)
    # New Game in the top bar: the start screen's heading, not the page.
    page.locator("#menu-new-game").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#start-screen")).to_be_visible()
    expect(page.get_by_role("heading", name="New Game")).to_be_focused()
    app.button("Back to Game").click()
    expect(page.locator("#game-screen")).to_be_visible()
    # Next Round (after resigning this one): the new round starts on the rack.
    app.button("Resign").click()
    page.get_by_role("dialog", name="Resign this round?").get_by_role(
        "button", name="Resign"
    ).click()
    scores = page.get_by_role("dialog", name="Round Complete")
    next_round = scores.get_by_role("button", name="Next Round")
    expect(next_round).to_be_focused(timeout=60_000)
    watch(page, "__where", f"() => window.__where.push(({WHERE_JS})())")
    page.keyboard.press("Enter")
    # The scores close once the engine has dealt (wait_for_turn alone returned at once
    # while they were still open, and the focus was read on Next Round).
    expect(scores).to_be_hidden(timeout=60_000)
    app.wait_for_turn()
    seen = watched(page, "__where")
    assert "body" not in seen, seen
    assert where(page) == "rack"


def test_the_engine_line_is_not_rewritten_by_every_move(app):
    """ "Engine ready (2.7 s)" is a live region: it used to be replaced at every render,
    which some screen readers read out again each time."""
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    watch(
        page, "__boot", "() => window.__boot.push(document.getElementById('boot-text').firstChild)"
    )
    app.tap_new_set(sets[0])
    app.button("Reset Turn").click()
    nodes = page.evaluate(
        "(window.__watchers || []).splice(0).forEach((o) => o.disconnect()),"
        " new Set(window.__boot).size"
    )
    assert nodes == 1  # the same text node throughout


# Each tile copy that flies (render.js's flights), by tile id: whether it showed the
# focus ring, looked at a frame after it set off.
RINGS_JS = """() => {
  window.__rings = [];
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList?.contains('flyer')) continue;
      requestAnimationFrame(() => window.__rings.push({id: Number(n.dataset.flight),
        ring: n.classList.contains('focused') && getComputedStyle(n).outlineStyle === 'solid'}));
    }
  });
  observer.observe(document.body, {childList: true});
  (window.__watchers ||= []).push(observer);
}"""


def test_a_tile_moved_by_key_keeps_its_focus_ring_while_it_slides(app):
    """Picked up and moved by the arrow keys, a tile slides to its new place: its copy
    shows the focus ring (the tile itself is unseen while it slides, its ring with it,
    so for 220 ms nothing on the page had the focus), and the tile it passes does not."""
    app.new_game(7, ["easy"])
    page = app.page
    rack = app.rack_ids()
    app.tile(rack[0]).focus()
    page.keyboard.press("Enter")
    expect(app.tile(rack[0])).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)  # the picked-up tile has risen
    page.evaluate(RINGS_JS)
    page.keyboard.press("ArrowRight")
    assert app.rack_ids()[:2] == [rack[1], rack[0]]
    page.wait_for_function("() => window.__rings.length >= 2")
    rings = {r["id"]: r["ring"] for r in watched(page, "__rings")}
    assert rings == {rack[0]: True, rack[1]: False}, rings
    expect(page.locator(".flyer")).to_have_count(0)
    assert where(page) == "rack"
    assert page.evaluate("() => document.activeElement.dataset.id") == str(rack[0])


def test_a_reloaded_game_leaves_the_focus_where_the_browser_puts_it(app):
    """A page just loaded takes no focus of its own: after a reload the rack's first tile
    took it, and its ring, to a player with a mouse, looked like a tile picked up; so it
    did after a click on the felt while the computers played on (QA pass 26). Once the
    player has pressed a control, the turn starts on the rack again."""
    page = app.page
    app.new_game(5, LEVELS, delay=0)
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("Welcome back")
    page.wait_for_timeout(300)  # past the restored turn's last render
    assert page.evaluate("document.activeElement === document.body")
    assert page.locator(":focus-visible").count() == 0
    # Reloaded while three computers play (their turns on show 1.6 s), the felt clicked.
    app.new_game(5, ["easy", "easy", "easy"], delay=1600)
    saved = page.evaluate("localStorage.getItem('rummikub.savedGame')")
    app.button("Draw").click()
    # The computers' turns have begun, and the draw is saved: the turn is shown before
    # the save is written, so a reload between the two came back before the draw, on the
    # player's turn (on a loaded machine, in CI).
    expect(page.locator("#turn-info")).to_contain_text("Computer 1")
    page.wait_for_function(
        "saved => localStorage.getItem('rummikub.savedGame') !== saved", arg=saved
    )
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("body[data-turn=theirs]")).to_be_attached()
    box = app.table.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 10)
    app.wait_for_turn()
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement === document.body")
    assert page.locator(":focus-visible").count() == 0
    press(app, "Draw")
    app.wait_for_turn()
    expect(page.locator("#rack .tile:focus")).to_have_count(1)
