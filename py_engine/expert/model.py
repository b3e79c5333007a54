"""The learned model of the expert's choice: how much better than the max play each other
option is (its advantage, in chances of winning), a linear model over an option's numbers
against the max play's, each also taken under a few conditions of the position. Its weights
are the data file ``advantage.json``, made by ``benchmarks/expert_train.py``.
"""

from __future__ import annotations

import json
from importlib import resources

from .features import FLAGS, OPTION, Position

__all__ = ["advantage", "inputs", "weights"]

WEIGHTS = "advantage.json"
# Read as the module is imported, not when first needed: the page starts from a memory
# snapshot of the imported engine, which holds its modules but none of its files.
_WEIGHTS = json.loads(resources.files(__package__).joinpath(WEIGHTS).read_text())


def weights() -> dict:
    """The shipped weights."""
    return _WEIGHTS


def inputs(position: Position, option: dict[str, float], best: dict[str, float]) -> list[float]:
    """The model's inputs: the option's numbers less the max play's (the flags as they
    are), and each of them again times each condition of the position."""
    diff = [option[k] - (0 if k in FLAGS else best[k]) for k in OPTION]
    p = position
    conditions = (1.0, float(p.n_opp <= 3), float(p.n_opp <= 6), float(p.n_me <= 5),
                  p.opp_drew / 4, p.pool / 10)  # fmt: skip
    return [c * d for c in conditions for d in diff]


def advantage(position: Position, option: dict[str, float], best: dict[str, float]) -> float:
    """The option's predicted advantage over the max play."""
    w = weights()
    x = inputs(position, option, best)
    terms = zip(x, w["mean"], w["scale"], w["weight"], strict=True)
    return sum((v - mu) / sd * k for v, mu, sd, k in terms) + w["bias"]
