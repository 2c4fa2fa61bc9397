"""``indigo render``: a record's position as an SVG or PNG file.

PNG goes through ``resvg-py`` (the optional ``png`` extra): resvg in a self-contained wheel,
no system library to install, and it draws the SVG exactly as browsers do for what we use.
"""

from __future__ import annotations

import sys
from pathlib import Path

from indigo import Game, IndigoError, RecordError
from indigo._extras import install_hint
from indigo.cli import CliError, _record_error, read_record
from indigo.render.svg import game_svg

__all__ = ["render_command", "svg_to_png"]


def svg_to_png(svg: str) -> bytes:
    """``svg`` drawn as PNG bytes. Raises :class:`~indigo.cli.CliError` without ``resvg-py``."""
    try:
        import resvg_py
    except ImportError:
        raise CliError(f"PNG output needs resvg-py: {install_hint('png')}") from None
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    except ValueError as exc:  # pragma: no cover - our SVG is always valid
        raise CliError(f"PNG conversion failed: {exc}") from None


def render_command(path: str, *, move: int | None, output: str) -> int:
    """Draw the record at ``path`` after ``move`` moves into ``output`` (``-``: stdout)."""
    record = read_record(path)
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        raise _record_error(exc) from None
    try:
        svg = game_svg(game, move=move)
    except IndigoError as exc:
        raise CliError(f"--move: {exc}") from None
    if output == "-":
        sys.stdout.write(svg)
        return 0
    target = Path(output)
    data = svg_to_png(svg) if target.suffix.lower() == ".png" else svg.encode("utf-8")
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise CliError(f"{output}: {exc.strerror or exc}") from None
    return 0
