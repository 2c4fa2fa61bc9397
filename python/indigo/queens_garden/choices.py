"""Queen's Garden moves as choices a person makes one at a time: for the terminal and the web.

A person rarely types or clicks a whole move. They name a part (``take 2``, ``tile bl3 f0``,
a click on an attribute) and are asked for the rest. This module narrows the legal-move list
to what a partial move allows (:func:`candidates`) and says what to ask next
(:func:`next_question`), so that ``indigo play`` and the web page complete moves alike.
The rules are never computed here: every answer is a selection from ``Game.legal_moves``.

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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from indigo.queens_garden import KINDS, Move

__all__ = [
    "HEAD_LENGTH",
    "Option",
    "Question",
    "candidates",
    "choice_tree",
    "move_choices",
    "next_question",
    "split_move",
]

HEAD_LENGTH: Final[dict[str, int]] = {"take": 2, "tile": 3, "exp": 3, "buy": 2, "pass": 1}
"""Tokens of each action's fixed head (``take ATTR``, ``tile KIND CELL``, ...); the tokens after
it (copy choices, discards) are in free order."""


def split_move(move: Move | str) -> tuple[list[str], list[str]]:
    """A move's fixed head tokens and its free tokens: ``(["take", "2"], ["ye2@0"])``."""
    tokens = str(move).split(" ")
    size = HEAD_LENGTH.get(tokens[0], len(tokens))
    return tokens[:size], tokens[size:]


def candidates(legal: Sequence[Move], text: str) -> list[Move]:
    """The legal moves that a partial move ``text`` may mean, in legal-list order.

    The head's tokens must match in order, the last typed head token as a prefix (``tile bl``
    keeps every blue tile placement, ``take 2`` only the takes of birds, not of ``2``-less
    attributes); the typed free tokens (copy choices, discards) must all be in the move, as a
    multiset. Every ``pass ...`` matches the listed ``pass``.
    """
    typed = text.split()
    if not typed:
        return list(legal)
    out: list[Move] = []
    for move in legal:
        head, rest = split_move(move)
        if head[0] == "pass" and typed[0] == "pass":
            out.append(move)
            continue
        typed_head, typed_rest = typed[: len(head)], typed[len(head) :]
        # The last typed token may be cut short while the head is still being typed.
        prefix_at = len(typed_head) - 1 if not typed_rest else -1
        heads_match = all(
            h.startswith(t) if i == prefix_at else h == t
            for i, (t, h) in enumerate(zip(typed_head, head, strict=False))
        )
        if heads_match and not Counter(typed_rest) - Counter(rest):
            out.append(move)
    return out


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


def _group(moves: Sequence[Move], key: Any) -> tuple[Option, ...]:
    groups: dict[str, list[Move]] = {}
    for move in moves:
        groups.setdefault(key(move), []).append(move)
    return tuple(Option(label, tuple(ms)) for label, ms in groups.items())


def _slots(move: Move) -> dict[str, str]:
    """A take's copy choices: kind -> slot."""
    return dict(token.split("@") for token in split_move(move)[1])


def next_question(moves: Sequence[Move]) -> Question | None:
    """The question that splits ``moves`` (all legal in one position), or ``None`` when they are
    one move (or none). Asked in this order: the action, then the head's parts (attribute; kind,
    cell; area), then a take's copy choices one kind at a time (kind order), then the payment."""
    if len({str(m) for m in moves}) <= 1:
        return None
    heads = [split_move(m)[0] for m in moves]
    labels = {"take": "attribute", "tile": "kind", "exp": "kind", "buy": "area"}
    for index in range(max(len(h) for h in heads)):
        values = {h[index] if index < len(h) else "" for h in heads}
        if len(values) > 1:
            if index == 0:
                return Question("action", "which action?", _group(moves, lambda m: m.verb))
            action = heads[0][0]
            topic = "cell" if index == 2 else labels[action]
            prompt = {
                "attribute": "take which attribute (a colour or a pattern)?",
                "kind": f"{action} which kind?",
                "cell": "on which free space?",
                "area": "buy into which area?",
            }[topic]
            return Question(topic, prompt, _group(moves, lambda m, i=index: split_move(m)[0][i]))
    if moves[0].verb == "take":
        for kind in sorted(_slots(moves[0]), key=KINDS.index):
            if len({_slots(m)[kind] for m in moves}) > 1:
                return Question(
                    "slot",
                    f"take {kind} from which slot?",
                    _group(moves, lambda m, k=kind: _slots(m)[k]),
                )
    return Question(
        "payment",
        "pay with which discards (* is a joker, x a stored expansion)?",
        _group(moves, lambda m: " ".join(split_move(m)[1]) or "nothing"),
    )


def choice_tree(moves: Sequence[Move]) -> dict[str, Any]:
    """The questions that lead to each of ``moves`` (one position's), as nested JSON-ready
    dicts: ``{"move": text}`` when one move is left, else ``{"topic", "prompt", "options":
    [{"label", ...subtree}]}`` (:func:`next_question`)."""
    question = next_question(moves)
    if question is None:
        return {"move": str(moves[0])}
    return {
        "topic": question.topic,
        "prompt": question.prompt,
        "options": [{"label": o.label, **choice_tree(o.moves)} for o in question.options],
    }


def move_choices(legal: Sequence[Move]) -> dict[str, Any]:
    """The legal-move list grouped as a page offers it to clicks, each group a
    :func:`choice_tree` of the questions left once it is clicked:

    * ``take``: attribute -> tree (the slots of kinds found at several slots);
    * ``tile`` / ``exp``: kind -> cell -> tree (the payments);
    * ``buy``: the areas (``buy AREA`` is one move each); ``pass``: whether ``pass`` is legal.
    """
    groups: dict[str, dict[str, Any]] = {"take": {}, "tile": {}, "exp": {}}
    out: dict[str, Any] = {"buy": [], "pass": False}
    for move in legal:
        head, _ = split_move(move)
        if head[0] == "take":
            groups["take"].setdefault(head[1], []).append(move)
        elif head[0] in ("tile", "exp"):
            groups[head[0]].setdefault(head[1], {}).setdefault(head[2], []).append(move)
        elif head[0] == "buy":
            out["buy"].append(head[1])
        else:
            out["pass"] = True
    out["take"] = {attr: choice_tree(ms) for attr, ms in groups["take"].items()}
    for action in ("tile", "exp"):
        out[action] = {
            kind: {cell: choice_tree(ms) for cell, ms in cells.items()}
            for kind, cells in groups[action].items()
        }
    return out
