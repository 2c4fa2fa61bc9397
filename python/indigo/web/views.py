"""Indigo's views in the web app (:mod:`indigo.web.app`): its JSON of a position and of a
move, and its rules from a request. Its registry entry (:data:`indigo.games.INDIGO`) names this
module; Queen's Garden's are :mod:`indigo.queens_garden.web`, with the same functions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from indigo import Game, GemPath, Move, MoveResult, Rules
from indigo.narration import end_reason, explain, log_marks, move_log, move_marks
from indigo.render.svg import game_at, game_svg, gem_markup, gem_path_d, tile_markup
from indigo.render.terminal import GEMS
from indigo.table import HUMAN, demo_rules, legal_cells

__all__ = [
    "BOARD_MARGIN",
    "game_at",
    "play_json",
    "result_json",
    "rules_from_body",
    "state_json",
    "theme",
    "view_json",
]

BOARD_MARGIN = 60.0
"""Room beside the page's board for the side gates' labels (the picture's default is wider)."""


def rules_from_body(
    body: dict[str, Any],
    players: int,
    choice: Callable[[dict[str, Any], str, tuple[str, ...], str], str],
    integer: Callable[[dict[str, Any], str, int, int, int | None], int | None],
) -> Rules:
    """The rules a new game's body names for ``players`` seats: ``theme``, ``gates`` and
    ``hand_size``, read by the app's ``choice`` and ``integer`` (which refuse bad values)."""
    theme = choice(body, "theme", ("indigo", "butterfly-garden"), "indigo")
    gates = choice(body, "gates", ("shared", "exclusive"), "shared")
    hand_size = integer(body, "hand_size", 1, 2, None)
    return demo_rules(players, theme, hand_size, gates)


def theme(game: Game) -> str:
    """The game's ``theme`` in the games list and the record's file name."""
    return game.rules.theme


def play_json(game: Game, move: str | Move) -> dict[str, Any]:
    """Play ``move`` for the seat to move; its result as JSON. Raises as ``Game.play`` does."""
    return result_json(game, game.play(move))


def _path_json(rules: Rules, path: GemPath) -> dict[str, Any]:
    return {
        "gem": path.gem,
        "colour": rules.gem_colour(path.gem),
        "start": path.start,
        "steps": path.steps,
        "outcome": path.outcome,
        "end": path.end,
        "gate": path.gate,
        "owners": path.owners,
        "collided_with": path.collided_with,
        "d": gem_path_d(path),
    }


def result_json(game: Game, result: MoveResult) -> dict[str, Any]:
    """The effects of ``game``'s last move, with an SVG path ``d`` for each gem to animate
    along, ``text``: the move in words (:func:`indigo.narration.explain`), and ``marks``: what
    the words name on the board (:func:`indigo.narration.move_marks`)."""
    rules = game.rules
    return {
        "move": str(result.move),
        "seat": result.seat,
        "points": result.points,
        "game_over": result.game_over,
        "paths": [_path_json(rules, p) for p in result.paths],
        "text": explain(game, result, colour=False),
        "marks": move_marks(result),
    }


def view_json(
    game_id: str, seats: Sequence[str], names: Sequence[str], game: Game, total_moves: int
) -> dict[str, Any]:
    """What anyone may see of position ``game`` of a game with ``total_moves`` moves: board
    picture, scores."""
    rules = game.rules
    return {
        "id": game_id,
        "theme": rules.theme,
        "players": rules.players,
        "hand_size": rules.hand_size,
        "gate_name": rules.gate_name,
        "gates": rules.three_player_gates,
        "gems": {
            g: {
                "name": rules.gem_name(g),
                "colour": rules.gem_colour(g),
                "svg": gem_markup(rules, g),
            }
            for g in GEMS
        },
        "seats": [
            {
                "seat": seat,
                "player": seats[seat],
                "name": names[seat],
                "colour": rules.seat_colour(seat),
                "score": game.scores[seat],
                "collected": game.collected[seat],
                "tiles_in_hand": len(game.hands[seat]),
            }
            for seat in range(rules.players)
        ],
        "moves": len(game.moves),
        "total_moves": total_moves,
        "to_move": game.to_move,
        "over": game.over,
        "winners": game.winners,
        "end": end_reason(game),
        "pile_left": game.pile_left,
        "centre": game.centre,
        "removed": game.removed,
        "last": None if game.last_result is None else result_json(game, game.last_result),
        "svg": game_svg(game, scores=False, side_margin=BOARD_MARGIN),
    }


def state_json(
    game_id: str, seats: Sequence[str], names: Sequence[str], game: Game, can_undo: bool
) -> dict[str, Any]:
    """The live position, and for a person to move: their hand and where each tile may go."""
    out = view_json(game_id, seats, names, game, len(game.moves))
    seat = game.to_move
    human = seat is not None and seats[seat] == HUMAN
    out["to_move_player"] = None if seat is None else seats[seat]
    out["log"] = move_log(game)
    out["log_marks"] = log_marks(game)
    out["can_undo"] = can_undo
    out["hand"] = game.hand(seat) if human and seat is not None else None
    out["legal"] = legal_cells(game) if human else None
    out["tiles"] = (
        {t: tile_markup(t, theme=game.rules.theme) for t in set(game.hand(seat))}
        if human and seat is not None
        else None
    )
    return out
