"""Rounds (RULES.md, "A turn", "Turn clock", "Resigning", "Who starts", "End of a round and
scoring", and the round variants)."""

import pytest

from py_engine.rounds import (
    IllegalAction,
    Reason,
    Round,
    _who_starts,
    blocked_scores,
    went_out_scores,
)
from py_engine.rules import Rules
from py_engine.tiles import Tile, parse_tiles

# ----- dealing and turn order -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_is_dealt_14_tiles_and_the_rest_is_the_pool(players):
    game = Round(Rules(players=players), seed=11)
    assert [len(rack) for rack in game.racks] == [14] * players
    assert len(game.pool) == 106 - 14 * players
    places = game.tile_places()
    assert sorted(places) == list(range(106))
    assert game.table == []
    assert game.current == game.first
    assert game.turn == 1


def test_the_deal_depends_on_the_seed_only():
    assert Round(Rules(), seed=5).state() == Round(Rules(), seed=5).state()
    assert Round(Rules(), seed=5).racks != Round(Rules(), seed=6).racks


def test_turns_go_round_the_table_in_order():
    game = Round(Rules(players=4), seed=3)
    order = []
    for _ in range(8):
        order.append(game.current)
        game.draw()
    first = order[0]
    assert order == [(first + i) % 4 for i in range(8)]
    assert game.turn == 9


# ----- drawing and passing ----------------------------------------------------------------


def test_drawing_takes_one_tile_from_the_pool_and_ends_the_turn(by_hand):
    game = by_hand.rigged(["R1 R2", "B1 B2"], pool="K5 K6")
    tile = game.draw()
    assert tile.code == "K6"
    assert [t.code for t in game.racks[0]] == ["R1", "R2", "K6"]
    assert [t.code for t in game.pool] == ["K5"]
    assert game.current == 1
    assert game.actions == [{"player": 0, "action": "draw"}]


def test_with_the_pool_empty_a_player_passes_and_cannot_draw(by_hand):
    game = by_hand.rigged(["R1 R2", "B1 B2"], pool="")
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="The pool is empty: pass instead of drawing"):
        game.draw()
    assert by_hand.snapshot(game) == before
    game.pass_()
    assert game.current == 1
    assert game.actions == [{"player": 0, "action": "pass"}]


def test_a_player_may_not_pass_while_the_pool_has_tiles(by_hand):
    game = by_hand.rigged(["R1 R2", "B1 B2"], pool="K5")
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="You may only pass when the pool is empty"):
        game.pass_()
    assert by_hand.snapshot(game) == before


def test_draw_or_pass(by_hand):
    game = by_hand.rigged(["R1 R2", "B1 B2"], pool="K5")
    assert game.draw_or_pass().code == "K5"
    assert game.draw_or_pass() is None
    assert [a["action"] for a in game.actions] == ["draw", "pass"]


# ----- opening ----------------------------------------------------------------------------


def test_a_player_opens_with_30_from_their_rack(by_hand):
    game = by_hand.rigged(["R10 B10 J K1", "B1 B2 B3"])
    check = game.play(by_hand.lay(game, ["R10 B10 J"]))
    assert check.opening_value == 30
    assert game.opened == [True, False]
    assert [t.code for t in game.racks[0]] == ["K1"]
    assert [[t.code for t in row] for row in game.table] == [["R10", "B10", "J"]]


def test_an_opening_below_the_threshold_is_refused_and_nothing_changes(by_hand):
    game = by_hand.rigged(["R7 R8 R9 K1", "B1 B2 B3"])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="Your opening totals 24 points; 30 are needed"):
        game.play(by_hand.lay(game, ["R7 R8 R9"]))
    assert by_hand.snapshot(game) == before


def test_opening_50_variant_in_a_round(by_hand):
    game = by_hand.rigged(["R10 B10 J K11 K12 K13 Y1", "B1 B2 B3"], opening=50)
    with pytest.raises(IllegalAction, match="Your opening totals 30 points; 50 are needed"):
        game.play(by_hand.lay(game, ["R10 B10 J"]))
    game.play(by_hand.lay(game, ["R10 B10 J", "K11 K12 K13"]))
    assert game.opened[0]


