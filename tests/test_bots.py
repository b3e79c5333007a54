"""The computer opponents: legal, deterministic, and each level doing what it says."""

from __future__ import annotations

import random

import pytest

from py_engine import bots
from py_engine.arena import bot_turns
from py_engine.bots import LEVELS, BotTurn, View, choose_turn, hint
from py_engine.rounds import Round
from py_engine.rules import Rules
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
    assert best.proven and best.count == len(turn.placed) == 4
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
    none = hint(game, 0)
    assert not none.found and none.proven and none.table == game.table
    game = by_hand.rigged(["R10 R11 R12 B7", "K2"], [], opened=[False, False])
    best = hint(game, 0)
    assert best.found and best.proven and best.value == 33


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
    # the end of a group), so the only tiles shown moving are the two from the rack (which
    # go out: every level lays them).
    table = ["R3 R4 R5", "B1 B2 B3", "K10 Y10 R10", "K8 K9 K10 K11"]
    game = by_hand.rigged(["B4 K12", "K2"], table, opened=[True, True])
    before = [list(row) for row in game.table]
    if level == "hint":
        best = hint(game, 0)
        assert best.found
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


def test_expert_two_player_choice_is_legal_and_deterministic(by_hand) -> None:
    # Two players, opened: the expert weighs its plays (and drawing) by its learned model.
    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12"], ["R3 R4 R5", "B10 Y10 K10"], opened=[True, True]
    )
    a = choose_turn(game, 0, "expert", random.Random("x"))
    b = choose_turn(game, 0, "expert", random.Random("x"))
    assert a.to_json() == b.to_json()
    if a.table is not None:
        assert game.check(a.table).ok


def test_the_look_ahead_is_bounded_and_the_move_itself_within_the_move_effort(
    by_hand, monkeypatch
) -> None:
    # Every search of the two-player choice (the options, what each leaves, which faces
    # fit the opponent's tables) gives up after a count of states; the expert's own best
    # play is found within MOVE_EFFORT.
    from py_engine.expert import features, guess

    game = by_hand.rigged(
        ["R6 B9 Y9 K1", "K2 K3 K4 B12 K11"],
        ["R3 R4 R5", "B10 Y10 K10", "K8 K9 K10"],
        current=1,
        opened=[True, True],
    )
    # turns of theirs for the guess to read: a play, then a draw on the table it left
    game.play(by_hand.lay(game, ["R3 R4 R5", "B10 Y10 K10", "K8 K9 K10 K11"]), player=1)
    game.draw_or_pass(player=0)
    game.draw_or_pass(player=1)
    exact: list[int | None] = []
    looked: list[int | None] = []

    def solve(*args, **kw):
        exact.append(kw.get("effort"))
        return real_solve(*args, **kw)

    def look_solve(*args, **kw):
        looked.append(kw.get("effort"))
        return real_solve(*args, **kw)

    def can_play(*args, **kw):
        looked.append(args[3] if len(args) > 3 else kw.get("effort"))
        return real_can_play(*args, **kw)

    real_solve, real_can_play = bots.solve, guess.can_play
    monkeypatch.setattr(bots, "solve", solve)
    monkeypatch.setattr(features, "solve", look_solve)
    monkeypatch.setattr(guess, "can_play", can_play)
    guess._FITS.clear()
    turn = choose_turn(game, 0, "expert", random.Random("x"))
    assert exact[0] == bots.MOVE_EFFORT  # the best play
    assert len(looked) > 10 and set(looked) == {features.LOOK_EFFORT}
    assert features.LOOK_EFFORT == guess.FIT_EFFORT == bots.LOOKAHEAD_EFFORT
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


def test_the_experts_view_tells_the_next_players_turns(by_hand) -> None:
    # Before opening a draw is a "wait"; the opening and later plays carry the table
    # they left, a draw the table it was made on.
    game = by_hand.rigged(["R10 R11 R12 R13 B1", "K2 K3 K5 Y7"], [], opened=[False, False])
    game.draw_or_pass(player=0)
    game.draw_or_pass(player=1)
    assert View.of(game, 1, history=True).history == (("wait", []),)
    assert View.of(game, 0).history == ()  # only the expert's view carries them
    opening = by_hand.lay(game, ["R10 R11 R12"], player=0)
    game.play(opening, player=0)
    game.draw_or_pass(player=1)
    more = by_hand.lay(game, ["R10 R11 R12 R13"], player=0)
    game.play(more, player=0)
    kinds = [kind for kind, _ in View.of(game, 1, history=True).history]
    assert kinds == ["wait", "open", "play"]
    last = View.of(game, 1, history=True).history[-1][1]
    assert [[t.id for t in row] for row in last] == [[t.id for t in row] for row in more]
    game.draw_or_pass(player=1)
    game.draw_or_pass(player=0)
    turns = View.of(game, 1, history=True).history
    assert [kind for kind, _ in turns] == ["wait", "open", "play", "draw"]
    assert turns[-1][1] == last  # drawn on the table their play left
    mine = View.of(game, 0, history=True).history
    assert [kind for kind, _ in mine] == ["wait"] * 3  # player 1 never opened


def test_the_win_chance_table_favours_the_smaller_rack_and_the_player_to_move() -> None:
    # Measured from hard-against-hard rounds (benchmarks/expert_eval.py): where the data
    # is thick (racks of 1 to 6), fewer tiles than the other side means better than even.
    from py_engine.expert.chances import _WIN_CHANCE
    from py_engine.expert.chances import _win_chance as chance

    assert all(0 <= x <= 1000 for row in _WIN_CHANCE for x in row)  # thousandths
    for mover in range(1, 7):
        for other in range(1, 7):
            if mover < other:
                assert chance(mover, other) > 0.5
            elif mover > other:
                assert chance(mover, other) < 0.5
    assert chance(1, 1) > 0.55  # the one to move with a last tile often lays it first
    assert chance(30, 3) == chance(14, 3)  # sizes past the table's end are capped


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
    # Three players, the next at 2 tiles: of the two plays of the best size (either K7),
    # the expert weighs the next turn over sampled draws and what the table gives the
    # opponent over sampled racks. With its effort spent once the two plays are found,
    # one draw and one rack are tried for both, and the next-turn scores are the averages
    # over the draws tried.
    game = by_hand.rigged(
        ["K7 K7 R1 B12 Y9 R11 B2", "B1 Y2", "R2 R4 B6 Y13 K1 K3 K5 K9"],
        ["R7 B7 Y7"],
        opened=[True, True, True],
    )
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
