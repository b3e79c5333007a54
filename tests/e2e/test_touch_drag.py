"""A tap straight after a touch drag still lands. A finger lifted while still moving made
the browser read the drag as a flick; the flick's end then took the next tap (no click
came, within about half a second), so a tile tapped at once was not picked up and a tap
on the pool did not draw (QA pass 15, in Chromium's touch emulation)."""

from __future__ import annotations

from game_page import GamePage
from playwright.sync_api import expect


def center(box: dict, fx: float = 0.5) -> tuple[float, float]:
    return box["x"] + box["width"] * fx, box["y"] + box["height"] / 2


def flick_drag(app: GamePage, source, target, fx: float = 0.5) -> None:
    """Drag with a finger and lift it while it still moves (no pause before touchEnd)."""
    page = app.page
    cdp = page.context.new_cdp_session(page)
    x0, y0 = center(source.bounding_box())
    x1, y1 = center(target.bounding_box(), fx)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x0, y0)
    for i in range(1, 11):
        touch("touchMove", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
        page.wait_for_timeout(16)
    touch("touchEnd", x1, y1)
    cdp.detach()


def test_a_tap_right_after_a_touch_drag_picks_up_the_tile(phone):
    page = phone.page
    phone.new_game(3, ["easy"])
    rack = phone.rack
    # A set of two 12s, made by tapping, then a third 12 dragged beside its last tile.
    rack.get_by_role("button", name="black 12", exact=True).tap()
    phone.button("+ New Set").tap()
    rack.get_by_role("button", name="red 12", exact=True).tap()
    last = phone.table.get_by_role("group").last.get_by_role("button").last
    x, y = center(last.bounding_box(), 0.85)
    page.touchscreen.tap(x, y)
    group = phone.table.get_by_role("group").last
    expect(group.get_by_role("button", name="red 12", exact=True)).to_have_count(1)
    flick_drag(phone, rack.get_by_role("button", name="yellow 12", exact=True), last, fx=0.85)
    expect(group.get_by_role("button", name="yellow 12", exact=True)).to_have_count(1)
    # At once (the drag's own 16 ms steps apart): the next tap picks up a tile.
    tile = rack.get_by_role("button", name="black 11", exact=True)
    tile.tap()
    expect(tile).to_have_attribute("aria-pressed", "true")
    tile.tap()
    expect(tile).to_have_attribute("aria-pressed", "false")
    phone.button("Reset Turn").tap()