def test_before_opening_the_table_may_not_be_touched_in_a_round(by_hand):
    game = by_hand.rigged(["R6 B10 Y10 K10", "B1 B2 B3"], table=["R3 R4 R5"])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.play(by_hand.lay(game, ["R3 R4 R5 R6", "B10 Y10 K10"]))
    assert "Before your opening you may not change the sets on the table" in [
        p.message for p in refused.value.problems
    ]
    assert by_hand.snapshot(game) == before


def test_after_opening_the_player_may_use_the_table_from_their_next_turn(by_hand):
    game = by_hand.rigged(["R10 B10 Y10 R6 K1", "K11 K12 K13 B1"], table=["R3 R4 R5"])
    game.play(by_hand.lay(game, ["R3 R4 R5", "R10 B10 Y10"]))
    game.play(by_hand.lay(game, ["R3 R4 R5", "R10 B10 Y10", "K11 K12 K13"]))
    game.play(by_hand.lay(game, ["R3 R4 R5 R6", "R10 B10 Y10", "K11 K12 K13"]))
    assert [t.code for t in game.racks[0]] == ["K1"]


def test_the_table_keeps_every_tile_after_a_rearrangement(by_hand):
    game = by_hand.rigged(["R5 K1", "B1"], table=["R3 R4 R5 R6 R7"], opened=[True, False])
    game.play(by_hand.lay(game, ["R3 R4 R5", "R5 R6 R7"]))
    assert sorted(t.code for row in game.table for t in row) == sorted(
        ["R3", "R4", "R5", "R5", "R6", "R7"]
    )
    assert sorted(game.tile_places()) == list(range(106))


def test_a_play_that_loses_a_table_tile_is_refused(by_hand):
    game = by_hand.rigged(["K11 B1", "B2"], table=["K7 K8 K9 K10"], opened=[True, True])
    before = by_hand.snapshot(game)
    table = [[t for t in game.table[0] if t.code != "K7"] + [game.racks[0][0]]]
    with pytest.raises(IllegalAction, match="K7 was on the table and is missing"):
        game.play(table)
    assert by_hand.snapshot(game) == before


def test_a_play_must_place_a_rack_tile(by_hand):
    game = by_hand.rigged(["B1", "B2"], table=["R3 R4 R5 R6 R7 R8"], opened=[True, True])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="Play at least one tile from your rack, or draw"):
        game.play(by_hand.lay(game, ["R3 R4 R5", "R6 R7 R8"]))
    assert by_hand.snapshot(game) == before


NEEDS_3 = "a set needs at least 3 tiles"


@pytest.mark.parametrize(
    ("sets", "said"),
    [
        (["R3 R4 R5 R6", "R7 R8"], f"Set 2: {NEEDS_3}"),
        (["R3 R4", "R5 R6 R7", "R8"], f"Set 1: {NEEDS_3}; Set 3 is not valid either"),
        (["R3", "R4", "R5 R6 R7", "R8"], f"Set 1: {NEEDS_3}; Sets 2 and 4 are not valid either"),
        (
            ["R3", "R4", "R5", "R6", "R7 R8"],
            f"Set 1: {NEEDS_3}; Sets 2, 3, 4 and 5 are not valid either",
        ),
    ],
)
def test_a_refused_play_names_every_set_that_is_not_valid(by_hand, sets, said):
    """The refusal gives the first problem in full and names the other sets that are not
    valid (the page shows it, with each set's own reason under that set); each set's
    reason is among the problems. Nothing changes."""
    game = by_hand.rigged(["R8 B1", "B2"], table=["R3 R4 R5 R6 R7"], opened=[True, True])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.play(by_hand.lay(game, sets))
    assert str(refused.value) == said
    invalid = [i for i, row in enumerate(sets) if len(row.split()) < 3]
    assert [p.set for p in refused.value.problems] == invalid
    assert by_hand.snapshot(game) == before


def test_the_stored_table_is_in_normal_order(by_hand):
    game = by_hand.rigged(["K13 J J B1", "B2"], opened=[True, True])
    game.play(by_hand.lay(game, ["K13 J J"]))
    assert [t.code for t in game.table[0]] == ["J", "J", "K13"]


