"""Optional dependencies: import one, or say which extra of the distribution installs it."""

from __future__ import annotations

import importlib
from types import ModuleType

# The distribution's name on the package index (the import name is `indigo`).
DISTRIBUTION = "indigo-tiles"


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise :class:`ImportError` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this needs {module}: {install_hint(extra)} ({exc})") from exc


def install_hint(extra: str) -> str:
    """How to install ``extra``: from the package index, or from a checkout."""
    return f"pip install '{DISTRIBUTION}[{extra}]' (or '.[{extra}]' in a checkout)"
