"""How much better the expert could play with what it cannot know: the expert against hard
on the arena's 2-player deals, as shipped and with the hidden tiles revealed to it.

    .venv/bin/python benchmarks/expert_ceiling.py [--deals 500] [--seed 1] [--workers 2]

Three versions of the expert, each against hard on the same mirrored deals as
``python -m py_engine arena --players hard,expert --seed 1`` (a deal played twice, seats
swapped, so ``--deals 500`` is the arena's 1,000 rounds):

- ``expert``: as shipped; it samples the opponent's rack and the pool order.
- ``expert+rack``: its samples hold the opponent's real rack; the pool is still sampled.
- ``expert+all``: it also knows the pool order, so its one rollout is the real future
  (as long as both sides play as the rollout assumes).

Everything else (which turns it thinks on, the candidates, the rollout length) is the
same; ``--horizon``, ``--rollouts`` and ``--rack`` change the rollouts for every version,
and ``--versions`` picks which to play. The gap between ``expert`` and ``expert+rack``
bounds what a better reading of the opponent's rack could win; ``expert+all`` shows how
much of the rest is the luck of the draw.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import get_context

from py_engine import arena, bots
from py_engine.rules import Rules

_SEEN: dict[str, object] = {}  # the round and player whose turn the expert is choosing
_plain_of = bots.View.of.__func__
_plain_deal = bots._deal


def _of(cls, game, player):
    _SEEN["game"], _SEEN["player"] = game, player
    return _plain_of(cls, game, player)


def _their_rack() -> list:
    """The real rack of the next player (the one the expert samples for)."""
    game, player = _SEEN["game"], _SEEN["player"]
    return list(game.racks[(player + 1) % game.players])


def _real_rack(view, unseen, rng, size=None, search=None):
    rack = _their_rack()
    held = {t.id for t in rack}
    rest = [t for t in unseen if t.id not in held]
    rng.shuffle(rest)
    return rack, rest


def _real_all(view, unseen, rng, size=None, search=None):
    return _their_rack(), list(_SEEN["game"].pool)  # the pool is drawn from its end


# each version's sampler, and how many deals it samples (None: the expert's own number)
VERSIONS = {
    "expert": (_plain_deal, None),
    "expert+rack": (_real_rack, None),
    "expert+all": (_real_all, 1),
}


def _level(deal, rollouts):
    def play(view, rng):
        saved = bots._deal, bots.ROLLOUTS
        bots._deal, bots.ROLLOUTS = deal, rollouts or bots.ROLLOUTS
        try:
            return bots._expert(view, rng)
        finally:
            bots._deal, bots.ROLLOUTS = saved

    return play


def _install() -> None:
    bots.View.of = classmethod(_of)
    for name, (deal, rollouts) in VERSIONS.items():
        if name != "expert":
            bots._LEVELS[name] = _level(deal, rollouts)
    bots.LEVELS = (*bots.LEVELS, *(n for n in VERSIONS if n not in bots.LEVELS))


def _deal_pair(args: tuple[str, str, int]) -> tuple[int, float, int]:
    version, seed, deal = args
    wins = moves = 0
    think = 0.0
    for levels in ([version, "hard"], ["hard", version]):
        result = arena.play_round(levels, Rules(), f"arena:{seed}:{deal}")
        me = levels.index(version)
        wins += result.winner == me
        think += result.think[me]
        moves += result.moves[me]
    return wins, think, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--versions", default=",".join(VERSIONS), help="which to play")
    parser.add_argument("--horizon", type=int, default=bots.HORIZON, help="rollout turns each")
    parser.add_argument("--rollouts", type=int, default=bots.ROLLOUTS, help="deals sampled")
    parser.add_argument("--rack", type=int, default=bots.ROLLOUT_RACK, help="rollouts from")
    args = parser.parse_args(argv)
    versions = args.versions.split(",")
    if unknown := set(versions) - set(VERSIONS):
        parser.error(f"unknown versions: {', '.join(sorted(unknown))}")
    # Set before the worker processes start, which inherit them.
    bots.HORIZON, bots.ROLLOUTS, bots.ROLLOUT_RACK = args.horizon, args.rollouts, args.rack
    _install()
    print(
        f"expert versions against hard, {args.deals} deals x 2 seats, seed {args.seed}; "
        f"rollouts from racks of {args.rack}, {args.rollouts} deals, {args.horizon} turns each"
    )
    print("version        rounds  win rate  95% CI           think/move")
    with get_context("fork").Pool(args.workers) as pool:
        for version in versions:
            start = time.perf_counter()
            jobs = [(version, args.seed, d) for d in range(args.deals)]
            results = pool.map(_deal_pair, jobs, chunksize=4)
            wins = sum(r[0] for r in results)
            rounds = 2 * len(results)
            think = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
            low, high = arena.wilson(wins, rounds)
            print(
                f"{version:<13} {rounds:>7}  {100 * wins / rounds:6.1f}%  "
                f"[{100 * low:5.1f}%, {100 * high:5.1f}%]  {1000 * think:7.1f} ms"
                f"   ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
