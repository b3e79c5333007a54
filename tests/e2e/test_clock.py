"""The turn clock, short: on expiry an untouched turn draws, a legal arrangement is
played, and an illegal one snaps back with three penalty tiles; each is shown. A reload
mid-turn keeps the deadline: the countdown goes on, or time is up if it passed."""

import re
import time

import game_twin as twin
from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal
from test_saved_game import reload

SECONDS = 5  # the engine's shortest clock
WAIT_MS = (SECONDS + 10) * 1000


def with_short_clock(app, site):
    page = app.page
    if f"clock={SECONDS}" not in page.url:
        page.goto(f"{site}?clock={SECONDS}")
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS, clock=SECONDS)
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^0:0[1-5]$"))
    return seed, sets


def test_clock_untouched_turn_draws(app, site):
    with_short_clock(app, site)
    rack = app.rack_ids()
    message = app.page.locator("#message")
    expect(message).to_contain_text("Time ran out: you drew", timeout=WAIT_MS)
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(rack) + 1


def test_clock_plays_a_legal_arrangement(app, site):
    _, sets = with_short_clock(app, site)
    app.tap_new_set(sets[0])
    for tiles in sets[1:]:
        app.tap_new_set(tiles)
    expect(app.page.locator("#message")).to_contain_text("so it was played", timeout=WAIT_MS)
    app.wait_for_turn()
    played = {i for s in sets for i in s}
    assert not played & set(app.rack_ids())
    assert played <= {i for row in app.table_ids() for i in row}


def test_a_drag_held_past_the_end_of_the_turn_is_dropped(app, site):
    """A rack tile still held when time runs out is let go of at once, the pointer not
    moved. It used to be carried through the computer's turn and dropped into the
    player's next one; then to float under the still pointer, its place on the rack
    dimmed, into the next turn, until the pointer moved (QA pass 29)."""
    with_short_clock(app, site)
    page = app.page
    body = page.locator("body")
    held = app.rack_ids()[0]
    box = app.tile(held).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] - 60, steps=4)
    expect(body).to_have_class(re.compile("is-dragging"))
    expect(page.locator("#drag-layer .drag-ghost")).to_have_count(1)
    expect(page.locator("#message")).to_contain_text("Time ran out: you drew", timeout=WAIT_MS)
    expect(body).not_to_have_class(re.compile("is-dragging"))
    expect(page.locator("#drag-layer .drag-ghost")).to_have_count(0)
    expect(page.locator(".tile.dragging")).to_have_count(0)
    app.wait_for_turn()
    # Over "+ New Set" on the player's next turn, then the button up: nothing moves, and
    # the tile is not picked up either (the button's click is no tap).
    target = app.button("+ New Set").bounding_box()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=4)
    page.mouse.up()
    assert app.table_ids() == []
    assert page.evaluate("window.__rummikub.state.selected") is None
    assert held in app.rack_ids()


def test_clock_snaps_back_an_illegal_arrangement_with_penalty(app, site):
    with_short_clock(app, site)
    rack = app.rack_ids()
    app.tap_new_set(rack[:2])
    expect(app.page.locator("#message")).to_contain_text(
        "snapped back and you drew 3 penalty tiles", timeout=WAIT_MS
    )
    app.wait_for_turn()
    now = app.rack_ids()
    # Each tile laid back at its place on the rack, as Reset Turn puts it (issue 42: they
    # went to the rack's end), the penalty tiles after them.
    assert now[: len(rack)] == rack and len(now) == len(rack) + 3
    # The three are named, as a tile drawn is.
    names = [app.tile(i).get_attribute("aria-label") for i in now if i not in rack]
    names = ["a joker" if n == "joker" else n for n in names]
    expect(app.page.locator("#message")).to_contain_text(f"penalty tiles: {', '.join(names)}.")
    assert all(i not in {t for row in app.table_ids() for t in row} for i in rack[:2])


def test_clock_snaps_back_with_no_penalty_when_the_pool_is_empty(app):
    """With the pool empty an illegal arrangement still snaps back, but there is nothing
    to draw: the message says so instead of "you drew 0 penalty tiles"."""
    app = app.load_saved(twin.saved_game({"turn_seconds": SECONDS}, empty_pool=True))
    page = app.page
    expect(page.locator("#pool-count")).to_have_text("0")
    rack = app.rack_ids()
    app.tap_new_set(rack[:2])
    message = page.locator("#message")
    expect(message).to_contain_text("so the table snapped back", timeout=WAIT_MS)
    expect(message).to_contain_text("(the pool is empty, so there was no penalty).")
    expect(message).not_to_contain_text("0 penalty tiles")
    expect(page.locator("#log")).to_contain_text(
        "the table snapped back and the pool is empty, so there was no penalty"
    )
    app.wait_for_turn()
    assert sorted(app.rack_ids()) == sorted(rack)
    assert app.table_ids() == []


def seconds_left(page) -> int:
    minutes, seconds = page.get_by_role("timer").text_content().split(":")
    return int(minutes) * 60 + int(seconds)


def test_clock_keeps_counting_down_across_a_reload(app):
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, clock=30)
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^0:(30|29)$"))
    time.sleep(2.5)
    reload(page)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    expect(page.get_by_role("timer")).to_be_visible()
    assert seconds_left(page) <= 28


def test_clock_whose_deadline_passed_before_a_reload_is_up_at_once(app):
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, clock=30)
    rack = app.rack_ids()
    # As if the page had stayed closed past the deadline.
    page.evaluate(
        """() => {
          const key = "rummikub.savedGame.clock";
          const kept = JSON.parse(localStorage.getItem(key));
          localStorage.setItem(key, JSON.stringify({ ...kept, deadline: Date.now() - 1000 }));
        }"""
    )
    reload(page)
    app = GamePage(page)
    expect(page.locator("#message")).to_contain_text("Time ran out: you drew", timeout=WAIT_MS)
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(rack) + 1
