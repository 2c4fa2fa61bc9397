"""The AlphaZero loop on Indigo with a small numpy network (docs/alphazero.md).

Each iteration plays self-play games with :class:`indigo.PuctBot` steered by the current
network (Dirichlet noise at the root, moves drawn at temperature 1), writes them as Parquet
shards with :func:`indigo.selfplay.run_selfplay` (the search's visit distribution is the policy
target), and trains the network on the latest shards: cross-entropy to the visit distribution
over the legal actions, squared error to the game's result. At the end the trained network
plays inside PUCT against plain ISMCTS at the same number of simulations, seats alternating,
and so does the untrained network, for comparison.

    python examples/alphazero.py                      # the by-hand size (about 10 minutes)
    python examples/alphazero.py --iterations 1 --games 2 --simulations 8 --eval-games 2

Two-player games only (the network predicts the mover's value; the other seat's is its
negative). Needs numpy and pyarrow (the ``selfplay`` extra); no deep-learning framework.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The evaluator multiplies a few rows at a time between searches: BLAS threads only contend.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)
import numpy.typing as npt  # noqa: E402

import indigo  # noqa: E402
from indigo import ACTION_COUNT, OBSERVATION_SIZE, PuctBot  # noqa: E402
from indigo.selfplay import load, run_selfplay  # noqa: E402

Floats = npt.NDArray[np.float32]


def features(observations: npt.NDArray[Any]) -> Floats:
    """The network's input: the observation's counts, squashed (most are 0 or 1; scores and
    pile counts grow larger)."""
    return np.log1p(np.asarray(observations, np.float32))


def masked_softmax(logits: Floats, masks: npt.NDArray[np.bool_]) -> Floats:
    """A softmax over each row's legal actions (zero elsewhere)."""
    shifted = np.where(masks, logits, -np.inf)
    shifted -= shifted.max(axis=1, keepdims=True)
    weights = np.exp(shifted, dtype=np.float32)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True), np.float32)


@dataclass
class Network:
    """One hidden layer of ReLUs, a policy head (logits over every action) and a value head
    (tanh: the mover's result in [-1, 1]), trained with Adam."""

    params: dict[str, Floats]
    moments: dict[str, tuple[Floats, Floats]]
    steps: int = 0

    @staticmethod
    def new(hidden: int, seed: int) -> Network:
        rng = np.random.default_rng(seed)

        def layer(n_in: int, n_out: int) -> Floats:
            return np.asarray(rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in), np.float32)

        params = {
            "w1": layer(OBSERVATION_SIZE, hidden),
            "b1": np.zeros(hidden, np.float32),
            "wp": layer(hidden, ACTION_COUNT) * 0.1,
            "bp": np.zeros(ACTION_COUNT, np.float32),
            "wv": layer(hidden, 1) * 0.1,
            "bv": np.zeros(1, np.float32),
        }
        moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
        return Network(params, moments)

    def forward(self, x: Floats) -> tuple[Floats, Floats, Floats]:
        """Hidden activations, policy logits, values."""
        p = self.params
        hidden = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        logits = hidden @ p["wp"] + p["bp"]
        values = np.tanh(hidden @ p["wv"] + p["bv"])[:, 0]
        return hidden, logits, values

    def evaluate(self, observations: Floats, masks: npt.NDArray[np.bool_]) -> tuple[Floats, Floats]:
        """The PUCT evaluator: priors over the legal actions, each seat's value."""
        _, logits, values = self.forward(features(observations))
        return masked_softmax(logits, masks), np.stack([values, -values], axis=1)

    def train_step(
        self,
        x: Floats,
        masks: npt.NDArray[np.bool_],
        policy: Floats,
        target: Floats,
        rate: float,
    ) -> tuple[float, float]:
        """One Adam step on a minibatch; the policy and value losses before it."""
        p = self.params
        n = len(x)
        hidden, logits, values = self.forward(x)
        priors = masked_softmax(logits, masks)
        policy_loss = float(-(policy * np.log(np.where(masks, priors, 1.0))).sum() / n)
        value_loss = float(((values - target) ** 2).mean())
        d_logits = (priors - policy) / n
        d_values = (2.0 * (values - target) / n * (1.0 - values**2))[:, None]
        d_hidden = (d_logits @ p["wp"].T + d_values @ p["wv"].T) * (hidden > 0)
        grads = {
            "wp": hidden.T @ d_logits,
            "bp": d_logits.sum(axis=0),
            "wv": hidden.T @ d_values,
            "bv": d_values.sum(axis=0),
            "w1": x.T @ d_hidden,
            "b1": d_hidden.sum(axis=0),
        }
        self.steps += 1
        for name, grad in grads.items():
            first, second = self.moments[name]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad**2
            unbiased = first / (1 - 0.9**self.steps)
            scale = np.sqrt(second / (1 - 0.999**self.steps)) + 1e-8
            p[name] -= (rate * unbiased / scale).astype(np.float32)
        return policy_loss, value_loss


