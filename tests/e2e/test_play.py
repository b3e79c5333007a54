"""Playing Rummikub through the page, as a person would: drag, tap, buttons, keys.

Each test starts a seeded game from the page's own start screen; a twin of the game in
CPython (same engine, same seed, same moves) tells the test what the rack holds and
which moves the engine accepts, so the test never re-implements a rule."""

from __future__ import annotations

import functools
import re

import game_twin as twin
from playwright.sync_api import expect

LEVELS = ["easy"]


@functools.cache
def opening_deal(levels: tuple[str, ...] = tuple(LEVELS)) -> tuple[int, list[list[int]]]:
    """A seed where the player starts (against ``levels``) and holds an opening of plain
    groups and runs."""
    for seed in range(1, 400):
        view = twin.new_game(seed, list(levels))
        if view["current"] != view["me"]:
            continue
        sets = twin.opening(view["rack"], view["threshold"])
        if sets and twin.call(cmd="check", table=sets)["ok"]:
            return seed, sets
    raise AssertionError("no seed with an opening found")


@functools.cache
def extension_deal() -> tuple[int, list[list[int]], int, int]:
    """A seed where the player opens, the computer answers, and then one rack tile
    extends a set on the table: (seed, opening, tile id, set index)."""
    for seed in range(1, 400):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        sets = twin.opening(view["rack"], view["threshold"])
        if not sets or not twin.call(cmd="check", table=sets)["ok"]:
            continue
        view = twin.computers(twin.call(cmd="play", table=sets)["view"])
        if view["round_over"]:
            continue
        table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
        for tile in view["rack"]:
            for k, row in enumerate(table):
                trial = [list(r) for r in table]
                trial[k] = [*row, tile["id"]]
                if twin.call(cmd="check", table=trial)["ok"]:
                    return seed, sets, tile["id"], k
    raise AssertionError("no seed with an extension found")


