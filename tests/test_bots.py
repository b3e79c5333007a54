"""The computer opponents: legal, deterministic, and each level doing what it says."""

from __future__ import annotations

import random

import pytest

from py_engine import bots
from py_engine.arena import bot_turns
from py_engine.bots import LEVELS, BotTurn, View, _deal, choose_turn, hint
from py_engine.rounds import Round
from py_engine.rules import Rules
from py_engine.solver import solve
from py_engine.turns import check_turn


def play_out(levels: list[str], seed: str, rules: Rules | None = None, turns: int = 400) -> Round:
    """Play a round between bots; ``game.play`` refuses any illegal table."""
    game = Round((rules or Rules()).with_(players=len(levels)), seed=seed)
    last = None  # the last turn chosen: its player, their rack before it, what it placed
    for p, turn, _seconds in bot_turns(game, levels, seed, max_turns=turns):
        _placed_what_it_said(game, last)
        last = (p, {t.id for t in game.racks[p]}, {t.id for t in turn.placed})
    _placed_what_it_said(game, last)
    return game


def _placed_what_it_said(game: Round, last: tuple[int, set[str], set[str]] | None) -> None:
    if last is not None:
        player, before, placed = last
        assert placed == before - {t.id for t in game.racks[player]}


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_whole_legal_round(level: str) -> None:
    game = play_out([level, "hard"], seed=f"legal-{level}")
    assert game.is_over


def test_variants_are_played_legally() -> None:
    rules = Rules(wrap_runs=True, locked_jokers=True, easing_opening=True)
    game = play_out(["expert", "medium", "easy"], seed="variants", rules=rules)
    assert game.is_over


def test_turns_are_deterministic_given_the_seed() -> None:
    game = Round(seed=11)
    for _ in range(12):  # get past the openings
        p = game.current
        turn = choose_turn(game, p, "hard", random.Random(1))
        if turn.table is not None:
            game.play(turn.table, player=p)
        else:
            game.draw_or_pass(player=p)
    for level in LEVELS:
        a = choose_turn(game, game.current, level, random.Random("same"))
        b = choose_turn(game, game.current, level, random.Random("same"))
        assert a.to_json() == b.to_json()


def test_a_turn_carries_steps_and_narration(by_hand) -> None:
    game = by_hand.rigged(["R6 B10 Y10 K10 K1", "K2"], ["R3 R4 R5"], opened=[True, True])
    turn = choose_turn(game, 0, "hard", random.Random(0), name="Computer 1")
    assert isinstance(turn, BotTurn)
    assert sorted(t.code for t in turn.placed) == ["B10", "K10", "R6", "Y10"]
    assert turn.narration.startswith("Computer 1 laid ")
    assert turn.narration.endswith("and added R6 to R3 R4 R5")
    for step in turn.steps:
        assert set(step) == {"tile", "from", "to"}
        assert step["from"] == "rack" or set(step["from"]) == {"set", "index"}
    moved = {s["tile"] for s in turn.steps}
    assert {t.id for t in turn.placed} <= moved
    data = turn.to_json()
    assert data["table"] == [[t.id for t in row] for row in turn.table]


def test_a_bot_that_cannot_play_draws(by_hand) -> None:
    game = by_hand.rigged(["R1 B5 Y9", "K2"], [], opened=[True, True])
    for level in LEVELS:
        turn = choose_turn(game, 0, level, random.Random(0))
        assert turn.table is None and turn.narration == "Computer 0 drew a tile"


def test_easy_never_rearranges(by_hand) -> None:
    for seed in range(20):
        game = Round(seed=seed)
        for _ in range(40):
            if game.is_over:
                break
            p = game.current
            before = [list(r) for r in game.table]
            level = "easy" if p == 0 else "hard"
            turn = choose_turn(game, p, level, random.Random(seed))
            if turn.table is None:
                game.draw_or_pass(player=p)
                continue
            if level == "easy":
                # every set on the table is still there, whole and in one piece
                after = [[t.id for t in row] for row in turn.table]
                for row in before:
                    ids = [t.id for t in row]
                    assert any(
                        any(a[i : i + len(ids)] == ids for i in range(len(a))) for a in after
                    )
            game.play(turn.table, player=p)