def train(
    network: Network, folders: Sequence[Path], epochs: int, rate: float, seed: int
) -> dict[str, float]:
    """``epochs`` passes over the samples of ``folders`` in minibatches of 256."""
    batches = [b for folder in folders for b in load(folder, batch_size=100_000)]
    x = features(np.concatenate([b.observation for b in batches]))
    masks = np.concatenate([b.legal_mask for b in batches])
    policy = np.concatenate([b.policy for b in batches])
    target = np.concatenate([2.0 * b.outcome - 1.0 for b in batches]).astype(np.float32)
    rng = np.random.default_rng(seed)
    losses = (0.0, 0.0)
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), 256):
            rows = order[start : start + 256]
            losses = network.train_step(x[rows], masks[rows], policy[rows], target[rows], rate)
    return {"samples": len(x), "policy_loss": losses[0], "value_loss": losses[1]}


def match(bot: indigo.Bot, opponent: indigo.Bot, games: int, seed: int) -> float:
    """``bot``'s score against ``opponent`` over ``games`` games, seats alternating: a win
    counts 1, a shared win 1/2."""
    points = 0.0
    for i in range(games):
        seats = [bot, opponent] if i % 2 == 0 else [opponent, bot]
        finished = indigo.play_game(seats, seed=seed + i)
        ours = i % 2
        winners = finished.winners
        if ours in winners:
            points += 1.0 / len(winners)
    return points / games


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--games", type=int, default=50, help="self-play games per iteration")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=16, help="leaves per evaluator call")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--window", type=int, default=3, help="iterations of samples trained on")
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("alphazero-run"))
    args = parser.parse_args(argv)

    began = time.monotonic()
    network = Network.new(args.hidden, args.seed)
    untrained = Network.new(args.hidden, args.seed)
    folders: list[Path] = []
    history = []
    for iteration in range(args.iterations):
        bot = PuctBot(
            network.evaluate,
            args.simulations,
            batch_size=args.batch_size,
            dirichlet_fraction=0.25,
            temperature=1.0,
            seed=args.seed + iteration,
        )
        folder = args.out / f"iteration-{iteration}"
        run_selfplay(
            bot, args.games, folder, seed=args.seed * 1000 + iteration, shard_size=args.games
        )
        folders.append(folder)
        trained = train(network, folders[-args.window :], args.epochs, args.rate, iteration)
        history.append({"iteration": iteration, **trained})
        print(json.dumps(history[-1]), flush=True)

    def puct(net: Network) -> PuctBot:
        return PuctBot(net.evaluate, args.simulations, batch_size=args.batch_size, seed=1)

    ismcts = indigo.IsmctsBot(args.simulations, seed=2)
    result = {
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "training": history,
        "trained_vs_ismcts": match(puct(network), ismcts, args.eval_games, 10_000),
        "untrained_vs_ismcts": match(puct(untrained), ismcts, args.eval_games, 10_000),
        "seconds": round(time.monotonic() - began, 1),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "training"}), flush=True)
    return result


if __name__ == "__main__":
    main()
