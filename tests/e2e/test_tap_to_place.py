"""Tap-to-place on a touch phone, with a tile held: a tap on a tile of a set puts the
held tile beside it, on the side tapped (the insert markers between tiles are 12 px
wide there; a tap just off one used to pick up the tapped tile instead, dropping the
one held). A tap on a rack tile still picks that one up instead, a tap on the held tile
lets go, and Undo and Reset Turn put things back."""

from __future__ import annotations

import re

import pytest
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def tap_at(app: GamePage, tile_id: int, fraction: float) -> None:
    """Tap a tile `fraction` of its width from its left edge, mid-height."""
    box = app.tile(tile_id).bounding_box()
    app.page.touchscreen.tap(box["x"] + box["width"] * fraction, box["y"] + box["height"] / 2)


def held(app: GamePage) -> list[int]:
    return [
        int(i)
        for i in app.page.locator('.tile[aria-pressed="true"]').evaluate_all(
            "ts => ts.map(t => t.dataset.id)"
        )
    ]


def lay_first_set(app: GamePage) -> list[int]:
    """A new game on the opening deal, its first set laid by taps as a new set."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.tap_new_set(sets[0])
    return sets[0]


def test_a_tap_on_a_set_tile_puts_the_held_tile_beside_it(phone):
    app = phone
    first = lay_first_set(app)
    rack = app.rack_ids()
    moving, other = rack[0], rack[1]
    app.tile(moving).tap()
    expect(app.tile(moving)).to_have_attribute("aria-pressed", "true")
    # A tap on the left quarter of the set's second tile: the held tile goes before it.
    tap_at(app, first[1], 0.25)
    expect(app.set_box(0).locator(".tile")).to_have_count(len(first) + 1)
    assert app.table_ids()[0] == [first[0], moving, *first[1:]]
    assert held(app) == []
    # Undo; then the right quarter of the set's last tile: the held tile goes after it.
    app.button("Undo").tap()
    assert app.table_ids()[0] == first
    app.tile(moving).tap()
    tap_at(app, first[-1], 0.75)
    expect(app.set_box(0).locator(".tile")).to_have_count(len(first) + 1)
    assert app.table_ids()[0] == [*first, moving]
    # Holding a table tile, a tap on a rack tile picks that one up instead.
    app.tile(moving).tap()
    assert held(app) == [moving]
    app.tile(other).tap()
    assert held(app) == [other]
    assert app.table_ids()[0] == [*first, moving]
    # A tap on the held tile lets it go; nothing moves.
    app.tile(other).tap()
    assert held(app) == []
    # The held table tile, tapped again, is let go too (not put beside itself).
    app.tile(moving).tap()
    tap_at(app, moving, 0.2)
    assert held(app) == []
    assert app.table_ids()[0] == [*first, moving]
    # Held, moved inside its own set by a tap on the set's first tile (left half).
    app.tile(moving).tap()
    tap_at(app, first[0], 0.3)
    expect(app.set_box(0).locator(".tile").first).to_have_attribute("data-id", str(moving))
    assert app.table_ids()[0] == [moving, *first]
    app.button("Reset Turn").tap()
    assert app.table_ids() == []
    assert sorted(app.rack_ids()) == sorted([*rack, *first])


def test_a_held_tile_tapped_back_to_its_own_spot_is_let_go(phone):
    # QA pass 31: a tap on the near half of a neighbour puts the held tile where it is;
    # that changed nothing and kept it held, so the next tap on a tile (meant to pick
    # that one up) moved the held tile beside it instead.
    app = phone
    first = lay_first_set(app)
    app.tile(first[0]).tap()
    assert held(app) == [first[0]]
    tap_at(app, first[1], 0.25)  # before first[1]: first[0]'s own spot
    assert held(app) == []
    assert app.table_ids()[0] == first
    app.tile(first[2]).tap()  # picked up, not a place for first[0]
    assert held(app) == [first[2]]
    assert app.table_ids()[0] == first
    tap_at(app, first[1], 0.75)  # after first[1]: first[2]'s own spot
    assert held(app) == []
    assert app.table_ids()[0] == first
    # A rack tile held and a tap on the rack's free space: back at its place, let go.
    rack = app.rack_ids()
    app.tile(rack[0]).tap()
    box = app.rack.bounding_box()
    app.page.touchscreen.tap(box["x"] + box["width"] - 8, box["y"] + box["height"] - 8)
    assert held(app) == []
    assert app.rack_ids() == rack
    app.button("Reset Turn").tap()
    assert app.table_ids() == []


@pytest.mark.parametrize("size", [(390, 844), (390, 664), (375, 548)])
def test_buttons_take_a_finger_sized_tap(phone, size):
    app, page = phone, phone.page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        seed, _ = opening_deal()
        app.new_game(seed, LEVELS)
        app.tile(app.rack_ids()[0]).tap()  # "Return to rack" and the rest enabled or not
        expect(page.locator("#message")).not_to_be_empty()
        buttons = app.tap_reach()
        names = {b["name"] for b in buttons}
        assert {"Confirm Play", "Undo", "Draw", "Resign", "Game log"} <= names, names
        small = [b for b in buttons if b["reach"] < 40 or b["width"] < 40]
        assert not small, small
    finally:
        page.set_viewport_size({"width": 390, "height": 844})


def test_a_tapped_button_keeps_no_hover_look(phone):
    """On a touch screen a button just tapped looks as it did before (a hover style used
    to stay on "+ New Set" after placing a tile, until the next tap elsewhere)."""
    app = phone
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    new_set = app.button("+ New Set")
    colour = "el => getComputedStyle(el).backgroundColor"
    resting = new_set.evaluate(colour)
    app.tile(sets[0][0]).tap()
    new_set.tap()
    expect(app.set_box(0).locator(".tile")).to_have_count(1)
    expect(new_set).not_to_have_class(re.compile(r"\barmed\b"))
    new_set.page.wait_for_timeout(400)  # the browser's hover after a tap comes a moment later
    assert new_set.evaluate(colour) == resting
    app.button("Reset Turn").tap()


def test_a_mouse_click_on_a_set_tile_picks_it_up(app):
    """With a mouse, the insert markers are easy to hit: holding a tile, a click on a tile
    of a set picks that tile up, as before tap-to-place beside a tile (touch only)."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    first = sets[0]
    app.tap_new_set(first)
    moving = app.rack_ids()[0]
    app.tile(moving).click()
    assert held(app) == [moving]
    box = app.tile(first[1]).bounding_box()
    app.page.mouse.click(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    expect(app.tile(first[1])).to_have_attribute("aria-pressed", "true")
    assert held(app) == [first[1]]
    assert app.table_ids()[0] == first
    assert moving in app.rack_ids()
    app.button("Reset Turn").click()
