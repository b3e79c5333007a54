"""Resigning asks first, gives up the round (not the match), and counts in the
statistics; the next round deals the player in again with the totals carried."""

from game_page import watch, watched
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal


def rounds_played(page) -> int:
    page.get_by_text("Your statistics").click()
    stats = page.locator("#stats")
    value = stats.locator("dt:text-is('Rounds played') + dd").text_content()
    page.get_by_text("Your statistics").click()
    return int(value)


def score_row(dialog, name: str) -> list[str]:
    """A row of the score table, its minus signs (U+2212, as typeset) as hyphens."""
    cells = dialog.get_by_role("row", name=name).locator("td").all_text_contents()
    return [cell.replace("\u2212", "-") for cell in cells]


def score_row_text(dialog, name: str) -> str:
    return dialog.get_by_role("row", name=name).text_content()


def test_resign_a_round_and_the_match_goes_on(app):
    page = app.page
    seed, _ = opening_deal()
    if page.locator("#menu-new-game").is_visible() or page.locator("#round-dialog[open]").count():
        app.new_game(seed, LEVELS)
        app.to_start_screen()
    before = rounds_played(page)
    # A match against one computer (an earlier test may have left the start screen at
    # "Single round", or with three computers).
    page.get_by_label("Target score").select_option("200")
    page.get_by_label("Computer opponents").select_option("1")
    page.get_by_label("Computer 1 level").select_option(LEVELS[0])
    app.button("Start Game").click()
    app.abandon_if_asked()  # the game started just above
    app.wait_for_turn()
    # The top bar says which round of how long a game this is.
    round_line = page.locator("#round-line")
    expect(round_line).to_have_text("Round 1 · first to 200")
    # Changing one's mind costs nothing.
    app.button("Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this round?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("The game goes on with the next round")
    # One computer left: it wins the round at once (nothing is played out).
    expect(dialog).to_contain_text("Computer 1 wins the round at once.")
    expect(dialog).not_to_contain_text("play the round out")
    dialog.get_by_role("button", name="Keep Playing").click()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")
    # Resign for real: the round ends, the computer wins it, the match goes on.
    app.button("Resign").click()
    dialog.get_by_role("button", name="Resign").click()
    app.wait_for_turn()
    scores = page.get_by_role("dialog", name="Round Complete")
    expect(scores).to_contain_text("Computer 1 won the round by resignation.")
    expect(scores.get_by_role("row", name="Computer 1")).to_have_class("winner")
    # The score table says who resigned.
    expect(scores.get_by_role("rowheader", name="You (resigned)", exact=True)).to_be_visible()
    expect(scores.get_by_role("rowheader", name="Computer 1", exact=True)).to_be_visible()
    left, lost, you_total = score_row(scores, "You")
    won, their_total = score_row(scores, "Computer 1")[1:]
    assert int(lost) == -int(left) < 0
    assert "\u2212" in score_row_text(scores, "You")  # a true minus sign
    assert int(won) == int(their_total) == int(left) and int(you_total) == int(lost)
    expect(scores.get_by_role("button", name="Next Round")).to_be_focused()
    scores.get_by_role("button", name="Next Round").click()
    # Round 2: dealt in again, the totals carried, free to resign again.
    expect(page.locator("#round-dialog")).not_to_be_visible()
    app.wait_for_turn()
    expect(page.locator("#log")).to_contain_text("Round 2:")
    expect(round_line).to_have_text("Round 2 · first to 200")
    expect(page.locator("#message")).not_to_contain_text("resign")  # last round's news
    expect(page.locator('#players [data-player="0"] .player-score')).to_have_text(
        f"\u2212{-int(you_total)} pts"  # a true minus sign, as in the score table
    )
    expect(page.locator('#players [data-player="1"] .player-score')).to_have_text(
        f"{int(their_total)} pts"
    )
    assert page.evaluate("window.__rummikub.state.view.round") == 2
    assert page.evaluate("window.__rummikub.state.view.players[0].resigned") is False
    expect(app.button("Resign")).to_be_visible()
    app.to_start_screen()
    assert rounds_played(page) == before + 1


def test_resigning_a_single_round_game_ends_it(app):
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, target=0)
    app.button("Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this round?")
    expect(dialog).to_contain_text("single-round game")
    dialog.get_by_role("button", name="Resign").click()
    app.wait_for_turn()
    over = page.get_by_role("dialog", name="Game Over")
    expect(over).to_contain_text("Computer 1 won the round by resignation.")
    expect(over.get_by_role("button", name="Next Round")).to_be_hidden()
    # One round is the whole game: no round to count.
    expect(page.locator("#round-line")).to_be_hidden()


