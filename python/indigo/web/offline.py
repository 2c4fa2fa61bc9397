"""The data of the offline page (``scripts/build-web``): what its in-browser server
(``static/offline/engine.js``) takes from the Python package rather than keeping copies.

``python -m indigo.web.offline`` prints it as JSON: the seat spec of a person, the bot names,
the bot menus (Indigo's and Queen's Garden's) with their strength hints, the board's colours
per theme, the edges' names, the gems' points, Queen's Garden's attributes, their names and
seat swatches, and each game's title. The rules, Queen's Garden's picture and its move choices
come from the engine compiled to WebAssembly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from indigo import GEM_POINTS
from indigo.bots import BOT_NAMES
from indigo.games import titles
from indigo.queens_garden import ATTRIBUTES
from indigo.queens_garden.narration import ATTRIBUTE_WORDS
from indigo.queens_garden.web import END, SEAT_COLOURS
from indigo.render.svg import THEMES
from indigo.render.terminal import EDGE_NAMES
from indigo.table import BOT_MENU, HUMAN, QG_BOT_MENU

__all__ = ["offline_data"]


def offline_data() -> dict[str, Any]:
    """Everything ``engine.js`` reads from ``data.json``."""
    return {
        "human": HUMAN,
        "bots": list(BOT_NAMES),
        "menu": [dataclasses.asdict(choice) for choice in BOT_MENU],
        "themes": THEMES,
        "edge_names": list(EDGE_NAMES),
        "gem_points": dict(GEM_POINTS),
        "qg_menu": [dataclasses.asdict(choice) for choice in QG_BOT_MENU],
        "qg_attributes": list(ATTRIBUTES),
        "qg_attribute_words": dict(ATTRIBUTE_WORDS),
        "qg_seat_colours": list(SEAT_COLOURS),
        "qg_end": END,
        "titles": titles(),
    }


if __name__ == "__main__":
    print(json.dumps(offline_data(), indent=1))
