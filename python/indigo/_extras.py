"""Optional dependencies: import one, or say which extra of indigo installs it."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise :class:`ImportError` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this needs {module}: pip install 'indigo[{extra}]' ({exc})") from exc
