"""Queen's Garden moves as choices a person makes one at a time: for the terminal and the web.

A person rarely types or clicks a whole move. They name a part (``take 2``, ``tile bl3 f0``,
a click on an attribute) and are asked for the rest. This module narrows the legal-move list
to what a partial move allows (:func:`candidates`) and says what to ask next
(:func:`next_question`), so that ``indigo play`` and the web page complete moves alike: the
``queens-garden`` crate does it, for this module and for the offline page's WebAssembly. The
rules are never computed here: every answer is a selection from ``Game.legal_moves``.

>>> from indigo import queens_garden as qg
>>> game = qg.Game(qg.Rules(2), seed=7)
>>> [str(m) for m in candidates(game.legal_moves, "take y")]
['take ye']
>>> next_question(candidates(game.legal_moves, "take")).topic
'attribute'

A ``pass`` with discards is never in the legal-move list (``pass`` appears once, bare): it is
left to ``Game.is_legal``, so :func:`candidates` matches the bare ``pass`` for any ``pass ...``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from indigo._native import queens_garden as _qg
from indigo.queens_garden import Move

__all__ = [
    "Option",
    "Question",
    "candidates",
    "move_choices",
    "next_question",
    "split_move",
]


def split_move(move: Move | str) -> tuple[list[str], list[str]]:
    """A move's fixed head tokens and its free tokens: ``(["take", "2"], ["ye2@0"])``."""
    head, rest = _qg.split_move(str(move))
    return list(head), list(rest)


def candidates(legal: Sequence[Move], text: str) -> list[Move]:
    """The legal moves that a partial move ``text`` may mean, in legal-list order.

    The head's tokens must match in order, the last typed head token as a prefix (``tile bl``
    keeps every blue tile placement, ``take 2`` only the takes of birds, not of ``2``-less
    attributes); the typed free tokens (copy choices, discards) must all be in the move, as a
    multiset. Every ``pass ...`` matches the listed ``pass``.
    """
    return [legal[i] for i in _qg.candidates([str(m) for m in legal], text)]


@dataclass(frozen=True)
class Option:
    """One answer to a :class:`Question`: its text and the moves it leaves."""

    label: str
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Question:
    """What to ask to narrow ``moves`` further: ``topic`` (``action``, ``attribute``, ``kind``,
    ``cell``, ``area``, ``slot``, ``payment``), a prompt, and the options in legal-list order."""

    topic: str
    prompt: str
    options: tuple[Option, ...]


def next_question(moves: Sequence[Move]) -> Question | None:
    """The question that splits ``moves`` (all legal in one position), or ``None`` when they are
    one move (or none). Asked in this order: the action, then the head's parts (attribute; kind,
    cell; area), then a take's copy choices one kind at a time (kind order), then the payment."""
    asked = _qg.next_question([str(m) for m in moves])
    if asked is None:
        return None
    topic, prompt, options = asked
    kept = tuple(Option(label, tuple(moves[i] for i in indices)) for label, indices in options)
    return Question(topic, prompt, kept)


def move_choices(legal: Sequence[Move]) -> dict[str, Any]:
    """The legal-move list grouped as a page offers it to clicks, each group a tree of the
    questions left once it is clicked (:func:`next_question`; a tree is ``{"move": text}`` when
    one move is left, else ``{"topic", "prompt", "options": [{"label", ...subtree}]}``):

    * ``take``: attribute -> tree (the slots of kinds found at several slots);
    * ``tile`` / ``exp``: kind -> cell -> tree (the payments);
    * ``buy``: the areas (``buy AREA`` is one move each); ``pass``: whether ``pass`` is legal.
    """
    choices: dict[str, Any] = _qg.move_choices([str(m) for m in legal])
    return choices
