"""The game is kept in the browser after every action: a reload, even mid-turn, brings
back the same game; a corrupt saved game is reported and set aside."""

from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def reload(page) -> None:
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)


def test_reload_mid_turn_brings_the_game_back(app):
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    rack, table = app.rack_ids(), app.table_ids()
    pool = page.locator("#pool-count").text_content()
    log = page.locator("#log").text_content()
    app.tile(rack[0]).click()
    app.button("+ New Set").click()  # a tentative move: kept too (see test_restore.py)
    reload(page)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    assert app.rack_ids() == rack[1:]
    assert app.table_ids() == [*table, [rack[0]]]
    assert page.locator("#pool-count").text_content() == pool
    assert page.locator("#log").text_content() == log
    app.button("Draw").click()  # and it plays on, the tentative move put back
    expect(page.locator("#message")).to_contain_text("Your arrangement was put back; you drew")
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(rack) + 1


def test_a_corrupt_saved_game_is_set_aside(app):
    page = app.page
    page.evaluate("localStorage.setItem('rummikub.savedGame', '{\"format\": \"nonsense\"}')")
    reload(page)
    notice = page.locator("#start-notice")
    expect(notice).to_contain_text("could not be restored")
    assert page.evaluate("localStorage.getItem('rummikub.savedGame')") is None
    assert page.evaluate("localStorage.getItem('rummikub.savedGame.setAside')")
    seed, _ = opening_deal()
    GamePage(page).new_game(seed, LEVELS)
    expect(notice).to_be_hidden()
