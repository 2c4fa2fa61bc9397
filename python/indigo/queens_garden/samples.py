"""Queen's Garden's self-play samples: the Parquet schema of a run's samples files, a batch
as a table, and the numpy batches :func:`indigo.selfplay.load` yields for a Queen's Garden run.

Its 8,053,459 actions do not fit a mask: its samples list the legal actions (``legal_actions``,
ascending) instead of ``legal_mask``, and actions are ``uint32``; :class:`SampleBatch` holds the
legal actions and the search's visits one array per row. Its registry entry
(:data:`indigo.games.QUEENS_GARDEN`) names this module. Needs the ``selfplay`` extra (pyarrow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from indigo import samples as indigo_samples
from indigo.bots import BotLike
from indigo.queens_garden import OBSERVATION_SIZE, Rules, SelfPlayBatch, self_play
from indigo.samples import element

__all__ = ["FORMAT", "SampleBatch", "manifest", "play", "samples_table", "schema", "to_batch"]

FORMAT: Final = "queens-garden-selfplay/1"
"""The manifest's ``format`` of a Queen's Garden run: names the folder layout and
:func:`schema`."""


def schema() -> pa.Schema:
    """The Parquet schema of Queen's Garden's samples: Indigo's columns
    (:func:`indigo.samples.schema`), the legal actions listed, not masked."""
    indigo = indigo_samples.schema()
    fields = []
    for field in indigo:
        if field.name == "observation":
            field = field.with_type(pa.list_(element(pa.float32()), OBSERVATION_SIZE))
        elif field.name == "legal_mask":
            field = pa.field(
                "legal_actions",
                pa.list_(element(pa.uint32())),
                nullable=False,
                metadata={"doc": "the legal actions (docs/queens-garden.md), ascending"},
            )
        elif field.name == "action":
            field = field.with_type(pa.uint32())
        elif field.name == "visit_actions":
            field = field.with_type(pa.list_(element(pa.uint32())))
        fields.append(field)
    return pa.schema(fields, metadata={"format": FORMAT})


def samples_table(batch: SelfPlayBatch) -> pa.Table:
    """A self-play batch's samples as a table with :func:`schema`."""
    unsearched = pa.array(~batch.searched)
    visits = pa.array(batch.visit_offsets, pa.int32())
    columns = {
        "game": pa.array(batch.game),
        "ply": pa.array(batch.ply),
        "seat": pa.array(batch.seat),
        "observation": pa.FixedSizeListArray.from_arrays(
            pa.array(batch.observation.reshape(-1)), OBSERVATION_SIZE
        ),
        "legal_actions": pa.ListArray.from_arrays(
            pa.array(batch.legal_offsets, pa.int32()), pa.array(batch.legal_actions)
        ),
        "action": pa.array(batch.action),
        "searched": pa.array(batch.searched),
        "visit_actions": pa.ListArray.from_arrays(
            visits, pa.array(batch.visit_actions), mask=unsearched
        ),
        "visit_counts": pa.ListArray.from_arrays(
            visits, pa.array(batch.visit_counts), mask=unsearched
        ),
        "outcome": pa.array(batch.outcome),
        "points": pa.array(batch.points),
    }
    return pa.Table.from_pydict(columns, schema=schema())


@dataclass(frozen=True, eq=False)
class SampleBatch:
    """Queen's Garden samples as numpy arrays, one row per move. The legal actions and the
    search's visits are one array per row, as stored: ``ACTION_COUNT`` (about 8 million)
    actions are too many for a mask or a dense policy."""

    game: npt.NDArray[np.uint64]
    ply: npt.NDArray[np.uint16]
    seat: npt.NDArray[np.uint8]
    observation: npt.NDArray[np.float32]
    """``rows x OBSERVATION_SIZE``."""
    legal_actions: list[npt.NDArray[np.uint32]]
    """Each row's legal actions, ascending."""
    action: npt.NDArray[np.int64]
    searched: npt.NDArray[np.bool_]
    visit_actions: list[npt.NDArray[np.uint32]]
    """Each row's visited root actions, ascending; empty without a search."""
    visit_counts: list[npt.NDArray[np.uint32]]
    """The root visits of each of ``visit_actions``; empty without a search."""
    outcome: npt.NDArray[np.float32]
    points: npt.NDArray[np.uint16]

    def __len__(self) -> int:
        return len(self.game)


def _per_row(column: pa.ChunkedArray) -> list[npt.NDArray[Any]]:
    """A list column as one array per row (a null row is empty)."""
    lists = column.combine_chunks()
    values = np.asarray(lists.flatten().to_numpy(zero_copy_only=False))
    offsets = np.asarray(lists.offsets.to_numpy())
    return list(np.split(values, offsets[1:-1] - offsets[0]))


def to_batch(table: pa.Table) -> SampleBatch:
    """Rows of :func:`schema` as a :class:`SampleBatch`."""

    def column(name: str) -> npt.NDArray[Any]:
        return np.asarray(table.column(name).to_numpy())

    observation = pc.list_flatten(table.column("observation")).to_numpy(zero_copy_only=False)
    return SampleBatch(
        game=column("game"),
        ply=column("ply"),
        seat=column("seat"),
        observation=np.asarray(observation).reshape(-1, OBSERVATION_SIZE),
        legal_actions=_per_row(table.column("legal_actions")),
        action=column("action").astype(np.int64),
        searched=column("searched").astype(np.bool_),
        visit_actions=_per_row(table.column("visit_actions")),
        visit_counts=_per_row(table.column("visit_counts")),
        outcome=column("outcome"),
        points=column("points"),
    )


def play(bots: Sequence[BotLike], games: int, **arguments: Any) -> SelfPlayBatch:
    """A shard's games: :func:`indigo.queens_garden.self_play` with ``arguments`` (the run
    let only bot specs through)."""
    return self_play([str(b) for b in bots], games, **arguments)


def manifest(rules: Rules) -> dict[str, Any]:
    """The manifest's ``format``, ``game`` and ``rules`` of a run under ``rules``."""
    return {"format": FORMAT, "game": "queens-garden", "rules": rules.to_dict()}
