"""A computer's turn on show names that computer, in the header, its chip and the
message, until the player's own turn really starts; the final dialog speaks to "You"."""

from __future__ import annotations

import functools
import itertools
import re

import game_twin as twin
from game_page import FLIGHTS_JS, hold_engine, unhold_engine, watch, watched
from playwright.sync_api import expect
from test_play import LEVELS, computer_play_deal

# Every change of the turn line, the highlighted chip, the message and the reveal.
LOOK = """() => {
    const chip = document.querySelector('#players .player.current');
    const row = {
      turn: document.querySelector('#turn-info').textContent,
      live: document.querySelector('#turn-info').getAttribute('aria-live'),
      body: document.body.dataset.turn,
      chip: chip ? chip.querySelector('.player-name').textContent : null,
      status: chip?.querySelector('.player-status')?.textContent ?? null,
      message: document.querySelector('#message').textContent,
      log: [...document.querySelectorAll('#log li')].at(-1)?.textContent ?? '',
      pending: document.querySelectorAll('#sets .tile.pending').length,
      whoStarts: !document.querySelector('#who-starts').hidden,
      draw: document.querySelector('#draw').disabled,
    };
    const last = window.__seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(row)) window.__seen.push(row);
}"""


def seen(page) -> list[dict]:
    return [r for r in watched(page, "__seen") if r["body"] is not None]


def assert_your_turn_only_when_it_is(rows: list[dict]) -> None:
    """From a computer's turn on show until the player's controls are live, the page
    never says "Your turn"; a computer named in the header is the highlighted one."""
    computers_on_show = False
    for row in rows:
        if row["turn"].startswith("Computer"):
            computers_on_show = True
            assert row["turn"].startswith(f"{row['chip']} "), row
        if row["body"] == "mine":
            computers_on_show = False
        if computers_on_show:
            assert not row["turn"].startswith("Your turn"), row
            assert row["status"] != "your turn", row
        if row["turn"].startswith("Your turn"):
            assert not row["whoStarts"], row
            assert row["chip"] == "You", row


def computers_answer(view: dict) -> tuple[list[dict], dict]:
    """The computers' turns after the player's move, until the player's turn comes round
    again (or the round ends): (their turns, the view then)."""
    turns = []
    while view["current"] != view["me"] and not view["round_over"]:
        answer = twin.call(cmd="bot_turn")
        turns.append(answer["turn"])
        view = answer["view"]
    return turns, view


@functools.cache
def computer_draw_deal(levels: tuple[str, ...]) -> tuple[int, list[dict]]:
    """A seed where the player starts and draws, then each computer answers; returns
    the seed and the computers' turns, the first of them a draw."""
    for seed in range(1, 400):
        view = twin.new_game(seed, list(levels))
        if view["current"] != view["me"]:
            continue
        turns, view = computers_answer(twin.call(cmd="draw")["view"])
        if turns[0]["action"] == "draw" and not view["round_over"]:
            return seed, turns
    raise AssertionError("no seed where a computer draws at once")