# ----- easing opening ---------------------------------------------------------------------


def test_easing_opening_drops_5_after_every_2_own_turns_never_below_10(by_hand):
    game = by_hand.rigged(["R1", "B1"], easing_opening=True)
    seen = []
    for _ in range(12):
        seen.append(game.threshold(0))
        game.draw()  # player 0
        game.draw()  # player 1
    assert seen == [30, 30, 25, 25, 20, 20, 15, 15, 10, 10, 10, 10]
    assert game.threshold(1) == 10


def test_easing_lets_a_smaller_opening_through_once_it_has_dropped(by_hand):
    game = by_hand.rigged(["R3 R4 R5 R6 R7", "B1"], easing_opening=True)
    with pytest.raises(IllegalAction, match="Your opening totals 25 points; 30 are needed"):
        game.play(by_hand.lay(game, ["R3 R4 R5 R6 R7"]))
    for _ in range(2):
        game.draw()
        game.draw()
    assert game.threshold(0) == 25
    assert game.play(by_hand.lay(game, ["R3 R4 R5 R6 R7"])).ok


def test_without_easing_the_threshold_stays(by_hand):
    game = by_hand.rigged(["R1", "B1"])
    for _ in range(10):
        game.draw()
    assert game.threshold(0) == game.threshold(1) == 30


def test_easing_from_opening_50_and_its_floor():
    rules = Rules(opening=50, easing_opening=True)
    assert [rules.opening_threshold(w) for w in range(0, 20, 2)] == [
        50,
        45,
        40,
        35,
        30,
        25,
        20,
        15,
        10,
        10,
    ]


def test_easing_leaves_an_opening_below_10_as_it_is():
    rules = Rules(opening=8, easing_opening=True)
    assert [rules.opening_threshold(w) for w in range(0, 10)] == [8] * 10


def test_easing_counts_only_turns_that_end_without_opening(by_hand):
    game = by_hand.rigged(["R10 B10 Y10 R1", "B1"], easing_opening=True)
    game.play(by_hand.lay(game, ["R10 B10 Y10"]))
    game.draw()  # player 1
    game.draw()  # player 0, opened: not a waiting turn
    game.draw()  # player 1
    assert game.waits == [0, 2]


# ----- going out and scoring --------------------------------------------------------------


def test_worked_check_a_goes_out_b5_c10_d3():
    assert went_out_scores(0, [0, 5, 10, 3]) == (18, -5, -10, -3)


def test_worked_check_a_goes_out_in_a_round(by_hand):
    game = by_hand.rigged(["K11 K12 K13", "R5", "R4 B6", "Y3"])
    game.play(by_hand.lay(game, ["K11 K12 K13"]))
    assert game.is_over
    assert game.outcome.reason is Reason.WENT_OUT
    assert game.outcome.winner == 0
    assert game.outcome.rack_values == (0, 5, 10, 3)
    assert game.outcome.scores == (18, -5, -10, -3)


def test_a_player_who_plays_their_last_tile_wins_at_once(by_hand):
    game = by_hand.rigged(["R6", "B1 B2"], table=["R3 R4 R5"], opened=[True, False])
    game.play(by_hand.lay(game, ["R3 R4 R5 R6"]))
    assert game.outcome.winner == 0
    assert game.current == 0  # nobody moves after the winner
    with pytest.raises(IllegalAction, match="The round is over"):
        game.draw()


@pytest.mark.parametrize(("penalty", "expected"), [(30, 30), (25, 25)])
def test_a_joker_left_on_a_rack_costs_the_joker_penalty(by_hand, penalty, expected):
    game = by_hand.rigged(["K11 K12 K13", "J R2"], joker_penalty=penalty)
    assert game.rack_value(1) == expected + 2
    game.play(by_hand.lay(game, ["K11 K12 K13"]))
    assert game.outcome.scores == (expected + 2, -(expected + 2))


def test_joker_penalty_30_is_the_default():
    assert Rules().joker_penalty == 30