def test_medium_splits_a_run_and_borrows_a_spare_tile(by_hand) -> None:
    game = by_hand.rigged(["R5 B1", "K2"], ["R2 R3 R4 R5 R6 R7 R8"], opened=[True, True])
    turn = choose_turn(game, 0, "medium", random.Random(0))
    assert [t.code for t in turn.placed] == ["R5"]
    game = by_hand.rigged(["B9 Y9 K1", "K2"], ["R6 R7 R8 R9"], opened=[True, True])
    turn = choose_turn(game, 0, "medium", random.Random(0))
    assert sorted(t.code for t in turn.placed) == ["B9", "Y9"]
    assert choose_turn(game, 0, "easy", random.Random(0)).table is None


def test_medium_swaps_a_joker_out(by_hand) -> None:
    game = by_hand.rigged(["R6 B9 Y9", "K2"], ["R5 J R7"], opened=[True, True])
    turn = choose_turn(game, 0, "medium", random.Random(0))
    assert sorted(t.code for t in turn.placed) == ["B9", "R6", "Y9"]


def test_easy_sometimes_misses_a_play(by_hand) -> None:
    game = by_hand.rigged(["R6 B1", "K2"], ["R3 R4 R5"], opened=[True, True])
    missed = sum(choose_turn(game, 0, "easy", random.Random(s)).table is None for s in range(60))
    assert 3 <= missed <= 40
    assert all(choose_turn(game, 0, "medium", random.Random(s)).table for s in range(10))


def test_hard_places_the_most_and_the_hint_agrees(by_hand) -> None:
    game = by_hand.rigged(["R6 J B1 Y1", "K2"], ["R3 R4 R5", "K7 R7 B7"], opened=[True, True])
    turn = choose_turn(game, 0, "hard", random.Random(0))
    best = hint(game, 0)
    assert best is not None and best.count == len(turn.placed) == 4
    check = check_turn(game.table, best.table, game.racks[0], opened=True)
    assert check.ok


def test_hard_noisy_sometimes_keeps_a_tile_of_its_best_play_back(by_hand) -> None:
    game = by_hand.rigged(["R6 B9 Y9 K9 Y1", "K2"], ["R3 R4 R5"], opened=[True, True])
    placed = [len(choose_turn(game, 0, "hard-noisy", random.Random(s)).placed) for s in range(60)]
    # hard's 4 tiles (R6 and the 9s), or fewer when one of them is kept back: R6 kept, the
    # 9s go down; a 9 kept, only R6 does
    assert set(placed) == {1, 3, 4}
    assert 3 <= placed.count(1) + placed.count(3) <= 25  # about one turn in five
    going_out = by_hand.rigged(["R6 R7", "K2"], ["R3 R4 R5"], opened=[True, True])
    assert all(
        len(choose_turn(going_out, 0, "hard-noisy", random.Random(s)).placed) == 2
        for s in range(20)
    )


def test_hard_noisy_is_for_measuring_only() -> None:
    game = play_out(["hard-noisy", "hard"], seed="legal-hard-noisy")
    assert game.is_over
    assert "hard-noisy" not in LEVELS  # the page and the bridge offer LEVELS only


def test_hint_before_opening_and_when_nothing_fits(by_hand) -> None:
    game = by_hand.rigged(["R1 R2 R3 B7", "K2"], [], opened=[False, False])
    assert hint(game, 0) is None
    game = by_hand.rigged(["R10 R11 R12 B7", "K2"], [], opened=[False, False])
    best = hint(game, 0)
    assert best is not None and best.value == 33