def test_after_resigning_the_computers_play_on_without_a_pile_of_news(app):
    # Three players: after the player resigns, the two computers play the round out
    # (dozens of turns); the page says how it ended, not every turn in one message.
    page = app.page
    app.new_game(7, ["easy", "easy"], target=0)
    app.button("Resign").click()
    asked = page.get_by_role("dialog", name="Resign this round?")
    expect(asked).to_contain_text("The computers play the round out.")
    asked.get_by_role("button", name="Resign").click()
    app.wait_for_turn()
    dialog = page.locator("#round-dialog")
    expect(dialog).to_be_visible(timeout=60_000)
    message = page.locator("#message").text_content() or ""
    assert message.count(". ") < 4, message
    dialog.get_by_role("button", name="New Game").click()


def test_after_resigning_the_round_is_played_out_at_once(app):
    """Out of the round, the player has nothing to wait for: the computers' remaining
    turns (85 here, over a minute at the normal speed chosen) are played without the
    pauses and the tile-by-tile reveal, then the round's end is shown."""
    page = app.page
    app.new_game(7, ["easy", "easy", "easy"], target=0, delay=900)
    # Every moment a computer's tiles are being revealed one by one (none must be).
    watch(
        page,
        "__revealed",
        """() => { const n = document.querySelectorAll('#sets .tile.pending').length;
        if (n) window.__revealed.push(n); }""",
    )
    app.button("Resign").click()
    page.get_by_role("dialog", name="Resign this round?").get_by_role(
        "button", name="Resign"
    ).click()
    dialog = page.get_by_role("dialog", name="Game Over")
    expect(dialog).to_be_visible(timeout=25_000)
    assert watched(page, "__revealed") == []
    dialog.get_by_role("button", name="New Game").click()


def test_resigning_during_the_computers_turns_takes_effect_at_once(app):
    """Resign confirmed while Computer 1's turn is on show (three computers, 1.6 s a
    turn): the resignation is sent right away, not after Computer 2's and Computer 3's
    turns at the normal speed, and the rest of the round is played out at once."""
    page = app.page
    app.new_game(7, ["easy", "easy", "easy"], target=0, delay=1600)
    app.draw_or_pass()
    page.wait_for_function(
        "(s => s.showing?.player === 1 && s.showing.action !== 'thinking')(window.__rummikub.state)"
    )
    app.button("Resign").click()
    page.get_by_role("dialog", name="Resign this round?").get_by_role(
        "button", name="Resign"
    ).click()
    expect(app.button("Resign")).to_be_hidden()
    # The log as the resignation came in (the round then played out pushes it off).
    log = page.wait_for_function(
        "(log => log.includes('You resigned') && log)(window.__rummikub.state.view.log)",
        timeout=25_000,
    ).json_value()
    dialog = page.get_by_role("dialog", name="Game Over")
    expect(dialog).to_be_visible(timeout=25_000)
    resigned = log.index("You resigned")
    drew = max(i for i, line in enumerate(log[:resigned]) if line.startswith("You "))
    between = log[drew + 1 : resigned]
    # Computer 1's turn (on show when Resign was confirmed), and no other.
    assert [line.split(" ")[:2] for line in between] == [["Computer", "1"]], between
    dialog.get_by_role("button", name="New Game").click()
