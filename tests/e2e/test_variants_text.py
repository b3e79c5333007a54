"""The variants are explained on the start screen, and How To Play tells the rules of
the game in hand: wrap-around runs, the joker's cost, the opening, the variants on."""

from __future__ import annotations

import functools
import re

import game_twin as twin
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

from py_engine import bridge

VARIANTS = {
    "Runs may wrap from 13 to 1": "12 13 1 2 is a run",
    "Sets with a joker are locked": "swap the joker out",
    "Opening gets easier while you wait": "drops by 5",
    "Last call when the pool runs dry": "one last turn",
    "No winner when blocked": "nobody wins",
}


def variant_line(dialog, text: str):
    return dialog.get_by_role("listitem").filter(has_text=text)


def how_to_play(page):
    page.get_by_role("button", name="How To Play").first.click()
    dialog = page.get_by_role("dialog", name="How To Play")
    expect(dialog).to_be_visible()
    return dialog


def test_each_variant_is_explained_on_the_start_screen(app):
    page = app.page
    app.to_start_screen()
    for name, about in VARIANTS.items():
        expect(page.get_by_label(name)).to_have_accessible_description(re.compile(re.escape(about)))
        # On the start screen: How To Play, once opened, holds the same line.
        expect(page.locator("#start-screen").get_by_text(about)).to_be_visible()


def test_how_to_play_follows_the_variants_chosen(app):
    page = app.page
    seed, _ = opening_deal()
    app.to_start_screen()
    wrap = page.get_by_label("Runs may wrap from 13 to 1")
    joker = page.get_by_label("Joker left on a rack")
    last_call = page.get_by_label("Last call when the pool runs dry")
    no_winner = page.get_by_label("No winner when blocked")
    try:
        # The standard rules, as set up on the start screen.
        dialog = how_to_play(page)
        expect(dialog).to_contain_text("1 is always low; 13 is the top.")
        expect(dialog).to_contain_text("a joker costs 30")
        expect(dialog).to_contain_text("If the pool runs dry and nobody can play, the lowest rack")
        expect(dialog).to_contain_text("For the game you are setting up")
        expect(variant_line(dialog, "Runs may wrap from 13 to 1 (off)")).to_be_visible()
        dialog.get_by_role("button", name="Close").click()
        # A game with wrap-around runs, a 25-point joker, a last call and no winner when
        # blocked (the blocked round's scoring said once, after the last call).
        wrap.check()
        joker.select_option("25")
        last_call.check()
        no_winner.check()
        app.new_game(seed, LEVELS)
        dialog = how_to_play(page)
        expect(dialog).to_contain_text("In this game")
        expect(dialog).to_contain_text("runs may wrap from 13 to 1: 12 13 1 2 is a run")
        expect(dialog).not_to_contain_text("1 is always low")
        expect(dialog).to_contain_text("a joker costs 25")
        expect(dialog).to_contain_text(
            "Once the pool is empty, every player has one last turn; if nobody has gone out by"
            " then, nobody wins: everyone loses the value of their own rack."
        )
        expect(variant_line(dialog, "Runs may wrap from 13 to 1 (on)")).to_be_visible()
        expect(variant_line(dialog, "No winner when blocked (on)")).to_be_visible()
        dialog.get_by_role("button", name="Close").click()
    finally:
        # The shared page's start screen back to the standard rules.
        app.to_start_screen()
        wrap.uncheck()
        last_call.uncheck()
        no_winner.uncheck()
        joker.select_option("30")
        if app.button("Back to Game").is_visible():
            app.button("Back to Game").click()