def test_expert_goes_out_when_it_can_and_otherwise_plays_the_most(by_hand) -> None:
    game = by_hand.rigged(["R6 R7", "K2 K3 K4 K5 K6 K7 K8 K9"], ["R3 R4 R5"], opened=[True, True])
    turn = choose_turn(game, 0, "expert", random.Random(0))
    assert len(turn.placed) == 2  # going out
    game = by_hand.rigged(
        ["R6 B9 Y9 K9 Y1", "K2 K3 K4 K5 K6 K7 K8 K9"], ["R3 R4 R5"], opened=[True, True]
    )
    turn = choose_turn(game, 0, "expert", random.Random(0))
    assert turn.table is not None and len(turn.placed) == 4


def test_a_bot_turn_carries_its_steps_and_narration(by_hand) -> None:
    game = by_hand.rigged(["R6", "K2"], ["R3 R4 R5", "B1 B2 B3"], opened=[True, True])
    turn = choose_turn(game, 0, "hard", random.Random(0), name="Bot")
    r6 = next(t for row in turn.table for t in row if t.code == "R6")
    assert [s["tile"] for s in turn.steps] == [r6.id]
    assert turn.steps[0]["from"] == "rack"
    assert turn.narration == "Bot added R6 to R3 R4 R5"


@pytest.mark.parametrize("level", ["hard", "expert", "hint"])
def test_a_bot_turn_and_a_hint_leave_the_table_in_its_order(by_hand, level) -> None:
    # The solver's own answer here puts the blue run first and the group's tiles in
    # another order; a bot's turn and a hint keep every set in its place (new tiles at
    # the end of a group), so the only tiles shown moving are the two from the rack.
    table = ["R3 R4 R5", "B1 B2 B3", "K10 Y10 R10", "K8 K9 K10 K11"]
    game = by_hand.rigged(["B4 K12 R1", "K2"], table, opened=[True, True])
    before = [list(row) for row in game.table]
    if level == "hint":
        best = hint(game, 0)
        assert best is not None
        after = best.table
    else:
        turn = choose_turn(game, 0, level, random.Random(0))
        assert turn.table is not None and len(turn.steps) == 2
        assert all(step["from"] == "rack" for step in turn.steps)
        after = turn.table
    assert [[t.id for t in row] for row in after] == [
        [t.id for t in before[0]],
        [*(t.id for t in before[1]), game.racks[0][0].id],
        [t.id for t in before[2]],
        [*(t.id for t in before[3]), game.racks[0][1].id],
    ]


def test_expert_endgame_rollouts_are_legal_and_deterministic(by_hand) -> None:
    # Two players, a small rack: the expert weighs its plays (and drawing) by rollouts.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    a = choose_turn(game, 0, "expert", random.Random("x"))
    b = choose_turn(game, 0, "expert", random.Random("x"))
    assert a.to_json() == b.to_json()
    if a.table is not None:
        assert game.check(a.table).ok


def test_the_look_ahead_is_bounded_and_the_move_itself_exact(by_hand, monkeypatch) -> None:
    # Every solve of the rollouts and the racks sampled for them gives up after
    # LOOKAHEAD_EFFORT states; the expert's own best play is the exact solver's.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    efforts: list[int | None] = []

    def solve(*args, **kw):
        efforts.append(kw.get("effort"))
        return real_solve(*args, **kw)

    def can_play(*args, **kw):
        efforts.append(args[3] if len(args) > 3 else kw.get("effort"))
        return real_can_play(*args, **kw)

    real_solve, real_can_play = bots.solve, bots.can_play
    monkeypatch.setattr(bots, "solve", solve)
    monkeypatch.setattr(bots, "can_play", can_play)
    turn = choose_turn(game, 0, "expert", random.Random("x"))
    assert efforts[0] is None  # the best play, exact
    assert len(efforts) > 10 and efforts.count(bots.LOOKAHEAD_EFFORT) >= len(efforts) - 2
    assert turn.table is None or game.check(turn.table).ok


