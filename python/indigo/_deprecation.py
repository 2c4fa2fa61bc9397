"""Old names kept for one release (until 0.3.0), each with a :class:`DeprecationWarning` that
names its replacement (docs/api.md, "Names").

Three of ``Game``'s properties became methods, OpenSpiel's form (``legal_actions()``,
``rewards()``, ``is_chance_node()``). For one release the attribute is a value that works both
ways: calling it returns the plain value silently; reading it as the old property did (a list's
length, items, iteration, ``in`` and ``==``; a truth value's ``bool`` and ``==``) warns.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar, SupportsIndex, TypeVar, overload

__all__ = ["CalledBool", "CalledList", "IsChanceNode", "LegalActions", "Rewards", "warn"]

_T = TypeVar("_T")


def warn(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``; ``stacklevel`` 3 points at the
    caller of the function that calls this."""
    warnings.warn(
        f"{old} is deprecated and will be removed in indigo 0.3.0: use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


class CalledList(list[_T]):
    """A list from a property that became a method: ``value()`` is the list (no warning); using
    the value itself as a list warns."""

    __slots__ = ()
    old: ClassVar[str]
    new: ClassVar[str]

    def __call__(self) -> list[_T]:
        return list.copy(self)

    def _warn(self) -> None:
        warn(f"{self.old} without a call", self.new, stacklevel=4)

    def __len__(self) -> int:
        self._warn()
        return super().__len__()

    def __iter__(self) -> Any:
        self._warn()
        return super().__iter__()

    @overload
    def __getitem__(self, index: SupportsIndex) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> _T | list[_T]:
        self._warn()
        return super().__getitem__(index)

    def __contains__(self, value: object) -> bool:
        self._warn()
        return super().__contains__(value)

    def __eq__(self, other: object) -> bool:
        self._warn()
        return super().__eq__(other)


class LegalActions(CalledList[int]):
    """``Game.legal_actions``: call it, ``game.legal_actions()``."""

    __slots__ = ()
    old = "Game.legal_actions"
    new = "Game.legal_actions()"


class Rewards(CalledList[int]):
    """``Game.rewards``: call it, ``game.rewards()``."""

    __slots__ = ()
    old = "Game.rewards"
    new = "Game.rewards()"


class CalledBool:
    """A truth value from a property that became a method: ``value()`` is the ``bool`` (no
    warning); its truth or equality warns."""

    __slots__ = ("_value",)
    old: ClassVar[str]
    new: ClassVar[str]

    def __init__(self, value: bool) -> None:
        self._value = value

    def __call__(self) -> bool:
        return self._value

    def __bool__(self) -> bool:
        warn(f"{self.old} without a call", self.new)
        return self._value

    def __eq__(self, other: object) -> bool:
        warn(f"{self.old} without a call", self.new)
        return self._value == other

    def __hash__(self) -> int:
        return hash(self._value)

    def __repr__(self) -> str:
        return repr(self._value)


class IsChanceNode(CalledBool):
    """``Game.is_chance_node``: call it, ``game.is_chance_node()``."""

    __slots__ = ()
    old = "Game.is_chance_node"
    new = "Game.is_chance_node()"
