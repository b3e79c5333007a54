"""axe-core (from npm, injected into the page by the test only, never served by the
site) finds no serious or critical problem on the start, game and score screens; and each
move is read out."""

import functools
import itertools
import json
import re

import game_twin as twin
import pytest
from conftest import ROOT
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal, short_round

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def violations(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is not installed (run npm ci, as build.py test does)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_start_screen(app):
    page = app.page
    if page.locator("#round-dialog[open]").count():
        page.locator("#round-dialog").get_by_role("button", name="New Game").click()
    elif page.locator("#menu-new-game").is_visible():
        page.locator("#menu-new-game").click()
    page.get_by_role("heading", name="New Game").wait_for()
    assert violations(page) == [], json.dumps(violations(page), indent=1)


def test_game_screen_mid_turn(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.tap_new_set(sets[0][:2])  # an invalid set, marked, and a tile picked up
    app.tile(app.rack_ids()[0]).click()
    found = violations(app.page)
    app.button("Reset Turn").click()
    assert found == [], json.dumps(found, indent=1)


FOCUS_JS = """() => { const a = document.activeElement;
  return {region: a.closest('#rack') ? 'rack' : a.closest('#sets') ? 'table' : null,
          id: a.dataset.id ? Number(a.dataset.id) : null}; }"""


def test_tab_reaches_the_rack_and_the_table_in_a_few_presses(app):
    """The rack, the table and each bar of buttons are one Tab stop each, the arrow keys
    moving inside (every tile and gap was a Tab stop: from the top of the page the rack
    took 21 presses past a 10-tile table, 34 with a tile picked up)."""
    page = app.page
    app.new_game(5, ["easy", "medium", "hard"])
    for _ in range(6):  # until the computers have laid a few sets
        if len(app.table_ids()) >= 2:
            break
        app.button("Draw").click()
        app.wait_for_turn()
    table, rack = app.table_ids(), app.rack_ids()
    assert len(table) >= 2, table
    flat = [i for s in table for i in s]

    def tab_from_the_top() -> list[str | None]:
        """Where each Tab from the top of the page lands, until the rack."""
        page.locator(".brand").click()
        where: list[str | None] = []
        while len(where) < 40 and (not where or where[-1] != "rack"):
            page.keyboard.press("Tab")
            where.append(page.evaluate(FOCUS_JS)["region"])
        return where

    where = tab_from_the_top()
    assert where.index("table") + 1 <= 5 and len(where) <= 12, where
    # Shift+Tab leaves the rack at once, and a few more reach the table.
    assert app.tab_to_region(app.tile(flat[0]), back=True) <= 7
    # The arrow keys move between the tiles of the table, across sets too.
    page.keyboard.press("Home")
    assert page.evaluate(FOCUS_JS) == {"region": "table", "id": flat[0]}
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUS_JS)["id"] == flat[1]
    for _ in range(len(table[0]) - 1):
        page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUS_JS)["id"] == table[1][0]  # the next set's first tile
    # and of the rack.
    assert app.tab_to_region(app.tile(rack[0])) <= 7
    page.keyboard.press("Home")
    assert page.evaluate(FOCUS_JS) == {"region": "rack", "id": rack[0]}
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUS_JS)["id"] == rack[1]
    page.keyboard.press("End")
    assert page.evaluate(FOCUS_JS)["id"] == rack[-1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUS_JS)["id"] == rack[-2]
    # Picked up, a tile still moves along its row with the arrow keys.
    page.keyboard.press("Enter")
    expect(app.tile(rack[-2])).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowLeft")
    assert app.rack_ids()[-3] == rack[-2]
    assert page.evaluate(FOCUS_JS)["id"] == rack[-2]
    # With a tile picked up, gaps are shown all over the table and the rack: still no
    # more Tab stops.
    where = tab_from_the_top()
    assert where.index("table") + 1 <= 5 and len(where) <= 12, where
    page.keyboard.press("Escape")
    expect(app.tile(rack[-2])).to_have_attribute("aria-pressed", "false")


