"""Pictures of a game for people: :mod:`indigo.render.terminal` draws it as terminal text."""

from indigo.render.terminal import board_text, legend_text, status_text

__all__ = ["board_text", "legend_text", "status_text"]
