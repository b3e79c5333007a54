"""The arena: mirrored deals, the totals it prints, and the CLI around it."""

from __future__ import annotations

import json

import pytest

from py_engine.arena import _seatings, main, play_round, run_arena, wilson
from py_engine.rules import Rules


def test_mirrored_deals_give_each_level_every_seat() -> None:
    stats = run_arena(["hard", "easy"], rounds=4, seed=3, workers=1)
    assert {level: s.rounds for level, s in stats.items()} == {"hard": 4, "easy": 4}
    hard, easy = stats["hard"], stats["easy"]
    assert hard.score == -easy.score or hard.blocked  # two players: scores cancel out
    assert hard.moves > 0 and hard.think > 0


def test_three_and_four_player_tables_use_every_seat_order() -> None:
    assert len(_seatings(["a", "b", "c"])) == 6
    assert len(_seatings(["a", "b", "c", "d"])) == 24
    stats = run_arena(["medium", "easy", "hard"], rounds=3, seed=4, workers=1)
    assert all(s.rounds == 6 for s in stats.values())  # one deal, six seatings
    assert sum(s.wins for s in stats.values()) <= 6
    stats = run_arena(["hard", "hard", "easy", "easy"], rounds=4, seed=4, workers=2)
    assert stats["hard"].rounds == 12 and stats["easy"].rounds == 12  # six distinct orders


def test_a_round_is_the_same_for_the_same_seed() -> None:
    a = play_round(["hard", "medium"], Rules(), "same")
    b = play_round(["hard", "medium"], Rules(), "same")
    assert (a.winner, a.scores, a.moves) == (b.winner, b.scores, b.moves)


def test_wilson_interval() -> None:
    low, high = wilson(600, 1000)
    assert 0.569 < low < 0.570 and 0.629 < high < 0.631
    assert wilson(0, 0) == (0.0, 1.0)


def test_cli_prints_a_table_and_json(capsys) -> None:
    assert main(["--players", "hard,easy", "--games", "2", "--seed", "9", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "hard" in out and "easy" in out
    assert main(["--players", "hard,easy", "--games", "2", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["hard"]) == {"rounds", "win_rate", "ci95", "mean_score", "blocked", "think_ms"}
    assert main(["--players", "hard,nobody"]) == 2
    assert main(["--players", "hard,hard-noisy", "--games", "2", "--workers", "1"]) == 0
    assert "hard-noisy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("{oops", "--rules: not valid JSON"),
        ('{"target": NaN}', "--rules: not valid JSON: NaN is not a JSON number"),
        ('{"cheat": 1}', "--rules: unknown rule 'cheat'"),
        ("[" * 5_000, "--rules: nested too deeply"),
    ],
)
def test_bad_rules_are_an_error_not_a_traceback(rules, message, capsys):
    assert main(["--players", "easy,easy", "--games", "1", "--rules", rules]) == 2
    assert capsys.readouterr().err.startswith(message)