def test_worked_check_blocked_racks_12_30_47():
    assert blocked_scores(0, [12, 30, 47]) == (53, -18, -35)


def _blocked_round(by_hand, **rules):
    # Rack values 12, 30 (a joker), 47; the pool is empty.
    return by_hand.rigged(["R12", "J", "K13 Y13 B13 R8"], pool="", **rules)


def test_worked_check_blocked_in_a_round(by_hand):
    game = _blocked_round(by_hand)
    for _ in range(3):
        assert not game.is_over
        game.pass_()
    assert game.outcome.reason is Reason.BLOCKED
    assert game.outcome.winner == 0
    assert game.outcome.rack_values == (12, 30, 47)
    assert game.outcome.scores == (53, -18, -35)


def test_no_winner_when_blocked_setting(by_hand):
    game = _blocked_round(by_hand, no_winner_when_blocked=True)
    for _ in range(3):
        game.pass_()
    assert game.outcome.reason is Reason.BLOCKED
    assert game.outcome.winner is None
    assert game.outcome.scores == (-12, -30, -47)
    assert blocked_scores(None, [12, 30, 47], no_winner=True) == (-12, -30, -47)


def test_blocked_needs_every_player_to_pass_in_turn(by_hand):
    game = by_hand.rigged(["R12", "B5 B6 B7 B1", "K13"], pool="", opened=[True, True, True])
    game.pass_()
    game.play(by_hand.lay(game, ["B5 B6 B7"]))  # a play between passes restarts the count
    game.pass_()
    game.pass_()
    assert not game.is_over
    game.pass_()
    assert game.outcome.reason is Reason.BLOCKED
    assert game.outcome.winner == 1  # B1: the lowest rack


def test_blocked_tie_goes_to_the_tied_player_who_would_play_next(by_hand):
    # RULES.md does not say; the engine's documented choice.
    game = by_hand.rigged(["R5", "B5"], pool="")
    game.pass_()
    game.pass_()
    assert game.outcome.winner == 0
    assert game.outcome.scores == (0, 0)


# ----- last call --------------------------------------------------------------------------


def test_last_call_gives_every_player_exactly_one_more_turn(by_hand):
    game = by_hand.rigged(
        ["R1 R2", "B10 Y10 K10 B1", "Y1 Y2"], pool="K4", last_call=True, opened=[True, True, True]
    )
    game.draw()  # player 0 empties the pool
    game.play(by_hand.lay(game, ["B10 Y10 K10"]))  # player 1's last turn: a play
    game.pass_()  # player 2
    assert not game.is_over
    game.pass_()  # player 0: the last of the last turns
    assert game.is_over
    assert game.outcome.reason is Reason.BLOCKED
    assert game.outcome.rack_values == (7, 1, 3)
    assert game.outcome.winner == 1
    assert game.outcome.scores == (-6, 8, -2)


def test_without_last_call_the_round_goes_on(by_hand):
    game = by_hand.rigged(["R1 R2", "B10 Y10 K10 B1", "Y1 Y2"], pool="K4", opened=[True] * 3)
    game.draw()
    game.play(by_hand.lay(game, ["B10 Y10 K10"]))
    game.pass_()
    game.pass_()
    assert not game.is_over


def test_last_call_with_no_winner_when_blocked(by_hand):
    game = by_hand.rigged(["R1", "B2"], pool="K4", last_call=True, no_winner_when_blocked=True)
    game.draw()
    game.pass_()
    game.pass_()
    assert game.outcome.winner is None
    assert game.outcome.scores == (-5, -2)


def test_last_call_ends_even_when_a_resigned_players_turn_is_skipped(by_hand):
    # Player 0 empties the pool; players 1, 2 and 0 each have one turn left. Player 1
    # takes theirs; player 0 resigns before theirs: player 2's turn is the last.
    game = by_hand.rigged(
        ["R1", "B10 Y10 K10 B1", "Y1"], pool="K4", last_call=True, opened=[True] * 3
    )
    game.draw()
    game.play(by_hand.lay(game, ["B10 Y10 K10"]))  # player 1
    game.resign(0)
    assert not game.is_over
    game.pass_()  # player 2
    assert game.is_over
    assert game.outcome.reason is Reason.BLOCKED


