"""The training recipe of the shipped networks: a small numpy MLP for every game of the registry
(docs/alphazero.md), written as an ``indigo-net/1`` safetensors file.

The first ``--distill-rounds`` iterations distil ISMCTS: each plays ``--distill-games`` more
games between ``--distill-bot`` searches, in Rust on every core
(:func:`indigo.selfplay.run_selfplay`), and trains on them (``--distill-window``: on the last
that many rounds' games; more passes over old games overfit the value head): the policy
target is the move the search chose (``--distill-target visits``: its root visit distribution,
nearly uniform at ISMCTS's exploration), the value target the game's result. The
``--iterations`` after them (none by default: measured weaker, docs/alphazero.md) are
AlphaZero's loop: self-play games with :class:`indigo.PuctBot` steered by the current network
(Dirichlet noise at the root, moves drawn at temperature 1), trained on the last ``--window``
iterations' samples with the visit distribution as the policy target. Training is
cross-entropy over the legal actions (Indigo's policy head; Queen's Garden's network is
value-only, its 8,053,459 actions too many for a head) and squared error to the result, with
Adam and weight decay; one game in 20 is held out. After every iteration the network plays
inside PUCT against ISMCTS at the same number of simulations, seats alternating.

    python examples/alphazero.py --game indigo --out runs/indigo   # the shipped recipe
    python examples/alphazero.py --distill-rounds 1 --distill-games 4 --iterations 1 --games 2 \\
        --simulations 8 --eval-games 2 --hidden 16                  # toy size, seconds

The run folder holds the self-play shards of each iteration and, rewritten after every
iteration, ``network.safetensors``, ``result.json`` (settings; per iteration: losses,
samples, seconds, strength) and ``losses.svg`` (the loss curves). Two-player games only (the
value head predicts the mover's result; the other seat's is its negative). Needs numpy,
pyarrow and safetensors (the ``train`` extra); no deep-learning framework.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The evaluator multiplies a few rows at a time between searches: BLAS threads only contend.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)
import numpy.typing as npt  # noqa: E402
from safetensors.numpy import load_file, save_file  # noqa: E402

from indigo import PuctBot  # noqa: E402
from indigo.games import GAMES, GameEntry, find_game  # noqa: E402
from indigo.selfplay import load, run_selfplay  # noqa: E402
from indigo.tournament import wilson_interval  # noqa: E402

Floats = npt.NDArray[np.float32]

FORMAT = "indigo-net/1"
"""The ``format`` of the network files (the loader's contract: docs/alphazero.md)."""

PLAYERS = 2


def features(observations: npt.NDArray[Any]) -> Floats:
    """The network's input (the format's ``input = "log1p"``): the observation's counts,
    squashed (most are 0 or 1; scores and pile counts grow larger)."""
    return np.log1p(np.asarray(observations, np.float32))


def masked_softmax(logits: Floats, masks: npt.NDArray[np.bool_]) -> Floats:
    """A softmax over each row's legal actions (zero elsewhere)."""
    shifted = np.where(masks, logits, -np.inf)
    shifted -= shifted.max(axis=1, keepdims=True)
    weights = np.exp(shifted, dtype=np.float32)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True), np.float32)