def test_opening_by_dragging(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack_before = app.rack_ids()
    expect(app.page.locator("#turn-info")).to_contain_text("Opening: 0 of 30")
    # The empty table says what that asks (a new player met "Opening: 0 of 30" unexplained).
    expect(app.table.locator(".empty-table")).to_have_text(
        "The table is empty. To open, lay sets from your rack worth 30 points or more in all."
    )
    for tiles in sets:
        app.drag_new_set(tiles)
    total = sum(twin.value(twin.new_game(seed, LEVELS)["rack"], s) for s in sets)
    expect(app.page.locator("#turn-info")).to_contain_text(f"Opening: {total} of 30")
    expect(app.table.locator(".set.invalid")).to_have_count(0)
    # The engine finds it a valid opening: Confirm Play looks like the thing to press.
    expect(app.button("Confirm Play")).to_have_class(re.compile(r"\bprimary\b"))
    app.button("Confirm Play").click()
    app.wait_for_turn()
    played = {i for s in sets for i in s}
    on_table = {i for s in app.table_ids() for i in s}
    assert played <= on_table
    assert not played & set(app.rack_ids())
    assert set(app.rack_ids()) >= set(rack_before) - played
    expect(app.page.locator("#log")).to_contain_text("You laid")
    expect(app.page.locator("#log")).to_contain_text("Computer 1")


def test_illegal_confirm_is_refused_and_nothing_is_lost(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    app.drag_new_set(rack[:2])
    expect(app.table.locator(".set.invalid")).to_have_count(1)
    # It would be refused: Confirm Play no longer looks like the thing to press (it had
    # the same yellow as a valid play), but it still works, and says why.
    confirm = app.button("Confirm Play")
    expect(confirm).not_to_have_class(re.compile(r"\bprimary\b"))
    expect(confirm).to_have_attribute("title", "Not a valid play yet: press to see why")
    expect(confirm).to_be_enabled()
    app.button("Confirm Play").click()
    message = app.page.locator("#message")
    expect(message).to_contain_text("Not played")
    expect(message).to_contain_text(re.compile(r"\w{4,}"))
    expect(app.set_box(0)).to_have_class(re.compile("invalid"))
    # The set's own note says what is wrong, without naming itself ("Set 1: ...").
    note = app.set_box(0).locator(".set-note")
    expect(note).to_contain_text("at least 3 tiles")
    expect(note).not_to_contain_text("Set 1")
    # Nothing lost: the two tiles are still on the table, the rest on the rack.
    assert app.table_ids() == [rack[:2]]
    assert app.rack_ids() == rack[2:]
    expect(app.page.locator("body")).to_have_attribute("data-turn", "mine")
    # Reset Turn puts them back on the rack.
    app.button("Reset Turn").click()
    assert app.table_ids() == []
    assert sorted(app.rack_ids()) == sorted(rack)
    expect(app.button("Confirm Play")).to_be_disabled()


def test_draw_then_computer_turn(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    pool = int(app.page.locator("#pool-count").text_content())
    rack = app.rack_ids()
    expect(app.page.get_by_role("region", name="Pool")).to_contain_text("tap to draw")
    app.page.get_by_role("button", name=re.compile(r"^Pool: \d+ tiles")).click()
    app.wait_for_turn()
    now = app.rack_ids()
    assert len(now) == len(rack) + 1 and set(rack) < set(now)
    (drawn,) = set(now) - set(rack)
    code = app.page.evaluate(f"window.__rummikub.state.tiles.get({drawn}).code")
    said = "a joker" if code == "J" else code
    expect(app.page.locator("#log")).to_contain_text(f"You drew {said}")
    # The computer took its turn too, and it is narrated.
    expect(app.page.locator("#log li").last).to_contain_text("Computer 1")
    assert int(app.page.locator("#pool-count").text_content()) < pool
    # The Draw button does the same as the pool.
    app.button("Draw").click()
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(rack) + 2


def test_sorting_the_rack(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    view = twin.new_game(seed, LEVELS)
    by_id = {t["id"]: t for t in view["rack"]}
    order = {"red": 0, "blue": 1, "yellow": 2, "black": 3}

    def key_number(t):
        return (99, 9) if t["joker"] else (t["number"], order[t["color"]])

    def key_colour(t):
        return (9, 99) if t["joker"] else (order[t["color"]], t["number"])

    app.button("Sort by Number").click()
    numbers = [by_id[i] for i in app.rack_ids()]
    assert [key_number(t) for t in numbers] == sorted(key_number(t) for t in numbers)
    # Read out, with the tiles it now starts with (a screen reader heard nothing).
    first = ", ".join(by_id[i]["label"] for i in app.rack_ids()[:3])
    news = app.page.locator("#move-news")
    expect(news).to_have_text(f"Your rack sorted by number: {first} first.")
    app.button("Sort by Colour").click()
    colours = [by_id[i] for i in app.rack_ids()]
    assert [key_colour(t) for t in colours] == sorted(key_colour(t) for t in colours)
    first = ", ".join(by_id[i]["label"] for i in app.rack_ids()[:3])
    expect(news).to_have_text(f"Your rack sorted by colour: {first} first.")
    expect(app.page.locator("body")).to_have_attribute("data-turn", "mine")  # free


def test_tap_to_place_and_return_to_rack(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    first = sets[0]
    index = app.tap_new_set(first)
    assert app.table_ids()[index] == first
    # Tap a tile on the table, then "Return to rack": it goes back to its own place on
    # the rack, among the tiles still there.
    app.tile(first[-1]).click()
    expect(app.tile(first[-1])).to_have_attribute("aria-pressed", "true")
    app.button("Return to rack").click()
    assert app.rack_ids() == [i for i in rack if i not in first[:-1]]
    assert app.table_ids()[index] == first[:-1]
    # Reorder within the rack: tap a tile, tap the rack's first gap.
    moving = app.rack_ids()[-1]
    app.tile(moving).click()
    app.page.get_by_role("button", name=re.compile(r"^Put here: rack, before ")).click()
    assert app.rack_ids()[0] == moving
    app.button("Reset Turn").click()


def test_return_to_rack_says_why_a_table_tile_stays_on_the_table(app):
    """Holding a tile that was on the table as the turn began, "Return to rack" is not
    greyed out without a word (QA pass 31): pressed, it says why the tile stays, and
    nothing moves; the tile is still held, to be put down elsewhere."""
    from test_split import long_run

    save, _, run = long_run()
    app = app.load_saved(save)
    before, rack = app.table_ids(), app.rack_ids()
    app.tile(run[0]).click()
    app.button("Return to rack").click()
    label = app.tile(run[0]).get_attribute("aria-label")
    expect(app.page.locator("#message")).to_have_text(
        f"{label[0].upper()}{label[1:]} stays on the table: it was there when your turn"
        " began, and only tiles you laid this turn can go back to your rack."
    )
    assert (app.table_ids(), app.rack_ids()) == (before, rack)
    expect(app.tile(run[0])).to_have_attribute("aria-pressed", "true")


def test_adding_to_a_table_set_after_opening(app):
    seed, sets, tile, k = extension_deal()
    app.new_game(seed, LEVELS)
    for tiles in sets:
        app.drag_new_set(tiles)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    expect(app.page.locator("#turn-info")).not_to_contain_text("Opening")
    before = app.table_ids()
    app.drag(app.tile(tile), app.set_box(k).locator(".tile").last, "right")
    assert app.table_ids()[k] == [*before[k], tile]
    expect(app.table.locator(".set.invalid")).to_have_count(0)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    assert tile not in app.rack_ids()
    assert any(tile in row for row in app.table_ids())
    # The set is named by its tiles, not by a number a later play could change.
    codes = app.page.evaluate(
        "ids => ids.map((id) => window.__rummikub.state.tiles.get(id).code)", [*before[k], tile]
    )
    added = f"You added {codes[-1]} to {' '.join(codes[:-1])}"
    expect(app.page.locator("#log")).to_contain_text(added)


def test_keyboard_only_turn(app):
    """Tab to the rack, the arrow keys to a tile, Enter picks it up; N lays it as a new
    set, or Shift+Tab back to the table, the arrow keys to a gap, and Enter puts it
    there."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    for tiles in sets:
        for n, tile_id in enumerate(tiles):
            app.keyboard_to(app.tile(tile_id))
            page.keyboard.press("Enter")
            expect(app.tile(tile_id)).to_have_attribute("aria-pressed", "true")
            if n == 0:
                page.keyboard.press("n")  # a new set
            else:
                index = len(app.table_ids()) - 1
                gap = page.get_by_role("button", name=f"Put here: Set {index + 1}, end")
                app.keyboard_to(gap, back=True)
                page.keyboard.press("Enter")
            expect(app.tile(tile_id)).to_be_focused()
    app.keyboard_to(app.button("Confirm Play"))
    page.keyboard.press("Enter")
    app.wait_for_turn()
    assert not {i for s in sets for i in s} & set(app.rack_ids())


def test_up_from_the_rack_reaches_the_table_and_down_comes_back(app):
    """A tile picked up on the rack goes to the table with Up (the nearest gap of the
    table's lowest row) and Enter: it took six Shift+Tabs across the bars of buttons and
    then the arrows. Down from the table's lowest row comes back to the rack."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    first, second = sets[0][0], sets[0][1]
    app.keyboard_to(app.tile(first))
    page.keyboard.press("Enter")
    page.keyboard.press("n")
    assert app.table_ids() == [[first]]
    # The rack's first tile, in its top row: Home, then the tile to move.
    app.keyboard_to(app.tile(second))
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    focused = page.evaluate(
        "() => [document.activeElement.closest('#sets') !== null,"
        " document.activeElement.getAttribute('aria-label')]"
    )
    assert focused[0], focused
    assert focused[1].startswith("Put here: Set 1"), focused
    page.keyboard.press("Enter")
    assert sorted(app.table_ids()[0]) == sorted([first, second])
    expect(app.tile(second)).to_be_focused()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.closest('#rack') !== null")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.closest('#sets') !== null")
    # Above the table's top row there is nothing to go to: the focus stays put.
    before = page.evaluate("() => document.activeElement.dataset.key")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.dataset.key") == before
    app.button("Reset Turn").click()


def computer_play_deal() -> tuple[int, dict, int]:
    """A seed where the player starts, draws, and the computer then lays tiles."""
    for seed, answer in twin.answers_to_a_draw(LEVELS):
        if answer["turn"]["action"] == "play":
            return seed, answer["turn"], answer["view"]["players"][1]["rack_count"]
    raise AssertionError("no seed where the computer plays at once")


@functools.cache
def short_round(target: int) -> tuple[int, dict]:
    """Of a few seeds, the one whose round ends soonest when the player only draws;
    returns the seed and the twin's final view."""
    best = None
    for seed in range(1, 9):
        view = twin.new_game(seed, LEVELS, target=target)
        turns = 0
        while not view["round_over"] and turns < 200:
            view = twin.call(cmd="draw" if view["current"] == view["me"] else "bot_turn")["view"]
            turns += 1
        if view["round_over"] and (best is None or turns < best[0]):
            best = (turns, seed, view)
    assert best, "no round ended"
    return best[1], best[2]


def test_computer_turn_is_shown_and_narrated(app):
    seed, turn, left = computer_play_deal()
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    expect(app.page.locator("#log")).to_contain_text(turn["narration"])
    for tile_id in turn["placed"]:
        expect(app.tile(tile_id)).to_have_class(re.compile(r"\bhighlight\b"))
    assert {i for row in turn["table"] for i in row} <= {i for s in app.table_ids() for i in s}
    players = app.page.get_by_role("list", name="Players")
    expect(players.locator("li").nth(1)).to_contain_text(f"{left} tiles")


def draw_until_round_over(app) -> None:
    dialog = app.page.locator("#round-dialog")
    for _ in range(200):
        if dialog.is_visible():
            return
        app.draw_or_pass()
        app.wait_for_turn()
    raise AssertionError("the round did not end")


def test_round_to_its_end_with_the_score_screen(app):
    seed, final = short_round(200)
    app.new_game(seed, LEVELS, target=200)
    draw_until_round_over(app)
    dialog = app.page.get_by_role("dialog")
    title = "Game Over" if final["match_over"] else "Round Complete"
    expect(dialog.get_by_role("heading", name=title)).to_be_visible()
    rows = dialog.locator("tbody tr")
    expect(rows).to_have_count(2)
    out = final["outcome"]
    for i, player in enumerate(final["players"]):
        cells = rows.filter(has=app.page.get_by_role("rowheader", name=player["name"])).locator(
            "td"
        )
        expect(cells.nth(0)).to_have_text(str(out["rack_values"][i]))
        score = out["scores"][i]
        # Negative points with a true minus sign (U+2212).
        minus = lambda n: str(n).replace("-", "\u2212")  # noqa: E731
        expect(cells.nth(1)).to_have_text(f"+{score}" if score > 0 else minus(score))
        expect(cells.nth(2)).to_have_text(minus(out["totals"][i]))
    # The scores put aside to see the table the round ended on, then brought back.
    dialog.get_by_role("button", name="See Table").click()
    expect(dialog).to_be_hidden()
    assert app.table_ids() == [[t["id"] for t in row["tiles"]] for row in final["table"]]
    show = app.button("Show Scores")
    expect(show).to_be_focused()
    # The only button of the turn's bar: the round has no turn left to play.
    expect(app.page.get_by_role("toolbar", name="Turn").get_by_role("button")).to_have_text(
        ["Show Scores"]
    )
    # Nor has "+ New Set": its room goes to the sets (an empty row was kept under them
    # where the table is tall enough to give it one, as in a window 1,100 px tall).
    expect(app.button("+ New Set")).to_be_hidden()
    before = app.page.viewport_size
    app.page.set_viewport_size({"width": 1280, "height": 1100})
    try:
        app.page.wait_for_function("document.getElementById('table').offsetHeight >= 330")
        view, table = (app.page.locator(s).bounding_box() for s in ("#table-view", "#table"))
        assert view["y"] + view["height"] >= table["y"] + table["height"] - 1, (view, table)
    finally:
        app.page.set_viewport_size(before)
    expect(app.page.locator("#turn-info")).to_contain_text(
        "Game over" if final["match_over"] else "Round complete"
    )
    # The message says how the round ended, as the scores did (it still told the last
    # computer's move).
    reason = app.page.locator("#round-reason").text_content()
    expect(app.page.locator("#message")).to_have_text(f"The table as the round ended. {reason}")
    show.click()
    expect(dialog.get_by_role("heading", name=title)).to_be_visible()
    expect(show).to_be_hidden()
    if not final["match_over"]:
        app.button("Next Round").click()
        app.wait_for_turn()
        expect(dialog).to_be_hidden()
        for name in ("Confirm Play", "Undo", "Reset Turn", "Draw", "Hint", "Return to rack"):
            expect(app.button(name)).to_be_visible()
        expect(app.button("+ New Set")).to_be_visible()
        expect(app.page.locator("#log")).to_contain_text("Round 2")
        expect(app.page.get_by_role("list", name="Players")).to_contain_text(
            f"{out['totals'][0]} pts".replace("-", "\u2212")
        )


def test_single_round_game_ends_with_game_over(app):
    seed, _ = short_round(0)
    app.new_game(seed, LEVELS, target=0)
    draw_until_round_over(app)
    dialog = app.page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Game Over")).to_be_visible()
    expect(dialog.locator("#round-reason")).to_have_text(
        re.compile(r"(You win|Computer 1 wins) the game\.$")
    )
    dialog.get_by_role("button", name="New Game").click()
    expect(app.page.get_by_role("heading", name="New Game")).to_be_visible()


def test_engine_restart_restores_the_game(app):
    """A runaway computer is cut off by terminating the worker; the new worker boots
    and takes the game back from the last saved state, with nothing lost."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    before = app.page.evaluate(
        "async () => { const g = window.__rummikub; await g.engine.takeSnapshot();"
        " return (await g.engine.call({cmd: 'view'})).view; }"
    )
    after = app.page.evaluate(
        "async () => { const g = window.__rummikub; await g.engine.restart();"
        " return (await g.engine.call({cmd: 'view'})).view; }"
    )
    assert after["rack"] == before["rack"]
    assert after["table"] == before["table"]
    assert after["pool"] == before["pool"] and after["turn"] == before["turn"]
    # And the page plays on with the new worker.
    app.button("Draw").click()
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(before["rack"]) + 1


def test_every_request_stays_on_the_page_origin(app, requests_seen):
    """Last in the session: everything the pages and their workers fetched."""
    assert requests_seen.urls, "no requests were recorded"
    assert any(u.endswith(".whl") for u in requests_seen.urls)
    assert any(u.endswith(".wasm") for u in requests_seen.urls)
    assert requests_seen.foreign() == []


def test_a_table_tile_tapped_to_the_rack_stays_and_the_page_says_why(app):
    """A tile that was on the table when the turn began never goes to a rack: a tap on the
    rack (or R) with it held used to do nothing at all; the page now says why."""
    seed, sets, _, _ = extension_deal()
    app.new_game(seed, LEVELS)
    for tiles in sets:
        app.drag_new_set(tiles)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    table = app.table_ids()
    tile = table[0][0]
    app.tile(tile).click()
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "true")
    box = app.rack.bounding_box()
    app.rack.click(position={"x": box["width"] - 8, "y": box["height"] - 8})
    message = app.page.locator("#message")
    expect(message).to_contain_text("stays on the table")
    assert app.table_ids() == table
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "true")  # still held
    app.page.keyboard.press("Escape")
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "false")
    # Dragged to the rack: it goes back to its set, and the page says why.
    app.page.evaluate("document.getElementById('message').textContent = ''")
    app.drag(app.tile(tile), app.rack)
    expect(message).to_contain_text("stays on the table")
    assert app.table_ids() == table
    # A sentence that starts with the tile's name starts with a capital ("Yellow 1
    # stays…"), and says first what happens: on a phone the message shows two lines.
    label = app.tile(tile).get_attribute("aria-label")
    expect(message).to_have_text(
        re.compile("^" + re.escape(label.capitalize()) + " stays on the table: it was there")
    )


def test_reset_turn_puts_every_rack_tile_back_in_its_place(app):
    """ "Turn reset: every tile is back where it was": tiles laid from the middle of the
    rack go back to their places, not to its end; a sort done this turn is kept."""
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    laid = [i for tiles in sets for i in tiles]
    assert set(laid) != set(rack[-len(laid) :])  # some come from the middle of the rack
    for tiles in sets:
        app.tap_new_set(tiles)
    app.button("Reset Turn").click()
    expect(app.page.locator("#message")).to_have_text(
        "Turn reset: every tile is back where it was."
    )
    assert app.table_ids() == []
    assert app.rack_ids() == rack
    # Sorted, then laid and reset: the rack is back as it was sorted.
    app.button("Sort by Number").click()
    sorted_rack = app.rack_ids()
    assert sorted_rack != rack
    app.tap_new_set(sets[0])
    app.tile(app.rack_ids()[-1]).click()
    app.page.get_by_role("button", name=re.compile(r"^Put here: rack, before ")).click()
    app.button("Reset Turn").click()
    assert app.rack_ids() == sorted_rack