def test_score_screen(app):
    seed, _ = short_round(0)
    app.new_game(seed, LEVELS, target=0)
    dialog = app.page.locator("#round-dialog")
    for _ in range(200):
        if dialog.is_visible():
            break
        app.draw_or_pass()
        app.wait_for_turn()
    assert dialog.is_visible()
    assert violations(app.page) == [], json.dumps(violations(app.page), indent=1)


def test_how_to_play(app):
    """Reachable at any time, even over the score screen."""
    app.page.get_by_role("button", name="How To Play").last.click()
    found = violations(app.page)
    app.page.get_by_role("button", name="Close").click()
    assert found == [], json.dumps(found, indent=1)


def test_each_move_is_read_out_with_where_the_tile_went_and_its_set(app):
    # A screen reader heard only the moved tile's name and its pressed state: not where
    # it went, nor whether its set was now legal (the set's note shows that to the eye).
    seed, sets = opening_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    news = page.locator("#move-news")
    expect(news).to_have_attribute("aria-live", "polite")
    names = [page.evaluate(f"window.__rummikub.state.tiles.get({t}).label") for t in sets[0]]
    first = sets[0][0]
    app.tile(first).click()
    app.button("+ New Set").click()
    # Before the opening, its total is said with the move (the turn line shows it too,
    # but is not read out for a move: one announcement, not two).
    said = f"{names[0]} to Set 1, place 1 of 1: not valid, a set needs at least 3 tiles."
    said += " Opening: 0 of 30."
    expect(news).to_have_text(said)
    turn_line = page.locator("#turn-info")
    expect(turn_line).to_have_text("Your turn · Opening:\u00a00\u00a0of\u00a030")
    expect(turn_line).to_have_attribute("aria-live", "off")
    # Undo says what it took back, the tile where it now is (it said nothing: a screen
    # reader heard no change after pressing it); the same move again is read again.
    app.button("Undo").click()
    place = app.rack_ids().index(first) + 1
    expect(news).to_have_text(
        f"Undone: {names[0]} back to your rack, place {place} of {len(app.rack_ids())}."
        " Opening: 0 of 30."
    )
    app.tile(first).click()
    app.button("+ New Set").click()
    expect(news).to_have_text(said)
    for n, tile in enumerate(sets[0][1:], start=2):
        app.tile(tile).click()
        page.get_by_role("button", name="Put here: Set 1, end").click()
        expect(news).to_contain_text(f"{names[n - 1]} to Set 1, place {n} of {n}")
    check = page.evaluate("window.__rummikub.state.check.sets[0]")
    total = page.evaluate("window.__rummikub.state.check.opening_value")
    assert total == check["value"] > 0
    expect(news).to_have_text(
        f"{names[-1]} to Set 1, place {len(names)} of {len(names)}: "
        f"{check['kind']}, {check['value']} points. Opening: {total} of 30."
    )
    expect(turn_line).to_contain_text(f"Opening:\u00a0{total}\u00a0of\u00a030")
    expect(turn_line).to_have_attribute("aria-live", "off")
    # Back to the rack: its place there. Each place a picked-up tile can go is named by
    # the tiles on either side of it (they were "position 1", "position 2"...).
    app.tile(first).click()
    gaps = app.set_box(0).locator(".gap")
    expect(gaps).to_have_count(len(names) + 1)
    pairs = [f"between {a} and {b}" for a, b in itertools.pairwise(names)]
    wanted = [f"before {names[0]}", *pairs, f"end, after {names[-1]}"]
    assert gaps.evaluate_all("gs => gs.map((g) => g.getAttribute('aria-label'))") == [
        f"Put here: Set 1, {where}" for where in wanted
    ]
    on_rack = page.evaluate(
        "ids => ids.map((id) => window.__rummikub.state.tiles.get(id).label)", app.rack_ids()
    )
    expect(page.locator("#rack .gap").first).to_have_attribute(
        "aria-label", f"Put here: rack, before {on_rack[0]}"
    )
    page.get_by_role("button", name="Put here: rack, end").click()
    rack = app.rack_ids()
    # The set it left is no set now, and the news says so (it was told only at Confirm
    # Play, QA pass 33).
    assert len(names) == 3, names
    expect(news).to_have_text(
        f"{names[0]} to your rack, place {len(rack)} of {len(rack)}."
        " Set 1 is left not valid: a set needs at least 3 tiles. Opening: 0 of 30."
    )
    expect(turn_line).to_have_attribute("aria-live", "off")
    # Undo tells the tile back in its set, with the total it brings back (the turn line,
    # showing it too, is not read out: one announcement).
    app.button("Undo").click()
    expect(news).to_have_text(
        f"Undone: {names[0]} back to Set 1, place 1 of {len(names)}: "
        f"{check['kind']}, {check['value']} points. Opening: {total} of 30."
    )
    expect(turn_line).to_contain_text(f"Opening:\u00a0{total}\u00a0of\u00a030")
    expect(turn_line).to_have_attribute("aria-live", "off")


