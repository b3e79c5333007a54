"""Fit the expert's model to the lines of benchmarks/expert_data.py and write its weights.

    .venv/bin/python benchmarks/expert_train.py DATA.jsonl [MORE.jsonl ...]
        [--out py_engine/expert/advantage.json] [--ridge 10] [--margin 0.01]

The model is linear: for each option other than the max play, its inputs are
``py_engine.expert.model.inputs`` (the option's numbers against the max play's, and each
again under a few conditions of the position), each scaled to mean 0 and spread 1, and
its target is the option's rollout value less the max play's. Fitted by ridge regression
(``--ridge``, the intercept left free) with numpy, which the page never loads: the weights
are written as JSON and read in pure Python. Nothing is random, so the same lines give the
same weights.

First it fits on three rounds in four and reads the fourth (rounds whose number is a
multiple of 4) held out: the mean squared error of the predicted advantage against
predicting none, and what choosing by it gains over always taking the max play, in
rollout value per decision, beside simple rules. Then it fits on every line and writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from py_engine.expert.features import OPTION, Position
from py_engine.expert.model import inputs

OUT = Path(__file__).resolve().parents[1] / "py_engine" / "expert" / "advantage.json"


def load(paths: list[str]) -> list[dict]:
    return [json.loads(line) for path in paths for line in Path(path).read_text().splitlines()]


def examples(lines: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """One row per option other than the max play: its inputs, and its advantage."""
    xs, ys = [], []
    for line in lines:
        position = Position(**line["pos"])
        best = line["opts"][0]
        for option, value in zip(line["opts"][1:], line["q"][1:], strict=True):
            xs.append(inputs(position, option, best))
            ys.append(value - line["q"][0])
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> dict:
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    penalty = ridge * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0  # the intercept is not shrunk
    w = np.linalg.solve(z.T @ z + penalty, z.T @ y)
    return {"bias": float(w[-1]), "mean": mean.tolist(), "scale": scale.tolist(),
            "weight": w[:-1].tolist()}  # fmt: skip


def predict(weights: dict, x: np.ndarray) -> np.ndarray:
    z = (x - np.array(weights["mean"])) / np.array(weights["scale"])
    return z @ np.array(weights["weight"]) + weights["bias"]


def gain(lines: list[dict], pick) -> float:
    """The mean rollout value, over these decisions, of the option ``pick`` takes, less
    the max play's."""
    total = 0.0
    for line in lines:
        total += line["q"][pick(line)] - line["q"][0]
    return total / max(1, len(lines))


def by_model(weights: dict, margin: float):
    def pick(line: dict) -> int:
        if len(line["opts"]) == 1:
            return 0
        x, _ = examples([line])
        values = predict(weights, x)
        k = int(np.argmax(values))
        return k + 1 if values[k] > margin else 0

    return pick


def drawing_when(most: int):
    def pick(line: dict) -> int:
        draws = [k for k, o in enumerate(line["opts"]) if o["draw"]]
        return draws[0] if draws and line["pos"]["n_me"] <= most else 0

    return pick


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--ridge", type=float, default=10.0)
    parser.add_argument("--margin", type=float, default=0.01)
    args = parser.parse_args(argv)
    lines = load(args.data)
    held = [line for line in lines if line["round"] % 4 == 0]
    train = [line for line in lines if line["round"] % 4]
    x, y = examples(train)
    hx, hy = examples(held)
    weights = fit(x, y, args.ridge)
    error = float(np.mean((predict(weights, hx) - hy) ** 2))
    print(f"{len(lines)} decisions ({len(train)} to fit, {len(held)} held out); "
          f"{len(OPTION)} numbers an option, {x.shape[1]} inputs")  # fmt: skip
    print(f"held out: mean squared error {error:.5f} against {float(np.mean(hy**2)):.5f} "
          "for no advantage")  # fmt: skip
    print("held out, rollout value gained per decision over the max play:")
    for name, pick in [
        ("the model", by_model(weights, args.margin)),
        ("draw at racks of 5 or fewer", drawing_when(5)),
        ("draw at racks of 6 or fewer", drawing_when(6)),
        ("draw always", drawing_when(99)),
    ]:
        print(f"  {name:<30} {gain(held, pick):+.4f}")
    rounds = sorted({line["round"] for line in lines})
    weights = fit(*examples(lines), args.ridge)
    about = (
        f"ridge regression (ridge {args.ridge:g}) on {len(lines)} decisions of rounds "
        f"gen:{rounds[0]} to gen:{rounds[-1]} ({len(rounds)} rounds), by benchmarks/expert_train.py"
    )
    out = {"about": about, "margin": args.margin, **weights}
    Path(args.out).write_text(json.dumps(out) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
