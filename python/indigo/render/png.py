"""Pictures as PNG: the SVG of :mod:`indigo.render.svg` drawn by ``resvg-py`` (the ``png``
extra: resvg in a self-contained wheel, no system library to install, and it draws the SVG
exactly as browsers do for what we use)."""

from __future__ import annotations

from indigo._extras import require
from indigo._native import IndigoError

__all__ = ["svg_to_png"]


def svg_to_png(svg: str) -> bytes:
    """``svg`` drawn as PNG bytes. Raises :class:`ImportError` naming the ``png`` extra without
    ``resvg-py``."""
    resvg_py = require("resvg_py", "png")
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    except ValueError as exc:  # pragma: no cover - our SVG is always valid
        raise IndigoError(f"PNG conversion failed: {exc}") from None
