"""Indigo's self-play samples: the Parquet schema of a run's ``samples-NNNNN.parquet``
(:func:`schema`, described in docs/distributed.md), a batch as a table, and the numpy batches
:func:`indigo.selfplay.load` yields (:class:`SampleBatch`). Its registry entry
(:data:`indigo.games.INDIGO`) names this module. Needs the ``selfplay`` extra (pyarrow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt

from indigo._extras import require
from indigo._native import ACTION_COUNT, OBSERVATION_SIZE, Rules, SelfPlayBatch
from indigo.bots import BotLike
from indigo.policies import PolicySelfPlayBatch, self_play

require("pyarrow.parquet", "selfplay")

import pyarrow as pa  # noqa: E402  (after the check that names the extra)
import pyarrow.compute as pc  # noqa: E402

__all__ = [
    "FORMAT",
    "SampleBatch",
    "element",
    "manifest",
    "play",
    "samples_table",
    "schema",
    "to_batch",
]

FORMAT: Final = "indigo-selfplay/1"
"""The manifest's ``format`` of an Indigo run: names the folder layout and :func:`schema`."""


def element(kind: pa.DataType) -> pa.Field:
    """A list's values, named as Parquet names them, so that a read schema equals this one."""
    return pa.field("element", kind, nullable=False)


def schema() -> pa.Schema:
    """The Parquet schema of Indigo's samples: one row per move."""
    fields = [
        ("game", pa.uint64(), "the game's index in the run"),
        ("ply", pa.uint16(), "the move's number in its game, from 0"),
        ("seat", pa.uint8(), "the mover"),
        (
            "observation",
            pa.list_(element(pa.float32()), OBSERVATION_SIZE),
            "the mover's observation, laid out as indigo.OBSERVATION_LAYOUT says",
        ),
        (
            "legal_mask",
            pa.list_(element(pa.bool_()), ACTION_COUNT),
            "whether each action (docs/search.md) was legal",
        ),
        ("action", pa.uint16(), "the action played"),
        ("searched", pa.bool_(), "whether the mover searched (ISMCTS)"),
        (
            "visit_actions",
            pa.list_(element(pa.uint16())),
            "the search's visited root actions, ascending; null without a search",
        ),
        (
            "visit_counts",
            pa.list_(element(pa.uint32())),
            "root visits of each visited action; null without a search",
        ),
        ("outcome", pa.float32(), "the mover's final result: the winners share 1"),
        ("points", pa.uint16(), "the mover's final points"),
    ]
    return pa.schema(
        [
            pa.field(name, kind, nullable=name.startswith("visit_"), metadata={"doc": doc})
            for name, kind, doc in fields
        ],
        metadata={"format": FORMAT},
    )


def samples_table(batch: SelfPlayBatch | PolicySelfPlayBatch) -> pa.Table:
    """A self-play batch's samples as a table with :func:`schema`."""
    unsearched = pa.array(~batch.searched)

    def visits(values: npt.NDArray[Any], kind: pa.DataType) -> pa.Array:
        offsets = pa.array(batch.visit_offsets, pa.int32())
        return pa.ListArray.from_arrays(offsets, pa.array(values, kind), mask=unsearched)

    columns = {
        "game": pa.array(batch.game),
        "ply": pa.array(batch.ply),
        "seat": pa.array(batch.seat),
        "observation": pa.FixedSizeListArray.from_arrays(
            pa.array(batch.observation.reshape(-1)), OBSERVATION_SIZE
        ),
        "legal_mask": pa.FixedSizeListArray.from_arrays(
            pa.array(batch.legal_mask.reshape(-1)), ACTION_COUNT
        ),
        "action": pa.array(batch.action),
        "searched": pa.array(batch.searched),
        "visit_actions": visits(batch.visit_actions, pa.uint16()),
        "visit_counts": visits(batch.visit_counts, pa.uint32()),
        "outcome": pa.array(batch.outcome),
        "points": pa.array(batch.points),
    }
    return pa.Table.from_pydict(columns, schema=schema())


@dataclass(frozen=True, eq=False)
class SampleBatch:
    """Samples as numpy arrays, one row per move."""

    game: npt.NDArray[np.uint64]
    ply: npt.NDArray[np.uint16]
    seat: npt.NDArray[np.uint8]
    observation: npt.NDArray[np.float32]
    """``rows x OBSERVATION_SIZE``."""
    legal_mask: npt.NDArray[np.bool_]
    """``rows x ACTION_COUNT``."""
    action: npt.NDArray[np.int64]
    searched: npt.NDArray[np.bool_]
    policy: npt.NDArray[np.float32]
    """The search's visit distribution, ``rows x ACTION_COUNT``; all zero without a search."""
    outcome: npt.NDArray[np.float32]
    points: npt.NDArray[np.uint16]

    def __len__(self) -> int:
        return len(self.game)


def to_batch(table: pa.Table) -> SampleBatch:
    """Rows of :func:`schema` as a :class:`SampleBatch`, the visits as a dense policy."""

    def column(name: str) -> npt.NDArray[Any]:
        return np.asarray(table.column(name).to_numpy())

    def square(name: str, width: int) -> npt.NDArray[Any]:
        values = pc.list_flatten(table.column(name)).to_numpy(zero_copy_only=False)
        return np.asarray(values).reshape(-1, width)

    rows = table.num_rows
    policy = np.zeros((rows, ACTION_COUNT), np.float32)
    visits = table.column("visit_counts")
    parents = pc.list_parent_indices(visits).to_numpy()
    actions = pc.list_flatten(table.column("visit_actions")).to_numpy()
    counts = pc.list_flatten(visits).to_numpy()
    policy[parents, actions] = counts
    totals = policy.sum(axis=1, keepdims=True)
    np.divide(policy, totals, out=policy, where=totals > 0)
    return SampleBatch(
        game=column("game"),
        ply=column("ply"),
        seat=column("seat"),
        observation=square("observation", OBSERVATION_SIZE),
        legal_mask=square("legal_mask", ACTION_COUNT),
        action=column("action").astype(np.int64),
        searched=column("searched").astype(np.bool_),
        policy=policy,
        outcome=column("outcome"),
        points=column("points"),
    )


def play(
    bots: Sequence[BotLike], games: int, **arguments: Any
) -> SelfPlayBatch | PolicySelfPlayBatch:
    """A shard's games: :func:`indigo.self_play` of Indigo with ``arguments``."""
    return cast("SelfPlayBatch | PolicySelfPlayBatch", self_play(bots, games, **arguments))


def manifest(rules: Rules) -> dict[str, Any]:
    """The manifest's ``format`` and ``rules`` (with the theme) of a run under ``rules``."""
    return {"format": FORMAT, "rules": {**rules.to_dict(), "theme": rules.theme}}