def test_the_game_screen_says_which_variants_are_on(app):
    """During a game, the rules that are not the standard ones are named beside the turn
    line (a tap opens How To Play); under the standard rules nothing is shown."""
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    rules = page.locator("#rules-info")
    expect(rules).to_be_hidden()
    app.to_start_screen()
    wrap = page.get_by_label("Runs may wrap from 13 to 1")
    locked = page.get_by_label("Sets with a joker are locked")
    opening = page.get_by_label("Opening meld")
    try:
        wrap.check()
        locked.check()
        opening.select_option("50")
        app.new_game(seed, LEVELS)
        expect(rules).to_be_visible()
        expect(rules).to_have_text(
            "Variants: opening 50 · runs wrap 13 to 1 · joker sets locked", use_inner_text=True
        )
        # Its accessible name is what it shows (WCAG 2.5.3, Label in Name).
        shown = "Variants: opening 50 · runs wrap 13 to 1 · joker sets locked"
        expect(rules).to_have_accessible_name(shown)
        expect(page.get_by_role("button", name=shown)).to_have_count(1)
        expect(rules).to_have_accessible_description("Opens How To Play at its Variants")
        # The tooltip says the same ("Opens How To Play." said less than the description).
        expect(rules).to_have_attribute("title", f"{shown}. Opens How To Play at its Variants.")
        expect(page.locator("#turn-info")).to_contain_text("Opening: 0 of 50")
        expect(app.table.locator(".empty-table")).to_contain_text("worth 50 points or more")
        rules.click()
        dialog = page.get_by_role("dialog", name="How To Play")
        expect(variant_line(dialog, "Sets with a joker are locked (on)")).to_be_visible()
        # The list the button opens at names the opening of 50 too (it named only the
        # five ticked variants, every one "off" when the opening was all that changed).
        expect(variant_line(dialog, "Opening meld (50 points; the standard is 30)")).to_be_visible()
        expect(
            variant_line(dialog, "Joker left on a rack (costs 30, the standard)")
        ).to_be_visible()
        # Opened at its Variants (they are what the button names); from the top bar, at
        # the top.
        expect(dialog.get_by_role("heading", name="Variants")).to_be_in_viewport()
        dialog.get_by_role("button", name="Close").click()
        app.button("How To Play").click()
        expect(dialog.get_by_role("heading", name="Tiles", exact=True)).to_be_in_viewport()
        expect(dialog.get_by_role("heading", name="Variants")).not_to_be_in_viewport()
        dialog.get_by_role("button", name="Close").click()
        # On a phone: how many, in the turn line's row.
        page.set_viewport_size({"width": 390, "height": 844})
        expect(page.locator("#rules-count")).to_have_text("3 variants")
        assert rules.evaluate("b => b.getBoundingClientRect().width") < 120  # the count only
        # The name starts with the count shown and still reads the list out.
        expect(page.get_by_role("button", name="3 variants")).to_have_count(1)
        expect(rules).to_have_accessible_name(re.compile(rf"^3 variants\b.*{re.escape(shown)}$"))
        expect(rules).to_have_accessible_description("Opens How To Play at its Variants")
        box, turn = rules.bounding_box(), page.locator("#turn-info").bounding_box()
        assert abs((box["y"] + box["height"] / 2) - (turn["y"] + turn["height"] / 2)) < 4
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})
        app.to_start_screen()
        wrap.uncheck()
        locked.uncheck()
        opening.select_option("30")
        if app.button("Back to Game").is_visible():
            app.button("Back to Game").click()


def test_an_eased_opening_says_so(app):
    """With "Opening gets easier while you wait", after two turns without opening the
    turn line shows the engine's lower threshold and what it eased from."""
    page = app.page
    seed, _ = opening_deal()
    app.to_start_screen()
    easing = page.get_by_label("Opening gets easier while you wait")
    try:
        easing.check()
        app.new_game(seed, LEVELS)
        turn = page.locator("#turn-info")
        expect(turn).to_have_text("Your turn · Opening: 0 of 30")
        for _ in range(2):
            app.button("Draw").click()
            app.wait_for_turn()
        expect(turn).to_have_text("Your turn · Opening: 0 of 25 (eased from 30)")
    finally:
        app.to_start_screen()
        easing.uncheck()
        if app.button("Back to Game").is_visible():
            app.button("Back to Game").click()