def test_last_call_when_the_current_player_resigns(by_hand):
    game = by_hand.rigged(["R1", "B1", "Y1"], pool="K4", last_call=True)
    game.draw()  # 1, 2 and 0 have one turn left
    game.pass_()  # player 1
    game.resign(2)  # player 2 gives up their last turn
    assert game.current == 0
    assert not game.is_over
    game.pass_()  # player 0
    assert game.is_over


def test_last_call_ends_when_the_last_player_owed_a_turn_resigns(by_hand):
    game = by_hand.rigged(["R1", "B1", "Y1"], pool="K4", last_call=True)
    game.draw()
    game.pass_()  # player 1
    game.pass_()  # player 2
    game.resign(0)  # player 0 gives up the last of the last turns
    assert game.is_over
    assert game.outcome.reason is Reason.BLOCKED
    assert game.outcome.winner == 1


def test_last_call_when_a_player_who_has_had_their_last_turn_resigns(by_hand):
    game = by_hand.rigged(["R1", "B1", "Y1"], pool="K4", last_call=True)
    game.draw()
    game.pass_()  # player 1, done
    game.resign(1)
    game.pass_()  # player 2
    assert not game.is_over
    game.pass_()  # player 0
    assert game.is_over


# ----- the turn clock ---------------------------------------------------------------------


def test_clock_expiry_untouched_is_an_ordinary_draw(by_hand):
    game = by_hand.rigged(["R1", "B1"], pool="K4 K5", turn_seconds=60)
    what, drawn = game.timeout(None)
    assert what == "draw"
    assert [t.code for t in drawn] == ["K5"]
    assert game.current == 1
    assert game.actions == [{"player": 0, "action": "draw"}]


def test_clock_expiry_with_the_table_as_it_was_counts_as_untouched(by_hand):
    game = by_hand.rigged(["R1", "B1"], table=["R3 R4 R5"], pool="K4 K5")
    what, _ = game.timeout([list(row) for row in game.table])
    assert what == "draw"


def test_clock_expiry_untouched_with_an_empty_pool_is_a_pass(by_hand):
    game = by_hand.rigged(["R1", "B1"], pool="")
    assert game.timeout(None) == ("pass", [])
    assert game.actions == [{"player": 0, "action": "pass"}]


def test_clock_expiry_with_a_legal_arrangement_plays_it(by_hand):
    game = by_hand.rigged(["R6 B1", "B2"], table=["R3 R4 R5"], opened=[True, True])
    what, drawn = game.timeout(by_hand.lay(game, ["R3 R4 R5 R6"]))
    assert (what, drawn) == ("play", [])
    assert [t.code for t in game.racks[0]] == ["B1"]
    assert game.actions[-1]["action"] == "play"


def test_clock_expiry_with_an_illegal_arrangement_snaps_back_and_draws_3(by_hand):
    game = by_hand.rigged(
        ["R6 B1", "B2"], table=["R3 R4 R5"], pool="K1 K2 K3 K4", opened=[True] * 2
    )
    table_before = [list(row) for row in game.table]
    what, drawn = game.timeout(by_hand.lay(game, ["R3 R4 R5 R6 B1"]))
    assert what == "penalty"
    assert [t.code for t in drawn] == ["K4", "K3", "K2"]
    assert game.table == table_before
    assert [t.code for t in game.racks[0]] == ["R6", "B1", "K4", "K3", "K2"]
    assert [t.code for t in game.pool] == ["K1"]
    assert game.current == 1
    assert game.actions == [{"player": 0, "action": "penalty"}]


def test_clock_penalty_draws_only_what_the_pool_has(by_hand):
    game = by_hand.rigged(["R6 B1", "B2"], table=["R3 R4 R5"], pool="K1 K2", opened=[True] * 2)
    what, drawn = game.timeout(by_hand.lay(game, ["R3 R4 R6"]))
    assert what == "penalty"
    assert [t.code for t in drawn] == ["K2", "K1"]
    assert game.pool == []