def test_a_computer_play_on_show_names_that_computer(app):
    seed, turn, _ = computer_play_deal()
    page = app.page
    app.to_start_screen()
    watch(page, "__seen", LOOK)
    app.new_game(seed, LEVELS, delay=900, wait=False)
    app.wait_for_turn()
    app.button("Draw").click()
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    app.wait_for_turn()
    expect(page.locator("#turn-info")).to_have_text("Your turn · Opening: 0 of 30")
    rows = seen(page)
    assert_your_turn_only_when_it_is(rows)
    # Under the who-starts draw nobody's turn has begun.
    under = [r for r in rows if r["whoStarts"]]
    assert under and all(r["chip"] is None and "Your turn" not in r["turn"] for r in under)
    # The reveal: Computer 1's chip, "is playing…"; the turn line is not read out.
    reveal = [r for r in rows if r["pending"]]
    assert reveal
    for row in reveal:
        assert row["turn"] == "Computer 1 is playing…", row
        assert row["chip"] == "Computer 1" and row["status"] == "playing…", row
        assert row["live"] == "off", row
        # The play is not told while its tiles are still coming (issue 42: the message
        # and the log wrote it out before the reveal showed it)...
        assert turn["narration"] not in row["message"], row
        assert turn["narration"] not in row["log"], row
        assert row["draw"], row
    # ...but once the last tile is down, while the play is still on show, in the message
    # and the log's newest line.
    said = next(r for r in rows[rows.index(reveal[-1]) :] if r["message"] != reveal[-1]["message"])
    assert not said["pending"] and said["turn"] == "Computer 1 played", said
    assert turn["narration"] in said["message"] and turn["narration"] in said["log"], said
    # The pause after it still shows Computer 1; then the player's turn, with a summary.
    assert any(r["turn"] == "Computer 1 played" and r["body"] == "theirs" for r in rows)
    mine = [r for r in rows if r["body"] == "mine"]
    assert mine[-1]["chip"] == "You" and mine[-1]["status"] == "your turn"
    assert not mine[-1]["draw"]
    # "Your turn" is read out as it comes (the turn line is live as it changes to it).
    came = [b for a, b in itertools.pairwise(rows) if b["turn"] != a["turn"]]
    assert came[-1]["turn"].startswith("Your turn") and came[-1]["live"] == "polite", came
    message = page.locator("#message")
    expect(message).to_contain_text("You drew")
    expect(message).to_contain_text(turn["narration"])
    # The summary is news of one moment: the next move clears it.
    app.tile(app.rack_ids()[0]).click()
    app.button("+ New Set").click()
    expect(message).to_have_text("")


def test_a_computer_draw_is_said_in_the_header_and_message(app):
    levels = ("easy", "easy")
    seed, _ = computer_draw_deal(levels)
    page = app.page
    app.new_game(seed, list(levels), delay=500)
    watch(page, "__seen", LOOK)
    app.button("Draw").click()
    app.wait_for_turn()
    rows = seen(page)
    assert_your_turn_only_when_it_is(rows)
    drew = [r for r in rows if r["turn"] == "Computer 1 drew a tile"]
    assert drew, rows
    for row in drew:
        assert row["body"] == "theirs" and row["chip"] == "Computer 1", row
        assert row["status"] == "drew a tile", row
        assert row["message"] == "Computer 1 drew a tile.", row
    # Computer 2 is named only once its own turn is on show, after Computer 1's.
    first_two = [i for i, r in enumerate(rows) if r["chip"] == "Computer 2"]
    assert first_two and first_two[0] > rows.index(drew[-1])
    expect(page.locator("#message")).to_contain_text("Computer 1 drew a tile.")


def show_final_dialog(page, view: dict) -> None:
    """Show the round dialog for an engine view (taken from the twin)."""
    page.evaluate(
        """(view) => { const game = window.__rummikub;
            game.state.view = view; game.state.dialog = "round"; game.render(); }""",
        view,
    )


@functools.cache
def won_single_round() -> dict:
    """A single-round game the player wins (hint plays, else draws), as the twin's view."""
    return twin.match_won_on_hints(LEVELS, target=0, turns=300)


