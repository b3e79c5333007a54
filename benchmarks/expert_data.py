"""Training data for the expert's model: its two-player decisions, each option's features
and what rollouts that see the opponent's real rack make of it.

    .venv/bin/python benchmarks/expert_data.py OUT.jsonl [--rounds 139] [--start 0]
        [--policy hard] [--rollouts 6] [--workers 2]

Plays rounds "gen:N" (none of them the arena's) between ``--policy`` (in seat N mod 2)
and hard. At each turn of the policy's where the expert would choose (two players, opened,
a play that does not go out, and another option: a play of the same size, one a tile
short, or drawing), it writes one JSON line: the position's and each option's features, as
``py_engine.expert`` reads them (only what the player may see), and each option's value
``q``: the mean over ``--rollouts`` deals of 3 turns each, both sides playing hard's
greedy move, of 1 for a round won, 0 lost, else the win chance of the two rack sizes. The
deals keep the opponent's real rack (the pool alone is shuffled): the labels may see what
the model never does, so it learns what the player's view says of them on average. The
same deals for every option. Every random choice is seeded by the deal and turn, so a run
writes the same lines; ``benchmarks/expert_train.py`` fits the model to them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import get_context

from py_engine.arena import bot_turns
from py_engine.bots import View, _best
from py_engine.expert import features, options
from py_engine.expert.chances import _win_chance
from py_engine.expert.guess import face_chances, tile_weights
from py_engine.rounds import Round
from py_engine.rules import Rules
from py_engine.solver import Play, solve

HORIZON = 3  # rollout turns each


def greedy(table, rack, opened: bool, rules) -> Play:
    """Hard's move, tiles only, within the expert's look-ahead effort."""
    return solve(table, rack, opened=opened, rules=rules, layout=False, effort=features.LOOK_EFFORT)


def rollout(rules, table, mine, opp, opp_opened: bool, pool) -> float:
    """From just after my turn: the opponent moves, then I, greedily, HORIZON times."""
    pool = list(pool)
    for _ in range(HORIZON):
        play = greedy(table, opp, opp_opened, rules)
        if play.found:
            placed = {t.id for t in play.placed}
            table, opp, opp_opened = play.table, [t for t in opp if t.id not in placed], True
            if not opp:
                return 0.0
        elif pool:
            opp = [*opp, pool.pop()]
        play = greedy(table, mine, True, rules)
        if play.found:
            placed = {t.id for t in play.placed}
            table, mine = play.table, [t for t in mine if t.id not in placed]
            if not mine:
                return 1.0
        elif pool:
            mine = [*mine, pool.pop()]
    return 1.0 - _win_chance(len(opp), len(mine))  # the opponent is to move


def record(view: View) -> dict | None:
    """The decision's line, or None when the expert would not choose here."""
    best = _best(view)
    if not best.found or best.count == len(view.rack):
        return None
    choices = [*options(view, best), *([None] if view.pool else [])]
    if len(choices) <= 1:
        return None
    unseen = view.unseen()
    n_opp = view.others[0]
    chances = face_chances(unseen, tile_weights(unseen, view.history, view.rules), n_opp)
    live = features.quick_fits(view.table, view.rules.wrap_runs)
    mass_now = sum(chances.get(f, 0.0) for f in live)
    recent = [kind for kind, _ in view.history if kind in ("draw", "play")][-4:]
    position = {
        "n_me": len(view.rack), "n_opp": n_opp, "pool": view.pool, "best": best.count,
        "mass_now": mass_now, "opp_drew": recent.count("draw"),
        "opp_last_draw": int(bool(recent) and recent[-1] == "draw"),
    }  # fmt: skip
    rows = [
        features.option_row(view.table, view.rack, o, best, chances, n_opp, mass_now, view.rules)
        for o in choices
    ]
    return {"pos": position, "opts": rows, "choices": choices}


def one_round(job: tuple[int, int, str]) -> list[dict]:
    number, rollouts, policy = job
    seed = f"gen:{number}"
    seat = number % 2
    game = Round(Rules(), seed=seed)
    levels = [policy, "hard"] if seat == 0 else ["hard", policy]
    lines = []
    for player, _turn, _seconds in bot_turns(game, levels, seed):
        if player != seat or not game.opened[player]:
            continue
        view = View.of(game, player, history=True)
        line = record(view)
        if line is None:
            continue
        choices = line.pop("choices")
        their = list(game.racks[1 - player])
        held = {t.id for t in their}
        rng = random.Random(f"{seed}:{game.turn}")
        q = [0.0] * len(choices)
        for _ in range(rollouts):
            rest = [t for t in view.unseen() if t.id not in held]
            rng.shuffle(rest)
            for k, option in enumerate(choices):
                pool = list(rest)
                if option is None:
                    table, mine = view.table, [*view.rack, pool.pop()]
                else:
                    placed = {t.id for t in option.placed}
                    table, mine = option.table, [t for t in view.rack if t.id not in placed]
                value = rollout(view.rules, table, mine, their, game.opened[1 - player], pool)
                q[k] += value / rollouts
        lines.append({"round": number, "turn": game.turn, **line, "q": q})
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--rounds", type=int, default=139)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--policy", default="hard", help="the level whose decisions are kept")
    parser.add_argument("--rollouts", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(n, args.rollouts, args.policy) for n in range(args.start, args.start + args.rounds)]
    start, done = time.perf_counter(), {}
    with get_context("fork").Pool(args.workers) as pool:
        for lines in pool.imap_unordered(one_round, jobs):
            if lines:
                done[lines[0]["round"]] = lines
            print(f"  {len(done)} rounds ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    with open(args.out, "w") as out:
        for number in sorted(done):
            for line in done[number]:
                out.write(json.dumps(line) + "\n")
    print(f"{sum(map(len, done.values()))} decisions from {len(done)} rounds in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
