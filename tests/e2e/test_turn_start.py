"""Where a turn starts: focus on the rack (not dropped to the page after Start Game or
Confirm Play), the last round's news gone; and a joker on the table says what it stands
for to a screen reader."""

from __future__ import annotations

import functools
import itertools

import game_twin as twin
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def focused_tile(page) -> int | None:
    return page.evaluate(
        "(() => { const t = document.activeElement?.closest?.('#rack .tile[data-id]');"
        " return t ? Number(t.dataset.id) : null; })()"
    )


def test_the_turn_starts_with_focus_on_the_rack(app):
    seed, sets = opening_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    expect(page.locator("#rack .tile").first).to_be_focused()
    for tiles in sets:
        app.tap_new_set(tiles)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    expect(page.locator("#rack .tile").first).to_be_focused()
    # After a draw too (the Draw button is disabled while the computers play).
    app.button("Draw").click()
    app.wait_for_turn()
    assert focused_tile(page) == app.rack_ids()[0]


@functools.cache
def joker_opening_deal() -> tuple[int, list[int], int, str]:
    """A seed where the player starts and lays an opening of two tiles and a joker
    last (which the engine may read out of that order): (seed, tile ids as laid, the
    joker's id, the code it stands for)."""
    for seed in range(1, 600):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        jokers = [t for t in view["rack"] if t["joker"]]
        if not jokers:
            continue
        plain = [t for t in view["rack"] if not t["joker"]]
        for a, b in itertools.combinations(plain, 2):
            table = [[a["id"], b["id"], jokers[0]["id"]]]
            check = twin.call(cmd="check", table=table)
            if check["ok"]:
                stands_for = next(c for c in check["sets"][0]["stands_for"] if c)
                return seed, table[0], jokers[0]["id"], stands_for
    raise AssertionError("no seed with a joker opening")


def test_a_joker_on_the_table_says_what_it_stands_for(app):
    seed, tiles, joker, stands_for = joker_opening_deal()
    app.new_game(seed, LEVELS)
    expect(app.tile(joker)).to_have_attribute("aria-label", "joker")
    app.tap_new_set(tiles)
    colour = {"R": "red", "B": "blue", "Y": "yellow", "K": "black"}[stands_for[0]]
    expect(app.tile(joker)).to_have_attribute(
        "aria-label", f"joker, standing for {colour} {stands_for[1:]}"
    )
    app.button("Reset Turn").click()
    expect(app.tile(joker)).to_have_attribute("aria-label", "joker")