def test_a_play_chosen_from_the_look_ahead_is_laid_out_as_the_solver_lays_it(by_hand) -> None:
    # The expert's alternatives are found without the solver's layout (fewest table sets
    # changed), as its look-ahead reads only which tiles go down; the one it picks is laid
    # out again before it is played.
    game = by_hand.rigged(
        ["R9 B3", "K2"], ["R3 R4 R5", "R6 R7 R8", "B4 B5 B6"], opened=[True, True]
    )
    view = View.of(game, 0)
    quick = bots._best(view, [t for t in view.rack if t.code == "R9"], layout=False)
    laid = bots._best(view, [t for t in view.rack if t.code == "R9"])
    # without the layout two table sets change; with it only R6 R7 R8 does, taking R9
    assert quick.changed == 2 and laid.changed == 1
    table = bots._laid_out(view, quick)
    assert game.check(table).ok
    assert sorted(map(sorted, ([t.code for t in r] for r in table))) == sorted(
        map(sorted, ([t.code for t in r] for r in laid.table))
    )


def test_the_view_tells_the_opponents_last_move() -> None:
    game = Round(Rules(), seed="last-move")
    assert View.of(game, game.current).others_last == (None,)
    first = game.current
    game.draw_or_pass(player=first)
    assert View.of(game, game.current).others_last == ("draw",)


def test_last_move_counts_a_play_only_after_the_opening(by_hand) -> None:
    game = by_hand.rigged(["R10 R11 R12 R13 B1", "K2 K3 K5 Y7"], [], opened=[False, False])
    game.play(by_hand.lay(game, ["R10 R11 R12"]), player=0)
    assert View.of(game, 1).others_last == (None,)  # that play was the opening
    game.draw_or_pass(player=1)
    assert View.of(game, 0).others_last == ("draw",)
    game.play(by_hand.lay(game, ["R10 R11 R12 R13"]), player=0)
    assert View.of(game, 1).others_last == ("play",)


def _after_opponent_drew(by_hand, opened: bool) -> View:
    """Player 0's view just after the opponent (opened or not) drew a tile."""
    game = by_hand.rigged(
        ["B1 B2 B5 B8 Y11 K13", "K2 K3 K4"],
        ["R3 R4 R5", "B10 Y10 K10"],
        current=1,
        opened=[True, opened],
    )
    game.draw_or_pass(player=1)
    return View.of(game, 0)


def test_sampled_opponent_racks_agree_with_their_draw(by_hand) -> None:
    # The opponent drew last turn with the table as it is now: a greedy player had nothing
    # to lay, so every sampled rack less one tile (the drawn one) has no play here.
    view = _after_opponent_drew(by_hand, opened=True)
    assert view.others_last == ("draw",)
    unseen = view.unseen()
    for seed in range(20):
        rack, pool = _deal(view, unseen, random.Random(seed))
        assert len(rack) == 4
        assert sorted(t.id for t in rack + pool) == sorted(t.id for t in unseen)
        assert any(
            not solve(view.table, [t for t in rack if t.id != x.id], opened=True).found
            for x in rack
        )


def test_racks_for_an_opponent_yet_to_open_are_not_held_to_their_draw(by_hand) -> None:
    # Before opening, a draw only says they had no opening: the rack is sampled freely.
    view = _after_opponent_drew(by_hand, opened=False)
    assert view.others_last == ("draw",) and view.others_opened == (False,)
    unseen = view.unseen()
    free = list(unseen)
    random.Random(3).shuffle(free)
    assert _deal(view, unseen, random.Random(3)) == (free[:4], free[4:])


def test_a_rollout_that_draws_takes_the_next_tile_its_deal_would_deal(by_hand, monkeypatch) -> None:
    # Drawing is weighed like any play: the tile drawn is the one the rollout would deal
    # next (the end of the sampled pool), so a deal that is the real pool is the real draw.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    view = View.of(game, 0)
    unseen = view.unseen()
    opp, pool = unseen[:4], unseen[4:]
    monkeypatch.setattr(bots, "_deal", lambda *args, **kw: (list(opp), list(pool)))
    rolled = []

    def rollout(rules, table, mine, their, opened, rest):
        rolled.append((table is view.table, mine, rest))
        return 0.5

    monkeypatch.setattr(bots, "_rollout", rollout)
    best = bots._best(view)
    assert best.count == 1  # small enough that drawing is weighed too
    search = bots._Search()
    bots._rollout_choice(view, bots._same_size_plays(view, best, search), random.Random(0), search)
    draws = [(mine, rest) for drew, mine, rest in rolled if drew]
    assert len(draws) == bots.ROLLOUTS
    for mine, rest in draws:
        assert [t.id for t in mine] == [t.id for t in view.rack] + [pool[-1].id]
        assert [t.id for t in rest] == [t.id for t in pool[:-1]]


