"""The web app's JSON for Queen's Garden games: views, states and move results, and its rules
from a request (the functions :mod:`indigo.web.views` has for Indigo; the registry entry
:data:`indigo.games.QUEENS_GARDEN` names this module).

Shaped like the Indigo ones (``docs/web.md``) so that the page's scores, log, undo, stepping
and end panel serve both games: ``seats`` carry ``score`` (and an empty ``collected``),
``gems`` is empty, a result's ``paths`` is empty. What is Queen's Garden's own: ``game``
(``"queens-garden"``), ``round``, ``rules`` (``wheel`` and ``jokers``, as the record writes
them: the page's scoring breakdown names the categories), ``snapshot`` (the public
``queens-garden-snapshot/1``: the game hides nothing but chance, which it does not hold), and
for a person to move ``choices``
(:func:`indigo.queens_garden.choices.move_choices`: the legal moves grouped for clicks, each
with the questions still to ask), ``attributes`` (each attribute as SVG markup, for its button)
and ``take_refusals`` (:func:`take_refusals`: why each other attribute may not be taken).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

from indigo._native import IllegalMoveError
from indigo.queens_garden import ATTRIBUTES, Game, Move, Rules
from indigo.queens_garden.choices import move_choices
from indigo.queens_garden.narration import move_lines, move_marks, narrated
from indigo.queens_garden.svg import attribute_markup, game_at, position_svg
from indigo.table import HUMAN

__all__ = [
    "END",
    "GAME",
    "SEAT_COLOURS",
    "end_text",
    "game_at",
    "play_json",
    "result_json",
    "rules_from_body",
    "state_json",
    "take_refusals",
    "theme",
    "view_json",
]

GAME: Final = "queens-garden"
"""The ``game`` (and ``theme``) of a Queen's Garden game in the web's JSON."""
SEAT_COLOURS: Final = ("#c0392b", "#2c3e50", "#d68910", "#7f8c8d")
"""The seats' swatches in the score table."""
END: Final = "four rounds were played and the gardens scored"
"""Why a game ended (every game ends so)."""


def rules_from_body(
    body: dict[str, Any],
    players: int,
    choice: Callable[[dict[str, Any], str, tuple[str, ...], str], str],
    integer: Callable[[dict[str, Any], str, int, int, int | None], int | None],
) -> Rules:
    """The rules of a new game of ``players`` seats: the default ones (the body's Indigo
    options do not apply)."""
    del body, choice, integer
    return Rules(players)


def theme(game: Game) -> str:
    """The game's ``theme`` in the games list and the record's file name: :data:`GAME`."""
    return GAME


def play_json(game: Game, move: str | Move) -> dict[str, Any]:
    """Play ``move`` for the seat to move; its result as JSON. Raises as ``Game.play`` does."""
    before = game.clone()
    played = game.play(move).move
    return result_json(game, before, played)


def end_text(game: Game) -> str:
    """Why the game ended (``""`` while it is on)."""
    return END if game.over else ""


def result_json(game: Game, before: Game, move: Move) -> dict[str, Any]:
    """The last move of ``game``, played from the game ``before`` it: ``text``, the move in
    words (:func:`indigo.queens_garden.narration.move_lines`), and ``marks``, what they name on
    the board (:func:`~indigo.queens_garden.narration.move_marks`)."""
    after = game.scores
    seat = before.to_move
    return {
        "move": str(move),
        "seat": seat if seat is not None else 0,
        "points": [a - b for a, b in zip(after, before.scores, strict=True)],
        "game_over": game.over,
        "paths": [],
        "text": move_lines(game.moves_played, before, move, game),
        "marks": move_marks(before, move),
    }


def view_json(
    game_id: str, seats: Sequence[str], names: Sequence[str], game: Game, total_moves: int
) -> dict[str, Any]:
    """What anyone may see of position ``game`` of a game with ``total_moves`` moves."""
    snapshot = game.snapshot()
    players = game.rules.players
    last = None
    if game.moves_played:
        previous = game.clone()
        previous.undo()
        last = result_json(game, previous, game.moves[-1])
    return {
        "id": game_id,
        "game": GAME,
        "theme": GAME,
        "players": players,
        "gems": {},
        "seats": [
            {
                "seat": seat,
                "player": seats[seat],
                "name": names[seat],
                "colour": SEAT_COLOURS[seat],
                "score": game.scores[seat],
                "collected": {},
                "passed": game.passed[seat],
            }
            for seat in range(players)
        ],
        "moves": game.moves_played,
        "total_moves": total_moves,
        "to_move": game.to_move,
        "over": game.over,
        "winners": game.winners,
        "end": end_text(game),
        "round": game.round,
        "rules": {
            "wheel": [list(categories) for categories in game.rules.wheel],
            "jokers": dict(game.rules.jokers),
        },
        "snapshot": snapshot,
        "last": last,
        "svg": position_svg(snapshot, wheel=game.rules.wheel, seats=list(names)),
        "svg_narrow": position_svg(
            snapshot, wheel=game.rules.wheel, seats=list(names), narrow=True
        ),
    }


def take_refusals(game: Game, takes: Collection[str]) -> dict[str, str]:
    """Why each attribute not in ``takes`` (the legal ones) may not be taken: the engine's
    reason for its bare take (``"no hexagon in the display shows bl: ..."``, ``"the selection
    does not fit the storage: ..."``), by attribute."""
    refusals = {}
    for attribute in ATTRIBUTES:
        if attribute in takes:
            continue
        try:
            game.clone().play(f"take {attribute}")
        except IllegalMoveError as exc:
            refusals[attribute] = str(exc).partition(" is illegal: ")[2]
    return refusals


def state_json(
    game_id: str, seats: Sequence[str], names: Sequence[str], game: Game, can_undo: bool
) -> dict[str, Any]:
    """The live position, and for a person to move the legal moves grouped for clicks."""
    out = view_json(game_id, seats, names, game, game.moves_played)
    seat = game.to_move
    human = seat is not None and seats[seat] == HUMAN
    out["to_move_player"] = None if seat is None else seats[seat]
    out["log"], out["log_marks"] = narrated(game)
    out["can_undo"] = can_undo
    out["choices"] = move_choices(game.legal_moves) if human else None
    out["take_refusals"] = take_refusals(game, out["choices"]["take"]) if human else None
    out["attributes"] = {a: attribute_markup(a) for a in ATTRIBUTES} if human else None
    return out
