"""The expert's two-player choice (py_engine/expert): its options, what it reads of the
opponent's turns, its features and its learned model."""

from __future__ import annotations

import random

import pytest

from py_engine import expert
from py_engine.bots import View, _best, choose_turn
from py_engine.expert import features, guess, model
from py_engine.rules import Rules
from py_engine.tiles import Tile, parse_tiles


def codes(tiles) -> list[str]:
    return sorted(t.code for t in tiles)


def test_quick_fits_reads_run_ends_run_middles_and_a_groups_fourth_colour() -> None:
    table = [parse_tiles("R3 R4 R5 R6 R7"), parse_tiles("B9 Y9 K9")]
    found = {Tile(f).code for f in features.quick_fits(table)}
    # R2 and R8 at the ends, R5 by splitting R3..R7 into R3 R4 R5 and R5 R6 R7, R9 in the group
    assert found == {"R2", "R8", "R5", "R9"}
    assert features.quick_fits([parse_tiles("R11 R12 R13")]) == {Tile.parse("R10").id}


def test_fits_alone_asks_the_solver_and_only_the_faces_of_the_table_matter() -> None:
    rules = Rules()
    # R4 R5 R6 from two groups of four: a rearrangement quick_fits does not see
    table = [parse_tiles("R4 B4 Y4 K4"), parse_tiles("R6 B6 Y6 K6")]
    live = guess.fits_alone(table, rules)
    assert Tile.parse("R5").id in live and Tile.parse("R5").id not in features.quick_fits(table)
    assert Tile.parse("R9").id not in live
    assert guess.JOKER_FACE in live
    assert guess.fits_alone(list(reversed(table)), rules) is live  # kept per faces


def test_a_tile_that_fitted_a_table_they_drew_on_is_less_likely_held() -> None:
    rules = Rules()
    table = [parse_tiles("R3 R4 R5")]
    r6, b9 = parse_tiles("R6 B9")
    # they opened, then drew on this table: R6 would have fitted, B9 not
    turns = [("open", table), ("draw", table)]
    fitted, free = guess.tile_weights([r6, b9], turns, rules)
    # dealt (DEALT) or drawn at that draw (1, after the table it faced): R6 only if drawn
    # there, or dealt and kept though it fitted (MISS)
    assert free == guess.DEALT + 1
    assert fitted == pytest.approx(guess.DEALT * guess.MISS + 1)
    # before opening a draw says nothing of single tiles
    same = guess.tile_weights([r6, b9], [("wait", table)], rules)
    assert same[0] == same[1]
    chances = guess.face_chances([r6, b9], [fitted, free], 1)
    assert chances[guess.face(b9)] > chances[guess.face(r6)]
    assert sum(chances.values()) == pytest.approx(1.0)


def test_the_options_are_the_max_play_others_of_its_size_and_one_tile_short(by_hand) -> None:
    # R6 on R3 R4 R5 and the 9s as a group: 4 tiles; without a 9 the group cannot be made
    # (R6 alone: 1 tile), without R6 the 9s still go (3 tiles, one short)
    game = by_hand.rigged(["R6 B9 Y9 K9 Y1", "K2"], ["R3 R4 R5"], opened=[True, True])
    view = View.of(game, 0, history=True)
    best = _best(view)
    found = expert.options(view, best)
    assert found[0] is best and best.count == 4
    assert [o.count for o in found[1:]] == [3]
    assert codes(found[1].placed) == ["B9", "K9", "Y9"]
    for option in found:
        assert game.check(option.table).ok


def test_the_model_reads_an_option_against_the_max_play() -> None:
    position = features.Position(5, 2, 30, 2, 0.4, 2, 1)
    best = dict.fromkeys(features.OPTION, 1.0)
    option = dict(best, draw=1, reserve=3.0)
    x = model.inputs(position, option, best)
    assert len(x) == 6 * len(features.OPTION) == len(model.weights()["weight"])
    plain = dict(zip(features.OPTION, x[: len(features.OPTION)], strict=True))
    assert plain["draw"] == 1 and plain["hold"] == 1  # flags as they are
    assert plain["reserve"] == 2.0 and plain["laid"] == 0.0  # the rest against the max play's
    # the same again under each condition: n_opp <= 3 holds, n_me <= 5 holds
    assert x[len(features.OPTION) :][:3] == x[:3]
    assert x[5 * len(features.OPTION)] == 3.0  # times pool / 10


def _rigged_choice(by_hand):
    game = by_hand.rigged(
        ["R6 B9 Y9 K9 Y1", "K2 K5 B12"], ["R3 R4 R5", "B1 B2 B3"], opened=[True, True]
    )
    return game, View.of(game, 0, history=True)


def test_with_no_advantage_over_its_margin_the_max_play_is_chosen(by_hand, monkeypatch) -> None:
    game, view = _rigged_choice(by_hand)
    flat = dict(model.weights(), weight=[0.0] * len(model.weights()["weight"]), bias=0.0)
    monkeypatch.setattr(model, "weights", lambda: flat)
    best = _best(view)
    assert expert.choose(view, best) is best
    turn = choose_turn(game, 0, "expert", random.Random(0))
    assert codes(turn.placed) == codes(best.placed)


def test_the_option_the_model_puts_highest_is_taken(by_hand, monkeypatch) -> None:
    game, view = _rigged_choice(by_hand)
    weights = model.weights()
    draw = features.OPTION.index("draw")
    drawn = dict(weights, weight=[5.0 if k == draw else 0.0 for k in range(len(weights["weight"]))])
    monkeypatch.setattr(model, "weights", lambda: drawn)
    assert expert.choose(view, _best(view)) is None
    assert choose_turn(game, 0, "expert", random.Random(0)).table is None
    hold = features.OPTION.index("hold")
    held = dict(weights, weight=[5.0 if k == hold else 0.0 for k in range(len(weights["weight"]))])
    monkeypatch.setattr(model, "weights", lambda: held)
    turn = choose_turn(game, 0, "expert", random.Random(0))
    assert len(turn.placed) == 3 and game.check(turn.table).ok


def test_the_shipped_weights_are_whole() -> None:
    w = model.weights()
    n = 6 * len(features.OPTION)
    assert len(w["mean"]) == len(w["scale"]) == len(w["weight"]) == n
    assert all(s > 0 for s in w["scale"]) and 0 <= w["margin"] < 0.1