def test_the_final_dialog_says_you_win(app):
    page = app.page
    view = won_single_round()
    app.new_game(1, LEVELS, target=0)
    dialog = page.get_by_role("dialog", name="Game Over")
    show_final_dialog(page, view)
    expect(dialog).to_contain_text("You win the game.")
    expect(dialog).not_to_contain_text("You wins")
    # A tie on totals: the page names the engine's winner (the earlier seat), no other.
    out = view["outcome"]
    tied = {**view, "winner": 0, "outcome": {**out, "totals": [out["totals"][0]] * 2}}
    page.evaluate("document.querySelector('#round-dialog').close()")
    show_final_dialog(page, tied)
    expect(dialog).to_contain_text("You win the game.")
    expect(dialog).not_to_contain_text("Computer 1 win")
    # A computer's win.
    totals = [-abs(out["totals"][0]), abs(out["totals"][0])]
    lost = {**view, "winner": 1, "outcome": {**out, "totals": totals}}
    page.evaluate("document.querySelector('#round-dialog').close()")
    show_final_dialog(page, lost)
    expect(dialog).to_contain_text("Computer 1 wins the game.")
    # Blocked with "no winner when blocked": nobody won the round, so the game's winner
    # is said with its total ("no winner. Computer 1 wins the game." read as a contradiction).
    blocked = {
        **view,
        "winner": 1,
        "outcome": {**out, "winner": None, "reason": "blocked", "totals": [-313, -67]},
    }
    page.evaluate("document.querySelector('#round-dialog').close()")
    show_final_dialog(page, blocked)
    expect(page.locator("#round-reason")).to_have_text(
        "The pool ran dry and nobody could play: no winner."
        " Computer 1 wins the game with the highest total, \u221267 points."
    )
    # Under "last call" such a round ends once every player had one more turn, in which
    # some may have played: not "nobody could play".
    called = {**blocked, "rules": {**view["rules"], "last_call": True}}
    page.evaluate("document.querySelector('#round-dialog').close()")
    show_final_dialog(page, called)
    expect(page.locator("#round-reason")).to_have_text(
        "The pool ran dry and every player had a last turn: no winner."
        " Computer 1 wins the game with the highest total, \u221267 points."
    )
    # Gone out, the rack is empty: nothing to sort (See Table left the sort buttons on).
    dialog.get_by_role("button", name="See Table").click()
    page.evaluate("() => { window.__rummikub.state.rack = []; window.__rummikub.render(); }")
    expect(app.button("Sort by Colour")).to_be_disabled()
    expect(app.button("Sort by Number")).to_be_disabled()
    app.button("Show Scores").click()
    dialog.get_by_role("button", name="New Game").click()


def moved(turn: dict) -> set[int]:
    """The tiles a computer's turn laid or moved."""
    return {s["tile"] for s in turn["steps"]} | set(turn["placed"])


def after_draws(levels: tuple[str, ...]):
    """For each seed (1-199) where the player starts and then only draws (at most 7
    times, until the round ends): the seed, how many draws so far and the computers'
    turns after the last of them. The twin is then at the player's turn."""
    for seed in range(1, 200):
        view = twin.new_game(seed, list(levels))
        if view["current"] != view["me"]:
            continue
        for draws in range(1, 8):
            turns, view = computers_answer(twin.call(cmd="draw")["view"])
            if view["round_over"]:
                break
            yield seed, draws, turns


@functools.cache
def two_computers_play_deal(levels: tuple[str, ...]) -> tuple[int, int, list[dict]]:
    """A seed where the player starts and only draws, and after one of those draws both
    computers lay tiles: (seed, how many draws, the computers' turns after the last)."""
    for seed, draws, turns in after_draws(levels):
        both = [t["action"] for t in turns] == ["play", "play"]
        if both and moved(turns[0]) - moved(turns[1]):
            return seed, draws, turns
    raise AssertionError("no seed where both computers play after one draw")


def test_every_computer_play_since_your_turn_stays_highlighted(app):
    """When the player's turn starts, the tiles every computer laid or moved since the
    player's last turn are highlighted (not only the last computer's), and the summary
    names the sets they went to by their tiles, not by numbers a later play changed."""
    levels = ("hard", "hard")
    seed, draws, turns = two_computers_play_deal(levels)
    page = app.page
    app.new_game(seed, list(levels))
    for _ in range(draws):
        app.button("Draw").click()
        app.wait_for_turn()
    highlighted = page.evaluate(
        "[...document.querySelectorAll('#sets .tile.highlight')].map(t => Number(t.dataset.id))"
    )
    assert set(highlighted) == moved(turns[0]) | moved(turns[1])
    message = page.locator("#message")
    for turn in turns:
        expect(message).to_contain_text(turn["narration"])
    expect(message).not_to_contain_text(re.compile(r"\bSet \d"))
    # The player's first move ends the highlight.
    app.tile(app.rack_ids()[0]).click()
    app.button("+ New Set").click()
    expect(page.locator("#sets .tile.highlight")).to_have_count(0)
    app.button("Reset Turn").click()


