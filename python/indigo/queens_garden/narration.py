"""Queen's Garden's moves in words, as the board shows them (``indigo.narration`` does Indigo's):
who took which hexagons from which display slot, what was placed where and paid with what,
what surrounding an element paid, the passes, and the round and final scoring.

A hexagon is named by its colour and value ("yellow 3"), a place by what the picture shows:
"beside the fountain" for the six spaces around it, "area 2" (the picture labels the areas
``a0`` .. ``a5``), "slot 1" of the display. The web app's log and messages
(:mod:`indigo.queens_garden.web`) are these words; ``move_marks`` says what they name, for the
page to highlight. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from indigo.queens_garden import Game, Move, kind_value
from indigo.queens_garden.svg import game_at

__all__ = [
    "ATTRIBUTE_WORDS",
    "attribute_words",
    "discard_words",
    "hexagon_words",
    "move_lines",
    "move_log",
    "move_marks",
    "narrated",
    "option_words",
    "place_words",
]

ATTRIBUTE_WORDS: Final = {
    "bl": "blue",
    "ye": "yellow",
    "lg": "light green",
    "dg": "dark green",
    "lp": "light purple",
    "dp": "dark purple",
    "1": "tree",
    "2": "bird",
    "3": "butterfly",
    "4": "flower",
    "5": "plant",
    "6": "lily",
}
"""Each attribute's name: the colours', and the patterns' (5 and 6 are unverified labels)."""
_PLURALS: Final = {"butterfly": "butterflies", "lily": "lilies"}


def hexagon_words(kind: str) -> str:
    """A kind by its colour and value: ``ye3`` is "yellow 3"."""
    return f"{ATTRIBUTE_WORDS[kind[:2]]} {kind[2]}"


def attribute_words(attribute: str) -> str:
    """What a take names: "the yellow hexagons", "the butterflies (3)"."""
    if attribute.isdigit():
        name = ATTRIBUTE_WORDS[attribute]
        return f"the {_PLURALS.get(name, name + 's')} ({attribute})"
    return f"the {ATTRIBUTE_WORDS[attribute]} hexagons"


def discard_words(token: str) -> str:
    """A payment's or a pass's discard: "a yellow 5", "the yellow 5 expansion", "a joker"."""
    if token == "*":
        return "a joker"
    if token.endswith("x"):
        return f"the {hexagon_words(token[:3])} expansion"
    return f"a {hexagon_words(token)}"


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def place_words(cell: str) -> str:
    """A garden cell as the picture shows it: "beside the fountain", "the centre of area 2",
    "area 2" (a petal of the expansion there)."""
    if cell.startswith("f"):
        return "beside the fountain"
    if cell.endswith("c"):
        return f"the centre of area {cell[1]}"
    return f"area {cell[1]}"


def _at(cell: str) -> str:
    """:func:`place_words` after its preposition."""
    words = place_words(cell)
    if words.startswith("beside"):
        return words
    return f"in {words}" if words.startswith("area") else f"at {words}"


def _sources(game: Game) -> dict[str, list[tuple[int, bool]]]:
    """Where each kind lies in the display: ``(slot, is an expansion)`` for each place."""
    sources: dict[str, list[tuple[int, bool]]] = {}
    stack = game.stack
    if stack is not None:
        for kind in stack["tiles"]:
            sources.setdefault(kind, []).append((stack["slot"], False))
    for expansion in game.display:
        if expansion["face"] == "up":
            sources.setdefault(expansion["kind"], []).append((expansion["slot"], True))
        else:
            for kind in expansion.get("tiles", []):
                sources.setdefault(kind, []).append((expansion["slot"], False))
    return sources


def _taken(before: Game, move: Move) -> list[tuple[int, str, bool]]:
    """What a take takes: ``(slot, kind, is an expansion)`` for each kind that shows its
    attribute, at the slot the move chooses or the only one where it lies."""
    tokens = str(move).split()
    attribute = tokens[1]
    chosen = dict(token.split("@") for token in tokens[2:])
    taken = []
    for kind, places in _sources(before).items():
        if attribute not in (kind[:2], kind[2]):
            continue
        slots = sorted(set(places))
        slot, expansion = next(
            (place for place in slots if str(place[0]) == chosen.get(kind)), slots[0]
        )
        taken.append((slot, kind, expansion))
    return sorted(taken)


def _take_text(before: Game, move: Move) -> str:
    by_slot: dict[int, list[str]] = {}
    for slot, kind, expansion in _taken(before, move):
        name = f"the {hexagon_words(kind)} expansion" if expansion else hexagon_words(kind)
        by_slot.setdefault(slot, []).append(name)
    parts = [f"{_and(names)} from slot {slot}" for slot, names in sorted(by_slot.items())]
    return f"took {attribute_words(str(move).split()[1])}: {'; '.join(parts)}"


def _discards(tokens: Sequence[str]) -> list[str]:
    """Discards in words, the jokers counted last: ["a dark green 6", "2 jokers"]."""
    discards = [discard_words(token) for token in tokens if token != "*"]
    jokers = tokens.count("*")
    if jokers:
        discards.append("a joker" if jokers == 1 else f"{jokers} jokers")
    return discards