def test_clock_penalty_with_an_empty_pool_counts_as_a_pass(by_hand):
    # Nothing can be drawn: the turn is a pass, so the round can still end blocked.
    game = by_hand.rigged(["R6 B1", "B2"], table=["R3 R4 R5"], pool="", opened=[True] * 2)
    assert game.timeout(by_hand.lay(game, ["R3 R4 R6 B1"])) == ("penalty", [])
    game.pass_()
    assert game.is_over
    assert game.outcome.reason is Reason.BLOCKED


def test_a_penalty_before_opening_counts_as_a_turn_without_opening(by_hand):
    game = by_hand.rigged(["R7 R8 R9", "B2"], easing_opening=True)
    game.timeout(by_hand.lay(game, ["R7 R8 R9"]))
    assert game.waits[0] == 1


# ----- resigning --------------------------------------------------------------------------


def test_resigning_with_one_opponent_left_that_opponent_wins(by_hand):
    game = by_hand.rigged(["R1 R2 J", "B5 B6"])
    game.resign(0)
    assert game.outcome.reason is Reason.RESIGNED
    assert game.outcome.winner == 1
    assert game.outcome.rack_values == (33, 11)
    assert game.outcome.scores == (-33, 33)


def test_a_player_may_resign_when_it_is_not_their_turn(by_hand):
    game = by_hand.rigged(["R1", "B5 B6"])
    game.resign(1)
    assert game.outcome.winner == 0
    assert game.outcome.scores == (11, -11)


def test_a_resigned_player_is_skipped_and_scored_as_an_ordinary_loser(by_hand):
    game = by_hand.rigged(["K11 K12 K13", "R4 R5", "Y7"], current=1, opened=[True, True, True])
    game.resign(1)
    assert not game.is_over
    assert game.current == 2  # the resigned player's turn passed on
    game.draw()
    assert game.current == 0
    game.play(by_hand.lay(game, ["K11 K12 K13"]))
    assert game.outcome.reason is Reason.WENT_OUT
    assert game.outcome.scores[1] == -9


def test_resigned_players_tiles_leave_play(by_hand):
    game = by_hand.rigged(["R1", "B5 B6", "Y7"])
    game.resign(1)
    game.draw()
    assert game.current == 2
    game.draw()
    assert game.current == 0


def test_resigning_twice_or_after_the_round_or_as_nobody_is_refused(by_hand):
    game = by_hand.rigged(["R1", "B5 B6", "Y7"])
    game.resign(1)
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="already resigned"):
        game.resign(1)
    for nobody in (3, -1, "0", None):
        with pytest.raises(IllegalAction, match="There is no player"):
            game.resign(nobody)
    assert by_hand.snapshot(game) == before
    game.resign(2)
    assert game.is_over
    with pytest.raises(IllegalAction, match="The round is over"):
        game.resign(0)


def test_blocked_after_a_resignation_leaves_the_resigned_player_out_of_the_win(by_hand):
    game = by_hand.rigged(["R12", "B2", "K13"], pool="")
    game.resign(1)  # the lowest rack, but out of play
    game.pass_()
    game.pass_()
    assert game.outcome.winner == 0
    assert game.outcome.scores[2] == -1


def test_a_resigned_player_with_a_rack_below_the_blocked_winners_scores_0(by_hand):
    game = by_hand.rigged(["R12", "B2", "K13"], pool="")
    game.resign(1)  # rack 2, below the winner's 12: a loser never gains
    game.pass_()
    game.pass_()
    assert game.outcome.winner == 0
    assert game.outcome.rack_values == (12, 2, 13)
    assert game.outcome.scores == (1, 0, -1)


def test_a_resigned_players_pass_no_longer_counts_towards_a_block(by_hand):
    game = by_hand.rigged(["R1", "B1", "Y1"], pool="", current=1)
    game.pass_()  # player 1
    game.resign(1)
    game.pass_()  # player 2
    assert not game.is_over  # player 0 has not passed yet
    game.pass_()  # player 0
    assert game.is_over
    assert game.outcome.reason is Reason.BLOCKED


# ----- who starts -------------------------------------------------------------------------


