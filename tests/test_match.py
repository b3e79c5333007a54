"""Matches (RULES.md, "End of a round and scoring"): cumulative scores over rounds until a
player's total reaches the target (default 200; 0 = one round), the winner, the history."""

import pytest

from py_engine.rounds import IllegalAction, Match, Reason
from py_engine.rules import Rules, RulesError

HUNDRED = "K13 Y13 B13 R13 K12 Y12 B12 R12"  # a rack worth 100


def win_round(by_hand, match, loser_rack, winner=0):
    """Lay out the current round so ``winner`` goes out at once against ``loser_rack``."""
    game = match.round
    racks = [loser_rack] * match.rules.players
    racks[winner] = "K1 K2 K3"
    by_hand.rig(game, racks, current=winner, opened=[True] * match.rules.players)
    game.play(by_hand.lay(game, ["K1 K2 K3"]))
    assert game.is_over
    return game.outcome


def test_the_default_target_is_200():
    assert Rules().target == 200
    assert Match().rules.target == 200


def test_a_match_goes_on_until_a_total_reaches_the_target(by_hand):
    match = Match(seed=1)
    assert win_round(by_hand, match, HUNDRED).scores == (100, -100)
    assert not match.is_over
    assert match.winner is None
    assert match.totals == [100, -100]
    match.next_round()
    win_round(by_hand, match, HUNDRED)
    assert match.totals == [200, -200]
    assert match.is_over
    assert match.winner == 0


def test_totals_are_cumulative_and_the_history_keeps_each_rounds_scores(by_hand):
    match = Match(Rules(players=3), seed=2)
    win_round(by_hand, match, "R5")  # player 0 wins 10
    match.next_round()
    win_round(by_hand, match, "R2 R13", winner=2)  # 15 each
    assert match.history == [(10, -5, -5), (-15, -15, 30)]
    assert match.totals == [-5, -20, 25]
    assert len(match.rounds) == 2


def test_the_highest_total_wins_the_match(by_hand):
    match = Match(Rules(players=3, target=30), seed=3)
    win_round(by_hand, match, "R13 B13")  # player 0: +52
    assert match.is_over
    assert match.winner == 0
    match = Match(Rules(players=3, target=100), seed=3)
    win_round(by_hand, match, "R13 B13 Y13 K13 R12 B12 Y12", winner=1)  # +176
    assert match.winner == 1


def test_a_match_ends_exactly_at_the_target(by_hand):
    match = Match(Rules(target=100), seed=4)
    win_round(by_hand, match, "R13 B13 Y13 K13 R12 B12 Y12 K11")  # 99
    assert not match.is_over
    match.next_round()
    win_round(by_hand, match, "R1")
    assert match.totals == [100, -100]
    assert match.is_over


def test_target_0_is_a_single_round_game(by_hand):
    match = Match(Rules(target=0), seed=5)
    assert not match.is_over
    win_round(by_hand, match, "R1")
    assert match.is_over
    assert match.winner == 0
    with pytest.raises(IllegalAction, match="The match is over"):
        match.next_round()
    assert len(match.rounds) == 1


def test_the_next_round_waits_for_the_current_one(by_hand):
    match = Match(seed=6)
    with pytest.raises(IllegalAction, match="The round is still being played"):
        match.next_round()
    assert len(match.rounds) == 1
    win_round(by_hand, match, "R1")
    second = match.next_round()
    assert second is match.round
    assert match.rounds[1] is second
    assert not second.is_over


def test_each_round_has_its_own_deal_from_the_match_seed():
    match = Match(seed=7)
    again = Match(seed=7)
    assert match.round.state() == again.round.state()
    assert Match(seed=8).round.racks != match.round.racks
    assert match.round.seed == "7:0"


def test_rounds_of_a_match_are_dealt_differently(by_hand):
    match = Match(seed=9)
    first_deal = [list(r) for r in match.round.racks]
    win_round(by_hand, match, "R1")
    match.next_round()
    assert match.round.seed == "9:1"
    assert match.round.racks != first_deal


def test_resigning_gives_up_the_round_and_the_match_goes_on(by_hand):
    # RULES.md: the resigning player is scored as an ordinary loser; a match is a series
    # of rounds to the target, so the next round deals everyone in again.
    match = Match(seed=10)
    by_hand.rig(match.round, [HUNDRED, "R1 R2"], current=0)
    match.round.resign(0)
    assert match.round.outcome.reason is Reason.RESIGNED
    assert match.round.outcome.scores == (-100, 100)
    assert not match.is_over
    assert match.winner is None
    second = match.next_round()
    assert second.resigned == [False, False]
    assert [len(rack) for rack in second.racks] == [14, 14]
    assert match.totals == [-100, 100]
    win_round(by_hand, match, "R5 R6")  # player 0 wins the next one back: +11
    assert match.history == [(-100, 100), (11, -11)]
    assert match.totals == [-89, 89]


def test_with_two_opponents_left_they_play_the_round_out(by_hand):
    match = Match(Rules(players=3), seed=12)
    by_hand.rig(match.round, ["R5", "K11 K12 K13", "B1 B2"], current=0, opened=[True] * 3)
    match.round.resign(0)
    assert not match.round.is_over
    assert match.round.current == 1
    match.round.play(by_hand.lay(match.round, ["K11 K12 K13"]))
    assert match.round.outcome.scores == (-5, 8, -3)
    assert not match.is_over
    match.next_round()
    assert match.round.resigned == [False, False, False]
    assert match.totals == [-5, 8, -3]


def test_a_resigned_round_that_reaches_the_target_ends_the_match(by_hand):
    match = Match(Rules(target=100), seed=13)
    by_hand.rig(match.round, [HUNDRED, "R1 R2"], current=1)
    match.round.resign(0)
    assert match.is_over
    assert match.winner == 1
    with pytest.raises(IllegalAction, match="The match is over"):
        match.next_round()


def test_resigning_a_single_round_game_ends_it():
    match = Match(Rules(target=0), seed=14)
    match.round.resign(1)
    assert match.is_over
    assert match.winner == 0


def test_a_save_with_a_resigned_round_loads_and_the_match_goes_on(by_hand):
    # Saves made when a resignation ended the whole match have the same format (version
    # 1, the actions of each round): they load, and the match is offered its next round.
    match = Match(seed=15)
    match.round.resign(0)
    loaded = Match.loads(match.dumps())
    assert loaded.round.outcome == match.round.outcome
    assert not loaded.is_over
    loaded.next_round()
    assert Match.loads(loaded.dumps()).dumps() == loaded.dumps()
    assert len(Match.loads(loaded.dumps()).rounds) == 2


def test_a_tie_in_totals_goes_to_the_earlier_seat(by_hand):
    # RULES.md does not say; the engine's documented choice.
    match = Match(Rules(target=0, no_winner_when_blocked=True), seed=11)
    by_hand.rig(match.round, ["R5", "B5"], pool="")
    match.round.pass_()
    match.round.pass_()
    assert match.totals == [-5, -5]
    assert match.winner == 0


def test_the_players_list_must_match_the_rules():
    with pytest.raises(RulesError, match=r"must match rules\.players"):
        Match(Rules(players=3), players=[{"name": "A"}, {"name": "B"}])
    assert [p["name"] for p in Match(Rules(players=3)).players] == [
        "Player 1",
        "Player 2",
        "Player 3",
    ]
