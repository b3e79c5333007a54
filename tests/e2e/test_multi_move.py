"""Moving several tiles at once: tiles chosen with Ctrl or Shift (a mouse), a long press
and taps (a finger) or Space (the keyboard), or a whole set taken by its handle, go down
together in one move: one drag, one tap, one key. One Undo takes the move back, the
engine checks the arrangement once for it, and only the engine judges the result (a
group move it refuses on Confirm Play changes nothing). Splitting a run used to take 5-8
single-tile moves."""

from __future__ import annotations

import functools
import json

import game_twin as twin
from game_page import GamePage, unhold_engine
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal
from test_split import long_run
from test_touch_drag import flick_drag

from py_engine import bridge

# Counts the page's engine calls of "check" (the live check) in window.__checks.
COUNT_CHECKS_JS = """() => {
  const engine = window.__rummikub.engine;
  const call = engine.call.bind(engine);
  window.__checks = 0;
  engine.call = (request, options) => {
    if (request.cmd === 'check') window.__checks += 1;
    return call(request, options);
  };
}"""


def pressed(app: GamePage) -> list[int]:
    """The tiles held (picked up or chosen), in the page's order."""
    return app.page.evaluate(
        "[...document.querySelectorAll('.tile[aria-pressed=true]')].map(t => Number(t.dataset.id))"
    )


def names(app: GamePage, ids: list[int]) -> list[str]:
    return [app.tile(i).get_attribute("aria-label") for i in ids]


def news(app: GamePage):
    return app.page.locator("#move-news")


def count_checks(app: GamePage) -> None:
    app.page.evaluate(COUNT_CHECKS_JS)


def checks_so_far(app: GamePage) -> int:
    """The live checks asked for since count_checks, once the last one is answered."""
    app.page.wait_for_function("() => !window.__rummikub.state.busy")
    return app.page.evaluate("window.__checks")


def in_rack_order(rack: list[int], ids: list[int]) -> list[int]:
    return sorted(ids, key=rack.index)


@functools.cache
def refused_move() -> tuple[str, int, list[int], int, str]:
    """The long run's saved game (test_split.long_run), and a set ``j`` that the run's
    last three tiles, added at its end, leave not valid in the engine's words: (save,
    run's set, run, j, the engine's reason for set j)."""
    save, k, run = long_run()
    view = twin.call(cmd="load", save=save)["view"]
    table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
    for j, row in enumerate(table):
        if j == k:
            continue
        trial = [r[:] for r in table]
        trial[k] = run[:-3]
        trial[j] = [*row, *run[-3:]]
        answer = twin.call(cmd="check", table=trial)
        problems = [e["message"] for e in answer["errors"] if e["set"] == j]
        if problems and not [e for e in answer["errors"] if e["set"] == k]:
            return save, k, run, j, problems[0]
    raise AssertionError("no set that the run's last three tiles leave not valid")