def locked_joker_turns(seeds=range(1, 40), turns: int = 300):
    """With locked jokers, games against an easy computer (the player playing each hint,
    else drawing): the view at each turn of the player's after their opening."""
    levels = ["easy"]
    rules = {**twin.rules_for(levels), "locked_jokers": True}
    for seed in seeds:
        view = twin.call(cmd="new_game", seed=seed, rules=rules, players=twin.players(levels))
        view = view["view"]
        for _ in range(turns):
            if view["round_over"]:
                break
            if view["current"] != view["me"]:
                view = twin.call(cmd="bot_turn")["view"]
                continue
            if view["opened"]:
                yield view
            hint = twin.call(cmd="hint")
            move = {"cmd": "play", "table": hint["table"]} if hint["table"] else {"cmd": "draw"}
            view = twin.call(**move)["view"]


@functools.cache
def locked_joker_position() -> tuple[str, int, int]:
    """A turn (``locked_joker_turns``) where a rack tile would make a set holding a joker
    a longer legal set, which the variant refuses: (the game saved, the set's index, the
    tile)."""
    for view in locked_joker_turns():
        table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
        for i, row in enumerate(view["table"]):
            if not any(t["joker"] for t in row["tiles"]):
                continue
            for tile in view["rack"]:
                rows = [r[:] for r in table]
                rows[i].append(tile["id"])
                check = twin.call(cmd="check", table=rows)
                errors = [e["message"] for e in check["errors"]]
                if check["sets"][i]["valid"] and any("locked" in e for e in errors):
                    return bridge._session.save(), i, tile["id"]
    raise AssertionError("no locked-joker position found")


def test_a_set_note_shows_tile_codes_as_small_tiles(app):
    # The locked-joker refusal under a set named its tiles in raw codes ("the set Y10 J
    # Y12 Y13 holds a joker and is locked"), where the message shows them as small tiles.
    saved, index, tile = locked_joker_position()
    app = app.load_saved(saved)
    page = app.page
    app.tile(tile).click()
    page.get_by_role("button", name=f"Put here: Set {index + 1}, end").click()
    note = app.set_box(index).locator(".set-note")
    expect(note).to_contain_text("holds a joker and is locked")
    shown = re.search(r"the set (.+?) holds", note.text_content()).group(1).split()
    chips = note.locator(".code")
    expect(chips).to_have_count(len(shown))
    assert [c.text_content() for c in chips.all()] == shown
    app.button("Reset Turn").click()


@functools.cache
def locked_joker_save() -> tuple[str, int, int]:
    """A turn (``locked_joker_turns``) with a set holding a joker on the table: the game
    saved, that set's index and its joker's id."""
    for view in locked_joker_turns():
        locked = [i for i, s in enumerate(view["table"]) if s["locked"]]
        if locked:
            joker = next(t["id"] for t in view["table"][locked[0]]["tiles"] if t["joker"])
            return twin.call(cmd="save")["save"], locked[0], joker
    raise AssertionError("no game with a locked set at the player's turn")


def test_a_locked_set_says_so_and_taking_its_joker_out_is_refused_for_the_lock(app):
    """With locked joker sets, a set holding a joker is marked "locked" in its note and
    its name; its joker taken out, it is refused for the lock, not for the gap the joker
    left (nothing on screen told which sets were locked: QA pass 29)."""
    save, index, joker = locked_joker_save()
    app = app.load_saved(save)
    page = app.page
    box = app.set_box(index)
    expect(box).to_have_attribute("aria-label", re.compile(r"^Set \d+, (run|group), locked$"))
    expect(box.locator(".set-note")).to_have_text(re.compile(r"· \d+ · locked$"))
    # Every set holding a joker, and only those.
    sets = app.table.locator(".set")
    with_joker = sets.filter(has=page.locator(".set-tiles > .tile.joker"))
    expect(sets.filter(has_text="locked")).to_have_count(with_joker.count())
    expect(with_joker.filter(has_text="locked")).to_have_count(with_joker.count())
    # Its joker taken out to a new set: the set's note and the refusal name the lock.
    app.tile(joker).click()
    app.button("+ New Set").click()
    expect(box.locator(".set-note")).to_contain_text("holds a joker and is locked")
    expect(box).to_have_attribute("aria-label", re.compile(r", not valid$"))
    app.button("Confirm Play").click()
    expect(page.locator("#message")).to_contain_text("holds a joker and is locked")
