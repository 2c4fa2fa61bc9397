"""``indigo render RECORD.json [--move N] [-o OUT]``: a record's position as an SVG or PNG file
(PNG needs the ``png`` extra)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from indigo import IndigoError, RecordError
from indigo.cli._common import CliError, count, output_file, read_record, record_error
from indigo.games import record_game


def add_parser(sub: Any) -> None:
    render = sub.add_parser(
        "render",
        help="draw a position of a game record as SVG (or PNG)",
        description="Draw the position after move N of a record of either game (default: "
        "the last move) as SVG; "
        "as PNG when OUT ends in .png (needs the 'png' extra).",
    )
    render.add_argument("record", metavar="RECORD.json", help="the record file, or - for stdin")
    render.add_argument("--move", type=count, default=None, metavar="N")
    render.add_argument(
        "-o",
        "--output",
        type=picture_file,
        default="-",
        metavar="OUT",
        help="a .svg or .png file (default: SVG on stdout)",
    )
    render.set_defaults(run=run)


PICTURE_SUFFIXES = (".svg", ".png")
"""What ``indigo render`` can write, by the output file's extension."""


def picture_file(text: str) -> str:
    """An output file whose extension names a format ``indigo render`` writes, or ``-``."""
    if text != "-" and Path(text).suffix.lower() not in PICTURE_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"cannot write {text}: the extension must be .svg or .png, the formats it draws"
        )
    return text if text == "-" else output_file(text)


def run(args: argparse.Namespace) -> int:
    return render(args.record, move=args.move, output=args.output)


def render(path: str, *, move: int | None, output: str) -> int:
    """Draw the record at ``path`` after ``move`` moves into ``output`` (``-``: stdout)."""
    record = read_record(path)
    try:  # either game, by the record's format (as replay)
        entry = record_game(record)
        svg = entry.game_svg(entry.game.from_record(record), move=move)
    except RecordError as exc:
        raise record_error(exc) from None
    except IndigoError as exc:
        raise CliError(f"--move: {exc}") from None
    if output == "-":
        sys.stdout.write(svg)
        return 0
    target = Path(output)
    if target.suffix.lower() == ".png":
        from indigo.render.png import svg_to_png

        try:
            data = svg_to_png(svg)
        except ImportError as exc:  # the png extra is missing: the error says how to install it
            raise CliError(str(exc)) from None
    else:
        data = svg.encode("utf-8")
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise CliError(f"{output}: {exc.strerror or exc}") from None
    return 0
