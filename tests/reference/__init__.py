"""Independent reference engines for differential tests (see :mod:`reference.engine`)."""

from reference.engine import RefGame

__all__ = ["RefGame"]