def option_words(topic: str, label: str) -> str:
    """An answer of a :class:`~indigo.queens_garden.choices.Question` in words, as the web
    page's buttons say it: "a dark green 5 and a joker", "slot 2", "area 4", "yellow 3"."""
    if topic == "payment":
        return "nothing more" if label == "nothing" else _and(_discards(label.split()))
    if topic == "slot":
        return f"slot {label}"
    if topic == "area":
        return f"area {label[1:]}"
    if topic == "kind":
        return hexagon_words(label)
    if topic == "attribute":
        return ATTRIBUTE_WORDS[label]
    if topic == "cell":
        return place_words(label)
    return label


def _payment(tokens: Sequence[str], value: int) -> str:
    discards = _discards(tokens)
    if not discards:
        return "a tree pays for itself" if value == 1 else "paid nothing more"
    return f"paying with {_and(discards)}"


def _jokers_won(before: Game, after: Game, seat: int, tokens: Sequence[str]) -> int:
    """Jokers a placement's surrounded elements paid: storage's jokers after, less those left
    once the payment's were spent."""
    left = before.storages[seat]["jokers"] - tokens.count("*")
    return after.storages[seat]["jokers"] - left


def _action(before: Game, move: Move, after: Game, seat: int) -> str:
    tokens = str(move).split()
    verb = move.verb
    if verb == "take":
        return _take_text(before, move)
    if verb == "buy":
        return f"bought a face-down expansion for 6 points and laid it in area {tokens[1][1]}"
    if verb == "pass":
        first = "" if any(before.passed) else " first"
        text = f"passed{first}"
        if first:
            text += " (so loses a point and starts the next round)"
        if tokens[1:]:
            text += f", discarding {_and([discard_words(t) for t in tokens[1:]])}"
        return text
    kind, cell, discards = tokens[1], tokens[2], tokens[3:]
    paid = _payment(discards, kind_value(kind))
    if verb == "tile":
        text = f"placed a {hexagon_words(kind)} {_at(cell)}, {paid}"
    else:
        text = (
            f"laid the {hexagon_words(kind)} expansion in area {cell[1]} "
            f"(its {hexagon_words(kind)} on petal {cell[2]}), {paid}"
        )
    won = _jokers_won(before, after, seat, discards)
    if won > 0:
        text += f"; surrounding an element won {won} joker{'s' if won > 1 else ''}"
    return text


def _changes(before: Sequence[int], after: Sequence[int]) -> str:
    return ", ".join(
        f"P{s} {a - b:+d}" for s, (b, a) in enumerate(zip(before, after, strict=True)) if a != b
    )


def _scoring(before: Game, after: Game) -> list[str]:
    """The round scoring (and the final scoring) a move ended with, if any."""
    lines = []
    for number in range(len(before.round_points), len(after.round_points)):
        categories = ", ".join(ATTRIBUTE_WORDS[a] for a in after.rules.wheel[number])
        points = ", ".join(f"P{s} +{p}" for s, p in enumerate(after.round_points[number]))
        lines.append(f"  round {number + 1} scored ({categories}): {points}")
    final = after.final_scoring
    if final is not None and before.final_scoring is None:
        for seat, part in enumerate(final):
            lines.append(
                f"  final scoring of P{seat}: storage {part['storage']:+d}, "
                f"groups +{part['groups']}, bonus +{part['bonus']}"
            )
    return lines


def move_lines(number: int, before: Game, move: Move | str, after: Game) -> list[str]:
    """Move ``number`` in words, from the game ``before`` it to the game ``after``: who did
    what and each seat's score change, then any scoring it ended with."""
    move = Move.parse(str(move))
    seat = before.to_move if before.to_move is not None else 0
    changes = _changes(before.scores, after.scores)
    head = f"Move {number}: P{seat} {_action(before, move, after, seat)}"
    return [head + (f"  ({changes})" if changes else ""), *_scoring(before, after)]


def move_marks(before: Game, move: Move | str) -> dict[str, Any]:
    """What :func:`move_lines` names on the board, for the web page to highlight: the mover's
    ``seat``, the garden ``cells`` it filled (an expansion's or a bought one's: its area's
    seven), and the display ``slots`` it took from."""
    move = Move.parse(str(move))
    seat = before.to_move if before.to_move is not None else 0
    tokens = str(move).split()
    cells: list[str] = []
    slots: list[int] = []
    if move.verb == "take":
        slots = sorted({slot for slot, _, _ in _taken(before, move)})
    elif move.verb == "tile":
        cells = [tokens[2]]
    elif move.verb in ("exp", "buy"):
        area = tokens[2][:2] if move.verb == "exp" else tokens[1]
        cells = [f"{area}c", *(f"{area}{petal}" for petal in range(6))]
    return {"seat": seat, "cells": cells, "slots": slots}


def narrated(game: Game) -> tuple[list[list[str]], list[dict[str, Any]]]:
    """Every move of ``game`` in words (:func:`move_lines`) and what each names on the board
    (:func:`move_marks`), replayed from the start in one pass."""
    replay = game_at(game, 0)
    lines: list[list[str]] = []
    marks: list[dict[str, Any]] = []
    for number, move in enumerate(game.moves, 1):
        before = replay.clone()
        replay.play(move)
        lines.append(move_lines(number, before, move, replay))
        marks.append(move_marks(before, move))
    return lines, marks


def move_log(game: Game) -> list[list[str]]:
    """Every move of ``game`` in words: its registry entry's ``move_log``."""
    return narrated(game)[0]