class StackedDeck:
    """A stand-in random source whose shuffle puts the given tiles on top, in draw order."""

    def __init__(self, codes):
        self.top = parse_tiles(codes)

    def shuffle(self, deck):
        rest = [t for t in deck if t not in self.top]
        deck[:] = rest + self.top[::-1]


def drawn(draws):
    return [[(p, t.code) for p, t in row] for row in draws]


def test_the_highest_number_starts():
    draws, first = _who_starts(StackedDeck("R3 B9 Y7"), 3)
    assert first == 1
    assert drawn(draws) == [[(0, "R3"), (1, "B9"), (2, "Y7")]]


def test_a_tie_draws_again_between_the_tied_players():
    draws, first = _who_starts(StackedDeck("R3 B9 Y9 K1 R12"), 3)
    assert drawn(draws) == [[(0, "R3"), (1, "B9"), (2, "Y9")], [(1, "K1"), (2, "R12")]]
    assert first == 2


def test_a_joker_draws_again():
    draws, first = _who_starts(StackedDeck("J B5 K8"), 2)
    assert drawn(draws) == [[(0, "J"), (1, "B5")], [(0, "K8")]]
    assert first == 0


def test_a_joker_that_draws_again_can_still_lose():
    draws, first = _who_starts(StackedDeck("R4 J B2 R1"), 3)
    assert drawn(draws) == [[(0, "R4"), (1, "J"), (2, "B2")], [(1, "R1")]]
    assert first == 0


def test_two_jokers_both_draw_again():
    draws, first = _who_starts(StackedDeck("J J R2 R3"), 2)
    assert drawn(draws) == [[(0, "J"), (1, "J")], [(0, "R2"), (1, "R3")]]
    assert first == 1


def test_a_joker_redraw_that_ties_draws_again():
    draws, first = _who_starts(StackedDeck("J B5 K5 Y6 R2"), 2)
    assert drawn(draws) == [[(0, "J"), (1, "B5")], [(0, "K5")], [(0, "Y6"), (1, "R2")]]
    assert first == 0


def referee(draws, players):
    """Check the who-starts draws against RULES.md and name the starter."""
    standing = {}
    expected = list(range(players))
    for row in draws:
        assert [p for p, _ in row] == expected  # exactly the players due to draw
        for p, tile in row:
            standing[p] = None if tile.is_joker else tile.number
        jokers = [p for p, tile in row if tile.is_joker]
        if jokers:
            expected = jokers
            continue
        top = max(n for n in standing.values() if n is not None)
        expected = [p for p in sorted(standing) if standing[p] == top]
        standing = {p: top for p in expected}
        if len(expected) == 1:
            return expected[0]
    raise AssertionError("the draws end without a starter")


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("players", [2, 4])
def test_the_starter_drew_the_highest_number_and_the_draws_are_kept(seed, players):
    game = Round(Rules(players=players), seed=seed)
    assert referee(game.who_starts, players) == game.first
    assert len(game.who_starts[-1]) >= 1
    assert game.current == game.first
    # The drawn tiles went back: all 106 are dealt or in the pool.
    assert sorted(game.tile_places()) == list(range(106))


def test_some_seeds_have_a_joker_or_a_tie_in_the_draw():
    # The seeded checks above do cover redraws.
    draws = [Round(Rules(players=4), seed=seed).who_starts for seed in range(60)]
    assert any(any(t.is_joker for row in d for _, t in row) for d in draws)
    assert any(len(d) > 1 and not any(t.is_joker for _, t in d[0]) for d in draws)


# ----- actions out of turn, after the end, bad actions ------------------------------------


def test_actions_out_of_turn_are_refused_and_change_nothing(by_hand):
    game = by_hand.rigged(["R10 B10 Y10", "K10 K11 K12"], pool="R1")
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        game.draw(player=1)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        game.play(by_hand.lay(game, ["K10 K11 K12"], player=1), player=1)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        game.check([], player=1)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        game.timeout(None, player=1)
    with pytest.raises(IllegalAction, match="action out of turn"):
        game.apply({"action": "draw", "player": 1})
    assert by_hand.snapshot(game) == before


