"""A twin of the page's game in CPython: the same engine, the same seed, the same
actions, so a test knows what the page holds and which moves are legal without
re-implementing a rule. Only the page is driven; the twin is only read."""

from __future__ import annotations

import itertools
import json
from typing import Any

from py_engine import bridge


def call(**request: Any) -> dict:
    answer = json.loads(bridge.call(json.dumps(request)))
    assert "error" not in answer, answer
    return answer


def players(levels: list[str]) -> list[dict]:
    bots = [
        {"name": f"Computer {i + 1}", "kind": "bot", "level": lv} for i, lv in enumerate(levels)
    ]
    return [{"name": "You", "kind": "human"}, *bots]


def new_game(seed: int, levels: list[str], target: int = 200) -> dict:
    """Start the twin game exactly as the page's start screen does."""
    return call(
        cmd="new_game", seed=seed, rules=rules_for(levels, target), players=players(levels)
    )["view"]


def rules_for(levels: list[str], target: int = 200) -> dict:
    """The rules the page's start screen sends by default, for these computer levels."""
    return {
        "opening": 30,
        "joker_penalty": 30,
        "target": target,
        "turn_seconds": None,
        "wrap_runs": False,
        "locked_jokers": False,
        "easing_opening": False,
        "last_call": False,
        "no_winner_when_blocked": False,
        "players": len(levels) + 1,
    }


def computers(view: dict) -> dict:
    """Let the computers play until it is the human's turn (or the round ends)."""
    while not view["round_over"] and view["current"] != view["me"]:
        view = call(cmd="bot_turn")["view"]
    return view


def answers_to_a_draw(levels: list[str]):
    """For each seed (1-399) where the player starts against ``levels``: the seed and
    the first computer's answer (``bot_turn``) after the player draws."""
    for seed in range(1, 400):
        view = new_game(seed, levels)
        if view["current"] != view["me"]:
            continue
        call(cmd="draw")
        yield seed, call(cmd="bot_turn")


def saved_game(rules: dict, *, empty_pool: bool = False, keep_log: bool = True) -> str:
    """A two-player game (the human against an easy computer, seed 5) saved as the page
    saves it, the human's turn next; with ``empty_pool``, both sides drew until the pool
    ran dry; without ``keep_log``, no log lines (as a save from before the log was kept).
    Made by the engine itself; it replaces the twin's game."""
    players = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    call(cmd="new_game", seed=5, players=players, rules=rules)
    session = bridge._session
    game = session.round
    while (empty_pool and game.pool) or game.current != session.people[0]:
        game.draw_or_pass(player=game.current)
    assert not game.is_over
    if not keep_log:
        session.log.clear()
    return session.save()


def play_hints_out(view: dict, turns: int = 400) -> dict:
    """Play the round on for at most ``turns`` moves, the computers their turns and the
    human the engine's hint each turn (a draw when there is none); the last view."""
    for _ in range(turns):
        if view["round_over"]:
            break
        if view["current"] != view["me"]:
            view = call(cmd="bot_turn")["view"]
            continue
        hint = call(cmd="hint")
        request = {"cmd": "play", "table": hint["table"]} if hint["table"] else {"cmd": "draw"}
        view = call(**request)["view"]
    return view


def turns_on_hints(levels: list[str], seeds=range(1, 30)):
    """Each of the human's turns in games against ``levels`` (seed after seed), the
    human playing the engine's hint each turn (a draw when there is none): yields the
    view there and a function that asks for the hint, once. The caller may stop there
    (save the game, say); else the turn is played on."""
    for seed in seeds:
        view = new_game(seed, levels)
        while not view["round_over"]:
            if view["current"] != view["me"]:
                view = call(cmd="bot_turn")["view"]
                continue
            asked: list[dict] = []

            def hint(asked=asked) -> dict:
                if not asked:
                    asked.append(call(cmd="hint"))
                return asked[0]

            yield view, hint
            if hint()["table"]:
                view = call(cmd="play", table=hint()["table"])["view"]
            elif view["pool"]:
                view = call(cmd="draw")["view"]
            else:
                break


def match_won_on_hints(levels: list[str], target: int, turns: int = 400) -> dict:
    """The final view of the first game (seeds 1-59, against ``levels``, to ``target``)
    whose match the human wins in its first round by playing each hint (``play_hints_out``
    for at most ``turns`` moves)."""
    for seed in range(1, 60):
        view = play_hints_out(new_game(seed, levels, target=target), turns=turns)
        if view["match_over"] and view["winner"] == view["me"]:
            return view
    raise AssertionError(f"no game against {levels} to {target} won in one round")


def candidate_sets(rack: list[dict]) -> list[list[int]]:
    """Jokerless groups and runs that the rack holds, as lists of tile ids in order.
    (Candidates only: the engine's `check` is what says they are legal.)"""
    plain = [t for t in rack if not t["joker"]]
    found = []
    by_number: dict[int, dict[str, dict]] = {}
    for t in plain:
        by_number.setdefault(t["number"], {}).setdefault(t["color"], t)
    for tiles in by_number.values():
        for size in (3, 4):
            for combo in itertools.combinations(tiles.values(), size):
                found.append([t["id"] for t in combo])
    by_colour: dict[str, dict[int, dict]] = {}
    for t in plain:
        by_colour.setdefault(t["color"], {}).setdefault(t["number"], t)
    for tiles in by_colour.values():
        for start in range(1, 12):
            for end in range(start + 2, 14):
                if all(n in tiles for n in range(start, end + 1)):
                    found.append([tiles[n]["id"] for n in range(start, end + 1)])
    return found


def value(rack: list[dict], ids: list[int]) -> int:
    numbers = {t["id"]: t["number"] for t in rack}
    return sum(numbers[i] for i in ids)


def opening(rack: list[dict], threshold: int) -> list[list[int]] | None:
    """Disjoint candidate sets worth at least `threshold`, fewest tiles first."""
    sets = sorted(candidate_sets(rack), key=lambda s: -value(rack, s) / len(s))
    for count in (1, 2, 3):
        for combo in itertools.combinations(sets[:40], count):
            ids = [i for s in combo for i in s]
            if len(ids) == len(set(ids)) and value(rack, ids) >= threshold:
                return [list(s) for s in combo]
    return None


def seats(people: list[str], levels: list[str]) -> list[dict]:
    """The seats of a game of several people and computers, in the order the page's start
    screen makes them (web/game/rounds.js seatsOf): people and computers taking turns
    round the table."""
    humans = [{"name": name, "kind": "human"} for name in people]
    bots = [
        {"name": f"Computer {i + 1}", "kind": "bot", "level": lv} for i, lv in enumerate(levels)
    ]
    order = []
    for i in range(max(len(humans), len(bots))):
        order += [*humans[i : i + 1], *bots[i : i + 1]]
    return order


def new_shared_game(
    seed: int, people: list[str], levels: list[str], target: int = 200, clock: int | None = None
) -> dict:
    """Start the twin of a game of several people at one device, as the page does: the
    answer (the view for nobody, and the who-starts draws)."""
    rules = {**rules_for(levels, target), "players": len(people) + len(levels)}
    rules["turn_seconds"] = clock
    return call(cmd="new_game", seed=seed, rules=rules, players=seats(people, levels))


def computers_shared(view: dict) -> dict:
    """On a shared device: let the computers play until it is a person's turn (or the
    round ends); the view for nobody."""
    while not view["round_over"] and view["players"][view["current"]]["kind"] == "bot":
        view = call(cmd="bot_turn")["view"]
    return view