@functools.cache
def extension_before_opening(valid: bool = True) -> tuple[int, int]:
    """A seed where the player starts, draws, and the computer lays sets; then a rack tile
    added to the end of the first of them, which the player may not do before opening,
    making it a longer set (``valid``) or no set: (seed, tile id)."""
    for seed, answer in twin.answers_to_a_draw(LEVELS):
        view = twin.computers(answer["view"])
        if view["round_over"] or not view["table"] or view["opened"]:
            continue
        table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
        for tile in view["rack"]:
            check = twin.call(cmd="check", table=[table[0] + [tile["id"]], *table[1:]])
            if check["sets"][0]["valid"] == valid and any(e["set"] == 0 for e in check["errors"]):
                return seed, tile["id"]
    raise AssertionError("no deal found")


def add_to_the_first_set_before_opening(app, valid: bool):
    """A new game (``extension_before_opening``): the player draws, then adds the tile to
    the end of the computer's first set; that set's box, marked not valid."""
    seed, tile = extension_before_opening(valid)
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    app.tile(tile).click()
    app.page.get_by_role("button", name="Put here: Set 1, end").click()
    first = app.set_box(0)
    expect(first).to_have_attribute("aria-label", "Set 1, not valid")
    return first


def test_the_read_out_says_what_the_set_note_says_before_the_opening(app):
    # A rack tile added to a computer's set before the player has opened: the set itself
    # reads as a run or group, but the turn's problem is about it ("before your opening
    # you may not change the sets on the table"), and the set is marked so. The read-out
    # said "run, 22 points" (it read the set alone).
    page = app.page
    first = add_to_the_first_set_before_opening(app, valid=True)
    note = first.locator(".set-note").text_content().rstrip(".")
    said = re.compile(rf": not valid, {re.escape(note)}\. Opening: 0 of \d+\.$")
    expect(page.locator("#move-news")).to_have_text(said)


def test_a_table_set_spoilt_before_the_opening_names_the_rule_first(app):
    # A rack tile added to a computer's set before the player has opened, where it is no
    # set at all: the note names the rule the player met first. It said only what was
    # wrong with the set (here "a run needs consecutive numbers (3 to 8 are missing)";
    # in QA pass 24 "a group cannot repeat a colour", the turn line reading "Opening: 39
    # of 30"), and only Confirm Play told the rule.
    page = app.page
    first = add_to_the_first_set_before_opening(app, valid=False)
    expect(first.locator(".set-note")).to_have_text(
        re.compile(r"^Before your opening you may not change the sets on the table\.?$", re.I)
    )
    expect(page.locator("#move-news")).to_contain_text(
        "not valid, before your opening you may not change the sets on the table"
    )