def test_every_action_after_the_round_ended_is_refused(by_hand):
    game = by_hand.rigged(["K11 K12 K13", "B1 B2"])
    game.play(by_hand.lay(game, ["K11 K12 K13"]))
    before = by_hand.snapshot(game)
    attempts = [
        game.draw,
        game.pass_,
        game.draw_or_pass,
        lambda: game.play([parse_tiles("B1 B2 B3")]),
        lambda: game.timeout(None),
        lambda: game.check([]),
        lambda: game.resign(1),
        lambda: game.apply({"action": "draw", "player": 0}),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalAction, match="The round is over"):
            attempt()
    assert by_hand.snapshot(game) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("draw", "an action must be a JSON object"),
        ({"action": "fly", "player": 0}, "unknown action 'fly'"),
        ({"action": "play", "player": 0, "table": "R1"}, "a table must be a list of sets"),
        ({"action": "play", "player": 0, "table": [[200]]}, "unknown tile id 200"),
        ({"action": "play", "player": 0, "table": [["R1"]]}, "unknown tile id 'R1'"),
        ({"action": "play", "player": 0, "table": [[0, 1, 2], [0, 1, 2]]}, "placed twice"),
        ({"action": "resign", "player": 7}, "There is no player 7"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(by_hand, action, message):
    game = by_hand.rigged(["R1 R2 R3", "B1 B2 B3"])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match=message):
        game.apply(action)
    assert by_hand.snapshot(game) == before


def test_tiles_not_in_the_rack_are_refused(by_hand):
    game = by_hand.rigged(["R10 B10 Y10", "K10 K11 K12"], opened=[True, True])
    before = by_hand.snapshot(game)
    theirs = by_hand.lay(game, ["K10 K11 K12"], player=1)
    with pytest.raises(IllegalAction) as refused:
        game.play(theirs)
    assert [p.message for p in refused.value.problems] == [
        "K10 is not in your rack",
        "K11 is not in your rack",
        "K12 is not in your rack",
        "Play at least one tile from your rack, or draw",
    ]
    assert by_hand.snapshot(game) == before


def test_an_illegal_play_reports_every_problem(by_hand):
    game = by_hand.rigged(["R5 R5 B5 K1", "B1"], opened=[True, True])
    with pytest.raises(IllegalAction, match="Set 1: a group cannot repeat a colour") as refused:
        game.play(by_hand.lay(game, ["R5 R5 B5", "K1"]))
    assert [p.set for p in refused.value.problems] == [0, 1]


def test_check_changes_nothing(by_hand):
    game = by_hand.rigged(["R10 B10 Y10", "K1"])
    before = by_hand.snapshot(game)
    assert game.check(by_hand.lay(game, ["R10 B10 Y10"])).ok
    assert not game.check([[Tile(0)]]).ok
    assert by_hand.snapshot(game) == before


# ----- review fixes -------------------------------------------------------------------------


def test_resign_refuses_a_boolean_for_a_player(by_hand):
    game = by_hand.rigged(["R1 R2", "B1 B2"])
    before = by_hand.snapshot(game)
    with pytest.raises(IllegalAction, match="no player True"):
        game.resign(True)  # type: ignore[arg-type]
    assert by_hand.snapshot(game) == before


def test_a_clock_expiry_with_sets_only_reordered_counts_as_untouched(by_hand):
    game = by_hand.rigged(
        ["R1 B2 Y3", "B1 B5"], table=["K3 K4 K5", "R7 B7 Y7"], opened=[True, True]
    )
    shuffled = [list(reversed(game.table[1])), list(game.table[0])]
    what, drawn = game.timeout(shuffled)
    assert what == "draw" and len(drawn) == 1
    assert len(game.racks[0]) == 4


def test_replaying_an_action_after_the_round_ended_says_the_round_is_over(by_hand):
    game = by_hand.rigged(["R1 R2 R3", "B1 B5"], opened=[True, True])
    game.play(by_hand.lay(game, ["R1 R2 R3"]))
    assert game.is_over
    with pytest.raises(IllegalAction, match="round is over"):
        game.apply({"player": 1, "action": "draw"})