def test_a_decision_stops_looking_for_agreeing_racks_once_a_deal_finds_none(
    by_hand, monkeypatch
) -> None:
    # The opponent drew, so a rack for them should, less one tile, have no play. Here the
    # solver is made to find a play for every rack: the first deal shuffles RACK_TRIES
    # times and gives up, and the decision's later deals do not look again.
    view = _after_opponent_drew(by_hand, opened=True)
    unseen = view.unseen()
    calls = []

    def can_play(*args, **kw):
        calls.append(1)
        return True

    monkeypatch.setattr(bots, "can_play", can_play)
    search = bots._Search()
    rng = random.Random(5)
    first = _deal(view, unseen, rng, search=search)
    assert len(calls) == bots.RACK_TRIES and search.hopeless
    second = _deal(view, unseen, rng, search=search)
    assert len(calls) == bots.RACK_TRIES  # no more looking
    for rack, pool in (first, second):
        assert sorted(t.id for t in rack + pool) == sorted(t.id for t in unseen)
    # without a shared search each deal looks on its own
    _deal(view, unseen, rng)
    assert len(calls) == 2 * bots.RACK_TRIES


def test_the_win_chance_table_favours_the_smaller_rack_and_the_player_to_move() -> None:
    # Measured from hard-against-hard rounds (benchmarks/expert_eval.py): where the data
    # is thick (racks of 1 to 6), fewer tiles than the other side means better than even.
    chance = bots._win_chance
    assert all(0 <= x <= 1000 for row in bots._WIN_CHANCE for x in row)  # thousandths
    for mover in range(1, 7):
        for other in range(1, 7):
            if mover < other:
                assert chance(mover, other) > 0.5
            elif mover > other:
                assert chance(mover, other) < 0.5
    assert chance(1, 1) > 0.55  # the one to move with a last tile often lays it first
    assert chance(30, 3) == chance(14, 3)  # sizes past the table's end are capped


def test_a_rollout_still_going_is_scored_by_the_win_chance_table(by_hand) -> None:
    # Nobody can play or draw usefully within the horizon: the rollout's value is the
    # table's chance for me, with the opponent to move.
    game = by_hand.rigged(["R1 B5", "K2 Y8 B12"], [], opened=[True, True])
    view = View.of(game, 0)
    value = bots._rollout(view.rules, [], list(view.rack), list(game.racks[1]), True, [])
    assert value == pytest.approx(1.0 - bots._win_chance(3, 2))


def test_past_its_effort_a_rollout_decision_counts_only_deals_played_out_for_every_option(
    by_hand, monkeypatch
) -> None:
    # THINK_EFFORT bounds a decision's look-ahead by the states its searches close (a
    # count, not the clock: the same move on every machine). Once it is spent no further
    # deal is sampled, and a deal cut off before every option was played out is left
    # out: here the first deal favours drawing, and the second, cut off after the play's
    # rollout, would favour the play were it counted.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    view = View.of(game, 0)
    unseen = view.unseen()
    deals, values, rolled = [], iter([0.4, 0.5, 0.9]), []

    def deal(*args, **kw):
        deals.append(1)
        return list(unseen[:4]), list(unseen[4:])

    def rollout(*args):
        rolled.append(1)
        return next(values)

    monkeypatch.setattr(bots, "_deal", deal)
    monkeypatch.setattr(bots, "_rollout", rollout)
    monkeypatch.setattr(bots._Search, "over", lambda self: len(rolled) >= 3)
    best = bots._best(view)
    assert best.count == 1  # so the options are the play, then drawing
    assert bots._rollout_choice(view, [best], random.Random(0), bots._Search()) is None
    assert len(deals) == 2 and len(rolled) == 3  # and no third deal