@functools.cache
def hint_after_a_computer_play() -> tuple[int, int]:
    """A seed where the player (against hard) starts and only draws, and after one of
    those draws the computer lays tiles and the player has a play to hint at: (seed, how
    many draws)."""
    for seed, draws, turns in after_draws(("hard",)):
        if turns[-1]["action"] == "play" and twin.call(cmd="hint")["table"]:
            return seed, draws
    raise AssertionError("no seed with a hint after a computer's play")


def test_a_hint_takes_the_highlight_off_the_computers_play(app):
    """The tiles a computer laid stay highlighted into the player's turn; once a hint is
    shown they are not (QA pass 31: the computer's tiles, still highlighted, read as part
    of the hint), and the hint's own tiles are marked."""
    seed, draws = hint_after_a_computer_play()
    page = app.page
    app.new_game(seed, ["hard"])
    for _ in range(draws):
        app.button("Draw").click()
        app.wait_for_turn()
    expect(page.locator("#sets .tile.highlight").first).to_be_visible()
    app.button("Hint").click()
    expect(app.button("Next Step")).to_be_visible()
    expect(page.locator("#sets .tile.highlight")).to_have_count(0)
    expect(page.locator("#rack .tile.hinted").first).to_be_visible()


def test_a_thinking_computers_card_breathes(app):
    """While a computer thinks, a ring round its card fades in and out (a long search
    behind the still words "is thinking…" looked like a hang); it stops when it moves."""
    seed, _, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=500)
    hold_engine(page, "bot_turn")
    try:
        app.button("Draw").click()
        page.wait_for_function("window.__held === 1")
        card = page.locator('#players [data-player="1"]')
        expect(card).to_have_class(re.compile(r"\bthinking\b"))
        breathing = """() => document.getAnimations().some((a) => a.animationName === 'thinking'
            && a.effect.target.dataset.player === '1' && a.playState === 'running')"""
        assert page.evaluate(breathing)
        ring = """() => { const s = getComputedStyle(
            document.querySelector('#players [data-player="1"]'), '::after');
            return [s.animationName, s.opacity, s.outlineStyle]; }"""
        # Under reduced motion the ring stays, still; in forced colours it is an outline
        # (box shadows are dropped there).
        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(ring)[:2] == ["none", "0.6"]
        page.emulate_media(reduced_motion="no-preference", forced_colors="active")
        assert page.evaluate(ring)[2] == "solid"
        page.emulate_media(forced_colors="none")
        page.evaluate("window.__release()")
        app.wait_for_turn()
        expect(card).not_to_have_class(re.compile(r"\bthinking\b"))
        assert not page.evaluate(breathing)
    finally:
        page.emulate_media(reduced_motion="no-preference", forced_colors="none")
        unhold_engine(page)


def test_a_computer_play_flies_in_from_its_card(app):
    """Each tile of a computer's play flies to its place from that computer's card (the
    tiles just faded in where they landed), as a copy hidden from screen readers and
    from the page's tile ids; once all are down no copy is left and every tile shows.
    Under reduced motion nothing flies."""
    seed, turn, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=900)
    page.evaluate(FLIGHTS_JS)
    app.button("Draw").click()
    app.wait_for_turn()
    rack = set(app.rack_ids())  # the player's drawn tile flew from the pool
    flights = [f for f in watched(page, "__flights") if f["id"] not in rack]
    assert sorted(f["id"] for f in flights) == sorted(turn["placed"]), flights
    for f in flights:
        card = f["card"]
        assert card["left"] <= f["x"] <= card["right"], f
        assert card["top"] <= f["y"] <= card["bottom"], f
        assert not f["named"], f
    expect(page.locator(".flyer")).to_have_count(0)
    for tile_id in turn["placed"]:
        expect(app.tile(tile_id)).to_have_css("opacity", "1")
    # Under reduced motion the play is shown at once, with no flight.
    app.to_start_screen()
    page.emulate_media(reduced_motion="reduce")
    try:
        app.new_game(seed, LEVELS, delay=900)
        app.abandon_if_asked()
        page.evaluate(FLIGHTS_JS)
        app.button("Draw").click()
        app.wait_for_turn()
        assert watched(page, "__flights") == []  # nor the drawn tile
        expect(app.tile(turn["placed"][0])).to_be_visible()
    finally:
        page.emulate_media(reduced_motion="no-preference")
