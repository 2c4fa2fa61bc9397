"""``indigo replay RECORD.json [--snapshots] [--legal]``: check an ``indigo-record/1`` or a
``queens-garden-record/1`` (told apart by its ``format``) and print the final position, or
every position with ``--snapshots``, as snapshot JSON, one object per line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from indigo import Game, IndigoError, RecordError
from indigo import queens_garden as qg
from indigo.cli._common import CliError, read_record, record_error
from indigo.games import GAMES, record_game


def add_parser(sub: Any) -> None:
    replay = sub.add_parser(
        "replay",
        help="check a game record and print its positions as JSON",
        description="Check an indigo-record/1 or a queens-garden-record/1 (recognised by its "
        "format field) and print the final snapshot (indigo-snapshot/1 or "
        "queens-garden-snapshot/1) as one JSON line (keys sorted), or with --snapshots every "
        "position: the initial one, then one after each move. A bad record exits with status 2 "
        "and one line on stderr naming the offending field or move.",
    )
    replay.add_argument("record", metavar="RECORD.json", help="the record file, or - for stdin")
    replay.add_argument(
        "--snapshots", action="store_true", help="print every position, one per line"
    )
    replay.add_argument(
        "--legal", action="store_true", help="include the legal moves of the seat to move"
    )
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return replay(args.record, snapshots=args.snapshots, legal=args.legal)


def replay(path: str, *, snapshots: bool = False, legal: bool = False) -> int:
    """Validate the record at ``path``, then print the snapshot(s)."""
    record = read_record(path)
    # The whole record first: a bad record prints nothing on stdout.
    entry = record_game(record)
    try:
        checked: Game | qg.Game = entry.game.from_record(record)
    except RecordError as exc:
        error = record_error(exc)
        if exc.at == "format":  # no game's: say which formats are read
            others = [e for e in GAMES if e is not entry]
            also = ", ".join(f'"{e.record_format}" for {e.title}' for e in others)
            error = CliError(f"{error} (or {also})")
        raise error from None
    lines = _snapshots(checked, legal=legal) if snapshots else [checked.snapshot_json(legal=legal)]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _snapshots(checked: Game | qg.Game, *, legal: bool) -> list[str]:
    """The snapshot of every position of ``checked``: its start (reached by undoing every
    move, which restores it exactly), then one after each move."""
    moves: list[Any] = checked.moves  # each game's own move type
    game = checked.clone()
    while game.moves:
        game.undo()
    lines = [game.snapshot_json(legal=legal)]
    for index, move in enumerate(moves):
        try:
            game.play(move)
        except IndigoError as exc:  # only if the engine disagrees with its own record check
            raise CliError(f"moves[{index}]: {exc}") from None
        lines.append(game.snapshot_json(legal=legal))
    return lines