def test_a_decision_with_no_effort_left_still_plays_out_one_deal(by_hand, monkeypatch) -> None:
    # Spent at once: one deal decides between the best play and drawing; the move is
    # still legal.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    deals, rolled = [], []
    real_deal, real_rollout = bots._deal, bots._rollout
    monkeypatch.setattr(bots, "_deal", lambda *a, **kw: deals.append(1) or real_deal(*a, **kw))
    monkeypatch.setattr(bots, "_rollout", lambda *a: rolled.append(1) or real_rollout(*a))
    turn = choose_turn(game, 0, "expert", random.Random("x"))
    # As shipped: the play and drawing, each over every deal.
    assert len(deals) == bots.ROLLOUTS and len(rolled) == 2 * bots.ROLLOUTS
    deals.clear()
    rolled.clear()
    monkeypatch.setattr(bots, "THINK_EFFORT", 0)
    turn = choose_turn(game, 0, "expert", random.Random("x"))
    assert len(deals) == 1 and len(rolled) == 2
    assert turn.table is None or game.check(turn.table).ok


def test_a_decision_numbers_its_samples_and_takes_the_first_always(monkeypatch) -> None:
    # The one rule of the budget, used by the rollout deals, the draws of the next-turn
    # check and the racks sampled for an opponent close to going out.
    spent = [False]
    monkeypatch.setattr(bots._Search, "over", lambda self: spent[0])
    search = bots._Search()
    assert list(search.samples(4)) == [1, 2, 3, 4]
    assert list(search.samples(0)) == []
    spent[0] = True
    assert list(search.samples(4)) == [1]  # the first even with no effort left
    taken = []
    spent[0] = False
    for k in search.samples(5):
        taken.append(k)
        spent[0] = k == 3  # spent during the third sample: no fourth
    assert taken == [1, 2, 3]


def test_past_its_effort_the_endgame_check_scores_the_samples_it_finished(
    by_hand, monkeypatch
) -> None:
    # An opponent at 2 tiles, my rack too big for rollouts: of the two plays of the best
    # size (either K7), the expert weighs the next turn over sampled draws and what the
    # table gives the opponent over sampled racks. With its effort spent once the two
    # plays are found, one draw and one rack are tried for both, and the next-turn
    # scores are the averages over the draws tried.
    game = by_hand.rigged(["K7 K7 R1 B12 Y9 R11 B2", "B1 Y2"], ["R7 B7 Y7"], opened=[True, True])
    view = View.of(game, 0)
    plays = bots._same_size_plays(view, bots._best(view), bots._Search())
    assert len(plays) == 2
    # R13 lets nothing more go down; Y8 does (Y7 Y8 Y9, the Y7 from the group of four).
    draws = [next(t for t in view.unseen() if t.code == code) for code in ("R13", "Y8")]
    assert bots._next_turns(view, plays, draws, bots._Search()) == [1.0, 1.0]  # (0 + 2) / 2
    spent = [True]
    monkeypatch.setattr(bots._Search, "over", lambda self: spent[0])
    assert bots._next_turns(view, plays, draws, bots._Search()) == [0.0, 0.0]  # R13 alone
    assert bots._same_size_plays(view, plays[0], bots._Search()) == plays[:1]  # none other
    spent[0] = False
    real_plays, real_deal = bots._same_size_plays, bots._deal
    deals = []
    monkeypatch.setattr(bots, "_deal", lambda *a, **kw: deals.append(1) or real_deal(*a, **kw))
    choose_turn(game, 0, "expert", random.Random("y"))
    assert len(deals) == bots.DENY_SAMPLES  # racks for the opponent, with effort to spare
    deals.clear()

    def same_size_plays(*args):
        found = real_plays(*args)
        spent[0] = True
        return found

    monkeypatch.setattr(bots, "_same_size_plays", same_size_plays)
    turn = choose_turn(game, 0, "expert", random.Random("y"))
    assert len(deals) == 1  # spent once the plays were found: one rack
    assert turn.table is not None and game.check(turn.table).ok and len(turn.placed) == 1
