"""Old names kept for one release (docs/api.md, "Names"): each still works, warns with a
:class:`DeprecationWarning` that names its replacement and points at the caller's line, and
the new name does not warn."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import indigo
import indigo.types
from indigo import Game, Rules


@contextmanager
def no_warning() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def deprecated(old: str, new: str, use: Callable[[], Any]) -> Any:
    """``use()``'s value, checking that it warns once, naming ``old`` and ``new``, from here."""
    with pytest.warns(DeprecationWarning, match="is deprecated") as caught:
        value = use()
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith(old), message
    assert f"use {new}" in message
    assert "0.3.0" in message
    assert caught[0].filename == __file__
    return value


def mid_game() -> Game:
    game = Game(Rules.indigo(3), seed=5)
    for _ in range(7):
        game.play(game.legal_moves[len(game.legal_moves) // 2])
    return game


def test_is_over_and_copy() -> None:
    game = mid_game()
    assert deprecated("Game.is_over()", "Game.over", lambda: game.is_over()) is game.over is False
    twin = deprecated("Game.copy()", "Game.clone()", lambda: game.copy())
    assert twin == game
    assert twin is not game
    twin.play(twin.legal_moves[0])
    assert twin != game
    while not game.over:
        game.play(game.legal_moves[0])
    assert deprecated("Game.is_over()", "Game.over", lambda: game.is_over()) is True


@pytest.mark.parametrize("name", ["legal_actions", "rewards"])
def test_list_properties_became_methods(name: str) -> None:
    game = mid_game()
    last = game.last_result
    assert last is not None
    expected = [m.action for m in game.legal_moves] if name == "legal_actions" else last.points
    assert len(expected) >= 3
    with no_warning():
        value = getattr(game, name)()
    assert type(value) is list
    assert value == expected
    old, new = f"Game.{name} without a call", f"Game.{name}()"
    attribute = getattr(game, name)
    assert deprecated(old, new, lambda: len(attribute)) == len(expected)
    assert deprecated(old, new, lambda: attribute[0]) == expected[0]
    assert deprecated(old, new, lambda: attribute[-2:]) == expected[-2:]
    assert deprecated(old, new, lambda: list(iter(attribute))) == expected
    assert deprecated(old, new, lambda: expected[-1] in attribute) is True
    assert deprecated(old, new, lambda: attribute == expected) is True
    assert deprecated(old, new, lambda: attribute == [*expected, 99]) is False


def test_is_chance_node_became_a_method() -> None:
    game = Game(Rules.indigo(2), chance="explicit")
    with no_warning():
        assert game.is_chance_node() is True
    old, new = "Game.is_chance_node without a call", "Game.is_chance_node()"
    assert deprecated(old, new, lambda: bool(game.is_chance_node)) is True
    assert deprecated(old, new, lambda: game.is_chance_node == True) is True  # noqa: E712
    while game.is_chance_node():
        game.apply_chance(game.chance_outcomes()[0][0])
    with no_warning():
        assert game.is_chance_node() is False
    assert deprecated(old, new, lambda: not game.is_chance_node) is True


def test_outcome_became_gem_outcome() -> None:
    with no_warning():
        assert indigo.GemOutcome is indigo.types.GemOutcome
    assert "Outcome" not in indigo.__all__
    assert deprecated("indigo.Outcome", "indigo.GemOutcome", lambda: indigo.Outcome) is (
        indigo.GemOutcome
    )
    assert (
        deprecated("indigo.types.Outcome", "indigo.types.GemOutcome", lambda: indigo.types.Outcome)
        is indigo.GemOutcome
    )
    with pytest.raises(AttributeError, match="Outcomes"):
        indigo.Outcomes  # type: ignore[attr-defined]  # noqa: B018