def test_rack_tiles_chosen_with_ctrl_go_down_as_a_new_set_in_one_drag(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    tiles = in_rack_order(rack, sets[0])
    said = names(app, tiles)
    count_checks(app)
    for tile in tiles:
        app.tile(tile).click(modifiers=["Control"])
    assert pressed(app) == tiles
    expect(news(app)).to_have_text(f"{len(tiles)} tiles selected: {', '.join(said)}.")
    # A Ctrl-click on a chosen tile takes it out, and another puts it back.
    app.tile(tiles[0]).click(modifiers=["Control"])
    assert pressed(app) == tiles[1:]
    app.tile(tiles[0]).click(modifiers=["Control"])
    # A plain click on another tile picks that one up alone; Ctrl-clicks choose again.
    other = next(t for t in rack if t not in tiles)
    app.tile(other).click()
    assert pressed(app) == [other]
    app.tile(other).click()
    for tile in tiles:
        app.tile(tile).click(modifiers=["Control"])
    assert pressed(app) == tiles
    # One drag of any of them takes them all, in the order they stood on the rack.
    app.drag(app.tile(tiles[-1]), app.button("+ New Set"))
    assert app.table_ids() == [tiles]
    assert app.rack_ids() == [t for t in rack if t not in tiles]
    assert pressed(app) == []
    value = twin.value(twin.new_game(seed, LEVELS)["rack"], tiles)
    kind = twin.call(cmd="check", table=[tiles])["sets"][0]["kind"]
    expect(app.page.locator("#turn-info")).to_contain_text(f"Opening: {value} of 30")
    expect(app.set_box(0).locator(".set-note")).to_have_text(f"{kind} · {value}")
    n = len(tiles)
    expect(news(app)).to_have_text(
        f"{', '.join(said)} to Set 1, places 1 to {n} of {n}: {kind}, {value} points."
        f" Opening: {value} of 30."
    )
    assert checks_so_far(app) == 1
    unhold_engine(app.page)
    # One Undo puts the three back, each at its own place on the rack.
    app.button("Undo").click()
    assert app.table_ids() == []
    assert app.rack_ids() == rack
    expect(app.button("Undo")).to_be_disabled()
    at = [rack.index(t) + 1 for t in tiles]  # side by side: "places 2 to 4"
    places = f"{at[0]} to {at[-1]}" if at[-1] - at[0] == n - 1 else ", ".join(map(str, at))
    expect(news(app)).to_have_text(
        f"Undone: {', '.join(said)} back to your rack, places {places} of {len(rack)}."
        " Opening: 0 of 30."
    )


def test_part_of_a_table_run_moves_to_another_set_and_the_engine_refuses_it(app):
    """Ctrl-click, then Shift-click, chooses the run's last three tiles; one drag puts
    them at the end of another set. Confirm Play sends it and the engine refuses it, in
    its own words: nothing changes, and Reset Turn brings the table back."""
    save, k, run, j, reason = refused_move()
    app = app.load_saved(save)
    before = app.table_ids()
    rack = app.rack_ids()
    pool = app.page.locator("#pool-count").text_content()
    log = app.page.locator("#log li").last.text_content()
    count_checks(app)
    app.tile(run[-3]).click(modifiers=["Control"])
    app.tile(run[-1]).click(modifiers=["Shift"])
    assert pressed(app) == run[-3:]
    three = names(app, run[-3:])
    expect(news(app)).to_have_text(f"3 tiles selected: {', '.join(three)}.")
    # Dragged to the rack they are refused, and said why: they were on the table.
    app.drag(app.tile(run[-2]), app.rack)
    expect(app.page.locator("#message")).to_have_text(
        f"{', '.join(three).capitalize()} stay on the table: they were there when your turn"
        " began, and only tiles you laid this turn can go back to your rack."
    )
    assert app.table_ids() == before
    assert pressed(app) == run[-3:]
    app.drag(app.tile(run[-2]), app.set_box(j).locator(".tile").last, "right")
    moved = [r[:] for r in before]
    moved[k] = run[:-3]
    moved[j] = [*before[j], *run[-3:]]
    assert app.table_ids() == moved
    # The engine's verdict, under the set, and one check for the whole move.
    expect(app.set_box(j).locator(".set-note")).to_have_text(reason.split(": ", 1)[-1])
    assert checks_so_far(app) == 1
    unhold_engine(app.page)
    app.button("Confirm Play").click()
    bridge.call(json.dumps({"cmd": "load", "save": save}))
    refusal = json.loads(bridge.call(json.dumps({"cmd": "play", "table": moved})))["error"]
    message = app.page.locator("#message")
    expect(message).to_contain_text("Not played")
    expect(message).to_contain_text(refusal[1:])
    # Nothing changed: the same turn, rack, pool and log; the arrangement kept on show.
    expect(app.page.locator("body")).to_have_attribute("data-turn", "mine")
    assert app.rack_ids() == rack
    assert app.table_ids() == moved
    expect(app.page.locator("#pool-count")).to_have_text(pool)
    expect(app.page.locator("#log li").last).to_have_text(log)
    app.button("Reset Turn").click()
    assert app.table_ids() == before


def test_a_whole_set_dragged_by_its_handle(app):
    save, k, run = long_run()
    app = app.load_saved(save)
    before = app.table_ids()
    handle = app.button(f"Set {k + 1}: move whole set")
    expect(handle).to_be_visible()
    # A click on the handle chooses the whole set; another lets it go.
    handle.click()
    assert pressed(app) == run
    expect(handle).to_have_attribute("aria-pressed", "true")
    handle.click()
    assert pressed(app) == []
    # Dragged onto "+ New Set", the set goes to the end of the table: one move.
    count_checks(app)
    app.drag(handle, app.button("+ New Set"))
    assert app.table_ids() == [*before[:k], *before[k + 1 :], run]
    assert checks_so_far(app) == 1
    unhold_engine(app.page)
    app.button("Undo").click()
    assert app.table_ids() == before
    expect(app.button("Undo")).to_be_disabled()
    # Dragged onto another set's first tile (its left half), it goes in before it.
    j = 0 if k else 1
    app.drag(handle, app.set_box(j).locator(".tile").first, "left")
    merged = [r[:] for r in before]
    merged[j] = [*run, *before[j]]
    del merged[k]
    assert app.table_ids() == merged
    app.button("Undo").click()
    assert app.table_ids() == before


def test_keyboard_space_chooses_and_the_move_keys_move_them_together(app):
    """Space adds the focused tile to the tiles chosen (and takes it out again); N lays
    them as a new set, Shift+Space on a table tile chooses its whole set, R returns it to
    the rack, Escape lets go: each a single move, read out."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    rack = app.rack_ids()
    tiles = in_rack_order(rack, sets[0])
    said = names(app, tiles)
    for n, tile in enumerate(tiles, start=1):
        app.keyboard_to(app.tile(tile))
        page.keyboard.press("Space")
        assert pressed(app) == tiles[:n]
    expect(news(app)).to_have_text(f"{len(tiles)} tiles selected: {', '.join(said)}.")
    # Space again takes the focused tile out, and puts it back.
    page.keyboard.press("Space")
    assert pressed(app) == tiles[:-1]
    expect(news(app)).to_have_text(f"{len(tiles) - 1} tiles selected: {', '.join(said[:-1])}.")
    page.keyboard.press("Space")
    page.keyboard.press("n")
    assert app.table_ids() == [tiles]
    expect(app.tile(tiles[0])).to_be_focused()
    # Shift+Space on a tile of the set chooses all of it; Escape lets go.
    page.keyboard.press("Shift+Space")
    assert pressed(app) == tiles
    expect(app.button("Set 1: move whole set")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    assert pressed(app) == []
    expect(news(app)).to_have_text("Tiles let go.")
    # Chosen again, R takes the whole set back to the rack, each tile to its place.
    page.keyboard.press("Shift+Space")
    page.keyboard.press("r")
    assert app.table_ids() == []
    assert app.rack_ids() == rack
    page.keyboard.press("u")
    assert app.table_ids() == [tiles]


def touch_hold(app: GamePage, tile: int) -> None:
    """A finger held on ``tile`` until the page takes it as a long press (the tile shows
    as held), then lifted."""
    cdp = app.page.context.new_cdp_session(app.page)
    box = app.tile(tile).bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "true")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_phone_long_press_then_taps_choose_tiles_that_go_down_together(phone):
    seed, sets = opening_deal()
    app = phone
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    tiles = in_rack_order(rack, sets[0])
    # A long press chooses the first; then each tap on a tile adds it (or takes it out).
    touch_hold(app, tiles[0])
    assert pressed(app) == tiles[:1]
    for tile in tiles[1:]:
        app.tile(tile).tap()
    assert pressed(app) == tiles
    app.tile(tiles[1]).tap()
    assert pressed(app) == [tiles[0], *tiles[2:]]
    app.tile(tiles[1]).tap()
    # One tap on "+ New Set" lays them all.
    app.button("+ New Set").tap()
    assert app.table_ids() == [tiles]
    assert pressed(app) == []
    # A tap on the set's handle chooses it whole; "Return to rack" takes it back in one move.
    app.button("Set 1: move whole set").tap()
    assert pressed(app) == tiles
    app.button("Return to rack").tap()
    assert app.table_ids() == []
    assert app.rack_ids() == rack
    app.button("Undo").tap()
    assert app.table_ids() == [tiles]
    # A finger's drag of the handle takes the whole set back to the rack, side by side.
    flick_drag(app, app.button("Set 1: move whole set"), app.tile(rack[0]), fx=0.1)
    assert app.table_ids() == []
    assert app.rack_ids() == [*tiles, *(t for t in rack if t not in tiles)]
    app.button("Undo").tap()
    assert app.table_ids() == [tiles]
    app.button("Reset Turn").tap()
    assert app.rack_ids() == rack
    width = app.page.evaluate("document.documentElement.clientWidth")
    assert app.page.evaluate("document.documentElement.scrollWidth") <= width


def test_how_to_play_says_how_to_move_several_tiles(app):
    app.new_game(1, LEVELS)
    app.button("How To Play").click()
    dialog = app.page.get_by_role("dialog", name="How To Play")
    expect(dialog).to_contain_text("To move several tiles at once, choose them first")
    expect(dialog).to_contain_text("A set's number is its handle")
    expect(dialog).to_contain_text("Space adds a tile to the ones you move together")
    dialog.get_by_role("button", name="Close").click()
