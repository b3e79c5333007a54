"""axe-core (from npm, injected into the page by the test only, never served by the
site) finds no serious or critical problem on the start, game and score screens."""

import json

import pytest
from conftest import ROOT
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