@dataclass
class Network:
    """ReLU hidden layers ``w1 b1, w2 b2, ...``, a tanh value head ``wv bv`` (the mover's result
    in [-1, 1]) and, when ``policy``, a policy head ``wp bp`` (logits over every action):
    the tensors of the file format, trained with Adam."""

    params: dict[str, Floats]
    moments: dict[str, tuple[Floats, Floats]] = field(default_factory=dict)
    steps: int = 0

    @staticmethod
    def new(entry: GameEntry[Any, Any, Any], hidden: Sequence[int], seed: int) -> Network:
        rng = np.random.default_rng(seed)

        def layer(n_in: int, n_out: int) -> Floats:
            return np.asarray(rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in), np.float32)

        params: dict[str, Floats] = {}
        sizes = [entry.observation_size, *hidden]
        for k in range(1, len(sizes)):
            params[f"w{k}"] = layer(sizes[k - 1], sizes[k])
            params[f"b{k}"] = np.zeros(sizes[k], np.float32)
        params["wv"] = layer(sizes[-1], 1) * 0.1
        params["bv"] = np.zeros(1, np.float32)
        if has_policy(entry):
            params["wp"] = layer(sizes[-1], entry.action_count) * 0.1
            params["bp"] = np.zeros(entry.action_count, np.float32)
        return Network(params)

    @staticmethod
    def read(path: Path) -> Network:
        return Network({k: np.asarray(v, np.float32) for k, v in load_file(path).items()})

    @property
    def layers(self) -> int:
        return sum(1 for name in self.params if name.startswith("w") and name[1:].isdigit())

    @property
    def policy(self) -> bool:
        return "wp" in self.params

    def forward(self, x: Floats) -> tuple[list[Floats], Floats | None, Floats]:
        """Each hidden layer's activations, the policy logits (``None`` without a head), the
        values."""
        p = self.params
        hidden = [x]
        for k in range(1, self.layers + 1):
            hidden.append(np.maximum(hidden[-1] @ p[f"w{k}"] + p[f"b{k}"], 0.0))
        logits = hidden[-1] @ p["wp"] + p["bp"] if self.policy else None
        values = np.tanh(hidden[-1] @ p["wv"] + p["bv"])[:, 0]
        return hidden[1:], logits, values

    def evaluate(self, observations: Floats, masks: npt.NDArray[np.bool_]) -> tuple[Floats, Floats]:
        """The PUCT evaluator: priors over the legal actions (``(batch, 0)``, uniform, without
        a policy head), each seat's value."""
        _, logits, values = self.forward(features(observations))
        if logits is None:
            priors = np.zeros((len(values), 0), np.float32)
        else:
            priors = masked_softmax(logits, masks)
        return priors, np.stack([values, -values], axis=1)

    def losses(self, data: Samples) -> tuple[float, float]:
        """The policy loss (0 without a head) and value loss over ``data``, 4096 rows at a
        time."""
        policy_sum = value_sum = 0.0
        for start in range(0, len(data), 4096):
            part = data.rows(np.arange(start, min(start + 4096, len(data))))
            _, logits, values = self.forward(part.x)
            value_sum += float(((values - part.target) ** 2).sum())
            if logits is not None and part.masks is not None and part.policy is not None:
                priors = masked_softmax(logits, part.masks)
                policy_sum += float(
                    -(part.policy * np.log(np.where(part.masks, priors, 1.0))).sum()
                )
        searched = max(1.0, float(data.searched.sum()))
        return policy_sum / searched, value_sum / max(1, len(data))

    def train_step(self, data: Samples, rate: float, decay: float) -> tuple[float, float]:
        """One Adam step (with decoupled weight decay on the weights) on a minibatch; its
        policy and value losses before the step."""
        p = self.params
        n = len(data)
        hidden, logits, values = self.forward(data.x)
        value_loss = float(((values - data.target) ** 2).mean())
        d_values = (2.0 * (values - data.target) / n * (1.0 - values**2))[:, None]
        grads: dict[str, Floats] = {
            "wv": hidden[-1].T @ d_values,
            "bv": d_values.sum(axis=0),
        }
        d_hidden = d_values @ p["wv"].T
        policy_loss = 0.0
        if logits is not None and data.masks is not None and data.policy is not None:
            priors = masked_softmax(logits, data.masks)
            searched = max(1.0, float(data.searched.sum()))
            policy_loss = float(
                -(data.policy * np.log(np.where(data.masks, priors, 1.0))).sum() / searched
            )
            # Rows without a search (a forced move) have no policy target.
            d_logits = (priors - data.policy) * data.searched[:, None] / searched
            grads["wp"] = hidden[-1].T @ d_logits
            grads["bp"] = d_logits.sum(axis=0)
            d_hidden = d_hidden + d_logits @ p["wp"].T
        inputs = [data.x, *hidden]
        for k in range(self.layers, 0, -1):
            d_hidden = d_hidden * (hidden[k - 1] > 0)
            grads[f"w{k}"] = inputs[k - 1].T @ d_hidden
            grads[f"b{k}"] = d_hidden.sum(axis=0)
            if k > 1:
                d_hidden = d_hidden @ p[f"w{k}"].T
        self.steps += 1
        for name, grad in grads.items():
            first, second = self.moments.setdefault(
                name, (np.zeros_like(p[name]), np.zeros_like(p[name]))
            )
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad**2
            unbiased = first / (1 - 0.9**self.steps)
            scale = np.sqrt(second / (1 - 0.999**self.steps)) + 1e-8
            step = rate * unbiased / scale
            if name.startswith("w"):
                step += rate * decay * p[name]
            p[name] -= step.astype(np.float32)
        return policy_loss, value_loss

    def save(self, path: Path, entry: GameEntry[Any, Any, Any], trained: str) -> None:
        """The network as an ``indigo-net/1`` file (docs/alphazero.md)."""
        metadata = {
            "format": FORMAT,
            "game": entry.name,
            "players": str(PLAYERS),
            "input": "log1p",
            "observation_size": str(entry.observation_size),
            "action_count": str(entry.action_count),
            "trained": trained,
        }
        tensors = {k: np.ascontiguousarray(v, np.float32) for k, v in self.params.items()}
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        save_file(tensors, partial, metadata=metadata)
        partial.replace(path)


