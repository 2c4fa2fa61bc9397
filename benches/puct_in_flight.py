"""PUCT self-play with a Python evaluator: games per second and evaluator calls per game as
``PuctBot.self_play(..., in_flight=K)`` keeps K games' searches in each evaluator call
(docs/alphazero.md, "Games in flight").

Run:
    python benches/puct_in_flight.py [--in-flight 1,4,16] [--games 16] [--rounds 2]
        [--simulations 32] [--batch-size 8] [--hidden 128] [--call-cost 0.001]

The evaluator is a numpy MLP over Indigo's observation (``log1p`` input, ``--hidden`` ReLU
units, a policy head over the 810 actions and a tanh value head, random weights), and with
``--call-cost S`` it also sleeps S seconds per call: the fixed cost of a call that a GPU
evaluator pays (launch and transfer) whatever the batch holds. Each round plays ``--games``
2-player games at every K, the Ks alternated (in reverse order in even rounds, so a change of
load hits all of them); a K's speed is its games over its summed wall time, and the ratio is
against K = 1. Every K must play the same games (the MLP answers each leaf alike in any batch
up to float rounding; a difference is reported). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import time

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # a few rows a call: BLAS threads only contend

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)
import numpy.typing as npt  # noqa: E402

import indigo  # noqa: E402

Floats = npt.NDArray[np.float32]


class Mlp:
    """A policy-and-value MLP with random weights, counting its calls and leaves."""

    def __init__(self, hidden: int, call_cost: float, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        scale = np.float32(1 / np.sqrt(indigo.OBSERVATION_SIZE))
        self.w1 = (rng.standard_normal((indigo.OBSERVATION_SIZE, hidden)) * scale).astype(
            np.float32
        )
        self.b1 = np.zeros(hidden, np.float32)
        self.wp = (rng.standard_normal((hidden, indigo.ACTION_COUNT)) * 0.1).astype(np.float32)
        self.wv = (rng.standard_normal((hidden, 1)) * 0.1).astype(np.float32)
        self.call_cost = call_cost
        self.calls = 0
        self.leaves = 0

    def __call__(self, observations: Floats, masks: npt.NDArray[np.bool_]) -> tuple[Floats, Floats]:
        self.calls += 1
        self.leaves += len(masks)
        if self.call_cost:
            time.sleep(self.call_cost)
        x = np.maximum(np.log1p(observations) @ self.w1 + self.b1, 0)
        logits = x @ self.wp
        logits -= logits.max(axis=1, keepdims=True)
        priors = np.exp(logits) * masks
        value = np.tanh(x @ self.wv)[:, 0]
        return priors.astype(np.float32), np.stack([value, -value], axis=1).astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--in-flight", default="1,4,16")
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--call-cost", type=float, default=0.0)
    args = parser.parse_args()
    ks = [int(k) for k in args.in_flight.split(",")]
    mlp = Mlp(args.hidden, args.call_cost)
    bot = indigo.PuctBot(
        mlp,
        args.simulations,
        batch_size=args.batch_size,
        dirichlet_fraction=0.25,
        temperature=1.0,
        seed=1,
    )
    seconds = dict.fromkeys(ks, 0.0)
    calls = dict.fromkeys(ks, 0)
    leaves = dict.fromkeys(ks, 0)
    records: dict[int, list[str]] = {}
    for r in range(args.rounds):
        for k in ks if r % 2 == 0 else ks[::-1]:
            mlp.calls = mlp.leaves = 0
            began = time.perf_counter()
            batch = bot.self_play(args.games, seed=r, in_flight=k)
            seconds[k] += time.perf_counter() - began
            calls[k] += mlp.calls
            leaves[k] += mlp.leaves
            if r == 0:
                records[k] = batch.records
    games = args.games * args.rounds
    print(
        f"Indigo 2 players, {args.simulations} simulations, batch_size {args.batch_size}, "
        f"MLP hidden {args.hidden}, call cost {args.call_cost * 1000:g} ms; {games} games "
        f"per K over {args.rounds} alternated rounds\n"
    )
    print("| in_flight | games/s | x K=1 | calls/game | leaves/call | same games as K=1 |")
    print("|---|---|---|---|---|---|")
    base = games / seconds[ks[0]]
    for k in ks:
        speed = games / seconds[k]
        same = "yes" if records[k] == records[ks[0]] else "no"
        print(
            f"| {k} | {speed:.2f} | {speed / base:.2f} | {calls[k] / games:.0f} | "
            f"{leaves[k] / calls[k]:.1f} | {same} |"
        )


if __name__ == "__main__":
    main()
