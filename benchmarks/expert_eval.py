"""The expert's rollout evaluation: how often the player to move goes on to win a
two-player round between hard bots, by the two rack sizes.

    .venv/bin/python benchmarks/expert_eval.py [--rounds 3000] [--workers 2]

Plays ``--rounds`` rounds of hard against hard (deals "evalgen:N", none of them the
arena's) and, at every turn once both players have opened, notes the rack sizes of the
player to move and of the other, and whether the player to move won the round. Prints the
win rate per pair of sizes (capped at 14), each shrunk towards a plain guess
(0.5 + 0.06 per tile of difference) by 20 rounds' weight so thin cells stay sensible, as
the ``_WIN_CHANCE`` table that ``py_engine/expert/chances.py`` holds, and how many turns each cell
saw. The rollouts that label the expert's training data (benchmarks/expert_data.py) end with
this table, and the expert's model reads it as one of its features.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import get_context

from py_engine.arena import bot_turns
from py_engine.rounds import Round
from py_engine.rules import Rules

CAP = 14
PRIOR_WEIGHT = 20


def _round(deal: int) -> list[tuple[int, int, int]]:
    game = Round(Rules(), seed=f"evalgen:{deal}")
    seen = []
    for p, _turn, _seconds in bot_turns(game, ["hard", "hard"], str(deal)):
        if all(game.opened):
            seen.append((p, len(game.racks[p]), len(game.racks[1 - p])))
    winner = game.outcome.winner
    return [(mover, other, int(winner == p)) for p, mover, other in seen]


def prior(mover: int, other: int) -> float:
    return min(0.95, max(0.05, 0.5 + 0.06 * (other - mover)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--start", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    wins = [[0] * (CAP + 1) for _ in range(CAP + 1)]
    turns = [[0] * (CAP + 1) for _ in range(CAP + 1)]
    deals = range(args.start, args.start + args.rounds)
    with get_context("fork").Pool(args.workers) as pool:
        for rows in pool.imap_unordered(_round, deals, chunksize=8):
            for mover, other, won in rows:
                m, o = min(mover, CAP), min(other, CAP)
                wins[m][o] += won
                turns[m][o] += 1
    print(
        f"# {args.rounds} rounds of hard against hard, {sum(map(sum, turns))} turns, "
        f"{time.perf_counter() - start:.0f} s"
    )
    print("_WIN_CHANCE = (  # in thousandths")
    for m in range(CAP + 1):
        row = [
            (wins[m][o] + PRIOR_WEIGHT * prior(m, o)) / (turns[m][o] + PRIOR_WEIGHT)
            for o in range(CAP + 1)
        ]
        print("    (" + ", ".join(f"{round(1000 * x)}" for x in row) + "),")
    print(")")
    print("# turns per cell:")
    for m in range(CAP + 1):
        print("#", " ".join(f"{turns[m][o]:>5}" for o in range(CAP + 1)))


if __name__ == "__main__":
    main()