def has_policy(entry: GameEntry[Any, Any, Any]) -> bool:
    """Whether the game's network has a policy head: a game whose legal actions fit a mask
    (Indigo); Queen's Garden's 8 million actions do not."""
    return entry.action_list is None


@dataclass(frozen=True)
class Samples:
    """Training rows: features, value targets (``2 * outcome - 1``) and, with a policy head,
    the legal masks and visit distributions."""

    x: Floats
    target: Floats
    searched: Floats
    game: npt.NDArray[np.int64]
    masks: npt.NDArray[np.bool_] | None
    policy: Floats | None

    def __len__(self) -> int:
        return len(self.x)

    def rows(self, rows: npt.NDArray[np.int64]) -> Samples:
        return Samples(
            self.x[rows],
            self.target[rows],
            self.searched[rows],
            self.game[rows],
            None if self.masks is None else self.masks[rows],
            None if self.policy is None else self.policy[rows],
        )

    @staticmethod
    def read(folders: Sequence[Path], policy: bool, played: Sequence[Path] = ()) -> Samples:
        """The samples of ``folders``; each folder's games numbered apart. The policy target is
        the visit distribution, or in ``played`` the move played (the search's choice)."""
        parts: dict[str, list[npt.NDArray[Any]]] = {k: [] for k in ("x", "t", "s", "g", "m", "p")}
        for index, folder in enumerate(folders):
            for batch in load(folder, batch_size=20_000):
                parts["x"].append(features(batch.observation))
                parts["t"].append((2.0 * batch.outcome - 1.0).astype(np.float32))
                parts["s"].append(batch.searched.astype(np.float32))
                parts["g"].append(batch.game.astype(np.int64) + index * 10**9)
                if policy:
                    parts["m"].append(batch.legal_mask)
                    target = batch.policy
                    if folder in played:
                        target = np.zeros_like(batch.policy)
                        target[np.arange(len(target)), batch.action] = batch.searched
                    parts["p"].append(target)
        joined = {k: np.concatenate(v) for k, v in parts.items() if v}
        return Samples(
            joined["x"],
            joined["t"],
            joined["s"],
            joined["g"],
            joined.get("m"),
            joined.get("p"),
        )


