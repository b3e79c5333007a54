"""The statistics on the start screen: a round counts, and clearing them asks first (one
stray tap used to wipe every game counted on the device)."""

from __future__ import annotations

from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def stat(page, name: str) -> str:
    return page.locator(f"#stats dt:text-is('{name}') + dd").text_content()


def resign_single_round_game(app, seed: int) -> None:
    """A single-round game on deal ``seed``, resigned at once; then the start screen."""
    page = app.page
    app.new_game(seed, LEVELS, target=0)
    app.button("Resign").click()
    page.get_by_role("dialog", name="Resign this round?").get_by_role(
        "button", name="Resign"
    ).click()
    app.wait_for_turn()
    page.get_by_role("dialog", name="Game Over").get_by_role("button", name="New Game").click()


def test_clearing_the_statistics_asks_first(app):
    page = app.page
    seed, _ = opening_deal()
    resign_single_round_game(app, seed)
    summary = page.get_by_text("Your statistics")
    summary.click()
    rounds = stat(page, "Rounds played")
    assert int(rounds) >= 1
    # Changing one's mind keeps them.
    page.get_by_role("button", name="Clear statistics").click()
    dialog = page.get_by_role("dialog", name="Clear the statistics?")
    expect(dialog).to_be_visible()
    # What cannot be taken back is red, not the yellow of "Start Game".
    clear = dialog.get_by_role("button", name="Clear Statistics")
    expect(clear).to_have_class("danger")
    colours = clear.evaluate("b => ['color', 'backgroundColor'].map(k => getComputedStyle(b)[k])")
    assert colours == ["rgb(255, 255, 255)", "rgb(179, 38, 30)"], colours
    dialog.get_by_role("button", name="Keep Them").click()
    expect(dialog).to_be_hidden()
    assert stat(page, "Rounds played") == rounds
    # Cleared for real.
    page.get_by_role("button", name="Clear statistics").click()
    dialog.get_by_role("button", name="Clear Statistics").click()
    expect(dialog).to_be_hidden()
    for name in ("Games played", "Games won", "Rounds played", "Rounds won"):
        expect(page.locator(f"#stats dt:text-is('{name}') + dd")).to_have_text("0")
    expect(page.locator("#stats dt:text-is('Best round score') + dd")).to_have_text("–")
    summary.click()


def test_a_round_counts_even_when_an_earlier_game_ended_the_same(app):
    # Statistics named a round by its scores and the players' names, so a second game
    # whose round ended with the same scores (the same deal replayed and resigned at
    # once, or two deals with the same rack value) was taken for the first and not
    # counted. Each game now has a name of its own.
    page = app.page
    seed, _ = opening_deal()
    resign_single_round_game(app, seed)
    page.get_by_text("Your statistics").click()
    rounds, games = int(stat(page, "Rounds played")), int(stat(page, "Games played"))
    page.get_by_text("Your statistics").click()
    resign_single_round_game(app, seed)
    page.get_by_text("Your statistics").click()
    assert int(stat(page, "Rounds played")) == rounds + 1
    assert int(stat(page, "Games played")) == games + 1
    page.get_by_text("Your statistics").click()