def train(
    network: Network, data: Samples, epochs: int, rate: float, decay: float, seed: int
) -> list[dict[str, float]]:
    """``epochs`` passes in minibatches of 256 over the samples of every game but one in 20,
    which are held out; four times an epoch, the mean training losses since the last time and
    the held-out ones."""
    held = data.game % 20 == 19
    fit, out = data.rows(np.flatnonzero(~held)), data.rows(np.flatnonzero(held))
    rng = np.random.default_rng(seed)
    starts = range(0, len(fit), 256)
    every = max(1, -(-len(starts) // 4))
    history = []
    for epoch in range(epochs):
        order = rng.permutation(len(fit))
        sums = np.zeros(2)
        steps = 0
        for done, start in enumerate(starts, 1):
            sums += network.train_step(fit.rows(order[start : start + 256]), rate, decay)
            steps += 1
            if done % every and done != len(starts):
                continue
            policy_out, value_out = network.losses(out)
            history.append(
                {
                    "epoch": round(epoch + done / len(starts), 3),
                    "policy_loss": round(float(sums[0]) / steps, 4),
                    "value_loss": round(float(sums[1]) / steps, 4),
                    "policy_loss_held_out": round(policy_out, 4),
                    "value_loss_held_out": round(value_out, 4),
                }
            )
            sums, steps = np.zeros(2), 0
    return history


def match(
    entry: GameEntry[Any, Any, Any],
    bot: PuctBot,
    opponent: str,
    games: int,
    seed: int,
) -> dict[str, Any]:
    """``bot`` against the bot spec ``opponent`` over ``games`` games, seats alternating, each
    bot handed a game consistent with what its seat knows: wins, losses, shared wins, the score
    (a shared win counts 1/2) and the Wilson 95 % interval of the wins among decisive games."""
    wins = losses = 0
    for i in range(games):
        other = entry.make_bot(opponent, seed=seed + i)
        ours = i % 2
        game = entry.game(entry.default_rules(PLAYERS), seed=seed + i)
        while (seat := game.to_move) is not None:
            chooser = bot if seat == ours else other
            game.play(chooser.choose(game.resample(seat, seed=seed + i + 7919 * game.moves_played)))
        winners = list(game.winners)
        if winners == [ours]:
            wins += 1
        elif ours not in winners:
            losses += 1
    low, high = wilson_interval(wins, wins + losses)
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "losses": losses,
        "shared": games - wins - losses,
        "score": round((wins + 0.5 * (games - wins - losses)) / max(1, games), 4),
        "wins_of_decisive_ci95": [round(low, 4), round(high, 4)],
    }


def loss_svg(history: Sequence[dict[str, Any]], title: str) -> str:
    """The loss curves of a run, four points per epoch, as a self-contained SVG."""
    epochs = [(step["iteration"], e) for step in history for e in step["epochs"]]
    series = [
        ("policy_loss", "policy (training)", "#1f77b4", ""),
        ("policy_loss_held_out", "policy (held out)", "#1f77b4", "6 4"),
        ("value_loss", "value (training)", "#d62728", ""),
        ("value_loss_held_out", "value (held out)", "#d62728", "6 4"),
    ]
    series = [s for s in series if any(e[s[0]] > 0 for _, e in epochs)]
    width, height, left, right, top, bottom = 640, 360, 56, 170, 34, 40
    top_value = max([e[s[0]] for _, e in epochs for s in series] + [1e-6]) * 1.08
    span = max(1, len(epochs) - 1)

    def x_of(i: int) -> float:
        return left + (width - left - right) * i / span

    def y_of(v: float) -> float:
        return top + (height - top - bottom) * (1 - v / top_value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="20" font-size="14">{title}</text>',
        f'<line x1="{left}" y1="{y_of(0):.1f}" x2="{width - right}" y2="{y_of(0):.1f}" '
        'stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y_of(0):.1f}" stroke="black"/>',
    ]
    for k in range(5):
        v = top_value * k / 4
        parts.append(f'<text x="{left - 6}" y="{y_of(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
    for i, (iteration, _) in enumerate(epochs):
        if i == 0 or epochs[i - 1][0] != iteration:
            parts.append(
                f'<line x1="{x_of(i):.1f}" y1="{top}" x2="{x_of(i):.1f}" y2="{y_of(0):.1f}" '
                'stroke="#ccc"/>'
                f'<text x="{x_of(i) + 3:.1f}" y="{height - bottom + 16}">{iteration}</text>'
            )
    parts.append(
        f'<text x="{left}" y="{height - 6}">training, 4 points per epoch; a grey line starts '
        "each iteration</text>"
    )
    for n, (key, label, colour, dash) in enumerate(series):
        points = " ".join(f"{x_of(i):.1f},{y_of(e[key]):.1f}" for i, (_, e) in enumerate(epochs))
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashing}/>'
        )
        y = top + 16 * n + 6
        parts.append(
            f'<line x1="{width - right + 12}" y1="{y}" x2="{width - right + 36}" y2="{y}" '
            f'stroke="{colour}" stroke-width="2"{dashing}/>'
            f'<text x="{width - right + 42}" y="{y + 4}">{label}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[e.name for e in GAMES], default=GAMES[0].name)
    parser.add_argument(
        "--distill-rounds", type=int, default=1, help="distillation iterations (0: none)"
    )
    parser.add_argument("--distill-games", type=int, default=1000, help="games per round")
    parser.add_argument(
        "--distill-bot", default="ismcts:1000",
        help="the distilled bot spec; {network} in it names the network trained so far "
        "(expert iteration: net:2000,file={network})",
    )  # fmt: skip
    parser.add_argument("--distill-epochs", type=int, default=2, help="per round")
    parser.add_argument(
        "--distill-window", type=int, default=1, help="rounds of games a round trains on"
    )
    parser.add_argument(
        "--distill-target", choices=["action", "visits"], default="action",
        help="the distilled policy target: the move the search chose, or its visits",
    )  # fmt: skip
    parser.add_argument("--iterations", type=int, default=0, help="AlphaZero iterations")
    parser.add_argument("--games", type=int, default=50, help="self-play games per iteration")
    parser.add_argument("--simulations", type=int, default=100, help="PUCT's, and the match's")
    parser.add_argument("--batch-size", type=int, default=8, help="leaves per evaluator call")
    parser.add_argument(
        "--in-flight", type=int, default=1,
        help="AlphaZero self-play games whose searches share each evaluator call",
    )  # fmt: skip
    parser.add_argument(
        "--hidden", type=lambda s: [int(h) for h in s.split(",")], default=[128],
        help="hidden layer widths, comma-separated",
    )  # fmt: skip
    parser.add_argument("--epochs", type=int, default=2, help="per AlphaZero iteration")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--decay", type=float, default=1e-3, help="decoupled weight decay")
    parser.add_argument("--window", type=int, default=3, help="iterations of samples trained on")
    parser.add_argument("--eval-games", type=int, default=100, help="match games per iteration")
    parser.add_argument("--init", type=Path, help="start from this network file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("alphazero-run"))
    parser.add_argument("--network", type=Path, help="default: OUT/network.safetensors")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, log: Callable[[str], object] = print) -> dict[str, Any]:
    args = parse(argv)
    entry = find_game(args.game)
    rules = entry.default_rules(PLAYERS)
    network_path = args.network or args.out / "network.safetensors"
    words = list(sys.argv[1:] if argv is None else argv)
    command = " ".join(["python examples/alphazero.py", *words])
    began = time.monotonic()
    network = Network.read(args.init) if args.init else Network.new(entry, args.hidden, args.seed)
    policy = network.policy
    folders: list[Path] = []
    history: list[dict[str, Any]] = []
    result: dict[str, Any] = {}
    rounds = args.distill_rounds if args.distill_games > 0 else 0
    for iteration in range(rounds + args.iterations):
        started = time.monotonic()
        folder = args.out / f"iteration-{iteration}"
        distilled = iteration < rounds
        teacher = args.distill_bot
        if distilled and "{network}" in teacher:
            network_path.parent.mkdir(parents=True, exist_ok=True)
            network.save(network_path, entry, f"{command}: the teacher of iteration {iteration}")
            teacher = teacher.replace("{network}", str(network_path))
        if distilled:
            run_selfplay(
                [teacher] * PLAYERS,
                args.distill_games,
                folder,
                rules=rules,
                seed=args.seed * 1000 + iteration,
                shard_size=max(1, min(50, args.distill_games)),
            )
            epochs, games = args.distill_epochs, args.distill_games
        else:
            bot = PuctBot(
                network.evaluate,
                args.simulations,
                batch_size=args.batch_size,
                dirichlet_fraction=0.25,
                temperature=1.0,
                seed=args.seed * 1000 + iteration,
            )
            run_selfplay(
                bot, args.games, folder, rules=rules, seed=args.seed * 1000 + iteration,
                shard_size=args.games, in_flight=args.in_flight,
            )  # fmt: skip
            epochs, games = args.epochs, args.games
        played = time.monotonic()
        folders.append(folder)
        window = folders[-(args.distill_window if distilled else args.window) :]
        chosen = folders[:rounds] if args.distill_target == "action" else []
        data = Samples.read(window, policy, chosen)
        epoch_losses = train(network, data, epochs, args.rate, args.decay, args.seed + iteration)
        trained = time.monotonic()
        evaluator = PuctBot(
            network.evaluate, args.simulations, batch_size=args.batch_size, seed=args.seed + 1
        )
        strength = match(
            entry, evaluator, f"ismcts:{args.simulations}", args.eval_games, 10_000 + args.seed
        )
        history.append(
            {
                "iteration": iteration,
                "self_play": teacher if distilled else "puct",
                "games": games,
                "samples": len(data),
                "seconds": {
                    "self_play": round(played - started, 1),
                    "training": round(trained - played, 1),
                    "match": round(time.monotonic() - trained, 1),
                },
                **epoch_losses[-1],
                "epochs": epoch_losses,
                "strength": strength,
            }
        )
        seconds = round(time.monotonic() - began)
        network.save(
            network_path,
            entry,
            f"{command}: {len(history)} iterations ({min(len(history), rounds)} distilling "
            f"{args.distill_bot} self-play, {max(0, len(history) - rounds)} of PUCT self-play), "
            f"{sum(h['games'] for h in history)} games, {seconds} s wall",
        )
        log(json.dumps({k: v for k, v in history[-1].items() if k != "epochs"}))
        result = {
            "game": entry.name,
            "command": command,
            "settings": {
                k: str(v) if isinstance(v, Path) else v
                for k, v in vars(args).items()
                if v is not None
            },
            "training": history,
            "seconds": round(time.monotonic() - began, 1),
            "network": str(network_path),
        }
        # Rewritten after every iteration, as the network is: a stopped run keeps its figures.
        (args.out / "result.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / "losses.svg").write_text(loss_svg(history, f"{entry.title}: training losses"))
    return result


if __name__ == "__main__":
    main()
